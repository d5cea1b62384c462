/**
 * Sitemaps (sitemaps.org protocol) as a source of URLs for a crawl (http-source.ts `sitemap` option):
 *  - where: the sitemaps given, or those the host's robots.txt names on `Sitemap:` lines, else
 *    `/sitemap.xml` at the crawl's host;
 *  - how: through the crawl's Fetcher (robots.txt obeyed, the host's delay and limits, retries; each
 *    sitemap a request in its stats); a gzipped body (`.xml.gz`, or gzip bytes whatever the name) is
 *    decompressed; the XML is parsed by fast-xml-parser; a `sitemapindex` is followed to its sitemaps, up to
 *    `SITEMAP_DEFAULTS.maxDepth` indexes deep and `maxSitemaps` sitemaps per crawl;
 *  - what is kept: listed URLs the crawl would follow as links (under its root, not a non-page resource,
 *    through its --include/--exclude filter), each once, in the order listed; reading stops once the
 *    crawl has as many as it can load;
 *  - what goes wrong is a failed item of the crawl, naming the sitemap and why: not found, not gzip,
 *    broken XML, on another host, over a cap (the URLs before the cap are kept), listing no URL under the
 *    crawl root. The crawl goes on.
 */
import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PageError } from '../errors.ts';
import { SITEMAP_DEFAULTS, isSkippedResource } from './defaults.ts';
import type { Fetcher } from './fetch.ts';
import type { FrontierItem } from './frontier.ts';
import { isHttpUrl } from './keys.ts';
import { normalizeUrl } from './links.ts';
import type { PageResult } from './page.ts';

/** What the sitemaps of a crawl gave. */
export interface SitemapStats {
  /** Sitemaps read and parsed (indexes included). */
  read: number;
  /** Sitemaps that could not be read, or were read only in part (each a failed item of the crawl). */
  failed: number;
  /** Page URLs listed by the sitemaps read. */
  listed: number;
  /** URLs the crawl takes from them (under its root, through its filters, each once). */
  kept: number;
}

/** The outcome of reading a crawl's sitemaps. */
export interface SitemapRead {
  /** URLs to crawl, in the order listed, each with its key under the crawl root. */
  items: FrontierItem[];
  /** One failed item per sitemap that went wrong. */
  failures: Array<Extract<PageResult, { ok: false }>>;
  stats: SitemapStats;
}

/** How a crawl reads its sitemaps. */
export interface SitemapContext {
  fetcher: Fetcher;
  /** The crawl root: sitemaps are read from its host only. */
  root: string;
  /** The key of a URL under the crawl root, else undefined. */
  keyOf(url: string): string | undefined;
  /** True when the crawl follows a key (its --include/--exclude). */
  accept(key: string): boolean;
  /** Reading stops once this many URLs are kept. */
  need: number;
}

/** A sitemap's content: page URLs (`urlset`) or child sitemaps (`sitemapindex`), as written. */
export interface ParsedSitemap {
  index: boolean;
  locs: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

/** Parses a sitemap's XML; throws a PageError (`bad-sitemap`) naming `url` when it is not one. */
export function parseSitemap(url: string, text: string): ParsedSitemap {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new PageError(url, 'bad-sitemap', `broken sitemap XML: ${msg} (line ${line}${col === undefined ? '' : `, column ${col}`})`);
  }
  const doc = parser.parse(text) as Record<string, unknown>;
  const root = Object.keys(doc).find((k) => !k.startsWith('?'));
  if (root !== 'urlset' && root !== 'sitemapindex') {
    throw new PageError(url, 'bad-sitemap', `not a sitemap: the root element is ${root === undefined ? 'missing' : `<${root}>`}, not <urlset> or <sitemapindex>`);
  }
  const index = root === 'sitemapindex';
  const body = doc[root];
  const entries = body !== null && typeof body === 'object' ? ((body as Record<string, unknown>)[index ? 'sitemap' : 'url'] ?? []) : [];
  const locs: string[] = [];
  for (const e of entries as unknown[]) {
    const loc = e !== null && typeof e === 'object' ? (e as Record<string, unknown>)['loc'] : undefined;
    if (typeof loc === 'string' && loc !== '') locs.push(loc);
  }
  return { index, locs };
}

/** A sitemap's bytes, gunzipped when they are gzip (magic bytes 1f 8b); a `.gz` name on other bytes than XML fails. */
export function gunzipSitemap(url: string, body: Uint8Array, maxBytes: number): Uint8Array {
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      return gunzipSync(body, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PageError(url, 'too-large', `too large: the sitemap decompresses to more than the cap of ${maxBytes} bytes`);
      throw new PageError(url, 'bad-encoding', `not valid gzip data (${(err as Error).message})`);
    }
  }
  const head = new TextDecoder().decode(body.subarray(0, 64)).trimStart();
  if (/\.gz$/i.test(new URL(url).pathname) && !head.startsWith('<')) throw new PageError(url, 'bad-encoding', 'named .gz but neither gzip data nor XML');
  return body;
}

/** The sitemaps to read when none is named: the robots.txt `Sitemap:` lines of the root's host, else its /sitemap.xml. */
export async function discoverSitemaps(fetcher: Fetcher, root: string): Promise<string[]> {
  const listed = await fetcher.robotsSitemaps(root);
  return listed.length > 0 ? listed : [new URL('/sitemap.xml', root).href];
}

/** Reads `sitemaps` (and the sitemaps their indexes name) for a crawl; see the module comment. */
export async function readSitemaps(sitemaps: readonly string[], ctx: SitemapContext): Promise<SitemapRead> {
  const host = new URL(ctx.root).host;
  const out: SitemapRead = { items: [], failures: [], stats: { read: 0, failed: 0, listed: 0, kept: 0 } };
  const fail = (err: PageError): void => {
    out.stats.failed++;
    out.failures.push({ ok: false, url: err.url, key: new URL(err.url).pathname.replace(/^\/+/, ''), error: err });
  };
  const kept = new Set<string>();
  const seen = new Set<string>();
  const queue = sitemaps.map((url) => ({ url, depth: 0 }));
  let fetched = 0;
  for (let i = 0; i < queue.length && kept.size < ctx.need; i++) {
    const { url: raw, depth } = queue[i]!;
    const url = isHttpUrl(raw) ? normalizeUrl(raw) : undefined;
    if (url === undefined) {
      fail(new PageError(raw, 'invalid-url', 'not an http(s) URL: sitemap not read'));
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    if (new URL(url).host !== host) {
      fail(new PageError(url, 'off-site', `sitemap on another host than the crawl's (${host}): not read`));
      continue;
    }
    if (fetched >= SITEMAP_DEFAULTS.maxSitemaps) {
      const left = queue.length - i - 1;
      fail(new PageError(url, 'too-large', `not read${left > 0 ? `, nor ${left} more sitemaps listed` : ''}: the cap of ${SITEMAP_DEFAULTS.maxSitemaps} sitemaps per crawl was reached`));
      break;
    }
    let parsed: ParsedSitemap;
    fetched++;
    try {
      const res = await ctx.fetcher.fetchFile(url, SITEMAP_DEFAULTS.maxBytes);
      parsed = parseSitemap(url, new TextDecoder().decode(gunzipSitemap(url, res.body, SITEMAP_DEFAULTS.maxBytes)));
    } catch (err) {
      if (!(err instanceof PageError)) throw err;
      if (err.code === 'interrupted') break;
      fail(err);
      continue;
    }
    out.stats.read++;
    const cap = SITEMAP_DEFAULTS.maxUrls;
    const locs = parsed.locs.slice(0, cap);
    if (parsed.locs.length > cap) {
      fail(new PageError(url, 'too-large', `lists ${parsed.locs.length} ${parsed.index ? 'sitemaps' : 'URLs'}, more than the cap of ${cap} per sitemap (sitemaps protocol); the first ${cap} are read`));
    }
    if (parsed.index) {
      if (depth + 1 > SITEMAP_DEFAULTS.maxDepth) fail(new PageError(url, 'too-large', `sitemap index nested more than ${SITEMAP_DEFAULTS.maxDepth} deep: its ${locs.length} sitemaps are not read`));
      else for (const loc of locs) queue.push({ url: loc, depth: depth + 1 });
      continue;
    }
    let onSite = 0;
    for (const loc of locs) {
      out.stats.listed++;
      const n = isHttpUrl(loc) ? normalizeUrl(loc) : undefined;
      const key = n === undefined ? undefined : ctx.keyOf(n);
      if (n === undefined || key === undefined) continue;
      onSite++;
      if (isSkippedResource(n) || !ctx.accept(key) || kept.has(key)) continue;
      kept.add(key);
      out.items.push({ url: n, key });
    }
    if (locs.length > 0 && onSite === 0) fail(new PageError(url, 'off-site', `lists ${locs.length} URLs, none under the crawl root ${ctx.root}`));
  }
  out.stats.kept = out.items.length;
  return out;
}
