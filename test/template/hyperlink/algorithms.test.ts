import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../../src/html/parse.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { CompleteSubdigraph, findCompleteSubdigraph } from '../../../src/template/hyperlink/complete-subdigraph.ts';
import { equalTopDownMapping, mappingSize } from '../../../src/template/hyperlink/equal-top-down-mapping.ts';
import { orderLinks, sharedFolders } from '../../../src/template/hyperlink/link-order.ts';
import { equality, nodeEquality, NodeFeatures } from '../../../src/template/hyperlink/node-equality.ts';
import { extractTemplate } from '../../../src/template/hyperlink/template-extraction.ts';
import { followText } from '../../../src/template/hyperlink/page-marks.ts';
import { extractLinks } from '../../../src/site/links.ts';

/** A link graph given as adjacency lists; `load` counts calls. */
function graph(adj: Record<string, string[]>): { load: (u: string) => Promise<string[] | null>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    load: async (u) => {
      calls.push(u);
      return adj[u] ?? null;
    },
  };
}

test('Algorithm 1 stops as soon as an n-CS exists', async () => {
  const all = ['a', 'b', 'c', 'd', 'e', 'f'];
  const adj: Record<string, string[]> = {};
  for (const x of ['a', 'b', 'c', 'd', 'e']) adj[x] = all.filter((y) => y !== x);
  adj['f'] = [];
  const g = graph(adj);
  const r = await findCompleteSubdigraph(all, { n: 4, load: g.load });
  assert.deepEqual(r.cs, ['a', 'b', 'c', 'd']);
  assert.equal(r.complete, true);
  assert.deepEqual(g.calls, ['a', 'b', 'c', 'd'], 'no page loaded after the 4-CS');
});

test('Algorithm 1 returns the biggest m-CS when no n-CS exists, and skips pages that fail', async () => {
  // a<->b<->c mutually linked (3-CS); d links to a but a does not link to d; e fails to load.
  const g = graph({ a: ['b', 'c'], b: ['a', 'c'], c: ['a', 'b', 'e'], d: ['a'] });
  const r = await findCompleteSubdigraph(['d', 'e', 'a', 'b', 'c'], { n: 4, load: g.load });
  assert.deepEqual(r.cs, ['a', 'b', 'c']);
  assert.equal(r.complete, false);
  assert.deepEqual(r.failed, ['e']);
  assert.equal(r.tried.length, 5);
});

test('Algorithm 1 respects maxLoad and rejects n < 2', async () => {
  const g = graph({ a: ['b'], b: ['a'], c: [], d: [] });
  const r = await findCompleteSubdigraph(['c', 'd', 'a', 'b'], { n: 4, maxLoad: 2, load: g.load });
  assert.equal(g.calls.length, 2);
  assert.equal(r.cs.length, 1);
  await assert.rejects(findCompleteSubdigraph(['a'], { n: 1, load: g.load }), RangeError);
});

test('Algorithm 1 settles for a CS of at least 3 pages once its load budget is spent', async () => {
  // a, b, c mutually linked (3-CS); d, e, f, g each link to the others but not back from a, b, c; h..k a 4-CS.
  const adj: Record<string, string[]> = { a: ['b', 'c'], b: ['a', 'c'], c: ['a', 'b'], d: ['a'], e: ['a'], h: ['i', 'j', 'k'], i: ['h', 'j', 'k'], j: ['h', 'i', 'k'], k: ['h', 'i', 'j'] };
  const order = ['a', 'b', 'd', 'e', 'c', 'h', 'i', 'j', 'k'];
  const within = graph(adj);
  const r = await findCompleteSubdigraph(order, { n: 4, loadBudget: 5, load: within.load });
  assert.deepEqual(r.cs, ['a', 'b', 'c'], 'the 3-CS found by the fifth load is taken');
  assert.equal(r.complete, false);
  assert.equal(within.calls.length, 5);
  // Before the budget is spent a 3-CS does not stop the walk; without a budget the 4-CS is found.
  const early = graph(adj);
  assert.equal((await findCompleteSubdigraph(order, { n: 4, loadBudget: 7, load: early.load })).cs.length, 3);
  assert.equal(early.calls.length, 7);
  const none = graph(adj);
  assert.deepEqual((await findCompleteSubdigraph(order, { n: 4, load: none.load })).cs, ['h', 'i', 'j', 'k']);
  // A CS smaller than 3 does not settle the walk: it goes on to the first 3-CS.
  const pair = graph({ a: ['b'], b: ['a'], h: ['i', 'j', 'k'], i: ['h', 'j', 'k'], j: ['h', 'i', 'k'], k: ['h', 'i', 'j'] });
  assert.deepEqual((await findCompleteSubdigraph(['a', 'b', 'h', 'i', 'j', 'k'], { n: 4, loadBudget: 2, load: pair.load })).cs, ['h', 'i', 'j']);
  assert.equal(pair.calls.length, 5);
});

test('the largest CS containing a link is a clique of mutual links', () => {
  const cs = new CompleteSubdigraph(5);
  // 0,1,2 form a triangle; 3 is mutual with 0 and 1 only; 4 links out only.
  const edges: Array<[number, number[]]> = [[0, [1, 2, 3]], [1, [0, 2, 3]], [2, [0, 1]], [3, [0, 1]], [4, [0, 1, 2, 3]]];
  for (const [k, out] of edges) cs.process(k, out);
  assert.deepEqual(cs.largestWith(2, 10).sort(), [0, 1, 2]);
  assert.equal(cs.largestWith(3, 10).length, 3);
  assert.deepEqual(cs.largestWith(4, 10), [4]);
  assert.equal(cs.mutual(0, 4), false);
});

const labels = new LabelTable();
const eq = nodeEquality();
const tree = (html: string) => parseHtml(html, { labels });

test('node equality: tag, classes, attributes, children, position', () => {
  const a = new NodeFeatures(tree('<div><ul class="menu main"><li>x</li><li>y</li></ul><p id="p1">t</p></div>'), eq);
  const b = new NodeFeatures(tree('<div><ul class="menu main"><li>x</li><li>z</li></ul><p id="p2">t</p></div>'), eq);
  const c = new NodeFeatures(tree('<div><ol class="menu main"><li>x</li></ol><ul class="ads"><li>q</li></ul></div>'), eq);
  const ulA = a.tree.find('ul');
  assert.equal(equality(eq, a, ulA, b, b.tree.find('ul')), 1);
  assert.equal(equality(eq, a, ulA, c, c.tree.find('ol')), 0, 'different tags are never equal');
  assert.ok(equality(eq, a, ulA, c, c.tree.find('ul')) < eq.threshold, 'disjoint classes are not equal');
  const pa = a.tree.find('p');
  const pb = b.tree.find('p');
  const s = equality(eq, a, pa, b, pb);
  assert.ok(s < 1 && s >= eq.threshold, `another id lowers ≜ but keeps p equal (${s})`);
  // Texts: equal only when the same.
  const tx = (f: NodeFeatures, t: string) => { for (let i = 0; i < f.tree.size; i++) if (f.tree.nodeText(i) === t) return i; return -1; };
  assert.equal(equality(eq, a, tx(a, 'x'), b, tx(b, 'x')), 1);
  assert.equal(equality(eq, a, tx(a, 'y'), b, tx(b, 'z')), 0);
  assert.equal(equality(nodeEquality({ text: 'kind' }), a, tx(a, 'y'), b, tx(b, 'z')), 1);
  assert.throws(() => nodeEquality({ threshold: 2 }), RangeError);
});

test('ETDM: equal and top-down; children aligned in order maximising ≜, not first-fit', () => {
  // First-fit would pair the first li.x of T1 with T2's first li.x... and then could not pair li.y;
  // the alignment pairs li.x–li.x and li.y–li.y in order, and leaves T2's extra li.z alone.
  const t1 = new NodeFeatures(tree('<body><ul><li class="x">a</li><li class="y">b</li><li class="z">c</li></ul></body>'), eq);
  const t2 = new NodeFeatures(tree('<body><ul><li class="z">c</li><li class="x">a</li><li class="y">b</li></ul></body>'), eq);
  const map = equalTopDownMapping(eq, t1, t2);
  const li1 = t1.tree.elementChildren(t1.tree.find('ul'));
  const li2 = t2.tree.elementChildren(t2.tree.find('ul'));
  assert.equal(map[li1[0]!], li2[1], 'li.x ↔ li.x');
  assert.equal(map[li1[1]!], li2[2], 'li.y ↔ li.y');
  assert.equal(map[li1[2]!], -1, 'li.z cannot also map without crossing: order is kept');
  for (let i = 0; i < map.length; i++) {
    const j = map[i]!;
    if (j < 0) continue;
    assert.ok(equality(eq, t1, i, t2, j) >= eq.threshold, 'equal');
    const p = t1.tree.parent[i]!;
    if (p >= 0) assert.equal(map[p], t2.tree.parent[j], 'top-down');
  }
  // An identical tree maps onto itself entirely (blank text aside).
  const same = equalTopDownMapping(eq, t1, t1);
  for (let i = 0; i < same.length; i++) if (t1.counted(i)) assert.equal(same[i], i);
});

test('Definition 3.3: the template is the key page\'s nodes mapped in every page, whatever their order', () => {
  const key = new NodeFeatures(tree('<body><div class="menu"><a>Home</a><a>News</a></div><p class="c">key text</p><div class="ad">Ad one</div></body>'), eq);
  const p1 = new NodeFeatures(tree('<body><div class="menu"><a>Home</a><a>News</a></div><p class="c">other</p><div class="ad">Ad one</div></body>'), eq);
  const p2 = new NodeFeatures(tree('<body><div class="menu"><a>Home</a><a>News</a></div><p class="c">third</p></body>'), eq);
  const a = extractTemplate(eq, key, [{ key: '1', features: p1 }, { key: '2', features: p2 }]);
  const b = extractTemplate(eq, key, [{ key: '2', features: p2 }, { key: '1', features: p1 }]);
  assert.deepEqual(a.template, b.template);
  const text = (t: string) => { for (let i = 0; i < key.tree.size; i++) if (key.tree.nodeText(i) === t) return i; return -1; };
  assert.equal(a.template[text('Home')], 1);
  assert.equal(a.template[text('key text')], 0);
  assert.equal(a.template[text('Ad one')], 0, 'not in p2: not template');
  assert.equal(a.template[key.tree.find('p')], 1, 'the content slot\'s element maps (Definition 3.3)');
});

test('link order: menu links (dense region) before content links', () => {
  const html = `<html><body><article><p>Read <a href="/story.html">a story</a> and a long paragraph of prose around it, with
    <a href="/other.html">another</a> link and <a href="/third.html">a third</a> in running text that goes on.</p></article>
    <nav><ul><li><a href="/a.html">A</a></li><li><a href="/b.html">B</a></li><li><a href="/c.html">C</a></li></ul></nav></body></html>`;
  const t = tree(html);
  const links = extractLinks(t, 'http://site.test/k.html');
  const density = orderLinks(t, links);
  assert.deepEqual(density.slice(0, 3), ['http://site.test/a.html', 'http://site.test/b.html', 'http://site.test/c.html']);
  const doc = orderLinks(t, links, { order: 'document' });
  assert.equal(doc[0], 'http://site.test/story.html');
});

test('link order proximity: links into the key page\'s own folder first, the density order among equals', () => {
  const html = `<html><body><nav><ul><li><a href="/blog/x.html">X</a></li><li><a href="/guide/index.html">Guide</a></li><li><a href="/api/index.html">API</a></li></ul></nav>
    <ul class="section"><li><a href="/guide/b/one.html">one</a></li><li><a href="/guide/b/two.html">two</a></li><li><a href="/guide/c/three.html">three</a></li></ul></body></html>`;
  const t = tree(html);
  const links = extractLinks(t, 'http://site.test/guide/b/k.html').map((l) => ({ url: new URL(l.url).pathname.slice(1), node: l.node }));
  assert.equal(sharedFolders('guide/b/k.html', 'guide/b/one.html'), 2);
  assert.equal(sharedFolders('guide/b/k.html', 'guide/c/three.html'), 1);
  assert.equal(sharedFolders('guide/b/k.html', 'blog/x.html'), 0);
  const near = orderLinks(t, links, { order: 'proximity', key: 'guide/b/k.html' });
  // guide/index.html and guide/c/three.html share one folder with the key: the menu's link comes first.
  assert.deepEqual(near.slice(0, 4), ['guide/b/one.html', 'guide/b/two.html', 'guide/index.html', 'guide/c/three.html']);
  assert.deepEqual(orderLinks(t, links, { order: 'density' }).slice(0, 3), ['blog/x.html', 'guide/index.html', 'api/index.html']);
});

test('node equality: the document skeleton is always equal; tag-unique top wrappers ignore their classes', () => {
  const a = new NodeFeatures(tree('<html lang="en"><body class="single post-1"><div class="wrap-single" id="page"><p class="x">t</p><p class="x">u</p></div><ul><li class="a"><span class="s1">1</span></li></ul></body></html>'), eq);
  const b = new NodeFeatures(tree('<html lang="fr"><body class="archive"><div class="wrap-archive" id="page"><p class="y">t</p><p class="y">u</p></div><ul><li class="b"><span class="s2">1</span></li></ul></body></html>'), eq);
  assert.equal(equality(eq, a, a.tree.find('html'), b, b.tree.find('html')), 1);
  assert.equal(equality(eq, a, a.tree.find('body'), b, b.tree.find('body')), 1);
  assert.ok(equality(eq, a, a.tree.find('div'), b, b.tree.find('div')) >= eq.threshold, 'top wrapper: classes left out');
  assert.ok(equality(eq, a, a.tree.find('li'), b, b.tree.find('li')) < eq.threshold, 'body > ul > li: deeper than topWrapperDepth (1), classes count');
  const deep = nodeEquality({ topWrapperDepth: 2 });
  const da = new NodeFeatures(a.tree, deep);
  const db = new NodeFeatures(b.tree, deep);
  assert.ok(equality(deep, da, da.tree.find('li'), db, db.tree.find('li')) >= deep.threshold, 'with depth 2, body > ul > li is a top wrapper');
  assert.ok(equality(deep, da, da.tree.find('span'), db, db.tree.find('span')) < deep.threshold, 'deeper still: classes count');
  const ps = (f: NodeFeatures) => f.tree.elementChildren(f.tree.find('div'));
  assert.ok(equality(eq, a, ps(a)[0]!, b, ps(b)[0]!) < eq.threshold, 'not tag-unique: classes count');
  const strict = nodeEquality({ documentSkeleton: false, topWrapperDepth: 0 });
  const sa = new NodeFeatures(a.tree, strict);
  const sb = new NodeFeatures(b.tree, strict);
  assert.ok(equality(strict, sa, sa.tree.find('body'), sb, sb.tree.find('body')) < strict.threshold);
  assert.ok(equality(strict, sa, sa.tree.find('div'), sb, sb.tree.find('div')) < strict.threshold);
  assert.equal(mappingSize(equalTopDownMapping(strict, sa, sb)) < mappingSize(equalTopDownMapping(eq, a, b)), true);
});

test('marks follow words: an element whose only template texts are punctuation is content', () => {
  // A code listing whose brackets the ETDM paired with another page's: "(" and ")" are template texts.
  const t = tree('<body><div class="wrap"><p>Fixed words</p><pre><span class="o">(</span><span class="k">define size</span><span class="c">)</span><span class="b"> </span></pre></div></body>');
  const marks = new Uint8Array(t.size).fill(1);
  const text = (s: string) => { for (let i = 0; i < t.size; i++) if (t.nodeText(i) === s) return i; return -1; };
  marks[text('define size')] = 0;
  followText(t, marks);
  assert.equal(marks[t.find('pre')], 0, 'pre: its only word-bearing text is content');
  for (const c of t.elementChildren(t.find('pre'))) assert.equal(marks[c], 0, t.attr(c, 'class'));
  assert.equal(marks[t.find('p')], 1);
  assert.equal(marks[t.find('div')], 1, 'the wrapper holds template words and content');
});
