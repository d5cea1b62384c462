/**
 * A page as every source gives it, and the PageSource interface (STYLE.md 2: engines see a PageSource,
 * never a file system, a WARC reader or an HTTP client).
 */
import { decodeHtml, type Decoded } from '../html/charset.ts';
import type { LabelTable } from '../html/labels.ts';
import { parseHtml, parseHtmlExact } from '../html/parse.ts';
import type { Tree } from '../html/tree.ts';
import type { PageError } from '../errors.ts';

export interface Page {
  /** Absolute URL of the page (after redirects): file:// for a directory, http(s):// otherwise. */
  readonly url: string;
  /**
   * Path of the page relative to its source root, as used for output files: `a/b.html`; a URL ending
   * in `/` becomes `…/index.html`. Equal keys across sources mean the same page.
   */
  readonly key: string;
  /** HTTP status (200 for files). */
  readonly status: number;
  /** Response headers, lowercased names (empty for files). */
  readonly headers: Readonly<Record<string, string>>;
  /** Raw bytes. */
  readonly body: Uint8Array;
  /** Where it came from: 'dir', 'warc', 'http' or 'store' (a cached earlier fetch). */
  readonly origin: 'dir' | 'warc' | 'http' | 'store' | 'memory';
}

/** Decodes a page's bytes (BOM, Content-Type header, meta charset; never throws). */
export function pageText(page: Page): Decoded {
  return decodeHtml(page.body, page.headers['content-type']);
}

/** One item of a source's stream: a page, or the reason one could not be had. */
export type PageResult =
  /** `warnings`: problems the page survives (e.g. a declared charset the bytes are not), each naming it. */
  | { ok: true; page: Page; warnings?: readonly string[] }
  | { ok: false; url: string; key: string; error: PageError };

/** A cap that stopped `pages()` while the source held more pages. */
export interface PageCut {
  /** The cap: items `pages()` yielded at most. */
  maxPages: number;
  /**
   * Pages left out: exact for a directory, a page file, a WARC file or pages in memory; at least this many
   * for a crawl (addresses found and not loaded) and for a glob.
   */
  left: number;
}

export interface PageSourceOptions {
  /** At most this many pages from `pages()` (default: no limit). */
  maxPages?: number;
  /** Called when a cap (this `maxPages`, or the source's own) stopped `pages()` with pages left. */
  onCut?: (cut: PageCut) => void;
  /** Called for each page loaded (for progress bars). */
  onProgress?: (done: number, url: string) => void;
}

/** A set of pages of one site: a directory, a WARC file, or a site over HTTP. */
export interface PageSource {
  /** 'dir' | 'warc' | 'http'. */
  readonly kind: 'dir' | 'warc' | 'http' | 'memory';
  /** Absolute URL of the source root (ends with '/'): relative keys resolve against it. */
  readonly root: string;
  /** Absolute URL of the entry page (home page) of the site. */
  readonly entry: string;
  /** Every page of the source (a directory's files, a WARC's responses, a crawl from the entry). */
  pages(options?: PageSourceOptions): AsyncIterable<PageResult>;
  /** Loads one page by absolute URL (or by key, relative to `root`); rejects with a PageError. */
  get(urlOrKey: string): Promise<Page>;
  /** The key of an absolute URL when it belongs to this source (same site, under root), else undefined. */
  keyOf(url: string): string | undefined;
  /** The absolute URL of a key. */
  urlOf(key: string): string;
  /** Number of pages loaded so far through this source (downloads, for HTTP). */
  readonly loaded: number;
  /**
   * Set once a cap of the source itself (a crawl's `maxPages`, a view's limit), not the `maxPages` a caller
   * gave `pages()`, left pages out; undefined while none did.
   */
  readonly cut?: PageCut | undefined;
  close(): Promise<void>;
}

/**
 * Decodes and parses a page into a Tree with the site's label table. `exact` uses the browser-exact
 * parser (parse5); XHTML pages (by content type or extension) get self-closing tags recognised.
 */
export function parsePage(page: Page, labels: LabelTable, exact = false): Tree {
  const { text } = pageText(page);
  if (exact) return parseHtmlExact(text, { labels });
  const ct = page.headers['content-type'] ?? '';
  const xhtml = ct.includes('xhtml') || /\.xhtml$/i.test(page.key);
  return parseHtml(text, { labels, selfClosing: xhtml });
}
