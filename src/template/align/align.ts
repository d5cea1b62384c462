/**
 * The fast path of the Needleman–Wunsch alignment (paper 1, section 2.1) for long token sequences: the
 * same scoring as needleman-wunsch.ts and an optimal alignment (the same score as the textbook DP), never
 * a full n·m matrix.
 *
 * Steps, for a[0..n) × b[0..m):
 *  1. Trim the common prefix and the common suffix, matching them (exact, see the lemma below).
 *  2. What is left, when it has at most `scalarCells` DP cells, is aligned by the scalar DP
 *     (needleman-wunsch.ts: one pass with a byte of traceback per cell, Hirschberg above a bounded block).
 *  3. Larger ranges are aligned by the bit-parallel DP (bit-parallel-nw.ts): 32 cells per word operation,
 *     a traceback store of 3 bits per cell up to `storeWords` words, Hirschberg's split above it. It
 *     exists for the paper's mismatch score 0 and for mismatch -2 or less (a longest common
 *     subsequence: a mismatch never beats two gaps); any other mismatch score uses the scalar DP.
 * Both DPs are exact, so every alignment returned by them is optimal; tests compare the fast path's score
 * with the textbook DP on random and corpus pairs, forcing each path (scalarCells 0, small storeWords).
 *  4. The one exception, explicit and reported: a range above `maxExactCells` (2^31 cells by default, two
 *     pages of about 46,000 tokens each, a few seconds of DP; no pair of the corpus comes near) is split on
 *     anchors, runs around tokens unique in both ranges (anchors.ts), and the gaps between them aligned by
 *     these same steps. That is not proved optimal, so the alignment says `exact: false`, the consensus and
 *     the engine count such alignments (summary.json `alignmentsNotExact`), and eval/align.eval.ts measures
 *     the loss when the fallback is forced on the corpus pairs. A range above the limit without anchors
 *     is aligned exactly anyway (slowly).
 *
 * Lemma (why step 1 is exact, whatever the mismatch score). Let x be a token and A = xA', B = xB'. Any
 * alignment of A' and xB' can be turned into one of A' and B' by deleting x's column and, if x was aligned
 * to a token c, leaving c in a gap: the score drops by at most 2 (−s(x,c) − 1 ≥ −2, as s(x,c) ≤ 1), so
 * opt(A', xB') ≤ opt(A', B') + 2; likewise
 * opt(xA', B') ≤ opt(A', B') + 2. Hence the two options that do not match the first tokens score at most
 * −1 + opt(A', B') + 2 = opt(A', B') + 1, which is exactly what matching them scores: there is an optimal
 * alignment that matches a common first token. By symmetry the same holds for a common last token, and,
 * applied at any cell, a path that reaches a cell where the tokens are equal may follow the run of equal
 * tokens (anchors.ts extends its anchors so).
 *
 * History. An earlier fast path split long ranges on unique common tokens and on runs of a bit-parallel
 * LCS; it was not optimal (on the 8 level-1 pairs of each site's sample, 25 of 33 anchored pairs scored
 * below the optimum, by up to 0.13 per token). The bit-parallel DP is as fast and exact, so it replaced it.
 */
import { findAnchors } from './anchors.ts';
import { type BitStats, bitAlignInto } from './bit-parallel-nw.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { filled } from '../../filled.ts';
import { type Alignment, ColumnBuilder, DIRECT_CELLS, hirschbergInto, MATCH } from './needleman-wunsch.ts';

/** Options of the fast path; defaults in ALIGN_DEFAULTS. */
export interface AlignOptions {
  /** Ranges (after trimming) of at most this many cells use the scalar DP; larger ones the bit-parallel DP. */
  scalarCells?: number;
  /** Traceback store of the bit-parallel DP, in 32-bit words (3 per 32 cells); larger blocks are split. */
  storeWords?: number;
  /** Ranges above this many cells are split on anchors (step 4: not exact, reported). */
  maxExactCells?: number;
  /** Hirschberg base-case size of the scalar DP (cells). */
  baseCells?: number;
  /** Largest block the scalar DP aligns in one pass with a byte of traceback per cell (cap: DIRECT_CELLS). */
  directCells?: number;
  /** When given, counts the bit-parallel work (benchmarks). */
  stats?: BitStats;
  /**
   * Score of a mismatch column (default ALIGN_DEFAULTS.mismatch). The bit-parallel DP covers 0 (paper 1)
   * and -2 or less (a longest common subsequence); other values use the scalar DP throughout.
   */
  mismatch?: number;
}

interface RunState {
  options: AlignOptions;
  mismatch: number;
  /** Which bit-parallel DP fits the scoring: 'nw' (mismatch 0), 'lcs' (mismatch <= -2), none (scalar only). */
  bit: 'nw' | 'lcs' | null;
  scalarCells: number;
  maxExactCells: number;
  baseCells: number;
  storeWords: number;
  exact: boolean;
}

/** Globally aligns two token sequences (Needleman–Wunsch scoring) by the fast path described above. */
export function alignSequences(a: Int32Array, b: Int32Array, options: AlignOptions = {}): Alignment {
  const o = filled(options, ALIGN_DEFAULTS, ['mismatch', 'scalarCells', 'maxExactCells', 'baseCells', 'storeWords']);
  const st: RunState = { options, ...o, bit: o.mismatch === 0 ? 'nw' : o.mismatch <= -2 ? 'lcs' : null, exact: true };
  const out = new ColumnBuilder(Math.max(a.length, b.length) + 16);
  const score = alignRange(a, 0, a.length, b, 0, b.length, out, st);
  return out.finish(score, st.exact);
}

function alignRange(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: ColumnBuilder, st: RunState): number {
  let score = 0;
  // 1. Common prefix, and common suffix (measured now, emitted last).
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    out.push(aLo++, bLo++);
    score += MATCH;
  }
  let k = 0;
  while (aHi - k > aLo && bHi - k > bLo && a[aHi - 1 - k] === b[bHi - 1 - k]) k++;
  aHi -= k;
  bHi -= k;
  const n = aHi - aLo;
  const m = bHi - bLo;
  const o = st.options;
  const viaAnchors = n * m > st.maxExactCells ? anchored(a, aLo, aHi, b, bLo, bHi, out, st) : null;
  if (viaAnchors !== null) {
    // 4. Above the exact limit: anchors when there are any.
    score += viaAnchors;
  } else if (n === 0 || m === 0 || n * m <= st.scalarCells || st.bit === null) {
    // 2. Scalar DP.
    score += hirschbergInto(a, aLo, aHi, b, bLo, bHi, out, st.baseCells, o.directCells ?? DIRECT_CELLS, st.mismatch);
  } else {
    // 3. The bit-parallel DP of the scoring.
    score += bitAlignInto(a, aLo, aHi, b, bLo, bHi, out, st.storeWords, o.stats, st.bit === 'lcs');
  }
  for (let d = 0; d < k; d++) out.push(aHi + d, bHi + d);
  return score + k * MATCH;
}

/**
 * Step 4: splits a[aLo..aHi) × b[bLo..bHi) on anchor runs and aligns the gaps between them by `alignRange`.
 * Returns the score, or null (nothing emitted) when there is no anchor.
 */
function anchored(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: ColumnBuilder, st: RunState): number | null {
  const runs = findAnchors(a, aLo, aHi, b, bLo, bHi, ALIGN_DEFAULTS.anchorMinRun);
  if (runs.length === 0) return null;
  st.exact = false;
  let score = 0;
  let i = aLo;
  let j = bLo;
  for (const r of runs) {
    score += alignRange(a, i, r.aStart, b, j, r.bStart, out, st);
    for (let d = 0; d < r.length; d++) out.push(r.aStart + d, r.bStart + d);
    score += r.length * MATCH;
    i = r.aStart + r.length;
    j = r.bStart + r.length;
  }
  return score + alignRange(a, i, aHi, b, j, bHi, out, st);
}
