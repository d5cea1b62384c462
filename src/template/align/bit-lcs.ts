/**
 * Bit-parallel longest common subsequence with its path (Allison & Dix 1986; Hyyrö 2004, "Bit-parallel
 * LCS-length computation revisited"), used by the fast path of the alignment (align.ts) to find anchors in
 * long ranges that hold no token unique to both sides (the content regions of two different pages).
 *
 * Row i of the LCS table L (a[0..i) against b[0..j), j = 0..m) is held as m bits: bit j is 0 when
 * L[i][j+1] = L[i][j] + 1 and 1 when L[i][j+1] = L[i][j] (the complemented row differences). With PM(x)
 * the mask of the positions of b holding x, one row follows from the previous one by
 *     U = V & PM(a[i]);   V' = (V + U) | (V & ~PM(a[i]))
 * (an addition with carry over 32-bit words), so a row costs about m/32 word operations instead of m
 * cells: the LCS length is the number of zero bits of the last row. Every row is kept (n · ceil(m/32)
 * words, a 32nd of a byte matrix) so that the path can be traced back; `LCS_MAX_WORDS` caps that store.
 *
 * Traceback from (n, m): equal tokens are matched (always on some LCS path: L[i][j] = L[i-1][j-1] + 1
 * when a[i-1] = b[j-1]); otherwise a step left is allowed when bit j-1 of row i is 1, a step up when
 * L[i-1][j] = L[i][j] (counted from row i-1's bits). When both are allowed the step that keeps (i, j)
 * closer to the straight line from (0, 0) to (n, m) is taken, so the path does not hug one border: the
 * alignment score (matches minus the changes of diagonal) prefers paths near the diagonal.
 */

/** Largest row store (32-bit words: n · ceil(m/32)) `lcsPath` agrees to build (16 MiB). */
export const LCS_MAX_WORDS = 1 << 22;

/** Local symbol numbers (token id → 1 + index of its mask), reset after each call. */
let symOf = new Int32Array(1024);

/**
 * The matched pairs of one longest common subsequence of a[aLo..aHi) and b[bLo..bHi), in increasing order
 * (global indices), as two arrays of `length` entries; null when the row store would exceed
 * `LCS_MAX_WORDS`. Token ids must be non-negative.
 */
export function lcsPath(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
): { ai: Int32Array; bj: Int32Array; length: number } | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  if (n === 0 || m === 0) return { ai: new Int32Array(0), bj: new Int32Array(0), length: 0 };
  const W = (m + 31) >>> 5;
  if (n * W > LCS_MAX_WORDS) return null;
  let maxId = 0;
  for (let i = aLo; i < aHi; i++) if (a[i]! > maxId) maxId = a[i]!;
  for (let j = bLo; j < bHi; j++) if (b[j]! > maxId) maxId = b[j]!;
  if (symOf.length <= maxId) {
    let cap = symOf.length;
    while (cap <= maxId) cap *= 2;
    symOf = new Int32Array(cap);
  }
  // Symbols present on both sides get a mask; the others never match.
  for (let i = aLo; i < aHi; i++) symOf[a[i]!] = -1;
  let nSym = 0;
  for (let j = bLo; j < bHi; j++) {
    const t = b[j]!;
    if (symOf[t] === -1) symOf[t] = ++nSym;
  }
  const pm = new Uint32Array(Math.max(1, nSym) * W);
  for (let j = bLo; j < bHi; j++) {
    const s = symOf[b[j]!]!;
    if (s > 0) {
      const k = j - bLo;
      pm[(s - 1) * W + (k >>> 5)]! |= 1 << (k & 31);
    }
  }
  // Forward pass: rows[i*W ..] is row i+1 (row 0, all ones, is implicit).
  const rows = new Uint32Array(n * W);
  const V = new Uint32Array(W).fill(0xffffffff);
  for (let i = 0; i < n; i++) {
    const s = symOf[a[aLo + i]!]!;
    if (s > 0) {
      const p0 = (s - 1) * W;
      let carry = 0;
      for (let w = 0; w < W; w++) {
        const v = V[w]!;
        const p = pm[p0 + w]!;
        const u = (v & p) >>> 0;
        const sum = v + u + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        V[w] = sum | (v & ~p);
      }
    }
    rows.set(V, i * W);
  }
  for (let i = aLo; i < aHi; i++) symOf[a[i]!] = 0;
  for (let j = bLo; j < bHi; j++) symOf[b[j]!] = 0;

  // Traceback.
  const cap = Math.min(n, m);
  const ai = new Int32Array(cap);
  const bj = new Int32Array(cap);
  let len = 0;
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    if (a[aLo + i - 1] === b[bLo + j - 1]) {
      ai[len] = aLo + i - 1;
      bj[len] = bLo + j - 1;
      len++;
      i--;
      j--;
      continue;
    }
    const leftOk = ((rows[(i - 1) * W + ((j - 1) >>> 5)]! >>> ((j - 1) & 31)) & 1) === 1;
    if (!leftOk) {
      i--;
      continue;
    }
    // Left is allowed; go up instead when j lags behind the line from (0,0) to (n,m) and up is allowed too.
    if (j * n < i * m && zerosBefore(rows, i - 2, W, j) === zerosBefore(rows, i - 1, W, j)) {
      i--;
    } else {
      j--;
    }
  }
  ai.subarray(0, len).reverse();
  bj.subarray(0, len).reverse();
  return { ai, bj, length: len };
}

/** L[r+1][j]: the zero bits among the first j bits of stored row r (row -1 is the all-ones row 0). */
function zerosBefore(rows: Uint32Array, r: number, W: number, j: number): number {
  if (r < 0) return 0;
  const base = r * W;
  const full = j >>> 5;
  let ones = 0;
  for (let w = 0; w < full; w++) ones += popcount(rows[base + w]!);
  const rest = j & 31;
  if (rest > 0) ones += popcount(rows[base + full]! & ((1 << rest) - 1));
  return j - ones;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
