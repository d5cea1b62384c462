import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { linkCollections, TagLists } from '../../src/structure/link-collections.ts';
import { jaccard, schemaOf } from '../../src/structure/page-schema.ts';
import { textRegion } from '../../src/structure/text-region.ts';

const ROOT = 'http://site.test/';
const keyOf = (u: string): string | undefined => (u.startsWith(ROOT) ? u.slice(ROOT.length) || 'index.html' : undefined);

const SENTENCE = 'this sentence is running text written by the author of the article';
const page = (article: string): string => `<html><body>
<header><ul class="crumbs"><li><a href="/">Home</a></li><li><a href="/docs/">Docs</a></li></ul></header>
<main><section class="article">${article}</section></main>
<footer><p><a href="/about">About</a> <a href="/legal">Legal</a></p></footer></body></html>`;

// Two articles of one class: same template, links in different places of their text.
const A = page(`<h1>One</h1><p>${SENTENCE}, see <a href="/x">x</a> and ${SENTENCE}.</p>
<section><h2>Part</h2><p>${SENTENCE} ${SENTENCE}.</p><ul><li><p>${SENTENCE} <a href="/y">y</a></p></li></ul></section>
<dl><dt>Topic</dt><dd><a href="/topic/t">t</a></dd></dl>`);
const B = page(`<h1>Two</h1><blockquote><p>${SENTENCE} <a href="/z">z</a> ${SENTENCE}.</p></blockquote>
<p>${SENTENCE} ${SENTENCE} ${SENTENCE}.</p><ol><li>${SENTENCE} <em>and</em> <a href="https://elsewhere.test/">there</a></li></ol>`);

test('links in the running text of an article are one collection, so two articles share one schema', () => {
  const tl = new TagLists();
  const ta = parseHtml(A);
  const region = textRegion(ta, tl, new Int32Array(ta.size).fill(-1));
  assert.equal(tl.describe(region), 'html > body > main > section class="article"', 'nested sections collapse into the article');
  const ca = linkCollections(ta, ROOT + 'a', tl, { keyOf });
  const cb = linkCollections(parseHtml(B), ROOT + 'b', tl, { keyOf });
  const text = ca.find((c) => tl.describe(c.tagList).endsWith('#text'))!;
  assert.deepEqual(text.links.map((l) => l.url.slice(ROOT.length)), ['x', 'y', 'topic/t']);
  assert.equal(cb.find((c) => tl.describe(c.tagList).endsWith('#text'))!.offSite, false, 'the text collection counts even when its links leave the site');
  assert.equal(jaccard(schemaOf(ca).links, schemaOf(cb).links), 1);
  // The paper's model (one collection per root-to-anchor path) tells them apart.
  const paper = new TagLists();
  const pa = schemaOf(linkCollections(parseHtml(A), ROOT + 'a', paper, { keyOf, textRegion: false })).links;
  const pb = schemaOf(linkCollections(parseHtml(B), ROOT + 'b', paper, { keyOf, textRegion: false })).links;
  assert.ok(jaccard(pa, pb) < 0.85, `paper's schemas: J = ${jaccard(pa, pb)}`);
});

test('an article without links keeps its (empty) text collection; a list of links in the text stays a collection', () => {
  const tl = new TagLists();
  const bare = linkCollections(parseHtml(page(`<p>${SENTENCE} ${SENTENCE} ${SENTENCE} ${SENTENCE} ${SENTENCE}.</p>`)), ROOT + 'c', tl, { keyOf });
  const withLinks = linkCollections(parseHtml(A), ROOT + 'a', tl, { keyOf });
  assert.equal(jaccard(schemaOf(bare).links, schemaOf(withLinks).links), 1);
  const items = Array.from({ length: 12 }, (_, i) => `<li><a href="/item-${i}">item ${i}</a></li>`).join('');
  const index = linkCollections(parseHtml(page(`<p>${SENTENCE} ${SENTENCE} ${SENTENCE} ${SENTENCE} ${SENTENCE} <a href="/x">x</a>.</p><ul class="items">${items}</ul>`)), ROOT + 'i', tl, { keyOf });
  const list = index.find((c) => c.links.length === 12);
  assert.ok(list, 'the list of 12 links is a collection of its own');
  assert.equal(tl.describe(list.tagList), 'html > body > main > section class="article" > ul class="items" > li > a');
});

test('a page with little running text has no text region: one collection per path, as in the paper', () => {
  const tl = new TagLists();
  const t = parseHtml(page(`<ul><li><a href="/a">a</a></li><li><a href="/b">b</a></li></ul><p>Short intro.</p>`));
  assert.equal(textRegion(t, tl, new Int32Array(t.size).fill(-1)), -1);
});
