/**
 * Integer hashing for shingles (STYLE.md 3: numbers in hot paths). Text is hashed to numbers once; every
 * later step compares 32-bit halves or 53-bit safe integers, never strings and never BigInt.
 *
 * - `fmix32` is the MurmurHash3 finaliser (an avalanche mix of one 32-bit word);
 * - `hashString32` is FNV-1a over UTF-16 code units followed by `fmix32`, with a seed;
 * - `to53(hi, lo)` packs two 32-bit words into a safe integer: 21 bits of `hi`, 32 of `lo`.
 * 53 bits give a collision probability of about n²/2⁵⁴: for 20 million distinct pagelets, under 1 %
 * chance of any collision at all, which is far below the rate at which real pagelets differ by one word.
 */

/** MurmurHash3's 32-bit finaliser. Returns an unsigned 32-bit integer. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines a running 32-bit hash with one more 32-bit word (order-sensitive). */
export function combine32(h: number, x: number): number {
  return fmix32(Math.imul(h ^ x, 0x01000193) + 0x9e3779b9);
}

/** FNV-1a over the UTF-16 code units of s[start, end), mixed; `seed` gives independent functions. */
export function hashString32(s: string, seed = 0, start = 0, end = s.length): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h ^ (end - start));
}

/** 2^32 as a number. */
const TWO32 = 4294967296;

/** Packs two 32-bit words into one non-negative safe integer (< 2^53). */
export function to53(hi: number, lo: number): number {
  return (hi & 0x1fffff) * TWO32 + (lo >>> 0);
}

/** A 53-bit hash of a whole string (two independent 32-bit FNV-1a hashes packed). */
export function hashString53(s: string): number {
  return to53(hashString32(s, 0x27d4eb2f), hashString32(s, 0x165667b1));
}
