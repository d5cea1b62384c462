/**
 * What a template engine is to the rest of gabarit: a named function from a PageSource to PageMarks
 * (streamed to a callback) plus a JSON description of what it learned. The CLI's `template` command,
 * `npm run eval` and the content extractor all drive engines through this interface only.
 */
import type { LabelTable } from '../html/labels.ts';
import type { PageFailure, RenderedPage } from '../output.ts';
import type { PageSource } from '../site/page.ts';
import type { PageMarks } from './result.ts';

/** A command-line option an engine adds to `gabarit template` (commander syntax). */
export interface EngineOption {
  /** e.g. '--sample <n>' */
  flags: string;
  description: string;
  /** Default value (also shown in --help and the README). */
  defaultValue?: string | number | boolean;
  /** Parse the raw string (e.g. Number). */
  parse?: (raw: string) => unknown;
}

export interface EngineContext {
  source: PageSource;
  /** The site's label table (shared by every page of the run). */
  labels: LabelTable;
  /** Engine options, by camelCase name (commander's), already parsed. */
  options: Readonly<Record<string, unknown>>;
  /** Receives each marked page (the output writer, or an evaluator). Awaited: back-pressure. */
  onPage(marks: PageMarks, extra?: Record<string, unknown>): Promise<void>;
  /**
   * Receives a page's output already rendered, in place of `onPage`, from an engine that can write it
   * without the page's tree (the pagelets engine, from what pass 1 recorded). Optional: without it, or for
   * engines that cannot, every page goes to `onPage`.
   */
  onRendered?(page: RenderedPage, extra?: Record<string, unknown>): Promise<void>;
  /** Receives each page that failed (run goes on). */
  onFailure(failure: PageFailure): void;
  /** Progress for long phases: (phase, done, total?). */
  onProgress?(phase: string, done: number, total?: number): void;
  /** Diagnostics (warnings naming a page), not failures. */
  onWarning?(message: string): void;
  signal?: AbortSignal;
}

export interface EngineRun {
  /** What was learned, for template.json. */
  template: unknown;
  /** Extra summary.json fields (e.g. the complete subdigraph found, pages loaded). */
  summary: Record<string, unknown>;
  /** Milliseconds per phase. */
  timings: Record<string, number>;
}

export interface TemplateEngine {
  readonly name: string;
  readonly description: string;
  readonly options: readonly EngineOption[];
  run(ctx: EngineContext): Promise<EngineRun>;
}
