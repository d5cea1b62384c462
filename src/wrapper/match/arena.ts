import type { LabelledTree } from './labelled-tree.ts';

/**
 * A growable Float64Array used as a stack of DP rows by the recursive tree matchings (simple.ts,
 * clustered.ts): a call takes two rows of n+1 cells above the current top and gives them back on return,
 * so the DP allocates nothing per cell and, after warm-up, nothing per call.
 */
export class RowArena {
  buf = new Float64Array(1 << 12);
  top = 0;
  /** Reserves `cells` cells; returns their offset. The buffer may be replaced: re-read `buf` after. */
  take(cells: number): number {
    const at = this.top;
    if (at + cells > this.buf.length) {
      let len = this.buf.length * 2;
      while (at + cells > len) len *= 2;
      const b = new Float64Array(len);
      b.set(this.buf.subarray(0, at));
      this.buf = b;
    }
    this.top = at + cells;
    return at;
  }
  release(at: number): void {
    this.top = at;
  }
}

/**
 * The matrix M of Algorithm 1 over the children of a at i (m of them) and of b at j (n): M[p][q] is the
 * best of M[p-1][q], M[p][q-1] and M[p-1][q-1] + `pair(child p, child q)` (0 when their labels differ),
 * computed in two rows of `arena`. Returns M[m][n]. `pair` may recurse (it takes its rows above these).
 */
export function childrenMatching(arena: RowArena, a: LabelledTree, i: number, b: LabelledTree, j: number, n: number, pair: (ci: number, cj: number) => number): number {
  const w = n + 1;
  const base = arena.take(2 * w);
  let prev = base;
  let cur = base + w;
  arena.buf.fill(0, base, base + 2 * w);
  for (let ci = i + 1, ei = a.end[i]!; ci < ei; ci = a.end[ci]!) {
    arena.buf[cur] = 0;
    let col = 1;
    for (let cj = j + 1, ej = b.end[j]!; cj < ej; cj = b.end[cj]!, col++) {
      const diag = arena.buf[prev + col - 1]! + (a.label[ci] === b.label[cj] ? pair(ci, cj) : 0);
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
  return result;
}
