/**
 * Shingles of pagelets: paper 3, section 3.2 ("We use the shingling technique of Broder et al. [4] to
 * determine almost-similarities. A shingle is a text fingerprint that is invariant under small
 * perturbations. We associate with each template T a shingle s(T), and require each pagelet p ∈ T to
 * satisfy s(p) = s(T).")
 *
 * Our choice, in three steps:
 *  1. Normalisation. A pagelet's content C(p) becomes a sequence of 32-bit tokens: one per element (its tag
 *     name only: classes such as "active" or "current" change from page to page inside one menu), one per
 *     word of text (lowercased; words are runs of letters and digits), and one per hyperlink target (the
 *     canonical absolute URL, so `../api/` and `api/` written on pages at different depths agree).
 *     Scripts, styles and other non-text elements give their tag token only (ad code varies per page).
 *  2. w-shingles (Broder's "syntactic clustering"): every window of w consecutive tokens (w = 4 by
 *     default) is hashed twice, into a 64-bit shingle (two independent 32-bit halves, like Broder's 64-bit
 *     Rabin fingerprints). A pagelet shorter than w has one shingle, its whole sequence.
 *  3. Min-hash fingerprint: for each of m hash functions, the shingle whose mixed value is smallest; the m
 *     chosen 64-bit shingles are combined into one 53-bit safe integer, s(p). Two pagelets have equal
 *     fingerprints with probability about J^m where J is the Jaccard resemblance of their shingle sets:
 *     equal pagelets always agree, pagelets that differ in a word or two agree most of the time, unrelated
 *     pagelets almost never. Identity uses the chosen shingle itself (64 bits), not the small minimum
 *     value, so unrelated large pagelets do not collide by the birthday effect on minima.
 * Pagelets with no word and no link (an `<hr>`, an empty anchor, a lone script) have no fingerprint
 * (`NO_SHINGLE`): they carry no evidence either way and never become template.
 */
import { NodeKind, tagId, tagName, type Tree } from '../../html/tree.ts';
import { isNonText } from '../../html/text.ts';
import { combine32, fmix32, hashString32, to53 } from '../../html/hash.ts';
import { isLink } from './partition.ts';

/** The fingerprint of a pagelet that has no words and no links. */
export const NO_SHINGLE = -1;

/** Shingle options. */
export interface ShingleOptions {
  /** Width w of the w-shingles (default 4). */
  width?: number;
  /** Number m of min-hash functions (default 4). */
  minhashes?: number;
  /** Give each hyperlink's target URL a token (default false: see the module comment). */
  linkTargets?: boolean;
  /** Fold every word made only of digits into one token (default true: see the module comment). */
  foldDigits?: boolean;
}

const DIGITS_TOKEN = 0x2c1b3c6d;

const TAG_SALT = 0x6a09e667;
const LINK_SALT = 0xbb67ae85;
const WORD_SEED = 0x3c6ef372;
const SEED_A = 0xa54ff53a;
const SEED_B = 0x510e527f;
/** Seeds of the min-hash functions (fixed: fingerprints must agree across runs and workers). */
const MINHASH_SEEDS = [0x9b05688c, 0x1f83d9ab, 0x5be0cd19, 0xcbbb9d5d, 0x629a292a, 0x9159015a, 0x152fecd8, 0x67332667];

/**
 * Token of a tag, by tag *name*: tag ids are interned per thread in first-seen order (tree.ts), so hashing
 * the id would give different shingles in different worker threads and runs. Cached per id.
 */
let tagTokens = new Int32Array(256);
let tagKnown = new Uint8Array(256);
function tagToken(id: number): number {
  if (id >= tagTokens.length) {
    const n = Math.max(id + 1, tagTokens.length * 2);
    const t = new Int32Array(n);
    t.set(tagTokens);
    const k = new Uint8Array(n);
    k.set(tagKnown);
    tagTokens = t;
    tagKnown = k;
  }
  if (tagKnown[id] === 0) {
    tagTokens[id] = hashString32(tagName(id), TAG_SALT) | 0;
    tagKnown[id] = 1;
  }
  return tagTokens[id]!;
}

/** A reusable buffer of tokens (grows by doubling; one per thread). */
let tokens = new Int32Array(1024);
function push(n: number, t: number): number {
  if (n >= tokens.length) {
    const b = new Int32Array(tokens.length * 2);
    b.set(tokens);
    tokens = b;
  }
  tokens[n] = t;
  return n + 1;
}

/** True for a UTF-16 code unit that is part of a word (letters and digits; see `words` in the eval). */
function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  if (c < 0xc0) return c === 0xaa || c === 0xb5 || c === 0xba;
  if (c === 0xd7 || c === 0xf7) return false;
  // General punctuation, CJK punctuation, fullwidth ASCII punctuation, specials: not word characters.
  if ((c >= 0x2000 && c <= 0x2bff) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xfe30 && c <= 0xfe4f)) return false;
  if ((c >= 0xff00 && c <= 0xff0f) || c >= 0xfff0) return false;
  return true;
}
/** Case folding of the common cases (ASCII and Latin-1); other scripts keep their case. */
function fold(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  if (c >= 0xc0 && c <= 0xde && c !== 0xd7) return c + 32;
  return c;
}

/**
 * Per Latin-1 code unit: its folded form when it is a word character, else 0 (`isWordChar` and `fold`
 * read once from a table: most text of most pages is ASCII).
 */
const LATIN1_WORD = (() => {
  const t = new Uint16Array(256);
  for (let c = 1; c < 256; c++) if (isWordChar(c)) t[c] = fold(c);
  return t;
})();

/** Words `wordTokens` appended on its last call. */
let wordsFound = 0;

/**
 * Appends the word tokens of tree.text[start, end) to the buffer; returns the new length (`wordsFound`
 * the words appended).
 */
function wordTokens(text: string, start: number, end: number, n: number, foldDigits: boolean): number {
  let words = 0;
  let h = 0;
  let inWord = false;
  let digits = true;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 32;
    const f = c < 256 ? LATIN1_WORD[c]! : isWordChar(c) ? c : 0;
    if (f !== 0) {
      if (!inWord) {
        h = WORD_SEED;
        inWord = true;
        digits = true;
      }
      if (c < 48 || c > 57) digits = false;
      h = Math.imul(h ^ f, 0x01000193);
    } else if (inWord) {
      n = push(n, foldDigits && digits ? DIGITS_TOKEN : fmix32(h) | 0);
      words++;
      inWord = false;
    }
  }
  wordsFound = words;
  return n;
}

/** Tokens of one pagelet (the subtree of `v`) into the shared buffer; `links` supplies link-target hashes. */
function pageletTokens(tree: Tree, v: number, linkAt: (node: number) => number, targets: boolean, foldDigits: boolean): { n: number; content: boolean } {
  let n = 0;
  let content = false;
  const last = tree.end[v]!;
  for (let i = v; i < last; i++) {
    const kind = tree.kind[i];
    if (kind === NodeKind.Element) {
      n = push(n, tagToken(tree.name[i]!));
      const dest = linkAt(i);
      if (dest >= 0) {
        if (targets) n = push(n, fmix32((dest % 4294967296) ^ LINK_SALT) | 0);
        content = true;
      }
      if (isNonText(tree, i)) i = tree.end[i]! - 1;
    } else if (kind === NodeKind.Text) {
      n = wordTokens(tree.text, tree.textStart[i]!, tree.textEnd[i]!, n, foldDigits);
      if (wordsFound > 0) content = true;
    }
  }
  return { n, content };
}

const minKey = new Uint32Array(MINHASH_SEEDS.length);
const argA = new Int32Array(MINHASH_SEEDS.length);
const argB = new Int32Array(MINHASH_SEEDS.length);

/** The min-hash fingerprint (53-bit) of the token sequence tokens[0, n). */
function fingerprint(n: number, w: number, m: number): number {
  for (let j = 0; j < m; j++) minKey[j] = 0xffffffff;
  const count = n < w ? 1 : n - w + 1;
  const width = n < w ? n : w;
  for (let s = 0; s < count; s++) {
    let a = SEED_A;
    let b = SEED_B;
    for (let t = s, e = s + width; t < e; t++) {
      const x = tokens[t]!;
      a = combine32(a, x);
      b = combine32(b, x ^ 0x2545f491);
    }
    for (let j = 0; j < m; j++) {
      const key = fmix32(a ^ MINHASH_SEEDS[j]!);
      if (key < minKey[j]! || (key === minKey[j]! && s === 0)) {
        minKey[j] = key;
        argA[j] = a;
        argB[j] = b;
      }
    }
  }
  let hi = 0x243f6a88;
  let lo = 0x85a308d3;
  for (let j = 0; j < m; j++) {
    hi = combine32(combine32(hi, argA[j]!), argB[j]!);
    lo = combine32(combine32(lo, argB[j]!), argA[j]!);
  }
  return to53(hi, lo);
}

/**
 * Fingerprints of token sequences seen before: a template's pagelets repeat on every page, so their
 * tokens do too. A direct-mapped table by a hash of (sequence, w, m): a slot holds that hash, the length,
 * and, once the sequence is seen a second time, its tokens (in `seenTokens`, compared in full before use)
 * and fingerprint. Sequences seen once (a page's own content) keep no tokens, and do not take the slot of
 * one that keeps them (the table is emptied when `seenTokens` is full).
 */
const SEEN_SLOTS = 1 << 16;
const seenHash = new Int32Array(SEEN_SLOTS);
const seenLen = new Int32Array(SEEN_SLOTS);
/** Offset of the tokens in `seenTokens`, -1 when seen once (none kept). */
const seenAt = new Int32Array(SEEN_SLOTS);
const seenValue = new Float64Array(SEEN_SLOTS);
/** Tokens kept at most (then the table is emptied and fills again). */
const SEEN_TOKENS = 1 << 20;
const seenTokens = new Int32Array(SEEN_TOKENS);
let seenUsed = 0;

/** `fingerprint(n, w, m)`, from the table when tokens[0, n) were fingerprinted before. */
function fingerprintSeen(n: number, w: number, m: number): number {
  if (n === 0) return fingerprint(0, w, m);
  let h = Math.imul(0x2f3a5b17 ^ n, 0x01000193) ^ (w * 31 + m);
  for (let t = 0; t < n; t++) h = Math.imul(h ^ tokens[t]!, 0x01000193);
  h = fmix32(h) | 0;
  const slot = h & (SEEN_SLOTS - 1);
  if (seenLen[slot] === n && seenHash[slot] === h) {
    const at = seenAt[slot]!;
    if (at >= 0) {
      let same = true;
      for (let t = 0; t < n; t++) {
        if (seenTokens[at + t] !== tokens[t]) {
          same = false;
          break;
        }
      }
      if (same) return seenValue[slot]!;
    } else if (n <= SEEN_TOKENS >> 4) {
      // the second time: keep its tokens and fingerprint
      if (seenUsed + n > SEEN_TOKENS) {
        seenLen.fill(0);
        seenUsed = 0;
      }
      const value = fingerprint(n, w, m);
      seenTokens.set(tokens.subarray(0, n), seenUsed);
      seenHash[slot] = h;
      seenLen[slot] = n;
      seenAt[slot] = seenUsed;
      seenValue[slot] = value;
      seenUsed += n;
      return value;
    }
  }
  if (seenLen[slot] === 0 || seenAt[slot]! < 0) {
    seenHash[slot] = h;
    seenLen[slot] = n;
    seenAt[slot] = -1;
  }
  return fingerprint(n, w, m);
}

/**
 * Fingerprints s(p) of the pagelets of a page (in the order of `pagelets`), `NO_SHINGLE` for pagelets
 * without words or links. `linkNodes`/`linkDest` are the page's links in document order (links.ts).
 */
export function shinglePagelets(
  tree: Tree,
  pagelets: Int32Array,
  linkNodes: Int32Array,
  linkDest: Float64Array,
  options: ShingleOptions = {},
): Float64Array {
  const w = Math.max(1, options.width ?? 4);
  const m = Math.min(MINHASH_SEEDS.length, Math.max(1, options.minhashes ?? 4));
  const targets = options.linkTargets ?? false;
  const foldDigits = options.foldDigits ?? true;
  const out = new Float64Array(pagelets.length);
  let ptr = 0;
  const linkAt = (node: number): number => {
    while (ptr < linkNodes.length && linkNodes[ptr]! < node) ptr++;
    return ptr < linkNodes.length && linkNodes[ptr] === node ? linkDest[ptr]! : -1;
  };
  for (let p = 0; p < pagelets.length; p++) {
    const { n, content } = pageletTokens(tree, pagelets[p]!, linkAt, targets, foldDigits);
    out[p] = content && n > 0 ? fingerprintSeen(n, w, m) : NO_SHINGLE;
  }
  return out;
}

const LI = tagId('li');

/** Salt of the tokens of a pagelet's path (structureFingerprint), so a path tag never equals a tag inside. */
const PATH_SALT = 0x3f84d5b5;

/**
 * The navigation fingerprint of the pagelet rooted at `v` (navigation.ts): min-hash over the w-shingles of
 * the tag names on the path from `<body>` down to `v` (salted), then of its own tokens in document order
 * with the words *inside links* left out (the tags and the other words stay). Same width, min-hashes and
 * digit folding as `shinglePagelets`; link targets never count. With `items`, a list item is one unit of
 * the bar whether it is a link or not: the words inside `<li>` elements and the link tags are left out
 * too, so a bar whose current entry is plain text (the page's own cell, a breadcrumb's last crumb) has
 * the shape of the same bar on the other pages. With `landmark` (the nearest landmark that is or holds
 * `v`, navigation.ts), the path starts at that landmark rather than at `<body>`: a landmark says what it
 * is wherever the layout puts it, and the same breadcrumb sits at other depths on other kinds of pages
 * (a generated index page and an article of one documentation site).
 */
export function navigationFingerprint(tree: Tree, v: number, options: ShingleOptions & { items?: boolean; landmark?: number } = {}): number {
  const w = Math.max(1, options.width ?? 4);
  const m = Math.min(MINHASH_SEEDS.length, Math.max(1, options.minhashes ?? 4));
  const foldDigits = options.foldDigits ?? true;
  const body = tree.body();
  const path: number[] = [];
  const from = options.landmark ?? -1;
  if (from !== v) {
    for (let a = tree.parent[v]!; a >= 0 && a !== body; a = tree.parent[a]!) {
      path.push(a);
      if (a === from) break;
    }
  }
  let n = 0;
  for (let k = path.length - 1; k >= 0; k--) n = push(n, fmix32(tagToken(tree.name[path[k]!]!) ^ PATH_SALT) | 0);
  const last = tree.end[v]!;
  const items = options.items === true;
  let linkEnd = -1;
  let itemEnd = -1;
  for (let i = v; i < last; i++) {
    if (i >= linkEnd) linkEnd = -1;
    if (i >= itemEnd) itemEnd = -1;
    const kind = tree.kind[i];
    if (kind === NodeKind.Element) {
      const link = isLink(tree, i);
      if (!(items && link)) n = push(n, tagToken(tree.name[i]!));
      if (linkEnd < 0 && link) linkEnd = tree.end[i]!;
      if (items && itemEnd < 0 && tree.name[i] === LI) itemEnd = tree.end[i]!;
      if (isNonText(tree, i)) i = tree.end[i]! - 1;
    } else if (kind === NodeKind.Text && linkEnd < 0 && itemEnd < 0) {
      n = wordTokens(tree.text, tree.textStart[i]!, tree.textEnd[i]!, n, foldDigits);
    }
  }
  return fingerprintSeen(n, w, m);
}

/**
 * The fingerprint of a whole page for duplicate elimination (Figure 4 step (1)): an order-sensitive hash
 * of its pagelets' fingerprints. Pages with equal token sequences get equal values.
 */
export function pageFingerprint(shingles: Float64Array): number {
  let hi = 0x13198a2e;
  let lo = 0x03707344;
  for (let p = 0; p < shingles.length; p++) {
    const s = shingles[p]!;
    const a = s < 0 ? 0x7fffffff : s % 4294967296;
    const b = s < 0 ? 0 : Math.floor(s / 4294967296);
    hi = combine32(combine32(hi, a), b);
    lo = combine32(combine32(lo, b), a);
  }
  return to53(hi, combine32(lo, shingles.length));
}
