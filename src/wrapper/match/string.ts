/**
 * String similarity for leaves (paper 5, Section 4: "for extraction of leaf nodes which exhibit no
 * inherent tree structure, we rely on string similarity metrics"). Short strings (labels, prices, names)
 * are compared with Jaro–Winkler on their characters; long ones (paragraphs, whole documents) with the
 * Dice coefficient of their word multisets, which is linear and insensitive to where words moved.
 */
import { jaroWinkler } from './jaro-winkler.ts';

/** Lowercase words (Unicode letters and digits), as the corpus README's scoring splits them. */
export function textWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Strings up to this length (both sides) are compared character by character (Jaro–Winkler). */
export const SHORT_STRING = 64;

/** Dice coefficient of the word multisets of two texts (1 when both have no words). */
export function wordDice(a: string, b: string): number {
  const wa = textWords(a);
  const wb = textWords(b);
  if (wa.length + wb.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of wa) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of wb) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      counts.set(w, c - 1);
      common++;
    }
  }
  return (2 * common) / (wa.length + wb.length);
}

/** Similarity of two texts in [0, 1] (see the module comment for which measure applies). */
export function stringSimilarity(a: string, b: string): number {
  const x = a.replace(/\s+/g, ' ').trim();
  const y = b.replace(/\s+/g, ' ').trim();
  if (x === y) return 1;
  if (x.length <= SHORT_STRING && y.length <= SHORT_STRING) return jaroWinkler(x.toLowerCase(), y.toLowerCase());
  return wordDice(x, y);
}

