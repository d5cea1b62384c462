/**
 * Bad input in a directory: every problem is reported by page and reason, and the other pages still come.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelTable } from '../../src/html/labels.ts';
import { textOf } from '../../src/html/text.ts';
import { DirSource } from '../../src/site/dir-source.ts';
import { parsePage, type PageResult } from '../../src/site/page.ts';
import { extractLinks } from '../../src/site/links.ts';
import { LinkGraph } from '../../src/site/graph.ts';
import { PageError } from '../../src/errors.ts';
import { openSource } from '../../src/site/source.ts';
import { FIXTURE_SITE } from './page-source-suite.ts';

test('a directory with broken, binary, empty, mis-declared and oversized pages: named failures, the run goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-bad-dir-'));
  try {
    const cap = 64 * 1024;
    writeFileSync(join(dir, 'a-good.html'), '<!DOCTYPE html><html><body><p>Fine.</p></body></html>');
    writeFileSync(join(dir, 'broken.html'), '<html><body><div><p>Cut <b>off <i>in the midd');
    writeFileSync(join(dir, 'binary.html'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x4c]));
    writeFileSync(join(dir, 'empty.html'), '');
    writeFileSync(join(dir, 'blank.htm'), '  \n\t\n');
    writeFileSync(join(dir, 'latin1.html'), Buffer.from('<html><head><meta charset="utf-8"></head><body>Caf\u00e9</body></html>', 'latin1'));
    writeFileSync(join(dir, 'unknown-charset.html'), '<html><head><meta charset="x-klingon"></head><body>Qapla</body></html>');
    writeFileSync(join(dir, 'huge.html'), '<html><body>' + '<p>x</p>'.repeat(cap / 4) + '</body></html>');
    writeFileSync(join(dir, 'notes.txt'), 'not a page');
    writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    writeFileSync(join(dir, 'README'), 'plain text without an extension');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'x.html'), '<html></html>');
    const s = new DirSource(dir, { maxBytes: cap });
    const results: PageResult[] = [];
    for await (const r of s.pages()) results.push(r);
    const summary = results.map((r) => (r.ok ? `ok ${r.page.key}` : `${r.error.code} ${r.key}`));
    assert.deepEqual(summary, [
      'ok a-good.html', 'binary binary.html', 'empty blank.htm', 'ok broken.html', 'empty empty.html', 'too-large huge.html',
      'ok latin1.html', 'ok unknown-charset.html',
    ]);
    const msg = (key: string): string => {
      const r = results.find((x) => !x.ok && x.key === key);
      assert.ok(r && !r.ok);
      assert.ok(r.error.message.startsWith(s.urlOf(key) + ': '), r.error.message);
      return r.error.message;
    };
    assert.match(msg('binary.html'), /binary content/);
    assert.match(msg('empty.html'), /empty \(0 bytes\)/);
    assert.match(msg('blank.htm'), /blank page \(5 bytes of white space\)/);
    assert.match(msg('huge.html'), new RegExp(`too large: \\d+ bytes exceeds the cap of ${cap} bytes`));
    const warnings = (key: string): readonly string[] => {
      const r = results.find((x) => x.ok && x.page.key === key);
      assert.ok(r && r.ok);
      return r.warnings ?? [];
    };
    assert.match(warnings('latin1.html').join('\n'), /latin1\.html: declared charset "utf-8" \(meta\) does not match the bytes: 1 undecodable/);
    assert.match(warnings('unknown-charset.html').join('\n'), /unknown-charset\.html: unsupported charset "x-klingon" \(meta\); falling back/);
    assert.deepEqual(warnings('a-good.html'), []);
    const broken = results.find((x) => x.ok && x.page.key === 'broken.html');
    assert.ok(broken?.ok);
    assert.match(textOf(parsePage(broken.page, new LabelTable())), /Cut\s+off\s+in the midd/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('openSource picks the kind of source from the spec', async () => {
  const d = await openSource(FIXTURE_SITE);
  assert.equal(d.kind, 'dir');
  assert.equal(d.keyOf(d.entry), 'index.html');
  const h = await openSource('http://127.0.0.1:9/docs/start.html');
  assert.equal(h.kind, 'http');
  assert.equal(h.root, 'http://127.0.0.1:9/docs/');
  assert.equal(h.keyOf('http://127.0.0.1:9/docs/'), 'index.html');
  assert.equal(h.keyOf('http://127.0.0.1:9/docs/a/?page=2'), 'a/index.html?page=2');
  assert.equal(h.urlOf('a/b c.html'), 'http://127.0.0.1:9/docs/a/b%20c.html');
  await h.close();
  const f = await openSource(join(FIXTURE_SITE, 'index.html'));
  const fk: string[] = [];
  for await (const r of f.pages()) if (r.ok) fk.push(r.page.key);
  assert.deepEqual(fk, ['index.html'], 'a page file is a source of one page');
  const custom = await openSource(FIXTURE_SITE, { entry: 'docs/' });
  assert.equal(custom.keyOf(custom.entry), 'docs/index.html');
});

test('root-relative links in a directory mean the directory (siteRootLinks), for every reader of links', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-rootlinks-'));
  try {
    mkdirSync(join(dir, 'about'));
    mkdirSync(join(dir, 'posts'));
    const menu = '<nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/posts/one.html">One</a></nav>';
    writeFileSync(join(dir, 'index.html'), `<html><body>${menu}</body></html>`);
    writeFileSync(join(dir, 'about', 'index.html'), `<html><body>${menu}</body></html>`);
    writeFileSync(join(dir, 'posts', 'one.html'), `<html><body>${menu}<a href="../about/">relative</a></body></html>`);
    const s = new DirSource(dir);
    // In a file:// page, href="/about/" resolves to file:///about/: the site root it meant is the directory.
    const one = await s.get('posts/one.html');
    const keys = extractLinks(parsePage(one, new LabelTable()), one.url).map((l) => s.keyOf(l.url));
    assert.deepEqual(keys, ['index.html', 'about/index.html', 'posts/one.html', 'about/index.html']);
    assert.equal((await s.get('file:///about/')).key, 'about/index.html', 'a root-relative URL loads the page under the directory');
    // The link graph (paper 2's CS, paper 3's pagelets, the crawler all read links this way) is complete.
    const g = await LinkGraph.fromSource(s);
    assert.deepEqual(g.mutual('about/index.html').sort(), ['index.html', 'posts/one.html']);
    // Turned off, a root-relative link leaves the directory, as file:// resolution says.
    const strict = new DirSource(dir, { siteRootLinks: false });
    assert.equal(strict.keyOf('file:///about/'), undefined);
    await assert.rejects(strict.get('file:///about/'), (e: unknown) => e instanceof PageError && e.code === 'off-site');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--max-bytes applies to directory and WARC sources: a larger page is refused and named, the others are read', async (t) => {
  const { gabarit } = await import('../cli/gabarit-process.ts');
  const { readFile } = await import('node:fs/promises');
  const { writeWarc, WarcSource } = await import('../../src/site/warc-source.ts');
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-max-bytes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const site = join(dir, 'site');
  mkdirSync(site);
  const page = (title: string, filler = ''): string => `<html><head><title>${title}</title></head><body><a href="index.html">home</a><p>${title}${filler}</p></body></html>`;
  writeFileSync(join(site, 'index.html'), page('Home'));
  writeFileSync(join(site, 'small.html'), page('Small'));
  writeFileSync(join(site, 'big.html'), page('Big', ' words'.repeat(2000)));
  const warc = join(dir, 'site.warc.gz');
  await writeWarc(site, warc, { baseUrl: 'http://cap.test/' });
  for (const spec of [site, warc]) {
    const out = join(dir, `out-${spec === site ? 'dir' : 'warc'}`);
    const r = await gabarit(['crawl', spec, '--max-bytes', '4000', '--out', out, '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /gabarit: \S*big\.html: too large: .*cap of 4000 bytes/, `${spec}: the page is named`);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number; failures: Array<{ key: string; code: string }> };
    assert.equal(summary.pagesDone, 2, spec);
    assert.deepEqual(summary.failures.map((f) => [f.key, f.code]), [['big.html', 'too-large']], spec);
  }
  // the WARC reader stops reading a payload at the cap and keeps none of it
  const source = await WarcSource.open(warc, { maxBytes: 4000 });
  await assert.rejects(source.get('big.html'), (e: unknown) => e instanceof PageError && e.code === 'too-large' && /stopped reading after \d+ bytes/.test(e.message));
  assert.equal((await source.get('small.html')).key, 'small.html');
  assert.equal((await WarcSource.open(warc)).entry, 'http://cap.test/index.html', 'the default cap takes every page');
});
