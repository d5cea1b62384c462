/**
 * Navigation regions and the content slot (navigation-regions.ts) on small hand-written pages: each option
 * of the rule is checked against a page where it changes the answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../../src/html/labels.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import type { Tree } from '../../../src/html/tree.ts';
import { contentSlot, markNavigationCells, markNavigationRegions, type MappedPage, navigationRegions, VariableText } from '../../../src/template/hyperlink/navigation-regions.ts';
import { nodeEquality, NodeFeatures } from '../../../src/template/hyperlink/node-equality.ts';
import { extractTemplate } from '../../../src/template/hyperlink/template-extraction.ts';

const labels = new LabelTable();
const eq = nodeEquality();
const features = (html: string): NodeFeatures => new NodeFeatures(parseHtml(html, { labels }), eq);

/** The key page's template against the other pages, and the pages as the region test sees them. */
function learn(key: string, others: readonly string[]): { key: Tree; template: Uint8Array; pages: MappedPage[] } {
  const k = features(key);
  const ext = extractTemplate(eq, k, others.map((html, i) => ({ key: String(i), features: features(html) })));
  assert.equal(ext.maps.length, others.length, 'every page shares the key page\'s root');
  // Each page's marks: the images of the template's nodes (as the engine computes them).
  const pages = ext.maps.map((m) => {
    const marks = new Uint8Array(m.features.tree.size);
    m.map.forEach((j, i) => {
      if (ext.template[i] === 1 && j >= 0) marks[j] = 1;
    });
    return { tree: m.features.tree, map: m.map, marks };
  });
  return { key: k.tree, template: ext.template, pages };
}

/** Element `tag` with class `cls` (first in preorder). */
function el(tree: Tree, tag: string, cls: string): number {
  for (let i = 0; i < tree.size; i++) if (tree.tag(i) === tag && tree.attr(i, 'class') === cls) return i;
  throw new Error(`no ${tag}.${cls}`);
}

const PROSE = (w: string): string => `<p class="text">The ${w} article tells of ${w}s at length, with ${w} words, more ${w} words and a last ${w} sentence.</p>`;

test('regions decided by the key page: a bar of links on the key page that is plain words on a CS page is navigation only with `key`', () => {
  // Javadoc-like: the key page's bar entries are links, another page's are plain words (no such members).
  const page = (bar: string, w: string): string =>
    `<html><body><div class="logo">Site name</div><nav class="bar">${bar}</nav><main class="doc">${PROSE(w)}</main></body></html>`;
  const key = page('<a href="/x/one">Alpha one</a><a href="/x/two">Alpha two</a>', 'key');
  const plain = page('<span>Beta one</span><span>Beta two</span>', 'beta');
  const linked = page('<a href="/y/one">Gamma one</a><a href="/y/two">Gamma two</a>', 'gamma');
  const { key: t, template, pages } = learn(key, [plain, linked]);
  const bar = el(t, 'nav', 'bar');
  assert.deepEqual(navigationRegions(t, template, pages, 0.5, 0.5, 'all'), [], 'all: the plain-words page says it is not navigation');
  assert.deepEqual(navigationRegions(t, template, pages, 0.5, 0.5, 'key'), [bar]);

  // Marking the plain-words page: with `key`, the bar's image lies outside the page's content slot and is
  // template; with `all`, its image must itself be mostly links, and is not.
  const p = pages[0]!;
  for (const [decidedBy, want] of [['key', 1], ['all', 0]] as const) {
    const marks = Uint8Array.from(p.marks);
    markNavigationRegions(p.tree, marks, p.map, [bar], 0.5, decidedBy, 0.5);
    const span = p.tree.find('span');
    assert.equal(marks[span], want, `${decidedBy}: the plain-words bar on the CS page`);
    const prose = el(p.tree, 'p', 'text') + 1;
    assert.match(p.tree.nodeText(prose), /beta article/);
    assert.equal(marks[prose], 0, `${decidedBy}: the content stays content`);
  }
});

test('navigation link share: a region whose changing text is 40% link text is navigation at 0.3; at 0.5 only its link is', () => {
  // A breadcrumb-like line: a changing link and a changing plain note of about one and a half times its length.
  const page = (w: string): string =>
    `<html><body><div class="logo">Site name</div><div class="crumbs"><a href="/${w}">${w} page</a><span>notes on ${w}s</span></div><main class="doc">${PROSE(w)}</main></body></html>`;
  const { key: t, template, pages } = learn(page('kilo'), [page('lima'), page('mike'), page('oscar')]);
  const crumbs = el(t, 'div', 'crumbs');
  const v = new VariableText(t, template);
  const share = v.linkText(crumbs) / v.text(crumbs);
  assert.ok(share > 0.3 && share < 0.5, `link share of the region on the key page: ${share}`);
  assert.deepEqual(navigationRegions(t, template, pages, 0.3), [crumbs]);
  const link = t.find('a');
  assert.ok(t.contains(crumbs, link));
  assert.deepEqual(navigationRegions(t, template, pages, 0.5), [link], 'at 0.5 the plain note is content, the link alone navigation');
});

test('content slot: looked for in <body> (a page\'s changing <title> is not its content), by changing link text when the body has no changing prose', () => {
  // An index page: its content is a list of links; the only changing prose is the title.
  const page = (w: string, n: number): string =>
    `<html><head><title>All the ${w} pages of the site, listed for readers of ${w}</title></head><body><div class="logo">Site name</div>` +
    `<main class="list"><ul class="entries">${Array.from({ length: n }, (_, i) => `<li><a href="/${w}/${i}">${w} entry number ${i}</a></li>`).join('')}</ul></main>` +
    `<footer class="foot">Footer words</footer></body></html>`;
  const { key: t, template } = learn(page('alpha', 4), [page('beta', 4), page('gamma', 4)]);
  const v = new VariableText(t, template);
  assert.ok(v.prose(t.find('title')) > 0, 'the title is changing prose');
  const slot = contentSlot(t, template, v, 0.5);
  assert.ok(slot >= 0 && t.contains(t.body(), slot), `the slot is in <body> (got ${slot >= 0 ? t.tag(slot) : 'none'})`);
  assert.ok(t.contains(slot, el(t, 'ul', 'entries')) || slot === el(t, 'ul', 'entries'), `the slot holds the list (got ${t.tag(slot)}.${t.attr(slot, 'class') ?? ''})`);
});

test('a region never holds more changing text than the content slot: an index page\'s cards are its content', () => {
  // The heading is the page's only changing prose (the slot); the cards beside it are changing links, more text.
  const cards = (w: string): string => ['one', 'two', 'three'].map((c) => `<a class="card" href="/${w}/${c}">The ${w} card ${c}, a longer summary of a page of ${w}</a>`).join('');
  const page = (w: string): string =>
    `<html><body><div class="logo">Site name</div><main class="index"><h1 class="title">${w} overview</h1><div class="cards">${cards(w)}</div></main></body></html>`;
  const { key: t, template, pages } = learn(page('alpha'), [page('beta'), page('gamma')]);
  const v = new VariableText(t, template);
  const slot = contentSlot(t, template, v, 0.5);
  const box = el(t, 'div', 'cards');
  assert.equal(slot, el(t, 'h1', 'title'), 'the heading holds the changing prose');
  assert.ok(!t.contains(box, slot) && !t.contains(slot, box) && v.text(box) > v.text(slot), 'the cards lie beside the slot and hold more changing text');
  for (const decidedBy of ['all', 'key'] as const) {
    const regions = navigationRegions(t, template, pages, 0.5, 0.5, decidedBy);
    assert.ok(!regions.some((r) => t.contains(r, box) || r === box), `${decidedBy}: the cards are not navigation (${regions.map((r) => t.tag(r)).join(', ')})`);
  }
});

test('navigation cells: a breadcrumb\'s current entry, plain text among fixed link cells, is template; a list of changing items is not a bar', () => {
  const page = (current: string, w: string): string =>
    `<html><body><nav class="crumbs"><ul class="breadcrumbs"><li class="crumb"><a href="/"><img src="/home.svg"></a></li><li class="crumb"><a href="/guide/">Guide section</a></li><li class="crumb crumb--active"><span class="label">${current}</span></li></ul></nav>` +
    `<main class="doc"><h1>${current}</h1>${PROSE(w)}<ul class="posts"><li class="post"><a href="/p/${w}1">${w} first post</a></li><li class="post"><a href="/p/${w}2">${w} second post</a></li></ul></main></body></html>`;
  const { key: t, template } = learn(page('Install the tool', 'alpha'), [page('Configure the tool', 'beta'), page('Run the tool', 'gamma')]);
  const label = el(t, 'span', 'label');
  const text = (i: number): number => i + 1;
  assert.equal(template[text(label)], 0, 'the ETDM maps the cell, not its changing text');
  const marks = Uint8Array.from(template);
  assert.equal(markNavigationCells(t, marks), 1);
  assert.equal(marks[text(label)], 1, 'the current entry is template');
  const h1 = t.find('h1');
  assert.equal(marks[text(h1)], 0, 'the heading, plain text outside any bar, stays content');
  const posts = el(t, 'ul', 'posts');
  for (let i = posts; i < t.end[posts]!; i++) if (t.kind[i] === 2) assert.equal(marks[i], 0, 'a list whose items all change is no bar');
});

test('navigation bars: a prev/next bar of mostly fixed text beside a stub\'s short content slot is navigation only with `bars`', () => {
  const page = (title: string, prev: string, next: string): string =>
    `<html><body><div class="logo">Site name</div><main class="doc"><h1 class="title">${title}</h1></main>` +
    `<nav class="pager"><a class="prev" href="/${prev}"><span class="sub">Previous page</span><span class="label">${prev}</span></a><a class="next" href="/${next}"><span class="sub">Next page</span><span class="label">${next}</span></a></nav></body></html>`;
  const { key: t, template, pages } = learn(page('Stub', 'Setup', 'Usage'), [page('Other', 'Intro', 'Howto'), page('Third', 'Begin', 'Close')]);
  const pager = el(t, 'nav', 'pager');
  assert.deepEqual(navigationRegions(t, template, pages, 0.5, 0.5, 'all', false), [], 'the bar holds more changing text than the one-word heading');
  assert.deepEqual(navigationRegions(t, template, pages, 0.5, 0.5, 'all', true), [pager]);
});

test('navigation bars: "mostly fixed" counts items, not characters, so a Chinese bar\'s short fixed words still make it a bar', () => {
  const page = (title: string, prev: string, next: string): string =>
    `<html><body><div class="logo">站点</div><main class="doc"><h1 class="title">${title}</h1></main>` +
    `<nav class="pager"><a class="prev" href="/p"><span class="sub">上一页</span><span class="label">${prev}</span></a><a class="next" href="/n"><span class="sub">下一页</span><span class="label">${next}</span></a></nav></body></html>`;
  // The fixed words (6 characters) are fewer than the changing titles (14), as many items.
  const { key: t, template, pages } = learn(page('扩展用户管理', '可视化插件发布', '开发移动应用程序'), [page('其他页面', '系统安装指南', '设备接入说明'), page('第三页', '常见问题解答', '更新记录列表')]);
  const pager = el(t, 'nav', 'pager');
  const v = new VariableText(t, template);
  assert.ok(v.fixed(pager) < v.text(pager), 'fewer fixed characters than changing ones');
  assert.equal(v.mostlyFixed(pager), true);
  assert.deepEqual(navigationRegions(t, template, pages, 0.5, 0.5, 'all', true), [pager]);
});

/** A docs page whose breadcrumb starts with a home icon (Docusaurus-like): `trail` links, then the current entry. */
const crumbPage = (trail: readonly string[], current: string, markup = ' aria-label="Breadcrumbs"'): string =>
  `<html><body><div class="logo">Site name</div><nav class="crumbs"${markup}><ul class="list">` +
  '<li class="item"><a class="link" aria-label="Home page" href="/"><svg class="home"><path d="M1 2z"></path></svg></a></li>' +
  trail.map((t) => `<li class="item"><a class="link" href="/${t}"><span>${t}</span></a></li>`).join('') +
  `<li class="item active"><span class="link">${current}</span></li></ul></nav><main class="doc"><h1>${current}</h1>${PROSE(current.toLowerCase())}</main></body></html>`;

/** The words of the list's entries that `marks` holds as template. */
function crumbWords(t: Tree, marks: Uint8Array): string[] {
  const list = el(t, 'ul', 'list');
  const out: string[] = [];
  for (let i = list; i < t.end[list]!; i++) if (t.kind[i] === 2 && marks[i] === 1) out.push(t.nodeText(i));
  return out;
}

test('navigation bars: a breadcrumb whose only fixed link is a home icon named by aria-label is a bar', () => {
  // Every page one folder down: the entries are all mapped; the icon is the only fixed cell, without words.
  const { key: t, template } = learn(crumbPage(['Manual'], 'Device logs'), [crumbPage(['Guide'], 'Setup'), crumbPage(['Tools'], 'Rules')]);
  assert.deepEqual(crumbWords(t, template), [], 'the ETDM maps the cells, not their changing words');
  const marks = Uint8Array.from(template);
  assert.equal(markNavigationCells(t, marks, 'none'), 2);
  assert.deepEqual(crumbWords(t, marks), ['Manual', 'Device logs']);
  // Without its name the icon is no fixed word, and the list no bar.
  const bare = (html: string): string => html.replace(' aria-label="Home page"', '');
  const b = learn(bare(crumbPage(['Manual'], 'Device logs')), [bare(crumbPage(['Guide'], 'Setup')), bare(crumbPage(['Tools'], 'Rules'))]);
  assert.equal(markNavigationCells(b.key, Uint8Array.from(b.template), 'none'), 0);
});

test('navigation bars: a breadcrumb one entry longer than the other pages\' has its unmapped entry taken as a changing cell', () => {
  // The key page sits one folder deeper than the CS pages: one entry more, which the ETDM leaves unmapped.
  const key = crumbPage(['Manual', 'Logs'], 'Device logs');
  const others = [crumbPage(['Manual'], 'Devices'), crumbPage(['Manual'], 'Scada')];
  const { key: t, template } = learn(key, others);
  const list = el(t, 'ul', 'list');
  const items = [...t.children(list)];
  assert.equal(items.filter((c) => template[c] !== 1).length, 1, 'one entry is left unmapped');
  const none = Uint8Array.from(template);
  markNavigationCells(t, none, 'none');
  assert.ok(crumbWords(t, none).length < 3, 'without the rule an entry stays content');
  const marks = Uint8Array.from(template);
  markNavigationCells(t, marks, 'breadcrumbs');
  assert.deepEqual(crumbWords(t, marks), ['Manual', 'Logs', 'Device logs']);
  for (const c of items) assert.equal(marks[c], 1, 'the unmapped entry\'s elements are template with its words');
  // A list not marked up as a breadcrumb keeps its unmapped entry as content, unless `anywhere`.
  const plain = (html: string): string => html.replace(' aria-label="Breadcrumbs"', '');
  const p = learn(plain(key), others.map(plain));
  const pm = Uint8Array.from(p.template);
  markNavigationCells(p.key, pm, 'breadcrumbs');
  assert.ok(crumbWords(p.key, pm).length < 3);
  const pa = Uint8Array.from(p.template);
  markNavigationCells(p.key, pa, 'anywhere');
  assert.deepEqual(crumbWords(p.key, pa), ['Manual', 'Logs', 'Device logs']);
});
