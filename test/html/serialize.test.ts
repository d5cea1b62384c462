import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml, parseHtmlExact, type ParseOptions } from '../../src/html/parse.ts';
import { serialize, serializeUtf8, Utf8Sink } from '../../src/html/serialize.ts';
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

/**
 * Markup that one parser or the other reads as text (raw text, RCDATA, foreign content), where a writer
 * that escapes, or does not, the wrong way changes the tree on the way back.
 */
const TRICKY = [
  '<xmp><b>x</b> &amp;lt; &amp;</xmp><p>after</p>',
  '<script><!--<script></script>--></script><script>a = "</scr" + "ipt>"; if (a<b) {}</script>',
  '<textarea>\n\nx &lt;b&gt; &amp;amp;</textarea><textarea>\nfirst newline</textarea>',
  '<pre>\n\nx</pre><pre>\ny</pre><listing>\nz</listing><pre><b>\n</b>q</pre>',
  '<svg><style>a{b:"&amp;lt;"} i > b {}</style><script>if (a &lt; b) {}</script><title>&lt;b&gt;</title><desc><b>x</b></desc></svg>',
  '<svg><foreignObject><p>x</p><script>if (a<b) {}</script><style>b > i{}</style></foreignObject></svg><p>after</p>',
  '<math><mi>x</mi><mtext><b>y</b></mtext><annotation-xml encoding="text/html"><p>z</p></annotation-xml></math>',
  '<noscript><p>x</p>a &lt;b</noscript><noscript>&lt;img src=x&gt;</noscript>',
  '<iframe>&lt;b&gt;x</iframe><noembed>&lt;x</noembed><noframes>a&lt;b</noframes>',
  '<p>a<!-- x -- y --!>b</p><!-- z --><p>c</p>',
  '<p>x<![CDATA[y]]>z</p><svg><![CDATA[<b>]]></svg>',
  '<p>\u0000a</p><script>\u0000</script><img alt="a\u0000b">',
  '<plaintext><b>x</b> &amp;',
];

test('without a doctype no doctype is written, and the exact path keeps quirks mode', () => {
  const quirks = '<p><table><tr><td>in p</td></tr></table></p>';
  const t = parseHtmlExact(quirks);
  assert.ok(!serialize(t).startsWith('<!DOCTYPE'));
  assert.equal(t.tag(t.parent[t.find('table')]!), 'p', 'in quirks mode a table stays inside the p');
  const again = parseHtmlExact(serialize(t));
  assert.equal(again.tag(again.parent[again.find('table')]!), 'p');
  const standards = parseHtmlExact('<!DOCTYPE html>' + quirks);
  assert.ok(serialize(standards).startsWith('<!DOCTYPE html>'));
  assert.equal(standards.tag(standards.parent[standards.find('table')]!), 'body');
  assert.equal(parseHtml('<!doctype HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><p>x').doctype, '<!doctype HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">');
  assert.equal(parseHtmlExact('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x').doctype, '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">');
});

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: parse → serialize → parse gives the same tree (fixtures)`, () => {
    FIXTURES.forEach((html, k) => roundTrip(parse, html, `fixture ${k}`));
  });

  test(`${label}: parse → serialize → parse gives the same tree (raw text, RCDATA, svg and math, comments)`, () => {
    TRICKY.forEach((html, k) => roundTrip(parse, html, `tricky ${k}: ${JSON.stringify(html)}`));
    TRICKY.forEach((html, k) => roundTrip(parse, '<!DOCTYPE html><html><body>' + html, `tricky ${k} in a standards-mode page`));
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
  assert.equal(html, '<body><nav data-gabarit="template"><a href="/" data-gabarit="template">home</a></nav><main><p>text</p></main></body>', 'no doctype added to a page without one');
  const back = parseHtml(html);
  assert.equal(back.attr(back.find('a'), 'data-gabarit'), 'template');
  assert.equal(back.attr(back.find('p'), 'data-gabarit'), undefined);
  assert.equal(serialize(t, { root: t.find('main') }), '<main><p>text</p></main>');
});

test('serializeUtf8 writes the UTF-8 bytes of serialize, with each element’s mark slot; an unpaired surrogate gives undefined', () => {
  const sink = new Utf8Sink();
  const pages = [...FIXTURES, ...TRICKY, '<p title="é &amp; ü">naïve — ✓ 😀 &nbsp;x\r</p>', '<math><mi>x</mi></math><svg><foreignObject><p>y</p></foreignObject></svg>'];
  for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
    for (const html of pages) {
      const t = parse(html);
      const inject = '<style>x{}</style>';
      const doc = serializeUtf8(t, sink, { inject });
      assert.ok(doc, `${label} ${JSON.stringify(html)}`);
      assert.ok(Buffer.from(serialize(t, { inject })).equals(doc.bytes), `${label} ${JSON.stringify(html)}: bytes`);
      // a mark at every slot gives the marked string
      const mark = ' data-m="1"';
      const parts: Buffer[] = [];
      let from = 0;
      for (const at of doc.markAt) {
        parts.push(Buffer.from(doc.bytes.subarray(from, at)), Buffer.from(mark));
        from = at;
      }
      parts.push(Buffer.from(doc.bytes.subarray(from)));
      const elements = Array.from({ length: t.size }, (_, i) => i).filter((i) => t.isElement(i));
      assert.deepEqual(Array.from(doc.elems), elements, `${label}: every element has a slot`);
      assert.ok(Buffer.concat(parts).equals(Buffer.from(serialize(t, { inject, mark: () => ({ 'data-m': '1' }) }))), `${label} ${JSON.stringify(html)}: marked`);
    }
  }
  assert.equal(serializeUtf8(parseHtml('<p>a\ud800b</p>'), sink), undefined);
  assert.ok(serializeUtf8(parseHtml('<p>a\ud83d\ude00b</p>'), sink));
});

test('skip leaves an element out with its subtree; attr rewrites or drops attribute values', () => {
  const tree = parseHtml('<html><head><script>x()</script></head><body><p onclick="y()" class="a">one <img src="i.png" alt="i"></p><div><span>two</span></div></body></html>');
  const html = serialize(tree, {
    skip: (i) => tree.tag(i) === 'script' || tree.tag(i) === 'div',
    attr: (_i, name, value) => (name.startsWith('on') ? undefined : name === 'src' ? `copy/${value}` : value),
  });
  assert.equal(html, '<html><head></head><body><p class="a">one <img src="copy/i.png" alt="i"></p></body></html>');
});
