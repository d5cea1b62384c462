import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { isBlock, isNonText, textOf } from '../../src/html/text.ts';
import { NodeKind } from '../../src/html/tree.ts';

const PAGE = `<html><head><title>Not text</title><style>body{}</style></head><body>
<h1>The  title</h1><p>One <b>bold</b> and <a href="#">a link</a>.</p>
<ul><li>first</li><li>second <span>item</span></li></ul>
<script>document.write("no")</script><noscript>no either</noscript>
<div>line one<br>line two</div><table><tr><td>a</td><td>b</td></tr></table>
<p>caf&eacute;&nbsp;&amp;&nbsp;more</p></body></html>`;

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: blocks on their own lines, inline text joined, non-text skipped`, () => {
    const t = parse(PAGE);
    assert.equal(textOf(t), ['The title', 'One bold and a link.', 'first', 'second item', 'line one', 'line two', 'a', 'b', 'café & more'].join('\n'));
  });

  test(`${label}: keep filter and subtree roots`, () => {
    const t = parse(PAGE);
    const ul = t.find('ul');
    assert.equal(textOf(t, ul), 'first\nsecond item');
    // Drop every text node inside the first <li>.
    const li = t.find('li');
    assert.equal(textOf(t, ul, (i) => !t.contains(li, i)), 'second item');
    assert.equal(textOf(t, t.body(), (i) => t.tag(t.parent[i]!) !== 'b'), textOf(t).replace('One bold and', 'One and'));
    assert.equal(textOf(t, t.find('script')), 'document.write("no")', 'a non-text root still gives its own text');
  });
}

test('isBlock / isNonText', () => {
  const t = parseHtml('<div><span>x</span><script></script></div>');
  assert.equal(isBlock(t, t.find('div')), true);
  assert.equal(isBlock(t, t.find('span')), false);
  assert.equal(isNonText(t, t.find('script')), true);
  assert.equal(isBlock(t, t.find('span') + 1), false, 'a text node is not a block');
  assert.equal(t.kind[t.find('span') + 1], NodeKind.Text);
});

test('the fallback content of <object> is page text (shown wherever the plugin is not: every Flash player today)', () => {
  const t = parseHtml('<div><object data="x.swf"><param name="a" value="b"><p>The video caption</p></object><iframe>not text</iframe></div>');
  assert.equal(textOf(t), 'The video caption');
  assert.equal(isNonText(t, t.find('object')), false);
});
