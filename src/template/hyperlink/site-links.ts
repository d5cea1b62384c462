/**
 * The links of a page that Algorithm 1 works on (paper 2, getLinks): on the source's site, unique by
 * page key, not to the page itself.
 */
import type { Tree } from '../../html/tree.ts';
import { extractLinks } from '../../site/links.ts';
import type { Page, PageSource } from '../../site/page.ts';
import type { KeyLink } from './link-order.ts';

/** A link of a page of the source: its key (identity) and URL (to load), and the `<a>` node. */
export interface SiteLink extends KeyLink {
  key: string;
}

/**
 * The usable links of a page (Algorithm 1's getLinks): on the source's site (`keyOf`), unique by key, not
 * to the page itself. Root-relative hrefs in a directory (`/about/`) are the site layer's business:
 * DirSource.keyOf reads them against the directory (its `siteRootLinks` option), for every engine.
 */
export function siteLinks(source: PageSource, tree: Tree, page: Pick<Page, 'url' | 'key'>): SiteLink[] {
  const out: SiteLink[] = [];
  const urlOf = new Map<string, string>();
  for (const l of extractLinks(tree, page.url, { duplicates: true })) {
    const key = source.keyOf(l.url);
    if (key === undefined || key === page.key || sameDocument(key, page.key)) continue;
    // Every occurrence is kept (link density counts them); one URL per key.
    const first = urlOf.get(key);
    if (first === undefined) urlOf.set(key, l.url);
    out.push({ url: first ?? l.url, key, node: l.node });
  }
  return out;
}

/**
 * True when two keys name one document on a static host: `docs/a` and `docs/a.html`, `docs/` and
 * `docs/index.html` (a host serves an extensionless path from its `.html` file and a folder from its
 * index). A link to the key page under its other name is a self-link.
 */
export function sameDocument(a: string, b: string): boolean {
  const bare = (k: string): string => k.replace(/(^|\/)index\.x?html?$/i, '$1').replace(/\.x?html?$/i, '').replace(/\/$/, '');
  return bare(a) === bare(b);
}

/** Links keyed by page key (the identity Algorithm 1 works on). */
export function byKey(links: readonly SiteLink[]): KeyLink[] {
  return links.map((l) => ({ url: l.key, node: l.node }));
}

