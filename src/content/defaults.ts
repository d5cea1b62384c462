/**
 * Thresholds of the main-content extractor (src/content/). Paper 2 (hyperlink-template-extraction,
 * conclusion) names the signals left once the template is gone: text concentration, few links (link
 * density) and position; the values below are the ones measured best on the corpus by
 * `npx tsx eval/content.eval.ts` (see each comment). The lead merges them into src/defaults.ts.
 */
export const CONTENT_DEFAULTS = {
  /**
   * A block whose link text is more than this fraction of its text is navigation, not content (link
   * density; Kohlschütter et al. 2010 find the boilerplate / content split of link density near 0.33).
   */
  maxLinkDensity: 0.33,
  /**
   * Text of a link block counts this many times against the main block (a block of links inside a region
   * pulls the region's score down: "few links").
   */
  linkPenalty: 1,
  /**
   * Blocks shorter than this (characters, non-template) get no positive weight of their own: a date, a
   * byline or a button label does not make a region main content (text concentration); they still
   * belong to the main block when they lie inside it.
   */
  minBlockChars: 20,
  /**
   * When the link text of all non-template text is above this fraction, the page is a listing (tag page,
   * index, table of contents): its content is its links, and the whole non-template text is kept.
   */
  listingLinkFraction: 0.5,
  /** Sources with more pages than this use the pagelets engine when there is no link graph (paper 3). */
  pageletsMinPages: 2000,
  /** A link graph exists when the entry page links to at least this many pages of the source. */
  graphMinLinks: 3,
} as const;
