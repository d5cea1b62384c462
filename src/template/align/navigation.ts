/**
 * Navigation regions of the alignment template: template elements whose *text* changes from page to page
 * but is made of links (a per-page table of contents, a sidebar whose open section follows the page,
 * prev/next bars, breadcrumbs). Not in paper 1, which marks the tokens the pages share: these regions'
 * tags are shared (so they are in the template) while their words are not (so they stay content). The
 * same extension as the hyperlink engine's (../hyperlink/navigation-regions.ts, after paper 2's remark that
 * menus have "one of the higher densities of links in a webpage"), learned here on the sample pages, each
 * aligned with the template (apply.ts):
 *
 *  - *Variable text* of an element: its text not matched to the template; *link text*: inside `<a href>`;
 *    *prose*: variable text outside links.
 *  - The *content slot* of a page: from `<body>` down, the chain of elements holding at least `slotShare`
 *    of the page's prose (of its variable text on a page without prose: a frame listing classes); the
 *    deepest one matched to the template (the main content's container). The template's slot is the
 *    template start tag most sample pages' slots match; on a page that has an element matching it, that
 *    element is the page's slot, else the page's own. Only the sample pages that have the template's slot
 *    (the site's main layout) teach regions.
 *  - A template start tag is a *region* when its elements, on the sample pages where they occur (at least
 *    `MIN_PAGES`), never hold the content slot, are mostly fixed text (at least as many matched characters
 *    as variable ones) when inside it (a prev/next bar in the article container is navigation, an
 *    article's own list of links is content), and have variable text that is at least `linkShare` link
 *    text on at least `NAVIGATIONAL_MAJORITY` of the pages where they have any (at least one).
 *  - On any page, an element matching a region, outside the page's content slot as above, is template
 *    with its whole subtree (topmost ones).
 */
import { firstElementChild, NodeKind, tagId, type Tree } from '../../html/tree.ts';
import { VariableText } from '../variable-text.ts';

/** Options of the region test (defaults in ALIGN_DEFAULTS). */
export interface RegionOptions {
  /** Share of an element's variable text (characters) that must be link text. */
  linkShare: number;
  /** Share of a page's prose its content slot holds. */
  slotShare: number;
}

/** One sample page aligned with the template: its tree, its marks, and per node the template start tag it matched (-1). */
export interface AlignedPage {
  tree: Tree;
  template: Uint8Array;
  openMatch: Int32Array;
}

/** What the sample pages taught about navigation: region start tags (template indices, sorted) and the content slot's (-1: none). */
export interface Navigation {
  regions: Int32Array;
  slot: number;
}

/** Sample pages a region's element must be seen on: one page says nothing about what changes. */
export const MIN_PAGES = 2;
/**
 * Share of the sample pages (where the element has variable text) on which that text must be mostly
 * links. A majority: a bar of links ("Summary: Nested | Field | Constr | Method") whose entries are links on
 * some pages and plain words on others is still navigation.
 */
export const NAVIGATIONAL_MAJORITY = 0.5;

/** Learns the navigation regions and the content slot of a template of `length` tokens from its aligned sample pages. */
export function learnNavigation(length: number, pages: readonly AlignedPage[], o: RegionOptions): Navigation {
  const vars = pages.map((p) => new VariableText(p.tree, p.template));
  // The template's content slot: the start tag most pages' own slots match.
  const votes = new Map<number, number>();
  for (const [k, p] of pages.entries()) {
    const s = contentSlot(p.tree, p.openMatch, vars[k]!, o.slotShare);
    const j = s >= 0 ? p.openMatch[s]! : -1;
    if (j >= 0) votes.set(j, (votes.get(j) ?? 0) + 1);
  }
  let slot = -1;
  for (const [j, n] of votes) if (slot < 0 || n > votes.get(slot)! || (n === votes.get(slot)! && j < slot)) slot = j;

  const refused = new Uint8Array(length);
  const seen = new Int32Array(length);
  const withText = new Int32Array(length);
  const navigational = new Int32Array(length);
  const skip = new Set([tagId('html'), tagId('head'), tagId('body')]);
  for (const [k, p] of pages.entries()) {
    const { tree, openMatch } = p;
    const v = vars[k]!;
    // Pages without the template's slot (another layout) do not teach the template's regions.
    const pageSlot = slot >= 0 ? openMatch.indexOf(slot) : contentSlot(tree, openMatch, v, o.slotShare);
    if (slot >= 0 && pageSlot < 0) continue;
    for (let i = 0; i < tree.size; i++) {
      const j = openMatch[i]!;
      if (j < 0 || tree.kind[i] !== NodeKind.Element || skip.has(tree.name[i]!)) continue;
      seen[j]!++;
      if (!outsideContent(tree, v, pageSlot, i)) refused[j] = 1;
      if (v.text(i) > 0) {
        withText[j]!++;
        if (v.navigational(i, o.linkShare)) navigational[j]!++;
      }
    }
  }
  const out: number[] = [];
  for (let j = 0; j < length; j++) {
    if (refused[j] === 0 && seen[j]! >= MIN_PAGES && withText[j]! > 0 && navigational[j]! >= NAVIGATIONAL_MAJORITY * withText[j]!) out.push(j);
  }
  return { regions: Int32Array.from(out), slot };
}

/**
 * Marks, on one page, the subtrees of the elements matching a region that lie outside the page's content
 * slot (see the module comment), topmost first. Returns how many subtrees were marked.
 */
export function markRegions(tree: Tree, template: Uint8Array, openMatch: Int32Array, nav: Navigation, slotShare: number): number {
  const regions = nav.regions;
  if (regions.length === 0) return 0;
  const isRegion = new Uint8Array(regions[regions.length - 1]! + 1);
  for (const j of regions) isRegion[j] = 1;
  const v = new VariableText(tree, template);
  const slot = slotOf(tree, openMatch, v, nav.slot, slotShare);
  const roots: number[] = [];
  for (let i = 0; i < tree.size; i++) {
    const j = openMatch[i]!;
    if (j < 0 || j >= isRegion.length || isRegion[j] === 0) continue;
    if (outsideContent(tree, v, slot, i)) {
      roots.push(i);
      i = tree.end[i]! - 1;
    }
  }
  for (const r of roots) template.fill(1, r, tree.end[r]!);
  return roots.length;
}

/** The content slot of a page: the element matching the template's slot `j` when there is one, else the page's own. */
function slotOf(tree: Tree, openMatch: Int32Array, v: VariableText, j: number, share: number): number {
  if (j >= 0) for (let i = 0; i < tree.size; i++) if (openMatch[i] === j) return i;
  return contentSlot(tree, openMatch, v, share);
}

/**
 * True when element i may be navigation on its page: it does not hold the content slot, and inside the
 * slot it is mostly fixed text.
 */
function outsideContent(tree: Tree, v: VariableText, slot: number, i: number): boolean {
  if (slot < 0) return true;
  if (tree.contains(i, slot)) return false;
  return !tree.contains(slot, i) || v.fixed(i) >= v.text(i);
}

/**
 * The content slot of a page computed on the page alone (see the module comment): the deepest element
 * matched to the template on the chain of elements holding at least `share` of the body's prose (or of its
 * variable text when it has no prose); the body when none; -1 when nothing in the body varies.
 */
export function contentSlot(tree: Tree, openMatch: Int32Array, v: VariableText, share: number): number {
  const body = tree.body();
  const byProse = v.prose(body) > 0;
  const amount = (r: number): number => (byProse ? v.prose(r) : v.text(r));
  const total = amount(body);
  if (total <= 0) return -1;
  // An element of the chain may be unmatched (a page-specific class on a wrapper): walk through it.
  let slot = body;
  let r = body;
  for (;;) {
    const next = firstElementChild(tree, r, (c) => amount(c) >= share * total);
    if (next < 0) break;
    if (openMatch[next]! >= 0 || openMatch[slot]! < 0) slot = next;
    r = next;
  }
  return slot;
}
