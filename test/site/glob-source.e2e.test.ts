/**
 * A quoted glob of sources read as one (source.ts `openSource`, union-source.ts): two WARC files of one
 * site, two directories, a glob matching nothing, parts that cannot be one source, archives of two sites;
 * and `gabarit template`
 * over a glob of WARC files gives the files it gives over one WARC file holding the same pages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../src/errors.ts';
import { SITES_ROOT } from '../../src/site/keys.ts';
import { openSource } from '../../src/site/source.ts';
import { writeWarc, type WarcPage } from '../../src/site/warc-source.ts';
import { gabarit } from '../cli/gabarit-process.ts';
import { collect, okPages } from './page-source-suite.ts';

/** A page of a small hand-written site: the same header, menu and footer around its own text. */
function page(n: number): string {
  return `<!doctype html><html><head><title>Page ${n}</title></head><body>
<header><a href="/index.html">Home</a> <a href="/p1.html">First</a> <a href="/p2.html">Second</a></header>
<nav><ul><li><a href="/p3.html">Guides and tutorials</a></li><li><a href="/p4.html">Reference manual</a></li><li><a href="/p5.html">Questions asked often</a></li></ul></nav>
<main><h1>Article number ${n}</h1><p>Word ${n} tells its own story about item ${n * 7}, unlike the others, with ${n * 13} facts.</p>
<p>A second paragraph for page ${n}: ${n % 2 === 0 ? 'even pages talk about rivers and boats' : 'odd pages talk about mountains and trails'}.</p></main>
<footer><p>Copyright the example authors. All rights reserved. Contact us by mail.</p><a href="/about.html">About this site</a></footer>
</body></html>`;
}

const warcPages = (ns: number[]): WarcPage[] => ns.map((n) => ({ key: n === 0 ? 'index.html' : `p${n}.html`, body: page(n) }));

function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (/\.(html|txt)$/.test(f)) out.set(f, readFileSync(join(dir, f), 'utf8'));
  }
  return out;
}

test('a glob of WARC files of one site is one source: keys under the common root, the first part wins a key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-glob-'));
  try {
    const baseUrl = 'http://example.test/';
    await writeWarc(warcPages([0, 1, 2]), join(dir, 'crawl-0.warc.gz'), { baseUrl });
    await writeWarc([...warcPages([3]), { key: 'p1.html', body: page(99) }], join(dir, 'crawl-1.warc.gz'), { baseUrl });
    const s = await openSource(join(dir, 'crawl-*.warc.gz'));
    try {
      assert.equal(s.kind, 'warc');
      assert.equal(s.root, baseUrl);
      assert.equal(s.entry, `${baseUrl}index.html`);
      const pages = okPages(await collect(s));
      assert.deepEqual(pages.map((p) => p.key), ['index.html', 'p1.html', 'p2.html', 'p3.html']);
      assert.match(new TextDecoder().decode(pages[1]!.body), /Article number 1</);
      assert.deepEqual(okPages(await collect(s, 2)).map((p) => p.key), ['index.html', 'p1.html']);
      assert.equal((await s.get('p3.html')).url, `${baseUrl}p3.html`);
      assert.equal((await s.get(`${baseUrl}p1.html`)).key, 'p1.html');
      assert.equal(s.keyOf(`${baseUrl}p3.html`), 'p3.html');
      assert.equal(s.keyOf('http://elsewhere.test/p3.html'), undefined);
      await assert.rejects(s.get('p9.html'), { code: 'not-found' });
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a glob of directories is one source rooted at their folder; keys keep the part\'s folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-glob-'));
  try {
    for (const [part, ns] of [['part-a', [1, 2]], ['part-b', [3]]] as const) {
      mkdirSync(join(dir, part, 'docs'), { recursive: true });
      for (const n of ns) writeFileSync(join(dir, part, n === 2 ? 'docs' : '', `p${n}.html`), page(n));
    }
    mkdirSync(join(dir, 'other'));
    const s = await openSource(join(dir, 'part-?'));
    try {
      assert.equal(s.kind, 'dir');
      assert.equal(s.root, pathToFileURL(dir).href + '/');
      const pages = okPages(await collect(s));
      assert.deepEqual(pages.map((p) => p.key), ['part-a/docs/p2.html', 'part-a/p1.html', 'part-b/p3.html']);
      assert.equal(pages[2]!.url, pathToFileURL(join(dir, 'part-b', 'p3.html')).href);
      assert.equal((await s.get('part-b/p3.html')).key, 'part-b/p3.html');
      assert.equal(s.keyOf(pathToFileURL(join(dir, 'part-a', 'docs', 'p2.html')).href), 'part-a/docs/p2.html');
      assert.equal(s.urlOf('part-a/p1.html'), pathToFileURL(join(dir, 'part-a', 'p1.html')).href);
      // a folder of the common parent that the glob did not name is not part of the source
      assert.equal(s.keyOf(pathToFileURL(join(dir, 'other', 'x.html')).href), undefined);
      await assert.rejects(s.get('other/x.html'), { code: 'not-found' });
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a glob that matches nothing, or parts that are not one source, is a usage error naming it; archives of different sites are one source of several', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-glob-'));
  try {
    await assert.rejects(openSource(join(dir, 'crawl-*.warc.gz')), (err: unknown) => err instanceof UsageError && err.message === `no file or directory matches ${join(dir, 'crawl-*.warc.gz')}`);
    await assert.rejects(openSource(join(dir, 'a*', 'b*')), (err: unknown) => err instanceof UsageError && /only the last part of a path may be a pattern/.test(err.message));
    await writeWarc(warcPages([1]), join(dir, 'one.warc'), { baseUrl: 'http://one.test/' });
    await writeWarc(warcPages([2]), join(dir, 'two.warc'), { baseUrl: 'http://two.test/' });
    // archives of different sites: one source of several sites, keyed `host/path` as a mirror folder of them
    const sites = await openSource(join(dir, '*.warc'));
    try {
      assert.equal(sites.root, SITES_ROOT);
      const got = okPages(await collect(sites));
      assert.deepEqual(got.map((p) => [p.key, p.url]), [['one.test/p1.html', 'http://one.test/p1.html'], ['two.test/p2.html', 'http://two.test/p2.html']]);
      assert.equal(sites.keyOf('http://two.test/p2.html'), 'two.test/p2.html');
      assert.equal(sites.urlOf('two.test/p2.html'), 'http://two.test/p2.html');
      assert.equal((await sites.get('http://one.test/p1.html')).key, 'one.test/p1.html');
    } finally {
      await sites.close();
    }
    mkdirSync(join(dir, 'pages.warc'));
    writeFileSync(join(dir, 'pages.warc', 'p.html'), page(1));
    await assert.rejects(openSource(join(dir, '*.warc')), (err: unknown) => err instanceof UsageError && /not of one kind/.test(err.message));
    // one match is that source itself
    assert.equal((await openSource(join(dir, 'o*.warc'))).root, 'http://one.test/');

    const r = await gabarit(['template', join(dir, 'crawl-*.warc.gz'), '-m', 'pagelets', '--out', join(dir, 'out')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /no file or directory matches .*crawl-\*\.warc\.gz/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('gabarit template over a glob of WARC files writes what it writes for one WARC file of the same pages', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-glob-'));
  try {
    const baseUrl = 'http://example.test/';
    const ns = [0, 1, 2, 3, 4, 5, 6, 7];
    await writeWarc(warcPages(ns.slice(0, 4)), join(dir, 'crawl-0.warc.gz'), { baseUrl });
    await writeWarc(warcPages(ns.slice(4)), join(dir, 'crawl-1.warc.gz'), { baseUrl });
    await writeWarc(warcPages(ns), join(dir, 'all.warc.gz'), { baseUrl });
    const run = (src: string, out: string) => gabarit(['--quiet', 'template', src, '-m', 'pagelets', '--global', '--out', join(dir, out)]);
    const [glob, one] = [await run(join(dir, 'crawl-*.warc.gz'), 'glob'), await run(join(dir, 'all.warc.gz'), 'one')];
    assert.equal(glob.code, 0, glob.stderr);
    assert.equal(one.code, 0, one.stderr);
    const [a, b] = [tree(join(dir, 'glob')), tree(join(dir, 'one'))];
    assert.equal(a.size, 16);
    assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
    for (const [f, text] of a) assert.equal(text, b.get(f), f);
    assert.ok([...a.values()].some((t) => t.includes('data-gabarit="template"')), 'the shared header and footer are marked as template');
    const summary = JSON.parse(readFileSync(join(dir, 'glob', 'summary.json'), 'utf8')) as { engine: { pagelets: { algorithm: string; pages: number } } };
    assert.deepEqual([summary.engine.pagelets.algorithm, summary.engine.pagelets.pages], ['global', 8]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
