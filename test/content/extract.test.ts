import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMainContent } from '../../src/content/extract.ts';
import { parseHtml } from '../../src/html/parse.ts';

const STORY = `<html><head><title>Harbour bridge reopens - The Coast Post</title></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul>
<article><h1>Harbour bridge reopens</h1>
<p>The harbour bridge reopened on Monday after eight months of repairs to its deck and cables, the city said.</p>
<p>Traffic was light in the morning, and the first buses crossed at six, half an hour ahead of the timetable.</p>
<p>Engineers will keep one lane closed at night until the end of the month while the last joints are sealed.</p>
</article>
<div class="related"><a href="/a">Ferry fares rise again this winter</a><a href="/b">New cycle lane on the quay</a></div>
</body></html>`;

test('a page alone: the headline apart, the text is the body', () => {
  const mc = extractMainContent(parseHtml(STORY));
  assert.equal(mc.headline, 'Harbour bridge reopens');
  assert.ok(mc.headlineNode >= 0);
  assert.match(mc.text, /^The harbour bridge reopened on Monday/);
  assert.doesNotMatch(mc.text, /Harbour bridge reopens|Home|Ferry fares/);
  assert.match(mc.text, /last joints are sealed\.$/);
  assert.equal(mc.reason, undefined);
});

test("headline: 'first' puts the headline at the start of the text and in the marks", () => {
  const tree = parseHtml(STORY);
  const mc = extractMainContent(tree, { headline: 'first' });
  assert.match(mc.text, /^Harbour bridge reopens\nThe harbour bridge reopened/);
  assert.equal(mc.marks[mc.headlineNode], 1);
  assert.equal(extractMainContent(tree).marks[mc.headlineNode], 0);
});

test('with template marks, template text is never content', () => {
  const tree = parseHtml(STORY);
  const template = new Uint8Array(tree.size);
  for (let i = 0; i < tree.size; i++) if (tree.kind[i] === 2 && tree.nodeText(i).includes('Traffic was light')) template[i] = 1;
  const mc = extractMainContent(tree, { template });
  assert.doesNotMatch(mc.text, /Traffic was light/);
  assert.match(mc.text, /harbour bridge reopened/);
});

test('no headline: none is given, the title is the document title; empty pages say why', () => {
  const mc = extractMainContent(parseHtml('<html><head><title>Notes</title></head><body><p>A plain page holding a single paragraph of text, long enough to be read as one.</p></body></html>'));
  assert.equal(mc.title, 'Notes');
  assert.equal(mc.headline, '');
  assert.equal(mc.headlineNode, -1);
  assert.match(mc.text, /single paragraph/);
  const empty = extractMainContent(parseHtml('<html><body><div></div></body></html>'));
  assert.equal(empty.text, '');
  assert.equal(empty.reason, 'no-text');
  assert.equal(empty.title, '');
  assert.equal(empty.headline, '');
  const tree = parseHtml('<html><body><p>Only template text here.</p></body></html>');
  const all = extractMainContent(tree, { template: new Uint8Array(tree.size).fill(1) });
  assert.equal(all.reason, 'all-template');
});
