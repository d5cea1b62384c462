/**
 * The hyperlinks of a page as the pagelet algorithms need them (paper 3, section 3.2, table LINKS): for
 * each `<a href>` / `<area href>` node, the absolute target URL and its 53-bit hash.
 *
 * URL normalisation (documented because LINKS joins on it): the href is resolved against the page's
 * `<base href>` when there is one, else against the page URL; the fragment is dropped; a path ending in
 * `/` gets `index.html` appended, so that `../api/` and the page whose key is `api/index.html` meet. Only
 * http(s) and file URLs count; `mailto:`, `javascript:` and unparsable hrefs are left out.
 */
import { tagId, type Tree } from '../../html/tree.ts';
import { hashString53 } from './hash.ts';
import { isLink } from './partition.ts';

const BASE = tagId('base');

/** Canonical form of a URL for page identity: no fragment, `…/` → `…/index.html`. Undefined if not a web URL. */
export function canonicalUrl(url: string, base?: string): string | undefined {
  let u: URL;
  try {
    u = base === undefined ? new URL(url) : new URL(url, base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'file:') return undefined;
  u.hash = '';
  if (u.pathname.endsWith('/')) u.pathname += 'index.html';
  return u.href;
}

/** [canonical URL, absolute URL as written without its fragment] of a link, parsing it once; null if not a web URL. */
function resolveLink(href: string, base: string): [string, string] | null {
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'file:') return null;
  u.hash = '';
  const written = u.href;
  if (!u.pathname.endsWith('/')) return [written, written];
  u.pathname += 'index.html';
  return [u.href, written];
}

/** The 53-bit identity of a page URL (hash of its canonical form). */
export function urlId(url: string): number {
  return hashString53(canonicalUrl(url) ?? url);
}

/** Links of a page in document order. */
export interface PageLinks {
  /** The `<a>`/`<area>` node of each link. */
  node: Int32Array;
  /** Hash of the canonical target URL (53-bit). */
  dest: Float64Array;
  /** The canonical target URLs themselves. */
  url: string[];
  /** The absolute target URLs as written (fragment dropped, no `index.html` added): what a crawler fetches. */
  href: string[];
}

/** The base URL of a page: its `<base href>` resolved against the page URL, else the page URL. */
export function baseUrl(tree: Tree, pageUrl: string): string {
  for (let i = 0; i < tree.size; i++) {
    if (tree.name[i] !== BASE) continue;
    const href = tree.attr(i, 'href');
    if (href === undefined) continue;
    try {
      return new URL(href.trim(), pageUrl).href;
    } catch {
      return pageUrl;
    }
  }
  return pageUrl;
}

/** Every followable link of the page, self-links (to the page itself) included. */
export function pageLinks(tree: Tree, pageUrl: string): PageLinks {
  const base = baseUrl(tree, pageUrl);
  const nodes: number[] = [];
  const urls: string[] = [];
  const hrefs: string[] = [];
  // one URL parse per distinct href: [canonical URL, absolute URL as written], or null when not followable
  const cache = new Map<string, [string, string] | null>();
  for (let i = 0; i < tree.size; i++) {
    if (!isLink(tree, i)) continue;
    const href = (tree.attr(i, 'href') ?? '').trim();
    let hit = cache.get(href);
    if (hit === undefined) {
      hit = href === '' ? null : resolveLink(href, base);
      cache.set(href, hit);
    }
    if (hit === null) continue;
    nodes.push(i);
    urls.push(hit[0]);
    hrefs.push(hit[1]);
  }
  const dest = new Float64Array(urls.length);
  const hashes = new Map<string, number>();
  for (let j = 0; j < urls.length; j++) {
    const u = urls[j]!;
    let h = hashes.get(u);
    if (h === undefined) {
      h = hashString53(u);
      hashes.set(u, h);
    }
    dest[j] = h;
  }
  return { node: Int32Array.from(nodes), dest, url: urls, href: hrefs };
}

/**
 * The URL links are resolved against. A file:// page (a directory source) is placed where a static web
 * server over the directory would serve it, `http://local.invalid/<key>`, so that root-relative links
 * (`/about/`, common in generated sites) resolve inside the site as they do when it is served.
 */
export function linkBaseUrl(page: { url: string; key: string }): string {
  return page.url.startsWith('file:') ? LOCAL_ORIGIN + page.key.split('/').map(encodeURIComponent).join('/') : page.url;
}
const LOCAL_ORIGIN = 'http://local.invalid/';
