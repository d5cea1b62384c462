/**
 * Defaults of the site layer (STYLE.md 6), re-exported by src/defaults.ts (`FETCH_DEFAULTS` as `DEFAULTS`).
 */
/** Fetch politeness and size figures (src/defaults.ts `DEFAULTS`). */
export const FETCH_DEFAULTS = {
  /** User agent sent over HTTP. */
  userAgent: 'gabarit/0.1 (+https://www.npmjs.com/package/gabarit)',
  /** Concurrent requests per host: a polite crawler's usual 1–2. */
  concurrencyPerHost: 2,
  /** Delay between two requests to the same host, ms. */
  delayMs: 250,
  /** Request timeout, ms. */
  timeoutMs: 15_000,
  /** Retries on 5xx and network errors, with exponential backoff from `retryBaseMs`. */
  retries: 2,
  retryBaseMs: 500,
  /** Largest page body accepted, bytes (10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** Redirects followed before giving up (browsers allow 20; 10 is plenty for sites). */
  maxRedirects: 10,
  /** Pages a crawl loads at most unless told otherwise. */
  maxPages: 10_000,
} as const;

/** Bounds of the sitemaps a crawl reads (sitemap.ts); the first two are the sitemaps protocol's own limits. */
export const SITEMAP_DEFAULTS = {
  /** Largest sitemap, bytes once decompressed (the protocol's 50 MB, as MiB). */
  maxBytes: 50 * 1024 * 1024,
  /** URLs (or child sitemaps of an index) read from one sitemap; more are named and left. */
  maxUrls: 50_000,
  /** Sitemaps read per crawl, indexes included: each is a request to the host. */
  maxSitemaps: 100,
  /** Sitemap indexes followed in a chain (the protocol has one level; some sites nest). */
  maxDepth: 3,
} as const;

export const SITE_DEFAULTS = {
  /** Files that stand for a directory, in order of preference (what static servers such as nginx try). */
  indexFiles: ['index.html', 'index.htm', 'index.xhtml'] as readonly string[],
  /** File extensions of pages in a directory source. Extensionless files are sniffed (see check.ts). */
  pageExtensions: ['.html', '.htm', '.xhtml'] as readonly string[],
  /**
   * Extensions a crawl does not follow: they name resources that are not pages, and fetching them only to
   * refuse them on their content type would waste the host's bandwidth.
   */
  skipExtensions: [
    '.css', '.js', '.mjs', '.json', '.xml', '.rss', '.atom', '.txt', '.md', '.pdf', '.ps', '.doc', '.docx',
    '.xls', '.xlsx', '.ppt', '.pptx', '.odt', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.ico',
    '.bmp', '.tif', '.tiff', '.avif', '.mp3', '.mp4', '.webm', '.ogg', '.wav', '.avi', '.mov', '.zip',
    '.gz', '.tgz', '.bz2', '.xz', '.7z', '.rar', '.tar', '.exe', '.dmg', '.iso', '.woff', '.woff2', '.ttf',
    '.otf', '.eot', '.wasm', '.bin',
  ] as readonly string[],
  /** Pages fetched at once by a crawl (the per-host limit of the fetcher still applies). */
  crawlWindow: 8,
  /** Bytes looked at to sniff an extensionless file or an untyped response as HTML. */
  sniffBytes: 1024,
} as const;

/** True when the URL's last path segment has an extension of a non-page resource. */
export function isSkippedResource(url: string): boolean {
  const path = new URL(url).pathname.toLowerCase();
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 && SITE_DEFAULTS.skipExtensions.includes(last.slice(dot));
}
