/**
 * `extractContent(source, options)`: the main content of every page (src/content/): the site template
 * removed by the engine best suited to the source (or the one given), then the main block chosen among
 * what is left. What `gabarit content` runs, as an async iterable of page outcomes (content marks set) plus
 * a result. Options are validated when the call is made (EngineError `bad-option`).
 */
import { z } from 'zod';
import { CONTENT_DEFAULTS } from '../content/defaults.ts';
import { ENGINES } from '../template/engines.ts';
import { declareOptions, option, type OptionValues, wholeNumber } from '../template/options.ts';
import { driveEngine, type PipelineRun, runPipeline } from './drive.ts';
import type { RunControls, SourceInput } from './types.ts';

/** Options of the content pipeline, declared once (types, defaults, validation). */
export const CONTENT_OPTIONS = declareOptions('content', {
  method: option(z.enum(Object.keys(ENGINES) as [string, ...string[]]).optional(), {
    arg: 'name',
    description: 'template engine (default: chosen from the source: hyperlink, align or pagelets)',
  }),
  mainBlock: option(z.enum(['auto', 'always', 'never']).default('auto'), {
    arg: 'when',
    description: 'choose a main block among non-template nodes: auto (after align/pagelets), always, never',
  }),
  siteVote: option(z.boolean().default(true), { cli: false, description: "the first pages vote for the place of the site's main content" }),
  voteSample: option(wholeNumber(1).default(CONTENT_DEFAULTS.voteSample), { cli: false, description: 'pages held for the site vote' }),
});
export type ContentOptions = OptionValues<typeof CONTENT_OPTIONS.shape>;

/** Options of `extractContent`. */
export type ExtractOptions = Partial<ContentOptions> & RunControls;

const CONTROL_KEYS: ReadonlySet<string> = new Set(['sourceOptions', 'maxPages', 'labels', 'onProgress', 'onWarning', 'signal']);

/** The main content of every page of `source` (see the module comment). */
export function extractContent(source: SourceInput, options: ExtractOptions = {}): PipelineRun {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (!CONTROL_KEYS.has(k)) raw[k] = v;
  const o = CONTENT_OPTIONS.parse(raw);
  return runPipeline('content', source, options, async (src, emit, signal) => {
    const { contentEngine } = await import('../content/engine.ts');
    const engine = contentEngine({ ...(o.method ? { method: o.method } : {}), mainBlock: o.mainBlock, siteVote: o.siteVote, voteSample: o.voteSample });
    const driven = await driveEngine(engine, src, {}, options, emit, signal);
    const summary = driven.run?.summary ?? {};
    return { method: String(summary['method'] ?? o.method ?? ''), options: { mainBlock: o.mainBlock }, extra: { reason: String(summary['reason'] ?? '') }, driven };
  });
}
