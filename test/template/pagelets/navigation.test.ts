import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../../src/html/labels.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import { loadEngine } from '../../../src/template/engines.ts';
import { contentRegion, navigationShingles } from '../../../src/template/pagelets/navigation.ts';
import { partition } from '../../../src/template/pagelets/partition.ts';
import { pageLinks } from '../../../src/template/pagelets/links.ts';
import { navigationFingerprint, shinglePagelets } from '../../../src/template/pagelets/shingle.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';
import { applyTemplate, learnTemplate } from '../../../src/run/learn.ts';
import { MemorySource } from '../../../src/site/memory-source.ts';
import { memorySource } from './fixtures.ts';

const TOPICS = ['otters', 'volcanoes', 'bread', 'comets', 'chess', 'tides', 'maple', 'beacons', 'glaciers', 'orchids', 'rivers', 'lanterns'];

/** Page i of a made-up documentation site: a menu, an article, and a prev/next bar naming the neighbours. */
function docPage(i: number): string {
  const n = TOPICS.length;
  const t = TOPICS[i]!;
  const menu = `<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/guide">Guide</a></li><li><a href="/api">API</a></li></ul></nav>`;
  const article = `<article><h1>About ${t}</h1><p>The ${t} page explains ${t} in words of its own, number ${i}.</p><p>More on ${t} here.</p></article>`;
  const bar = `<div class="pager"><a href="/p${(i + n - 1) % n}.html">Previous: ${TOPICS[(i + n - 1) % n]}</a> <a href="/">Up</a> <a href="/p${(i + 1) % n}.html">Next: ${TOPICS[(i + 1) % n]}</a></div>`;
  return `<html><body>${menu}<main>${article}${bar}</main><footer><p>Footer text of the site</p></footer></body></html>`;
}

async function run(pages: Record<string, string>, options: Record<string, unknown>): Promise<Map<string, PageMarks>> {
  const engine = await loadEngine('pagelets');
  const marks = new Map<string, PageMarks>();
  await engine.run({ source: memorySource(pages), labels: new LabelTable(), options, onPage: async (m) => void marks.set(m.key, m), onFailure: () => {} });
  return marks;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

test('navigation pagelets: a prev/next bar whose link words change on every page is template, the article is kept', async () => {
  const pages: Record<string, string> = {};
  TOPICS.forEach((_, i) => (pages[`p${i}.html`] = docPage(i)));
  for (const global of [true, false]) {
    const on = await run(pages, { global, workers: 0, backend: 'memory' });
    const off = await run(pages, { global, workers: 0, backend: 'memory', navigationPagelets: false });
    for (const [key, m] of on) {
      const kept = squash(keptText(m));
      assert.ok(!kept.includes('Previous') && !kept.includes('Home'), `${key} (global ${global}): ${kept}`);
      assert.match(kept, /^About \w+ The \w+ page explains/);
      assert.match(squash(keptText(off.get(key)!)), /Previous: \w+ Up Next: \w+/, 'without the rule the bar stays');
    }
  }
});

test('navigation pagelets: the content region, and a listing of links in it keeps its words', () => {
  const listing = `<html><body><nav><a href="/a">A</a><a href="/b">B</a><a href="/c">C</a></nav><main><h1>Posts</h1><ul>` +
    TOPICS.map((t) => `<li><a href="/${t}">${t} story</a></li>`).join('') + `</ul></main>` +
    `<footer><p>A long footer with more prose than the listing has outside its links, by far and away.</p></footer></body></html>`;
  const tree = parseHtml(listing);
  const region = contentRegion(tree);
  const main = tree.find('main');
  assert.ok(tree.contains(main, region), 'the region is looked for inside <main>, whatever the footer holds');
  const pagelets = partition(tree);
  const links = pageLinks(tree, 'http://s.test/index.html');
  const shingles = shinglePagelets(tree, pagelets, links.node, links.dest);
  const before = Float64Array.from(shingles);
  const replaced = navigationShingles(tree, pagelets, shingles);
  assert.ok(replaced >= 1, 'the menu outside <main> is a navigation pagelet');
  pagelets.forEach((v, p) => {
    if (tree.contains(main, v)) assert.equal(shingles[p], before[p], `pagelet ${tree.tag(v)} inside <main> keeps its words (the listing is the largest pagelet)`);
  });
});

test('content share: with a half, an article\'s longest paragraph is the content region and a paragraph of links beside it is lost; with 0.8 it is kept', async () => {
  const n = TOPICS.length;
  const pages: Record<string, string> = {};
  TOPICS.forEach((t, i) => {
    const see = [1, 2, 3].map((d) => TOPICS[(i + d) % n]!).map((o) => `<a href="/${o}.html">${o}</a>`).join(', ');
    // The long paragraph holds about two thirds of the article's text outside links.
    const article = `<article><h1>About ${t}</h1><p>The ${t} page explains ${t} in words of its own, page number ${i}, and goes on about ${t} for a while longer than the rest of it.</p>` +
      `<p>Short notes on ${t} here.</p><p class="see">See also ${see}.</p></article>`;
    pages[`${t}.html`] = docPage(i).replace(/<article>.*<\/article>/, article);
  });
  for (const global of [true, false]) {
    const half = await run(pages, { global, workers: 0, backend: 'memory', contentShare: 0.5 });
    const most = await run(pages, { global, workers: 0, backend: 'memory', contentShare: 0.8 });
    for (const t of TOPICS) {
      assert.ok(!squash(keptText(half.get(`${t}.html`)!)).includes('See also'), `${t} (global ${global}), share 0.5: the links paragraph is navigation`);
      const kept = squash(keptText(most.get(`${t}.html`)!));
      assert.match(kept, /See also \w+, \w+, \w+\./, `${t} (global ${global}), share 0.8`);
    }
  }
});

/** A bar of entries, each a link but the page's own (plain text, highlighted). */
function bar(current: string, entries = ['Overview', 'Package', 'Class', 'Tree', 'Index']): string {
  return '<ul class="bar">' + entries.map((e) => (e === current ? `<li class="current">${e}</li>` : `<li><a href="/${e}.html">${e}</a></li>`)).join('') + '</ul>';
}

test('navigation items: bars that differ by which entry is the current page get one fingerprint with items, not without', () => {
  const a = parseHtml(`<html><body><div class="top">${bar('Class')}</div><p>Text</p></body></html>`);
  const b = parseHtml(`<html><body><div class="top">${bar('Tree')}</div><p>Other text</p></body></html>`);
  const fp = (t: typeof a, items: boolean): number => navigationFingerprint(t, t.find('ul'), { minhashes: 2, items });
  assert.equal(fp(a, true), fp(b, true));
  assert.notEqual(fp(a, false), fp(b, false), 'the words outside links differ: Class on one page, Tree on the other');
  // A different bar at the same place keeps its own shape.
  const c = parseHtml(`<html><body><div class="top"><ul class="bar"><li><a href="/x">X</a> <em>new</em></li></ul></div></body></html>`);
  assert.notEqual(fp(a, true), fp(c, true));
});

test('landmarks: a breadcrumb at other depths of the layout (an article, a generated index) has one shape, taken from its landmark', () => {
  const crumbs = (current: string): string => `<nav class="crumbs"><ul><li><a href="/">Home</a></li><li><a href="/guide">Guide</a></li><li>${current}</li></ul></nav>`;
  const article = parseHtml(`<html><body><main><div class="row"><div class="col"><section><article>${crumbs('Setup')}<h1>Setup</h1><p>Text</p></article></section></div></div></main></body></html>`);
  const index = parseHtml(`<html><body><main><table><tr><td>${crumbs('Guide')}<h1>Guide</h1><p>Cards</p></td></tr></table></main></body></html>`);
  const fp = (t: typeof article, landmark: boolean): number => {
    const nav = t.find('nav');
    return navigationFingerprint(t, nav, { minhashes: 4, items: true, landmark: landmark ? nav : -1 });
  };
  assert.equal(fp(article, true), fp(index, true));
  assert.notEqual(fp(article, false), fp(index, false), 'from <body> the paths differ: main div div section article, main table tbody tr td');
  // Through navigationShingles: the breadcrumb is one pagelet of its own (landmarks) with the landmark's shape.
  const shingleOf = (t: typeof article): number => {
    const pagelets = partition(t, { k: 3, landmarks: true });
    const links = pageLinks(t, 'http://local.invalid/x.html');
    const shingles = shinglePagelets(t, pagelets, links.node, links.dest, { minhashes: 2 });
    navigationShingles(t, pagelets, shingles, { minhashes: 2, items: true, landmarks: true });
    return shingles[Array.from(pagelets).indexOf(t.find('nav'))]!;
  };
  assert.equal(shingleOf(article), shingleOf(index));
});

/**
 * Page i of a made-up documentation site whose short pages hold their breadcrumb and edit link inside the
 * article (its crumbs link the pages to each other, as Figure 5 needs).
 */
function stubPage(i: number): string {
  const t = TOPICS[i]!;
  const menu = `<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/guide">Guide</a></li><li><a href="/api">API</a></li></ul></nav>`;
  const crumbs = `<nav class="crumbs"><ul><li><a href="/">Home</a></li><li><a href="/${TOPICS[(i + 1) % TOPICS.length]}.html">Guide ${TOPICS[(i + 3) % TOPICS.length]}</a></li><li>${t} stub</li></ul></nav>`;
  const article = `<article>${crumbs}<div class="doc"><h1>${t} stub</h1></div><footer><a href="https://edit.test/${t}">Edit this page</a></footer></article>`;
  return `<html><body>${menu}<main>${article}</main><footer><p>Footer text of the site</p></footer></body></html>`;
}

test('landmarks: on short pages the breadcrumb and the edit link inside the article are template, the heading is kept', async () => {
  const pages: Record<string, string> = {};
  TOPICS.forEach((t, i) => (pages[`${t}.html`] = stubPage(i)));
  for (const global of [true, false]) {
    const on = await run(pages, { global, workers: 0, backend: 'memory' });
    const off = await run(pages, { global, workers: 0, backend: 'memory', landmarks: false });
    for (const t of TOPICS) {
      assert.equal(squash(keptText(on.get(`${t}.html`)!)), `${t} stub`, `${t} (global ${global})`);
      assert.match(squash(keptText(off.get(`${t}.html`)!)), /Edit this page/, `${t} (global ${global}): without landmarks the article is one pagelet`);
    }
  }
});

test('a learned template without the landmark and item fields (learned before them) applies with both off', async () => {
  const pages = TOPICS.map((t, i) => ({ key: `${t}.html`, body: stubPage(i) }));
  const off = JSON.parse(JSON.stringify((await learnTemplate(new MemorySource(pages), { method: 'pagelets', workers: 0, landmarks: false, navigationItems: false })).template)) as { data: Record<string, unknown> };
  const { template: on } = await learnTemplate(new MemorySource(pages), { method: 'pagelets', workers: 0 });
  const old = structuredClone(off);
  delete old.data['landmarks'];
  delete old.data['navigationItems'];
  for (const p of pages) {
    const url = `http://memory.invalid/${p.key}`;
    const kept = squash(keptText(applyTemplate(old, p.body, { key: p.key, url })));
    assert.equal(kept, squash(keptText(applyTemplate(off, p.body, { key: p.key, url }))));
    assert.match(kept, /Edit this page/, 'the article is one pagelet, as before landmarks');
    assert.doesNotMatch(squash(keptText(applyTemplate(on, p.body, { key: p.key, url }))), /Edit this page/);
  }
});
