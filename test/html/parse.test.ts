import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { NodeKind } from '../../src/html/tree.ts';

test('fast parse builds a preorder tree whose subtrees are ranges', () => {
  const t = parseHtml('<html><body><div id="a"><p>one <b>two</b></p><p>three</p></div></body></html>');
  const div = t.find('div');
  assert.equal(t.attr(div, 'id'), 'a');
  const ps = t.elementChildren(div);
  assert.equal(ps.length, 2);
  assert.ok(t.contains(div, ps[1]!));
  assert.equal(t.end[0], t.size);
  for (let i = 1; i < t.size; i++) {
    const p = t.parent[i]!;
    assert.ok(p < i && t.end[p]! >= t.end[i]!, `node ${i} lies inside its parent`);
    assert.equal(t.depth[i], t.depth[p]! + 1);
  }
});

test('equal normalised tags get equal labels across pages of one site', () => {
  const labels = new LabelTable();
  const a = parseHtml('<DIV  class=" x   y" ID="m">a</DIV>', { labels });
  const b = parseHtmlExact('<div id="m" class="x y">b</div>', { labels });
  assert.equal(a.label[a.find('div')], b.label[b.find('div')]);
  const c = parseHtml('<div id="n" class="x y">c</div>', { labels });
  assert.notEqual(a.label[a.find('div')], c.label[c.find('div')]);
  assert.equal(a.kind[a.find('div') + 1], NodeKind.Text);
});

test('an element that does not belong in <head> ends it and opens an implied body, as in a browser', () => {
  // A head that is never closed (truncated markup, as on several l3s-gn1 pages).
  const html = '<html><head><title>T</title><link rel="x"><div id="a"><p>one</p></div><p>two</p></html>';
  for (const t of [parseHtml(html), parseHtmlExact(html)]) {
    const body = t.body();
    assert.equal(t.tag(body), 'body');
    assert.equal(t.tag(t.parent[body]!), 'html');
    assert.ok(t.contains(body, t.find('div')), 'the div is in the body');
    assert.equal(t.elementChildren(body).length, 2);
    assert.equal(t.elementChildren(t.find('head')).length, 2, 'title and link stay in the head');
  }
  // Non-blank text in the head does the same; a later <body> tag merges into the implied body.
  const t = parseHtml('<html><head><meta charset="utf-8">stray<p>x</p></head><body class="b"><p>y</p></body></html>');
  const body = t.body();
  assert.equal(t.elementChildren(body).length, 2, 'both paragraphs in one body');
  assert.equal(t.find('body'), body);
  let bodies = 0;
  for (let i = 0; i < t.size; i++) if (t.tag(i) === 'body') bodies++;
  assert.equal(bodies, 1);
  // Elements that belong in the head stay there and a well-formed page is unchanged.
  const w = parseHtml('<html><head><script>var a="<div>"</script><style>p{}</style></head><body><p>z</p></body></html>');
  assert.equal(w.elementChildren(w.find('head')).length, 2);
  assert.equal(w.elementChildren(w.body()).length, 1);
});

test('a start tag met once, twice or more has the attributes a browser gives it, in source order', () => {
  // The label table keeps a repeated tag's attributes after its second sighting: the three sightings
  // take the three paths (made, made and kept, read from the table).
  const html = '<body><a Href="/x?a=1&amp;b=2" 1="one" __proto__="p" class="c" CLASS="d" title=&lt;t&gt;>x</a></body>';
  const labels = new LabelTable();
  const attrs = (t: ReturnType<typeof parseHtml>): [string, string][] => {
    const a = t.find('a');
    return t.attrNames.slice(t.attrStart[a], t.attrStart[a + 1]).map((n, k) => [n, t.attrValues[t.attrStart[a]! + k]!]);
  };
  const browser = attrs(parseHtmlExact(html));
  assert.deepEqual(browser, [['href', '/x?a=1&b=2'], ['1', 'one'], ['__proto__', 'p'], ['class', 'c'], ['title', '<t>']]);
  for (let k = 0; k < 3; k++) assert.deepEqual(attrs(parseHtml(html, { labels })), browser, `sighting ${k + 1}`);
});

test('a start tag too long to cache gets its attributes and label all the same', () => {
  const labels = new LabelTable();
  const src = 'data:image/png;base64,' + 'A'.repeat(5000);
  const html = `<body><img alt="x" src="${src}"><p class="c">t</p></body>`;
  const trees = [0, 1, 2].map(() => parseHtml(html, { labels }));
  for (const t of trees) {
    const img = t.find('img');
    assert.equal(t.attr(img, 'src'), src);
    assert.equal(t.tagSource?.[img], -1, 'not cached');
    assert.equal(t.label[img], trees[0]!.label[trees[0]!.find('img')]);
    assert.ok(t.tagSource![t.find('p')]! >= 0, 'a short tag is cached');
  }
});

test('character references are decoded where a browser decodes them, and only there', () => {
  // Text and title (RCDATA) decode; script, style and xmp keep their text as written; textarea decodes.
  // Attribute values follow the attribute rule: a legacy name without `;` followed by `=` or a letter
  // stays as written (`&not=1`), elsewhere it decodes (`&not 2`).
  const html =
    '<html><head><title>a &amp; b &lt;</title><style>p::after{content:"&amp;"}</style>' +
    '<script>x = "&lt;";</script></head><body><p title="&not=1 &not 2 &amp;x &#x41;&#0;">t &copy &notin; &#128; &#x1F600; &amp</p>' +
    '<xmp>&amp;</xmp><textarea>&lt;b&gt;</textarea><svg><title>&lt;s&gt;</title></svg></body></html>';
  const texts = (t: ReturnType<typeof parseHtml>): string[] => {
    const out: string[] = [];
    for (let i = 0; i < t.size; i++) if (t.kind[i] === NodeKind.Text) out.push(t.text.slice(t.textStart[i], t.textEnd[i]));
    return out;
  };
  const fast = parseHtml(html);
  const exact = parseHtmlExact(html);
  assert.deepEqual(texts(fast), texts(exact));
  assert.deepEqual(texts(fast), ['a & b <', 'p::after{content:"&amp;"}', 'x = "&lt;";', 't © ∉ € 😀 &', '&amp;', '<b>', '<s>']);
  assert.equal(fast.attr(fast.find('p'), 'title'), exact.attr(exact.find('p'), 'title'));
  assert.equal(fast.attr(fast.find('p'), 'title'), '&not=1 ¬ 2 &x A\uFFFD');
});
