/**
 * Typed errors (STYLE.md 8). Library code throws or returns these; only the CLI prints and exits.
 * `code` is stable and machine-readable; `retryable` drives the fetcher's retry policy.
 */

/** Why a page could not be had or used. */
export type PageErrorCode =
  | 'invalid-url'
  | 'not-found'
  | 'http-status'
  | 'robots'
  | 'too-large'
  | 'not-html'
  | 'binary'
  | 'empty'
  | 'redirect-loop'
  | 'too-many-redirects'
  | 'off-site'
  /** The page's address is left out by the crawl's include / exclude globs. */
  | 'excluded'
  | 'timeout'
  | 'network'
  | 'read-error'
  /** The body's Content-Encoding is unknown, or the encoded bytes do not decode. */
  | 'bad-encoding'
  /** A sitemap that is not one: broken XML, or another root element than `urlset` or `sitemapindex`. */
  | 'bad-sitemap'
  /** The run was interrupted (SIGINT, SIGTERM) before this page was loaded. */
  | 'interrupted'
  /** The page's output files could not be written (a name or path the file system refuses, a full disk). */
  | 'write-error'
  /** An unexpected fault while processing this page; the run went on without it. */
  | 'internal-error';

/** A page that failed, as a run records it (summary.json `failures`) and names it on stderr. */
export interface PageFailure {
  url: string;
  key: string;
  code: PageErrorCode | string;
  message: string;
}

export class GabaritError extends Error {
  override readonly name: string = 'GabaritError';
}

/** A page that failed; `url` names it, `code` says why. */
export class PageError extends GabaritError {
  override readonly name = 'PageError';
  readonly url: string;
  readonly code: PageErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;
  constructor(url: string, code: PageErrorCode, message: string, options: { retryable?: boolean; status?: number; cause?: unknown } = {}) {
    super(`${url}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.url = url;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
  }
}

/** Bad options or input given by the user (a missing directory, an unknown method…). */
export class UsageError extends GabaritError {
  override readonly name = 'UsageError';
}

/** An engine could not produce a justified result (e.g. no complete subdigraph of size >= 2). */
export class EngineError extends GabaritError {
  override readonly name = 'EngineError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
