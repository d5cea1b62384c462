/**
 * One file over 400 lines: the reference algorithm and the two linear-space procedures are tested against
 * each other and share their scoring.
 *
 * Needleman–Wunsch global alignment of two token sequences (paper 1, section 2.1), over integer token ids.
 *
 * Scoring, as the paper states it: a column of two equal tokens scores +1 (match), a column of two
 * different tokens scores 0 (mismatch, "we ignore the case in which we skip s1[i] and s2[j] because they
 * are different"), a column where one sequence has a gap scores -1; "only one string can contain a gap in
 * a certain position" (no gap–gap column). The best alignment maximises the total score.
 *
 * Three exact procedures live here:
 *  - `needlemanWunsch`: the textbook algorithm with a full (n+1)(m+1) score matrix and traceback. It is
 *    the reference the fast path is tested against, and refuses inputs above `REFERENCE_MAX_CELLS`.
 *  - `nwScore`: the optimal score in linear space (one row).
 *  - `hirschbergInto`: Hirschberg's linear-space divide and conquer (Hirschberg 1975): the forward score
 *    row of the top half and the backward row of the bottom half meet at the best split column; halves
 *    are aligned recursively, small blocks with the full-matrix DP on a reused scratch buffer.
 * Inner loops read Int32Arrays and write into preallocated Int32Arrays: nothing is allocated per cell.
 *
 * Tie-breaking (several alignments can share the best score, e.g. "1 12 2 3" / "1 2 3 13" scores 1 both
 * as the diagonal and as 1, gap, 2, 3, gap): the traceback prefers a match, then a gap in b, then a gap in
 * a, and a mismatch last, which leans towards alignments with more matches (more evidence for the
 * consensus) without changing the score; Hirschberg takes the leftmost best split. Only equality of token ids
 * is ever tested, so the result does not depend on the numeric values of the ids.
 */
import { ALIGN_DEFAULTS } from './defaults.ts';

export const MATCH = ALIGN_DEFAULTS.match;
export const MISMATCH = ALIGN_DEFAULTS.mismatch;
export const GAP = ALIGN_DEFAULTS.gap;

/** Largest matrix `needlemanWunsch` agrees to build (64 Mi cells, 256 MB): it is a reference, not the fast path. */
export const REFERENCE_MAX_CELLS = 1 << 26;

/**
 * A global alignment as its columns, in order. Column k pairs `a[colA[k]]` with `b[colB[k]]`; -1 on one
 * side is a gap. A column with both sides set is a match when the ids are equal, else a mismatch.
 */
export interface Alignment {
  readonly score: number;
  readonly colA: Int32Array;
  readonly colB: Int32Array;
  readonly length: number;
  /**
   * True when the alignment is proved optimal: always, except when the explicit fallback of align.ts split
   * a range above `maxExactCells` on anchors.
   */
  readonly exact: boolean;
}

/** A growable list of alignment columns (two Int32Arrays, doubled when full). */
export class ColumnBuilder {
  colA: Int32Array;
  colB: Int32Array;
  length = 0;
  constructor(capacity = 256) {
    this.colA = new Int32Array(Math.max(16, capacity));
    this.colB = new Int32Array(Math.max(16, capacity));
  }
  /** Appends a column (i or j is -1 for a gap). */
  push(i: number, j: number): void {
    if (this.length === this.colA.length) {
      const a = new Int32Array(this.length * 2);
      a.set(this.colA);
      this.colA = a;
      const b = new Int32Array(this.length * 2);
      b.set(this.colB);
      this.colB = b;
    }
    this.colA[this.length] = i;
    this.colB[this.length] = j;
    this.length++;
  }
  /** Makes sure `extra` more columns fit without growing. */
  reserve(extra: number): void {
    const need = this.length + extra;
    if (need <= this.colA.length) return;
    let cap = this.colA.length;
    while (cap < need) cap *= 2;
    const a = new Int32Array(cap);
    a.set(this.colA.subarray(0, this.length));
    this.colA = a;
    const b = new Int32Array(cap);
    b.set(this.colB.subarray(0, this.length));
    this.colB = b;
  }
  /** The columns as an Alignment (arrays trimmed to length). */
  finish(score: number, exact = true): Alignment {
    return { score, colA: this.colA.slice(0, this.length), colB: this.colB.slice(0, this.length), length: this.length, exact };
  }
}

/** Score of an alignment recomputed from its columns (a check, and how tests compare alignments). */
export function alignmentScore(a: Int32Array, b: Int32Array, aln: Pick<Alignment, 'colA' | 'colB' | 'length'>): number {
  let s = 0;
  for (let k = 0; k < aln.length; k++) {
    const i = aln.colA[k]!;
    const j = aln.colB[k]!;
    if (i < 0 || j < 0) s += GAP;
    else s += a[i] === b[j] ? MATCH : MISMATCH;
  }
  return s;
}

/**
 * True when `aln` is a valid global alignment of a and b: every index of each sequence appears once, in
 * increasing order, and no column is a gap on both sides.
 */
export function isValidAlignment(a: Int32Array, b: Int32Array, aln: Pick<Alignment, 'colA' | 'colB' | 'length'>): boolean {
  let ni = 0;
  let nj = 0;
  for (let k = 0; k < aln.length; k++) {
    const i = aln.colA[k]!;
    const j = aln.colB[k]!;
    if (i < 0 && j < 0) return false;
    if (i >= 0) {
      if (i !== ni) return false;
      ni++;
    }
    if (j >= 0) {
      if (j !== nj) return false;
      nj++;
    }
  }
  return ni === a.length && nj === b.length;
}

/**
 * The textbook Needleman–Wunsch: full score matrix, traceback from (n, m). O(nm) time and memory; the
 * reference implementation. Throws a RangeError above `REFERENCE_MAX_CELLS` cells.
 */
export function needlemanWunsch(a: Int32Array, b: Int32Array): Alignment {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > REFERENCE_MAX_CELLS) {
    throw new RangeError(`needlemanWunsch: ${n}x${m} is too large for the full-matrix reference; use alignSequences`);
  }
  const out = new ColumnBuilder(n + m);
  const score = fullMatrixInto(a, 0, n, b, 0, m, out, new Int32Array((n + 1) * (m + 1)));
  return out.finish(score);
}

/**
 * Full-matrix DP of a[aLo..aHi) against b[bLo..bHi) with traceback, appending the columns to `out`
 * (global indices). `H` must hold (n+1)(m+1) cells. Returns the score.
 */
function fullMatrixInto(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, H: Int32Array,
): number {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const w = m + 1;
  for (let j = 0; j <= m; j++) H[j] = j * GAP;
  for (let i = 1; i <= n; i++) {
    const row = i * w;
    const prev = row - w;
    H[row] = i * GAP;
    const ai = a[aLo + i - 1]!;
    for (let j = 1; j <= m; j++) {
      let s = H[prev + j - 1]! + (ai === b[bLo + j - 1]! ? MATCH : MISMATCH);
      const up = H[prev + j]! + GAP;
      if (up > s) s = up;
      const left = H[row + j - 1]! + GAP;
      if (left > s) s = left;
      H[row + j] = s;
    }
  }
  const score = H[n * w + m]!;
  // Traceback from (n, m) to (0, 0), columns collected in reverse then flipped in place.
  const start = out.length;
  out.reserve(n + m);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const h = H[i * w + j]!;
    const eq = i > 0 && j > 0 && a[aLo + i - 1] === b[bLo + j - 1];
    if (eq && h === H[(i - 1) * w + j - 1]! + MATCH) {
      out.push(aLo + i - 1, bLo + j - 1);
      i--;
      j--;
    } else if (i > 0 && h === H[(i - 1) * w + j]! + GAP) {
      out.push(aLo + i - 1, -1);
      i--;
    } else if (j > 0 && h === H[i * w + j - 1]! + GAP) {
      out.push(-1, bLo + j - 1);
      j--;
    } else {
      out.push(aLo + i - 1, bLo + j - 1);
      i--;
      j--;
    }
  }
  reverseColumns(out, start);
  return score;
}

/** Reverses the columns appended since `start` (tracebacks collect them from the end). */
export function reverseColumns(out: ColumnBuilder, start: number): void {
  const A = out.colA;
  const B = out.colB;
  for (let x = start, y = out.length - 1; x < y; x++, y--) {
    const ta = A[x]!;
    A[x] = A[y]!;
    A[y] = ta;
    const tb = B[x]!;
    B[x] = B[y]!;
    B[y] = tb;
  }
}

/**
 * Full DP of a[aLo..aHi) against b[bLo..bHi) in one pass: one score row plus one byte of traceback flags
 * per cell in `dir` (which must hold n*m bytes), instead of Hirschberg's repeated passes. Used for blocks
 * up to `directCells` (a bounded buffer, never a matrix of the whole input). Flags: 1 diagonal, 2 up (gap
 * in b), 4 left (gap in a); the traceback applies the same preferences as `fullMatrixInto`.
 */
function directInto(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, row: Int32Array, dir: Uint8Array,
): number {
  const n = aHi - aLo;
  const m = bHi - bLo;
  for (let j = 0; j <= m; j++) row[j] = j * GAP;
  for (let i = 1; i <= n; i++) {
    const ai = a[aLo + i - 1]!;
    let diag = row[0]!;
    let left = diag + GAP;
    row[0] = left;
    const base = (i - 1) * m - 1;
    for (let j = 1; j <= m; j++) {
      const up = row[j]!;
      const d = diag + (ai === b[bLo + j - 1]! ? MATCH : MISMATCH);
      const u = up + GAP;
      const l = left + GAP;
      let s = d;
      if (u > s) s = u;
      if (l > s) s = l;
      dir[base + j] = (d === s ? 1 : 0) | (u === s ? 2 : 0) | (l === s ? 4 : 0);
      row[j] = s;
      left = s;
      diag = up;
    }
  }
  const score = row[m]!;
  const start = out.length;
  out.reserve(n + m);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const f = dir[(i - 1) * m + j - 1]!;
    if ((f & 1) !== 0 && a[aLo + i - 1] === b[bLo + j - 1]) {
      out.push(aLo + i - 1, bLo + j - 1);
      i--;
      j--;
    } else if ((f & 2) !== 0) {
      out.push(aLo + i - 1, -1);
      i--;
    } else if ((f & 4) !== 0) {
      out.push(-1, bLo + j - 1);
      j--;
    } else {
      out.push(aLo + i - 1, bLo + j - 1);
      i--;
      j--;
    }
  }
  while (i > 0) out.push(aLo + --i, -1);
  while (j > 0) out.push(-1, bLo + --j);
  reverseColumns(out, start);
  return score;
}

/**
 * Forward score row: after the call, `row[j]` (j = 0..bHi-bLo) is the best score of aligning a[aLo..aHi)
 * with b[bLo..bLo+j). Linear space; `row` must hold bHi-bLo+1 cells.
 */
export function forwardRow(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, row: Int32Array): void {
  const m = bHi - bLo;
  for (let j = 0; j <= m; j++) row[j] = j * GAP;
  for (let i = aLo; i < aHi; i++) {
    const ai = a[i]!;
    let diag = row[0]!;
    let left = diag + GAP;
    row[0] = left;
    for (let j = 1; j <= m; j++) {
      const up = row[j]!;
      let s = diag + (ai === b[bLo + j - 1]! ? MATCH : MISMATCH);
      const u = up + GAP;
      if (u > s) s = u;
      const l = left + GAP;
      if (l > s) s = l;
      row[j] = s;
      left = s;
      diag = up;
    }
  }
}

/**
 * Backward score row: after the call, `row[j]` (j = 0..bHi-bLo) is the best score of aligning
 * a[aLo..aHi) with b[bLo+j..bHi). Linear space; `row` must hold bHi-bLo+1 cells.
 */
export function backwardRow(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, row: Int32Array): void {
  const m = bHi - bLo;
  for (let j = m; j >= 0; j--) row[j] = (m - j) * GAP;
  for (let i = aHi - 1; i >= aLo; i--) {
    const ai = a[i]!;
    let diag = row[m]!;
    let right = diag + GAP;
    row[m] = right;
    for (let j = m - 1; j >= 0; j--) {
      const down = row[j]!;
      let s = diag + (ai === b[bLo + j]! ? MATCH : MISMATCH);
      const d = down + GAP;
      if (d > s) s = d;
      const r = right + GAP;
      if (r > s) s = r;
      row[j] = s;
      right = s;
      diag = down;
    }
  }
}

/** The optimal global alignment score of a and b, in linear space (one row of m+1 cells). */
export function nwScore(a: Int32Array, b: Int32Array): number {
  const row = new Int32Array(b.length + 1);
  forwardRow(a, 0, a.length, b, 0, b.length, row);
  return row[b.length]!;
}

/**
 * Blocks of at most this many cells are aligned in one pass with a byte of traceback per cell (4 MiB,
 * allocated once); larger ones are split by Hirschberg's recursion until they fit.
 */
export const DIRECT_CELLS = 1 << 22;

/** Scratch buffers reused by `hirschbergInto` (grown when a larger problem comes). */
interface Scratch {
  fwd: Int32Array;
  bwd: Int32Array;
  base: Int32Array;
  dir: Uint8Array | null;
}
let scratch: Scratch | null = null;
function getScratch(m: number, baseCells: number): Scratch {
  if (!scratch || scratch.fwd.length < m + 1 || scratch.base.length < baseCells) {
    const cap = Math.max(m + 1, scratch?.fwd.length ?? 0, 1024);
    scratch = {
      fwd: new Int32Array(cap),
      bwd: new Int32Array(cap),
      base: new Int32Array(Math.max(baseCells, scratch?.base.length ?? 0)),
      dir: scratch?.dir ?? null,
    };
  }
  return scratch;
}

/**
 * Hirschberg's linear-space alignment of a[aLo..aHi) against b[bLo..bHi), appending the columns to
 * `out` (global indices). Exact: returns the optimal score. Time O(nm) (about twice the cells of one DP
 * pass), memory O(m) plus a `baseCells` scratch matrix for the leaves of the recursion; blocks of at
 * most `directCells` cells (<= DIRECT_CELLS) are finished in one pass with a byte of traceback per cell.
 */
export function hirschbergInto(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder,
  baseCells: number = ALIGN_DEFAULTS.baseCells,
  directCells: number = DIRECT_CELLS,
): number {
  const base = Math.max(baseCells, 64);
  const sc = getScratch(bHi - bLo, base);
  return hirschberg(a, aLo, aHi, b, bLo, bHi, out, sc, base, Math.min(directCells, DIRECT_CELLS));
}

function hirschberg(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, sc: Scratch, base: number, direct: number,
): number {
  const n = aHi - aLo;
  const m = bHi - bLo;
  if (n === 0) {
    for (let j = bLo; j < bHi; j++) out.push(-1, j);
    return m * GAP;
  }
  if (m === 0) {
    for (let i = aLo; i < aHi; i++) out.push(i, -1);
    return n * GAP;
  }
  if (n * m <= direct && n * m > base) {
    if (!sc.dir) sc.dir = new Uint8Array(DIRECT_CELLS);
    return directInto(a, aLo, aHi, b, bLo, bHi, out, sc.fwd, sc.dir);
  }
  if ((n + 1) * (m + 1) <= base || n === 1) {
    if ((n + 1) * (m + 1) <= sc.base.length) return fullMatrixInto(a, aLo, aHi, b, bLo, bHi, out, sc.base);
    return fullMatrixInto(a, aLo, aHi, b, bLo, bHi, out, new Int32Array((n + 1) * (m + 1)));
  }
  const mid = aLo + (n >> 1);
  const fwd = sc.fwd;
  const bwd = sc.bwd;
  forwardRow(a, aLo, mid, b, bLo, bHi, fwd);
  backwardRow(a, mid, aHi, b, bLo, bHi, bwd);
  let best = -Infinity;
  let split = 0;
  for (let j = 0; j <= m; j++) {
    const s = fwd[j]! + bwd[j]!;
    if (s > best) {
      best = s;
      split = j;
    }
  }
  // The rows are overwritten by the recursive calls: only `split` and `best` are kept.
  hirschberg(a, aLo, mid, b, bLo, bLo + split, out, sc, base, direct);
  hirschberg(a, mid, aHi, b, bLo + split, bHi, out, sc, base, direct);
  return best;
}

/**
 * Per-token-id scratch arrays (ids are dense label ids), grown together to hold index `maxId`: returns
 * the same arrays when they are large enough, else new zeroed ones of a doubled size (contents dropped).
 */
export function growIdArrays(arrays: readonly Int32Array[], maxId: number): Int32Array[] {
  const len = arrays[0]!.length;
  if (maxId < len) return arrays as Int32Array[];
  let cap = len;
  while (cap <= maxId) cap *= 2;
  return arrays.map(() => new Int32Array(cap));
}
