/**
 * Every threshold and default of gabarit in one place (STYLE.md 6), each with where its value comes from.
 * Options override them; the README lists them.
 */
export const DEFAULTS = {
  // ---- fetching (site/fetch.ts) ----
  /** User agent sent over HTTP. */
  userAgent: 'gabarit/0.1 (+https://www.npmjs.com/package/gabarit)',
  /** Concurrent requests per host: a polite crawler's usual 1–2. */
  concurrencyPerHost: 2,
  /** Delay between two requests to the same host, ms. */
  delayMs: 250,
  /** Request timeout, ms. */
  timeoutMs: 15_000,
  /** Retries on 5xx and network errors, with exponential backoff from `retryBaseMs`. */
  retries: 2,
  retryBaseMs: 500,
  /** Largest page body accepted, bytes (10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** Redirects followed before giving up (browsers allow 20; 10 is plenty for sites). */
  maxRedirects: 10,
  /** Pages a crawl loads at most unless told otherwise. */
  maxPages: 10_000,
} as const;

// Each area keeps its thresholds beside its code, with the paper's value and why; they are gathered here
// so that one import shows every default of gabarit.
export { SITE_DEFAULTS } from './site/defaults.ts';
export { ALIGN_DEFAULTS } from './template/align/defaults.ts';
export { HYPERLINK_DEFAULTS } from './template/hyperlink/defaults.ts';
export { PAGELET_DEFAULTS } from './template/pagelets/defaults.ts';
export { COLLECT_DEFAULTS } from './collect/defaults.ts';
export { CONTENT_CLUSTER_DEFAULTS } from './cluster/defaults.ts';
export { CONTENT_DEFAULTS } from './content/defaults.ts';
export { WRAPPER_DEFAULTS } from './wrapper/defaults.ts';
