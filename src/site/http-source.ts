/**
 * A site over HTTP as a PageSource: a breadth-first crawl from the entry page through same-site links,
 * fetched politely by a Fetcher (robots.txt, per-host limits, caps; see fetch.ts).
 *  - root: the entry URL's directory (`https://h/docs/intro.html` → `https://h/docs/`); only URLs under it
 *    are followed (links.ts `sameSite`), and links to files that are not pages (images, CSS, PDFs…;
 *    `SITE_DEFAULTS.skipExtensions`) are not fetched at all;
 *  - keys: the URL path relative to the root, a trailing '/' naming `…/index.html` (keys.ts), so `a/` and
 *    `a/index.html` are one page and fetched once;
 *  - pages(): the crawl, in breadth-first order, up to `maxPages` items (a cap that leaves addresses found
 *    and not loaded is told to `onCut` and kept in `cut`); a page that fails is yielded as a
 *    failure and the crawl goes on; up to `SITE_DEFAULTS.crawlWindow` fetches run ahead of the consumer
 *    (the fetcher still keeps to its per-host limit and delay). The order is deterministic: links are
 *    queued when their page is yielded, in document order;
 *  - `loaded`: pages downloaded (not those taken from a store or the in-run cache).
 * With the `sitemap` option, the URLs the site's sitemaps list (sitemap.ts) are queued after the entry page,
 * before any link, and a sitemap that cannot be read is a failed item of the crawl; `sitemapOnly` follows
 * no link. With a Store (`store` option) every fetched page and its links are stored, and a second run over the same
 * store loads nothing from the network. Once the `signal` option is aborted (an interrupted run), pages()
 * ends without yielding anything more and the fetches under way are abandoned.
 */
import picomatch from 'picomatch';
import { UsageError, PageError } from '../errors.ts';
import { LabelTable } from '../html/labels.ts';
import { parseHtml } from '../html/parse.ts';
import type { Tree } from '../html/tree.ts';
import type { Store } from './store.ts';
import { failed, succeeded } from './check.ts';
import { FETCH_DEFAULTS, SITE_DEFAULTS, isSkippedResource } from './defaults.ts';
import { filled } from '../filled.ts';
import { Fetcher, type FetchOptions } from './fetch.ts';
import { keyFromUrl, urlFromKey, isHttpUrl } from './keys.ts';
import { Frontier, type FrontierItem } from './frontier.ts';
import { discoverSitemaps, readSitemaps, type SitemapRead, type SitemapStats } from './sitemap.ts';
import { directoryOf, extractLinks, type Link, normalizeUrl } from './links.ts';
import { pageText, type Page, type PageCut, type PageResult, type PageSource, type PageSourceOptions } from './page.ts';

/**
 * The crawl priority of each link of a fetched page (`links` as extractLinks gives them, duplicates
 * included, in document order): higher is fetched sooner; a URL keeps the highest priority it was given.
 * Without one, every link has the same priority and the crawl is breadth-first.
 */
export type LinkPriority = (page: Page, tree: Tree, links: readonly Link[]) => ArrayLike<number>;

export interface HttpSourceOptions extends FetchOptions {
  /** Items (pages and failures) a crawl yields at most (default `DEFAULTS.maxPages`). */
  maxPages?: number;
  /** A fetcher to share (its options win over these); by default the source makes and closes its own. */
  fetcher?: Fetcher;
  /** Orders the crawl frontier (e.g. paper 3's template-aware priority, src/analysis/crawl-priority.ts). */
  linkPriority?: LinkPriority;
  /** Globs over page keys (paths under the crawl's root, `blog/**`): only links to matching pages are followed. */
  include?: readonly string[];
  /** Globs over page keys: links to matching pages are not followed (over `include`). */
  exclude?: readonly string[];
  /**
   * Sitemaps as a source of URLs (sitemap.ts): `true` finds them (robots.txt `Sitemap:` lines, else
   * `/sitemap.xml` at the root's host), a list names them. Their URLs under the root and through
   * `include`/`exclude` are crawled after the entry page, before the links found.
   */
  sitemap?: boolean | readonly string[];
  /** Follows no link: the crawl reads the entry page and the sitemaps' URLs only (finds sitemaps unless `sitemap` names them). */
  sitemapOnly?: boolean;
}

/**
 * Which page keys a crawl follows links to, from `include` and `exclude` globs (picomatch syntax; `*` stays
 * in one path segment, `**` crosses them; the query string is part of the key). The entry page is always read.
 */
export function keyFilter(include: readonly string[] = [], exclude: readonly string[] = []): (key: string) => boolean {
  const opts = { dot: true };
  const yes = include.length > 0 ? picomatch([...include], opts) : () => true;
  const no = exclude.length > 0 ? picomatch([...exclude], opts) : () => false;
  return (key) => yes(key) && !no(key);
}


/** The links of a parsed page that a crawl from `root` follows, in document order (each URL once unless `duplicates`). */
function followed(tree: Tree, page: Page, root: string, duplicates: boolean, accept: (key: string) => boolean): Link[] {
  return extractLinks(tree, page.url, { duplicates }).filter((l) => {
    if (!isHttpUrl(l.url) || isSkippedResource(l.url)) return false;
    const key = keyFromUrl(l.url, root);
    return key !== undefined && accept(key);
  });
}

export class HttpSource implements PageSource {
  readonly kind = 'http' as const;
  readonly root: string;
  readonly entry: string;
  /** The fetcher (its `stats` say what was requested, retried, downloaded). */
  readonly fetcher: Fetcher;
  private readonly ownFetcher: boolean;
  private readonly maxPages: number;
  /** Set when the crawl stopped at its own `maxPages` with addresses found and not loaded. */
  cut: PageCut | undefined;
  private readonly store: Store | undefined;
  private readonly linkPriority: LinkPriority | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly accept: (key: string) => boolean;
  private readonly sitemap: boolean | readonly string[];
  private readonly followLinks: boolean;
  /** The sitemaps, read once for every crawl of this source. */
  private sitemapRead: Promise<SitemapRead> | undefined;

  constructor(entry: string, options: HttpSourceOptions = {}) {
    const n = isHttpUrl(entry) ? normalizeUrl(entry) : undefined;
    if (n === undefined) throw new UsageError(`not an http(s) URL: ${entry}`);
    const u = new URL(n);
    this.entry = n;
    this.root = `${u.protocol}//${u.host}${directoryOf(u)}`;
    this.maxPages = filled(options, FETCH_DEFAULTS, ['maxPages']).maxPages;
    this.store = options.store;
    this.linkPriority = options.linkPriority;
    this.signal = options.signal;
    this.accept = keyFilter(options.include, options.exclude);
    this.followLinks = options.sitemapOnly !== true;
    this.sitemap = options.sitemap !== undefined && options.sitemap !== false ? options.sitemap : !this.followLinks;
    this.ownFetcher = options.fetcher === undefined;
    this.fetcher = options.fetcher ?? new Fetcher({ ...options, stayWithin: options.stayWithin ?? this.root });
  }

  /** What the sitemaps gave, once read (undefined without the `sitemap` option or before a crawl). */
  sitemaps: SitemapStats | undefined;

  get loaded(): number {
    return this.fetcher.stats.downloads;
  }

  keyOf(url: string): string | undefined {
    const n = normalizeUrl(url);
    return n === undefined ? undefined : keyFromUrl(n, this.root);
  }

  urlOf(key: string): string {
    return urlFromKey(key, this.root);
  }

  async get(urlOrKey: string): Promise<Page> {
    let url: string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(urlOrKey)) {
      const n = normalizeUrl(urlOrKey);
      if (n === undefined || !isHttpUrl(n)) throw new PageError(urlOrKey, 'invalid-url', n === undefined ? 'invalid URL' : 'not an http(s) URL');
      url = n;
    } else {
      url = this.urlOf(urlOrKey);
    }
    const key = this.keyOf(url);
    if (key === undefined) throw new PageError(url, 'off-site', `not under the site root ${this.root}`);
    // An engine loading the pages a page links to reads only those the crawl would follow.
    if (url !== this.entry && !this.accept(key)) throw new PageError(url, 'excluded', 'left out by the crawl\'s --include / --exclude globs');
    return this.fetchPage(url, key);
  }

  private async fetchPage(url: string, key: string): Promise<Page> {
    const page = await this.fetcher.fetch(url, key);
    const finalKey = page.url === url ? key : this.keyOf(page.url);
    if (finalKey === undefined) throw new PageError(url, 'off-site', `redirected off site to ${page.url}`);
    return finalKey === page.key ? page : { ...page, key: finalKey };
  }

  private async load(url: string, key: string): Promise<PageResult> {
    try {
      return succeeded(await this.fetchPage(url, key));
    } catch (err) {
      return failed(url, key, err);
    }
  }

  async *pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    const max = Math.min(options.maxPages ?? Infinity, this.maxPages);
    // `started`: pages being fetched or yielded, in yield order; `frontier`: found, not yet started
    const started: FrontierItem[] = [];
    const frontier = new Frontier();
    const entry = { url: this.entry, key: this.keyOf(this.entry)! };
    frontier.push(entry);
    const seen = new Set<string>([entry.key]);
    const inflight = new Map<number, Promise<PageResult>>();
    let yielded = 0;
    if (this.sitemap !== false) {
      const read = await (this.sitemapRead ??= this.readSitemaps(max));
      this.sitemaps = read.stats;
      for (const item of read.items) {
        if (seen.has(item.key)) continue;
        seen.add(item.key);
        frontier.push(item);
      }
      // A sitemap that went wrong is a failed item of the crawl, as a page is.
      for (const f of read.failures) {
        if (yielded >= max || this.signal?.aborted) break;
        yielded++;
        options.onProgress?.(yielded, f.url);
        yield f;
      }
    }
    const linked = this.store ? await this.store.linkSources() : undefined;
    const window = SITE_DEFAULTS.crawlWindow;
    for (let i = 0; yielded < max; i++) {
      // Refilled by half windows, so that pages taken from a store are looked up a few at a time (fetch.ts).
      const refill = started.length - i <= window / 2;
      while (refill && frontier.size > 0 && started.length - i < window && started.length - i < max - yielded) {
        const q = frontier.pop()!;
        inflight.set(started.length, this.load(q.url, q.key));
        started.push(q);
      }
      if (i >= started.length || this.signal?.aborted) break;
      const r = (await inflight.get(i))!;
      inflight.delete(i);
      if (this.signal?.aborted) break;
      if (r.ok) {
        // A redirect may lead to a page already crawled under another URL: yield it once.
        if (r.page.key !== started[i]!.key) {
          if (seen.has(r.page.key)) continue;
          seen.add(r.page.key);
        }
        const tree = parseHtml(pageText(r.page).text, { labels: new LabelTable({ attributes: 'none' }) });
        const all = this.followLinks ? followed(tree, r.page, this.root, this.linkPriority !== undefined, this.accept) : [];
        const priority = this.linkPriority?.(r.page, tree, all);
        const links = new Set<string>();
        for (let j = 0; j < all.length; j++) {
          const url = all[j]!.url;
          links.add(url);
          const key = this.keyOf(url)!;
          if (!seen.has(key)) {
            seen.add(key);
            frontier.push({ url, key }, priority?.[j] ?? 0);
          } else if (priority && frontier.has(key)) frontier.push({ url, key }, priority[j] ?? 0);
        }
        // A stored page's links were stored with it: rewriting them would cost a write per page on resume.
        if (this.store && this.followLinks && !(r.page.origin === 'store' && linked?.has(r.page.url))) await this.store.putLinks(r.page.url, links);
      }
      yielded++;
      options.onProgress?.(yielded, r.ok ? r.page.url : r.url);
      yield r;
    }
    const left = frontier.size + inflight.size;
    if (yielded >= max && left > 0) {
      const cut = { maxPages: max, left };
      // The crawl's own cap (not a smaller one the caller asked for) is kept for the run's summary.
      if (this.maxPages <= (options.maxPages ?? Infinity) && left > (this.cut?.left ?? 0)) this.cut = cut;
      options.onCut?.(cut);
    }
  }

  private async readSitemaps(need: number): Promise<SitemapRead> {
    const given = this.sitemap;
    const sitemaps = given === true ? await discoverSitemaps(this.fetcher, this.root) : [...(given as readonly string[])];
    return readSitemaps(sitemaps, { fetcher: this.fetcher, root: this.root, keyOf: (url) => this.keyOf(url), accept: this.accept, need });
  }

  async close(): Promise<void> {
    if (this.ownFetcher) await this.fetcher.close();
  }
}
