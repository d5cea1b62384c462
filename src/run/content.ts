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
import type { ContentFormat } from '../content/format.ts';
import { ENGINES, engineOptions } from '../template/engines.ts';
import { declareOptions, option, type OptionValues, wholeNumber, WORKERS } from '../template/options.ts';
import { runBySite, siteResults } from './by-site.ts';
import { type CommandHooks, type PipelineDestination, pipelineCommand } from './command.ts';
import { CONTENT_METHOD, type ContentFlags, HEADLINE, MAIN_BLOCK, methodCounts, methodTally, type SourceFlags } from './options.ts';
import { driveEngine, type Emit, type PipelineRun, type RenderingRun, runPipeline, treesOnly } from './drive.ts';
import type { withPageMetadata } from './page-content.ts';
import { SINGLE_PAGE } from './single.ts';
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

/**
 * Options of `extractContent`. With `rendered: true`, pages finished in worker threads come rendered
 * (`PageRendered`: their files made there, their metadata in `info`), and with `format` their main content
 * formatted so as well (`rendered.formatted`).
 */
export type ExtractOptions = Partial<ContentOptions> & RunControls & { format?: ContentFormat };

/** The main content of every page of `source` (see the module comment). */
export function extractContent(source: SourceInput, options: ExtractOptions & { rendered: true }): RenderingRun;
export function extractContent(source: SourceInput, options?: ExtractOptions): PipelineRun;
export function extractContent(source: SourceInput, options: ExtractOptions = {}): PipelineRun | RenderingRun {
  const o = CONTENT_OPTIONS.parse(ownOptions(options as Readonly<Record<string, unknown>>, ['format']));
  // A method given takes every engine option given, checked now (EngineError `bad-option`).
  if (o.method) engineOptions(o.method).parse(o.engineOptions);
  const rendered = options.rendered === true;
  return runPipeline('content', source, { ...options, rendered }, async (src, emit, signal) => {
    const [{ contentEngine }, { withPageMetadata, mainBlockAlone, MAIN_BLOCK_ALONE }, { engineRunner }] = await Promise.all([import('../content/engine.ts'), import('./page-content.ts'), import('./pooled.ts')]);
    // One pool of workers for every site of the run.
    const runner = engineRunner(o.workers, options.format !== undefined ? { format: options.format } : {});
    const engine = contentEngine({
      ...(o.method ? { method: o.method } : {}),
      mainBlock: o.mainBlock,
      headline: o.headline,
      siteVote: o.siteVote,
      voteSample: o.voteSample,
      engineOptions: o.engineOptions,
      workers: o.workers,
      runner,
    });
    const rescue = (p: PageDone): PageDone => {
      const better = p.noContent ? mainBlockAlone(p, o.headline) : undefined;
      if (!better) return p;
      options.onWarning?.(`${p.url}: ${MAIN_BLOCK_ALONE}`);
      return better;
    };
    let r: Awaited<ReturnType<typeof runBySite>>;
    try {
      r = await runBySite(src, o.method ?? '', options, withMetadata(emit, withPageMetadata, options.onWarning), (view, out, site) => driveEngine(engine, view, {}, { ...options, rendered }, out, { signal, site, refine: rescue }), { headline: o.headline });
    } finally {
      await runner.close();
    }
    const methods = r.sites.filter((s) => s.run).map((s) => String(s.run!.summary['method'] ?? ''));
    const one = r.sites.length === 1 ? r.sites[0]!.run?.summary : undefined;
    const method = one ? String(one['method'] ?? o.method ?? '') : (methodCounts(methods)[0]?.[0] ?? SINGLE_PAGE);
    const alone = r.sites.filter((s) => s.method === SINGLE_PAGE).length;
    const reason = one ? String(one['reason'] ?? '') : r.sites.length === 1 ? 'one page: its main block alone (a template needs two pages of a site)' : `${r.sites.length} sites: a template learned on ${methods.length}${methodTally(methods)}, ${alone} page(s) alone (main block)`;
    return { method, options: { mainBlock: o.mainBlock, headline: o.headline, ...(Object.keys(o.engineOptions).length > 0 ? { engineOptions: o.engineOptions } : {}) }, extra: { reason }, driven: r.driven, learned: siteResults(r) };
  });
}

/**
 * `emit` with each page done on this thread given its metadata (`info.metadata`: withPageMetadata, loaded
 * with the pipeline); a page rendered in a worker comes with it.
 */
function withMetadata(emit: Emit, read: typeof withPageMetadata, warn?: (message: string) => void): Emit {
  return (o) => {
    if (!o.ok || !('marks' in o)) return emit(o);
    const m = read(o);
    for (const w of m.warnings) warn?.(w);
    return emit(m.page);
  };
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
  // The content format written beside each page's files, if any (text is the page's .txt; jsonl its record).
  const other = format !== 'text' && format !== 'jsonl' ? format : undefined;
  return pipelineCommand(
    spec,
    flags,
    to,
    hooks,
    (source, controls) =>
      extractContent(source, { ...(flags.method ? { method: flags.method } : {}), engineOptions, mainBlock: flags.mainBlock, headline: flags.headline, workers: flags.workers, ...controls, rendered: true, ...(other ? { format: other } : {}) }),
    {
      summary: { format },
      onPage: async (p, stem) => {
        if (dir === null || !other) return;
        // A page finished in a worker comes with its content formatted there.
        const body = 'marks' in p ? formatContent(p.marks, other, { ...p.info }) : p.rendered.formatted;
        if (body === undefined) throw new Error(`its ${other} content was not made`);
        await writeFile(join(dir, (stem ?? pageStem(p.key)) + FORMAT_EXTENSION[other]), body);
      },
    },
  );
}
