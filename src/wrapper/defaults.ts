/**
 * Named defaults of the self-healing wrappers (paper 5, "Adaptable Web Wrappers", Section 4). Every value
 * can be overridden in a wrapper's `adaptation` settings; src/defaults.ts re-exports them.
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
   * Per-algorithm thresholds, used when a wrapper sets no `threshold` of its own. The tree bigram is blind
   * to order and to where an edge sits, so unrelated pages of one genre score high, while a reordering
   * keeps every edge (1.0). 0.8 refuses such impostors and keeps the permutations (docs/wrapper.md).
   */
  thresholds: { bigram: 0.8 } as Readonly<Partial<Record<AlgorithmName, number>>>,
  /**
   * Clustered tree matching first (the paper's best, Table 1), then simple tree matching, then the tree
   * bigram variant of its conclusion (permutations). The Jaro–Winkler variant (added / removed levels) is
   * available but not in the default order: on element labels it adapts impostors and redesigned pages to
   * wrong elements, and what it finds rightly another step finds too (eval/wrapper.eval.ts; docs/wrapper.md).
   */
  algorithms: ['ctm', 'stm', 'bigram'] as readonly AlgorithmName[],
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
  /**
   * When no algorithm finds the pattern on element labels, try them again on the content view
   * (match/blocks.ts: the text blocks as graded leaves, the levels above them dropped). Redesigns of
   * content pages need it: on the Open Terms Archive documents CTM on tags finds 22 of 86 changed snapshots
   * (eval/wrapper.eval.ts), because a CMS change rebuilds every level above the paragraphs.
   */
  content: true,
  /**
   * Similarity the content view must reach: with a margin above documents of the same genre and below the
   * real changes tree matching can follow (eval/wrapper.eval.ts, "impostors"; docs/wrapper.md).
   */
  contentThreshold: 0.3,
  /**
   * When neither element labels nor the content view find a single pattern, try the document view
   * (match/document.ts): the subtree as one leaf of words, for a document that moved to another page of
   * the same site and was rebuilt there. It only answers on the wrapper's own site and when the
   * candidate's headings carry the tree-gram's title.
   */
  document: true,
  /**
   * Similarity (word-multiset Dice, the corpus's word F1) the document view must reach: midway between a
   * moved, rewritten document and the other documents of its site (eval/wrapper.eval.ts; docs/wrapper.md,
   * "Thresholds of the content and document views"). The title check refuses the other documents as well.
   */
  documentThreshold: 0.57,
  /**
   * Ambiguity rule: when another candidate (not inside the chosen one, nor around it) comes within this
   * margin of the chosen one's identity (similarity + EVIDENCE_WEIGHT × the evidence that tells which
   * element it is, adapt.ts), the pattern is not found, reason `ambiguous`, rather than a guess between
   * look-alikes. 0: only candidates nothing tells apart (equal structure, place, attributes and kind of
   * value) are ambiguous. Chosen by leave-one-source-out over the real OTA changes, the synthetic mutations
   * and three record sources by example (eval/wrapper.eval.ts): no source shows a wrong value at any
   * margin from 0 to 0.3, exact ties give 5 when the rule is off, and from 0.02 up the rule refuses 7
   * right values (a question's owner told from its editor by the `owner` class of an ancestor alone).
   * Figures in docs/wrapper.md.
   */
  ambiguityMargin: 0,
} as const;

/** Identities closer than this are equal (floating-point sums in another order), whatever the margin. */
export const TIE_TOLERANCE = 1e-9;

/**
 * Most nodes a stored tree-gram keeps per instance: deeper levels are cut first (a tree-gram is a
 * "light-weight signature", Section 6). Keeps wrapper files small and the matching bounded.
 */
export const MAX_GRAM_NODES = 4000;
/** Ancestors stored as the tree-gram's context (nearest first). */
export const GRAM_CONTEXT_DEPTH = 6;
/**
 * Characters of text kept per text leaf of a tree-gram (string similarity of leaves and the content view):
 * enough for a long paragraph (the longest OTA paragraph block is about 1,300 characters).
 */
export const GRAM_TEXT_CHARS = 2000;
/**
 * Most characters of text a tree-gram instance stores as its content view (match/blocks.ts); a longer
 * instance gets none. The OTA documents hold 2,000–45,000 characters; a catalogue page's table (the PEP
 * index, 200,000) is not a document whose text identifies it.
 */
export const GRAM_CONTENT_CHARS = 200_000;
/**
 * Most text blocks a tree-gram instance stores as its content view; a longer one gets none. The OTA
 * documents have 15–126 blocks; the PEP index (a table of 4,282 cells, most of a letter or two) costs
 * 1.4–3 s per adaptation on the content view, and its text is not what identifies it.
 */
export const GRAM_CONTENT_BLOCKS = 1000;
/** Characters of an instance's whole text kept for the evidence term (adapt.ts): its opening words. */
export const GRAM_SUMMARY_CHARS = 480;
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
/**
 * Content view (match/blocks.ts): two text blocks count as the same leaf to the degree of their word Dice
 * when it reaches this floor, else not at all (so that blocks sharing only common words do not add up).
 * 0.5 keeps the real matches and cuts the noise (docs/wrapper.md); it is also the Dice of two blocks of
 * which one half is shared.
 */
export const BLOCK_SIM_FLOOR = 0.5;
/**
 * Fewest words a tree-gram instance needs for the content view: below, a few words (a price, a name) say
 * too little about which element it is, and every page has short texts that share them.
 */
export const CONTENT_MIN_WORDS = 20;
/**
 * Document view (match/document.ts): the fewest words a tree-gram instance needs (a document, not a
 * field), how many of a candidate's first headings may carry the title, and how close (Dice of the word
 * sets) a heading must be to the title ("Terms of Service" and "GitHub Terms of Service": 0.86; "Terms of
 * Service" and "Terms of Use": 0.67; "Privacy Policy" and "Cookie Policy": 0.5, refused).
 */
export const DOCUMENT_MIN_WORDS = 200;
export const TITLE_HEADINGS = 3;
export const TITLE_MIN_DICE = 0.6;
