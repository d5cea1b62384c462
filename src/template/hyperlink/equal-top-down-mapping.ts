/**
 * The equal top-down mapping (ETDM) of paper 2 (Alarte et al., "Web Template Extraction Based on Hyperlink
 * Analysis"), Definition 3.2 and function ETDM of Algorithm 2: a mapping M between trees T1 and T2 such that
 * every pair (n, n') in M has n ≜ n' (equal), and every non-root pair has its parents' pair in M (top-down).
 *
 * Algorithm 2 maps the roots, then pairs children of mapped nodes with "n1 ≜max n2" and recurses into each
 * pair. The paper does not say how the pairs among two child lists are chosen when several maximise ≜.
 * We choose the order-preserving alignment of the two child lists that maximises the sum of ≜ over the
 * pairs (only pairs with ≜ >= threshold may be aligned): a weighted longest-common-subsequence by dynamic
 * programming, O(k1·k2) per pair of child lists, on reused typed-array scratch (no allocation per cell).
 * Order preservation is what makes the result a mapping of documents rather than of bags of nodes: a
 * template's second `<li>` is not paired with another page's fifth one just because they look alike. When
 * k1·k2 exceeds `maxAlignmentCells` a greedy in-order matching is used instead (documented fallback).
 *
 * The mapping is computed from the document nodes (index 0) down; blank text and comments take no part.
 * `restrict` limits T1 to a set of nodes closed under parent (a template being refined, Algorithm 2).
 */
import { HYPERLINK_DEFAULTS } from './defaults.ts';
import { filled } from '../../filled.ts';
import { equality, type NodeEquality, type NodeFeatures } from './node-equality.ts';

/** Reusable buffers for the child-list alignment (grow on demand, shared across calls). */
export class AlignmentScratch {
  score = new Float64Array(1024);
  dir = new Uint8Array(1024);
  childrenA = new Int32Array(256);
  childrenB = new Int32Array(256);
  ensureCells(cells: number): void {
    if (this.score.length < cells) {
      let c = this.score.length;
      while (c < cells) c *= 2;
      this.score = new Float64Array(c);
      this.dir = new Uint8Array(c);
    }
  }
  ensureChildren(k: number): void {
    if (this.childrenA.length < k) {
      let c = this.childrenA.length;
      while (c < k) c *= 2;
      this.childrenA = new Int32Array(c);
      this.childrenB = new Int32Array(c);
    }
  }
}

export interface MappingOptions {
  /** Only T1 nodes with restrict[i] === 1 may be mapped (closed under parent). */
  restrict?: Uint8Array | undefined;
  /** Reused buffers (one per thread of work). */
  scratch?: AlignmentScratch | undefined;
  /** Above this many DP cells, align greedily. Default HYPERLINK_DEFAULTS.maxAlignmentCells. */
  maxAlignmentCells?: number | undefined;
}

const UP = 1;
const LEFT = 2;
const DIAG = 3;

/**
 * The ETDM from fa's tree to fb's tree: `map[a]` is the T2 node paired with T1 node a, or -1. Empty (all -1)
 * when the two document roots are not equal.
 */
export function equalTopDownMapping(eq: NodeEquality, fa: NodeFeatures, fb: NodeFeatures, options: MappingOptions = {}): Int32Array {
  const { maxAlignmentCells: maxCells } = filled(options, HYPERLINK_DEFAULTS, ['maxAlignmentCells']);
  const ta = fa.tree;
  const tb = fb.tree;
  const map = new Int32Array(ta.size).fill(-1);
  const restrict = options.restrict;
  if (restrict && restrict[0] !== 1) return map;
  if (equality(eq, fa, 0, fb, 0) < eq.threshold) return map;
  const scratch = options.scratch ?? new AlignmentScratch();
  map[0] = 0;
  const stack: number[] = [0, 0];
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    // Counted children of a (inside the restriction) and of b.
    let ka = 0;
    let kb = 0;
    scratch.ensureChildren(Math.max(fa.childCount[a]!, fb.childCount[b]!));
    const ca = scratch.childrenA;
    const cb = scratch.childrenB;
    for (let c = a + 1, e = ta.end[a]!; c < e; c = ta.end[c]!) {
      if (fa.childIndex[c]! < 0 || (restrict && restrict[c] !== 1)) continue;
      ca[ka++] = c;
    }
    if (ka === 0) continue;
    for (let c = b + 1, e = tb.end[b]!; c < e; c = tb.end[c]!) if (fb.childIndex[c]! >= 0) cb[kb++] = c;
    if (kb === 0) continue;
    if (ka * kb > maxCells) {
      greedy(eq, fa, fb, ca, ka, cb, kb, map, stack);
      continue;
    }
    align(eq, fa, fb, ca, ka, cb, kb, scratch, map, stack);
  }
  return map;
}

/** Order-preserving alignment maximising the sum of ≜ (weighted LCS); pushes the pairs found. */
function align(
  eq: NodeEquality, fa: NodeFeatures, fb: NodeFeatures,
  ca: Int32Array, ka: number, cb: Int32Array, kb: number,
  scratch: AlignmentScratch, map: Int32Array, stack: number[],
): void {
  const w = kb + 1;
  scratch.ensureCells((ka + 1) * w);
  const score = scratch.score;
  const dir = scratch.dir;
  const thr = eq.threshold;
  for (let j = 0; j <= kb; j++) {
    score[j] = 0;
    dir[j] = LEFT;
  }
  for (let i = 1; i <= ka; i++) {
    const row = i * w;
    score[row] = 0;
    dir[row] = UP;
    const x = ca[i - 1]!;
    for (let j = 1; j <= kb; j++) {
      let best = score[row - w + j]!; // skip x
      let d = UP;
      const left = score[row + j - 1]!; // skip y
      if (left > best) {
        best = left;
        d = LEFT;
      }
      const s = equality(eq, fa, x, fb, cb[j - 1]!);
      if (s >= thr) {
        const diag = score[row - w + j - 1]! + s;
        if (diag >= best) {
          best = diag;
          d = DIAG;
        }
      }
      score[row + j] = best;
      dir[row + j] = d;
    }
  }
  let i = ka;
  let j = kb;
  while (i > 0 && j > 0) {
    const d = dir[i * w + j]!;
    if (d === DIAG) {
      const x = ca[i - 1]!;
      const y = cb[j - 1]!;
      map[x] = y;
      stack.push(x, y);
      i--;
      j--;
    } else if (d === UP) i--;
    else j--;
  }
}

/** Greedy in-order matching for very long child lists: each child of a takes the next equal child of b. */
function greedy(
  eq: NodeEquality, fa: NodeFeatures, fb: NodeFeatures,
  ca: Int32Array, ka: number, cb: Int32Array, kb: number,
  map: Int32Array, stack: number[],
): void {
  const WINDOW = 64;
  let j0 = 0;
  for (let i = 0; i < ka && j0 < kb; i++) {
    const x = ca[i]!;
    for (let j = j0; j < kb && j < j0 + WINDOW; j++) {
      const y = cb[j]!;
      if (equality(eq, fa, x, fb, y) >= eq.threshold) {
        map[x] = y;
        stack.push(x, y);
        j0 = j + 1;
        break;
      }
    }
  }
}

/** Number of mapped nodes of a mapping. */
export function mappingSize(map: Int32Array): number {
  let n = 0;
  for (let i = 0; i < map.length; i++) if (map[i]! >= 0) n++;
  return n;
}
