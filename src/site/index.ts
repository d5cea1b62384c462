/**
 * `gabarit/site`: sources of pages and what a crawl needs (DESIGN.md, "source"): every kind of
 * PageSource, the polite fetcher, links and URLs, the site's link graph, the site store (DuckDB), and a
 * static server for a local mirror. Importing it loads the HTTP stack, the WARC reader and DuckDB; the root
 * `openSource` loads only the kind it opens.
 */
export { openSource, isWarcPath, type SourceOptions } from './source.ts';
export { type Page, type PageSource, type PageResult, type PageSourceOptions, parsePage, pageText } from './page.ts';
export { DirSource } from './dir-source.ts';
export { WarcSource, writeWarc } from './warc-source.ts';
export { HttpSource, type HttpSourceOptions } from './http-source.ts';
export { readSitemaps, discoverSitemaps, parseSitemap, type SitemapStats, type SitemapRead, type SitemapContext } from './sitemap.ts';
export { MemorySource } from './memory-source.ts';
export { UnionSource } from './union-source.ts';
export { Fetcher } from './fetch.ts';
export { extractLinks, normalizeUrl, registrableDomain, sameSite, type Link } from './links.ts';
export { LinkGraph } from './graph.ts';
export { serveDirectory } from './serve.ts';
export { Store } from './store.ts';
