/**
 * Simple tree matching (Selkow 1977; Yang 1991), paper 5, Section 3.2: the size of the largest
 * top-down, order- and label-preserving matching of two trees. Roots with different labels match 0
 * nodes; otherwise 1 + the best alignment (a DP over the two children sequences) of child subtrees,
 * each pair weighed by its own simple tree matching.
 *
 * The paper notes that STM "produces the mapping value" rather than an absolute similarity; to use one
 * threshold across algorithms we report `stmSimilarity` = 2·STM / (|A| + |B|) (the Dice form: 1 for
 * identical trees, 0 for no common root, symmetric).
 */
import { childrenMatching, RowArena } from './arena.ts';
import type { LabelledTree } from './labelled-tree.ts';

const arena = new RowArena();

/** STM(a at i, b at j): the number of matched node pairs. */
export function simpleTreeMatching(a: LabelledTree, b: LabelledTree, i = 0, j = 0): number {
  arena.release(0);
  return stm(a, i, b, j);
}

function stm(a: LabelledTree, i: number, b: LabelledTree, j: number): number {
  if (a.label[i] !== b.label[j]) return 0;
  const m = a.degree[i]!;
  const n = b.degree[j]!;
  if (m === 0 || n === 0) return 1;
  const result = childrenMatching(arena, a, i, b, j, n, (ci, cj) => stm(a, ci, b, cj));
  return 1 + result;
}

/** STM normalised to [0, 1]: 2·STM / (|A| + |B|) over the subtrees of a at i and b at j. */
export function stmSimilarity(a: LabelledTree, b: LabelledTree, i = 0, j = 0): number {
  const sa = a.end[i]! - i;
  const sb = b.end[j]! - j;
  return (2 * simpleTreeMatching(a, b, i, j)) / (sa + sb);
}
