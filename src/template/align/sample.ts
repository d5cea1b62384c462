/**
 * Choice of the t sample pages the template is learned from (paper 1, section 2: "a set t pages"; the
 * paper's experiments use t = 16 and do not say how the pages are drawn).
 *
 * Choice made here: spread over the site. Page keys (paths relative to the source root) are sorted, which
 * groups the pages of one section together (`blog/…`, `docs/…`, `tags/…`), and t keys are taken at evenly
 * spaced ranks (the middle of each of t equal slices). A site whose sections hold different page classes
 * then contributes pages of each class in proportion to its size, so the consensus keeps what all classes
 * share (the template) rather than one class's layout. The sample is returned in key order, which is also
 * the order in which consensus.ts pairs it: the result depends only on the set of keys, never on the order
 * in which a source yields its pages. Deterministic: no randomness, so runs are reproducible.
 */

import { combine32, hashString32 } from '../../html/hash.ts';
import { textOf } from '../../html/text.ts';
import type { Tree } from '../../html/tree.ts';

/** Compares strings by UTF-16 code units (locale-independent, stable across machines). */
export function compareKeys(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Picks `n` keys spread evenly over the sorted keys (all of them, sorted, when there are at most n). */
export function chooseSample(keys: Iterable<string>, n: number): string[] {
  const sorted = [...new Set(keys)].sort(compareKeys);
  if (n <= 0) return [];
  if (sorted.length <= n) return sorted;
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(sorted[Math.floor(((k + 0.5) * sorted.length) / n)]!);
  return out;
}

/** Words per shingle of `pageShingles` (paper 3's shingles of pagelets are runs of words too). */
export const SHINGLE_TOKENS = 8;

/**
 * The shingles of a page's visible text (body, without script and style): runs of SHINGLE_TOKENS words,
 * lowercased. Words, not paper 1's tokens: a paragraph is one token, so an article would weigh no more
 * than a few tags; its words make it weigh what it reads.
 */
export function pageShingles(tree: Tree): Int32Array {
  const found = textOf(tree).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const ids = new Int32Array(found.length);
  for (let k = 0; k < found.length; k++) ids[k] = hashString32(found[k]!);
  return shingles(ids);
}

/**
 * The set of shingles of a sequence of ids: every run of SHINGLE_TOKENS ids hashed to 32 bits, sorted and
 * without repeats. A sequence shorter than a shingle gives one shingle of it all.
 */
export function shingles(ids: Int32Array): Int32Array {
  const w = Math.min(SHINGLE_TOKENS, ids.length);
  const n = ids.length === 0 ? 0 : ids.length - w + 1;
  const out = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    let h = 0;
    for (let k = s; k < s + w; k++) h = combine32(h, ids[k]!);
    out[s] = h | 0;
  }
  out.sort();
  let u = 0;
  for (let s = 0; s < n; s++) if (s === 0 || out[s] !== out[s - 1]) out[u++] = out[s]!;
  return out.subarray(0, u);
}

/** Size of the intersection of two sorted sets, counting only the elements `keep` accepts. */
function overlap(a: Int32Array, b: Int32Array, keep: (x: number) => boolean): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      if (keep(a[i]!)) n++;
      i++;
      j++;
    }
  }
  return n;
}

/**
 * How much of one page another page repeats, beyond what the site's other pages share: for pages a and b
 * among `sets` (the shingle sets of pages of one site), the shingles of each that no third page has are
 * its own; the score is the Jaccard index of the two own sets. Two copies of one article
 * (the same story under two addresses, a print version) score near 1: the article's shingles are on both
 * and on no third page; two different articles of the site score near 0, since what they share (the
 * template) is on the third pages too; two pages sharing nothing with the third pages are no copies (a
 * layout of their own). With two pages there is no third page to tell a copied article from a template
 * (two menu-only pages), and the score is 0.
 */
export function duplicateScore(sets: readonly Int32Array[], a: number, b: number, counts: Map<number, number>): number {
  const A = sets[a]!;
  const B = sets[b]!;
  // With two pages there is no third page to tell template from article: no copies.
  if (sets.length < 3) return 0;
  // Own shingles: on a (or b) and on no page other than a and b.
  const ownOf = (S: Int32Array, other: Int32Array): number => {
    let n = 0;
    for (let i = 0, j = 0; i < S.length; i++) {
      const x = S[i]!;
      while (j < other.length && other[j]! < x) j++;
      const inOther = j < other.length && other[j] === x;
      if (counts.get(x)! === (inOther ? 2 : 1)) n++;
    }
    return n;
  };
  const ownA = ownOf(A, B);
  const ownB = ownOf(B, A);
  // Copies within a site share its template with the other pages; two pages sharing nothing with them
  // (a layout of their own, say two menu-only pages) are what the consensus compares, not copies.
  if (ownA === A.length || ownB === B.length) return 0;
  const shared = overlap(A, B, (x) => counts.get(x) === 2);
  const union = ownA + ownB - shared;
  return union === 0 ? 0 : shared / union;
}

/** Pages counted per shingle over `sets`. */
export function shingleCounts(sets: readonly Int32Array[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const S of sets) for (const x of S) counts.set(x, (counts.get(x) ?? 0) + 1);
  return counts;
}

/**
 * For each page of `sets`, the earlier page it duplicates (duplicateScore at least `threshold`), or -1.
 * A duplicate's copy is the page kept; the first of a group in the given order is kept.
 */
export function duplicatesAmong(sets: readonly Int32Array[], threshold: number): Int32Array {
  const of = new Int32Array(sets.length).fill(-1);
  if (sets.length < 2) return of;
  const counts = shingleCounts(sets);
  for (let b = 1; b < sets.length; b++) {
    for (let a = 0; a < b; a++) {
      if (of[a] !== -1) continue;
      if (duplicateScore(sets, a, b, counts) >= threshold) {
        of[b] = a;
        break;
      }
    }
  }
  return of;
}
