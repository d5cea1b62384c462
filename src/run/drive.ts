/**
 * Runs one TemplateEngine on one source and turns its callbacks into page outcomes (the one place where
 * the pipelines build an EngineContext): each marked page is checked for content (no-content.ts) and
 * handed on, awaited (back-pressure); each failed page is handed on as it comes. An engine that cannot
 * justify a result (EngineError) or lacks a page it needs (PageError) ends its run with an error; the
 * pages already handed on stay done.
 */
import { EngineError, PageError } from '../errors.ts';
import { LabelTable } from '../html/labels.ts';
import type { PageSource } from '../site/page.ts';
import type { EngineContext, EngineRun, TemplateEngine } from '../template/engine.ts';
import type { PageMarks } from '../template/result.ts';
import { doneOutcome, renderedNoContent } from './no-content.ts';

export { doneOutcome };
import type { RenderedPage } from '../output.ts';
import { networkLoads, openInput } from './source.ts';
import { RunStream } from './stream.ts';
import type { AnyOutcome, PageDone, PageOutcome, RunControls, RunError, RunResult, SourceInput } from './types.ts';

/** What one engine run gave, besides the pages it handed on. */
export interface Driven {
  run?: EngineRun;
  error?: RunError;
  done: number;
  failed: number;
  noContent: number;
}

/** Hands a page outcome on (to a RunStream's emit); resolves when it is taken within the capacity. */
export type Emit = (outcome: AnyOutcome) => Promise<void>;

/** How an engine runs: its abort signal, the site it learns (for its template), and a refinement of its pages. */
export interface DriveOptions {
  signal?: AbortSignal;
  site?: string;
  /** May replace a marked page's outcome before it is counted and handed on. */
  refine?: (o: PageDone) => PageDone;
  /** Runs the engine on its context (default `engine.run`), e.g. with its pages marked in worker threads (pooled.ts). */
  runner?: (engine: TemplateEngine, ctx: EngineContext) => Promise<EngineRun>;
}

/** Runs `engine` with `options` over `source`, handing each page's outcome to `emit`. */
export async function driveEngine(engine: TemplateEngine, source: PageSource, options: Record<string, unknown>, controls: RunControls, emit: Emit, how: DriveOptions = {}): Promise<Driven> {
  const { signal, refine, site, runner } = how;
  const out: Driven = { done: 0, failed: 0, noContent: 0 };
  try {
    const ctx: EngineContext = {
      source,
      labels: controls.labels ?? new LabelTable(),
      options,
      onPage: async (marks, extra) => {
        const o = refine ? refine(doneOutcome(marks, extra)) : doneOutcome(marks, extra);
        out.done++;
        if (o.noContent) out.noContent++;
        await emit(o);
      },
      ...(controls.rendered
        ? {
            onRendered: async (rendered: RenderedPage, extra?: Record<string, unknown>) => {
              const nc = rendered.noContent === undefined ? renderedNoContent(rendered) : (rendered.noContent ?? undefined);
              out.done++;
              if (nc) out.noContent++;
              await emit({ ok: true, key: rendered.key, url: rendered.url, rendered, info: extra ?? {}, ...(nc ? { noContent: nc } : {}) });
            },
            ...(controls.textOnly ? { textOnly: true } : {}),
          }
        : {}),
      onFailure: (failure) => {
        out.failed++;
        // Failures are rare and small: queued without waiting (the callback is synchronous).
        emit({ ok: false, key: failure.key, url: failure.url, failure }).catch(() => undefined);
      },
      ...(controls.onProgress ? { onProgress: controls.onProgress } : {}),
      ...(controls.onWarning ? { onWarning: controls.onWarning } : {}),
      ...(signal ? { signal } : {}),
      ...(site !== undefined ? { site } : {}),
    };
    out.run = await (runner ? runner(engine, ctx) : engine.run(ctx));
  } catch (err) {
    if (err instanceof EngineError || err instanceof PageError) out.error = { code: err.code, message: err.message };
    else throw err;
  }
  return out;
}

/** The error a run's iteration ends with (after its last page), when the run ended early. */
export function runErrorOf(error: RunError | undefined): EngineError | undefined {
  return error ? new EngineError(error.code, error.message) : undefined;
}

/**
 * A run of a pipeline: page outcomes as they come, then its result. Pages rendered without their tree
 * (`PageRendered`) come only to runs that asked for them (`RunControls.rendered`): `RenderingRun`.
 */
export type PipelineRun = RunStream<PageOutcome, RunResult>;
export type RenderingRun = RunStream<AnyOutcome, RunResult>;

/** What the body of a pipeline says of its run. */
export interface Stage {
  method: string;
  driven: Driven;
  /** The options the engine ran with. */
  options: Record<string, unknown>;
  /** summary.json fields of the command. */
  extra?: Record<string, unknown>;
  /** What was learned, the engine's figures and timings, when not those of `driven.run` (several sites). */
  learned?: { template: unknown; engine: Record<string, unknown>; timings: Record<string, number> };
}

/**
 * A pipeline over a source: opens it (when given as a path or URL), runs `body` on it, closes it, and
 * assembles the run's result; the iteration ends with the run's error, if any.
 */
export function runPipeline(command: string, input: SourceInput, controls: RunControls, body: (source: PageSource, emit: Emit, signal: AbortSignal) => Promise<Stage>): RenderingRun {
  return new RunStream<AnyOutcome, RunResult>(async (emit, signal) => {
    const start = performance.now();
    const opened = await openInput(input, controls);
    try {
      const s = await body(opened.source, emit, controls.signal ? AbortSignal.any([signal, controls.signal]) : signal);
      const d = s.driven;
      const result: RunResult = {
        command,
        method: s.method,
        source: opened.spec,
        template: s.learned ? s.learned.template : (d.run?.template ?? null),
        engine: s.learned?.engine ?? d.run?.summary ?? {},
        options: s.options,
        timings: { ...(s.learned?.timings ?? d.run?.timings ?? {}), total: Math.round(performance.now() - start) },
        pagesDone: d.done,
        pagesFailed: d.failed,
        pagesNoContent: d.noContent,
        pagesLoaded: networkLoads(opened.source),
        extra: s.extra ?? {},
      };
      if (opened.source.cut) result.cut = opened.source.cut;
      if (d.error) result.error = d.error;
      return result;
    } finally {
      await opened.close();
    }
  }, (r) => runErrorOf(r.error));
}

/** Options of `runEngine`: the engine's options (validated by the engine) and the run's controls. */
export interface RunEngineOptions extends RunControls {
  options?: Record<string, unknown>;
}

/**
 * Runs one TemplateEngine (a registered one, or any object implementing the interface: a baseline, an
 * engine wrapped for an experiment) on a source as it is, without grouping its pages by site: the
 * pipeline the evaluation and the benchmarks measure an engine with. `detectTemplate` is this, site by site.
 */
export function runEngine(engine: TemplateEngine, source: SourceInput, options: RunEngineOptions = {}): PipelineRun {
  const values = options.options ?? {};
  return treesOnly(runPipeline('template', source, options, async (src, emit, signal) => ({ method: engine.name, options: values, driven: await driveEngine(engine, src, values, { ...options, rendered: false }, emit, { signal }) })));
}

/** A run whose pages all come with their tree (it did not ask for rendered pages). */
export function treesOnly(run: RenderingRun): PipelineRun {
  return run as unknown as PipelineRun;
}
