/**
 * The hyperlinks of a page as the pagelet algorithms need them (paper 3, section 3.2, table LINKS): for
 * each `<a href>` / `<area href>` node, the absolute target URL and its 53-bit hash.
 *
 * URL normalisation (documented because LINKS joins on it): the href is resolved against the page's
 * `<base href>` when there is one, else against the page URL; the fragment is dropped; a path ending in
 * `/` gets `index.html` appended, so that `../api/` and the page whose key is `api/index.html` meet. Only
 * http(s) and file URLs count; `mailto:`, `javascript:` and unparsable hrefs are left out.
 * A page's identity (the 53-bit id links join on) is its canonical URL without a final `.html`/`.htm`
 * (and `index.html` reduced to its folder): static hosts serve `/docs/overview` from `docs/overview.html`,
 * and sites built for them (Docusaurus, VitePress, Hugo's ugly URLs off) link that way, so the link and the
 * page's own URL meet.
 */
import { tagId, type Tree } from '../../html/tree.ts';
import { hashString53 } from '../../html/hash.ts';
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

/** The 53-bit identity of a page URL: hash of its canonical form without `.html` (module comment). */
export function urlId(url: string): number {
  return hashString53(identity(canonicalUrl(url) ?? url));
}

/** A canonical URL as page identity: `…/index.html` → `…/`, `…/name.html` (or `.htm`) → `…/name`, query kept. */
function identity(canonical: string): string {
  const q = canonical.search(/[?#]/);
  const path = q < 0 ? canonical : canonical.slice(0, q);
  const rest = q < 0 ? '' : canonical.slice(q);
  const m = /(^|\/)index\.html?$|\.html?$/i.exec(path);
  if (!m) return canonical;
  return path.slice(0, m.index + (m[1] ?? '').length) + rest;
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

/** A resolved link: canonical URL, absolute URL as written (no fragment), and the canonical URL's 53-bit id. */
interface Resolved {
  url: string;
  href: string;
  id: number;
}

/**
 * Resolved links, kept across pages (most links of a site repeat on every page: menus, footers): by what
 * the resolution depends on, the base URL's directory for a relative path (`a/b`, `../c`, `/d`, `//h/e`,
 * absolute URLs), the whole base for one that starts with `?` or `#` (every `#…` as `#`); then by the
 * href (two maps, so a lookup makes no string). Cleared when it reaches `RESOLVED_LIMIT` entries, so it
 * stays small.
 */
const resolved = new Map<string, Map<string, Resolved | null>>();
let resolvedCount = 0;
const RESOLVED_LIMIT = 1 << 16;

/** The part of a base URL that relative paths resolve against: up to the last `/` before any query or fragment. */
function baseDirectory(base: string): string {
  let end = base.length;
  const q = base.indexOf('?');
  if (q >= 0) end = q;
  const h = base.indexOf('#');
  if (h >= 0 && h < end) end = h;
  const slash = base.lastIndexOf('/', end - 1);
  // scheme://host/…/ : a directory only when the slash comes after the authority
  return slash > base.indexOf('//') + 1 ? base.slice(0, slash + 1) : base;
}

/** A string's characters in a string of their own (a slice of a page's HTML would keep the page alive). */
const own = (s: string): string => (s + ' ').slice(0, -1);

/**
 * Resolved links by start tag (tree.ts `tagSource`: the same integer is the same `href`), under the base
 * directory, for the hrefs that resolve against it: a lookup by integer, without reading the href. Kept
 * for one `sourceOwner` at a time, and cleared with `resolved`.
 */
const bySource = new Map<string, Map<number, Resolved | null>>();
let sourceOwner: object | undefined;

/** The resolutions by start tag of links under base directory `dir`, for a tree's `owner`. */
function sourceResolutions(owner: object, dir: string): Map<number, Resolved | null> {
  if (owner !== sourceOwner) {
    bySource.clear();
    sourceOwner = owner;
  }
  let m = bySource.get(dir);
  if (!m) bySource.set(own(dir), (m = new Map()));
  return m;
}

function resolveCached(href: string, base: string, dir: string): Resolved | null {
  const c = href.charCodeAt(0);
  // A fragment is dropped, and cannot change the rest: every `#…` of a base resolves as `#` does.
  if (c === 35) href = '#';
  const prefix = c === 63 || c === 35 ? base : dir;
  let byHref = resolved.get(prefix);
  let r = byHref?.get(href);
  if (r !== undefined) return r;
  const both = resolveLink(href, base);
  r = both === null ? null : { url: both[0], href: both[1], id: hashString53(identity(both[0])) };
  if (resolvedCount >= RESOLVED_LIMIT) {
    resolved.clear();
    bySource.clear();
    resolvedCount = 0;
    byHref = undefined;
  }
  if (!byHref) {
    byHref = new Map();
    resolved.set(own(prefix), byHref);
  }
  byHref.set(own(href), r);
  resolvedCount++;
  return r;
}

/** Every followable link of the page, self-links (to the page itself) included. */
export function pageLinks(tree: Tree, pageUrl: string): PageLinks {
  const base = baseUrl(tree, pageUrl);
  const dir = baseDirectory(base);
  const nodes: number[] = [];
  const urls: string[] = [];
  const hrefs: string[] = [];
  const ids: number[] = [];
  const source = tree.tagSource;
  const known = source ? sourceResolutions(tree.tagSourceOwner!, dir) : undefined;
  for (let i = 0; i < tree.size; i++) {
    if (!isLink(tree, i)) continue;
    const s = source ? source[i]! : -1;
    let r = s >= 0 ? known!.get(s) : undefined;
    if (r === undefined) {
      const href = (tree.attr(i, 'href') ?? '').trim();
      if (href === '') continue;
      r = resolveCached(href, base, dir);
      // `?…` and `#…` resolve against the whole base, not only its directory
      const c = href.charCodeAt(0);
      if (s >= 0 && c !== 63 && c !== 35) {
        known!.set(s, r);
        resolvedCount++;
      }
    }
    if (r === null) continue;
    nodes.push(i);
    urls.push(r.url);
    hrefs.push(r.href);
    ids.push(r.id);
  }
  return { node: Int32Array.from(nodes), dest: Float64Array.from(ids), url: urls, href: hrefs };
}

/**
 * The URL links are resolved against. A file:// page (a directory source) is placed where a static web
 * server over the directory would serve it, `http://local.invalid/<key>`, so that root-relative links
 * (`/about/`, common in generated sites) resolve inside the site as they do when it is served.
 */
export function linkBaseUrl(page: { url: string; key: string }): string {
  return page.url.startsWith('file:') ? LOCAL_ORIGIN + page.key.split('/').map(encodeURIComponent).join('/') : page.url;
}
/** Where a directory source's pages are placed for resolving their links (see `linkBaseUrl`). */
export const LOCAL_ORIGIN = 'http://local.invalid/';
