/**
 * Named defaults of the self-healing wrappers (paper 5, "Adaptable Web Wrappers", Section 4). Every value
 * can be overridden in a wrapper's `adaptation` settings; the lead merges them into src/defaults.ts.
 */

/** The adaptation algorithms, in the order a wrapper tries them by default (Section 4: "priorities/order"). */
export type AlgorithmName = 'ctm' | 'stm' | 'bigram' | 'jw';

export const WRAPPER_DEFAULTS = {
  /**
   * Similarity a subtree must reach to be accepted. The paper's scenarios use 40%–90% (Table 1); 0.7 sits
   * between its false-positive (Facebook, 65%) and false-negative (Google, 80–90%) cases. Our similarities
   * are absolute ([0, 1], 1 on identical trees), so one threshold serves every algorithm.
   */
  threshold: 0.7,
  /**
   * Clustered tree matching first (the paper's best, Table 1), then simple tree matching, then the tree
   * bigram (permutations) and Jaro–Winkler (added / removed levels) variants of its conclusion.
   */
  algorithms: ['ctm', 'stm', 'bigram', 'jw'] as readonly AlgorithmName[],
  /**
   * Node-label flags (Section 4, "flags of the chosen algorithm"): the tag name only by default, so that
   * renamed classes or ids do not make equal structures unequal; ids and classes still weigh in as
   * "comparable attributes" (Section 5) through the evidence term (adapt.ts).
   */
  labels: { tag: true, id: false, class: false },
  /** Triggers (Section 4): top-down re-adapts the children of an adapted pattern; bottom-up its parent. */
  triggers: { topDown: true, bottomUp: true },
  /** Section 4: "whether stored tree-grams and XPath statements are updated based on adaptation results". */
  update: true,
} as const;

/**
 * Most nodes a stored tree-gram keeps per instance: deeper levels are cut first (a tree-gram is a
 * "light-weight signature", Section 6). Keeps wrapper files small and the matching bounded.
 */
export const MAX_GRAM_NODES = 4000;
/** Ancestors stored as the tree-gram's context (nearest first). */
export const GRAM_CONTEXT_DEPTH = 6;
/** Characters of text kept per text leaf of a tree-gram (string similarity of leaves). */
export const GRAM_TEXT_CHARS = 120;
/** Instances kept per pattern in its tree-gram (a list pattern keeps a few examples). */
export const GRAM_INSTANCES = 3;
/**
 * Weight of the evidence (ancestor context, id/class, text; all in [0, 1]) added to the structural
 * similarity when choosing among candidates above the threshold. Below 1 so that structure dominates,
 * above 0 so that equal structures (common for small leaves) are told apart by what they say and where
 * they are.
 */
export const EVIDENCE_WEIGHT = 0.5;
/** Jaro–Winkler prefix scale (Winkler 1999: 0.1) and the longest prefix rewarded (4). */
export const JW_PREFIX_SCALE = 0.1;
export const JW_MAX_PREFIX = 4;
/**
 * Jaro similarity below which Winkler's prefix bonus is not added (the "boost threshold" of Winkler's
 * own implementation, 0.7): without it, a tiny subtree whose few labels all occur in a large tree-gram gets
 * Jaro ≈ 2/3 and, with the prefix bonus, passes the threshold (seen on real pages: a logo element chosen
 * for a 430-node terms-of-service container).
 */
export const JW_BOOST_THRESHOLD = 0.7;
/** Label sequences longer than this are cut for the Jaro–Winkler tree variant (its window is O(n) wide). */
export const JW_MAX_SEQUENCE = 2000;
/** History entries kept in a wrapper file (oldest dropped). */
export const MAX_HISTORY = 50;
