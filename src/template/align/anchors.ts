/**
 * Anchors for the explicit, not exact fallback of the alignment (align.ts, `maxExactCells`): runs of equal
 * tokens that the alignment is made to go through, so that only the gaps between them need dynamic
 * programming. Used only for ranges too large to align exactly in the time allowed (none of the corpus
 * pairs); every alignment that used them says so (`exact: false`) and the engine reports how many. This is the "unique common
 * substring" idea of whole-genome aligners (MUMmer's maximal unique matches, chained by a longest
 * increasing subsequence) applied to token sequences:
 *  1. a token is a candidate when it occurs exactly once in a[aLo..aHi) and exactly once in b[bLo..bHi);
 *  2. candidates, taken in a's order, are chained by a longest increasing subsequence of their positions
 *     in b (patience sorting, O(k log k)): the chain is the largest set of them that can all be matches
 *     of one alignment;
 *  3. each chained token is extended to the maximal run of equal tokens around it (without overlapping
 *     its neighbours in the chain); runs shorter than `minRun` are dropped.
 *
 * What is proved and what is not. Once an alignment path passes through a matching cell, following the
 * run of equal tokens is optimal (lemma in align.ts), so step 3 loses nothing given step 2. Step 2 is a
 * heuristic: an optimal alignment need not match a token that is unique in both sequences (a = "x B B B",
 * b = "B B B x": matching x forces six gaps, score -5, while matching the three B's scores 1). align.ts
 * therefore flags every alignment that used anchors as not proved exact; eval/align.eval.ts measures how
 * often and by how much the anchored score falls below the optimum when the fallback is forced on real
 * page pairs.
 */

import { growIdArrays } from './needleman-wunsch.ts';

/** A run of equal tokens: a[aStart + d] === b[bStart + d] for d in [0, length). */
export interface AnchorRun {
  aStart: number;
  bStart: number;
  length: number;
}

/** Per-id counters reused across calls (ids are label ids: dense small integers). */
let countA: Int32Array = new Int32Array(1024);
let countB: Int32Array = new Int32Array(1024);
let posB: Int32Array = new Int32Array(1024);

function ensure(maxId: number): void {
  [countA, countB, posB] = growIdArrays([countA, countB, posB], maxId) as [Int32Array, Int32Array, Int32Array];
}

/**
 * The anchor runs of a[aLo..aHi) and b[bLo..bHi), in increasing order in both sequences and not
 * overlapping. Token ids must be non-negative.
 */
export function findAnchors(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  minRun: number,
): AnchorRun[] {
  let maxId = 0;
  for (let i = aLo; i < aHi; i++) if (a[i]! > maxId) maxId = a[i]!;
  for (let j = bLo; j < bHi; j++) if (b[j]! > maxId) maxId = b[j]!;
  ensure(maxId);
  const cA = countA;
  const cB = countB;
  const pB = posB;
  for (let i = aLo; i < aHi; i++) cA[a[i]!]!++;
  for (let j = bLo; j < bHi; j++) {
    const t = b[j]!;
    cB[t]!++;
    pB[t] = j;
  }
  // Candidates in a's order: (i, j) with the token unique on both sides.
  const candI: number[] = [];
  const candJ: number[] = [];
  for (let i = aLo; i < aHi; i++) {
    const t = a[i]!;
    if (cA[t] === 1 && cB[t] === 1) {
      candI.push(i);
      candJ.push(pB[t]!);
    }
  }
  // Reset the counters touched (cheaper than clearing the whole arrays).
  for (let i = aLo; i < aHi; i++) cA[a[i]!] = 0;
  for (let j = bLo; j < bHi; j++) cB[b[j]!] = 0;
  const chain = longestIncreasing(candJ);
  const runs: AnchorRun[] = [];
  let prevAEnd = aLo;
  let prevBEnd = bLo;
  for (let c = 0; c < chain.length; c++) {
    const k = chain[c]!;
    let i = candI[k]!;
    let j = candJ[k]!;
    if (i < prevAEnd || j < prevBEnd) continue; // inside the previous run already
    // Extend backwards, not into the previous run.
    while (i > prevAEnd && j > prevBEnd && a[i - 1] === b[j - 1]) {
      i--;
      j--;
    }
    // Extend forwards, not past the next chained anchor (it starts its own run) nor the range.
    const next = c + 1 < chain.length ? chain[c + 1]! : -1;
    const aLimit = next >= 0 ? candI[next]! : aHi;
    const bLimit = next >= 0 ? candJ[next]! : bHi;
    let ei = candI[k]! + 1;
    let ej = candJ[k]! + 1;
    while (ei < aLimit && ej < bLimit && a[ei] === b[ej]) {
      ei++;
      ej++;
    }
    // A following chained anchor that continues this very run is merged into it.
    if (next >= 0 && ei === aLimit && ej === bLimit) {
      while (ei < aHi && ej < bHi && a[ei] === b[ej]) {
        ei++;
        ej++;
      }
    }
    const len = ei - i;
    if (len >= minRun) {
      runs.push({ aStart: i, bStart: j, length: len });
      prevAEnd = ei;
      prevBEnd = ej;
    }
  }
  return dropDetours(runs, aLo, bLo, aHi, bHi);
}

/**
 * Step 4: drops anchors that force a detour. Between two anchors the alignment needs at least as many gaps
 * as the difference of their diagonals (offset = bStart - aStart). Going through run r between its
 * neighbours p and q needs |o_r - o_p| + |o_q - o_r| gaps where skipping it needs only |o_q - o_p|: when
 * that excess exceeds r's length (the most its matches can give back), r is a chance match away from the
 * path (typically a word unique to both pages' content at different places) and is dropped. Repeated until
 * nothing changes; the range ends act as fixed neighbours.
 */
function dropDetours(runs: AnchorRun[], aLo: number, bLo: number, aHi: number, bHi: number): AnchorRun[] {
  let cur = runs;
  for (;;) {
    const kept: AnchorRun[] = [];
    let changed = false;
    for (let k = 0; k < cur.length; k++) {
      const r = cur[k]!;
      const p = kept.length > 0 ? kept[kept.length - 1]! : null;
      const q = k + 1 < cur.length ? cur[k + 1]! : null;
      const op = p ? p.bStart - p.aStart : bLo - aLo;
      const oq = q ? q.bStart - q.aStart : bHi - aHi;
      const or = r.bStart - r.aStart;
      const excess = Math.abs(or - op) + Math.abs(oq - or) - Math.abs(oq - op);
      if (excess > r.length) changed = true;
      else kept.push(r);
    }
    cur = kept;
    if (!changed) return cur;
  }
}

/**
 * Indices of a longest strictly increasing subsequence of `xs` (patience sorting with predecessor links);
 * among several, the one ending with the smallest values at each length (deterministic).
 */
export function longestIncreasing(xs: readonly number[]): number[] {
  const n = xs.length;
  if (n === 0) return [];
  const tailIdx = new Int32Array(n);
  const prev = new Int32Array(n);
  let len = 0;
  for (let k = 0; k < n; k++) {
    const x = xs[k]!;
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tailIdx[mid]!]! < x) lo = mid + 1;
      else hi = mid;
    }
    prev[k] = lo > 0 ? tailIdx[lo - 1]! : -1;
    tailIdx[lo] = k;
    if (lo === len) len++;
  }
  const out = new Array<number>(len);
  let k = tailIdx[len - 1]!;
  for (let p = len - 1; p >= 0; p--) {
    out[p] = k;
    k = prev[k]!;
  }
  return out;
}
