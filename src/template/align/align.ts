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
 *     procedure (tokens unique inside a gap are new anchors there). With no anchor, use Hirschberg.
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
 * What is not proved: step 3. An optimal alignment need not go through a token unique in both sequences
 * (anchors.ts gives a counter-example), so a pair whose alignment used anchors is returned with
 * `exact: false`. Pairs up to `exactCells` cells after trimming (about 1,450 × 1,450 tokens by default)
 * are always exact; the test suite checks that the fast path then equals the full-matrix reference, and
 * checks the anchored path on real and random pairs against it; eval/align.eval.ts reports how often the
 * anchored score is below the optimum on corpus page pairs.
 */
import { findAnchors } from './anchors.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { type Alignment, ColumnBuilder, DIRECT_CELLS, hirschbergInto, MATCH } from './needleman-wunsch.ts';

/** Options of the fast path; defaults in ALIGN_DEFAULTS. */
export interface AlignOptions {
  /** Largest DP (n·m cells, after trimming) aligned exactly without anchors. */
  exactCells?: number;
  /** Shortest anchor run used. */
  anchorMinRun?: number;
  /** Hirschberg base-case size (cells). */
  baseCells?: number;
  /** Largest block aligned in one pass with a byte of traceback per cell (default and cap: DIRECT_CELLS). */
  directCells?: number;
}

interface RunState {
  exactCells: number;
  minRun: number;
  baseCells: number;
  directCells: number;
  exact: boolean;
}

/** Globally aligns two token sequences (Needleman–Wunsch scoring) by the fast path described above. */
export function alignSequences(a: Int32Array, b: Int32Array, options: AlignOptions = {}): Alignment {
  const st: RunState = {
    exactCells: options.exactCells ?? ALIGN_DEFAULTS.exactCells,
    minRun: Math.max(1, options.anchorMinRun ?? ALIGN_DEFAULTS.anchorMinRun),
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
      score += hirschbergInto(a, aLo, aEnd, b, bLo, bEnd, out, st.baseCells, st.directCells);
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
