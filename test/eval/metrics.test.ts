import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import {
  adjustedRandIndex,
  contentScore,
  goldRegions,
  goldTemplateMask,
  mean,
  meanScore,
  prf,
  purity,
  setScore,
  templateNodeScore,
  valueKept,
  valueScore,
  words,
} from '../../src/eval/metrics.ts';

const close = (a: number, b: number, msg?: string): void => assert.ok(Math.abs(a - b) < 1e-9, `${msg ?? ''} ${a} ≠ ${b}`);

test('words: lowercase, Unicode letters and digits, everything else splits', () => {
  assert.deepEqual(words('Hello, World! 42x'), ['hello', 'world', '42x']);
  assert.deepEqual(words("Größe  l'été — ÉCOLE_2"), ['größe', 'l', 'été', 'école', '2']);
  assert.deepEqual(words('日本語 テキスト'), ['日本語', 'テキスト']);
  assert.deepEqual(words('  ...  '), []);
  assert.deepEqual(words(''), []);
});

test('contentScore: multiset P/R/F1 computed by hand', () => {
  // kept: a a b c (4), gold: a b b d e (5); overlap = min(2,1) + min(1,2) = 2
  const s = contentScore('a a b c', 'A, b; b d e');
  close(s.precision, 2 / 4);
  close(s.recall, 2 / 5);
  close(s.f1, (2 * 0.5 * 0.4) / 0.9);
  const same = contentScore('The cat', 'the CAT');
  assert.deepEqual(same, { precision: 1, recall: 1, f1: 1 });
});

test('contentScore: empty sides', () => {
  assert.deepEqual(contentScore('', ''), { precision: 1, recall: 1, f1: 1 });
  assert.deepEqual(contentScore('  !! ', 'gold words'), { precision: 0, recall: 0, f1: 0 });
  assert.deepEqual(contentScore('kept words', ''), { precision: 0, recall: 0, f1: 0 });
  assert.deepEqual(contentScore('x', 'y'), { precision: 0, recall: 0, f1: 0 });
});

test('prf and setScore', () => {
  assert.deepEqual(prf(0, 0, 0), { precision: 1, recall: 1, f1: 1 });
  const s = setScore(['a', 'b', 'c', 'c'], ['b', 'c', 'd', 'e']);
  close(s.precision, 2 / 3);
  close(s.recall, 2 / 4);
  close(s.f1, (2 * (2 / 3) * 0.5) / (2 / 3 + 0.5));
});

test('valueScore and valueKept', () => {
  const s = valueScore(['Stephenie Meyer'], ['Stephenie Meyer', 'Jane Doe']);
  close(s.precision, 1);
  close(s.recall, 0.5);
  assert.deepEqual(valueScore([], []), { precision: 1, recall: 1, f1: 1 });
  assert.equal(valueKept('Fern Michaels', 'by fern michaels (author)'), true);
  assert.equal(valueKept('New New York', 'new york'), false);
  assert.equal(valueKept('', 'anything'), true);
});

test('mean and meanScore', () => {
  close(mean([1, 2, 3, 6]), 3);
  assert.ok(Number.isNaN(mean([])));
  const m = meanScore([
    { precision: 1, recall: 0, f1: 0 },
    { precision: 0.5, recall: 1, f1: 2 / 3 },
  ]);
  close(m.precision, 0.75);
  close(m.recall, 0.5);
  close(m.f1, 1 / 3);
});

test('purity: hand-computed (Manning et al. style example)', () => {
  // clusters: X = {1,2,3,4} classes a,a,a,b ; Y = {5,6} classes b,c ; item 7 unlabelled.
  const pred = new Map([['1', 'X'], ['2', 'X'], ['3', 'X'], ['4', 'X'], ['5', 'Y'], ['6', 'Y'], ['7', 'Y']]);
  const gold = new Map([['1', 'a'], ['2', 'a'], ['3', 'a'], ['4', 'b'], ['5', 'b'], ['6', 'c']]);
  close(purity(pred, gold), (3 + 1) / 6);
  assert.equal(purity(new Map(), gold), 1);
});

test('adjustedRandIndex: hand-computed values and invariances', () => {
  const m = (xs: string[]): Map<string, string> => new Map(xs.map((c, i) => [String(i), c]));
  // identical up to renaming → 1
  close(adjustedRandIndex(m(['x', 'x', 'y', 'y']), m(['a', 'a', 'b', 'b'])), 1);
  // pred {0,1}{2,3}, gold {0,2}{1,3}: Σ C(nij,2)=0, a: 1+1=2, b: 2, C(4,2)=6, E=4/6, max=2 → (0-2/3)/(2-2/3) = -0.5
  close(adjustedRandIndex(m(['x', 'x', 'y', 'y']), m(['a', 'b', 'a', 'b'])), -0.5);
  // pred {0,1,2}{3,4,5}, gold {0,1}{2,3}{4,5}:
  // cells: x:a=2,x:b=1, y:b=1,y:c=2 → Σ C = 1+0+0+1 = 2; rows: 3+3 = 6; cols: 1+1+1 = 3; C(6,2)=15
  // E = 18/15 = 1.2, max = 4.5 → (2-1.2)/(4.5-1.2) = 0.8/3.3
  close(adjustedRandIndex(m(['x', 'x', 'x', 'y', 'y', 'y']), m(['a', 'a', 'b', 'b', 'c', 'c'])), 0.8 / 3.3);
  // symmetric
  close(adjustedRandIndex(m(['a', 'a', 'b', 'b', 'c', 'c']), m(['x', 'x', 'x', 'y', 'y', 'y'])), 0.8 / 3.3);
  // degenerate: both one cluster, both all singletons → 1
  close(adjustedRandIndex(m(['x', 'x', 'x']), m(['a', 'a', 'a'])), 1);
  close(adjustedRandIndex(m(['x', 'y', 'z']), m(['a', 'b', 'c'])), 1);
  // one cluster vs all singletons: Σ cells 0, rows 3, cols 0 → E = 0, max 1.5 → 0
  close(adjustedRandIndex(m(['x', 'x', 'x']), m(['a', 'b', 'c'])), 0);
});

const PAGE = `<html><head><title>t</title></head><body>
<div id="wrap"><nav id="menu"><a href="/">Home</a></nav>
<main id="c"><h1>Title</h1><p>Body <b>text</b></p><div class="share">Share this</div></main>
<main id="c2"><p>Second</p></main></div>
<footer><p>Footer</p></footer></body></html>`;

test('goldRegions: first matching selector, outermost containers, exclusions', () => {
  const tree = parseHtml(PAGE);
  const r = goldRegions(tree, { content: ['article', 'main', 'body'], exclude: ['.share'] });
  assert.ok(r);
  assert.deepEqual(r.containers.map((c) => tree.attr(c, 'id')), ['c', 'c2']);
  const wrap = tree.find('div');
  const shareDiv = [...Array(tree.size).keys()].find((i) => tree.attr(i, 'class') === 'share')!;
  assert.equal(r.excluded[shareDiv], 1);
  assert.equal(r.excluded[shareDiv + 1], 1); // its text
  assert.equal(r.excluded[wrap], 0);
  assert.equal(goldRegions(tree, { content: ['article', 'section'], exclude: [] }), null);
  // nested matches collapse to the outermost
  const nested = parseHtml('<body><div class="x"><div class="x">a</div></div></body>');
  assert.equal(goldRegions(nested, { content: ['.x'], exclude: [] })!.containers.length, 1);
});

test('templateNodeScore: hand-counted elements', () => {
  const tree = parseHtml(PAGE);
  const gold = { content: ['main'], exclude: ['.share'] };
  const mask = goldTemplateMask(tree, gold)!;
  const idOf = (i: number): string => tree.attr(i, 'id') ?? tree.attr(i, 'class') ?? tree.tag(i);
  const goldEls: string[] = [];
  for (let i = 0; i < tree.size; i++) if (tree.isElement(i) && mask[i] === 1) goldEls.push(idOf(i));
  // body, #wrap are ancestors of a container; main#c, main#c2 and their insides are content except .share
  assert.deepEqual(goldEls, ['menu', 'a', 'share', 'footer', 'p']);
  // a method marking nav, a, footer and #wrap (wrong: ancestor) as template
  const marks = new Uint8Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    const k = idOf(i);
    if (k === 'menu' || k === 'a' || k === 'footer' || k === 'wrap') marks[i] = 1;
  }
  const s = templateNodeScore(tree, marks, gold)!;
  close(s.precision, 3 / 4);
  close(s.recall, 3 / 5);
  // marks outside body (head, title) are ignored
  const headMarks = new Uint8Array(tree.size);
  headMarks[tree.find('title')] = 1;
  headMarks[tree.find('head')] = 1;
  assert.deepEqual(templateNodeScore(tree, headMarks, gold), { precision: 0, recall: 0, f1: 0 });
  // the exact gold marks score 1
  assert.deepEqual(templateNodeScore(tree, mask, gold), { precision: 1, recall: 1, f1: 1 });
  assert.equal(templateNodeScore(tree, marks, { content: ['article'], exclude: [] }), null);
});
