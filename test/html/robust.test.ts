import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHtml } from '../../src/html/charset.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { serialize } from '../../src/html/serialize.ts';
import { textOf } from '../../src/html/text.ts';
import { tokenize } from '../../src/html/tokens.ts';
import { NodeKind } from '../../src/html/tree.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { corpusPages } from './corpus-pages.ts';
import { checkTree } from './invariants.ts';

const BROKEN = [
  '',
  '<',
  '</',
  '<div',
  '<div class="a',
  "<div class='a' id=",
  '<!--',
  '<!-- never closed <p>x',
  '<![CDATA[ x',
  '<!DOCTYPE',
  '<script>if (a < b) { x = "</div>"',
  '<style>p { color: red',
  '<textarea><p>not a tag',
  '</p></div></body></html>',
  '<p>a<p>b<li>c<td>d<tr>e</table></b></i>',
  '<b><i>misnested</b></i> <a href=x><a href=y>nested a</a>',
  '<table><tr><td>1<td>2</tr>text in table<tr><td>3</table>',
  '<html><html><body><body><head><title>late</title>',
  '<svg><foreignObject><p>x</p></foreignObject><path d="M0 0"/></svg><math><mi>x</mi></math>',
  '<div =x ==y a=="b" c=d=e f\n=\ng>x</div>',
  '&amp &#x; &#99999999; &notanentity; &lt;&gt',
  '<a href="x"\u0000 b=\u0000>\u0000</a>',
  '<br/><br></br><p/>self</p><img src=x/>',
  '<frameset><frame></frameset><noframes><p>x',
  '<template><tr><td>x</td></tr></template><select><option>1<option>2</select>',
];

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: broken input never throws and gives a valid tree`, () => {
    const labels = new LabelTable();
    for (const html of BROKEN) {
      const t = parse(html, { labels });
      checkTree(t, `${label} ${JSON.stringify(html)}`);
      // The other views work on it too.
      tokenize(t, labels);
      textOf(t);
      checkTree(parse(serialize(t), { labels }), `${label} reparse of ${JSON.stringify(html)}`);
    }
  });

  test(`${label}: binary garbage never throws`, () => {
    let seed = 12345;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
    for (let k = 0; k < 20; k++) {
      const bytes = new Uint8Array(5000 + k * 997);
      for (let j = 0; j < bytes.length; j++) bytes[j] = k % 2 ? rnd() : '<>/="\' a!-&;#x\n'.charCodeAt(rnd() % 15) || rnd();
      const { text } = decodeHtml(bytes);
      checkTree(parse(text), `${label} garbage ${k}`);
    }
  });

  test(`${label}: truncated corpus pages give valid trees`, { skip: corpusSkip() }, () => {
    for (const p of corpusPages(1)) {
      for (const frac of [0.1, 0.37, 0.5, 0.83, 0.999]) {
        const cut = p.html.slice(0, Math.floor(p.html.length * frac));
        checkTree(parse(cut), `${label} ${p.site}/${p.key} cut at ${frac}`);
      }
    }
  });
}

test('fast: 100,000 levels of nesting (htmlparser2 is quadratic in depth: a few seconds)', () => {
  const n = 100_000;
  const t = parseHtml('<div>'.repeat(n) + 'deep' + '</div>'.repeat(n));
  checkTree(t, 'nested divs');
  assert.equal(t.size, n + 2);
  assert.equal(t.depth[n], 65535, 'depth saturates at the Uint16 maximum');
  assert.equal(t.nodeText(n + 1), 'deep');
  // Never closed (htmlparser2's open-element stack makes this quadratic, so a smaller n).
  const m = 20_000;
  const u = parseHtml('<span>'.repeat(m) + 'x');
  checkTree(u, 'unclosed spans');
  assert.equal(u.size, m + 2);
  assert.equal(serialize(u).length, '<!DOCTYPE html>'.length + m * '<span></span>'.length + 1);
});

test('exact: 10,000 levels of nesting (parse5 is quadratic in depth: 100,000 levels take minutes)', () => {
  const n = 10_000;
  const t = parseHtmlExact('<div>'.repeat(n) + 'deep' + '</div>'.repeat(n));
  checkTree(t, 'nested divs (exact)');
  assert.equal(t.elementCount(), n + 3, 'html, head, body and the divs');
});

test('a 10 MB page parses on both paths', () => {
  const row = '<tr><td class="c">cell &amp; text</td><td><a href="/x?a=1&amp;b=2">link</a></td></tr>\n';
  const html = '<html><body><table>' + row.repeat(Math.ceil(10e6 / row.length)) + '</table></body></html>';
  assert.ok(html.length >= 10e6);
  const fast = parseHtml(html);
  checkTree(fast, '10 MB fast');
  const exact = parseHtmlExact(html);
  checkTree(exact, '10 MB exact');
  const rows = Math.ceil(10e6 / row.length);
  assert.equal(fast.find('a') > 0, true);
  // Same elements on both paths, except the tbody, head and body parse5 adds.
  assert.equal(exact.elementCount() - fast.elementCount(), 2 /* head + tbody */ + 0);
  assert.equal(fast.elementCount(), 3 + rows * 4);
  assert.equal(fast.nodeText(fast.find('td') + 1), 'cell & text');
  assert.ok(fast.kind.every((k) => k <= NodeKind.Comment));
});
