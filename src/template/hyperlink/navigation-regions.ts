/**
 * Navigation regions: template regions whose *text* changes from page to page but is made of links (a
 * per-page table of contents, prev/next links, breadcrumbs, "up" links). An extension of paper 2 (Alarte
 * et al., "Web Template Extraction Based on Hyperlink Analysis") that we document as ours:
 *
 * With node equality on text (node-equality.ts, `text: 'exact'`), the ETDM maps such a region's elements
 * (same classes, same places) but not its texts (they differ), so Definition 3.3's template holds the
 * region's skeleton and leaves its words as content. The paper's own observation, that menus are "one of
 * the higher densities of links in a webpage" (section 6), tells them apart from the main content slot,
 * whose changing text is prose: a template element R of the key page is a navigation region when, on the
 * key page and on the image of R in every CS page, the text of R that is *not* template is at least
 * `linkShare` (by characters) inside links, and at least one of these pages has such text (with
 * `decidedBy: 'key'`, the key page alone decides, R having an image on every CS page: a bar whose entries
 * are links on some pages and plain words on others, as a class's "Summary: Nested | Field | Method" in a
 * Javadoc, is navigation even where the CS page has it as plain words). Only topmost
 * regions are kept. Inside the key page's *content slot* (the deepest template element holding at least
 * `slotShare` of the key page's changing non-link text: the main content's container) a region must also
 * be mostly fixed text on the key page (at least as many template characters as changing ones): a
 * prev/next bar or a breadcrumb inside the content container ("Next: <a>1.1.3</a>, Previous: …") is
 * navigation, while a list of links made of changing words (an article's own table of contents) is
 * content. Outside the slot, a region never holds more changing text than the slot (an index page's cards
 * or list of posts are its content, beside a heading that is all its prose) unless, with `bars`, it is
 * mostly fixed text counted in text items (`mostlyFixed`), as a prev/next bar beside a stub page's one heading is. Every node of a navigation region (and of its image on any page marked, when that
 * image passes the same test) is template.
 */
import { firstElementChild, NodeKind, tagId, type Tree } from '../../html/tree.ts';
import { hasWord, VariableText, WORD } from '../variable-text.ts';
import { HYPERLINK_DEFAULTS, type UnmappedCells } from './defaults.ts';

// Shared with the align engine's navigation regions; re-exported for the tests and page-marks.ts.
export { hasWord, VariableText } from '../variable-text.ts';

/** One CS page as seen by the region test: its tree, the ETDM from the key page, the template's image. */
export interface MappedPage {
  tree: Tree;
  map: Int32Array;
  /** 1 on the page's nodes that are images of template nodes. */
  marks: Uint8Array;
}

/**
 * The topmost navigation regions of the key page's template (node indices of the key tree), in preorder.
 * `pages` are the CS pages whose ETDM was used for the template.
 */
export function navigationRegions(
  keyTree: Tree, template: Uint8Array, pages: readonly MappedPage[],
  linkShare: number = HYPERLINK_DEFAULTS.navigationLinkShare, slotShare: number = HYPERLINK_DEFAULTS.contentSlotShare,
  decidedBy: 'all' | 'key' = HYPERLINK_DEFAULTS.regionsDecidedBy, bars: boolean = HYPERLINK_DEFAULTS.navigationBars,
): number[] {
  const keyVar = new VariableText(keyTree, template);
  const slot = contentSlot(keyTree, template, keyVar, slotShare);
  const pageVar = pages.map((p) => new VariableText(p.tree, p.marks));
  const html = tagId('html');
  const body = tagId('body');
  const head = tagId('head');
  const out: number[] = [];
  for (let r = 1; r < keyTree.size; ) {
    const nm = keyTree.name[r];
    if (template[r] !== 1 || keyTree.kind[r] !== NodeKind.Element) {
      r = template[r] !== 1 ? keyTree.end[r]! : r + 1;
      continue;
    }
    if (nm === head) {
      r = keyTree.end[r]!;
      continue;
    }
    if (nm === html || nm === body || (slot >= 0 && keyTree.contains(r, slot))) {
      r++;
      continue;
    }
    let some = keyVar.text(r) > 0;
    let ok = keyVar.navigational(r, linkShare);
    for (let k = 0; ok && k < pages.length; k++) {
      const j = pages[k]!.map[r]!;
      if (j < 0) {
        ok = false;
        break;
      }
      if (decidedBy === 'key') continue;
      if (pageVar[k]!.text(j) > 0) some = true;
      ok = pageVar[k]!.navigational(j, linkShare);
    }
    // Inside the content slot, only a pagelet that is mostly fixed text (a prev/next bar, a breadcrumb)
    // is navigation; a list of links made of changing words (an article's own contents) is content.
    if (slot >= 0 && r !== slot && keyTree.contains(slot, r) && keyVar.fixed(r) < keyVar.text(r)) {
      ok = false;
    }
    // A region never holds more of the key page's changing text than its content slot: on an index page
    // (cards, a list of posts) the links are the content, whatever little prose sits beside them. With
    // `bars`, a region that is mostly fixed text (a prev/next bar beside a stub page's one heading) still is.
    if (slot >= 0 && !keyTree.contains(slot, r) && keyVar.text(r) > keyVar.text(slot) && !(bars && keyVar.mostlyFixed(r))) ok = false;
    if (ok && some) {
      out.push(r);
      r = keyTree.end[r]!;
    } else r++;
  }
  return out;
}

/**
 * The content slot of the key page: the deepest template element whose subtree holds at least `share` of
 * the body's variable prose (non-template text outside links) or, on a page without variable prose in its
 * body (an index whose content is a list of links, a grid of cards), of its variable text; -1 when nothing
 * in the body varies.
 */
export function contentSlot(tree: Tree, template: Uint8Array, v: VariableText, share: number): number {
  // From <body>: the head's text (a page's <title>) is never the content.
  const body = tree.body();
  const byProse = v.prose(body) > 0;
  const amount = (r: number): number => (byProse ? v.prose(r) : v.text(r));
  const total = amount(body);
  if (total <= 0) return -1;
  let slot = template[body] === 1 ? body : -1;
  let r = body;
  // Walk down: at each step, the child (template element) still holding >= share of the amount.
  for (;;) {
    const next = firstElementChild(tree, r, (c) => template[c] === 1 && amount(c) >= share * total);
    if (next < 0) break;
    slot = next;
    r = next;
  }
  return slot;
}

/**
 * Extends a page's template marks with the images of the navigation regions: the subtree of `map[r]` is
 * marked when its variable text (against `marks`) is navigational or, with `decidedBy: 'key'` (the key
 * page decided), when it lies outside the page's content slot (neither holding it nor, inside it, more
 * changing text than fixed). Returns how many regions were applied.
 */
export function markNavigationRegions(
  tree: Tree, marks: Uint8Array, map: Int32Array, regions: readonly number[],
  linkShare: number = HYPERLINK_DEFAULTS.navigationLinkShare, decidedBy: 'all' | 'key' = HYPERLINK_DEFAULTS.regionsDecidedBy,
  slotShare: number = HYPERLINK_DEFAULTS.contentSlotShare,
): number {
  if (regions.length === 0) return 0;
  const v = new VariableText(tree, marks);
  const slot = decidedBy === 'key' ? contentSlot(tree, marks, v, slotShare) : -1;
  const outside = (j: number): boolean => slot < 0 || (!tree.contains(j, slot) && (!tree.contains(slot, j) || v.fixed(j) >= v.text(j)));
  const roots: number[] = [];
  for (const r of regions) {
    const j = map[r] ?? -1;
    if (j >= 0 && (decidedBy === 'key' ? outside(j) : v.navigational(j, linkShare))) roots.push(j);
  }
  for (const j of roots) marks.fill(1, j, tree.end[j]!);
  return roots.length;
}

/**
 * Navigation cells (ours): a bar's cell whose words change from page to page: a breadcrumb's current entry
 * (plain text) or its entries above the pages' common folder (links), a Javadoc bar's "Prev Class" written
 * as plain text on the first class. The ETDM maps the cell's element (same place, same classes) but not its
 * text, so the text would be content, and a navigation region (below) does not take a bar whose changing
 * text is plain words. In a template element P (below `<body>`, holding no words of its own) whose element
 * children that hold words are all of one tag (a list's items, a row's cells), a child is a *fixed cell*
 * when it is template and all its words are template, a *changing cell* when it is template and none of its
 * words is template, and they are all plain text or all inside links. When every word-holding child is one
 * or the other and some fixed cell holds a link, P is a bar and the words of its changing cells are
 * template. Two more kinds of cell, for breadcrumbs:
 *  - a *fixed icon link*: a mapped cell without words whose mapped link is named by an attribute (a home
 *    icon: `<a aria-label="Home"><svg>`, an `<img alt>`, a `title`) counts as the bar's fixed link, its
 *    words being in its name rather than its text;
 *  - an *unmapped cell* (`unmapped`): a cell of the bar's tag that the ETDM left unmapped, holding no
 *    template words, all plain text or all links, is a changing cell when another changing cell is mapped,
 *    and P is a breadcrumb by its markup (`'breadcrumbs'`: `breadcrumbish`) or anywhere (`'anywhere'`). A
 *    breadcrumb one folder deeper than the CS pages' has one entry more, which the ETDM cannot map. Its
 *    elements are marked with its words, so that the template holds the cell. Not with `'none'`.
 * Marks are an ETDM's (elements marked when mapped, before page-marks.ts `followText`); changed in place.
 * Returns the number of cells marked.
 */
export function markNavigationCells(tree: Tree, marks: Uint8Array, unmapped: UnmappedCells = HYPERLINK_DEFAULTS.unmappedCells): number {
  const n = tree.size;
  const a = tagId('a');
  const tplWords = new Int32Array(n + 1);
  const varWords = new Int32Array(n + 1);
  const varLinkWords = new Int32Array(n + 1);
  const links = new Int32Array(n + 1);
  let linkEnd = -1;
  for (let i = 0; i < n; i++) {
    if (i >= linkEnd) linkEnd = -1;
    const isLink = tree.kind[i] === NodeKind.Element && tree.name[i] === a && tree.attr(i, 'href') !== undefined;
    if (isLink && linkEnd < 0) linkEnd = tree.end[i]!;
    const word = tree.kind[i] === NodeKind.Text && hasWord(tree, i);
    tplWords[i + 1] = tplWords[i]! + (word && marks[i] === 1 ? 1 : 0);
    varWords[i + 1] = varWords[i]! + (word && marks[i] !== 1 ? 1 : 0);
    varLinkWords[i + 1] = varLinkWords[i]! + (word && marks[i] !== 1 && linkEnd >= 0 ? 1 : 0);
    links[i + 1] = links[i]! + (isLink ? 1 : 0);
  }
  const sum = (p: Int32Array, i: number): number => p[tree.end[i]!]! - p[i]!;
  const body = tree.body();
  let marked = 0;
  const changing: number[] = [];
  for (let p = body + 1; p < n; p++) {
    if (tree.kind[p] !== NodeKind.Element || marks[p] !== 1 || !tree.contains(body, p)) continue;
    changing.length = 0;
    let linked = false;
    let bar = true;
    let tag = -1;
    let iconTag = -1;
    let gaps = 0;
    const gapsHere = unmapped === 'anywhere' || (unmapped === 'breadcrumbs' && breadcrumbish(tree, p));
    for (let c = tree.firstChild(p); c >= 0 && bar; c = tree.nextSibling(c)) {
      if (tree.kind[c] !== NodeKind.Element) {
        if (tree.kind[c] === NodeKind.Text && hasWord(tree, c)) bar = false;
        continue;
      }
      const t = sum(tplWords, c);
      const v = sum(varWords, c);
      if (t === 0 && v === 0) {
        if (iconTag < 0 && marks[c] === 1 && sum(links, c) > 0 && namedLink(tree, marks, c)) iconTag = tree.name[c]!;
        continue;
      }
      if (tag < 0) tag = tree.name[c]!;
      const changes = t === 0 && (sum(links, c) === 0 || sum(varLinkWords, c) === v);
      if (tree.name[c] !== tag) bar = false;
      else if (marks[c] !== 1) {
        if (gapsHere && changes) {
          changing.push(c);
          gaps++;
        } else bar = false;
      } else if (v === 0) {
        if (sum(links, c) > 0) linked = true;
      } else if (changes) changing.push(c);
      else bar = false;
    }
    if (iconTag >= 0 && iconTag === tag) linked = true;
    // Unmapped cells alone (every mapped cell fixed) are a list's entries the ETDM could not pair, not a bar's.
    if (!bar || !linked || changing.length === 0 || gaps === changing.length) continue;
    for (const c of changing) {
      const whole = marks[c] !== 1;
      for (let i = c; i < tree.end[c]!; i++) if (whole || tree.kind[i] === NodeKind.Text) marks[i] = 1;
      marked++;
    }
  }
  return marked;
}

/**
 * True when the subtree of c holds a mapped link `<a href>` named by an attribute: `aria-label` or `title`
 * on it or inside it, or an `<img alt>` inside it (an icon link's words).
 */
function namedLink(tree: Tree, marks: Uint8Array, c: number): boolean {
  const a = tagId('a');
  const img = tagId('img');
  const named = (j: number): boolean =>
    [tree.attr(j, 'aria-label'), tree.attr(j, 'title'), tree.name[j] === img ? tree.attr(j, 'alt') : undefined].some((x) => x !== undefined && WORD.test(x));
  for (let i = c; i < tree.end[c]!; i++) {
    if (tree.kind[i] !== NodeKind.Element || tree.name[i] !== a || marks[i] !== 1 || tree.attr(i, 'href') === undefined) continue;
    for (let j = i; j < tree.end[i]!; j++) if (tree.kind[j] === NodeKind.Element && named(j)) return true;
  }
  return false;
}

/**
 * True when p or one of its two nearest ancestors is a breadcrumb by its markup: an `aria-label` or a class
 * naming one (`aria-label="Breadcrumbs"`, `class="breadcrumb"`, as Docusaurus, Bootstrap and many CMSs
 * write), or schema.org's `BreadcrumbList`.
 */
export function breadcrumbish(tree: Tree, p: number): boolean {
  for (let a = p, d = 0; a >= 0 && d < 3; a = tree.parent[a]!, d++) {
    if (tree.kind[a] !== NodeKind.Element) continue;
    if (BREADCRUMB.test(tree.attr(a, 'aria-label') ?? '') || BREADCRUMB.test(tree.attr(a, 'class') ?? '') || /BreadcrumbList$/.test(tree.attr(a, 'itemtype') ?? '')) return true;
  }
  return false;
}
const BREADCRUMB = /breadcrumb/i;
