/**
 * The parts of a page's structure beside the paper's link tag-lists: the layout (layout.ts), language and
 * version variants (variants.ts), dead links in INDESIT, and the per-link work on a page of many links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { indesit } from '../../src/collect/indesit.ts';
import { TagLists } from '../../src/structure/link-collections.ts';
import { jaccard, similarity } from '../../src/structure/page-schema.ts';
import { readStructure, schemaOfStructure } from '../../src/structure/page-structure.ts';
import { variantOf } from '../../src/collect/variants.ts';
import { wordCount } from '../../src/structure/text-region.ts';
import { MemorySource } from '../../src/site/memory-source.ts';

const ROOT = 'http://site.test/';
const keyOf = (u: string): string | undefined => (u.startsWith(ROOT) ? u.slice(ROOT.length) || 'index.html' : undefined);
const PROSE = 'This paragraph is long enough to be running text in the article of the page. '.repeat(3);

const page = (header: string, article: string): string =>
  `<html><body><div class="top"><a href="/">Home</a><ul class="menu"><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></div>${header}<main><article class="doc">${article}</article></main></body></html>`;

test('the layout leaves out the inside of the text region and keeps the frame around it', () => {
  const tl = new TagLists();
  const schema = (html: string) => {
    const s = readStructure(parseHtml(html), ROOT + 'x', tl, { keyOf });
    return schemaOfStructure(s, tl, s.contentDepth);
  };
  const withSections = schema(page('<div class="head"><h2 class="title">open</h2></div>', `<p>${PROSE}</p><section class="params"><h3>Parameters</h3><dl><dt>fd</dt><dd>${PROSE}</dd></dl></section>`));
  const without = schema(page('<div class="head"><h2 class="title">close</h2></div>', `<p>${PROSE}</p><pre>close(fd);</pre>`));
  const otherFrame = schema(page('<div class="banner"><h1 class="name">Package</h1></div>', `<p>${PROSE}</p>`));
  assert.equal(jaccard(withSections.layout, without.layout), 1, 'optional sections inside the article do not change the layout');
  assert.equal(jaccard(withSections.links, without.links), 1);
  assert.ok(jaccard(withSections.layout, otherFrame.layout) < 1, 'another frame around the article does');
});

test('variants: the same page in another language or version; not a section change, not the page itself', () => {
  assert.equal(variantOf('docs/setup', 'fr/docs/setup'), '+0:fr');
  assert.equal(variantOf('zh-Hans/docs/setup.html', 'docs/setup'), '-0:zh-Hans');
  assert.equal(variantOf('v1/api/open.html', 'v2/api/open.html'), '~0:v2');
  assert.equal(variantOf('docs/index.html', 'pt-BR/docs/index.html'), '+0:pt-BR');
  assert.equal(variantOf('docs/setup', 'docs/install'), undefined, 'another page');
  assert.equal(variantOf('tags/python/index.html', 'categories/python/index.html'), undefined, 'a section, not a language');
  assert.equal(variantOf('docs/setup', 'docs/setup'), undefined);
  assert.equal(variantOf('docs/setup', 'docs/setup/fr'), undefined, 'the changed segment is the page name');
});

test('words of scripts without spaces count one per character', () => {
  assert.equal(wordCount('two words'), 2);
  assert.equal(wordCount('系统介绍 and more'), 6);
});

test('dead links are not followed beyond n in one collection before a page is reached', async () => {
  const dead = Array.from({ length: 40 }, (_, i) => `<li><a href="/gone-${i}.html">gone ${i}</a></li>`).join('');
  const item = (i: number): string => `<html><body><ul class="gone">${dead}</ul><div class="nav"><a href="/index.html">up</a></div><h1>item ${i}</h1></body></html>`;
  const list = Array.from({ length: 10 }, (_, i) => `<li><a href="/item-${i}.html">item ${i}</a></li>`).join('');
  const pages = [{ key: 'index.html', body: `<html><body><ul class="items">${list}</ul></body></html>` }, ...Array.from({ length: 10 }, (_, i) => ({ key: `item-${i}.html`, body: item(i) }))];
  const r = await indesit(new MemorySource(pages), 'item-0.html');
  assert.equal(r.pages.length, 10);
  assert.ok(r.deadLinks <= 3 * 2, `dead links tried: ${r.deadLinks} (40 per page)`);
});

test('a page with 20,000 links in one element: two collections (prose links, a list), each link kept', () => {
  const n = 20_000;
  const html = `<html><body><p>${Array.from({ length: n }, (_, i) => `words before <a href="/p${i}">p</a> and after `).join('')}</p><ul>${Array.from({ length: n }, (_, i) => `<li><a href="/q${i}">q</a></li>`).join('')}</ul></body></html>`;
  const s = readStructure(parseHtml(html), ROOT, new TagLists(), { keyOf, textRegion: false });
  assert.deepEqual(s.collections.map((c) => c.links.length).sort((a, b) => a - b), [n, n]);
  assert.deepEqual(s.collections.map((c) => c.inline).sort(), [false, true]);
});

test('a menu is one schema feature however deep its open item is and whatever marks it; named sections stay apart', () => {
  const tl = new TagLists();
  const menu = (open: string): string =>
    `<nav class="side"><ul class="menu"><li class="cat${open === 'a' ? ' open' : ''}"><a href="/a">A</a>${open === 'a' ? '<ul class="menu"><li class="cat"><a href="/a1">A1</a><ul class="menu"><li class="item active"><a class="current" href="/a11">A11</a></li></ul></li></ul>' : ''}</li><li class="item"><a href="/b">B</a></li></ul></nav>`;
  const schema = (html: string) => {
    const s = readStructure(parseHtml(html), ROOT + 'x', tl, { keyOf });
    return schemaOfStructure(s, tl, s.contentDepth);
  };
  const deep = schema(`<html><body>${menu('a')}<main><p>${PROSE}</p></main></body></html>`);
  const flat = schema(`<html><body>${menu('')}<main><p>${PROSE}</p></main></body></html>`);
  assert.equal(jaccard(deep.links, flat.links), 1, 'the depth and state classes of menu items are not the schema');
  const section = (label: string): string => `<ul class="nav"><li><nav aria-labelledby="${label}"><ul class="nav"><li><a href="/${label}">x</a></li></ul></nav></li></ul>`;
  const one = schema(`<html><body>${section('guide')}<main><p>${PROSE}</p></main></body></html>`);
  const other = schema(`<html><body>${section('api')}<main><p>${PROSE}</p></main></body></html>`);
  assert.ok(jaccard(one.links, other.links) < 1, 'a nested list inside another container is another feature');
});

test('the content area: a short article and a long one share it; articles with no block in common are not alike', () => {
  const tl = new TagLists();
  const read = (article: string) => readStructure(parseHtml(page('', article)), ROOT + 'x', tl, { keyOf });
  const short = read(`<h1>open</h1><section class="synopsis"><pre>open()</pre></section><section class="description"><p>${PROSE}</p></section>`);
  const long = read(`<h1>read</h1><section class="synopsis"><pre>read()</pre></section><section class="description"><p>${PROSE}</p></section><section class="params"><p>${PROSE}</p><p>${PROSE}</p></section>`);
  assert.equal(short.layout.region, long.layout.region, 'the region stops at the element holding the heading');
  const depth = long.contentDepth;
  const a = schemaOfStructure(short, tl, depth);
  const b = schemaOfStructure(long, tl, depth);
  assert.equal(jaccard(a.links, b.links), 1);
  assert.equal(jaccard(a.layout, b.layout), 1);
  assert.ok(similarity(a, b) === 1, 'optional sections do not lower the similarity');
  const table = schemaOfStructure(read(`<table class="types"><tr><td>${PROSE}</td></tr></table><div class="note"><p>${PROSE}</p></div>`), tl, depth);
  assert.equal(jaccard(a.links, table.links), 1, 'same links');
  assert.equal(similarity(a, table), 0, 'no block of the content in common');
});

test('a page whose text is spread over its template has no text region', () => {
  const tl = new TagLists();
  const html = `<html><body><div class="a"><p>${PROSE}</p></div><div class="b"><p>${PROSE}</p></div><div class="c"><p>${PROSE}</p></div></body></html>`;
  assert.equal(readStructure(parseHtml(html), ROOT + 'x', tl, { keyOf }).layout.region, -1);
});
