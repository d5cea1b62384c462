/**
 * `hits(source, options)`: HITS over the pagelet graph of a source (paper 3, section 4, Case 1;
 * src/analysis/hits.ts): hubs are non-template pagelets, authorities are pages; the edges of template
 * pagelets are omitted unless `keepTemplates`. With `query`, only pagelets whose text holds every query
 * word are hubs (the paper's FNM filter). What `gabarit hits` runs (`hitsCommand`, from the command's
 * flags); `writeHits` writes `hits.json` and
 * `summary.json`.
 */
import { join, resolve } from 'node:path';
import type { PageFailure } from '../output.ts';
import { type CommandHooks, interruptionOf, overSource } from './command.ts';
import { type PageletRunOptions, pageletMethod, withSitePagelets } from './site-pagelets.ts';
import { HITS_OPTIONS, type HitsFlags, type OutFlags, type SourceFlags } from './options.ts';
import type { CommandSummary, SourceInput } from './types.ts';

/** How many hubs and authorities a run gives by default (HITS_OPTIONS). */
export const HITS_TOP = HITS_OPTIONS.defaults().top;

/** Options of `hits`. */
export interface HitsOptions extends PageletRunOptions {
  /** Only pagelets whose text holds all these words are hubs. */
  query?: string;
  /** Keep the edges of template pagelets (the vanilla pagelet graph, for comparison). */
  keepTemplates?: boolean;
  /** How many hubs and authorities to give (default HITS_TOP). */
  top?: number;
  /** Links to pages outside the source are authorities too (default true). */
  external?: boolean;
}

/** A hub: a pagelet (`<page key>#<ordinal>`), its score, whether it is template, the start of its text. */
export interface Hub {
  pagelet: string | undefined;
  score: number;
  template: boolean;
  text: string;
}

/** An authority: a page, its URL as links resolve and its key when it is in the source. */
export interface Authority {
  url: string;
  key?: string;
  score: number;
}

/** summary.json of `gabarit hits`. */
export interface HitsSummary extends CommandSummary {
  command: 'hits';
  method: 'pagelets-global' | 'pagelets-local';
  query: string | null;
  templateEdgesDropped: boolean;
  hubs: number;
  authorities: number;
  templatePagelets: number;
}

/** What `hits` gives. */
export interface HitsResult {
  hubs: Hub[];
  authorities: Authority[];
  iterations: number;
  failures: PageFailure[];
  summary: HitsSummary;
}

/** HITS over the pagelets of `source` (see the module comment). */
export async function hits(source: SourceInput, options: HitsOptions = {}): Promise<HitsResult> {
  const [{ hits: hitsOf, pageletGraph, top }, { keyOfLinkTarget }] = await Promise.all([import('../analysis/hits.ts'), import('../analysis/site-pagelets.ts')]);
  const n = options.top ?? HITS_TOP;
  const { value, site, failures, name, counts } = await withSitePagelets(source, options, (site, src) => {
    const graph = pageletGraph(site, { dropTemplates: !options.keepTemplates, ...(options.query !== undefined ? { query: options.query } : {}), external: options.external !== false });
    const scores = hitsOf(graph);
    const hubs = top(scores.hub, n).map(([h, s]): Hub => {
      const [key, ord] = graph.hubs[h]!.split('#') as [string, string];
      const page = site.pages.find((p) => p.key === key);
      return { pagelet: graph.hubs[h], score: s, template: graph.hubTemplate[h] === 1, text: (page?.text[Number(ord)] ?? '').replace(/\s+/g, ' ').slice(0, 80) };
    });
    const authorities = top(scores.authority, n).map(([a, s]): Authority => {
      const url = graph.authorities[a]!;
      const key = keyOfLinkTarget(url, src);
      return key === undefined ? { url, score: s } : { url, key, score: s };
    });
    return { graph, hubs, authorities, iterations: scores.iterations };
  });
  const { graph, hubs, authorities, iterations } = value;
  const templatePagelets = site.pages.reduce((k, p) => k + p.template.reduce((x, y) => x + y, 0), 0);
  const summary: HitsSummary = {
    command: 'hits',
    method: pageletMethod(options),
    source: name,
    ...counts,
    query: options.query ?? null,
    templateEdgesDropped: !options.keepTemplates,
    hubs: graph.hubs.length,
    authorities: graph.authorities.length,
    templatePagelets,
  };
  return { hubs, authorities, iterations, failures, summary };
}

/** Writes a HITS run in `dir`: `hits.json` and `summary.json` (with `extra` fields). */
export async function writeHits(result: HitsResult, dir: string, extra: Record<string, unknown> = {}): Promise<void> {
  const { OutputWriter } = await import('../output.ts');
  const writer = new OutputWriter(dir);
  await writer.writeJson('hits.json', { hubs: result.hubs, authorities: result.authorities, iterations: result.iterations });
  await writer.writeJson('summary.json', { ...result.summary, ...extra });
}

/**
 * `gabarit hits` without printing: opens `spec` with the source options, runs `hits` and writes its files
 * in `flags.out`; failed pages go to the hooks.
 */
export async function hitsCommand(spec: string, flags: HitsFlags & SourceFlags & OutFlags, hooks: CommandHooks = {}): Promise<HitsResult & { dir: string }> {
  const r = await overSource(spec, flags, hooks, (source) => hits(source, { name: spec, ...HITS_OPTIONS.pick(flags) }));
  for (const f of r.failures) hooks.failure?.(f);
  const dir = resolve(flags.out);
  await writeHits(r, dir, interruptionOf(hooks));
  hooks.onSummary?.(join(dir, 'summary.json'), r.summary.pagesDone);
  return { ...r, dir };
}
