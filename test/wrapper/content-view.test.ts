import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { selectAll } from '../../src/html/select.ts';
import { adapt } from '../../src/wrapper/adapt.ts';
import { alignBlocks, alignPairs, blockCtm, blockPairs, blockStm, blocksOf, gramBlocks, pageBlocks, WordSpace } from '../../src/wrapper/match/blocks.ts';
import { createWrapper } from '../../src/wrapper/create.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { makeTreeGram } from '../../src/wrapper/tree-gram.ts';
import { resolveSettings } from '../../src/wrapper/wrapper.ts';

const PARAGRAPHS = [
  'These terms govern the use of the service by every member who registers an account with us.',
  'Members must be at least eighteen years old and give true information about themselves.',
  'We may end an account that breaks these rules after we have told the member why.',
  'Payments renew every month until the member cancels the subscription in the settings.',
  'The law of the country where the company is registered applies to these terms.',
];

/** The old design: one container of paragraphs under a sidebar layout. */
const OLD = `<html><body><div id="page"><aside><a href="/">Home</a><a href="/help">Help</a></aside>
<main id="content"><div class="legalText"><h2>Terms of use</h2>${PARAGRAPHS.map((p) => `<p class="txt">${p}</p>`).join('')}</div></main></div>
<footer><p>Copyright the company, all rights reserved, since the year it was founded.</p></footer></body></html>`;

/** A CMS change: new wrappers and levels, headings and paragraphs in new tags, nothing of the old classes. */
const REDESIGNED = `<html><body><header><nav><ul><li><a href="/">Start</a></li><li><a href="/faq">FAQ</a></li></ul></nav></header>
<section class="wp-block"><article class="entry"><div class="entry__inner"><header class="entry__header"><h1>Terms of use</h1></header>
<div class="entry__content">${PARAGRAPHS.map((p, k) => (k === 2 ? `<div class="callout"><span>${p}</span></div>` : `<p>${p}</p>`)).join('')}</div></div></article></section>
<footer><div>Copyright the company, all rights reserved, since the year it was founded.</div></footer></body></html>`;

/** The same layout with the document gone (a placeholder page). */
const EMPTY = `<html><body><header><nav><ul><li><a href="/">Start</a></li></ul></nav></header>
<section class="wp-block"><article class="entry"><div class="entry__inner"><h1>Page not available</h1><p>Please enable JavaScript to read this page.</p></div></article></section></body></html>`;

test('content view: blocks of a page and of a stored tree-gram agree, and CTM on the view is 1 on itself', () => {
  const t = parseHtml(OLD);
  const node = selectAll(t, 'div.legalText')[0]!;
  const words = new WordSpace();
  const keys = new WordSpace();
  const page = pageBlocks(t, node, words, keys);
  const stored = gramBlocks(makeTreeGram(t, [node], 1).instances[0]!, words, keys)!;
  assert.equal(page.length, 6);
  assert.deepEqual(stored.map((b) => b.key), page.map((b) => b.key));
  assert.equal(blockCtm(page, stored), 1);
  // A tree-gram written before the content view (no stored blocks) gets them rebuilt from its text leaves,
  // unless levels were cut (then it has no content view).
  const { blocks: _dropped, ...older } = makeTreeGram(t, [node], 1).instances[0]!;
  assert.deepEqual(gramBlocks(older, words, keys)!.map((b) => b.key), page.map((b) => b.key));
  assert.equal(gramBlocks({ ...older, cut: 1 }, words, keys), null);
  assert.equal(blockStm(page, stored), 1);
});

test('content view: CTM is Algorithm 1 on the two-level view (graded leaves over max(m, n))', () => {
  const words = new WordSpace();
  const keys = new WordSpace();
  const a = pageBlocks(parseHtml('<div><p>one two three four</p><p>five six seven eight</p></div>'), 0, words, keys);
  // One block equal, one with half its words changed (Dice 0.5), one extra block: (1 + 0.5) / 3.
  const b = pageBlocks(parseHtml('<div><p>one two three four</p><p>five six nine ten</p><p>extra words here</p></div>'), 0, words, keys);
  assert.equal(alignBlocks(a, b), 1.5);
  assert.equal(blockCtm(a, b), 1.5 / 3);
  // Order matters (the DP aligns in order): reversed blocks align only one pair.
  const r = pageBlocks(parseHtml('<div><p>five six seven eight</p><p>one two three four</p></div>'), 0, words, keys);
  assert.equal(blockCtm(a, r), 1 / 2);
});

test('a redesign that rebuilds every level above the paragraphs is found on the content view, not on element labels', () => {
  const w = createWrapper(parseHtml(OLD), [{ name: 'terms', selector: 'div.legalText' }], { adaptation: { algorithms: ['ctm'] } });
  const page = parseHtml(REDESIGNED);
  const tagsOnly = runWrapper({ ...w, adaptation: { algorithms: ['ctm'], content: false } }, page, 'new');
  assert.equal(tagsOnly.reports[0]!.step, 'not-found');
  const r = runWrapper(w, page, 'new');
  const rep = r.reports[0]!;
  assert.equal(rep.step, 'ctm');
  assert.equal(rep.view, 'content');
  assert.ok(rep.similarity! >= resolveSettings(w).contentThreshold);
  const text = r.record['terms'] as string;
  for (const p of PARAGRAPHS) assert.ok(text.includes(p), p);
  assert.ok(!text.includes('Copyright') && !text.includes('FAQ'));
});

test('content view: the document gone means not found, with the best similarity reported', () => {
  const w = createWrapper(parseHtml(OLD), [{ name: 'terms', selector: 'div.legalText' }]);
  const r = runWrapper(w, parseHtml(EMPTY), 'empty');
  const rep = r.reports[0]!;
  assert.equal(rep.step, 'not-found');
  assert.equal(r.record['terms'], null);
  assert.ok((rep.contentSimilarity ?? 0) < resolveSettings(w).contentThreshold);
});

test('content view: the bound prunes elements before any alignment', () => {
  const t = parseHtml(REDESIGNED);
  const gram = makeTreeGram(parseHtml(OLD), [selectAll(parseHtml(OLD), 'div.legalText')[0]!], 1);
  const a = adapt(t, 0, gram, { ...resolveSettings({}), algorithms: ['ctm'] });
  assert.equal(a.view, 'content');
  // Only the elements whose bound reaches the best are aligned (equal block runs once).
  assert.ok(a.compared < 6, `compared ${a.compared}`);
  assert.ok(a.pruned > 10, `pruned ${a.pruned}`);
});

test('content view: the sparse alignment over block pairs equals the DP on every range', () => {
  // Deterministic pseudo-random blocks over a small vocabulary, so that many pairs are similar.
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const text = (): string => Array.from({ length: 2 + rnd(5) }, () => `w${rnd(8)}`).join(' ');
  for (let round = 0; round < 20; round++) {
    const words = new WordSpace();
    const keys = new WordSpace();
    const a = blocksOf(Array.from({ length: 1 + rnd(12) }, text), null, words, keys);
    const b = blocksOf(Array.from({ length: 1 + rnd(20) }, text), null, words, keys);
    const pairs = blockPairs(a, b);
    for (let lo = 0; lo < b.length; lo += 3)
      for (let hi = lo + 1; hi <= b.length; hi += 2) assert.ok(Math.abs(alignPairs(pairs, a.length, lo, hi) - alignBlocks(a, b.slice(lo, hi))) < 1e-9, `round ${round} [${lo}, ${hi})`);
  }
});

test('per-algorithm thresholds: defaults apply only when the wrapper sets no threshold of its own', () => {
  const d = resolveSettings({});
  assert.equal(d.thresholds.ctm, d.threshold);
  assert.equal(d.thresholds.bigram, 0.8);
  const own = resolveSettings({ adaptation: { threshold: 0.6 } });
  assert.deepEqual(own.thresholds, { ctm: 0.6, stm: 0.6, bigram: 0.6, jw: 0.6 });
  const each = resolveSettings({ adaptation: { threshold: 0.6, thresholds: { jw: 0.95 } } });
  assert.equal(each.thresholds.jw, 0.95);
  assert.equal(each.thresholds.stm, 0.6);
});
