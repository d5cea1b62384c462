/**
 * Fallback for paper 2's Algorithm 1 (Alarte et al., section 4.1) when the key page's links do not hold a
 * complete subdigraph of two pages or more (a page that links only to its index, as a PEP links only to
 * PEP 0): the paper would return the 1-CS, and a template from the key page and a single page of another
 * kind (the index) is weak. Ours, documented as an extension: the *siblings* of the key page, the pages a
 * loaded page links to from the same link region (link-order.ts) as its link to the key page — the rows
 * next to the key page in the index's table — very likely share the key page's template. They are tried in
 * order of closeness to the key page's link in that region.
 */
import type { Tree } from '../../html/tree.ts';
import { type KeyLink, rankLinks } from './link-order.ts';

/**
 * Links of `tree` (a loaded page) that sit in the same link region as its link(s) to `keyUrl`, nearest
 * first (by document position). Empty when the page does not link to the key page.
 */
export function siblingLinks(tree: Tree, links: readonly KeyLink[], keyUrl: string, minRegionLinks: number): string[] {
  const ranked = rankLinks(tree, links, minRegionLinks);
  const toKey = ranked.filter((r) => r.url === keyUrl);
  if (toKey.length === 0) return [];
  const anchor = toKey[0]!;
  const region = anchor.region;
  const same = ranked.filter((r) => r.region === region && r.url !== keyUrl);
  same.sort((a, b) => Math.abs(a.node - anchor.node) - Math.abs(b.node - anchor.node) || a.node - b.node);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of same) {
    if (!seen.has(r.url)) {
      seen.add(r.url);
      out.push(r.url);
    }
  }
  return out;
}
