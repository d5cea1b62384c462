/**
 * `detectTemplate(source, { method, ...options })`: learns the template of a source's site with one engine
 * (align, hyperlink, pagelets) and marks every page with it, as an async iterable of page outcomes plus a
 * result (`result()`). What `gabarit template` runs; `writeOutputs` (write.ts) writes the output contract.
 * Options are validated when the call is made: an unknown method or option, or a bad value, throws an
 * EngineError `bad-option` at once.
 */
import type { AlignOptions } from '../template/align/options.ts';
import { engineOptions, type EngineOptionValues, loadEngine, type Method } from '../template/engines.ts';
import type { HyperlinkOptionValues } from '../template/hyperlink/options.ts';
import type { PageletOptions } from '../template/pagelets/options.ts';
import { runBySite, siteResults } from './by-site.ts';
import { type CommandHooks, type PipelineDestination, pipelineCommand } from './command.ts';
import { driveEngine, type PipelineRun, type RenderingRun, runPipeline } from './drive.ts';
import { defaultWorkers } from './page-pool.ts';
import { ownOptions } from './source.ts';
import type { SourceFlags } from './options.ts';
import type { RunControls, SourceInput } from './types.ts';
import type { Written } from './write.ts';

/** The options of one engine, by method (each key optional: the engine's defaults fill the rest). */
export type MethodOptions =
  | ({ method?: 'align' } & Partial<AlignOptions>)
  | ({ method: 'hyperlink' } & Partial<HyperlinkOptionValues>)
  | ({ method: 'pagelets' } & Partial<PageletOptions>);

/** Options of `detectTemplate`: the method and its options, and the run's controls. */
export type DetectOptions = MethodOptions & RunControls;

/** Splits a pipeline's options into the method, the engine's options (validated) and the run's controls. */
export function splitOptions(options: Readonly<Record<string, unknown>>, fallback: Method = 'align'): { method: Method; engine: EngineOptionValues; controls: RunControls } {
  const method = (options['method'] ?? fallback) as string;
  const declared = engineOptions(method);
  // `workers` is a control of every run, and an option of the engines that declare it (pagelets).
  const engine = declared.parse(ownOptions(options, declared.names.includes('workers') ? ['method'] : ['method', 'workers'])) as EngineOptionValues;
  return { method: method as Method, engine, controls: options as RunControls };
}

/**
 * Learns the template of `source` with one engine and marks every page (see the module comment). With
 * `rendered: true`, pages an engine can write without their tree come as `PageRendered` (writeOutputs
 * writes them like the others).
 */
export function detectTemplate(source: SourceInput, options: DetectOptions & { rendered: true }): RenderingRun;
export function detectTemplate(source: SourceInput, options?: DetectOptions): PipelineRun;
export function detectTemplate(source: SourceInput, options: DetectOptions = {}): PipelineRun | RenderingRun {
  const { method, engine: values, controls } = splitOptions(options as Readonly<Record<string, unknown>>);
  return runPipeline('template', source, controls, async (src, emit, signal) => {
    const [engine, { engineRunner }] = await Promise.all([loadEngine(method), import('./pooled.ts')]);
    // One pool of workers for every site of the run.
    const runner = engineRunner(controls.workers ?? defaultWorkers());
    let r: Awaited<ReturnType<typeof runBySite>>;
    try {
      r = await runBySite(src, method, controls, emit, (view, out, site) => driveEngine(engine, view, values, controls, out, { signal, site, runner }));
    } finally {
      await runner.close();
    }
    return { method, options: values, driven: r.driven, learned: siteResults(r) };
  });
}

/**
 * `gabarit template` without printing: opens `spec` with the source options, learns the template with
 * `flags.method` and the engine's options given (`engine`), and writes the output contract to `to`
 * (`pipelineCommand`). A bad engine option is a UsageError.
 */
export function templateCommand(spec: string, flags: SourceFlags & { method: Method; workers?: number }, engine: Readonly<Partial<EngineOptionValues>>, to: PipelineDestination, hooks: CommandHooks = {}): Promise<Written> {
  return pipelineCommand(spec, flags, to, hooks, (source, controls) => detectTemplate(source, { method: flags.method, ...engine, ...(flags.workers !== undefined ? { workers: flags.workers } : {}), ...controls, rendered: true, ...(to.jsonl ? { textOnly: true } : {}) } as DetectOptions & { rendered: true }));
}
