/**
 * Defaults of the site layer (STYLE.md 6). The fetch politeness and size figures live in src/defaults.ts
 * (`DEFAULTS`); these are the site layer's own, re-exported there.
 */
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
