/**
 * `gabarit wrapper create|run` as a user runs them (a child process, from the sources), on the demo
 * wrapper's pages: records as JSON lines, the step per pattern, the exit codes (0 all found, 1 some
 * pattern could not be adapted, 2 bad wrapper file), and `--update` writing the adapted wrapper.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gabarit, ROOT } from '../cli/gabarit-process.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrapperDemo } from '../../examples/wrapper/demo.ts';

const ORIGINAL = join(ROOT, 'examples', 'site', 'shop', 'cairn-45-backpack.html');
const REDESIGNED = join(ROOT, 'examples', 'wrapper', 'redesigned', 'cairn-45-backpack.html');

test('wrapper create + run: selectors on the original, adaptation on the redesign, failure told by the exit code', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-wrapper-'));
  try {
    const w = join(dir, 'w.json');
    const created = await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'product=article.product', '--pattern', 'product/name=h1', '--pattern', 'product/price=p.price', '--out', w]);
    assert.equal(created.code, 0, created.stderr);
    const other = join(dir, 'other.html');
    await writeFile(other, '<html><body><p>nothing here</p></body></html>');
    const ran = await gabarit(['wrapper', 'run', w, ORIGINAL, REDESIGNED, other]);
    assert.equal(ran.code, 1, 'a page where the wrapper could not adapt makes exit code 1');
    const lines = ran.stdout.trim().split('\n').map((l) => JSON.parse(l) as { page: string; record: { product: { name: string; price: string } | null }; steps: Record<string, { step: string }> });
    assert.equal(lines.length, 3);
    assert.deepEqual(lines[0]!.record.product, { name: 'Cairn 45 Backpack', price: '£179.00' });
    assert.equal(lines[0]!.steps['product']!.step, 'selector');
    assert.deepEqual(lines[1]!.record.product, { name: 'Cairn 45 Backpack', price: '£179.00' });
    assert.equal(lines[1]!.steps['product']!.step, 'ctm');
    assert.equal(lines[2]!.record.product, null);
    assert.equal(lines[2]!.steps['product']!.step, 'not-found');
    assert.match(ran.stderr, /other\.html: pattern "product" not found \(no instance found; best similarity 0\.000/);
    // --update writes the adapted wrapper; it then reads the redesign with its selectors (exit 0).
    const w2 = join(dir, 'w2.json');
    assert.equal((await gabarit(['wrapper', 'run', w, REDESIGNED, '--update', w2])).code, 0);
    assert.equal(JSON.parse(await readFile(w, 'utf8')).history, undefined, 'the original file is left alone');
    const again = await gabarit(['wrapper', 'run', w2, REDESIGNED]);
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.stdout).steps.product.step, 'selector');
    // A broken wrapper file is a usage error naming the problem.
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ version: 1, patterns: [{ name: 'x' }] }));
    const bad = await gabarit(['wrapper', 'run', join(dir, 'bad.json'), ORIGINAL]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /patterns\.0\.selector: Required/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the demo wrapper survives the redesign of the demo shop', () => {
  const lines: string[] = [];
  assert.equal(wrapperDemo((l = '') => lines.push(l)), true, lines.join('\n'));
  const text = lines.join('\n');
  // The product record is found by clustered tree matching on every redesigned page; no field is wrong.
  assert.equal(lines.filter((l) => /^\s+product\s+ctm 0\.\d\d/.test(l)).length, 3, text);
  assert.match(text, /fields: \d+ right, \d+ refused, 0 wrong/);
  // The policy moved to a new CMS: element labels give up, the content view finds the same text.
  assert.match(text, /element labels only: could not adapt/);
  assert.match(text, /with the content view: ctm \(content view\) [01]\.\d\d → .*same text as before/);
  // The terms moved to another page of the site and were rewritten: only the document view finds them.
  assert.match(text, /terms moved from .*\n.*before the move: selector\n.*element labels only: could not adapt\n.*with the content view: could not adapt\n.*with the document view \(same site, same title\): document 0\.\d\d → .*the new terms, whole/);
});

test('wrapper run: the content view finds a document moved to a new CMS; --no-content refuses it', async () => {
  const original = join(ROOT, 'examples', 'site', 'privacy.html');
  const moved = join(ROOT, 'examples', 'wrapper', 'redesigned', 'privacy.html');
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-wrapper-'));
  try {
    const w = join(dir, 'policy.json');
    assert.equal((await gabarit(['wrapper', 'create', original, '--pattern', 'policy=main#content', '--out', w])).code, 0);
    const ran = await gabarit(['wrapper', 'run', w, moved]);
    assert.equal(ran.code, 0, ran.stderr);
    const line = JSON.parse(ran.stdout) as { record: { policy: string | null }; steps: Record<string, { step: string; view?: string; selector?: string }> };
    assert.equal(line.steps['policy']!.step, 'ctm');
    assert.equal(line.steps['policy']!.view, 'content');
    assert.match(line.record.policy ?? '', /keep your matches in two places/);
    assert.match(ran.stderr, /adapted by ctm on the content view/);
    const refused = await gabarit(['wrapper', 'run', w, moved, '--no-content']);
    assert.equal(refused.code, 1);
    assert.equal((JSON.parse(refused.stdout) as { record: { policy: string | null } }).record.policy, null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('wrapper run -o DIR writes records.jsonl and summary.json (pages, per pattern how found or why not)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-wrapper-'));
  try {
    const w = join(dir, 'w.json');
    assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'product=article.product', '--pattern', 'product/name=h1', '-o', w])).code, 0);
    const other = join(dir, 'other.html');
    await writeFile(other, '<html><body><p>nothing here</p></body></html>');
    const out = join(dir, 'out');
    const ran = await gabarit(['wrapper', 'run', w, ORIGINAL, REDESIGNED, other, '-o', out]);
    assert.equal(ran.code, 1);
    assert.equal(ran.stdout, '', 'the records go to the folder');
    const lines = (await readFile(join(out, 'records.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 3);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.command, 'wrapper run');
    assert.equal(summary.pagesDone, 3);
    assert.equal(summary.pagesFailed, 0);
    assert.equal(summary.pagesIncomplete, 1);
    assert.deepEqual(summary.patterns.product, { steps: { selector: 1, ctm: 1, 'not-found': 1 }, notFound: { 'not-similar': 1 } });
    assert.deepEqual(summary.incomplete, [{ page: other, notFound: [{ pattern: 'product', reason: 'not-similar' }] }]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('wrapper create and run: a missing page file is a usage error (exit 2), like every command', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-wrapper-'));
  try {
    const created = await gabarit(['wrapper', 'create', join(dir, 'nope.html'), '--pattern', 'x=p']);
    assert.equal(created.code, 2);
    assert.match(created.stderr, /no such page file: .*nope\.html/);
    const w = join(dir, 'w.json');
    assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'name=h1', '-o', w])).code, 0);
    const ran = await gabarit(['wrapper', 'run', w, ORIGINAL, join(dir, 'nope.html')]);
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /no such page file: .*nope\.html/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('wrapper create: patterns with @attr, ::after, a refused ambiguous selector, an invalid one, examples as lists', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-wrapper-'));
  try {
    const page = join(dir, 'book.html');
    await writeFile(
      page,
      `<html><head><title>Game Over</title><meta name="description" content="A novel"></head><body>
<h1>Game Over</h1><p class="by">by <a href="/author/1">Fern Michaels</a> and <a href="/author/2">Laural Merlington</a></p>
<div class="facts"><b>Publisher:</b> Zebra<br><b>Publication Date:</b> June 2008<br></div></body></html>`,
    );
    const w = join(dir, 'w.json');
    const created = await gabarit(['wrapper', 'create', page, '--pattern', 'title=title', '--pattern', 'description=meta[name=description]@content', '--pattern', 'first=(//p/a)[1]/@href', '--pattern', "date=//b[normalize-space()='Publication Date:']::after", '-o', w]);
    assert.equal(created.code, 0, created.stderr);
    const ran = await gabarit(['wrapper', 'run', w, page]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(JSON.parse(ran.stdout).record, { title: 'Game Over', description: 'A novel', first: '/author/1', date: 'June 2008' });
    // At create, the same single pattern is refused with what to do instead.
    const refused = await gabarit(['wrapper', 'create', page, '--pattern', 'author=p.by > a']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /pattern "author": selector "p\.by > a" matches 2 elements on the page, and a single value needs exactly one: write author\[\]=p\.by > a for a list/);
    const invalid = await gabarit(['wrapper', 'create', page, '--pattern', 'x=p[']);
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /pattern "x": invalid CSS selector "p\["/);
    // By example: a name given twice is a list; the text after a label is found.
    const byExample = await gabarit(['wrapper', 'create', page, '--example', 'author=Fern Michaels', '--example', 'author=Laural Merlington', '--example', 'publisher=Zebra', '-o', w]);
    assert.equal(byExample.code, 0, byExample.stderr);
    assert.match(byExample.stderr, /example "publisher": \/\/b\[normalize-space\(\)='Publisher:'\] \(the text after this label\)/);
    const again = await gabarit(['wrapper', 'run', w, page]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).record, { author: ['Fern Michaels', 'Laural Merlington'], publisher: 'Zebra' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
