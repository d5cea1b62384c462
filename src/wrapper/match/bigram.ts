/**
 * The tree bigram variant (paper 5, Sections 4 and 6: "variants of the Bigram distance on trees might work
 * well with permutations of groups of nodes"). A string's bigrams are its pairs of adjacent characters; a
 * tree's bigrams here are its parent–child label pairs (every edge), plus the pair (none, root label). The
 * similarity is the Dice coefficient of the two bigram multisets, 2·|A ∩ B| / (|A| + |B|): in [0, 1], 1 on
 * identical trees, symmetric, and blind to the order of siblings (a permuted group keeps all its edges).
 * Cost: a sort of each side's bigram codes, no DP.
 */
import type { LabelledTree } from './labelled-tree.ts';

/** The sorted bigram codes of the subtree of t at i (label pairs packed as parent·2^21 + child). */
export function treeBigrams(t: LabelledTree, i = 0): Float64Array {
  const n = t.end[i]! - i;
  const out = new Float64Array(n);
  out[0] = t.label[i]!; // the root pair (none, root): parent code 0, child codes shifted by one below
  for (let k = i + 1, e = t.end[i]!; k < e; k++) out[k - i] = (t.label[t.parent[k]!]! + 1) * 2097152 + t.label[k]!;
  return out.sort();
}

/** Dice coefficient of two sorted code arrays (multisets): tree bigrams, the word ids of text blocks. */
export function diceSorted(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length + b.length === 0) return 1;
  let x = 0;
  let y = 0;
  let common = 0;
  while (x < a.length && y < b.length) {
    const u = a[x]!;
    const v = b[y]!;
    if (u === v) {
      common++;
      x++;
      y++;
    } else if (u < v) x++;
    else y++;
  }
  return (2 * common) / (a.length + b.length);
}

/** Tree bigram similarity of the subtrees of a at i and b at j. */
export function bigramSimilarity(a: LabelledTree, b: LabelledTree, i = 0, j = 0): number {
  return diceSorted(treeBigrams(a, i), treeBigrams(b, j));
}
