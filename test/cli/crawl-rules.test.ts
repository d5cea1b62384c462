/**
 * A crawl's URL rules through the command line: `--include` and `--exclude` globs over the path under the
 * crawl root decide which links are followed (the entry page is always read), on a site served on 127.0.0.1;
 * on a local folder they are named as not applying.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gabarit } from './gabarit-process.ts';
import { serveForTest } from '../site/loopback.ts';

const PAGES = ['blog/one.html', 'blog/two.html', 'blog/tag/news.html', 'shop/cart.html', 'about.html'];

/** The site: every page links to every page; the paths each crawl asked for are kept. */
async function serve(t: { after(fn: () => Promise<void>): void }): Promise<{ url: string; take(): string[] }> {
  let asked: string[] = [];
  const links = PAGES.map((p) => `<li><a href="/${p}">${p}</a></li>`).join('');
  const url = await serveForTest(t, (req, res) => {
    const path = req.url ?? '/';
    asked.push(path);
    if (path === '/robots.txt') return void res.writeHead(404).end();
    const key = path === '/' ? 'index' : path.slice(1);
    if (path !== '/' && !PAGES.includes(key)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><head><title>${key}</title></head><body><ul>${links}</ul><p>Page ${key}.</p></body></html>`);
  });
  return {
    url,
    take: () => {
      const a = asked.filter((p) => p !== '/robots.txt').sort();
      asked = [];
      return a;
    },
  };
}

test('crawl: --include and --exclude globs choose the links followed; the entry page is read', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-crawl-rules-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const site = await serve(t);

  const all = await gabarit(['crawl', site.url, '--delay', '0', '--out', join(dir, 'all'), '-q']);
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(site.take(), ['/', ...PAGES.map((p) => `/${p}`)].sort());

  const blog = await gabarit(['crawl', site.url, '--delay', '0', '--include', 'blog/**', '--exclude', '**/tag/**', '--out', join(dir, 'blog'), '-q']);
  assert.equal(blog.code, 0, blog.stderr);
  assert.deepEqual(site.take(), ['/', '/blog/one.html', '/blog/two.html']);
  const summary = JSON.parse(await readFile(join(dir, 'blog', 'summary.json'), 'utf8')) as { pagesDone: number };
  assert.equal(summary.pagesDone, 3);

  // Two --exclude globs; a `*` stays within one folder.
  const some = await gabarit(['crawl', site.url, '--delay', '0', '--exclude', 'shop/*', '--exclude', '*.html', '--out', join(dir, 'some'), '-q']);
  assert.equal(some.code, 0, some.stderr);
  assert.deepEqual(site.take(), ['/', '/blog/one.html', '/blog/tag/news.html', '/blog/two.html']);
});

test('crawl: --include on a local folder is named as not applying, and the folder is read whole', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-crawl-rules-local-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const r = await gabarit(['crawl', 'examples/site', '--include', 'shop/**', '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /--include and --exclude apply to the crawl of a URL; examples\/site is read whole/);
});

test('content and template: --include and --exclude choose the pages of a crawled site they read', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-crawl-rules-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const site = await serve(t);
  for (const command of ['content', 'template']) {
    const out = join(dir, command);
    const r = await gabarit([command, site.url, '--delay', '0', '--include', 'blog/**', '--exclude', '**/tag/**', '--format', 'jsonl', '--out', out, '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(site.take(), ['/', '/blog/one.html', '/blog/two.html'], command);
    const keys = (await readFile(join(out, 'pages.jsonl'), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { key: string }).key).sort();
    assert.deepEqual(keys, ['blog/one.html', 'blog/two.html', 'index.html'].sort(), command);
  }
});
