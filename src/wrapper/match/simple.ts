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
import { RowArena } from './arena.ts';
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
  const w = n + 1;
  const base = arena.take(2 * w);
  let prev = base;
  let cur = base + w;
  arena.buf.fill(0, base, base + 2 * w);
  for (let ci = i + 1, ei = a.end[i]!; ci < ei; ci = a.end[ci]!) {
    arena.buf[cur] = 0;
    let col = 1;
    for (let cj = j + 1, ej = b.end[j]!; cj < ej; cj = b.end[cj]!, col++) {
      const diag = arena.buf[prev + col - 1]! + (a.label[ci] === b.label[cj] ? stm(a, ci, b, cj) : 0);
      const buf = arena.buf; // may have grown during the recursive call
      const up = buf[prev + col]!;
      const left = buf[cur + col - 1]!;
      buf[cur + col] = diag > up ? (diag > left ? diag : left) : up > left ? up : left;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  const result = arena.buf[prev + n]!;
  arena.release(base);
  return 1 + result;
}

/** STM normalised to [0, 1]: 2·STM / (|A| + |B|) over the subtrees of a at i and b at j. */
export function stmSimilarity(a: LabelledTree, b: LabelledTree, i = 0, j = 0): number {
  const sa = a.end[i]! - i;
  const sb = b.end[j]! - j;
  return (2 * simpleTreeMatching(a, b, i, j)) / (sa + sb);
}
