/**
 * What the pipelines of src/run/ give: per page, an outcome (marked, or failed with a reason); per run, a
 * result (what was learned, the engine's figures, counts, timings, and the error that ended it early).
 */
import type { LabelTable } from '../html/labels.ts';
import type { PageFailure, RenderedPage } from '../output.ts';
import type { PageCut, PageSource } from '../site/page.ts';
import type { SourceOptions } from '../site/source.ts';
import type { PageMarks } from '../template/result.ts';

/** A page the run marked. */
export interface PageDone {
  readonly ok: true;
  readonly key: string;
  readonly url: string;
  /** The page's tree and its marks (template; content for `extractContent`). */
  readonly marks: PageMarks;
  /** The engine's figures for the page (e.g. `matchedTokens`, `pagelets`, `listing`). */
  readonly info: Readonly<Record<string, unknown>>;
  /** Set when the page's kept text is empty or nearly all of its text was marked template (`no-content`). */
  readonly noContent?: PageFailure;
}

/** A page the run could not mark, and why. */
export interface PageNotDone {
  readonly ok: false;
  readonly key: string;
  readonly url: string;
  readonly failure: PageFailure;
}

export type PageOutcome = PageDone | PageNotDone;

/**
 * A page whose output an engine rendered without its tree (the pagelets engine on large runs writes the
 * files from what pass 1 recorded): given only to runs that ask for them (`RunControls.rendered`).
 */
export interface PageRendered {
  readonly ok: true;
  readonly key: string;
  readonly url: string;
  readonly rendered: RenderedPage;
  readonly info: Readonly<Record<string, unknown>>;
  readonly noContent?: PageFailure;
}

/** What a run that accepts rendered pages gives. */
export type AnyOutcome = PageOutcome | PageRendered;

/** Why a run ended early: the engine could not justify a result, or lacked a page it needed. */
export interface RunError {
  code: string;
  message: string;
}

/** What a run says of itself once its pages are out. */
export interface RunResult {
  /** 'template' | 'content' | 'apply'. */
  command: string;
  /** The template engine that marked the pages (for a source of several sites: of the largest). */
  method: string;
  /** The source as given (a path or URL), or its root when a PageSource was given. */
  source: string;
  /** What was learned (template.json): a Template, a TemplateSet, or null when nothing was. */
  template: unknown;
  /** The engine's own figures (summary.json `engine`). */
  engine: Record<string, unknown>;
  /** The options the engine ran with (defaults filled). */
  options: Record<string, unknown>;
  /** Milliseconds per phase, and `total`. */
  timings: Record<string, number>;
  pagesDone: number;
  pagesFailed: number;
  pagesNoContent: number;
  /** Pages loaded over the network (downloads; 0 for local sources). */
  pagesLoaded: number;
  /** Set when a cap of the source (`maxPages`, a crawl's default) left pages out (summary.json `cappedAt`, `pagesLeftByCap`). */
  cut?: PageCut;
  /** Extra summary.json fields of the command (e.g. `reason` for content). */
  extra: Record<string, unknown>;
  error?: RunError;
}

/** A source as the pipelines take it: an open PageSource (left open), or what `openSource` opens (closed after). */
export type SourceInput = PageSource | string;

/** What every pipeline takes besides its own options. */
export interface RunControls {
  /** Options of the source when `source` is a path or URL (fetch politeness, limits). */
  sourceOptions?: SourceOptions;
  /** Pages read from the source at most (default: every page; a crawl stops at `DEFAULTS.maxPages`); a cut is in the result's `cut`. */
  maxPages?: number;
  /** Label table shared by the pages of a site (default: a fresh one per site). */
  labels?: LabelTable;
  /** Progress of long phases. */
  onProgress?(phase: string, done: number, total?: number): void;
  /** Diagnostics naming a page (not failures). */
  onWarning?(message: string): void;
  signal?: AbortSignal;
  /**
   * Worker threads marking pages with what was learned (default: one per core; 0: the main thread only);
   * the outcomes come in the source's order whatever their number.
   */
  workers?: number;
  /**
   * Accept pages rendered without their tree (`PageRendered`: the `<page>.html` and kept text, when an
   * engine can write them without parsing the page again); `writeOutputs` writes them like the others.
   */
  rendered?: boolean;
  /** Rendered pages need only their kept text and title, not their `<page>.html` (the jsonl format). */
  textOnly?: boolean;
}

/** What the summary.json of every command says of its run besides its own figures. */
export interface CommandSummary {
  command: string;
  /** The source as given (a path or URL), or the name the caller gave it. */
  source: string;
  pagesLoaded: number;
  /** The cap that left pages out, and how many it left (see PageCut), when one did. */
  cappedAt?: number;
  pagesLeftByCap?: number;
  timings: Record<string, number>;
  pagesDone: number;
  pagesFailed: number;
  failures: readonly PageFailure[];
}
