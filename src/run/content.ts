/**
 * `extractContent(source, options)`: the main content of every page (src/content/): the site template
 * removed by the engine best suited to the source (or the one given), then the main block chosen among
 * what is left. What `gabarit content` runs, as an async iterable of page outcomes (content marks set) plus
 * a result. Options are validated when the call is made (EngineError `bad-option`).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { CONTENT_DEFAULTS } from '../content/defaults.ts';
import type { HeadlinePlacement } from '../content/extract.ts';
import { contentHeadline } from '../content/format.ts';
import type { pageMetadata } from '../content/metadata.ts';
import { ENGINES, engineOptions } from '../template/engines.ts';
import { declareOptions, option, type OptionValues, wholeNumber, WORKERS } from '../template/options.ts';
import { runBySite, siteResults } from './by-site.ts';
import { type CommandHooks, type PipelineDestination, pipelineCommand } from './command.ts';
import { CONTENT_METHOD, type ContentFlags, HEADLINE, MAIN_BLOCK, type SourceFlags } from './options.ts';
import { doneOutcome, driveEngine, type Emit, type PipelineRun, runPipeline, treesOnly } from './drive.ts';
import { SINGLE_PAGE, singleTreeMarks } from './single.ts';
import { ownOptions } from './source.ts';
import type { PageDone, RunControls, SourceInput } from './types.ts';
import type { Written } from './write.ts';

/** Options of the content pipeline, declared once (types, defaults, validation). */
export const CONTENT_OPTIONS = declareOptions('content', {
  method: option(z.enum(Object.keys(ENGINES) as [string, ...string[]]).optional(), CONTENT_METHOD),
  mainBlock: MAIN_BLOCK,
  headline: HEADLINE,
  siteVote: option(z.boolean().default(true), { cli: false, description: "the first pages vote for the place of the site's main content" }),
  voteSample: option(wholeNumber(1).default(CONTENT_DEFAULTS.voteSample), { cli: false, description: 'pages held for the site vote' }),
  workers: WORKERS,
  engineOptions: option(z.record(z.string(), z.unknown()).default({}), {
    cli: false,
    description: "options of the template engine (those of detectTemplate); with a method chosen from the source, those it does not take are named by a warning and not applied",
  }),
});
export type ContentOptions = OptionValues<typeof CONTENT_OPTIONS.shape>;

/** Options of `extractContent`. */
export type ExtractOptions = Partial<ContentOptions> & RunControls;

/** The main content of every page of `source` (see the module comment). */
export function extractContent(source: SourceInput, options: ExtractOptions = {}): PipelineRun {
  const o = CONTENT_OPTIONS.parse(ownOptions(options as Readonly<Record<string, unknown>>));
  // A method given takes every engine option given, checked now (EngineError `bad-option`).
  if (o.method) engineOptions(o.method).parse(o.engineOptions);
  return treesOnly(runPipeline('content', source, { ...options, rendered: false }, async (src, emit, signal) => {
    const [{ contentEngine }, { pageMetadata }, { engineRunner }] = await Promise.all([import('../content/engine.ts'), import('../content/metadata.ts'), import('./pooled.ts')]);
    const engine = contentEngine({
      ...(o.method ? { method: o.method } : {}),
      mainBlock: o.mainBlock,
      headline: o.headline,
      siteVote: o.siteVote,
      voteSample: o.voteSample,
      engineOptions: o.engineOptions,
      workers: o.workers,
      runner: engineRunner(o.workers),
    });
    const rescue = (p: PageDone): PageDone => {
      const better = p.noContent ? mainBlockAlone(p, o.headline) : undefined;
      if (!better) return p;
      options.onWarning?.(`${p.url}: the site's template left no content on this page; its main block alone is given`);
      return better;
    };
    const r = await runBySite(src, o.method ?? '', options, withMetadata(emit, pageMetadata, options.onWarning), (view, out, site) => driveEngine(engine, view, {}, { ...options, rendered: false }, out, { signal, site, refine: rescue }), { headline: o.headline });
    const methods = r.sites.filter((s) => s.run).map((s) => String(s.run!.summary['method'] ?? ''));
    const one = r.sites.length === 1 ? r.sites[0]!.run?.summary : undefined;
    const method = one ? String(one['method'] ?? o.method ?? '') : (mostCommon(methods) ?? SINGLE_PAGE);
    const alone = r.sites.filter((s) => s.method === SINGLE_PAGE).length;
    const reason = one ? String(one['reason'] ?? '') : r.sites.length === 1 ? 'one page: its main block alone (a template needs two pages of a site)' : `${r.sites.length} sites: a template learned on ${methods.length}, ${alone} page(s) alone (main block)`;
    return { method, options: { mainBlock: o.mainBlock, headline: o.headline, ...(Object.keys(o.engineOptions).length > 0 ? { engineOptions: o.engineOptions } : {}) }, extra: { reason }, driven: r.driven, learned: siteResults(r) };
  }));
}

/**
 * `emit` with each page done given its metadata (`info.metadata`, read by `read`: src/content/metadata.ts,
 * loaded with the pipeline); a JSON-LD block that is not JSON is named by a warning.
 */
function withMetadata(emit: Emit, read: typeof pageMetadata, warn?: (message: string) => void): Emit {
  return (o) => {
    if (!o.ok || !('marks' in o)) return emit(o);
    const headline = contentHeadline(o.info);
    let found: ReturnType<typeof pageMetadata>;
    try {
      found = read(o.marks.tree, { url: o.url, ...(headline !== '' ? { headline } : {}) });
    } catch (err) {
      // The page's content stands without its metadata, which is then absent (and said so).
      warn?.(`${o.url}: its metadata could not be read (${err instanceof Error ? err.message : String(err)}): left out`);
      return emit(o);
    }
    for (const w of found.warnings) warn?.(`${o.url}: ${w}`);
    return emit({ ...o, info: { ...o.info, metadata: found.metadata } });
  };
}

/** The single-page answer of a page the site's template left without content, when it has content. */
function mainBlockAlone(p: PageDone, headline: HeadlinePlacement): PageDone | undefined {
  const { marks, info } = singleTreeMarks(p.marks.tree, p.key, p.url, headline);
  const o = doneOutcome(marks, { ...p.info, ...info, fallback: 'no content left by the template' });
  return o.ok && !o.noContent ? o : undefined;
}

/** The most frequent string (the first of the most frequent), or undefined for none. */
function mostCommon(xs: readonly string[]): string | undefined {
  const n = new Map<string, number>();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  let best: string | undefined;
  for (const [x, c] of n) if (best === undefined || c > n.get(best)!) best = x;
  return best;
}

/**
 * `gabarit content` without printing: opens `spec` with the source options, extracts the main content
 * (the template engine `flags.method`, or chosen from the source, with the engine's options given) and
 * writes the output contract to `to` (`pipelineCommand`), plus, for `flags.format` html, markdown or json,
 * `<page>.content.html` / `.md` / `.json` beside each page.
 */
export async function contentCommand(spec: string, flags: ContentFlags & SourceFlags, engineOptions: Record<string, unknown>, to: PipelineDestination, hooks: CommandHooks = {}): Promise<Written> {
  const format = flags.format;
  const [{ writeFile }, { formatContent, FORMAT_EXTENSION }, { pageStem }] = await Promise.all([import('node:fs/promises'), import('../content/format.ts'), import('../output.ts')]);
  const dir = typeof to.out === 'string' ? to.out : null;
  return pipelineCommand(
    spec,
    flags,
    to,
    hooks,
    (source, controls) => extractContent(source, { ...(flags.method ? { method: flags.method } : {}), engineOptions, mainBlock: flags.mainBlock, headline: flags.headline, workers: flags.workers, ...controls }),
    {
      summary: { format },
      onPage: async (p, stem) => {
        if (dir !== null && format !== 'text' && format !== 'jsonl') await writeFile(join(dir, (stem ?? pageStem(p.key)) + FORMAT_EXTENSION[format]), formatContent(p.marks, format, { ...p.info }));
      },
    },
  );
}
