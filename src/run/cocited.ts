/**
 * `cocited(source, { url })`: the pages most often co-cited with a page (paper 3, section 4, Case 3; Dean
 * & Henzinger's co-citation algorithm), counted within pagelets and with citations from template pagelets
 * ignored (src/analysis/cocitation.ts). `pageWeight` also counts co-citations elsewhere on the same page,
 * with that weight; `keepTemplates` counts template citations too (the classic algorithm). `url` is a URL,
 * or a key of the source. What `gabarit cocited` runs (`cocitedCommand`, from the command's flags);
 * `writeCocited` writes `cocited.json` and `summary.json`. A page that no page of the source is or links to gives no related page and
 * `summary.error` (`unknown-page`): most likely a mistyped page, not a page nobody co-cites.
 */
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import type { PageFailure } from '../output.ts';
import { type CommandHooks, interruptionOf, overSource } from './command.ts';
import { type PageletRunOptions, pageletMethod, withSitePagelets } from './site-pagelets.ts';
import { COCITED_OPTIONS, type CocitedFlags, type OutFlags, type SourceFlags } from './options.ts';
import type { CommandSummary, SourceInput } from './types.ts';

const COCITED_DEFAULTS = COCITED_OPTIONS.parse({ url: '' });
/** How many related pages a run gives by default (COCITED_OPTIONS). */
export const COCITED_TOP = COCITED_DEFAULTS.top;
/** The weight of a co-citation in another pagelet of the same page, by default: none (same pagelet only). */
export const COCITED_PAGE_WEIGHT = COCITED_DEFAULTS.pageWeight;

/** Options of `cocited`. */
export interface CocitedOptions extends PageletRunOptions {
  /** The page whose co-cited pages are wanted: a URL, or a key of the source. */
  url: string;
  /** How many related pages to give (default COCITED_TOP). */
  top?: number;
  /** Weight of a co-citation in another pagelet of the same page (default 0: same pagelet only). */
  pageWeight?: number;
  /** Count citations from template pagelets too. */
  keepTemplates?: boolean;
}

/** summary.json of `gabarit cocited`. */
export interface CocitedSummary extends CommandSummary {
  command: 'cocited';
  method: 'pagelets-global' | 'pagelets-local';
  /** The page, as its links are resolved (a directory's pages sit under http://local.invalid/). */
  target: string;
  /** The page's key in the source, when it is in the source. */
  targetKey?: string;
  templateCitationsIgnored: boolean;
  pageWeight: number;
  /** Set when the run could not answer (the page is unknown to the source). */
  error?: { code: string; message: string };
}

/** A page co-cited with the target: its URL as links resolve, its key when it is in the source. */
export interface RelatedPage {
  url: string;
  key?: string;
  score: number;
}

/** What `cocited` gives. */
export interface CocitedResult {
  target: string;
  related: RelatedPage[];
  failures: PageFailure[];
  summary: CocitedSummary;
}

/** The pages co-cited with `options.url` in `source` (see the module comment). */
export async function cocited(source: SourceInput, options: CocitedOptions): Promise<CocitedResult> {
  const [{ cocited: cocitedWith, isKnownTarget }, { linkBaseUrl }, { keyOfLinkTarget }] = await Promise.all([
    import('../analysis/cocitation.ts'),
    import('../template/pagelets/links.ts'),
    import('../analysis/site-pagelets.ts'),
  ]);
  const pageWeight = options.pageWeight ?? COCITED_PAGE_WEIGHT;
  const { value, failures, name, counts } = await withSitePagelets(source, options, (site, src) => {
    // a key of the source is resolved the way the source's own links are
    const target = /^[a-z][a-z0-9+.-]*:/i.test(options.url) ? options.url : linkBaseUrl({ url: src.urlOf(options.url), key: options.url });
    const known = site.pages.length === 0 || isKnownTarget(site, target);
    const related: RelatedPage[] = (known ? cocitedWith(site, target, { ignoreTemplates: !options.keepTemplates, pageWeight, limit: options.top ?? COCITED_TOP }) : []).map((r) => {
      const key = keyOfLinkTarget(r.url, src);
      return key === undefined ? r : { url: r.url, key, score: r.score };
    });
    return { target, known, related, targetKey: keyOfLinkTarget(target, src) };
  });
  const { target, known, related, targetKey } = value;
  const summary: CocitedSummary = {
    command: 'cocited',
    method: pageletMethod(options),
    source: name,
    target,
    ...(targetKey !== undefined ? { targetKey } : {}),
    ...counts,
    templateCitationsIgnored: !options.keepTemplates,
    pageWeight,
  };
  if (!known) summary.error = { code: 'unknown-page', message: `${options.url}: not a page of ${summary.source}, and no page of it links there` };
  return { target, related, failures, summary };
}

/**
 * Writes a co-citation run in `dir`: `cocited.json` and `summary.json` (with `extra` fields); for a run
 * that could not answer (`summary.error`), `summary.json` alone.
 */
export async function writeCocited(result: CocitedResult, dir: string, extra: Record<string, unknown> = {}): Promise<void> {
  const { OutputWriter } = await import('../output.ts');
  const writer = new OutputWriter(dir);
  if (!result.summary.error) await writer.writeJson('cocited.json', { target: result.target, related: result.related });
  await writer.writeJson('summary.json', { ...result.summary, ...extra });
}

/**
 * `gabarit cocited` without printing: opens `spec` with the source options, runs `cocited` and writes its
 * files in `flags.out`; failed pages go to the hooks. A page unknown to the source is a UsageError (after
 * summary.json is written with its error): most likely a mistyped `--url`, not a page nobody co-cites.
 */
export async function cocitedCommand(spec: string, flags: CocitedFlags & SourceFlags & OutFlags, hooks: CommandHooks = {}): Promise<{ summary: CocitedSummary; related: RelatedPage[]; dir: string }> {
  const r = await overSource(spec, flags, hooks, (source) => cocited(source, { name: spec, ...COCITED_OPTIONS.pick(flags) }));
  for (const f of r.failures) hooks.failure?.(f);
  const dir = resolve(flags.out);
  const error = r.summary.error;
  if (error) {
    const message = `--url ${error.message}`;
    await writeCocited(r, dir, { error: { code: error.code, message } });
    throw new UsageError(message);
  }
  await writeCocited(r, dir, interruptionOf(hooks));
  hooks.onSummary?.(join(dir, 'summary.json'), r.summary.pagesDone);
  return { summary: r.summary, related: r.related, dir };
}
