/**
 * Page keys of URL-addressed sources (HTTP, WARC). A page's key is its path relative to the source root
 * (page.ts, `Page.key`), so that a site crawled over HTTP, the same site in a WARC and its mirror in a
 * directory give equal keys for equal pages:
 *  - the URL path below the root's directory, percent-decoded;
 *  - a path ending in '/' (or the root itself) names the directory's index: `…/index.html`;
 *  - a query string, when there is one, is kept after '?', since `?page=2` is another page.
 * One exception to equal keys: an extensionless URL (`/docs/overview`) keys as its path, `docs/overview`,
 * while its mirror on disk is the file the host served it from, `docs/overview.html` (dir-source.ts
 * `staticKey` resolves such paths as GitHub Pages does).
 */
import { directoryOf } from './links.ts';

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The key of `url` under `root`, or undefined when it is not on the same origin and under the root's path. */
export function keyFromUrl(url: string, root: string): string | undefined {
  let u: URL;
  let r: URL;
  try {
    u = new URL(url);
    r = new URL(root);
  } catch {
    return undefined;
  }
  if (u.protocol !== r.protocol || u.hostname !== r.hostname || u.port !== r.port) return undefined;
  const dir = directoryOf(r);
  if (!u.pathname.startsWith(dir)) return undefined;
  let key = decodeSafe(u.pathname.slice(dir.length));
  if (key === '' || key.endsWith('/')) key += 'index.html';
  if (u.search.length > 1) key += u.search;
  return key;
}

/**
 * The root of an archive of several sites, whose keys are `host/path`: the same for every such archive, so
 * that parts of one crawl (a glob of archives) give one key to one URL.
 */
export const SITES_ROOT = 'warc://sites/';

/**
 * The key of an http(s) URL in an archive of several sites: `host/path`, the path keyed as below the host's
 * root; on a port other than the scheme's, `host_port/path` (a colon would make the key read as a URL).
 */
export function siteKey(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const key = keyFromUrl(url, `${u.protocol}//${u.host}/`);
  return key === undefined ? undefined : `${siteFolder(u.hostname, u.port)}/${key}`;
}

/** The first folder of the keys of a host's pages in an archive of several sites. */
export function siteFolder(hostname: string, port: string): string {
  return port === '' ? hostname : `${hostname}_${port}`;
}

/** The origin of the pages under a site folder (`siteFolder`), on `scheme` (`https:`). */
export function siteOrigin(folder: string, scheme: string): string {
  const m = /^(.*)_(\d+)$/.exec(folder);
  return m ? `${scheme}//${m[1]}:${m[2]}` : `${scheme}//${folder}`;
}

/**
 * The common root of absolute URLs: their origin and the longest directory they share (ends with '/'), or
 * undefined when they are on several origins (or there are none).
 */
export function commonRoot(urls: Iterable<string>): string | undefined {
  let origin: string | undefined;
  let dir: string | undefined;
  for (const s of urls) {
    const u = new URL(s);
    const o = `${u.protocol}//${u.host}`;
    const d = directoryOf(u);
    if (origin === undefined) {
      origin = o;
      dir = d;
      continue;
    }
    if (o !== origin) return undefined;
    let i = 0;
    while (i < dir!.length && i < d.length && dir![i] === d[i]) i++;
    dir = dir!.slice(0, dir!.slice(0, i).lastIndexOf('/') + 1);
  }
  return origin === undefined ? undefined : origin + dir!;
}

/** Percent-encodes each '/'-separated segment of a key path. */
export function encodeKeyPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The absolute URL of a key under `root` (inverse of `keyFromUrl`, with `…/index.html` spelled out). */
export function urlFromKey(key: string, root: string): string {
  const q = key.indexOf('?');
  const path = q < 0 ? key : key.slice(0, q);
  const search = q < 0 ? '' : key.slice(q);
  return new URL(encodeKeyPath(path.replace(/^\/+/, '')) + search, root).href;
}

/** True when `spec` is an absolute http(s) URL. */
export function isHttpUrl(spec: string): boolean {
  return /^https?:\/\//i.test(spec);
}
