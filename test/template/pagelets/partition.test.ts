import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../../src/html/parse.ts';
import { linkCounts, partition } from '../../../src/template/pagelets/partition.ts';

const html = (body: string): string => `<html><head><title>t</title></head><body>${body}</body></html>`;

test('Definition 2: a node whose children each hold fewer than k links is one pagelet', () => {
  const t = parseHtml(html('<div id="a"><p><a href="1">1</a><a href="2">2</a></p><p><a href="3">3</a></p></div>'));
  const p = partition(t, { k: 3 });
  // body has child div with 3 links → split; div's children have 2 and 1 links → div is a pagelet.
  assert.deepEqual(Array.from(p, (v) => t.attr(v, 'id') ?? t.tag(v)), ['a']);
});

test('Figure 3: splitting descends until no child holds k links; the result is flat and covers the body', () => {
  const t = parseHtml(
    html('<nav><ul><li><a href="1">1</a></li><li><a href="2">2</a></li><li><a href="3">3</a></li></ul></nav><article><h1>T</h1><p>text <a href="x">x</a></p></article>'),
  );
  const p = Array.from(partition(t, { k: 3 }));
  const tags = p.map((v) => t.tag(v));
  // body: child nav holds 3 links → split into nav, article; nav: child ul holds 3 → split; ul: each li 1 → pagelet.
  assert.deepEqual(tags, ['ul', 'article']);
  // flat: no pagelet inside another
  for (const a of p) for (const b of p) if (a !== b) assert.ok(!t.contains(a, b));
  // with k = 1 every element holding a link is split, down to the links themselves
  const fine = Array.from(partition(t, { k: 1 }), (v) => t.tag(v));
  assert.deepEqual(fine.filter((x) => x !== ''), ['a', 'a', 'a', 'h1', 'a']);
});

test('linkCounts counts <a href> and <area href> only', () => {
  const t = parseHtml(html('<div><a href="1">x</a><a name="n">y</a><map><area href="2"></map></div>'));
  const c = linkCounts(t);
  assert.equal(c[t.find('div')], 2);
  assert.equal(c[0], 2);
});

test('landmarks: a breadcrumb <nav> and an article <footer> are pagelets of their own, whatever their links', () => {
  const article = '<article><nav aria-label="Breadcrumbs"><a href="/">Home</a> <a href="/guide">Guide</a> Page</nav>' +
    '<div class="doc"><h1>Page</h1></div><footer><a href="https://edit.test/page">Edit this page</a></footer></article>';
  const t = parseHtml(html(`<div role="navigation"><a href="1">1</a></div>${article}`));
  // No child of the article holds k = 3 links: Definition 2 alone makes the article one pagelet.
  assert.deepEqual(Array.from(partition(t, { k: 3 }), (v) => t.tag(v)), ['div', 'article']);
  const tags = Array.from(partition(t, { k: 3, landmarks: true }), (v) => t.tag(v));
  assert.deepEqual(tags, ['div', 'nav', 'div', 'footer']);
  assert.equal(t.attr(partition(t, { k: 3, landmarks: true })[0]!, 'role'), 'navigation', 'an ARIA landmark role counts as its element');
});

test('landmarks: a landmark that holds k links is still split by Definition 2, one without landmarks inside stays whole', () => {
  const t = parseHtml(html('<header><p>Site</p><ul><li><a href="1">1</a></li><li><a href="2">2</a></li><li><a href="3">3</a></li></ul></header><main><p>Text</p><aside>Note</aside></main>'));
  const tags = Array.from(partition(t, { k: 3, landmarks: true }), (v) => t.tag(v));
  assert.deepEqual(tags, ['p', 'ul', 'p', 'aside']);
});

test("landmarks: a menu's open branch (a list inside a list item of a landmark) is a pagelet of its own, lists in content are not", () => {
  const item = (s: string): string => `<li><a href="/${s}">${s}</a></li>`;
  // A sidebar menu with one section open (its title and 1 entry: fewer than k links) and a nested list in the article.
  const menu = `<nav><ul id="menu">${item('a')}<li id="open"><div><a href="/b">B</a></div><ul id="branch">${item('b1')}</ul></li>${item('c')}</ul></nav>`;
  const article = `<article><ul id="content"><li>One<ul><li>x</li><li>y</li></ul></li></ul></article>`;
  const t = parseHtml(html(menu + article));
  const id = (v: number): string => t.attr(v, 'id') ?? t.tag(v);
  // Definition 2 alone: the menu's list is one pagelet (no child holds 3 links), whatever section is open.
  assert.deepEqual(Array.from(partition(t, { k: 3 }), id), ['menu', 'article']);
  // With landmarks the branch is split off, so the rest of the menu has one shape whatever branch is open.
  assert.deepEqual(Array.from(partition(t, { k: 3, landmarks: true }), id), ['li', 'div', 'branch', 'li', 'article']);
});
