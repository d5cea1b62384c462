import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-meta-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A news page: JSON-LD (or a broken block in its place), OpenGraph, and a byline and date under its headline. */
function newsPage(n: number, ld: string): string {
  return `<!DOCTYPE html><html lang="en"><head><title>Story ${n} | Harbour News</title>
<meta property="og:title" content="OG title ${n}"><meta property="og:site_name" content="Harbour News">
<meta property="og:image" content="img/${n}.jpg">
<script type="application/ld+json">${ld}</script></head><body>
<nav><a href="index.html">Home</a> <a href="about.html">About</a></nav>
<article><h1>Story ${n}</h1><p class="byline">By Sam Quay</p><time datetime="2022-05-0${n}T09:30:00Z">May ${n}, 2022</time>
<p>Story ${n} tells of the ships that came in at dawn, ${'and of the cargo they carried, '.repeat(n + 2)}before the tide.</p></article>
<footer>Copyright Harbour News</footer></body></html>`;
}

const LD = (n: number): string => JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: `Story ${n}`, author: { '@type': 'Person', name: 'Lee Dock' }, datePublished: `2022-05-0${n}` });

test('content --format json: the page metadata, each field with its origin (JSON-LD first)', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'page.html'), newsPage(1, LD(1)));
  const r = await gabarit(['content', join(dir, 'page.html'), '--format', 'json', '--out', join(dir, 'out')]);
  assert.equal(r.code, 0, r.stderr);
  const page = JSON.parse(await readFile(join(dir, 'out', 'page.json'), 'utf8')) as { title: string; metadata: Record<string, { value: string; from: string }> };
  assert.equal(page.title, 'Story 1 | Harbour News', 'title stays the document title');
  assert.deepEqual(page.metadata['title'], { value: 'Story 1', from: 'json-ld' });
  assert.deepEqual(page.metadata['author'], { value: 'Lee Dock', from: 'json-ld' });
  assert.deepEqual(page.metadata['published'], { value: '2022-05-01', from: 'json-ld' });
  assert.deepEqual(page.metadata['siteName'], { value: 'Harbour News', from: 'opengraph' });
  assert.deepEqual(page.metadata['language'], { value: 'en', from: 'html' });
  assert.equal(page.metadata['image']?.from, 'opengraph');
  assert.match(page.metadata['image']!.value, /^file:\/\/.*\/img\/1\.jpg$/, 'resolved against the page address');
  assert.equal(page.metadata['description'], undefined, 'a field the page does not give is absent');
  // Text output stays as it was: no metadata in page.txt.
  assert.doesNotMatch(await readFile(join(dir, 'out', 'page.txt'), 'utf8'), /Lee Dock|json-ld/);
});

test('content --format jsonl on a site: every record carries metadata; a malformed JSON-LD block is a warning, not a failure', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'site'));
  for (const n of [1, 2, 3]) await writeFile(join(dir, 'site', `p${n}.html`), newsPage(n, n === 2 ? '{"@type": "NewsArticle", "headline": ' : LD(n)));
  const r = await gabarit(['content', join(dir, 'site'), '--format', 'jsonl', '--out', '-', '--method', 'align']);
  assert.equal(r.code, 0, r.stderr);
  const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { key: string; failure?: unknown; metadata: Record<string, { value: string; from: string }> });
  assert.deepEqual(records.map((x) => x.key).sort(), ['p1.html', 'p2.html', 'p3.html']);
  for (const x of records) {
    assert.equal(x.failure, undefined);
    if (x.key === 'p2.html') {
      // Its JSON-LD is left out: the other sources give the fields.
      assert.deepEqual(x.metadata['title'], { value: 'OG title 2', from: 'opengraph' });
      assert.deepEqual(x.metadata['author'], { value: 'Sam Quay', from: 'byline' });
      assert.deepEqual(x.metadata['published'], { value: '2022-05-02T09:30:00Z', from: 'time' });
    } else assert.equal(x.metadata['author']?.from, 'json-ld');
  }
  assert.match(r.stderr, /^gabarit: warning: file:\S*p2\.html: JSON-LD block 1 is not JSON \(.+\): left out$/m);
  assert.doesNotMatch(r.stderr, /p[13]\.html: JSON-LD/);
});
