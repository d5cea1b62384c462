import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentEngine } from '../../src/content/engine.ts';
import { chooseMainBlock } from '../../src/content/main-block.ts';
import { pathKeys, voteKey } from '../../src/content/site-vote.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml } from '../../src/html/parse.ts';
import { textOf } from '../../src/html/text.ts';
import { MemorySource } from '../../src/site/memory-source.ts';

const para = (s: string, n: number): string => Array.from({ length: n }, (_, i) => `<p>${s} sentence ${i} goes on long enough to be running text of a page.</p>`).join('');
/** A page of the site: the story in div.story, and a box of other text (short on most pages). */
function page(i: number, boxParas: number): string {
  return `<html><head><title>Page ${i}</title></head><body><div id="top"><a href="/">Home</a> <a href="/news">News</a></div>
<div id="main"><div class="story"><h1>Story ${i}</h1>${para(`Story ${i}`, 6)}</div></div>
<div id="aside"><div class="box">${para(`Box of page ${i}`, boxParas)}</div></div></body></html>`;
}

test('path keys are equal for the same place on two pages, different elsewhere', () => {
  const a = parseHtml(page(1, 1));
  const b = parseHtml(page(2, 9));
  const ka = pathKeys(a);
  const kb = pathKeys(b);
  const story = (t: ReturnType<typeof parseHtml>): number => t.elementChildren(t.elementChildren(t.body())[1]!)[0]!;
  assert.equal(ka[story(a)], kb[story(b)]);
  assert.notEqual(ka[story(a)], ka[a.body()]);
});

test('voteKey: the key most pages share, null when too few pages or no majority', () => {
  assert.equal(voteKey([7, 7, 7, 3], 0.5, 3), 7);
  assert.equal(voteKey([7, 7], 0.5, 3), null);
  assert.equal(voteKey([1, 2, 3, 4], 0.5, 3), null);
});

test('a page whose own choice lies elsewhere takes the place the site votes for', () => {
  const tree = parseHtml(page(4, 14));
  const template = new Uint8Array(tree.size);
  const own = chooseMainBlock(tree, template);
  assert.match(textOf(tree, tree.body(), (i) => own.content[i] === 1), /Box of page 4/, 'alone, the page takes in the long box');
  const keys = pathKeys(tree);
  const main = tree.elementChildren(tree.body())[1]!;
  const storyKey = keys[tree.elementChildren(main)[0]!]!;
  const voted = chooseMainBlock(tree, template, { site: { keys, key: storyKey } });
  assert.equal(tree.attr(voted.root, 'class'), 'story');
  const text = textOf(tree, tree.body(), (i) => voted.content[i] === 1);
  assert.match(text, /Story 4 sentence 3/);
  assert.doesNotMatch(text, /Box of page 4/);
});

test('the content engine holds the first pages, votes, and moves the odd page (align on a group)', async () => {
  const pages = [1, 2, 3, 4, 5].map((i) => ({ key: `p${i}.html`, body: page(i, i === 5 ? 14 : 1) }));
  const texts = new Map<string, string>();
  const run = await contentEngine({ method: 'align' }).run({
    source: new MemorySource(pages), labels: new LabelTable(), options: {}, onFailure: () => undefined,
    onPage: async (m) => void texts.set(m.key, textOf(m.tree, m.tree.body(), (i) => m.content![i] === 1)),
  });
  assert.equal(texts.size, 5);
  assert.equal(run.summary['siteVote'], true);
  assert.match(texts.get('p5.html')!, /Story 5 sentence 3/);
  assert.doesNotMatch(texts.get('p5.html')!, /Box of page 5/);
  const off = new Map<string, string>();
  await contentEngine({ method: 'align', siteVote: false }).run({
    source: new MemorySource(pages), labels: new LabelTable(), options: {}, onFailure: () => undefined,
    onPage: async (m) => void off.set(m.key, textOf(m.tree, m.tree.body(), (i) => m.content![i] === 1)),
  });
  assert.match(off.get('p5.html')!, /Box of page 5/, 'without the vote the odd page keeps its own choice');
});
