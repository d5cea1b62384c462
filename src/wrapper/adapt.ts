/**
 * One file over 400 lines: the candidate search (bounds, pruning, evidence, the ambiguity rule) is one
 * procedure over shared candidate state; each similarity lives in match/.
 *
 * Wrapper adaptation (paper 5, Section 4 and Figure 2): given a pattern's stored tree-gram and the DOM of
 * the current page, find the subtrees most similar to the tree-gram above the threshold, with the
 * algorithms in the wrapper's order (clustered tree matching, simple tree matching, tree bigram,
 * Jaro–Winkler), and generate a selector that matches them.
 *
 * Choices the paper leaves open, made here:
 *  - Candidates are the page nodes (inside the scope: the parent pattern's instance, or the page) whose
 *    label equals the tree-gram root's label: Algorithm 1 returns 0 for any other root, and the variants
 *    are held to the same rule so that every algorithm answers "which element is it now".
 *  - Each algorithm's similarity is absolute ([0, 1], 1 on identical trees; see each module), so one
 *    threshold applies to all. A candidate is accepted when its similarity to one of the stored instances
 *    reaches the threshold.
 *  - Among accepted candidates, the one chosen maximises similarity + EVIDENCE_WEIGHT · evidence, where the
 *    evidence (Section 5: "additional checks on comparable attributes", and string similarity of leaves,
 *    Section 4) is the mean of: ancestor-context agreement, id/class agreement and text similarity. It only
 *    orders candidates; it never lifts one below the threshold. When the best structural similarity comes
 *    only from equal small structures (leaves), evidence is what tells them apart, so the step is
 *    reported as `string` when the tree-gram has no inner structure (a single element with text).
 *  - Pruning: candidates are visited by decreasing upper bound (CTM: the children-label bound; STM: the
 *    size bound 2·min/(|A|+|B|); JW: the length bound; bigram: the size bound), and the search stops when
 *    the bound plus the largest evidence bonus cannot beat the best so far; no DP table spans a whole page.
 *  - A candidate whose values break the pattern's data-type constraints is skipped (`accept`), so a
 *    similar-looking subtree with the wrong kind of data is never returned.
 *  - The ambiguity rule (this project's): when another acceptable candidate, not nested with the chosen
 *    one and not giving the same data (`sameData`), comes within `ambiguityMargin` of the chosen one's
 *    identity (similarity + EVIDENCE_WEIGHT · the evidence without the words of a field's value, see
 *    `Evidence.identity`), nothing is returned: the reason is `ambiguous` and the runner-up is named. The
 *    search stops there, so no later algorithm or view guesses between them. On the content view the score
 *    is the identity (a document is known by its text).
 *  - A list pattern takes the items of the list it matched (`listOf`): the best candidate's siblings among
 *    the candidates, and the items of other lists only where their place is as good; a look-alike leaf
 *    elsewhere (a breadcrumb entry with the same tags) is not an item.
 *  - Per-algorithm thresholds (settings.thresholds; defaults.ts says why the bigram's is higher).
 *  - Content view (match/blocks.ts; this project's extension, for redesigns): when no algorithm finds the
 *    pattern on element labels, a single pattern whose tree-gram holds at least CONTENT_MIN_WORDS words is
 *    searched again with the algorithms on the content view (CTM with graded text leaves, the bigram on
 *    exact blocks; not STM nor Jaro–Winkler, see CONTENT_ALGORITHMS), against `contentThreshold`. The report says which view
 *    found the data; when nothing is found it gives the best similarity of each view.
 *  - Document view (match/document.ts; this project's extension, for a document moved to another page of
 *    its site and rebuilt there): when the content view finds nothing either, a single pattern whose
 *    tree-gram is a document (DOCUMENT_MIN_WORDS words and a title) is looked for as one leaf of words,
 *    only on the wrapper's own site (options.sameSite) and only where the candidate's headings carry the
 *    tree-gram's title, against `documentThreshold`. The step is reported as `document`.
 */
import { cssEscape, cssPath, xpathOf } from '../html/paths.ts';
import { selectAll } from '../html/select.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { filled } from '../filled.ts';
import { CONTENT_MIN_WORDS, DOCUMENT_MIN_WORDS, EVIDENCE_WEIGHT, GRAM_CONTENT_BLOCKS, TIE_TOLERANCE, WRAPPER_DEFAULTS, type AlgorithmName } from './defaults.ts';
import { gramTitle, searchDocument } from './match/document.ts';
import { diceSorted, treeBigrams } from './match/bigram.ts';
import { alignPairs, blockCtm, blockPairs, blockStm, gramBlocks, lowerBoundInt, pageBlocks, WordSpace, type Block, type BlockPairs } from './match/blocks.ts';
import { clusteredTreeMatching, clusteredUpperBound } from './match/clustered.ts';
import { jaroWinklerBound, jaroWinklerTree } from './match/jaro-winkler.ts';
import { fromTree, keptNode, LabelSpace, restrict, restrictedSize, type LabelledTree } from './match/labelled-tree.ts';
import { stmSimilarity } from './match/simple.ts';
import { jaroWinkler, jaroWinklerSeq } from './match/jaro-winkler.ts';
import { stringSimilarity, textWords } from './match/string.ts';
import { valueKind } from './constraints.ts';
import { contextOf, gramTree, instanceText, type ContextStep, type GramInstance, type TreeGram } from './tree-gram.ts';
import type { ResolvedSettings } from './wrapper.ts';

/** Which step found a pattern's data (STYLE.md 7: report which level worked). */
export type Step = 'selector' | AlgorithmName | 'string' | 'document' | 'not-found';
/** Which view of the trees the step compared: element labels (the paper's) or the content view (blocks.ts). */
export type View = 'tags' | 'content' | 'document';

/** What an adaptation found. */
export interface Adaptation {
  /** The page nodes found (document order); [] when not found. */
  nodes: number[];
  step: Step;
  /** The view the similarity was computed on (absent when not found). */
  view?: View;
  /** Similarity of what was found (the best seen when not found; 0 when nothing compared). */
  similarity: number;
  /** When not found: the best similarity seen on the content view (when it was tried). */
  contentSimilarity?: number;
  /** When not found: the best similarity seen on the document view (when it was tried). */
  documentSimilarity?: number;
  /** A selector matching exactly `nodes` ('' when not found). */
  selector: string;
  /**
   * When not found, why: `ambiguous` (two candidates about equally similar, see `rival`), `wrong-value`
   * (candidates above the threshold, all refused by `accept`), `not-similar` (none above the threshold).
   */
  reason?: 'ambiguous' | 'wrong-value' | 'not-similar';
  /** When ambiguous: the runner-up the chosen candidate could not be told from (its selector, its similarity). */
  rival?: { selector: string; similarity: number };
  /** Candidates compared / candidates skipped by the bounds (for benchmarks and reports). */
  compared: number;
  pruned: number;
  /**
   * Content view work (when it ran): tree-gram blocks (m) and page blocks (N), block pairs compared
   * exactly (those the prefix filter lets through, out of m·N), pairs with a non-zero similarity kept, and
   * pairs visited by the exact alignments; no m × n DP table is built.
   */
  content?: { blocks: number; pageBlocks: number; checks: number; pairs: number; aligned: number };
}

/** Options of one adaptation. */
export interface AdaptOptions {
  /** Several instances are wanted (a list pattern): every non-nested candidate above the threshold. */
  multiple?: boolean;
  /** Accepts or rejects a candidate set (e.g. the pattern's data-type constraints). */
  accept?: (nodes: number[]) => boolean;
  /** Nodes that must not be returned (e.g. a parent's previous, wrong instance). */
  exclude?: ReadonlySet<number>;
  /**
   * The page is on the site (registrable domain) the wrapper was built on: the document view may look
   * for a moved document (match/document.ts). False or absent: it does not run.
   */
  sameSite?: boolean;
  /**
   * A candidate's text tells which element it is (a label), rather than being the data it holds (a
   * field's value, a record's card, which change from page to page: the default). Tree-grams of a
   * document (DOCUMENT_MIN_WORDS words or more) are known by their text whatever this says.
   */
  identityText?: boolean;
  /** True when two page nodes give the same data: they are not rivals of each other (no ambiguity). */
  sameData?: (a: number, b: number) => boolean;
}

interface Scored {
  k: number;
  sim: number;
  /** Similarity plus the evidence: what orders candidates. */
  score: number;
  /** Similarity plus the evidence that tells which element it is (see `Evidence.identity`): what ambiguity compares. */
  identity: number;
}

/**
 * Adapts one pattern: searches the subtree of `scope` (0: the whole page) for the subtrees most similar to
 * `gram` (see the module comment). `settings` gives the threshold, the algorithms' order and the label
 * flags.
 */
export function adapt(
  tree: Tree,
  scope: number,
  gram: TreeGram,
  settings: Pick<ResolvedSettings, 'threshold' | 'algorithms' | 'labels'> &
    Partial<Pick<ResolvedSettings, 'thresholds' | 'content' | 'contentThreshold' | 'document' | 'documentThreshold' | 'ambiguityMargin'>>,
  options: AdaptOptions = {},
): Adaptation {
  const notFound: Adaptation = { nodes: [], step: 'not-found', similarity: 0, selector: '', compared: 0, pruned: 0 };
  if (gram.instances.length === 0) return notFound;
  const o = filled(settings, WRAPPER_DEFAULTS, ['ambiguityMargin', 'contentThreshold', 'documentThreshold']);
  const space = new LabelSpace(settings.labels);
  const grams = gram.instances.map((g) => gramTree(g, space));
  const root = scope;
  if (!keptNode(tree, root)) return notFound;
  const page = fromTree(tree, root, space);
  const rootLabels = new Set(grams.map((g) => g.label[0]!));
  const candidates: number[] = [];
  for (let k = 0; k < page.size; k++) {
    if (!rootLabels.has(page.label[k]!)) continue;
    if (options.exclude?.has(page.node[k]!)) continue;
    candidates.push(k);
  }
  const leafGram = gram.instances.every((g) => g.tags.length <= 2);
  const identityText = options.identityText === true || gram.instances.some((g) => documentWords(g) >= DOCUMENT_MIN_WORDS);
  const evidence = new Evidence(tree, gram.instances, identityText);
  // Equal identities computed in another order may differ in the last bits: they are still a tie.
  const margin = o.ambiguityMargin + TIE_TOLERANCE;
  let bestSeen = 0;
  let compared = 0;
  let pruned = 0;
  let refused = false;
  for (const algorithm of settings.algorithms) {
    const r = search(tree, algorithm, grams, page, candidates, settings.thresholds?.[algorithm] ?? settings.threshold, options, evidence, space.size, margin);
    compared += r.compared;
    pruned += r.pruned;
    bestSeen = Math.max(bestSeen, r.bestSim);
    refused ||= r.refused;
    if (r.rival) {
      // Two candidates about equally similar: say so rather than guess (and do not let a weaker step guess).
      const rival = { selector: selectorFor(tree, [page.node[r.rival.k]!]), similarity: r.rival.sim };
      return { ...notFound, similarity: r.chosen[0]?.sim ?? bestSeen, reason: 'ambiguous', rival, compared, pruned };
    }
    if (r.chosen.length === 0) continue;
    const nodes = r.chosen.map((s) => page.node[s.k]!).sort((x, y) => x - y);
    const sim = Math.min(...r.chosen.map((s) => s.sim));
    return { nodes, step: leafGram ? 'string' : algorithm, view: 'tags', similarity: sim, selector: selectorFor(tree, nodes), compared, pruned };
  }
  // The content view (blocks.ts), for single patterns whose tree-gram has text enough to be recognised.
  // What a view that ran saw goes into the not-found report.
  const seen: Pick<Adaptation, 'contentSimilarity' | 'content' | 'documentSimilarity'> = {};
  const text = new TextContext(tree, root);
  if (settings.content && !options.multiple) {
    const c = searchContentView(tree, root, gram, settings.algorithms, o.contentThreshold, options, evidence, text, margin);
    compared += c.compared;
    pruned += c.pruned;
    refused ||= c.refused;
    if (c.rival) {
      const rival = { selector: selectorFor(tree, [c.rival.node]), similarity: c.rival.sim };
      return { ...notFound, similarity: c.found?.sim ?? c.bestSim, contentSimilarity: c.bestSim, reason: 'ambiguous', rival, compared, pruned, content: c.work };
    }
    if (c.found) {
      const nodes = [c.found.node];
      return { nodes, step: c.found.algorithm, view: 'content', similarity: c.found.sim, selector: selectorFor(tree, nodes), compared, pruned, content: c.work };
    }
    if (c.tried) Object.assign(seen, { contentSimilarity: c.bestSim, content: c.work });
  }
  // The document view (document.ts): a moved, rebuilt document on the same site, recognised by its title.
  if (settings.document && !options.multiple && options.sameSite) {
    const d = searchDocumentView(tree, root, gram, o.documentThreshold, options, text);
    if (d) {
      compared += d.compared;
      pruned += d.pruned;
      if (d.found) {
        const nodes = [d.found.node];
        return { nodes, step: 'document', view: 'document', similarity: d.found.sim, selector: selectorFor(tree, nodes), compared, pruned };
      }
      seen.documentSimilarity = d.bestSim;
    }
  }
  return { ...notFound, similarity: bestSeen, compared, pruned, ...seen, reason: refused ? 'wrong-value' : 'not-similar' };
}

/**
 * What the content and document views share, built once per adaptation and only when one of them runs:
 * the interned words, each tree-gram instance's blocks, and the scope's page blocks (in preorder of their
 * elements, with their element numbers for range lookups).
 */
class TextContext {
  readonly words = new WordSpace();
  readonly keys = new WordSpace();
  private readonly grams = new Map<GramInstance, Block[] | null>();
  private page: { blocks: Block[]; blockNode: Int32Array } | null = null;
  constructor(
    private readonly tree: Tree,
    private readonly root: number,
  ) {}
  gram(inst: GramInstance): Block[] | null {
    let b = this.grams.get(inst);
    if (b === undefined) this.grams.set(inst, (b = gramBlocks(inst, this.words, this.keys)));
    return b;
  }
  pageBlocks(): { blocks: Block[]; blockNode: Int32Array } {
    if (!this.page) {
      const blocks = pageBlocks(this.tree, this.root, this.words, this.keys);
      this.page = { blocks, blockNode: Int32Array.from(blocks, (b) => b.node) };
    }
    return this.page;
  }
}

/**
 * The algorithms the content view runs: CTM (its threshold was measured, defaults.ts) and the bigram on
 * exact blocks. Not Jaro–Winkler: on block sequences its Jaro term is at least 1/3 as soon as one block is
 * equal (measured: 13 false positives on the OTA changes at every threshold). Not STM: its normalisation
 * by m + n instead of max(m, n) is lenient with a short text against a long one; measured, it adapts 3
 * impostors at 0.2, and in the demo shop it took a review paragraph sharing one stock sentence with a
 * three-paragraph description for that description (0.32, above 0.3).
 */
const CONTENT_ALGORITHMS: ReadonlySet<AlgorithmName> = new Set(['ctm', 'bigram']);

/**
 * The content-view search: the tree-gram instances' blocks against every element of the scope, each
 * element standing for the contiguous run of page blocks under it. Bound before exact: the block pairs with
 * a non-zero similarity are found once (blocks.ts `blockPairs`, by prefix filtering: only pairs sharing a
 * rare word are compared, not the m × N of them), each page
 * block's best similarity gives prefix sums that bound every element's alignment in O(1), and the exact
 * alignment (`alignPairs`, over the pairs inside the element, no m × n table) runs only on elements whose
 * bound can still beat the best, in decreasing bound order, once per distinct block run.
 */
function searchContentView(
  tree: Tree,
  root: number,
  gram: TreeGram,
  algorithms: readonly AlgorithmName[],
  threshold: number,
  options: AdaptOptions,
  evidence: Evidence,
  text: TextContext,
  margin: number,
): {
  found: { node: number; sim: number; algorithm: AlgorithmName } | null;
  rival: { node: number; sim: number } | null;
  refused: boolean;
  tried: boolean;
  bestSim: number;
  compared: number;
  pruned: number;
  work: NonNullable<Adaptation['content']>;
} {
  const grams = gram.instances
    .map((g) => text.gram(g))
    .filter((b): b is Block[] => b !== null && b.length <= GRAM_CONTENT_BLOCKS && b.reduce((s, x) => s + x.words.length, 0) >= CONTENT_MIN_WORDS);
  const { blocks, blockNode } = grams.length === 0 ? { blocks: [] as Block[], blockNode: new Int32Array(0) } : text.pageBlocks();
  const N = blocks.length;
  const work = { blocks: grams.reduce((s, g) => Math.max(s, g.length), 0), pageBlocks: N, checks: 0, pairs: 0, aligned: 0 };
  if (grams.length === 0) return { found: null, rival: null, refused: false, tried: false, bestSim: 0, compared: 0, pruned: 0, work };
  // Elements of the scope with their block ranges [lo, hi) (blocks are in preorder of their elements).
  const elements: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  for (let i = root, e = tree.end[root]!; i < e; i++) {
    if (tree.kind[i] !== NodeKind.Element || !keptNode(tree, i)) continue;
    if (options.exclude?.has(i)) continue;
    const a = lowerBoundInt(blockNode, 0, N, i);
    const b = lowerBoundInt(blockNode, a, N, tree.end[i]!);
    if (b > a) {
      elements.push(i);
      lo.push(a);
      hi.push(b);
    }
  }
  let compared = 0;
  let pruned = 0;
  let bestSim = 0;
  // Per tree-gram instance, once for every algorithm: the block pairs, and per page block its best
  // similarity to a tree-gram block and whether it equals one, as prefix sums.
  const prepared = new Map<Block[], { pairs: BlockPairs; simSum: Float64Array; exactSum: Int32Array }>();
  const prepare = (g: Block[]): { pairs: BlockPairs; simSum: Float64Array; exactSum: Int32Array } => {
    let p = prepared.get(g);
    if (p) return p;
    const pairs = blockPairs(g, blocks);
    work.checks += pairs.compared;
    work.pairs += pairs.size;
    const simSum = new Float64Array(N + 1);
    const exactSum = new Int32Array(N + 1);
    for (let j = 0; j < N; j++) {
      simSum[j + 1] = simSum[j]! + pairs.best[j]!;
      exactSum[j + 1] = exactSum[j]! + (pairs.best[j] === 1 ? 1 : 0);
    }
    prepared.set(g, (p = { pairs, simSum, exactSum }));
    return p;
  };
  let refused = false;
  for (const algorithm of algorithms) {
    if (!CONTENT_ALGORITHMS.has(algorithm)) continue;
    let best: { node: number; sim: number; score: number } | null = null;
    // Acceptable candidates within reach of the best (for the ambiguity rule: on the content view the text
    // is what tells elements apart, so the score is the identity).
    const near: Array<{ node: number; sim: number; score: number }> = [];
    for (const g of grams) {
      const m = g.length;
      const { pairs, simSum, exactSum } = prepare(g);
      const bound = (c: number): number => {
        const n = hi[c]! - lo[c]!;
        const s = Math.min(m, simSum[hi[c]!]! - simSum[lo[c]!]!);
        const e = Math.min(m, exactSum[hi[c]!]! - exactSum[lo[c]!]!);
        switch (algorithm) {
          case 'ctm':
            return s / Math.max(m, n);
          case 'stm':
            return (2 * s) / (m + n);
          case 'bigram':
            return (2 * e) / (m + n);
          case 'jw':
            return e === 0 ? 0 : Math.min(1, (e / m + e / n + 1) / 3 + 0.4 * (1 - (e / m + e / n + 1) / 3));
        }
      };
      const order: number[] = [];
      const bounds = new Float64Array(elements.length);
      for (let c = 0; c < elements.length; c++) {
        bounds[c] = bound(c);
        if (bounds[c]! >= threshold) order.push(c);
        else pruned++;
      }
      order.sort((x, y) => bounds[y]! - bounds[x]! || elements[x]! - elements[y]!);
      const exact = new Map<number, number>();
      for (const c of order) {
        if (best && bounds[c]! + EVIDENCE_WEIGHT < best.score - margin) {
          pruned++;
          continue;
        }
        const key = lo[c]! * (N + 1) + hi[c]!;
        let sim = exact.get(key);
        if (sim === undefined) {
          const n = hi[c]! - lo[c]!;
          if (algorithm === 'bigram') sim = contentSimilarity(algorithm, g, blocks.slice(lo[c]!, hi[c]!));
          else {
            const aligned = alignPairs(pairs, m, lo[c]!, hi[c]!);
            work.aligned += lowerBoundInt(pairs.j, 0, pairs.size, hi[c]!) - lowerBoundInt(pairs.j, 0, pairs.size, lo[c]!);
            sim = algorithm === 'ctm' ? aligned / Math.max(m, n) : (2 * aligned) / (m + n);
          }
          exact.set(key, sim);
          compared++;
        }
        if (sim > bestSim) bestSim = sim;
        if (sim < threshold) continue;
        const node = elements[c]!;
        const score = sim + EVIDENCE_WEIGHT * evidence.of(node);
        if (best && score < best.score - margin) continue;
        if (options.accept && !options.accept([node])) {
          refused = true;
          continue;
        }
        near.push({ node, sim, score });
        if (!best || score > best.score) best = { node, sim, score };
      }
    }
    if (best) {
      const b = best;
      const r =
        near.find((x) => x.node !== b.node && !tree.contains(x.node, b.node) && !tree.contains(b.node, x.node) && x.score >= b.score - margin && !options.sameData?.(x.node, b.node)) ?? null;
      return { found: { node: b.node, sim: b.sim, algorithm }, rival: r ? { node: r.node, sim: r.sim } : null, refused, tried: true, bestSim, compared, pruned, work };
    }
  }
  return { found: null, rival: null, refused, tried: true, bestSim, compared, pruned, work };
}

/**
 * The document-view search (document.ts) for each tree-gram instance that is a document: at least
 * DOCUMENT_MIN_WORDS words and a title. Null when no instance is one (the view was not tried).
 */
function searchDocumentView(
  tree: Tree,
  root: number,
  gram: TreeGram,
  threshold: number,
  options: AdaptOptions,
  text: TextContext,
): { found: { node: number; sim: number } | null; bestSim: number; compared: number; pruned: number } | null {
  let out: { found: { node: number; sim: number } | null; bestSim: number; compared: number; pruned: number } | null = null;
  for (const inst of gram.instances) {
    const title = gramTitle(inst);
    if (!title) continue;
    const blocks = text.gram(inst);
    if (!blocks) continue;
    const total = blocks.reduce((s, b) => s + b.words.length, 0);
    if (total < DOCUMENT_MIN_WORDS) continue;
    const words = new Int32Array(total);
    let at = 0;
    for (const b of blocks) {
      words.set(b.words, at);
      at += b.words.length;
    }
    const accept = options.accept ? (node: number): boolean => options.accept!([node]) : undefined;
    const { blocks: page, blockNode } = text.pageBlocks();
    const r = searchDocument(tree, root, page, blockNode, words, title, text.words.size(), threshold, accept, options.exclude);
    if (!out) out = { found: null, bestSim: 0, compared: 0, pruned: 0 };
    out.compared += r.compared;
    out.pruned += r.pruned;
    out.bestSim = Math.max(out.bestSim, r.bestSim);
    if (r.found && (!out.found || r.found.sim > out.found.sim)) out.found = r.found;
  }
  return out;
}

/** One algorithm on the content view (blocks.ts). */
export function contentSimilarity(algorithm: AlgorithmName, a: readonly Block[], b: readonly Block[]): number {
  switch (algorithm) {
    case 'ctm':
      return blockCtm(a, b);
    case 'stm':
      return blockStm(a, b);
    case 'bigram': {
      const x = Float64Array.from(a, (z) => z.key).sort();
      const y = Float64Array.from(b, (z) => z.key).sort();
      return diceSorted(x, y);
    }
    case 'jw':
      return jaroWinklerSeq(Int32Array.from(a, (z) => z.key), Int32Array.from(b, (z) => z.key));
  }
}

type Measure = {
  sim: (g: LabelledTree, p: LabelledTree, k: number) => number;
  bound: (g: LabelledTree, p: LabelledTree, k: number, scratch: Int32Array) => number;
};

/** The candidate's size as the tree-gram sees it (cut at the tree-gram's depth when it was cut). */
function sizeSeen(g: LabelledTree, p: LabelledTree, k: number): number {
  return g.cut >= 0 ? restrictedSize(p, k, g.cut) : p.end[k]! - k;
}

/**
 * The similarity of one algorithm and a cheap upper bound of it. A depth-cut tree-gram is compared with
 * the candidate cut at the same depth (labelled-tree.ts `restrict`), so that the levels it dropped count
 * neither for nor against a candidate.
 */
function measure(algorithm: AlgorithmName): Measure {
  const m = rawMeasure(algorithm);
  return {
    sim: (g, p, k) => (g.cut >= 0 ? m.sim(g, restrict(p, k, g.cut), 0) : m.sim(g, p, k)),
    bound: m.bound,
  };
}

function rawMeasure(algorithm: AlgorithmName): Measure {
  const sizeBound = (g: LabelledTree, p: LabelledTree, k: number): number => {
    const a = g.size;
    const b = sizeSeen(g, p, k);
    return (2 * Math.min(a, b)) / (a + b);
  };
  switch (algorithm) {
    case 'ctm':
      return { sim: (g, p, k) => clusteredTreeMatching(g, p, 0, k), bound: (g, p, k, s) => clusteredUpperBound(g, 0, p, k, s) };
    case 'stm':
      return { sim: (g, p, k) => stmSimilarity(g, p, 0, k), bound: sizeBound };
    case 'bigram': {
      const cache = new WeakMap<LabelledTree, Float64Array>();
      return {
        sim: (g, p, k) => {
          let gb = cache.get(g);
          if (!gb) cache.set(g, (gb = treeBigrams(g)));
          return diceSorted(gb, treeBigrams(p, k));
        },
        bound: sizeBound,
      };
    }
    case 'jw':
      return { sim: (g, p, k) => jaroWinklerTree(g, p, 0, k), bound: (g, p, k) => jaroWinklerBound(g.size, sizeSeen(g, p, k)) };
  }
}

/** Words of a stored instance's text: its content-view blocks when it has them, else its summary. */
function documentWords(g: GramInstance): number {
  return g.blocks ? g.blocks.reduce((s, b) => s + textWords(b).length, 0) : textWords(g.text).length;
}

/** True when page nodes k1 and k2 of the labelled tree are the same or one contains the other. */
function nested(page: LabelledTree, k1: number, k2: number): boolean {
  return (k1 <= k2 && k2 < page.end[k1]!) || (k2 <= k1 && k1 < page.end[k2]!);
}

function search(
  tree: Tree,
  algorithm: AlgorithmName,
  grams: readonly LabelledTree[],
  page: LabelledTree,
  candidates: readonly number[],
  threshold: number,
  options: AdaptOptions,
  evidence: Evidence,
  labelCount: number,
  margin: number,
): { chosen: Scored[]; rival: Scored | null; refused: boolean; bestSim: number; compared: number; pruned: number } {
  const m = measure(algorithm);
  const scratch = new Int32Array(labelCount + 1);
  const bounds = new Float64Array(candidates.length);
  const order: number[] = [];
  for (let c = 0; c < candidates.length; c++) {
    let b = 0;
    for (const g of grams) b = Math.max(b, m.bound(g, page, candidates[c]!, scratch));
    bounds[c] = b;
    if (b >= threshold) order.push(c);
  }
  let pruned = candidates.length - order.length;
  order.sort((x, y) => bounds[y]! - bounds[x]!);
  const accepted: Scored[] = [];
  let best: Scored | null = null;
  let bestSim = 0;
  let compared = 0;
  let refused = false;
  for (let o = 0; o < order.length; o++) {
    const c = order[o]!;
    // Single pattern: stop once no remaining candidate can beat the best combined score nor come within
    // the ambiguity margin of its identity (bounds only decrease from here on).
    if (!options.multiple && best && bounds[c]! + EVIDENCE_WEIGHT < best.score && bounds[c]! + EVIDENCE_WEIGHT < best.identity - margin) {
      pruned += order.length - o;
      break;
    }
    const k = candidates[c]!;
    let sim = 0;
    for (const g of grams) sim = Math.max(sim, m.sim(g, page, k));
    compared++;
    if (sim > bestSim) bestSim = sim;
    if (sim < threshold) continue;
    if (options.accept && !options.accept([page.node[k]!])) {
      refused = true;
      continue;
    }
    const node = page.node[k]!;
    const s: Scored = { k, sim, score: sim + EVIDENCE_WEIGHT * evidence.of(node), identity: sim + EVIDENCE_WEIGHT * evidence.identity(node) };
    accepted.push(s);
    if (!options.multiple && (!best || s.score > best.score)) best = s;
  }
  if (!options.multiple) {
    if (!best) return { chosen: [], rival: null, refused, bestSim, compared, pruned };
    // Ambiguity: another acceptable candidate, not nested with the best, about as much the element.
    const b = best;
    const rival =
      accepted.find((s) => s !== b && !nested(page, s.k, b.k) && s.identity >= b.identity - margin && !options.sameData?.(page.node[s.k]!, page.node[b.k]!)) ?? null;
    return { chosen: [b], rival, refused, bestSim, compared, pruned };
  }
  // Several instances: the best of nested candidates only, then the items of the stored list (listOf),
  // then the whole set must be acceptable.
  accepted.sort((x, y) => y.score - x.score);
  const outer: Scored[] = [];
  for (const s of accepted) if (!outer.some((o) => nested(page, o.k, s.k))) outer.push(s);
  const chosen = listOf(tree, page, outer, evidence);
  chosen.sort((x, y) => x.k - y.k);
  if (chosen.length > 0 && options.accept && !options.accept(chosen.map((s) => page.node[s.k]!))) return { chosen: [], rival: null, refused: true, bestSim, compared, pruned };
  return { chosen, rival: null, refused, bestSim, compared, pruned };
}

/**
 * The candidates of a list pattern that are items of the stored list, from candidates best first: the
 * items of the best candidate's list (its parent's children among them), and those of every other list
 * whose place (its items' ancestors, id and class, `Evidence.place`) is as good as that list's (a list the
 * page now splits in two). An element elsewhere that merely looks like an item (a breadcrumb's last
 * entry, a leaf with the same tags) is left out, however similar its tags.
 */
function listOf(tree: Tree, page: LabelledTree, best: readonly Scored[], evidence: Evidence): Scored[] {
  if (best.length === 0) return [];
  const lists = new Map<number, { items: Scored[]; place: number }>();
  for (const s of best) {
    const node = page.node[s.k]!;
    const parent = tree.parent[node]!;
    let l = lists.get(parent);
    if (!l) lists.set(parent, (l = { items: [], place: 0 }));
    l.items.push(s);
    l.place = Math.max(l.place, evidence.place(node));
  }
  const first = lists.get(tree.parent[page.node[best[0]!.k]!]!)!;
  return [...lists.values()].filter((l) => l === first || l.place >= first.place - TIE_TOLERANCE).flatMap((l) => l.items);
}

/** The evidence of a candidate (see the module comment): mean of context, attributes and text, in [0, 1]. */
class Evidence {
  private readonly cache = new Map<number, { of: number; identity: number; place: number }>();
  /**
   * `identityText`: the text tells which element a candidate is (a label, a document); otherwise it is the
   * data, and `identity` leaves it out.
   */
  constructor(
    private readonly tree: Tree,
    private readonly grams: readonly GramInstance[],
    private readonly identityText: boolean,
  ) {}
  /** The evidence that orders candidates: context, attributes and text. */
  of(node: number): number {
    return this.get(node).of;
  }
  /**
   * The evidence that tells which element a candidate is, compared by the ambiguity rule: context,
   * attributes, and the text itself only when it is not the data (`identityText`), else the kind of data
   * it is (constraints.ts `valueKind`: a price is a number, a SKU is not). Two cards of a list differ by their texts only,
   * and the words a field had on the page the wrapper was made on say nothing about which card holds its
   * value on another page.
   */
  identity(node: number): number {
    return this.get(node).identity;
  }
  /** Where a candidate is: the agreement of its ancestors, id and class with a stored instance's, in [0, 1]. */
  place(node: number): number {
    return this.get(node).place;
  }
  private get(node: number): { of: number; identity: number; place: number } {
    let v = this.cache.get(node);
    if (v !== undefined) return v;
    v = { of: 0, identity: 0, place: 0 };
    const ctx = contextOf(this.tree, node);
    const id = this.tree.attr(node, 'id');
    const cls = this.tree.attr(node, 'class');
    let text: string | null = null;
    for (const g of this.grams) {
      const limit = Math.max(g.text.length, 1);
      text ??= instanceText(this.tree, node);
      const where = contextSimilarity(g.context, ctx) + attributeSimilarity(g.ids[0], g.classes[0], id, cls);
      const said = stringSimilarity(g.text, text.slice(0, limit));
      v.of = Math.max(v.of, (where + said) / 3);
      v.place = Math.max(v.place, where / 2);
      v.identity = Math.max(v.identity, (where + (this.identityText ? said : valueKind(g.text) === valueKind(text) ? 1 : 0)) / 3);
    }
    this.cache.set(node, v);
    return v;
  }
}

/** Agreement of two ancestor contexts, position by position (nearest first), in [0, 1]. */
export function contextSimilarity(a: readonly ContextStep[], b: readonly ContextStep[]): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 1;
  let sum = 0;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (x.tag !== y.tag) continue;
    sum += 0.5 + 0.25 * (x.id === y.id ? 1 : 0) + 0.25 * classSimilarity(x.class, y.class);
  }
  return sum / n;
}

/** Agreement of an element's id and classes with the stored ones, in [0, 1]. */
export function attributeSimilarity(idA: string | undefined, clsA: string | undefined, idB: string | undefined, clsB: string | undefined): number {
  const ids = idA === idB ? 1 : idA && idB ? jaroWinkler(idA, idB) : 0;
  return (ids + classSimilarity(clsA, clsB)) / 2;
}

/** Jaccard of two class lists (1 when both are empty). */
export function classSimilarity(a: string | undefined, b: string | undefined): number {
  const x = new Set((a ?? '').split(/\s+/).filter(Boolean));
  const y = new Set((b ?? '').split(/\s+/).filter(Boolean));
  if (x.size === 0 && y.size === 0) return 1;
  let common = 0;
  for (const c of x) if (y.has(c)) common++;
  return common / (x.size + y.size - common);
}

/**
 * A selector matching exactly `nodes`: the CSS path of a single element (paths.ts); for several elements
 * with one parent, the parent's path and a child step shared by all of them when it selects exactly them;
 * else the paths joined with commas. Text nodes get their absolute XPath.
 */
export function selectorFor(tree: Tree, nodes: readonly number[]): string {
  if (nodes.length === 0) return '';
  if (nodes.some((n) => tree.kind[n] !== NodeKind.Element)) return nodes.length === 1 ? xpathOf(tree, nodes[0]!) : nodes.map((n) => xpathOf(tree, n)).join(' | ');
  if (nodes.length === 1) return cssPath(tree, nodes[0]!);
  const parent = tree.parent[nodes[0]!]!;
  if (parent > 0 && nodes.every((n) => tree.parent[n] === parent && tree.name[n] === tree.name[nodes[0]!])) {
    const classes = (tree.attr(nodes[0]!, 'class') ?? '').split(/\s+/).filter((c) => c && nodes.every((n) => (tree.attr(n, 'class') ?? '').split(/\s+/).includes(c)));
    const step = tree.tag(nodes[0]!) + classes.map((c) => '.' + cssEscape(c)).join('');
    const sel = `${cssPath(tree, parent)} > ${step}`;
    try {
      const got = selectAll(tree, sel);
      if (got.length === nodes.length && got.every((g, k) => g === nodes[k])) return sel;
    } catch {
      // fall through to the joined paths
    }
  }
  return nodes.map((n) => cssPath(tree, n)).join(', ');
}
