/**
 * Clustered tree matching, paper 5, Section 3.2, Algorithm 1 (Ferrara and Baumgartner), exactly:
 *
 *   CTM(T', T'') = 0 when the roots' labels differ; otherwise, with m = d(T'), n = d(T'') and the DP
 *   M[i][j] = max(M[i][j-1], M[i-1][j], M[i-1][j-1] + CTM(T'(i-1), T''(j-1))),
 *   returns M[m][n] · 1/max(t(T'), t(T'')) when m > 0 and n > 0, else M[m][n] + 1/max(t(T'), t(T'')),
 *
 * where t(x) is the number of siblings of x including itself. A child of a node with degree k has
 * t = k, so the recursion passes the parents' degrees down.
 *
 * Normalisation to an absolute similarity (the paper's "capability to calculate an absolute measure of
 * similarity"): the two compared roots are taken as having no siblings (t = 1 for both), whatever their
 * position in their pages. By induction a node's value is at most 1/max(t', t'') (a matching pairs at
 * most min(m, n) children, each worth at most 1/max(m, n)), and equals 1/t on identical subtrees, so
 * the result lies in [0, 1] and is 1 exactly when the roots match all the way down as on identical trees.
 *
 * At the root: line 18 of Algorithm 1 gives a leaf compared with a subtree the full weight 1/t of its
 * position. Below the root this is the paper's leniency for details added or missing in deep levels
 * (Section 3.2, "Motivations"), and it also lets a depth-cut tree-gram match the full subtree; at the root
 * it would make any childless element with the right tag a perfect match for a whole tree-gram. So the
 * absolute similarity of two roots of which exactly one has children is 0 (nothing below the root was
 * matched); everywhere else Algorithm 1 is applied as written.
 */
import { childrenMatching, RowArena } from './arena.ts';
import type { LabelledTree } from './labelled-tree.ts';

const arena = new RowArena();

/** CTM of the subtrees of a at i and b at j, normalised as in the module comment: in [0, 1]. */
export function clusteredTreeMatching(a: LabelledTree, b: LabelledTree, i = 0, j = 0): number {
  if (a.label[i] !== b.label[j]) return 0;
  if ((a.degree[i] === 0) !== (b.degree[j] === 0)) return 0; // see "At the root" in the module comment
  arena.release(0);
  return ctm(a, i, 1, b, j, 1);
}

function ctm(a: LabelledTree, i: number, ti: number, b: LabelledTree, j: number, tj: number): number {
  if (a.label[i] !== b.label[j]) return 0;
  const m = a.degree[i]!;
  const n = b.degree[j]!;
  const t = ti > tj ? ti : tj;
  if (m === 0 || n === 0) return 0 + 1 / t; // M[m][n] is 0 when either side has no children
  const result = childrenMatching(arena, a, i, b, j, n, (ci, cj) => ctm(a, ci, m, b, cj, n));
  return result / t;
}

/**
 * An upper bound of `clusteredTreeMatching(a, b, i, j)` computed from the children's labels alone: 0 when
 * the roots differ, 1 for two leaves, else (number of children pairs with equal labels a matching could
 * make, i.e. the multiset intersection of the children's labels) / max(m, n). `scratch` is a zeroed
 * Int32Array with a cell per label, returned zeroed.
 */
export function clusteredUpperBound(a: LabelledTree, i: number, b: LabelledTree, j: number, scratch: Int32Array): number {
  if (a.label[i] !== b.label[j]) return 0;
  const m = a.degree[i]!;
  const n = b.degree[j]!;
  if (m === 0 || n === 0) return m === n ? 1 : 0;
  for (let c = i + 1, e = a.end[i]!; c < e; c = a.end[c]!) scratch[a.label[c]!]!++;
  let common = 0;
  for (let c = j + 1, e = b.end[j]!; c < e; c = b.end[c]!) {
    const l = b.label[c]!;
    if (scratch[l]! > 0) {
      scratch[l]!--;
      common++;
    }
  }
  for (let c = i + 1, e = a.end[i]!; c < e; c = a.end[c]!) scratch[a.label[c]!] = 0;
  return common / (m > n ? m : n);
}
