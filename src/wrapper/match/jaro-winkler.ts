/**
 * Jaro–Winkler similarity (Winkler 1999) on integer sequences, and its tree variant (paper 5, Section 6:
 * "the Jaro–Winkler distance could better reflect missing or added node levels"). A tree is read as the
 * sequence of its labels in preorder: an added level inserts one label before a block and a removed level
 * deletes one, which shifts the rest by one place; Jaro's matching window (half the longer length) still
 * pairs the shifted labels, where tree matching loses the whole subtree under a new or missing level.
 * Jaro: with c matches within the window and t half the number of matched labels out of order,
 * J = (c/|a| + c/|b| + (c − t)/c) / 3; Winkler adds l·p·(1 − J) for a common prefix of l ≤ 4 (p = 0.1)
 * when J reaches the boost threshold (0.7, Winkler's implementation; see JW_BOOST_THRESHOLD).
 * Sequences are cut at JW_MAX_SEQUENCE labels (the window makes the cost O(n²) in the worst case).
 */
import { JW_BOOST_THRESHOLD, JW_MAX_PREFIX, JW_MAX_SEQUENCE, JW_PREFIX_SCALE } from '../defaults.ts';
import type { LabelledTree } from './labelled-tree.ts';

let flagsA = new Uint8Array(256);
let flagsB = new Uint8Array(256);

/** Jaro–Winkler similarity of two sequences (anything indexable by number: typed arrays, char codes). */
export function jaroWinklerSeq(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0 && lb === 0) return 1;
  if (la === 0 || lb === 0) return 0;
  if (flagsA.length < la) flagsA = new Uint8Array(la * 2);
  if (flagsB.length < lb) flagsB = new Uint8Array(lb * 2);
  flagsA.fill(0, 0, la);
  flagsB.fill(0, 0, lb);
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  let c = 0;
  for (let x = 0; x < la; x++) {
    const lo = Math.max(0, x - window);
    const hi = Math.min(lb - 1, x + window);
    const v = a[x];
    for (let y = lo; y <= hi; y++) {
      if (flagsB[y] === 0 && b[y] === v) {
        flagsA[x] = 1;
        flagsB[y] = 1;
        c++;
        break;
      }
    }
  }
  if (c === 0) return 0;
  let half = 0;
  let y = 0;
  for (let x = 0; x < la; x++) {
    if (flagsA[x] === 0) continue;
    while (flagsB[y] === 0) y++;
    if (a[x] !== b[y]) half++;
    y++;
  }
  const t = half / 2;
  const jaro = (c / la + c / lb + (c - t) / c) / 3;
  if (jaro < JW_BOOST_THRESHOLD) return jaro;
  let l = 0;
  const maxL = Math.min(JW_MAX_PREFIX, la, lb);
  while (l < maxL && a[l] === b[l]) l++;
  return jaro + l * JW_PREFIX_SCALE * (1 - jaro);
}

/** Jaro–Winkler similarity of two strings (by UTF-16 code units). */
export function jaroWinkler(a: string, b: string): number {
  const ca = new Uint16Array(a.length);
  for (let k = 0; k < a.length; k++) ca[k] = a.charCodeAt(k);
  const cb = new Uint16Array(b.length);
  for (let k = 0; k < b.length; k++) cb[k] = b.charCodeAt(k);
  return jaroWinklerSeq(ca, cb);
}

/** The tree variant: Jaro–Winkler of the preorder label sequences of the subtrees of a at i and b at j. */
export function jaroWinklerTree(a: LabelledTree, b: LabelledTree, i = 0, j = 0): number {
  const sa = a.label.subarray(i, Math.min(a.end[i]!, i + JW_MAX_SEQUENCE));
  const sb = b.label.subarray(j, Math.min(b.end[j]!, j + JW_MAX_SEQUENCE));
  return jaroWinklerSeq(sa, sb);
}

/**
 * Upper bound of `jaroWinklerTree` from the two lengths alone (c ≤ min length, no transpositions, the full
 * prefix bonus), used to skip candidates that cannot beat the best so far.
 */
export function jaroWinklerBound(la: number, lb: number): number {
  la = Math.min(la, JW_MAX_SEQUENCE);
  lb = Math.min(lb, JW_MAX_SEQUENCE);
  const c = Math.min(la, lb);
  if (c === 0) return la === lb ? 1 : 0;
  const jaro = (c / la + c / lb + 1) / 3;
  return jaro < JW_BOOST_THRESHOLD ? jaro : jaro + JW_MAX_PREFIX * JW_PREFIX_SCALE * (1 - jaro);
}
