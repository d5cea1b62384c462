/**
 * Thresholds of the pipelines (src/run/), each with its value and why (STYLE.md 6); how they were measured
 * is in docs/library.md.
 */
export const RUN_DEFAULTS = {
  /**
   * A marked page with less than this share of its body text (non-space characters) outside the template
   * is reported as `no-content`: nearly all of its text was marked template (no-content.ts). Set below
   * what every page with content keeps on the corpus (`npx tsx eval/no-content.eval.ts`, docs/library.md).
   */
  noContentShare: 0.02,
  /**
   * Pages without a URL of their own (a directory of saved pages) are linked into one site when the
   * share of the smaller one's template evidence (class and id names, short text snippets) found in the
   * other is at least this (sites.ts `resemblance`): chosen by leave-one-out cross-validation over the
   * corpus's sites and samesite groups (docs/library.md).
   */
  siteSimilarity: 0.2,
  /**
   * The least size a page's evidence counts for in `resemblance`: a page with little evidence (a stub,
   * a redirect) would otherwise be contained in many pages. Chosen with `siteSimilarity`.
   */
  siteEvidenceFloor: 20,
  /** Most pages without a URL whose resemblance is checked pair by pair (above, they are one site). */
  siteCheckMaxPages: 2000,
  /** Pages of each host whose evidence places pages without a URL (sites.ts `resemblingHost`). */
  siteHostSample: 16,
  /** Characters of a page searched for its declared URL (canonical, og:url, base). */
  headBytes: 65536,
  /** Longest text snippet (characters) counted as template evidence: menu entries, footer lines. */
  snippetChars: 60,
} as const;

