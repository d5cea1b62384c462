import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHtml } from '../../src/html/charset.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { MAX_DEPTH } from '../../src/html/depth-limit.ts';
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

/** Deepest node of a tree. */
function maxDepth(t: { size: number; depth: Uint16Array }): number {
  let d = 0;
  for (let i = 0; i < t.size; i++) if (t.depth[i]! > d) d = t.depth[i]!;
  return d;
}

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  // Without the depth limit these took minutes (both libraries cost time in the square of the depth;
  // 400,000 divs took 132 s on the fast path, 20,000 took 6 s on the exact one): finishing at all is the
  // check; the tree is checked for what the limit promises. parse5 is slower per tag: fewer divs.
  const n = label === 'fast' ? 400_000 : 100_000;
  test(`${label}: ${n} nested divs are parsed with the depth limited to ${MAX_DEPTH}`, () => {
    const t = parse('<html><body><div id="outer">' + '<div>'.repeat(n) + 'deep' + '</div>'.repeat(n) + '<p>after</p></div><p>last</p></body></html>');
    checkTree(t, `${label} nested divs`);
    assert.ok(maxDepth(t) <= MAX_DEPTH + 2, `depth ${maxDepth(t)}`);
    assert.equal(t.elementCount(), n + (label === 'exact' ? 6 : 5), 'every element is kept (html, head on the exact path, body, outer, the divs, two p)');
    const texts = Array.from({ length: t.size }, (_, i) => i).filter((i) => t.kind[i] === NodeKind.Text);
    assert.deepEqual(texts.map((i) => t.nodeText(i)), ['deep', 'after', 'last']);
    // The end tags of the divs closed past the limit do not close the outer div: the page after them keeps its place.
    const outer = t.find('div');
    const [after, last] = [texts[1]!, texts[2]!];
    assert.ok(t.contains(outer, after) && !t.contains(outer, last), 'p "after" inside #outer, p "last" outside');
    assert.equal(t.tag(t.parent[last]!), 'p');
    assert.equal(t.tag(t.parent[t.parent[last]!]!), 'body');
  });

  test(`${label}: elements past the depth limit are empty, their content beside them; raw text stays raw`, () => {
    const d = MAX_DEPTH + 10;
    const t = parse('<body>' + '<section>'.repeat(d) + '<b>bold</b><script>if (a < b) x = "<div>";</script><textarea><i>t</i></textarea>' + '</section>'.repeat(d) + '</body>');
    checkTree(t, `${label} past the limit`);
    const b = t.find('b');
    assert.equal(t.end[b], b + 1, 'the b past the limit is empty');
    assert.equal(t.nodeText(b + 1), 'bold', 'its text follows it');
    assert.equal(t.parent[b + 1], t.parent[b], 'beside it, in the element at the limit');
    const script = t.find('script');
    assert.equal(t.nodeText(script + 1), 'if (a < b) x = "<div>";');
    assert.equal(t.nodeText(t.find('textarea') + 1), '<i>t</i>');
    assert.equal(t.find('div'), -1);
    // Serialising and parsing again gives the same tree.
    const again = parse(serialize(t));
    assert.equal(again.size, t.size);
    assert.deepEqual(Array.from(again.depth), Array.from(t.depth));
  });

  test(`${label}: 200,000 unclosed spans, then 200,000 stray end tags`, () => {
    const m = 200_000;
    const u = parse('<span>'.repeat(m) + 'x' + '</i>'.repeat(m));
    checkTree(u, `${label} unclosed spans`);
    assert.ok(maxDepth(u) <= MAX_DEPTH + 3);
    assert.equal(u.elementCount() - (label === 'exact' ? 3 : 0), m);
  });
}

test('pages under the depth limit are parsed as before (the limit changes nothing)', () => {
  const n = MAX_DEPTH - 10;
  const html = '<div>'.repeat(n) + 'deep' + '</div>'.repeat(n);
  const t = parseHtml(html);
  assert.equal(maxDepth(t), n + 1);
  assert.equal(t.nodeText(n + 1), 'deep');
  assert.equal(parseHtmlExact(html).elementCount(), n + 3);
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
