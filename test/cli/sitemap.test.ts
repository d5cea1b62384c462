/**
 * Sitemaps as a source of a crawl's URLs through the command line (`--sitemap`, `--sitemap-only`), on a
 * site served on 127.0.0.1: pages only a sitemap lists are crawled with the option and not without;
 * robots.txt `Sitemap:` lines, sitemap indexes, gzipped sitemaps, --include/--exclude on their URLs; a
 * sitemap that cannot be read is named on stderr and in summary.json, and the run goes on.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { gabarit } from './gabarit-process.ts';
import { serveForTest } from '../site/loopback.ts';

interface Site {
  url: string;
  /** Files served (path → content type and body); anything else is 404. */
  files: Map<string, { type: string; body: string | Buffer }>;
  /** The paths asked since the last call, sorted (robots.txt left out). */
  take(): string[];
}

/** A page whose body links to `links` (absolute paths). */
function page(title: string, links: readonly string[] = []): { type: string; body: string } {
  const list = links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('');
  return { type: 'text/html; charset=utf-8', body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><nav><ul>${list}</ul></nav><main><h1>${title}</h1><p>The text of ${title}, a page of the test site.</p></main></body></html>` };
}

function urlset(urls: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
}

function xml(body: string | Buffer, type = 'application/xml'): { type: string; body: string | Buffer } {
  return { type, body };
}

/** The site: `/` links to `/a.html` only; `/only/*.html` pages are linked from nowhere. */
async function serve(t: { after(fn: () => Promise<void>): void }): Promise<Site> {
  let asked: string[] = [];
  const files = new Map<string, { type: string; body: string | Buffer }>();
  files.set('/', page('home', ['/a.html']));
  files.set('/a.html', page('a', ['/']));
  for (const p of ['/only/one.html', '/only/two.html', '/blog/post.html', '/blog/tag/news.html', '/shop/cart.html']) files.set(p, page(p));
  const url = await serveForTest(t, (req, res) => {
    const path = req.url ?? '/';
    asked.push(path);
    const f = files.get(path);
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  return {
    url,
    files,
    take: () => {
      const a = asked.filter((p) => p !== '/robots.txt').sort();
      asked = [];
      return a;
    },
  };
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-sitemap-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Summary {
  pagesDone: number;
  pagesFailed: number;
  failures: Array<{ url: string; code: string; message: string }>;
}

async function summaryOf(out: string): Promise<Summary> {
  return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
}

test('crawl --sitemap: pages only /sitemap.xml lists are crawled with it, not without', async (t) => {
  const dir = await tempDir(t);
  const site = await serve(t);
  site.files.set('/sitemap.xml', xml(urlset([`${site.url}only/one.html`, `${site.url}only/two.html`, `${site.url}a.html`])));

  const plain = await gabarit(['crawl', site.url, '--delay', '0', '--out', join(dir, 'plain'), '-q']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(site.take(), ['/', '/a.html']);

  const r = await gabarit(['crawl', site.url, '--sitemap', '--delay', '0', '--out', join(dir, 'sitemap')]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(site.take(), ['/', '/a.html', '/only/one.html', '/only/two.html', '/sitemap.xml']);
  assert.equal((await summaryOf(join(dir, 'sitemap'))).pagesDone, 4);
  assert.match(r.stderr, /sitemaps: 1 read, 0 failed, 3 URLs listed, 3 queued for the crawl/);
});

test('crawl --sitemap: a robots.txt Sitemap: line names the sitemap read', async (t) => {
  const dir = await tempDir(t);
  const site = await serve(t);
  site.files.set('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /only/two.html\nSitemap: ${site.url}maps/main.xml\n` });
  site.files.set('/maps/main.xml', xml(urlset([`${site.url}only/one.html`, `${site.url}only/two.html`])));
  const r = await gabarit(['crawl', site.url, '--sitemap', '--delay', '0', '--out', join(dir, 'out'), '-q']);
  assert.equal(r.code, 0, r.stderr);
  // /sitemap.xml is not tried when robots.txt names a sitemap; robots.txt rules still hold for its URLs.
  assert.deepEqual(site.take(), ['/', '/a.html', '/maps/main.xml', '/only/one.html']);
  assert.match(r.stderr, /only\/two\.html: disallowed by .*robots\.txt/);
});

test('crawl --sitemap-only: a sitemap index and its gzipped child, with --include and --exclude on their URLs; no link followed', async (t) => {
  const dir = await tempDir(t);
  const site = await serve(t);
  site.files.set('/sitemap.xml', xml(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url}s/pages.xml.gz</loc></sitemap><sitemap><loc>${site.url}s/more.xml</loc></sitemap></sitemapindex>`));
  site.files.set('/s/pages.xml.gz', xml(gzipSync(urlset([`${site.url}blog/post.html`, `${site.url}blog/tag/news.html`])), 'application/gzip'));
  site.files.set('/s/more.xml', xml(urlset([`${site.url}shop/cart.html`, `${site.url}only/one.html`])));

  const all = await gabarit(['crawl', site.url, '--sitemap-only', '--delay', '0', '--out', join(dir, 'all'), '-q']);
  assert.equal(all.code, 0, all.stderr);
  // Not /a.html: links are not followed.
  assert.deepEqual(site.take(), ['/', '/blog/post.html', '/blog/tag/news.html', '/only/one.html', '/s/more.xml', '/s/pages.xml.gz', '/shop/cart.html', '/sitemap.xml']);

  const some = await gabarit(['crawl', site.url, '--sitemap', `${site.url}sitemap.xml`, '--include', 'blog/**', '--include', 'only/**', '--exclude', '**/tag/**', '--delay', '0', '--out', join(dir, 'some'), '-q']);
  assert.equal(some.code, 0, some.stderr);
  assert.deepEqual(site.take(), ['/', '/blog/post.html', '/only/one.html', '/s/more.xml', '/s/pages.xml.gz', '/sitemap.xml']);
});

test('crawl --sitemap: sitemaps that cannot be read are each named and counted, and the crawl goes on', async (t) => {
  const dir = await tempDir(t);
  const site = await serve(t);
  const other = site.url.replace('127.0.0.1', 'localhost');
  site.files.set('/good.xml', xml(urlset([`${site.url}only/one.html`])));
  site.files.set('/broken.xml', xml('<?xml version="1.0"?><urlset><url><loc>x</loc></urlset>'));
  site.files.set('/feed.xml', xml('<?xml version="1.0"?><rss><channel></channel></rss>'));
  site.files.set('/fake.xml.gz', xml('this is not gzip', 'application/gzip'));
  site.files.set('/cut.xml.gz', xml(gzipSync(urlset([`${site.url}only/two.html`])).subarray(0, 30), 'application/gzip'));
  site.files.set('/elsewhere.xml', xml(urlset(['https://example.org/a.html', 'https://example.org/b.html'])));
  const many = Array.from({ length: 50_001 }, (_, i) => `${site.url}n/${i}.html`);
  site.files.set('/huge.xml', xml(urlset(many)));
  // The huge one last: reading stops once the sitemaps gave as many URLs as the crawl can load.
  const names = ['missing.xml', 'broken.xml', 'feed.xml', 'fake.xml.gz', 'cut.xml.gz', 'elsewhere.xml', 'good.xml'];
  const args = names.flatMap((n) => ['--sitemap', `${site.url}${n}`]);
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', site.url, ...args, '--sitemap', `${other}sitemap.xml`, '--sitemap', `${site.url}huge.xml`, '--max-pages', '12', '--delay', '0', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const lines: Array<[string, RegExp]> = [
    [`${site.url}missing.xml`, /not found \(HTTP 404\)/],
    [`${site.url}broken.xml`, /broken sitemap XML: .*line 1/],
    [`${site.url}feed.xml`, /not a sitemap: the root element is <rss>/],
    [`${site.url}fake.xml.gz`, /named \.gz but neither gzip data nor XML/],
    [`${site.url}cut.xml.gz`, /not valid gzip data \(unexpected end of file\)/],
    [`${site.url}elsewhere.xml`, /lists 2 URLs, none under the crawl root/],
    [`${site.url}huge.xml`, /lists 50001 URLs, more than the cap of 50000 per sitemap/],
    [`${other}sitemap.xml`, /sitemap on another host than the crawl's \(127\.0\.0\.1:\d+\): not read/],
  ];
  const summary = await summaryOf(out);
  for (const [url, reason] of lines) {
    const line = r.stderr.split('\n').find((l) => l.startsWith(`gabarit: ${url}: `));
    assert.ok(line, `no line names ${url}:\n${r.stderr}`);
    assert.match(line, reason);
    assert.ok(summary.failures.some((f) => f.url === url), `summary.json does not name ${url}`);
  }
  // The sitemaps' failures and the pages share the cap; the huge sitemap's first URLs fill the rest.
  assert.equal(summary.pagesFailed + summary.pagesDone, 12);
  const asked = site.take();
  assert.ok(asked.includes('/only/one.html') && asked.includes('/n/0.html'), asked.join(' '));
  assert.match(r.stderr, /stopped at the cap of 12 pages \(--max-pages\)/);
});

test('content and template: --sitemap brings the pages only a sitemap lists', async (t) => {
  const dir = await tempDir(t);
  const site = await serve(t);
  site.files.set('/sitemap.xml', xml(urlset([`${site.url}only/one.html`, `${site.url}only/two.html`])));

  const content = await gabarit(['content', site.url, '--sitemap', '--delay', '0', '--out', join(dir, 'content'), '-q']);
  assert.equal(content.code, 0, content.stderr);
  assert.deepEqual(site.take(), ['/', '/a.html', '/only/one.html', '/only/two.html', '/sitemap.xml']);
  assert.equal((await summaryOf(join(dir, 'content'))).pagesDone, 4);
  assert.match(await readFile(join(dir, 'content', 'only', 'two.txt'), 'utf8'), /The text of \/only\/two\.html/);

  const template = await gabarit(['template', site.url, '--sitemap', '--delay', '0', '--out', join(dir, 'template'), '-q']);
  assert.equal(template.code, 0, template.stderr);
  assert.deepEqual(site.take(), ['/', '/a.html', '/only/one.html', '/only/two.html', '/sitemap.xml']);
  assert.equal((await summaryOf(join(dir, 'template'))).pagesDone, 4);

  const local = await gabarit(['content', 'examples/site', '--sitemap', '--out', join(dir, 'local'), '-q']);
  assert.equal(local.code, 0, local.stderr);
  assert.match(local.stderr, /--sitemap and --sitemap-only apply to the crawl of a URL; examples\/site is read whole/);

  const bad = await gabarit(['crawl', site.url, '--sitemap', 'sitemap.xml', '--out', join(dir, 'bad')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--sitemap.*expected the absolute http\(s\) URL of a sitemap/);
});
