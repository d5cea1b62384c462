/**
 * The order in which Algorithm 1 of paper 2 walks the key page's links. The paper walks them in document
 * order and, as future work (section 6), proposes to "directly identify the menu in the key page by
 * measuring the density of links in its DOM tree ... the links–DOM nodes ratio". We implement that idea:
 *  - a link's *region* is its nearest ancestor element holding at least `minRegionLinks` distinct-position
 *    same-site links (a menu, a list of links; a paragraph with a single link has none and falls back to
 *    the body);
 *  - a region's *link density* is the share of its text characters that sit inside links (1 for a pure
 *    menu, small for prose with a few links); an empty-text region counts as 1 when it holds links only;
 *  - links are sorted by the density of their region (densest first), then by region size (more links
 *    first: the site menu before a three-item breadcrumb), then in document order. A URL linked from
 *    several places takes its best position.
 * `document` keeps the paper's order (first occurrence). `proximity` (ours) puts first the links whose
 * page lies deepest in the key page's own folder (the longest common run of path segments: `docs/device/a`
 * before `docs/other/b` before `blog/c` for the key `docs/device/k`), in density order among equals: a
 * site's pages of one section (one folder) are usually made with one layout, and their menus link to
 * each other, so the complete subdigraph is found among pages laid out as the key page rather than
 * among the index pages of other sections. The engine reports which order it used, and
 * eval/hyperlink.eval.ts measures how many pages each order loads.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import { HYPERLINK_DEFAULTS } from './defaults.ts';
import { withDefaults } from '../../filled.ts';

/** How to order the key page's links. */
export type LinkOrder = 'density' | 'document' | 'proximity';

/** A link of the key page: absolute URL and the `<a>`/`<area>` node. */
export interface KeyLink {
  url: string;
  node: number;
}

export interface LinkOrderOptions {
  order?: LinkOrder;
  minRegionLinks?: number;
  /** The key page's own key (`proximity`): link URLs are compared with it as keys, '/'-separated paths. */
  key?: string;
}

/** Number of leading folder segments two keys share (`a/b/c.html` and `a/b/d/e.html`: 2). */
export function sharedFolders(x: string, y: string): number {
  const a = x.split('/');
  const b = y.split('/');
  let k = 0;
  while (k < a.length - 1 && k < b.length - 1 && a[k] === b[k]) k++;
  return k;
}

/** The region and density of each link (for diagnostics and tests). */
export interface RankedLink {
  url: string;
  node: number;
  region: number;
  density: number;
  regionLinks: number;
}

/** `LinkOrderOptions` defaults (HYPERLINK_DEFAULTS). */
const LINK_ORDER_DEFAULTS = { order: HYPERLINK_DEFAULTS.linkOrder, minRegionLinks: HYPERLINK_DEFAULTS.minRegionLinks };

/** Unique URLs of `links` in the order Algorithm 1 should try them. */
export function orderLinks(tree: Tree, links: readonly KeyLink[], options: LinkOrderOptions = {}): string[] {
  const { order, minRegionLinks } = withDefaults(LINK_ORDER_DEFAULTS, options);
  if (order === 'document') {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const l of [...links].sort((a, b) => a.node - b.node)) {
      if (!seen.has(l.url)) {
        seen.add(l.url);
        out.push(l.url);
      }
    }
    return out;
  }
  const ranked = rankLinks(tree, links, minRegionLinks);
  if (order === 'proximity' && options.key !== undefined) {
    const key = options.key;
    const depth = new Map<string, number>();
    for (const r of ranked) if (!depth.has(r.url)) depth.set(r.url, sharedFolders(key, r.url));
    // Stable: among links as deep in the key's folder, the density order stays.
    ranked.sort((a, b) => depth.get(b.url)! - depth.get(a.url)!);
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of ranked) {
    if (!seen.has(r.url)) {
      seen.add(r.url);
      out.push(r.url);
    }
  }
  return out;
}

/** Every link with its region and density, best first (see the file comment). */
export function rankLinks(tree: Tree, links: readonly KeyLink[], minRegionLinks: number): RankedLink[] {
  const n = tree.size;
  // Prefix sums over preorder: a subtree [i, end[i]) sums in O(1).
  const isLink = new Uint8Array(n);
  for (const l of links) if (l.node >= 0 && l.node < n) isLink[l.node] = 1;
  const linkPrefix = new Int32Array(n + 1);
  const textPrefix = new Float64Array(n + 1);
  const linkTextPrefix = new Float64Array(n + 1);
  // Link-text: text nodes inside a link element; track the innermost enclosing link's end.
  let linkEnd = -1;
  for (let i = 0; i < n; i++) {
    if (i >= linkEnd) linkEnd = -1;
    if (isLink[i] === 1 && linkEnd < 0) linkEnd = tree.end[i]!;
    linkPrefix[i + 1] = linkPrefix[i]! + isLink[i]!;
    let t = 0;
    if (tree.kind[i] === NodeKind.Text) t = tree.textEnd[i]! - tree.textStart[i]!;
    textPrefix[i + 1] = textPrefix[i]! + t;
    linkTextPrefix[i + 1] = linkTextPrefix[i]! + (linkEnd >= 0 ? t : 0);
  }
  const ranked: RankedLink[] = links.map((l) => {
    let r = tree.parent[l.node] ?? -1;
    while (r > 0 && linkPrefix[tree.end[r]!]! - linkPrefix[r]! < minRegionLinks) r = tree.parent[r]!;
    if (r < 0) r = 0;
    const e = tree.end[r]!;
    const text = textPrefix[e]! - textPrefix[r]!;
    const linkText = linkTextPrefix[e]! - linkTextPrefix[r]!;
    const regionLinks = linkPrefix[e]! - linkPrefix[r]!;
    const density = text === 0 ? (regionLinks > 0 ? 1 : 0) : linkText / text;
    return { url: l.url, node: l.node, region: r, density, regionLinks };
  });
  ranked.sort((a, b) => b.density - a.density || b.regionLinks - a.regionLinks || a.node - b.node);
  return ranked;
}
