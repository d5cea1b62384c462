/**
 * Leave-one-site-out choice of an option (eval/collect.eval.ts, eval/cluster.eval.ts): for each site, the
 * candidate value that scores best on the other sites is chosen, and the site's figure at that value is its
 * held-out figure; the value that scores best on every site is the in-sample choice (the default).
 * Candidates are compared by a vector of numbers, lexicographically, higher first; ties go to the earlier
 * candidate, so candidates are listed from the preferred one (the paper's value, the cheaper one).
 */

/** Lexicographic comparison of score vectors: > 0 when a is better. */
export function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    const d = (a[k] ?? -Infinity) - (b[k] ?? -Infinity);
    if (Math.abs(d) > 1e-12) return d;
  }
  return 0;
}

/** The candidate whose score over `units` is best. */
export function bestCandidate<C>(candidates: readonly C[], units: readonly string[], score: (candidate: C, units: readonly string[]) => number[]): C {
  let best: C = candidates[0]!;
  let bestScore = score(best, units);
  for (const c of candidates.slice(1)) {
    const s = score(c, units);
    if (compareScores(s, bestScore) > 0) {
      best = c;
      bestScore = s;
    }
  }
  return best;
}

/** For each unit, the candidate chosen on the other units; and the candidate chosen on all. */
export function leaveOneOut<C>(candidates: readonly C[], units: readonly string[], score: (candidate: C, units: readonly string[]) => number[]): { heldOut: Map<string, C>; inSample: C } {
  const heldOut = new Map<string, C>();
  for (const u of units) heldOut.set(u, bestCandidate(candidates, units.filter((v) => v !== u), score));
  return { heldOut, inSample: bestCandidate(candidates, units, score) };
}

/**
 * For each unit, the candidate chosen on the units of other groups (leave one generator out: a site is
 * judged by a choice made on sites no tool of its generator built); and the candidate chosen on all.
 */
export function leaveOneGroupOut<C>(candidates: readonly C[], units: readonly string[], groupOf: (unit: string) => string, score: (candidate: C, units: readonly string[]) => number[]): { heldOut: Map<string, C>; inSample: C } {
  const heldOut = new Map<string, C>();
  for (const u of units) heldOut.set(u, bestCandidate(candidates, units.filter((v) => groupOf(v) !== groupOf(u)), score));
  return { heldOut, inSample: bestCandidate(candidates, units, score) };
}
