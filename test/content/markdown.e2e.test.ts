/**
 * `gabarit content --format markdown` through the command line: a hand-written page with a table, a code
 * block, nested lists, links with text, without text and around an image (test/fixtures/markdown/), and
 * the demo site (examples/site), whose breadcrumb links hold template text only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit, ROOT } from '../cli/gabarit-process.ts';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'markdown', 'gear-notes.html');

test('content --format markdown: a table, a code block with its language, nested lists, links with and without text, images', async () => {
  const out = await mkdtemp(join(tmpdir(), 'gabarit-md-'));
  try {
    const r = await gabarit(['content', FIXTURE, '--format', 'markdown', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const md = await readFile(join(out, 'gear-notes.md'), 'utf8');
    // The title once, the page's own headings one level below it.
    assert.match(md, /^# Packing notes for a wet week\n/);
    assert.equal(md.match(/^# /gm)?.length, 1, md);
    assert.match(md, /^## What we carried$/m);
    // A table with its header row, and a `|` inside a cell escaped.
    assert.match(md, /^\| Item +\| Weight +\| Verdict +\|$/m);
    assert.match(md, /^\| -+ \| -+ \| -+ \|$/m);
    assert.match(md, /^\| Shell jacket +\| 410 g +\| dry \\\| mostly \|$/m);
    // The code block fenced, with its language and its blank line kept.
    assert.match(md, /^```python\ndef total\(items\):\n {4}return sum\(w for _, w in items\)\n\nprint\(total\(\[\("tent", 1480\), \("shell", 410\)\]\)\)\n```$/m);
    // Nested lists keep their nesting and their kind.
    assert.match(md, /^- Torso$/m);
    assert.match(md, /^ {2}- Fleece$/m);
    assert.match(md, /^ {4}1\. grid fleece$/m);
    assert.match(md, /^ {4}2\. spare in a dry bag$/m);
    // Links: with text, empty with a title, empty with an aria-label, around an image, and an image alone.
    assert.match(md, /\[full kit list\]\(kit-list\.html\)/);
    assert.match(md, /\[Route map\]\(\.\.\/maps\/route\.html "Route map"\)/);
    assert.match(md, /\[Stove review\]\(stove\.html\)/);
    assert.match(md, /\[!\[Tent under the pines\]\(photos\/camp-small\.jpg\)\]\(photos\/camp-large\.jpg\)/);
    assert.match(md, /!\[Socks on a line\]\(photos\/line\.jpg\)/);
    // A link with nothing to show is left out, its target too; no empty link anywhere.
    assert.doesNotMatch(md, /nothing\.html/);
    assert.match(md, /A link with nothing in it and one named/);
    assert.doesNotMatch(md, /\[\]\(/);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

async function files(dir: string, ext: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => join(e.parentPath, e.name));
}

test('content --format markdown on the demo site: no empty link on any page', async () => {
  const out = await mkdtemp(join(tmpdir(), 'gabarit-md-'));
  try {
    const r = await gabarit(['content', join(ROOT, 'examples', 'site'), '--format', 'markdown', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const pages = await files(join(ROOT, 'examples', 'site'), '.html');
    const mds = await files(out, '.md');
    assert.equal(mds.length, pages.length, 'one Markdown file per page');
    const empty: string[] = [];
    for (const f of mds) if ((await readFile(f, 'utf8')).includes('[](')) empty.push(f.slice(out.length + 1));
    assert.deepEqual(empty, [], 'pages with an empty link');
    // The links whose text is content stay, relative as the page wrote them.
    const product = await readFile(join(out, 'shop', 'ridgeline-2-tent.md'), 'utf8');
    assert.match(product, /\[Tents & shelters\]\(\.\.\/tags\/tents\.html\)/);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
