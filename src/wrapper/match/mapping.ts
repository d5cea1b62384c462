/**
 * Which nodes simple tree matching pairs (paper 5, Section 3.2; Selkow 1977, Yang 1991): simple.ts gives
 * the size of the largest top-down, order- and label-preserving matching of two trees; this gives the
 * matching itself, by the same recurrence kept per pair of child sequences and traced back. For showing a
 * pattern's stored subtree beside the one found on a changed page, node by node (the UI's adaptation
 * view); not a hot path: each child-sequence table is its own array, pair scores memoised.
 */
import type { Tree } from '../../html/tree.ts';
import { gramTree, type TreeGram } from '../tree-gram.ts';
import { fromTree, type LabelFlags, LabelSpace, type LabelledTree } from './labelled-tree.ts';

/**
 * The node pairs `[k in a, k in b]` of a largest simple tree matching of the subtrees of `a` at 0 and
 * `b` at 0, in preorder of `a`; its length is simple.ts `simpleTreeMatching(a, b)`.
 */
export function simpleTreeMapping(a: LabelledTree, b: LabelledTree): Array<[number, number]> {
  const memo = new Map<number, number>();
  const children = (t: LabelledTree, i: number): number[] => {
    const out: number[] = [];
    for (let c = i + 1, e = t.end[i]!; c < e; c = t.end[c]!) out.push(c);
    return out;
  };
  // The DP table of the child sequences of i and j: cell (x, y) is the best matching of the first x
  // children of i with the first y children of j.
  const table = (i: number, j: number): { ca: number[]; cb: number[]; m: Float64Array } => {
    const ca = children(a, i);
    const cb = children(b, j);
    const w = cb.length + 1;
    const m = new Float64Array((ca.length + 1) * w);
    for (let x = 1; x <= ca.length; x++) {
      for (let y = 1; y <= cb.length; y++) {
        const diag = m[(x - 1) * w + y - 1]! + score(ca[x - 1]!, cb[y - 1]!);
        m[x * w + y] = Math.max(diag, m[(x - 1) * w + y]!, m[x * w + y - 1]!);
      }
    }
    return { ca, cb, m };
  };
  const score = (i: number, j: number): number => {
    if (a.label[i] !== b.label[j]) return 0;
    const key = i * b.size + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const { ca, cb, m } = table(i, j);
    const s = 1 + m[ca.length * (cb.length + 1) + cb.length]!;
    memo.set(key, s);
    return s;
  };
  const out: Array<[number, number]> = [];
  const trace = (i: number, j: number): void => {
    out.push([i, j]);
    const { ca, cb, m } = table(i, j);
    const w = cb.length + 1;
    const pairs: Array<[number, number]> = [];
    for (let x = ca.length, y = cb.length; x > 0 && y > 0; ) {
      const here = m[x * w + y]!;
      if (here === m[(x - 1) * w + y]) x--;
      else if (here === m[x * w + y - 1]) y--;
      else {
        pairs.push([ca[x - 1]!, cb[y - 1]!]);
        x--;
        y--;
      }
    }
    for (let k = pairs.length - 1; k >= 0; k--) trace(pairs[k]![0], pairs[k]![1]);
  };
  if (a.size > 0 && b.size > 0 && score(0, 0) > 0) trace(0, 0);
  return out.sort((p, q) => p[0] - q[0]);
}

/** A stored instance of a tree-gram matched node by node with a page subtree. */
export interface GramMapping {
  /** Which instance of the tree-gram (the one with the most matched nodes). */
  instance: number;
  /** The page subtree as compared (its `node` array gives each index's page node). */
  found: LabelledTree;
  /** Pairs [index in the instance, index in `found`]. */
  pairs: Array<[number, number]>;
}

/**
 * The instance of `gram` that simple tree matching pairs most nodes of with the subtree of page node
 * `node`, under the label flags (element labels as adaptation uses them), and the pairs. Null when the
 * tree-gram has no instance.
 */
export function gramMapping(gram: TreeGram, tree: Tree, node: number, flags: LabelFlags): GramMapping | null {
  const space = new LabelSpace(flags);
  const found = fromTree(tree, node, space);
  let best: GramMapping | null = null;
  gram.instances.forEach((inst, k) => {
    const pairs = simpleTreeMapping(gramTree(inst, space), found);
    if (!best || pairs.length > best.pairs.length) best = { instance: k, found, pairs };
  });
  return best;
}
