/**
 * The parts of a page's structure beside the paper's link tag-lists: the layout (layout.ts), language and
 * version variants (variants.ts), dead links in INDESIT, and the per-link work on a page of many links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { indesit } from '../../src/collect/indesit.ts';
import { TagLists } from '../../src/collect/link-collections.ts';
import { jaccard } from '../../src/collect/page-schema.ts';
import { readStructure, schemaOfStructure } from '../../src/collect/structure.ts';
import { variantOf } from '../../src/collect/variants.ts';
import { wordCount } from '../../src/collect/text-region.ts';
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
    return schemaOfStructure(s, s.contentDepth);
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
