/**
 * Thresholds of the pipelines (src/run/), each with its value and why (STYLE.md 6); how they were measured
 * is in docs/library.md.
 */
export const RUN_DEFAULTS = {
  /**
   * A marked page keeping less than this share of its body text (non-space characters) is reported as
   * `no-content`: nearly all of its text was marked template. 2%: a page whose template is all there is
   * (a menu-only index page, an alignment of one page with itself) keeps nothing or a stray word, while
   * the smallest real content of the corpus pages is several percent of their text.
   */
  noContentShare: 0.02,
} as const;
