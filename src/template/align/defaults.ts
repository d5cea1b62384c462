/**
 * Thresholds and defaults of the alignment engine (paper 1, alignment-template-detection), each with its
 * value and why (STYLE.md 6). src/defaults.ts re-exports them; options override them.
 */
export const ALIGN_DEFAULTS = {
  // ---- scoring (paper 1, section 2.1) ----
  /** Score of a column whose two tokens are equal: "we reward the case in which s1[i] = s2[j] giving score 1". */
  match: 1,
  /**
   * Score of a column of two different tokens. Paper 1: 0 ("we ignore the case in which we skip s1[i] and
   * s2[j]"). With a gap at -1 that makes a mismatch worth two thirds of a match (the score is 3 x matches +
   * 2 x mismatches - n - m), so two pages whose menus differ in length (a table of contents inside the
   * menu of the current page only) are aligned shifted, menu entries facing other entries, rather than
   * with the gaps that would let them match. At -2 a mismatch costs as much as two gaps: the alignment
   * maximises the matched tokens (a longest common subsequence). Chosen by leave-one-generator-out
   * cross-validation over {0, -2} (docs/engines.md): -2 on every fold.
   */
  mismatch: -2,
  /** The paper's mismatch score (section 2.1), for the paper's own scoring (`--mismatch 0`). */
  paperMismatch: 0,
  /** Score of a gap: "we penalize the insertion of a gap giving score -1". */
  gap: -1,

  // ---- consensus (paper 1, section 2) ----
  /**
   * Number of sample pages t. Paper 1: "only 16 pages are able to provide satisfactory performances"; a
   * power of two gives log2(t) full levels. 8 is the value leave-one-generator-out cross-validation
   * chooses on all sites over {8, 16, 32} (docs/engines.md: mean content F1 of the sites 0.992 with 8,
   * 0.991 with 16, 0.983 with 32: a tie between 8 and 16; 8 learns in half the time).
   */
  sample: 8,
  /**
   * A consensus token survives a level when at least this fraction of the pages below it support it
   * (evidence >= ceil(minEvidence * pages)). The paper prunes "tokens that have receive[d] low evidence"
   * without a figure. 0.5 keeps at level 1 the union of the two pages (the paper's "some local parts of
   * the template can be missing in some particular web page") and from level 2 on requires a majority.
   * Any value above 0.5 demands both pages at level 1, so one odd page in the sample (a redirect stub)
   * empties the template; below 0.4 tokens of single pages survive and eat content. 0.4 and 0.5 tie on the
   * corpus (`npx tsx eval/align.eval.ts --sweep`; docs/engines.md); 0.5, a plain majority, is kept.
   */
  minEvidence: 0.5,
  /**
   * Sample pages whose duplicateScore (sample.ts) reaches this are copies of one page: one is kept, so a
   * page's own text never becomes template because a copy of it was sampled. Chosen in the gap between
   * copies and different pages of the corpus (docs/engines.md, `npx tsx eval/duplicates.eval.ts`).
   */
  duplicateScore: 0.72,

  // ---- speed (the fast path of align.ts; every path is exact, these only choose the algorithm) ----
  /**
   * Ranges of at most this many DP cells (after trimming the common prefix and suffix) are aligned by the
   * scalar DP, larger ones by the bit-parallel DP (bit-parallel-nw.ts), whose set-up (match masks, 3 bits
   * of traceback per cell) costs more than it saves on small blocks. Measured (`npx tsx bench/align.bench.ts
   * --crossover`, square blocks of real tokens, loaded machine): scalar/bit-parallel time 0.51 at 16 x 16,
   * 0.70 at 48 x 48, 1.94 at 64 x 64, 4.7 at 128 x 128: the crossover lies between 2,304 and 4,096 cells.
   */
  scalarCells: 1 << 12,
  /**
   * Traceback store of the bit-parallel DP, in 32-bit words (3 words per 32 cells, so 8 Mi words = 32 MiB
   * hold about 89 M cells: every pair of the corpus samples fits). A larger block is split on its middle
   * column by Hirschberg's rule (about twice the work), so memory stays bounded whatever the input.
   */
  storeWords: 1 << 23,
  /**
   * Ranges above this many DP cells (after trimming) are split on anchors, runs around tokens unique in
   * both ranges (align.ts step 4, anchors.ts): an explicit fallback, not proved optimal, counted in
   * summary.json (`alignmentsNotExact`). 2^31 cells is two pages of about 46,000 tokens; the exact
   * bit-parallel DP takes 0.4 s for 20,814 x 20,381 tokens and 2.0 s for 42,454 x 40,436
   * (`npx tsx bench/align.bench.ts --large`, load average 8 on 2 cores), so a 16-page sample of such
   * pages already takes about a minute. Every pair of the corpus samples is far below (155 of 155 exact in
   * `npx tsx eval/align.eval.ts`): the corpus never takes the fallback.
   */
  maxExactCells: 2 ** 31,
  /** Shortest anchor run the fallback uses (anchors.ts). */
  anchorMinRun: 2,
  /** Hirschberg recursion stops and runs the full-matrix DP below this many cells (scratch buffer size). */
  baseCells: 1 << 14,

  // ---- applying the template (apply.ts) ----
  /**
   * Matched text that shares its line (text between block boundaries) with kept text is kept too: a
   * byline or a linked name inside an article sentence; so are inline elements of such a line. Not in the
   * paper (it marks tags, not text lines); measured with `npx tsx eval/align.eval.ts --ablation`
   * (docs/engines.md).
   */
  lineRule: true,
  /**
   * Navigation regions (navigation.ts): template elements whose changing text is at least this share of
   * link text on every sample page (and on the page marked) are template whole. One half: changing words
   * mostly in links make navigation, mostly prose make content (as the hyperlink engine's regions).
   */
  navigationLinkShare: 0.5,
  /** The content slot of a page (navigation.ts): the deepest template element holding more than this share of its changing prose. */
  contentSlotShare: 0.5,
  /** Learn and apply navigation regions (`--no-navigation-regions` turns them off). */
  navigationRegions: true,

  // ---- engine ----
  /**
   * Bytes of raw pages kept in memory between learning and applying when the source is a crawl over HTTP
   * (loading a page again is a download); beyond, pages are loaded again.
   */
  cacheBytes: 256 * 1024 * 1024,
  /**
   * The same for a local source (a directory, a WARC file, pages in memory), where loading a page again
   * costs a file read: small sites (every corpus site is under 11 MB) are read once, and a large archive
   * does not hold its pages in memory (memory stays bounded on a WARC of any size).
   */
  localCacheBytes: 32 * 1024 * 1024,
} as const;
