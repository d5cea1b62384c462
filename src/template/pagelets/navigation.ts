/**
 * Navigation pagelets (our extension of paper 3, section 3.2): a pagelet made of links whose words change
 * from page to page (prev/next bars, the open section of a menu, a page's own table of contents, a
 * breadcrumb) is the same *navigational unit* on every page of a template, yet no two of its copies have
 * equal words, so the shingle of its words (shingle.ts) never repeats and Figure 5 never finds it.
 * Paper 3 defines pagelets by their links (Definition 2: "a navigational unit"), and such a unit is known
 * by its place in the page and its structure rather than by its words. So, per page (no state across
 * pages, as the rest of the per-page work):
 *  - the page's *content region*: from the page's `<main>` element down (HTML's element for "the dominant
 *    contents of the body", or the one element with `role="main"`; the body when the page has no single
 *    one), the deepest element holding at least `CONTENT_SHARE` of that start's text outside links (of all
 *    its text when there is none: a listing of links). Starting at `<main>` keeps a listing's links in the
 *    content even where the footer holds more prose than the listing;
 *  - a *navigation pagelet*: one that holds text inside a link, that lies outside the content region (neither inside it nor around it), and that is not
 *    the pagelet with the most text inside `<main>` (or the body): a page whose content is a listing of
 *    links (an index of a section, cards) has little prose, often beside the listing;
 *  - its shingle is then taken over its *structure*: the tag names on the path from `<body>` to it, then
 *    its own tags, without words (digits and link targets neither). Two prev/next bars, or two open menu
 *    sections of different lengths (a repeated `li a` pattern gives the same set of w-shingles), at the
 *    same place of two pages get the same fingerprint, and Figure 5 (or Figure 4) decides as for any
 *    pagelet whether it is a template: on enough pages, owned by connected pages.
 * Content never gets a structural shingle: the content region and what surrounds it keep their words; a
 * list of links inside an article is in the content region. Two extensions (options, on by default):
 *  - `landmarks`: a pagelet of links inside one of HTML's landmarks (partition.ts `isLandmark`: a `<nav>`,
 *    `<header>`, `<footer>`, `<aside>` or their ARIA roles) is a navigation pagelet wherever it lies: the
 *    page itself says it surrounds the content. On a short page the content region is the whole article
 *    (its breadcrumb holds as much prose as its heading), and without this the breadcrumb and the edit
 *    link of the article's footer would be shingled by their words there and by their structure on the
 *    long pages, so neither would repeat. Its structural shingle then takes the path from its nearest
 *    landmark (not from `<body>`): a breadcrumb above an article and the same breadcrumb in a generated
 *    index page lie at different depths of the layout but are one unit;
 *  - `items` (shingle.ts `navigationFingerprint`): a bar's list items count alike, linked or not, so a bar
 *    whose current entry is plain text (an API reference's highlighted cell, a breadcrumb's last crumb)
 *    has the shape of the same bar on the other pages.
 */
import { firstElementChild, NodeKind, tagId, type Tree } from '../../html/tree.ts';
import { isNonText } from '../../html/text.ts';
import { PAGELET_DEFAULTS } from './defaults.ts';
import { isLandmark, isLink, ROLE_MAIN, tagFacts } from './partition.ts';
import { navigationFingerprint, type ShingleOptions } from './shingle.ts';

/** Share of the text outside links that the content region holds (defaults.ts `contentShare`). */
export const CONTENT_SHARE: number = PAGELET_DEFAULTS.contentShare;


/** Per node: text characters of its subtree, all and inside links (prefix sums over preorder). */
function textSums(tree: Tree): { all: Float64Array; link: Float64Array } {
  const n = tree.size;
  const all = new Float64Array(n + 1);
  const link = new Float64Array(n + 1);
  let linkEnd = -1;
  for (let i = 0; i < n; i++) {
    if (i >= linkEnd) linkEnd = -1;
    const k = tree.kind[i];
    if (k === NodeKind.Element && linkEnd < 0 && isLink(tree, i)) linkEnd = tree.end[i]!;
    let t = 0;
    if (k === NodeKind.Text && !insideNonText(tree, i)) t = tree.textEnd[i]! - tree.textStart[i]!;
    all[i + 1] = all[i]! + t;
    link[i + 1] = link[i]! + (linkEnd >= 0 ? t : 0);
  }
  return { all, link };
}

function insideNonText(tree: Tree, i: number): boolean {
  const p = tree.parent[i]!;
  return p >= 0 && isNonText(tree, p);
}

/** The element the content region is looked for in: the page's single `<main>` (or `role="main"`), else the body. */
function mainElement(tree: Tree): number {
  let found = -1;
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element || (tree.name[i] !== MAIN && (tagFacts(tree, i) & ROLE_MAIN) === 0)) continue;
    if (found >= 0 && !tree.contains(found, i)) return tree.body();
    if (found < 0) found = i;
  }
  return found >= 0 ? found : tree.body();
}
const MAIN = tagId('main');

/** The nearest landmark (partition.ts `isLandmark`) that is or holds node v; -1 when there is none. */
function landmarkOf(tree: Tree, v: number): number {
  for (let a = v; a >= 0; a = tree.parent[a]!) if (isLandmark(tree, a)) return a;
  return -1;
}

/** Options of `navigationShingles`. */
export interface NavigationOptions extends ShingleOptions {
  /** Share of the prose the content region holds (`CONTENT_SHARE`). */
  contentShare?: number;
  /** Pagelets of links inside a landmark (partition.ts `isLandmark`) are navigation wherever they are. */
  landmarks?: boolean;
  /** Shingle the items of a bar alike, linked or not (shingle.ts `navigationFingerprint`). */
  items?: boolean;
}

/** The content region of a page (see the module comment); -1 when it has no text. */
export function contentRegion(tree: Tree, sums = textSums(tree), start = mainElement(tree), share = CONTENT_SHARE): number {
  const body = start;
  const { all, link } = sums;
  const prose = (r: number): number => all[tree.end[r]!]! - all[r]! - (link[tree.end[r]!]! - link[r]!);
  const text = (r: number): number => all[tree.end[r]!]! - all[r]!;
  const amount = prose(body) > 0 ? prose : text;
  const total = amount(body);
  if (total <= 0) return -1;
  let region = body;
  for (;;) {
    const next = firstElementChild(tree, region, (c) => amount(c) >= share * total);
    if (next < 0) return region;
    region = next;
  }
}

/**
 * Replaces, in `shingles` (one per pagelet, from `shinglePagelets`), the fingerprint of every navigation
 * pagelet by its structural fingerprint. Returns how many were replaced.
 */
export function navigationShingles(tree: Tree, pagelets: Int32Array, shingles: Float64Array, options: NavigationOptions = {}): number {
  if (pagelets.length === 0) return 0;
  const sums = textSums(tree);
  const main = mainElement(tree);
  // A region that is the whole body says nothing (no element holds most of the prose): only the largest
  // pagelet is then protected, so that a menu is navigation on short pages as on long ones.
  let region = contentRegion(tree, sums, main, options.contentShare ?? CONTENT_SHARE);
  if (region === tree.body()) region = -1;
  // The pagelet with the most text in <main> (or the body) is content whatever its links (a listing).
  let largest = -1;
  for (let p = 0; p < pagelets.length; p++) {
    const v = pagelets[p]!;
    if (!tree.contains(main, v)) continue;
    const t = sums.all[tree.end[v]!]! - sums.all[v]!;
    if (largest < 0 || t > sums.all[tree.end[pagelets[largest]!]!]! - sums.all[pagelets[largest]!]!) largest = p;
  }
  const landmarks = options.landmarks === true;
  const shape = { ...options, landmark: -1 };
  let replaced = 0;
  for (let p = 0; p < pagelets.length; p++) {
    const v = pagelets[p]!;
    if (shingles[p]! < 0) continue;
    const e = tree.end[v]!;
    if (sums.link[e]! - sums.link[v]! <= 0) continue;
    // What HTML itself marks as around the content (a landmark) needs no content region to tell.
    const landmark = landmarks ? landmarkOf(tree, v) : -1;
    if (landmark < 0) {
      if (p === largest) continue;
      if (region >= 0 && (tree.contains(v, region) || tree.contains(region, v))) continue;
    }
    shape.landmark = landmark;
    shingles[p] = navigationFingerprint(tree, v, shape);
    replaced++;
  }
  return replaced;
}
