/**
 * What a template engine is to the rest of gabarit: a named function from a PageSource to PageMarks
 * (streamed to a callback) plus a JSON description of what it learned. The CLI's `template` command,
 * `npm run eval` and the content extractor all drive engines through this interface only.
 */
import type { LabelTable } from '../html/labels.ts';
import type { PageFailure } from '../errors.ts';
import type { PageSource } from '../site/page.ts';
import type { Applier, Template } from './learned.ts';
import type { EngineOptions, OptionShape, OptionValues } from './options.ts';
import type { PageMarks, RenderedPage } from './result.ts';

/** The options an engine of declaration `S` is given: any subset of them, which the engine validates. */
export type GivenOptions<S extends OptionShape = OptionShape> = Readonly<Partial<OptionValues<S>>>;

/** What an engine runs on; `S` is its option declaration's shape (`typeof ALIGN_OPTIONS.shape`). */
export interface EngineContext<S extends OptionShape = OptionShape> {
  source: PageSource;
  /** The site's label table (shared by every page of the run). */
  labels: LabelTable;
  /** Engine options by name (any subset of the engine's declared options); the engine validates them. */
  options: GivenOptions<S>;
  /** Receives each marked page (the output writer, or an evaluator). Awaited: back-pressure. */
  onPage(marks: PageMarks, extra?: Record<string, unknown>): Promise<void>;
  /**
   * Receives a page's output already rendered, in place of `onPage`, from an engine that can write it
   * without the page's tree (the pagelets engine, from what pass 1 recorded). Optional: without it, or for
   * engines that cannot, every page goes to `onPage`.
   */
  onRendered?(page: RenderedPage, extra?: Record<string, unknown>): Promise<void>;
  /** `onRendered` needs only each page's kept text and title (its `html` may be empty: jsonl output). */
  textOnly?: boolean;
  /** Receives each page that failed (run goes on). */
  onFailure(failure: PageFailure): void;
  /** The site the pages are of (a host, or the source's root), for the template learned. */
  site?: string;
  /** Progress for long phases: (phase, done, total?). */
  onProgress?(phase: string, done: number, total?: number): void;
  /** Diagnostics (warnings naming a page), not failures. */
  onWarning?(message: string): void;
  signal?: AbortSignal;
}

export interface EngineRun {
  /** What was learned, for template.json (a Template for the template engines). */
  template: unknown;
  /** Extra summary.json fields (e.g. the complete subdigraph found, pages loaded). */
  summary: Record<string, unknown>;
  /** Milliseconds per phase. */
  timings: Record<string, number>;
}

export interface TemplateEngine<S extends OptionShape = OptionShape> {
  readonly name: string;
  readonly description: string;
  /** The engine's options, declared once (types, defaults, flags, validation: options.ts). */
  readonly options: EngineOptions<S>;
  /** Learns the template and marks every page of the source with it (what `gabarit template` runs). */
  run(ctx: EngineContext<S>): Promise<EngineRun>;
  /** Learns the template only (no page is marked). */
  learn?(ctx: LearnContext<S>): Promise<LearnRun>;
  /** Compiles a learned template for applying it to any page of its site. */
  compile?(template: Template): Applier;
}

/** What learning needs of an EngineContext: no page is marked. */
export type LearnContext<S extends OptionShape = OptionShape> = Omit<EngineContext<S>, 'onPage'>;

/** What learning gives. */
export interface LearnRun {
  template: Template;
  summary: Record<string, unknown>;
  timings: Record<string, number>;
}

/** A template engine that learns once and applies many (align, hyperlink, pagelets). */
export type LearningEngine<S extends OptionShape = OptionShape> = TemplateEngine<S> & Required<Pick<TemplateEngine<S>, 'learn' | 'compile'>>;
