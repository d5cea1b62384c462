import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml, parseHtmlExact, type ParseOptions } from '../../src/html/parse.ts';
import { serialize } from '../../src/html/serialize.ts';
import type { Tree } from '../../src/html/tree.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { corpusPages } from './corpus-pages.ts';

/** Asserts two trees are equal array by array (labels included: both parsed with one LabelTable). */
function assertSameTree(a: Tree, b: Tree, where: string): void {
  assert.equal(b.size, a.size, `${where}: size`);
  for (const f of ['kind', 'name', 'label', 'parent', 'end', 'depth', 'attrStart'] as const) {
    const x = a[f];
    const y = b[f];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) assert.fail(`${where}: ${f}[${i}] ${x[i]} vs ${y[i]} (<${a.tag(i) || a.nodeText(i).slice(0, 40)}>)`);
  }
  for (let i = 0; i < a.size; i++) if (a.nodeText(i) !== b.nodeText(i)) assert.fail(`${where}: text of node ${i}: ${JSON.stringify(a.nodeText(i).slice(0, 80))} vs ${JSON.stringify(b.nodeText(i).slice(0, 80))}`);
  assert.deepEqual(b.attrNames, a.attrNames, `${where}: attribute names`);
  assert.deepEqual(b.attrValues, a.attrValues, `${where}: attribute values`);
}

function roundTrip(parse: (h: string, o?: ParseOptions) => Tree, html: string, where: string, options: ParseOptions = {}): void {
  const labels = new LabelTable();
  const t = parse(html, { ...options, labels });
  const again = parse(serialize(t), { ...options, labels });
  assertSameTree(t, again, where);
}

const FIXTURES = [
  '<!DOCTYPE html><html><head><title>A &amp; B &lt;c&gt;</title></head><body><p class="a&quot;b" data-x=\'1 > 0\'>x &lt; y &amp;&amp; z&nbsp;</p></body></html>',
  '<div><script>if (a < b && c > d) document.write("<p>")</script><style>a > b { content: "&amp;" }</style></div>',
  '<ul><li>one<li>two</ul><p>para<p>para2<br><img src="x"><!-- comment -- with dashes --><hr>',
  '<textarea>&lt;b&gt; not bold &amp;</textarea><pre>\n  indented</pre><table><tr><td>1</td></tr></table>',
  '<svg viewBox="0 0 1 1"><path d="M0 0"/><circle r="1"></circle></svg><p>after svg</p>',
];

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: parse → serialize → parse gives the same tree (fixtures)`, () => {
    FIXTURES.forEach((html, k) => roundTrip(parse, html, `fixture ${k}`));
  });

  test(`${label}: parse → serialize → parse gives the same tree (corpus pages)`, { skip: corpusSkip() }, () => {
    for (const p of corpusPages(3)) roundTrip(parse, p.html, `${p.site}/${p.key}`, label === 'fast' ? { selfClosing: p.key.endsWith('.xhtml') } : {});
  });
}

test('marks add attributes without changing anything else', () => {
  const labels = new LabelTable();
  const t = parseHtml('<body><nav><a href="/">home</a></nav><main><p>text</p></main></body>', { labels });
  const nav = t.find('nav');
  const html = serialize(t, { mark: (i) => (t.contains(nav, i) && t.isElement(i) ? { 'data-gabarit': 'template' } : undefined) });
  assert.equal(html, '<!DOCTYPE html><body><nav data-gabarit="template"><a href="/" data-gabarit="template">home</a></nav><main><p>text</p></main></body>');
  const back = parseHtml(html);
  assert.equal(back.attr(back.find('a'), 'data-gabarit'), 'template');
  assert.equal(back.attr(back.find('p'), 'data-gabarit'), undefined);
  assert.equal(serialize(t, { root: t.find('main') }), '<main><p>text</p></main>');
});
