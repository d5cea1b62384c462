/**
 * The fast path of the Needleman–Wunsch alignment (paper 1, section 2.1) for long token sequences: the
 * same scoring as needleman-wunsch.ts, never a full n·m matrix, and exact whenever it says so.
 *
 * Steps, applied recursively to a range a[aLo..aHi) × b[bLo..bHi):
 *  1. Trim the common prefix and the common suffix, matching them (exact, see the lemma below).
 *  2. If what is left has at most `exactCells` DP cells, align it exactly: in one pass with a byte of
 *     traceback per cell up to DIRECT_CELLS (a bounded 4 MiB buffer), else with Hirschberg's linear-space
 *     recursion down to blocks that fit (needleman-wunsch.ts).
 *  3. Else split it on anchors (anchors.ts: runs around tokens unique in both ranges, chained by a
 *     longest increasing subsequence), match the runs and align each gap between them by this same
 *     procedure (tokens unique inside a gap are new anchors there).
 *  4. With no unique anchor (typically the content regions of two different pages), find one longest
 *     common subsequence bit-parallel (bit-lcs.ts, about m/32 word operations per row instead of m DP
 *     cells) and use its runs of at least `lcsMinRun` consecutive matches as anchors; the ranges between
 *     them go through this procedure when they have at most `exactCells` cells, else follow the LCS
 *     path (or, when it scores higher, plain column-by-column pairing). See `alignByLcs`.
 *
 * Lemma (why step 1 is exact). Let x be a token and A = xA', B = xB'. Any alignment of A' and xB' can be
 * turned into one of A' and B' by deleting x's column and, if x was aligned to a token c, leaving c in a
 * gap: the score drops by at most 2 (−s(x,c) − 1 ≥ −2), so opt(A', xB') ≤ opt(A', B') + 2; likewise
 * opt(xA', B') ≤ opt(A', B') + 2. Hence the two options that do not match the first tokens score at most
 * −1 + opt(A', B') + 2 = opt(A', B') + 1, which is exactly what matching them scores: there is an optimal
 * alignment that matches a common first token. By symmetry the same holds for a common last token, and,
 * applied to any cell, a path that reaches a cell where the tokens are equal may follow the run of equal
 * tokens (used by anchors.ts to extend anchors).
 *
 * Which paths are exact. Steps 1 and 2 are: a pair whose range after trimming has at most `exactCells`
 * cells (2^19 by default, about 720 × 720 tokens) gets an optimal alignment, `exact: true`. Steps 3 and 4
 * are heuristics: an optimal alignment need not go through a token unique in both sequences (anchors.ts
 * gives a counter-example) nor follow a longest common subsequence (an LCS maximises matches, the score
 * also charges every change of diagonal: "x B B B" / "B B B x" has LCS 3 but the optimum pairs the tokens
 * in place), so any alignment that used them is returned with `exact: false`, and its score may be below
 * the optimum. The only exact fallback left for large ranges is Hirschberg, used when the LCS row store
 * would exceed LCS_MAX_WORDS. Tests check that the fast path equals the full-matrix reference whenever it
 * says exact, and never exceeds the optimum otherwise; eval/align.eval.ts reports how often and by how
 * much the score of level-1 sample pairs falls below the optimum.
 */
import { findAnchors } from './anchors.ts';
import { lcsPath } from './bit-lcs.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { type Alignment, ColumnBuilder, DIRECT_CELLS, GAP, hirschbergInto, MATCH, MISMATCH } from './needleman-wunsch.ts';

/** Options of the fast path; defaults in ALIGN_DEFAULTS. */
export interface AlignOptions {
  /** Largest DP (n·m cells, after trimming) aligned exactly without anchors. */
  exactCells?: number;
  /** Shortest anchor run used. */
  anchorMinRun?: number;
  /** Shortest run of consecutive LCS matches used as an anchor in ranges without unique anchors. */
  lcsMinRun?: number;
  /** Hirschberg base-case size (cells). */
  baseCells?: number;
  /** Largest block aligned in one pass with a byte of traceback per cell (default and cap: DIRECT_CELLS). */
  directCells?: number;
}

interface RunState {
  exactCells: number;
  minRun: number;
  lcsMinRun: number;
  baseCells: number;
  directCells: number;
  exact: boolean;
}

/** Globally aligns two token sequences (Needleman–Wunsch scoring) by the fast path described above. */
export function alignSequences(a: Int32Array, b: Int32Array, options: AlignOptions = {}): Alignment {
  const st: RunState = {
    exactCells: options.exactCells ?? ALIGN_DEFAULTS.exactCells,
    minRun: Math.max(1, options.anchorMinRun ?? ALIGN_DEFAULTS.anchorMinRun),
    lcsMinRun: Math.max(1, options.lcsMinRun ?? ALIGN_DEFAULTS.lcsMinRun),
    baseCells: options.baseCells ?? ALIGN_DEFAULTS.baseCells,
    directCells: options.directCells ?? DIRECT_CELLS,
    exact: true,
  };
  const out = new ColumnBuilder(Math.max(a.length, b.length) + 16);
  const score = alignRange(a, 0, a.length, b, 0, b.length, out, st);
  return out.finish(score, st.exact);
}

function alignRange(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, st: RunState,
): number {
  let score = 0;
  // 1. Common prefix.
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    out.push(aLo++, bLo++);
    score += MATCH;
  }
  // Common suffix: measured now, emitted last.
  let k = 0;
  while (aHi - k > aLo && bHi - k > bLo && a[aHi - 1 - k] === b[bHi - 1 - k]) k++;
  const aEnd = aHi - k;
  const bEnd = bHi - k;
  const n = aEnd - aLo;
  const m = bEnd - bLo;
  if (n === 0 || m === 0 || n * m <= st.exactCells) {
    // 2. Small enough: exact.
    score += hirschbergInto(a, aLo, aEnd, b, bLo, bEnd, out, st.baseCells, st.directCells);
  } else {
    // 3. Anchors, gaps recursively.
    const runs = findAnchors(a, aLo, aEnd, b, bLo, bEnd, st.minRun);
    if (runs.length === 0) {
      score += alignByLcs(a, aLo, aEnd, b, bLo, bEnd, out, st);
    } else {
      st.exact = false;
      let i = aLo;
      let j = bLo;
      for (const r of runs) {
        score += alignRange(a, i, r.aStart, b, j, r.bStart, out, st);
        for (let d = 0; d < r.length; d++) out.push(r.aStart + d, r.bStart + d);
        score += r.length * MATCH;
        i = r.aStart + r.length;
        j = r.bStart + r.length;
      }
      score += alignRange(a, i, aEnd, b, j, bEnd, out, st);
    }
  }
  for (let d = 0; d < k; d++) out.push(aEnd + d, bEnd + d);
  return score + k * MATCH;
}

/**
 * Step 4: a range above `exactCells` with no unique anchor. One longest common subsequence is found
 * bit-parallel (bit-lcs.ts); its runs of at least `lcsMinRun` consecutive matches are anchors, and each
 * range between two of them is aligned by `alignRange` when it has at most `exactCells` cells (exactly,
 * after trimming), else along the LCS path itself: its matches are kept and the tokens between two of
 * them, which hold no common token (else the LCS would be longer), are paired as mismatches, the surplus
 * of the longer side left in gaps; or, when that scores higher, without the LCS matches: the two ranges
 * paired column by column (an LCS can zigzag between diagonals, and every change of diagonal costs gaps). Not proved optimal (an LCS maximises matches, the alignment score also
 * counts gaps): `exact` becomes false. Beyond the LCS row store (LCS_MAX_WORDS), exact Hirschberg.
 */
function alignByLcs(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: ColumnBuilder, st: RunState,
): number {
  const path = lcsPath(a, aLo, aHi, b, bLo, bHi);
  if (!path) return hirschbergInto(a, aLo, aHi, b, bLo, bHi, out, st.baseCells, st.directCells);
  st.exact = false;
  const { ai, bj, length } = path;
  let score = 0;
  let i = aLo; // next unaligned token of a
  let j = bLo;
  let gapStart = 0; // first path match not yet emitted
  let r = 0;
  while (r <= length) {
    // Find the next run of consecutive matches of at least lcsMinRun (or the end of the path).
    let runEnd = r + 1;
    if (r < length) {
      while (runEnd < length && ai[runEnd] === ai[runEnd - 1]! + 1 && bj[runEnd] === bj[runEnd - 1]! + 1) runEnd++;
      if (runEnd - r < st.lcsMinRun) {
        r = runEnd;
        continue;
      }
    }
    // The range between the previous anchor and this run (or the end).
    const gi = r < length ? ai[r]! : aHi;
    const gj = r < length ? bj[r]! : bHi;
    if ((gi - i) * (gj - j) <= st.exactCells) {
      score += alignRange(a, i, gi, b, j, gj, out, st);
    } else if (plainFillScore(a, i, gi, b, j, gj) >= lcsFillScore(ai, bj, gapStart, r, i, gi, j, gj)) {
      score += fillBetween(a, i, gi, b, j, gj, out);
    } else {
      for (let x = gapStart; x < r; x++) {
        score += fillBetween(a, i, ai[x]!, b, j, bj[x]!, out);
        out.push(ai[x]!, bj[x]!);
        score += MATCH;
        i = ai[x]! + 1;
        j = bj[x]! + 1;
      }
      score += fillBetween(a, i, gi, b, j, gj, out);
    }
    if (r >= length) break;
    for (let x = r; x < runEnd; x++) out.push(ai[x]!, bj[x]!);
    score += (runEnd - r) * MATCH;
    i = ai[runEnd - 1]! + 1;
    j = bj[runEnd - 1]! + 1;
    gapStart = runEnd;
    r = runEnd;
  }
  return score;
}

/** Score `fillBetween` would give, without emitting. */
function plainFillScore(a: Int32Array, i0: number, i1: number, b: Int32Array, j0: number, j1: number): number {
  const p = i1 - i0;
  const q = j1 - j0;
  const d = Math.min(p, q);
  let score = Math.abs(p - q) * GAP + d * MISMATCH;
  for (let x = 0; x < d; x++) if (a[i0 + x] === b[j0 + x]) score += MATCH - MISMATCH;
  return score;
}

/**
 * Score of following the LCS matches x0..x1 of the path through a[i0..i1) × b[j0..j1): one per match, and
 * between two matches (no common token there) the difference of lengths in gaps, the rest mismatches.
 */
function lcsFillScore(ai: Int32Array, bj: Int32Array, x0: number, x1: number, i0: number, i1: number, j0: number, j1: number): number {
  let score = 0;
  let i = i0;
  let j = j0;
  for (let x = x0; x < x1; x++) {
    const p = ai[x]! - i;
    const q = bj[x]! - j;
    score += Math.abs(p - q) * GAP + Math.min(p, q) * MISMATCH + MATCH;
    i = ai[x]! + 1;
    j = bj[x]! + 1;
  }
  const p = i1 - i;
  const q = j1 - j;
  return score + Math.abs(p - q) * GAP + Math.min(p, q) * MISMATCH;
}

/** Pairs a[i0..i1) with b[j0..j1) column by column, the surplus of the longer side in gaps; returns the score. */
function fillBetween(a: Int32Array, i0: number, i1: number, b: Int32Array, j0: number, j1: number, out: ColumnBuilder): number {
  let score = 0;
  let i = i0;
  let j = j0;
  while (i < i1 && j < j1) {
    score += a[i] === b[j] ? MATCH : MISMATCH;
    out.push(i++, j++);
  }
  while (i < i1) {
    out.push(i++, -1);
    score += GAP;
  }
  while (j < j1) {
    out.push(-1, j++);
    score += GAP;
  }
  return score;
}
