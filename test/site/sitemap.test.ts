/**
 * Sitemaps from the library (src/site/sitemap.ts, HttpSource's `sitemap` option), on a site served on
 * 127.0.0.1: the sitemap requests go through the polite fetcher (robots.txt first, the host's delay between
 * request starts), indexes are followed to a bounded depth, and the XML is read as XML (entities, prefixes).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSource } from '../../src/site/source.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import { parseSitemap } from '../../src/site/sitemap.ts';
import { SITEMAP_DEFAULTS } from '../../src/site/defaults.ts';
import type { PageResult } from '../../src/site/page.ts';
import { serveForTest } from './loopback.ts';

const HTML = (title: string, body = ''): string => `<!DOCTYPE html><html><head><title>${title}</title></head><body><p>${title}</p>${body}</body></html>`;

async function all(source: { pages(): AsyncIterable<PageResult> }): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for await (const r of source.pages()) out.push(r);
  return out;
}

test('sitemap: requested politely through the crawl fetcher, robots.txt first, its URLs crawled after the entry page', async (t) => {
  const files = new Map<string, string>();
  const url = await serveForTest(t, (req, res) => {
    const body = files.get(req.url ?? '/');
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url!.endsWith('.xml') ? 'application/xml' : 'text/html' }).end(body);
  });
  files.set('/', HTML('home', '<a href="/linked.html">linked</a>'));
  files.set('/linked.html', HTML('linked'));
  files.set('/listed.html', HTML('listed'));
  files.set('/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${url}listed.html</loc></url></urlset>`);
  const requests: Array<{ path: string; time: number }> = [];
  const source = await openSource(url, { sitemap: true, delayMs: 120, concurrencyPerHost: 1, onRequest: (r) => requests.push({ path: new URL(r.url).pathname, time: r.time }) });
  t.after(() => source.close());
  const results = await all(source);
  assert.deepEqual(results.map((r) => (r.ok ? r.page.key : `failed ${r.url}`)), ['index.html', 'listed.html', 'linked.html']);
  assert.deepEqual(requests.map((r) => r.path).slice(0, 2), ['/robots.txt', '/sitemap.xml']);
  for (let i = 1; i < requests.length; i++) assert.ok(requests[i]!.time - requests[i - 1]!.time >= 110, `requests ${i - 1} and ${i} less than the delay apart`);
  assert.deepEqual((source as HttpSource).sitemaps, { read: 1, failed: 0, listed: 1, kept: 1 });
  assert.equal((source as HttpSource).fetcher.stats.requests, 5);
});

test('sitemap: indexes are followed at most SITEMAP_DEFAULTS.maxDepth deep; one listing itself is read once', async (t) => {
  const depth = SITEMAP_DEFAULTS.maxDepth;
  const asked: string[] = [];
  const url = await serveForTest(t, (req, res) => {
    const path = req.url ?? '/';
    asked.push(path);
    const m = /^\/idx(\d+)\.xml$/.exec(path);
    const page = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}${path}.html</loc></url></urlset>`;
    if (m) {
      const n = Number(m[1]);
      const locs = [`idx${n + 1}.xml`, `idx${n}.xml`, `leaf${n}.xml`].map((l) => `<sitemap><loc>http://${req.headers.host}/${l}</loc></sitemap>`).join('');
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</sitemapindex>`);
    }
    if (/^\/leaf\d+\.xml$/.test(path)) return void res.writeHead(200, { 'content-type': 'application/xml' }).end(page);
    if (path === '/' || path.endsWith('.html')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(HTML(path));
    res.writeHead(404).end();
  });
  const source = new HttpSource(url, { sitemap: [`${url}idx0.xml`], sitemapOnly: true, delayMs: 0 });
  t.after(() => source.close());
  const results = await all(source);
  const failed = results.filter((r) => !r.ok);
  assert.equal(failed.length, 1);
  assert.equal(failed[0]!.url, `${url}idx${depth}.xml`);
  assert.match(failed[0]!.ok ? '' : failed[0]!.error.message, new RegExp(`nested more than ${depth} deep: its 3 sitemaps are not read`));
  assert.equal(asked.filter((p) => p === '/idx0.xml').length, 1);
  assert.ok(!asked.includes(`/idx${depth + 1}.xml`));
  // leaf0 … leaf(depth-1) are read, each listing one page; nothing of idx(depth)'s children.
  const pages = results.filter((r) => r.ok).map((r) => (r.ok ? r.page.key : ''));
  assert.deepEqual(pages.sort(), ['index.html', ...Array.from({ length: depth }, (_, i) => `leaf${i}.xml.html`)].sort());
});

test('parseSitemap: entities, namespace prefixes and an empty urlset; other documents are named', () => {
  const u = 'https://h/sitemap.xml';
  assert.deepEqual(parseSitemap(u, '<?xml version="1.0"?><s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc> https://h/a?x=1&amp;y=2 </s:loc><s:lastmod>2024-01-01</s:lastmod></s:url></s:urlset>'), { index: false, locs: ['https://h/a?x=1&y=2'] });
  assert.deepEqual(parseSitemap(u, '<urlset/>'), { index: false, locs: [] });
  assert.throws(() => parseSitemap(u, '<html><body>Not found</body></html>'), /not a sitemap: the root element is <html>/);
  assert.throws(() => parseSitemap(u, ''), /broken sitemap XML: Start tag expected\. \(line 1\)$/);
  assert.throws(() => parseSitemap(u, '<urlset><url><loc>a</loc></urlset>'), /broken sitemap XML/);
});
