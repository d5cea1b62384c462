/**
 * Wrappers by example that hold across a site's records, through the command line: a second block of the
 * example's class on other pages (`By: <a>…</a>` then `More in <a>series</a>`) is told apart by the
 * label the example had (the wrapper file says which label and the rule); a field with one author on some
 * pages and several on others is a list of the labelled block's items only; one pattern is learned from
 * two example pages, with values given per page (`--example page:name=value`, `--examples FILE`), and
 * stderr says on how many example pages it holds. Pages written here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from '../cli/gabarit-process.ts';

interface Book {
  file: string;
  title: string;
  authors: string[];
  /** A second block of the author block's class. */
  series?: string;
  publisher: string;
}

/** A book page: the authors' block, optionally a series block of the same class after it, a details table. */
function bookPage(b: Book): string {
  const link = (x: string): string => `<a href="/search?q=${encodeURIComponent(x)}">${x}</a>`;
  const series = b.series ? `<div class="product-author">More in ${link(b.series)}</div>` : '';
  return `<!doctype html><html><head><title>${b.title}</title></head><body>
<div id="main"><h1 class="title">${b.title}</h1>
<div class="product-author">By: ${b.authors.map(link).join(', ')}</div>
${series}
<table class="details"><tr><th>Publisher:</th><td>${b.publisher}</td></tr><tr><th>Pages:</th><td>320</td></tr></table>
<p>A story told well, with <a href="/reviews">reviews</a>.</p></div></body></html>`;
}

const BOOKS: Book[] = [
  { file: 'game-over.html', title: 'Game Over', authors: ['Fern Michaels'], publisher: 'Zebra' },
  { file: 'deep-water.html', title: 'Deep Water', authors: ['Ann Cleeves'], series: 'Shetland', publisher: 'Macmillan' },
  { file: 'red-sky.html', title: 'Red Sky', authors: ['Lee Child'], publisher: 'Bantam' },
  { file: 'blue-moon.html', title: 'Blue Moon', authors: ['Lee Child'], series: 'Jack Reacher', publisher: 'Delacorte' },
  { file: 'window.html', title: 'The Window', authors: ['Glenn Beck', 'Kevin Balfe'], series: 'Thrillers', publisher: 'Threshold' },
];

async function site(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-labels-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const b of BOOKS) await writeFile(join(dir, b.file), bookPage(b));
  return dir;
}

interface Line {
  page: string;
  record: Record<string, unknown>;
  steps: Record<string, { step: string; reason?: string; chosenBy?: string }>;
}

/** The JSON lines of a run: one record per page. */
const lines = (text: string): Line[] => text.split('\n').flatMap((l) => (l.trim() ? [JSON.parse(l) as Line] : []));

function bookOf(line: Line): Book {
  return BOOKS.find((b) => line.page.endsWith(b.file))!;
}

test('a second block of the example\'s class is told apart by the label the example had; the wrapper file says it', async (t) => {
  const dir = await site(t);
  const w = join(dir, 'w.json');
  const made = await gabarit(['wrapper', 'create', join(dir, 'game-over.html'), '--example', 'author=Fern Michaels', '--example', 'publisher=Zebra', '-o', w]);
  assert.equal(made.code, 0, made.stderr);
  const file = JSON.parse(await readFile(w, 'utf8')) as { patterns: Array<{ name: string; choose?: { label?: string; rule: string } }> };
  const author = file.patterns.find((p) => p.name === 'author')!;
  assert.equal(author.choose?.label, 'By:');
  assert.match(author.choose!.rule, /labelled "By:".*tree-gram.*ambiguous/);
  const run = await gabarit(['wrapper', 'run', w, ...BOOKS.filter((b) => b.authors.length === 1).map((b) => join(dir, b.file))]);
  assert.equal(run.code, 0, run.stderr);
  const got = lines(run.stdout);
  assert.equal(got.length, 4);
  for (const l of got) {
    assert.equal(l.record['author'], bookOf(l).authors[0], l.page);
    assert.equal(l.record['publisher'], bookOf(l).publisher, l.page);
    // Where the series block is there, the label decided.
    if (bookOf(l).series) assert.equal(l.steps['author']!.chosenBy, 'label', l.page);
  }
});

test('a field with one author on some pages and several on others: the list is the labelled block\'s items', async (t) => {
  const dir = await site(t);
  const w = join(dir, 'w.json');
  const made = await gabarit(['wrapper', 'create', join(dir, 'game-over.html'), '--example', 'author[]=Fern Michaels', '-o', w]);
  assert.equal(made.code, 0, made.stderr);
  const run = await gabarit(['wrapper', 'run', w, ...BOOKS.map((b) => join(dir, b.file))]);
  assert.equal(run.code, 0, run.stderr);
  const got = lines(run.stdout);
  assert.equal(got.length, BOOKS.length);
  for (const l of got) assert.deepEqual(l.record['author'], bookOf(l).authors, l.page);
});

test('one pattern from two example pages (values per page, on the command line or in a file), and on how many it holds', async (t) => {
  const dir = await site(t);
  const w = join(dir, 'w.json');
  const made = await gabarit([
    'wrapper',
    'create',
    join(dir, 'game-over.html'),
    join(dir, 'deep-water.html'),
    '--example',
    'author=Fern Michaels',
    '--example',
    'deep-water.html:author=Ann Cleeves',
    '--example',
    `${join(dir, 'deep-water.html')}:title=Deep Water`,
    '-o',
    w,
  ]);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stderr, /example "author": .*holds on 2 of 2 example pages; one value; label "By:" \(it left other matches out on 1 example page\)/);
  assert.match(made.stderr, /example "title": .*holds on 1 of 1 example page/);
  const run = await gabarit(['wrapper', 'run', w, ...BOOKS.filter((b) => b.authors.length === 1).map((b) => join(dir, b.file))]);
  assert.equal(run.code, 0, run.stderr);
  for (const l of lines(run.stdout)) {
    assert.equal(l.record['author'], bookOf(l).authors[0], l.page);
    assert.equal(l.record['title'], bookOf(l).title, l.page);
  }
  // The same from a JSON file of examples; a list on one page and one value on the other make a list.
  const examples = join(dir, 'examples.json');
  await writeFile(examples, JSON.stringify({ 'window.html': { author: ['Glenn Beck', 'Kevin Balfe'] }, 'red-sky.html': { author: 'Lee Child' } }));
  const w2 = join(dir, 'w2.json');
  const fromFile = await gabarit(['wrapper', 'create', join(dir, 'red-sky.html'), join(dir, 'window.html'), '--examples', examples, '-o', w2]);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.match(fromFile.stderr, /example "author": .*holds on 2 of 2 example pages; a list \(1 to 2 values per example page\)/);
  const all = await gabarit(['wrapper', 'run', w2, ...BOOKS.map((b) => join(dir, b.file))]);
  for (const l of lines(all.stdout)) assert.deepEqual(l.record['author'], bookOf(l).authors, l.page);
  // A page an example names that is not one of the pages is a usage error.
  const bad = await gabarit(['wrapper', 'create', join(dir, 'red-sky.html'), '--example', 'nowhere.html:author=Lee Child']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /"nowhere\.html" is not one of the pages given/);
});
