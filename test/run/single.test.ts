/**
 * One page is a valid source, mixed crawls are grouped by site, and no run succeeds empty: a page file, a
 * one-page directory and a directory of pages of many sites each get the best single-page answer where a
 * site has one page (the main block alone), a template where it has several; a page left with no content
 * is named (`no-content`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractContent } from '../../src/run/content.ts';
import { declaredUrl, groupPages, groupSource, hostOf, resemblance } from '../../src/run/sites.ts';
import { detectTemplate } from '../../src/run/template.ts';
import type { PageDone } from '../../src/run/types.ts';
import { recordOf } from '../../src/run/write.ts';
import { DirSource } from '../../src/site/dir-source.ts';
import { MemorySource } from '../../src/site/memory-source.ts';
import { keptText } from '../../src/template/result.ts';
import { lonePage, sitePage, writeMixed } from './fixtures.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-single-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function done(run: AsyncIterable<import('../../src/run/types.ts').PageOutcome>): Promise<Map<string, PageDone>> {
  const out = new Map<string, PageDone>();
  for await (const o of run) {
    assert.ok(o.ok, `${o.key}: ${o.ok ? '' : o.failure.message}`);
    out.set(o.key, o);
  }
  return out;
}

test('a page file is a source of one page: its main block, for template and content alike', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'page.html');
  await writeFile(file, lonePage('gamma', 1));
  const first = detectTemplate(file, { method: 'align' });
  for (const run of [first, extractContent(file)]) {
    const pages = await done(run);
    assert.deepEqual([...pages.keys()], ['page.html']);
    const p = pages.get('page.html')!;
    assert.equal(p.info['method'], 'main-block');
    assert.equal(p.noContent, undefined);
    const text = keptText(p.marks);
    assert.match(text, /Story 101 tells of the/);
    assert.doesNotMatch(text, /all rights reserved/);
    assert.equal(p.info['headline'], 'gamma: a report', 'the headline of the main content');
    assert.equal(p.info['title'], 'gamma', "the document's <title>");
    assert.equal(recordOf(p).headline, 'gamma: a report');
    assert.equal(recordOf(p).title, 'gamma');
    // template keeps the headline in the text; content gives it as its own field (headline: 'field').
    if (run === first) assert.match(text, /gamma: a report/);
    else assert.doesNotMatch(text, /gamma: a report/);
    const r = await run.result();
    assert.equal(r.pagesDone, 1);
    assert.equal(r.pagesNoContent, 0);
  }
});

test('a one-page directory: not an empty page (as alignment of one page with itself would give)', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'one'));
  await writeFile(join(dir, 'one', 'index.html'), sitePage('alpha', 3, 1));
  for (const method of ['align', 'hyperlink', 'pagelets'] as const) {
    const pages = await done(detectTemplate(join(dir, 'one'), { method }));
    const text = keptText(pages.get('index.html')!.marks);
    assert.match(text, /Story 3 tells of the/, method);
  }
});

test('the site of a page: its URL, else the URL it declares, else the pages it resembles', () => {
  assert.equal(hostOf('https://www.Example.org/a'), 'example.org');
  assert.equal(hostOf('file:///tmp/a.html'), undefined);
  assert.equal(hostOf('http://memory.invalid/a.html'), undefined);
  assert.equal(declaredUrl('<head><link href="https://a.example/x" rel="canonical"></head>'), 'https://a.example/x');
  assert.equal(declaredUrl("<meta content='https://b.example/y' property='og:url'>"), 'https://b.example/y');
  assert.equal(declaredUrl('<base href="http://c.example/z/">'), 'http://c.example/z/');
  assert.equal(declaredUrl('<base href="."><link rel="stylesheet" href="https://cdn.example/s.css">'), undefined);
  const ev = (xs: number[]): Int32Array => Int32Array.from(xs).sort();
  const range = (a: number, b: number): number[] => Array.from({ length: b - a }, (_, i) => a + i);
  const groups = groupPages(
    [
      { key: 'a1', host: undefined, evidence: ev([...range(1, 10), 100]) },
      { key: 'h1', host: 'h.example', evidence: ev(range(50, 60)) },
      { key: 'a2', host: undefined, evidence: ev([...range(1, 10), 101]) },
      { key: 'x', host: undefined, evidence: ev([1, 2, 3, 90, 91, 92]) },
      { key: 'h2', host: 'h.example', evidence: null },
      { key: 'b1', host: undefined, evidence: ev(range(50, 61)) },
    ],
    'dir/',
  );
  assert.deepEqual(
    groups.map((g) => [g.site, g.by, g.keys]),
    [
      ['h.example', 'host', ['h1', 'h2', 'b1']],
      ['dir/', 'similar', ['a1', 'a2']],
      ['dir/#2', 'alone', ['x']],
    ],
  );
});

test("resemblance: the share of the smaller page's evidence in the other, the smaller counted as at least the floor", () => {
  const range = (a: number, b: number): Int32Array => Int32Array.from({ length: b - a }, (_, i) => a + i);
  // A short page's 30 items all in a long page's 600: linked whatever the long page adds (Jaccard 0.05).
  assert.equal(resemblance(range(0, 30), range(0, 600), 10), 1);
  assert.equal(resemblance(range(0, 600), range(0, 30), 10), 1, 'symmetric');
  assert.equal(resemblance(range(0, 30), range(15, 45), 10), 0.5);
  // A page of 3 items is counted as 10: sharing 1 item is 0.1, not 1/3.
  assert.equal(resemblance(range(0, 3), range(2, 40), 10), 0.1);
  assert.equal(resemblance(range(0, 3), range(50, 60), 10), 0);
  assert.equal(resemblance(new Int32Array(0), new Int32Array(0), 10), 0);
});

test('a mixed crawl: each site learned apart, pages alone get their main block, every page keeps its article', async (t) => {
  const dir = await tempDir(t);
  await writeMixed(join(dir, 'mixed'));
  const groups = (await groupSource(new DirSource(join(dir, 'mixed')), () => undefined))!;
  const sites = groups.map((g) => g.keys.slice().sort().join(' ')).sort();
  assert.deepEqual(sites, ['alpha-0.html alpha-1.html alpha-2.html', 'beta-0.html beta-1.html beta-2.html', 'delta.html', 'gamma.html', 'lone-1.html', 'lone-2.html']);
  for (const run of [detectTemplate(join(dir, 'mixed'), { method: 'align' }), extractContent(join(dir, 'mixed'))]) {
    const pages = await done(run);
    assert.equal(pages.size, 10);
    for (const [key, p] of pages) {
      const text = keptText(p.marks);
      assert.match(text, /Story \d+ tells of the/, `${key}: the article is kept`);
      assert.equal(p.noContent, undefined, key);
      if (key.startsWith('alpha') || key.startsWith('beta')) assert.doesNotMatch(text, /Contact, terms and privacy/, `${key}: the site's footer is template`);
      else assert.equal(p.info['method'], 'main-block', key);
    }
    const r = await run.result();
    const engine = r.engine as { sites: Array<{ site: string; pages: number; method: string }>; sitesAlone: number };
    assert.equal(engine.sites.length, 6);
    assert.equal(engine.sitesAlone, 4);
  }
});

test('no empty success: a page whose text is all template is named no-content, with a count', async () => {
  const menuOnly = (i: number): string => `<html><head><title>M${i}</title></head><body><nav><a href="a.html">Alpha section</a> <a href="b.html">Beta section</a> <a href="c.html">Gamma section</a></nav><footer>Same footer on every page of the site</footer></body></html>`;
  const pages = [0, 1, 2, 3].map((i) => ({ key: `p${i}.html`, body: sitePage('alpha', i, 4) }));
  pages.push({ key: 'menu.html', body: menuOnly(0) });
  pages.push({ key: 'menu2.html', body: menuOnly(1).replace('<nav>', '<nav class="x">') });
  const run = detectTemplate(new MemorySource(pages), { method: 'align' });
  const named: string[] = [];
  for await (const o of run) if (o.ok && o.noContent) named.push(`${o.key}:${o.noContent.code}`);
  const r = await run.result();
  assert.deepEqual(named.sort(), ['menu.html:no-content', 'menu2.html:no-content']);
  assert.equal(r.pagesNoContent, 2);
  assert.equal(r.pagesDone, 6);
});

test('an HTML page whose body has no text at all is named too', async () => {
  const src = new MemorySource([{ key: 'frames.html', body: '<html><frameset><frame src="a.html"></frameset></html>' }]);
  const run = extractContent(src);
  const out: string[] = [];
  for await (const o of run) if (o.ok && o.noContent) out.push(o.noContent.message);
  assert.equal(out.length, 1);
  assert.match(out[0]!, /no text in its body/);
});
