import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { linkCollections, TagLists } from '../../src/structure/link-collections.ts';
import { jaccard, type PageSchema, schemaOf, similar, similarity } from '../../src/structure/page-schema.ts';
import { ClusterTable, clusterBySchema } from '../../src/structure/schema-clusters.ts';

const ROOT = 'http://site.test/';
const keyOf = (u: string): string | undefined => (u.startsWith(ROOT) ? u.slice(ROOT.length) || 'index.html' : undefined);

// The three pages of the paper's Figure 4 (simplified DOM trees).
const P1 = '<html><table><tr><td><a href="u1">X</a><a href="u2">Y</a></td></tr></table><ul><li><a href="u10">E</a></li><li><a href="u11">F</a></li></ul></html>';
const P2 = '<html><table><tr><td><a href="u3">X</a><a href="u4">Y</a></td></tr></table><ul><li><a href="u13">G</a></li></ul></html>';
const P3 = '<html><table><tr><td><a href="u5">H</a><a href="u6">K</a></td><td><a href="u7">J</a></td></tr></table><p><b><a href="u20">L</a></b></p></html>';

test('link collections and schemas of the paper\'s Figure 4', () => {
  const tl = new TagLists({ attributes: 'none' });
  const c1 = linkCollections(parseHtml(P1), ROOT + 'p1', tl, { keyOf });
  assert.deepEqual(
    c1.map((c) => [tl.describe(c.tagList), c.links.map((l) => [l.url.slice(ROOT.length), l.anchor])]),
    [
      ['html > table > tr > td > a', [['u1', 'X'], ['u2', 'Y']]],
      ['html > ul > li > a', [['u10', 'E'], ['u11', 'F']]],
    ],
  );
  const s1 = schemaOf(c1);
  const s2 = schemaOf(linkCollections(parseHtml(P2), ROOT + 'p2', tl, { keyOf }));
  const c3 = linkCollections(parseHtml(P3), ROOT + 'p3', tl, { keyOf });
  const s3 = schemaOf(c3);
  // p3's two cells share one tag-list: one collection of three links.
  assert.equal(c3[0]!.links.length, 3);
  assert.deepEqual([...s3.links].map((t) => tl.describe(t)).sort(), ['html > p > b > a', 'html > table > tr > td > a']);
  assert.equal(jaccard(s1.links, s2.links), 1, 'identical schemas');
  assert.equal(jaccard(s1.links, s3.links), 1 / 3, '|{TD}| / |{TD, LI, B}|');
  assert.equal(jaccard(s3.links, s1.links), jaccard(s1.links, s3.links), 'symmetric');
  assert.equal(similarity(s1, s3), 1 / 3, 'without layouts, the similarity is the paper\'s');
  assert.ok(similar(s1, s2, 0.85) && !similar(s1, s3, 0.85));
  // Clusters of identical schema: {p1, p2} and {p3}.
  const table = new ClusterTable<string>();
  assert.equal(table.add(s1, 'p1').id, table.add(s2, 'p2').id);
  assert.notEqual(table.add(s3, 'p3').id, table.clusters[0]!.id);
  assert.deepEqual(clusterBySchema([s1, s2, s3]), [0, 0, 1]);
});

test('attributes take part in steps, except per-link data; repeats collapse; in-page anchors are left out', () => {
  const tl = new TagLists();
  const html = (cls: string, title: string, extra = ''): string =>
    `<body><section><section><ul class="${cls}"><li><a href="/a" title="${title}" data-x="${title}" id="${title}">a</a></li></ul></section></section><a href="#top">top</a>${extra}</body>`;
  const a = linkCollections(parseHtml(html('nav', 'one')), ROOT + 'x', tl, { keyOf });
  const b = linkCollections(parseHtml(html('nav', 'two')), ROOT + 'y', tl, { keyOf });
  const c = linkCollections(parseHtml(html('menu', 'one')), ROOT + 'x', tl, { keyOf });
  assert.equal(a.length, 1, 'the #top anchor is not a link collection');
  assert.equal(a[0]!.tagList, b[0]!.tagList, 'title, data-* and id do not change the tag-list');
  assert.notEqual(a[0]!.tagList, c[0]!.tagList, 'class does');
  assert.equal(tl.describe(a[0]!.tagList), 'body > section > ul class="nav" > li > a');
});

test('collections leaving the site are flagged and kept in the schema unless told; a link to the page itself by address stays', () => {
  const tl = new TagLists();
  const page = '<body><ul class="social"><li><a href="https://elsewhere.test/me">me</a></li></ul><ul class="menu"><li><a href="/x">x</a></li><li><a href="/y">y</a></li></ul></body>';
  const cols = linkCollections(parseHtml(page), ROOT + 'x', tl, { keyOf });
  assert.deepEqual(cols.map((c) => c.offSite), [true, false]);
  assert.equal(cols[1]!.links.length, 2, 'the menu keeps its link to the page itself');
  assert.equal(schemaOf(cols).links.length, 2);
  assert.equal(schemaOf(cols, { offSiteLinks: false }).links.length, 1);
});

test('Jaccard of empty schemas, the size bound of similar(), and the minimum of the two halves', () => {
  const e = new Int32Array(0);
  const s = (links: Int32Array, layout: Int32Array = e, content: Int32Array = e): PageSchema => ({ links, layout, content });
  assert.equal(jaccard(e, e), 1);
  assert.equal(jaccard(e, Int32Array.of(1)), 0);
  assert.equal(similar(s(Int32Array.of(1, 2, 3, 4, 5, 6)), s(Int32Array.of(1, 2, 3, 4, 5, 6, 7)), 0.85), true, '6/7 >= 0.85');
  assert.equal(similar(s(Int32Array.of(1, 2, 3, 4, 5)), s(Int32Array.of(1, 2, 3, 4, 5, 6)), 0.85), false, '5/6 < 0.85');
  // Same links, layouts 2/4 alike: the layout decides; same layout, links 1/3 alike: the links decide.
  const a = s(Int32Array.of(1, 2), Int32Array.of(7, 8, 9));
  const b = s(Int32Array.of(1, 2), Int32Array.of(7, 8, 10));
  assert.equal(similarity(a, b), 0.5);
  assert.equal(similarity(s(Int32Array.of(1, 2), Int32Array.of(7)), s(Int32Array.of(2, 3), Int32Array.of(7))), 1 / 3);
  assert.equal(similarity(a, b), similarity(b, a), 'symmetric');
  assert.equal(similarity(a, a), 1);
});
