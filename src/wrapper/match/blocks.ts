/**
 * The content view of a subtree (this project's extension of paper 5, for redesigns): the subtree read as
 * a two-level tree, a root whose children are the subtree's text blocks in document order, each block a
 * leaf carrying its words. A block is a block-level element (html/text.ts BLOCK_TAGS, or the subtree's
 * root) with the text of its inline content; a block nested in another is its own block.
 *
 * Why: a redesign (a CMS change, a page builder) rebuilds every level above the paragraphs (new wrappers,
 * flattened sections, renamed tags), so tree matching on element labels finds nothing, while the text
 * blocks of the content survive, mostly word for word. Paper 5 says leaves "which exhibit no inherent tree
 * structure" are matched by string similarity (Section 4) and that tree matching breaks when levels are
 * added or removed (Section 6); the content view drops the levels and keeps the leaves.
 *
 * On the view, clustered tree matching is Algorithm 1 as written with one change, the one Section 4 asks
 * for leaves: two leaves "have the same label" to a degree, their string similarity (the Dice coefficient
 * of their word multisets, 0 below BLOCK_SIM_FLOOR), instead of 0 or 1. Algorithm 1 on a root with m and n
 * leaf children gives each leaf pair 1/max(m, n) (t = the number of siblings), so
 *   CTM_view(A, B) = max over order-preserving block alignments of Σ sim(a_i, b_j) / max(m, n),
 * in [0, 1], 1 exactly when the block sequences are equal. Simple tree matching on the view counts the
 * aligned leaves (each weighed by its similarity) and is normalised like simple.ts, 2·Σ sim / (m + n); the
 * view's root is not counted (it always matches, and would give two unrelated one-block texts 0.5).
 * The tree bigram and Jaro–Winkler variants use exact block equality (the block's word list as its label).
 *
 * Words are interned per adaptation (WordSpace) so a block is a sorted Int32Array and Dice is a merge.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import { BLOCK_TAGS, isBlock, isNonText } from '../../html/text.ts';
import { BLOCK_SIM_FLOOR } from '../defaults.ts';
import { diceSorted } from './bigram.ts';
import { textWords } from './string.ts';

/** Interns words (and whole blocks, for the exact-label variants) as integers. */
export class WordSpace {
  private readonly ids = new Map<string, number>();
  id(w: string): number {
    let id = this.ids.get(w);
    if (id === undefined) this.ids.set(w, (id = this.ids.size));
    return id;
  }
  /** How many distinct strings were interned (ids are 0 … size − 1). */
  size(): number {
    return this.ids.size;
  }
}

/** A text block: its word ids, sorted (a multiset), and a label for exact comparison. */
export interface Block {
  /** The block element on the page (-1 for a tree-gram's block). */
  node: number;
  words: Int32Array;
  /** Interned key of the block's word sequence (equal blocks, equal keys). */
  key: number;
}

function finish(raw: number[][], nodes: readonly number[], keys: WordSpace): Block[] {
  const out: Block[] = [];
  for (let k = 0; k < raw.length; k++) {
    const ws = raw[k]!;
    if (ws.length === 0) continue;
    const key = keys.id(ws.join(','));
    out.push({ node: nodes[k]!, words: Int32Array.from(ws).sort(), key });
  }
  return out;
}

function addWords(text: string, into: number[], space: WordSpace): void {
  for (const w of textWords(text)) into.push(space.id(w));
}

/**
 * The text blocks of the page subtree at `root` (scripts, styles and other non-text elements skipped): per
 * block its element and its text (inline text nodes joined by spaces), in preorder of the elements.
 */
export function blockTexts(tree: Tree, root: number): { nodes: number[]; texts: string[] } {
  const nodes: number[] = [];
  const parts: string[][] = [];
  const open: Array<{ end: number; at: number }> = [];
  const last = tree.end[root]!;
  for (let i = root; i < last; i++) {
    while (open.length > 0 && open[open.length - 1]!.end <= i) open.pop();
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      if (i !== root && isNonText(tree, i)) {
        i = tree.end[i]! - 1;
        continue;
      }
      if (i === root || isBlock(tree, i)) {
        open.push({ end: tree.end[i]!, at: parts.length });
        parts.push([]);
        nodes.push(i);
      }
    } else if (k === NodeKind.Text && open.length > 0) {
      parts[open[open.length - 1]!.at]!.push(tree.nodeText(i));
    }
  }
  const texts = parts.map((p) => p.join(' ').replace(/\s+/g, ' ').trim());
  return { nodes, texts };
}

/** Blocks from texts (one per block; empty ones dropped), with their page elements (-1 for a tree-gram). */
export function blocksOf(texts: readonly string[], nodes: readonly number[] | null, space: WordSpace, keys: WordSpace): Block[] {
  const raw: number[][] = [];
  for (const t of texts) {
    const ws: number[] = [];
    addWords(t, ws, space);
    raw.push(ws);
  }
  return finish(raw, nodes ?? new Array<number>(texts.length).fill(-1), keys);
}

/** The blocks of the page subtree at `root`. */
export function pageBlocks(tree: Tree, root: number, space: WordSpace, keys: WordSpace): Block[] {
  const { nodes, texts } = blockTexts(tree, root);
  return blocksOf(texts, nodes, space, keys);
}

/**
 * The blocks of a stored tree-gram instance: its stored block texts when it has them, else rebuilt from
 * its nodes (tags, parents in preorder, texts of text leaves), which is exact when no level was cut.
 */
export function gramBlocks(
  inst: { tags: readonly string[]; parents: readonly number[]; texts: Readonly<Record<string, string>>; blocks?: readonly string[] | undefined; cut?: number | undefined },
  space: WordSpace,
  keys: WordSpace,
): Block[] | null {
  if (inst.blocks) return blocksOf(inst.blocks, null, space, keys);
  if (inst.cut !== undefined) return null;
  const { tags, parents, texts } = inst;
  const raw: number[][] = [];
  // The block each node's text goes to: its own when it is a block (or the root), else its parent's.
  const blockOf = new Int32Array(tags.length).fill(-1);
  for (let k = 0; k < tags.length; k++) {
    const tag = tags[k]!;
    const p = parents[k]!;
    if (tag === '#text') {
      const b = p >= 0 ? blockOf[p]! : -1;
      if (b >= 0) addWords(texts[k] ?? '', raw[b]!, space);
      continue;
    }
    if (k === 0 || BLOCK_TAGS.has(tag)) {
      blockOf[k] = raw.length;
      raw.push([]);
    } else blockOf[k] = p >= 0 ? blockOf[p]! : -1;
  }
  return finish(raw, new Array<number>(raw.length).fill(-1), keys);
}

/** Graded leaf label: the Dice of the two blocks, 0 below BLOCK_SIM_FLOOR (the length bound skips the merge). */
export function blockSimilarity(a: Block, b: Block): number {
  if (a.key === b.key) return 1;
  const la = a.words.length;
  const lb = b.words.length;
  if ((2 * Math.min(la, lb)) / (la + lb) < BLOCK_SIM_FLOOR) return 0;
  const d = diceSorted(a.words, b.words);
  return d < BLOCK_SIM_FLOOR ? 0 : d;
}

let rows = new Float64Array(1024);

/** max over order-preserving alignments of Σ blockSimilarity (the DP of Algorithm 1 over the root's children). */
export function alignBlocks(a: readonly Block[], b: readonly Block[]): number {
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return 0;
  const w = n + 1;
  if (rows.length < 2 * w) rows = new Float64Array(4 * w);
  rows.fill(0, 0, 2 * w);
  let prev = 0;
  let cur = w;
  for (let i = 0; i < m; i++) {
    rows[cur] = 0;
    const ai = a[i]!;
    for (let j = 1; j <= n; j++) {
      const diag = rows[prev + j - 1]! + blockSimilarity(ai, b[j - 1]!);
      const up = rows[prev + j]!;
      const left = rows[cur + j - 1]!;
      rows[cur + j] = diag > up ? (diag > left ? diag : left) : up > left ? up : left;
    }
    const s = prev;
    prev = cur;
    cur = s;
  }
  return rows[prev + n]!;
}

/** Clustered tree matching on the content view (module comment): in [0, 1]. */
export function blockCtm(a: readonly Block[], b: readonly Block[]): number {
  const m = a.length;
  const n = b.length;
  if (m === 0 && n === 0) return 1;
  if (m === 0 || n === 0) return 0;
  return alignBlocks(a, b) / Math.max(m, n);
}

/** Simple tree matching on the content view, normalised as simple.ts over the blocks (module comment). */
export function blockStm(a: readonly Block[], b: readonly Block[]): number {
  const m = a.length;
  const n = b.length;
  if (m + n === 0) return 1;
  return (2 * alignBlocks(a, b)) / (m + n);
}

/**
 * The pairs of blocks with a non-zero similarity between a tree-gram's blocks `a` and a page's blocks `b`,
 * sorted by page block, then by tree-gram block descending (the order `alignPairs` needs), and each page
 * block's best similarity (for the bound of an element's alignment).
 *
 * Found by prefix filtering (the set-similarity-join technique) rather than by trying all m × N pairs:
 * a block is a set of tokens (word, occurrence), ordered rarest word first over both sides; a pair with
 * Dice >= f shares at least ceil(f·(|A| + |B|)/2) tokens, so at least ceil(f·|A|/(2 − f)) given the length
 * bound, and then the two blocks' prefixes of |X| − ceil(f·|X|/(2 − f)) + 1 rarest tokens share one. Only
 * pairs meeting in a prefix are compared exactly (blockSimilarity); f is BLOCK_SIM_FLOOR.
 */
export interface BlockPairs {
  /** Page block index, tree-gram block index and similarity of each pair. */
  j: Int32Array;
  i: Int32Array;
  sim: Float64Array;
  size: number;
  /** Per page block: its best similarity to any tree-gram block. */
  best: Float64Array;
  /** Pairs compared exactly (the rest of m × N was never looked at). */
  compared: number;
}

export function blockPairs(a: readonly Block[], b: readonly Block[]): BlockPairs {
  const f = BLOCK_SIM_FLOOR;
  // Global order of words: by number of blocks (both sides) holding them, rarest first.
  let maxId = 0;
  let maxOcc = 1;
  for (const x of [a, b])
    for (const blk of x) {
      const w = blk.words;
      for (let k = 0; k < w.length; k++) {
        if (w[k]! > maxId) maxId = w[k]!;
        if (k > 0 && w[k] === w[k - 1]) {
          let run = 2;
          while (k - run >= 0 && w[k - run] === w[k]) run++;
          if (run > maxOcc) maxOcc = run;
        }
      }
    }
  const freq = new Int32Array(maxId + 1);
  for (const x of [a, b])
    for (const blk of x) {
      const w = blk.words;
      for (let k = 0; k < w.length; k++) if (k === 0 || w[k] !== w[k - 1]) freq[w[k]!]!++;
    }
  const ids = Array.from({ length: maxId + 1 }, (_, k) => k).sort((x, y) => freq[x]! - freq[y]! || x - y);
  // (ids holds every word id up to the largest seen; words of neither side get the lowest ranks and no tokens.)
  const rank = new Int32Array(maxId + 1);
  ids.forEach((id, r) => (rank[id] = r));
  const span = maxOcc + 1;
  /** The block's prefix tokens (rank·span + occurrence), rarest first. */
  let scratch = new Int32Array(64);
  const prefix = (blk: Block): Int32Array => {
    const w = blk.words;
    if (scratch.length < w.length) scratch = new Int32Array(2 * w.length);
    const tokens = scratch.subarray(0, w.length);
    let occ = 0;
    for (let k = 0; k < w.length; k++) {
      occ = k > 0 && w[k] === w[k - 1] ? occ + 1 : 0;
      tokens[k] = rank[w[k]!]! * span + occ;
    }
    tokens.sort();
    const need = Math.ceil((f * w.length) / (2 - f));
    return tokens.subarray(0, Math.max(1, Math.min(w.length, w.length - need + 1)));
  };
  // Inverted index of the tree-gram blocks' prefixes, compressed rows (token → tree-gram blocks).
  const tokenCount = (maxId + 1) * span;
  const start = new Int32Array(tokenCount + 1);
  for (const blk of a) {
    const pre = prefix(blk);
    for (let x = 0; x < pre.length; x++) start[pre[x]! + 1]!++;
  }
  for (let t = 0; t < tokenCount; t++) start[t + 1]! += start[t]!;
  const postings = new Int32Array(start[tokenCount]!);
  const fill = start.slice(0, tokenCount);
  for (let i = 0; i < a.length; i++) {
    const pre = prefix(a[i]!);
    for (let x = 0; x < pre.length; x++) postings[fill[pre[x]!]!++] = i;
  }
  const js: number[] = [];
  const is: number[] = [];
  const sims: number[] = [];
  const best = new Float64Array(b.length);
  const seen = new Int32Array(a.length).fill(-1);
  let compared = 0;
  const found: number[] = [];
  const foundSim: number[] = [];
  const lengths = Int32Array.from(a, (x) => x.words.length);
  for (let j = 0; j < b.length; j++) {
    const bj = b[j]!;
    const lb = bj.words.length;
    found.length = 0;
    const pre = prefix(bj);
    for (let x = 0; x < pre.length; x++) {
      const t = pre[x]!;
      for (let q = start[t]!, e = start[t + 1]!; q < e; q++) {
        const i = postings[q]!;
        if (seen[i] === j) continue;
        seen[i] = j;
        const la = lengths[i]!;
        if (2 * (la < lb ? la : lb) < f * (la + lb)) continue; // the length bound, before any merge
        compared++;
        const s = blockSimilarity(a[i]!, bj);
        if (s === 0) continue;
        found.push(i);
        foundSim[i] = s;
        if (s > best[j]!) best[j] = s;
      }
    }
    found.sort((x, y) => y - x);
    for (const i of found) {
      js.push(j);
      is.push(i);
      sims.push(foundSim[i]!);
    }
  }
  return { j: Int32Array.from(js), i: Int32Array.from(is), sim: Float64Array.from(sims), size: js.length, best, compared };
}

let fenwick = new Float64Array(1024);

/**
 * `alignBlocks(a, b.slice(lo, hi))` from the pairs alone: the heaviest chain of pairs increasing in both
 * indices (a weighted longest increasing subsequence; pairs of one page block are visited with the
 * tree-gram index descending so that two of them never chain), with a Fenwick tree of prefix maxima over
 * the tree-gram index. O(P log m) for the P pairs inside the range instead of the m × n DP table.
 */
export function alignPairs(pairs: BlockPairs, m: number, lo: number, hi: number): number {
  if (fenwick.length < m + 1) fenwick = new Float64Array(2 * (m + 1));
  fenwick.fill(0, 0, m + 1);
  let start = lowerBoundInt(pairs.j, 0, pairs.size, lo);
  const end = lowerBoundInt(pairs.j, start, pairs.size, hi);
  let best = 0;
  for (; start < end; start++) {
    const i = pairs.i[start]!;
    // Prefix maximum over tree-gram indices < i (Fenwick positions 1..i).
    let q = 0;
    for (let x = i; x > 0; x -= x & -x) if (fenwick[x]! > q) q = fenwick[x]!;
    const v = q + pairs.sim[start]!;
    if (v > best) best = v;
    for (let x = i + 1; x <= m; x += x & -x) if (fenwick[x]! < v) fenwick[x] = v;
  }
  return best;
}

/** First index in [from, to) of the sorted array `a` whose value is at least `v`. */
export function lowerBoundInt(a: Int32Array, from: number, to: number, v: number): number {
  let l = from;
  let h = to;
  while (l < h) {
    const mid = (l + h) >>> 1;
    if (a[mid]! < v) l = mid + 1;
    else h = mid;
  }
  return l;
}
