/**
 * The page schema, one module for every tool that tells page classes apart (INDESIT in src/collect/,
 * `gabarit cluster` in src/cluster/, hyperlink's page classes in src/template/hyperlink/); the page shape
 * beside it (page-shape.ts) groups a whole page set.
 *
 * The page schema and page similarity (paper 4, section 2): "the page-schema of a page p, denoted ∆(p), is
 * the set of tag-lists in p", and "Page similarity": sim(pi, pj) = J(∆(pi), ∆(pj)), the Jaccard coefficient
 * |X ∩ Y| / |X ∪ Y| of the two schemas; two pages are similar when sim >= T (footnote 2: T = 0.85).
 *
 * Departure from the paper: a schema has three parts, compared separately (page-structure.ts builds them),
 *  - `links`: the paper's ∆(p), the features of the page's link collections (link-collections.ts: a
 *    collection's tag-list, the list's path for links in a list, the content area's for the links of the
 *    article);
 *  - `layout`: the page's frame, the paths of its block elements around its content area (layout.ts);
 *  - `content`: the blocks of its content area, one level down (layout.ts `contentOf`);
 * and sim(pi, pj) = min(J(links), J(layout), c), c being 0 when both pages have a content area and the two
 * share no block, 1 otherwise (`contentSim`). The links separate pages whose frame is the same but whose
 * lists differ (an index and an article of one site, sections of a manual told apart by which menu is
 * open); the layout separates pages whose links are the same but whose frame differs; the content
 * separates pages whose links and frame are the same but whose articles have nothing in common (a Javadoc
 * type page and a package summary, a stackoverflow question and a tag list). A schema without a layout
 * (`layout` and `content` empty on both sides) is compared on its links alone, as in the paper. MEASURED:
 * see src/collect/README.md and docs/collect.md.
 *
 * One choice the paper leaves open: whether the links half keeps the tag-lists of collections whose links
 * all leave the site (`LinkCollection.offSite`: social-media buttons, a page's list of external links). It
 * does by default (COLLECT_DEFAULTS.offSiteLinks: they are part of the page's structure); an article's
 * external references are in its content area's one collection either way.
 *
 * Each half is a sorted Int32Array of distinct tag-list ids (link-collections.ts), so a Jaccard coefficient
 * is one merge of two integer arrays, with no allocation.
 */
import type { LinkCollection } from './link-collections.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';

/** A set of tag-list ids, ascending, distinct. */
export type IdSet = Int32Array;

/** ∆(p), the page's frame and the blocks of its content. */
export interface PageSchema {
  /** The tag-lists of the page's link collections (the paper's schema). */
  readonly links: IdSet;
  /** The tag-lists of the page's layout (layout.ts); empty when not computed. */
  readonly layout: IdSet;
  /** The tag-lists of the structure of its content area (layout.ts `contentOf`); empty when none. */
  readonly content: IdSet;
}

/** Options of `schemaOf`. */
export interface SchemaOptions {
  /** Keep the tag-lists of links in running text (`LinkCollection.inline`). Default true, as in the paper. */
  inlineLinks?: boolean;
  /** Keep the tag-lists of collections whose links all leave the site (default COLLECT_DEFAULTS.offSiteLinks). */
  offSiteLinks?: boolean;
}

const NONE: IdSet = new Int32Array(0);

/** The schema of a page from its link collections and (optionally) its layout (layout.ts `layoutOf`). */
export function schemaOf(collections: readonly LinkCollection[], options: SchemaOptions = {}, layout: IdSet = NONE): PageSchema {
  const keepInline = options.inlineLinks ?? true;
  const keepOff = filled(options, COLLECT_DEFAULTS, ['offSiteLinks']).offSiteLinks;
  const ids = new Int32Array(collections.length);
  let n = 0;
  for (let k = 0; k < collections.length; k++) {
    const c = collections[k]!;
    if ((keepInline || !c.inline) && (keepOff || !c.offSite)) ids[n++] = c.feature;
  }
  return { links: distinctSorted(ids.subarray(0, n)), layout, content: NONE };
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

/**
 * The overlap coefficient |X ∩ Y| / min(|X|, |Y|): 1 when one set holds the other (a page without an
 * optional section and one with it). When either set is empty (a page without a content area) there is no
 * evidence either way: 1.
 */
export function overlap(a: IdSet, b: IdSet): number {
  if (a.length === 0 || b.length === 0) return 1;
  return intersectionSize(a, b) / Math.min(a.length, b.length);
}

/** sim(a, b) = min(J(a.links, b.links), J(a.layout, b.layout), overlap(a.content, b.content)) (see the module comment). */
export function similarity(a: PageSchema, b: PageSchema): number {
  return Math.min(jaccard(a.links, b.links), jaccard(a.layout, b.layout), contentSim(a.content, b.content));
}

/**
 * The content half's part in sim: 0 when the two content areas share no block (an API type page and a package
 * summary: a description and member tables, or a table of types), 1 otherwise. Optional sections make the
 * blocks of two pages of one class differ (the overlap coefficient of PEPs goes down to 0.45, of
 * stackoverflow questions with and without answers 0.75), so the content does not grade the similarity;
 * it vetoes pages with nothing in common in their articles.
 */
function contentSim(a: IdSet, b: IdSet): number {
  return overlap(a, b) > 0 ? 1 : 0;
}

/** True when sim(a, b) >= T. */
export function similar(a: PageSchema, b: PageSchema, threshold: number = COLLECT_DEFAULTS.similarity): boolean {
  return boundedJaccard(a.links, b.links, threshold) && boundedJaccard(a.layout, b.layout, threshold) && contentSim(a.content, b.content) >= threshold;
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
  return sameIds(a.links, b.links) && sameIds(a.layout, b.layout) && sameIds(a.content, b.content);
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
  h = Math.imul(h ^ -2, 0x01000193);
  for (let k = 0; k < s.content.length; k++) h = Math.imul(h ^ s.content[k]!, 0x01000193);
  return h >>> 0;
}
