/**
 * The page schema and page similarity (paper 4, section 2): "the page-schema of a page p, denoted ∆(p), is
 * the set of tag-lists in p", and "Page similarity": sim(pi, pj) = J(∆(pi), ∆(pj)), the Jaccard coefficient
 * |X ∩ Y| / |X ∪ Y| of the two schemas; two pages are similar when sim >= T (footnote 2: T = 0.85).
 *
 * Departure from the paper: a schema has two halves, compared separately,
 *  - `links`: the paper's ∆(p), the tag-lists of the page's link collections (link-collections.ts);
 *  - `layout`: the page's layout, the paths of its block elements around its text region (layout.ts);
 * and sim(pi, pj) = min(J(links), J(layout)): two pages are similar when both their links and their layout
 * are. The links separate pages whose frame is the same but whose lists differ (an index and an article of
 * one site, sections of a manual told apart by which menu is open); the layout separates pages whose links
 * are the same but whose frame differs (a Javadoc type page and a package page). Either half alone is
 * the paper's model or its mirror image; a schema without a layout (`layout` empty on both sides) is
 * compared on its links alone, as in the paper. MEASURED: see src/collect/README.md and docs/collect.md.
 *
 * One choice the paper leaves open: the links half leaves out the tag-lists of collections whose links all
 * leave the site (`LinkCollection.offSite`: social-media buttons, an article's external references). They
 * lead to no page of the site INDESIT crawls, and on the corpus they are what varies between pages of one
 * class (jekyll-blog posts have 1 distinct schema without them and 3 with them).
 *
 * Each half is a sorted Int32Array of distinct tag-list ids (link-collections.ts), so a Jaccard coefficient
 * is one merge of two integer arrays, with no allocation.
 */
import type { LinkCollection } from './link-collections.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';

/** A set of tag-list ids, ascending, distinct. */
export type IdSet = Int32Array;

/** ∆(p) and the page's layout. */
export interface PageSchema {
  /** The tag-lists of the page's link collections (the paper's schema). */
  readonly links: IdSet;
  /** The tag-lists of the page's layout (layout.ts); empty when not computed. */
  readonly layout: IdSet;
}

/** Options of `schemaOf`. */
export interface SchemaOptions {
  /** Keep the tag-lists of links in running text (`LinkCollection.inline`). Default true, as in the paper. */
  inlineLinks?: boolean;
  /** Keep the tag-lists of collections whose links all leave the site. Default false (module comment). */
  offSiteLinks?: boolean;
}

const NONE: IdSet = new Int32Array(0);

/** The schema of a page from its link collections and (optionally) its layout (layout.ts `layoutOf`). */
export function schemaOf(collections: readonly LinkCollection[], options: SchemaOptions = {}, layout: IdSet = NONE): PageSchema {
  const keepInline = options.inlineLinks ?? true;
  const keepOff = options.offSiteLinks ?? COLLECT_DEFAULTS.offSiteLinks;
  const ids = new Int32Array(collections.length);
  let n = 0;
  for (let k = 0; k < collections.length; k++) {
    const c = collections[k]!;
    if ((keepInline || !c.inline) && (keepOff || !c.offSite)) ids[n++] = c.tagList;
  }
  return { links: distinctSorted(ids.subarray(0, n)), layout };
}

/** The distinct values of `ids`, ascending (a new array). */
export function distinctSorted(ids: Int32Array): IdSet {
  const s = Int32Array.from(ids).sort();
  let w = 0;
  for (let r = 0; r < s.length; r++) if (w === 0 || s[r] !== s[w - 1]) s[w++] = s[r]!;
  return s.slice(0, w);
}

/** Size of the intersection of two sorted id sets. */
export function intersectionSize(a: IdSet, b: IdSet): number {
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
 * J(X, Y) = |X ∩ Y| / |X ∪ Y|. Two empty sets (pages without links) are identical: 1; an empty and a
 * non-empty one share nothing: 0.
 */
export function jaccard(a: IdSet, b: IdSet): number {
  if (a.length === 0 && b.length === 0) return 1;
  const inter = intersectionSize(a, b);
  return inter / (a.length + b.length - inter);
}

/** sim(a, b) = min(J(a.links, b.links), J(a.layout, b.layout)) (see the module comment). */
export function similarity(a: PageSchema, b: PageSchema): number {
  return Math.min(jaccard(a.links, b.links), jaccard(a.layout, b.layout));
}

/** True when sim(a, b) >= T. */
export function similar(a: PageSchema, b: PageSchema, threshold: number = COLLECT_DEFAULTS.similarity): boolean {
  return boundedJaccard(a.links, b.links, threshold) && boundedJaccard(a.layout, b.layout, threshold);
}

/** J(a, b) >= T, the cheap size bound first (J <= min/max of the sizes). */
function boundedJaccard(a: IdSet, b: IdSet, threshold: number): boolean {
  const lo = Math.min(a.length, b.length);
  const hi = Math.max(a.length, b.length);
  if (hi > 0 && lo / hi < threshold) return false;
  return jaccard(a, b) >= threshold;
}

/** True when two schemas are the same (same cluster, in the paper's strict sense). */
export function sameSchema(a: PageSchema, b: PageSchema): boolean {
  return sameIds(a.links, b.links) && sameIds(a.layout, b.layout);
}

function sameIds(a: IdSet, b: IdSet): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** A 32-bit hash of a schema (FNV-1a over its ids, the halves separated), for grouping identical schemas. */
export function schemaHash(s: PageSchema): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.links.length; k++) h = Math.imul(h ^ s.links[k]!, 0x01000193);
  h = Math.imul(h ^ -1, 0x01000193);
  for (let k = 0; k < s.layout.length; k++) h = Math.imul(h ^ s.layout[k]!, 0x01000193);
  return h >>> 0;
}
