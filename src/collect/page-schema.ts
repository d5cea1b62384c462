/**
 * The page schema and page similarity (paper 4, section 2): "the page-schema of a page p, denoted ∆(p), is
 * the set of tag-lists in p", and "Page similarity": sim(pi, pj) = J(∆(pi), ∆(pj)), the Jaccard coefficient
 * |X ∩ Y| / |X ∪ Y| of the two schemas; two pages are similar when sim >= T (T = 0.85, footnote 2).
 *
 * One choice the paper leaves open: the schema leaves out the tag-lists of collections whose links all
 * leave the site (`LinkCollection.offSite`: social-media buttons, an article's external references). They
 * lead to no page of the site INDESIT crawls, and on the corpus they are what varies between pages of one
 * class: jekyll-blog posts have 1 distinct schema without them and 3 with them, and 4 unlabelled pages
 * (about, categories…) join the posts when in-site content links are dropped instead (a measured
 * alternative, `inlineLinks: false`).
 *
 * A schema is a sorted Int32Array of distinct tag-list ids (link-collections.ts), so the Jaccard coefficient
 * is one merge of two integer arrays, with no allocation.
 */
import type { LinkCollection } from './link-collections.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';

/** ∆(p): the distinct tag-list ids of a page, ascending. */
export type PageSchema = Int32Array;

/** Options of `schemaOf`. */
export interface SchemaOptions {
  /** Keep the tag-lists of links in running text (`LinkCollection.inline`). Default true, as in the paper. */
  inlineLinks?: boolean;
  /** Keep the tag-lists of collections whose links all leave the site. Default false (module comment). */
  offSiteLinks?: boolean;
}

/** The schema of a page from its link collections. */
export function schemaOf(collections: readonly LinkCollection[], options: SchemaOptions = {}): PageSchema {
  const keepInline = options.inlineLinks ?? true;
  const keepOff = options.offSiteLinks ?? COLLECT_DEFAULTS.offSiteLinks;
  const ids = new Int32Array(collections.length);
  let n = 0;
  for (let k = 0; k < collections.length; k++) {
    const c = collections[k]!;
    if ((keepInline || !c.inline) && (keepOff || !c.offSite)) ids[n++] = c.tagList;
  }
  ids.subarray(0, n).sort();
  let w = 0;
  for (let r = 0; r < n; r++) if (w === 0 || ids[r] !== ids[w - 1]) ids[w++] = ids[r]!;
  return ids.slice(0, w);
}

/** Size of the intersection of two sorted id sets. */
export function intersectionSize(a: PageSchema, b: PageSchema): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/**
 * J(X, Y) = |X ∩ Y| / |X ∪ Y|. Two empty schemas (pages without links) are identical: 1; an empty and a
 * non-empty one share nothing: 0.
 */
export function jaccard(a: PageSchema, b: PageSchema): number {
  if (a.length === 0 && b.length === 0) return 1;
  const inter = intersectionSize(a, b);
  return inter / (a.length + b.length - inter);
}

/** True when sim(a, b) >= T. */
export function similar(a: PageSchema, b: PageSchema, threshold: number = COLLECT_DEFAULTS.similarity): boolean {
  // Cheap bound first: J <= min/max of the sizes.
  const lo = Math.min(a.length, b.length);
  const hi = Math.max(a.length, b.length);
  if (hi > 0 && lo / hi < threshold) return false;
  return jaccard(a, b) >= threshold;
}

/** True when two schemas are the same set (same cluster, in the paper's strict sense). */
export function sameSchema(a: PageSchema, b: PageSchema): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** A 32-bit hash of a schema (FNV-1a over its ids), for grouping identical schemas. */
export function schemaHash(s: PageSchema): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) {
    h ^= s[k]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
