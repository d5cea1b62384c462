/**
 * Bit-parallel Needleman–Wunsch for paper 1's scoring (section 2.1: match +1, mismatch 0, gap −1): the
 * exact optimal alignment, 32 DP cells per word operation, in the spirit of BitPAl (Loving, Hernández &
 * Benson 2014, "BitPAl: a bit-parallel, general integer-scoring sequence alignment algorithm") and of
 * Myers' and Hyyrö's bit-vector edit distance. The derivation below is written for these scores.
 *
 * Shifted scores. With S the NW score matrix (S(i,0) = −i, S(0,j) = −j), let S'(i,j) = S(i,j) + i + j.
 * Then S'(i,0) = S'(0,j) = 0 and
 *     S'(i,j) = max(S'(i−1,j−1) + w, S'(i−1,j), S'(i,j−1)),   w = 3 on a match, 2 on a mismatch,
 * so S' is non-decreasing along rows and columns, and its differences lie in 0..3:
 *     vertical  v(i,j) = S'(i,j) − S'(i−1,j),   horizontal  h(i,j) = S'(i,j) − S'(i,j−1).
 *
 * One column. The DP runs over the columns j (tokens of b), the rows i (tokens of a) being the bits of a
 * few 32-bit words. Given the previous column's vertical differences v_i = v(i, j−1) and x = S'(i−1,j−1):
 *     h_i = max(w_i, h_{i−1}, v_i) − v_i      (S'(i,j−1) = x + v_i, S'(i−1,j) = x + h_{i−1}),
 *     v'_i = h_i + v_i − h_{i−1}              (the new column's vertical difference), h_0 = 0.
 * With base_i = max(w_i − v_i, 0), h_i ≥ t holds exactly when base_i ≥ t or h_{i−1} ≥ t + v_i. Writing
 * G_t for the set of rows where h ≥ t (t = 1, 2, 3) and Z, O1, O2 for the rows where v = 0, 1, 2:
 *  - G3: base = 3 only on a match with v = 0, and h_{i−1} ≥ 3 passes only where v = 0, so G3 is the set of
 *    matches in Z extended downwards through the runs of Z: one addition with carry, as in Myers' algorithm:
 *    G3 = (((Z + B3) ^ Z) | B3) & Z with B3 = E & Z (E: rows equal to the column's token).
 *  - G2: every row of Z has base ≥ 2 (w ≥ 2), a row of O1 reaches 2 on a match (base 2) or when
 *    h_{i−1} = 3: G2 = Z | (O1 & (E | G3↓)), where X↓ is X shifted one row down (h_{i−1}).
 *  - G1: Z and O1 always (base ≥ 1), O2 on a match or when h_{i−1} = 3: G1 = Z | O1 | (O2 & (E | G3↓)).
 *  - v = 3 gives base 0 and needs h_{i−1} ≥ 4: h = 0 there.
 * h = [G1] + [G2] + [G3] (nested sets), so its two bits are h1 = G2, h0 = G1 ^ G2 ^ G3, and v' = h + v − h↓
 * (in 0..3) is computed bitwise modulo 4. About 35 word operations per 32 cells, no branch.
 * The score: S'(n, j) = S'(n, j−1) + h_n, and S(n, m) = S'(n, m) − n − m.
 *
 * The alignment. Blocks of at most `storeWords` words keep, per column and per word, v' (two words) and
 * S' at the word's last row, 3 bits per cell: any S'(i, j) is then that score minus the v' below i in the
 * word (two popcounts), and the traceback follows from (n, m) with needleman-wunsch.ts's preferences (a
 * match, a gap in b, a gap in a, a mismatch). Larger blocks are split by Hirschberg's rule (Hirschberg
 * 1975) on the middle column, the forward and backward score columns computed by this same bit-parallel
 * pass, so memory stays bounded and the result optimal.
 */
import { ALIGN_DEFAULTS } from './defaults.ts';
import { type ColumnBuilder, growIdArrays, reverseColumns } from './needleman-wunsch.ts';

/** Per-id scratch: stamps and mask indices (ids are dense label ids). */
let stampOf: Int32Array = new Int32Array(1024);
let maskOf: Int32Array = new Int32Array(1024);
let stampIn: Int32Array = new Int32Array(1024);
let stampNo = 0;

function ensureIds(maxId: number): void {
  const grown = growIdArrays([stampOf, maskOf, stampIn], maxId) as [Int32Array, Int32Array, Int32Array];
  if (grown[0] === stampOf) return;
  [stampOf, maskOf, stampIn] = grown;
  stampNo = 0;
}

function nextStamp(): number {
  if (++stampNo >= 0x7fffffff) {
    stampOf.fill(0);
    stampIn.fill(0);
    stampNo = 1;
  }
  return stampNo;
}

/** Match masks of the rows (a) for each column (b): `masks[sym[j] * W + w]`; a column whose token is not in a uses the zero mask. */
interface Peq {
  W: number;
  masks: Uint32Array;
  sym: Int32Array;
}

/** Builds the match masks of a (rows, in the order given) against the columns of b. */
function buildPeq(a: Int32Array, b: Int32Array): Peq {
  const n = a.length;
  const m = b.length;
  const W = Math.max(1, (n + 31) >>> 5);
  let maxId = 0;
  for (let i = 0; i < n; i++) if (a[i]! > maxId) maxId = a[i]!;
  for (let j = 0; j < m; j++) if (b[j]! > maxId) maxId = b[j]!;
  ensureIds(maxId);
  const s = nextStamp();
  for (let j = 0; j < m; j++) stampIn[b[j]!] = s;
  let nSym = 0;
  for (let i = 0; i < n; i++) {
    const t = a[i]!;
    if (stampIn[t] === s && stampOf[t] !== s) {
      stampOf[t] = s;
      maskOf[t] = nSym++;
    }
  }
  const masks = new Uint32Array((nSym + 1) * W); // the last mask is all zero
  for (let i = 0; i < n; i++) {
    const t = a[i]!;
    if (stampOf[t] === s) masks[maskOf[t]! * W + (i >>> 5)]! |= 1 << (i & 31);
  }
  const sym = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    const t = b[j]!;
    sym[j] = stampOf[t] === s ? maskOf[t]! : nSym;
  }
  return { W, masks, sym };
}

/**
 * Runs the columns of b over the rows of a (Peq built from them), starting from column 0 (v = 0
 * everywhere), and returns S'(n, m). Column j (0..m) is kept at slot j of `store` (3W words: its v' words,
 * V0 then V1, and S' at each word's last row; column 0 all zero), or, with `ring`, at slot j mod 2 (two
 * slots: only the last column survives, at slot m mod 2). Each step reads the previous column's slot.
 */
function runColumns(peq: Peq, n: number, store: Uint32Array, ring: boolean): number {
  const { W, masks, sym } = peq;
  const m = sym.length;
  const W3 = 3 * W;
  store.fill(0, 0, W3);
  const lastBit = (n - 1) & 31;
  let bottom = 0;
  for (let j = 0; j < m; j++) {
    const off = sym[j]! * W;
    const prev = (ring ? j & 1 : j) * W3;
    const cur = (ring ? (j + 1) & 1 : j + 1) * W3;
    // Carry of the G3 addition, top bits of G1..G3 of the previous word (h of its last row), last G words.
    let k3 = 0, c1 = 0, c2 = 0, c3 = 0;
    let g1 = 0, g2 = 0, g3 = 0;
    for (let w = 0; w < W; w++) {
      const E = masks[off + w]!;
      const v0 = store[prev + w]!;
      const v1 = store[prev + W + w]!;
      const Z = ~(v0 | v1);
      const O1 = v0 & ~v1;
      const O2 = v1 & ~v0;
      const B3 = E & Z;
      const sum = (Z >>> 0) + (B3 >>> 0) + k3;
      k3 = sum > 0xffffffff ? 1 : 0;
      g3 = ((sum ^ Z) | B3) & Z;
      const G3s = (g3 << 1) | c3;
      const EG = E | G3s;
      g2 = Z | (O1 & EG);
      const G2s = (g2 << 1) | c2;
      g1 = Z | O1 | (O2 & EG);
      const G1s = (g1 << 1) | c1;
      c3 = g3 >>> 31;
      c2 = g2 >>> 31;
      c1 = g1 >>> 31;
      // h = (h1, h0), h↓ = (p1, p0); v' = h + v − h↓ (mod 4).
      const h0 = g1 ^ g2 ^ g3;
      const p0 = G1s ^ G2s ^ G3s;
      const s0 = h0 ^ v0;
      store[cur + w] = s0 ^ p0;
      store[cur + W + w] = g2 ^ v1 ^ (h0 & v0) ^ G2s ^ (~s0 & p0);
      store[cur + 2 * W + w] = store[prev + 2 * W + w]! + c1 + c2 + c3;
    }
    bottom += ((g1 >>> lastBit) & 1) + ((g2 >>> lastBit) & 1) + ((g3 >>> lastBit) & 1);
  }
  return bottom;
}

/**
 * The same store for mismatch = -2, where a mismatch costs two gaps and S'(i, j) = S(i, j) + i + j is
 * 3 x the longest common subsequence L(i, j) of the prefixes (an optimal alignment has no mismatch). The
 * columns run the bit-vector LCS of Allison & Dix (1986) in Crochemore et al.'s form (2001): with V the
 * rows where L does *not* grow (all ones in column 0) and E the rows equal to the column's token,
 *     V' = (V + (V & E)) | (V & ~E)
 * (one addition with carry across the words); L(n, j) is the number of zero bits of V'. The vertical
 * difference of S' is 3 on the rows where L grows, 0 elsewhere, so it is stored as both v' words set
 * there (v = 1 + 2), with S' at each word's last row: `prefixColumn` and the traceback read it unchanged.
 * About 8 word operations per 32 cells.
 */
function runColumnsLcs(peq: Peq, n: number, store: Uint32Array, ring: boolean): number {
  const { W, masks, sym } = peq;
  const m = sym.length;
  const W3 = 3 * W;
  const lastBits = n & 31;
  const lastMask = lastBits === 0 ? 0xffffffff : (1 << lastBits) - 1;
  // The not-growing rows of the column being computed (all rows in column 0).
  let V = lcsV;
  if (V.length < W) V = lcsV = new Int32Array(Math.max(W, V.length * 2));
  V.fill(-1, 0, W);
  store.fill(0, 0, W3);
  let bottom = 0;
  for (let j = 0; j < m; j++) {
    const off = sym[j]! * W;
    const cur = (ring ? (j + 1) & 1 : j + 1) * W3;
    let carry = 0;
    let acc = 0;
    for (let w = 0; w < W; w++) {
      const E = masks[off + w]!;
      const v = V[w]! >>> 0;
      const u = (v & E) >>> 0;
      const sum = v + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const nv = ((sum >>> 0) | (v & ~E)) >>> 0;
      V[w] = nv | 0;
      const grow = (~nv & (w === W - 1 ? lastMask : 0xffffffff)) >>> 0;
      store[cur + w] = grow;
      store[cur + W + w] = grow;
      acc += 3 * popcount(grow);
      store[cur + 2 * W + w] = acc;
    }
    bottom = acc;
  }
  return bottom;
}
let lcsV = new Int32Array(64);

/** S'(i, ·) for i = 0..n from a column's v' words at `at` in `st` (V0 then V1, W words each): prefix sums. */
function prefixColumn(st: Uint32Array, at: number, W: number, n: number, out: Int32Array): void {
  out[0] = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const w = i >>> 5;
    const b = i & 31;
    s += ((st[at + w]! >>> b) & 1) + 2 * ((st[at + W + w]! >>> b) & 1);
    out[i + 1] = s;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Scratch reused across calls: the two-column ring of score-only runs, the traceback store. */
let ring = new Uint32Array(6 * 64);
let storeBuf: Uint32Array | null = null;

function ringFor(W: number): Uint32Array {
  if (ring.length < 6 * W) ring = new Uint32Array(6 * W);
  return ring;
}

/** Statistics of bit-parallel calls (word operations done, for benchmarks). */
export interface BitStats {
  /** 32-cell words computed (each column × W). */
  words: number;
  /** Hirschberg splits made because a block exceeded the store. */
  splits: number;
}

/**
 * The optimal NW score of a[aLo..aHi) against b[bLo..bHi), bit-parallel, in O(n/32) memory.
 */
export function bitScore(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, lcs = false): number {
  const n = aHi - aLo;
  const m = bHi - bLo;
  if (n === 0 || m === 0) return -(n + m);
  const peq = buildPeq(a.subarray(aLo, aHi), b.subarray(bLo, bHi));
  return (lcs ? runColumnsLcs : runColumns)(peq, n, ringFor(peq.W), true) - n - m;
}

/**
 * Optimal global alignment of a[aLo..aHi) and b[bLo..bHi) (paper 1's scoring), bit-parallel, appended to
 * `out` as columns (global indices). Returns the optimal score. Memory: at most `storeWords` words of
 * traceback (Hirschberg splits above), plus the match masks.
 */
export function bitAlignInto(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, storeWords: number = ALIGN_DEFAULTS.storeWords, stats?: BitStats, lcs = false,
): number {
  // The bits run over the shorter sequence (fewer words per column, fewer partial words); the columns
  // are emitted in the caller's order and the tie preferences kept in its terms.
  const run = lcs ? runColumnsLcs : runColumns;
  if (aHi - aLo <= bHi - bLo) return alignBlock(a, aLo, aHi, b, bLo, bHi, out, Math.max(3, storeWords), false, run, stats);
  return alignBlock(b, bLo, bHi, a, aLo, aHi, out, Math.max(3, storeWords), true, run, stats);
}

/** A column runner: `runColumns` (paper 1's scoring) or `runColumnsLcs` (mismatch -2). */
type Runner = (peq: Peq, n: number, store: Uint32Array, ring: boolean) => number;

/** Appends a column in the caller's order: (row, column) or, when the roles were swapped, (column, row). */
function emit(out: ColumnBuilder, swapped: boolean, i: number, j: number): void {
  if (swapped) out.push(j, i);
  else out.push(i, j);
}

function alignBlock(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, storeWords: number, swapped: boolean, run: Runner, stats?: BitStats,
): number {
  const n = aHi - aLo;
  const m = bHi - bLo;
  if (n === 0) {
    for (let j = bLo; j < bHi; j++) emit(out, swapped, -1, j);
    return -m;
  }
  if (m === 0) {
    for (let i = aLo; i < aHi; i++) emit(out, swapped, i, -1);
    return -n;
  }
  const W = (n + 31) >>> 5;
  if (3 * W * (m + 1) <= storeWords || m === 1) {
    const peq = buildPeq(a.subarray(aLo, aHi), b.subarray(bLo, bHi));
    const need = 3 * W * (m + 1);
    if (!storeBuf || storeBuf.length < need) storeBuf = new Uint32Array(Math.max(need, Math.min(storeWords, (storeBuf?.length ?? 0) * 2)));
    const total = run(peq, n, storeBuf, false);
    if (stats) stats.words += W * m;
    traceback(a, aLo, b, bLo, n, m, W, storeBuf, out, swapped);
    return total - n - m;
  }
  // Hirschberg: split b at its middle column; the forward column of a × b[bLo..mid) and the backward
  // column of a × b[mid..bHi) (both reversed) meet at the best row.
  if (stats) stats.splits++;
  const mid = bLo + (m >> 1);
  const fwd = new Int32Array(n + 1);
  const bwd = new Int32Array(n + 1);
  {
    const peq = buildPeq(a.subarray(aLo, aHi), b.subarray(bLo, mid));
    const r = ringFor(W);
    run(peq, n, r, true);
    prefixColumn(r, ((mid - bLo) & 1) * 3 * W, W, n, fwd);
    if (stats) stats.words += W * (mid - bLo);
  }
  {
    const ar = a.slice(aLo, aHi).reverse();
    const br = b.slice(mid, bHi).reverse();
    const peq = buildPeq(ar, br);
    const r = ringFor(W);
    run(peq, n, r, true);
    prefixColumn(r, ((bHi - mid) & 1) * 3 * W, W, n, bwd);
    if (stats) stats.words += W * (bHi - mid);
  }
  // S(i, mid) = fwd[i] − i − (mid − bLo); suffix score from row i = bwd[n − i] − (n − i) − (bHi − mid).
  let best = -Infinity;
  let split = 0;
  for (let i = 0; i <= n; i++) {
    const s = fwd[i]! - i + bwd[n - i]! - (n - i);
    if (s > best) {
      best = s;
      split = i;
    }
  }
  const left = alignBlock(a, aLo, aLo + split, b, bLo, mid, out, storeWords, swapped, run, stats);
  const right = alignBlock(a, aLo + split, aHi, b, mid, bHi, out, storeWords, swapped, run, stats);
  return left + right;
}

/**
 * Traceback over the stored columns of a block, from (n, m) to (0, 0). Preferences in the caller's terms:
 * a match, a gap in the caller's b (a row alone, or a column alone when swapped), the other gap, a mismatch.
 */
function traceback(a: Int32Array, aLo: number, b: Int32Array, bLo: number, n: number, m: number, W: number, st: Uint32Array, out: ColumnBuilder, swapped: boolean): void {
  // S'(i, j) from the store (0 on row 0 and column 0).
  const sp = (i: number, j: number): number => {
    if (i === 0 || j === 0) return 0;
    const w = (i - 1) >>> 5;
    const bit = (i - 1) & 31;
    const so = j * 3 * W;
    const mask = bit === 31 ? 0 : ~0 << (bit + 1);
    return st[so + 2 * W + w]! - popcount(st[so + w]! & mask) - 2 * popcount(st[so + W + w]! & mask);
  };
  const start = out.length;
  out.reserve(n + m);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const s = sp(i, j);
    const eq = a[aLo + i - 1] === b[bLo + j - 1];
    if (eq && sp(i - 1, j - 1) + 3 === s) {
      emit(out, swapped, aLo + i - 1, bLo + j - 1);
      i--;
      j--;
      continue;
    }
    const up = sp(i - 1, j) === s;
    const left = sp(i, j - 1) === s;
    if (up && (!swapped || !left)) {
      emit(out, swapped, aLo + i - 1, -1);
      i--;
    } else if (left) {
      emit(out, swapped, -1, bLo + j - 1);
      j--;
    } else {
      emit(out, swapped, aLo + i - 1, bLo + j - 1);
      i--;
      j--;
    }
  }
  while (i > 0) emit(out, swapped, aLo + --i, -1);
  while (j > 0) emit(out, swapped, -1, bLo + --j);
  reverseColumns(out, start);
}
