/**
 * Hyperlinks of a page and URL normalisation (DESIGN.md, "site/links.ts"). Every technique that looks at a
 * site's navigation (paper 2's link graph, paper 3's pagelets, paper 4's link collections, the crawler)
 * needs the same answer to "where does this page link to?", so it is computed here once:
 *  - a link is an `<a href>` or `<area href>` element; its URL is resolved against the document's
 *    `<base href>` when there is one (HTML, "document base URL"), else against the page URL;
 *  - URLs are normalised (see `normalizeUrl`) so that two spellings of one address compare equal;
 *  - links that lead to no page (javascript:, mailto:, tel:, data:, and any other non-http(s)/file scheme)
 *    are dropped, and so are links back to the page itself (in-page anchors such as a table of contents).
 */
import { NodeKind, tagId, type Tree } from '../html/tree.ts';
import { getDomain } from 'tldts';

/** One hyperlink of a page. */
export interface Link {
  /** Absolute, normalised URL without fragment. */
  readonly url: string;
  /** The `<a>` / `<area>` element (node index in the page's Tree). */
  readonly node: number;
}

export interface LinkOptions {
  /** Keep every occurrence of a URL (default false: the first occurrence of each URL only). */
  duplicates?: boolean;
  /** Keep links back to the page itself (default false). */
  selfLinks?: boolean;
}

/** Schemes whose URLs name pages; every other scheme (javascript:, mailto:, tel:, data:, ftp:…) is dropped. */
const PAGE_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'file:']);

/**
 * Normalises a URL: resolves it against `base`, drops the fragment, lowercases scheme and host, drops the
 * default port (WHATWG URL does these two), keeps the query as written. Returns undefined when the URL
 * (or the base) is invalid. Surrounding whitespace, which HTML attribute values often carry, is ignored.
 */
export function normalizeUrl(url: string, base?: string): string | undefined {
  let u: URL;
  try {
    u = base === undefined ? new URL(url.trim()) : new URL(url.trim(), base);
  } catch {
    return undefined;
  }
  u.hash = '';
  // `new URL` keeps an empty '#' only when one was given; clearing hash removes it too.
  return u.href;
}

/**
 * The base URL of a document: the first `<base href>` resolved against the page URL (HTML "document base
 * URL"), else the page URL itself.
 */
export function documentBase(tree: Tree, pageUrl: string): string {
  const baseTag = tagId('base');
  for (let i = 0; i < tree.size; i++) {
    if (tree.name[i] !== baseTag) continue;
    const href = tree.attr(i, 'href');
    if (href === undefined) continue;
    const resolved = normalizeUrl(href, pageUrl);
    if (resolved !== undefined) return resolved;
    break;
  }
  return pageUrl;
}

/**
 * The links of a page, in document order (see the module comment for what counts). `node` is the
 * element's index in `tree`. By default each URL appears once (its first occurrence) and self-links
 * (the same normalised URL as `pageUrl`) are removed.
 */
export function extractLinks(tree: Tree, pageUrl: string, options: LinkOptions = {}): Link[] {
  const self = normalizeUrl(pageUrl);
  const base = documentBase(tree, self ?? pageUrl);
  const aTag = tagId('a');
  const areaTag = tagId('area');
  const seen = options.duplicates ? undefined : new Set<string>();
  const out: Link[] = [];
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const name = tree.name[i];
    if (name !== aTag && name !== areaTag) continue;
    const href = tree.attr(i, 'href');
    if (href === undefined) continue;
    const url = normalizeUrl(href, base);
    if (url === undefined) continue;
    const colon = url.indexOf(':');
    if (!PAGE_SCHEMES.has(url.slice(0, colon + 1))) continue;
    if (!options.selfLinks && url === self) continue;
    if (seen) {
      if (seen.has(url)) continue;
      seen.add(url);
    }
    out.push({ url, node: i });
  }
  return out;
}

/** The directory of a URL's path: everything up to and including its last '/'. */
export function directoryOf(url: URL): string {
  const p = url.pathname;
  return p.slice(0, p.lastIndexOf('/') + 1);
}

/**
 * True when `url` is on the site rooted at `rootUrl`: same scheme, host and port, and a path under the
 * root's directory (a root without a trailing '/' stands for its directory). Invalid URLs are not on site.
 */
export function sameSite(url: string, rootUrl: string): boolean {
  let u: URL;
  let r: URL;
  try {
    u = new URL(url);
    r = new URL(rootUrl);
  } catch {
    return false;
  }
  if (u.protocol !== r.protocol || u.hostname !== r.hostname || u.port !== r.port) return false;
  return u.pathname.startsWith(directoryOf(r));
}

/**
 * The site of a URL as a registrable domain (the public suffix list, via tldts: `ww.coffeemeetsbagel.com`
 * and `coffeemeetsbagel.com` are one site, `news.bbc.co.uk` is `bbc.co.uk`); for an IP address or a host
 * without a public suffix (`localhost`), the host itself. Null for what is not an http(s) URL.
 */
export function registrableDomain(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return getDomain(u.hostname) ?? u.hostname;
}
