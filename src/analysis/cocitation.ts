/**
 * Co-citation with pagelets and templates: paper 3, section 4, "Case 3: The co-citation algorithm"
 * (Dean & Henzinger's related-pages algorithm, section 2.3): pages most often cited together with a given
 * page are related to it. Two changes from the paper:
 *  1. co-citation is counted only within the same pagelet (or, with `pageWeight` > 0, a co-citation on
 *     the same page but in another pagelet counts `pageWeight` instead of 1: "alternately, co-citation
 *     within a pagelet can be weighted more heavily than that within the same page");
 *  2. citations from template pagelets are ignored entirely.
 * `ignoreTemplates: false, pageWeight: 1` gives the classic page-level algorithm, for comparison.
 */
import { canonicalUrl, urlId } from '../template/pagelets/links.ts';
import type { SitePagelets } from './site-pagelets.ts';

/** Options of `cocited`. */
export interface CocitationOptions {
  /** Ignore citations from template pagelets (default true). */
  ignoreTemplates?: boolean;
  /** Weight of a co-citation in another pagelet of the same page (default 0: same pagelet only). */
  pageWeight?: number;
  /** At most this many results (default 20). */
  limit?: number;
}

/** A page related to the target, with its co-citation strength. */
export interface Cocited {
  url: string;
  score: number;
}

/** True when `target` (a URL, resolved like links) is a page of the site or the target of one of its links. */
export function isKnownTarget(site: SitePagelets, target: string): boolean {
  const t = urlId(canonicalUrl(target) ?? target);
  if (site.byUrl.has(t)) return true;
  return site.pages.some((page) => page.linkDest.includes(t));
}

/** Pages co-cited with `target` (a URL, resolved like links), strongest first. */
export function cocited(site: SitePagelets, target: string, options: CocitationOptions = {}): Cocited[] {
  const ignore = options.ignoreTemplates ?? true;
  const pageWeight = options.pageWeight ?? 0;
  const t = urlId(canonicalUrl(target) ?? target);
  const score = new Map<number, number>();
  const urls = new Map<number, string>();
  for (const page of site.pages) {
    // pagelets of this page that cite the target (outside templates when ignoring them)
    const citing = new Set<number>();
    for (let j = 0; j < page.linkDest.length; j++) {
      const p = page.linkPagelet[j]!;
      if (page.linkDest[j] !== t || p < 0) continue;
      if (ignore && page.template[p] === 1) continue;
      citing.add(p);
    }
    if (citing.size === 0) continue;
    const best = new Map<number, number>();
    for (let j = 0; j < page.linkDest.length; j++) {
      const d = page.linkDest[j]!;
      const p = page.linkPagelet[j]!;
      if (d === t || d === page.urlId || p < 0) continue;
      if (ignore && page.template[p] === 1) continue;
      const w = citing.has(p) ? 1 : pageWeight;
      if (w <= 0) continue;
      // each page counts a co-cited URL once, with its strongest weight
      if ((best.get(d) ?? 0) < w) best.set(d, w);
      urls.set(d, page.linkUrl[j]!);
    }
    for (const [d, w] of best) score.set(d, (score.get(d) ?? 0) + w);
  }
  return [...score]
    .sort((a, b) => b[1] - a[1] || (urls.get(a[0])! < urls.get(b[0])! ? -1 : 1))
    .slice(0, options.limit ?? 20)
    .map(([d, s]) => ({ url: urls.get(d)!, score: s }));
}
