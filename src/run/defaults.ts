/**
 * Thresholds of the pipelines (src/run/), each with its value and why (STYLE.md 6); how they were measured
 * is in docs/library.md.
 */
export const RUN_DEFAULTS = {
  /**
   * A marked page with less than this share of its body text (non-space characters) outside the template
   * is reported as `no-content`: nearly all of its text was marked template (no-content.ts). Measured
   * (`npx tsx eval/no-content.eval.ts`, docs/library.md): of 1,070 corpus pages, pagelets leaves 0 to 1.5%
   * on the 6 it loses (gold recall 0.18 on them), while the pages with gold keep at least 10.6% (align) and
   * 2.8% (content) outside the template.
   */
  noContentShare: 0.02,
  /**
   * Pages without a URL of their own (a directory of saved pages) are linked into one site when the
   * Jaccard resemblance of their template evidence (class and id names, short text snippets) is at least
   * this (sites.ts). Measured on the corpus (docs/library.md): pairs of pages of one site have a median of
   * 0.44, pairs of pages of different sites a 99th percentile of 0.05; with single linkage at 0.10 every
   * corpus site and samesite group stays one site but for a few pages that resemble none of the others
   * (redirect stubs, a 404 page), and the single pages of single/readability stay apart but for pages of
   * one real site (two nytimes pages) and Readability's own synthetic test pages, which share their text.
   */
  siteSimilarity: 0.1,
  /** Most pages without a URL whose resemblance is checked pair by pair (above, they are one site). */
  siteCheckMaxPages: 2000,
  /** Pages of each host whose evidence places pages without a URL (sites.ts `resemblingHost`). */
  siteHostSample: 16,
  /** Characters of a page searched for its declared URL (canonical, og:url, base). */
  headBytes: 65536,
  /** Longest text snippet (characters) counted as template evidence: menu entries, footer lines. */
  snippetChars: 60,
} as const;
