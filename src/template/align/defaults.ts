/**
 * Thresholds and defaults of the alignment engine (paper 1, alignment-template-detection), each with its
 * value and why (STYLE.md 6). The lead merges them into src/defaults.ts; options override them.
 */
export const ALIGN_DEFAULTS = {
  // ---- scoring (paper 1, section 2.1) ----
  /** Score of a column whose two tokens are equal: "we reward the case in which s1[i] = s2[j] giving score 1". */
  match: 1,
  /** Score of a column of two different tokens: "we ignore the case in which we skip s1[i] and s2[j]". */
  mismatch: 0,
  /** Score of a gap: "we penalize the insertion of a gap giving score -1". */
  gap: -1,

  // ---- consensus (paper 1, section 2) ----
  /**
   * Number of sample pages t. Paper 1: "only 16 pages are able to provide satisfactory performances";
   * a power of two gives log2(t) full levels.
   */
  sample: 16,
  /**
   * A consensus token survives a level when at least this fraction of the pages below it support it
   * (evidence >= ceil(minEvidence * pages)). The paper prunes "tokens that have receive[d] low evidence"
   * without a figure. 0.5 keeps at level 1 the union of the two pages (the paper's "some local parts of
   * the template can be missing in some particular web page") and from level 2 on requires a majority.
   * Chosen by measurement on the corpus (`npx tsx eval/align.eval.ts --sweep`; content F1, mean over
   * pages, sites / samesite): 0.3 → 0.978 / 0.623, 0.4 → 0.981 / 0.677, 0.5 → 0.981 / 0.675,
   * 0.6 and 0.75 → 0.931 / 0.64. Any value above 0.5 demands both pages at level 1, so one odd page in the
   * sample (a redirect stub in jekyll-blog) empties the template; below 0.4 per-page tokens survive and
   * eat content (samesite recall 0.81 at 0.3). 0.4 and 0.5 tie; 0.5, a plain majority, is kept.
   */
  minEvidence: 0.5,

  // ---- speed (the fast path of align.ts) ----
  /**
   * Up to this many DP cells (n * m after trimming the common prefix and suffix) a range is aligned
   * exactly; above, anchors split it (unique common tokens, else runs of a bit-parallel LCS), which is not
   * proved optimal (align.ts). Lowered from 2^21 to 2^19 for speed (issue 3 target: learning <= 3x the
   * parse time): on the 16-page samples, the consensus took 2-3x less time while content F1 on sites and
   * samesite stayed the same to 0.001 (`npx tsx eval/align.eval.ts`; figures in the report of this change).
   */
  exactCells: 1 << 19,
  /**
   * An anchor (a run of equal tokens around a token unique in both sequences) is used only when the run
   * is at least this long. Longer runs are less likely to be a chance match away from the optimal path.
   */
  anchorMinRun: 2,
  /**
   * In a range above `exactCells` with no unique anchor, runs of at least this many consecutive matches
   * of a longest common subsequence (bit-lcs.ts) become anchors. Single matches of an LCS between two
   * unrelated content regions are mostly chance (a `<p>` here, a `</li>` there); three in a row is a
   * shared fragment of structure. Not tuned further (2 and 4 untried).
   */
  lcsMinRun: 3,
  /** Hirschberg recursion stops and runs the full-matrix DP below this many cells (scratch buffer size). */
  baseCells: 1 << 14,

  // ---- engine ----
  /** Bytes of raw pages kept in memory between learning and applying; beyond, pages are loaded again. */
  cacheBytes: 256 * 1024 * 1024,
} as const;
