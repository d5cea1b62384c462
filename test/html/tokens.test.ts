import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { tokenize, TokenType } from '../../src/html/tokens.ts';

const PAGE = '<div ID=x class="B  a"><p>Hello  <b>World</b>!</p><!-- c --><script>var x = "<p>";</script>\n  <br><img src="i.png"></div>';

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: one token per tag and text snippet, normalised, mapped to nodes`, () => {
    const labels = new LabelTable();
    const t = parse(PAGE, { labels });
    const div = t.find('div');
    const seq = tokenize(t, labels, { root: div });
    const keys = [...seq.ids].map((id) => labels.key(id));
    assert.deepEqual(keys, ['div class="b a" id="x"', 'p', '#t:hello', 'b', '#t:world', '/b', '#t:!', '/p', 'script', '/script', 'br', 'img src="i.png"', '/div']);
    assert.deepEqual([...seq.type].slice(0, 3), [TokenType.Open, TokenType.Open, TokenType.Text]);
    assert.equal(seq.length, keys.length);
    // Each token maps back to its node: open/close tags to the element, text to the text node.
    for (let k = 0; k < seq.length; k++) {
      const n = seq.node[k]!;
      if (seq.type[k] === TokenType.Text) assert.equal(labels.key(seq.ids[k]!), '#t:' + t.nodeText(n).replace(/\s+/g, ' ').trim().toLowerCase());
      else assert.equal(labels.key(seq.ids[k]!).replace(/^\//, '').split(' ')[0], t.tag(n));
    }
    assert.equal(seq.node[0], div);
    assert.equal(seq.node[seq.length - 1], div, 'the end tag maps to its element');
  });
}

test('end tags can be left out; whole-document tokens; equal ids across pages', () => {
  const labels = new LabelTable();
  const a = parseHtml('<html><body><p class="x">Same text</p></body></html>', { labels });
  const b = parseHtml('<html><body><p class="x">same   TEXT</p><p>other</p></body></html>', { labels });
  const ta = tokenize(a, labels);
  const tb = tokenize(b, labels);
  assert.deepEqual([...ta.ids].map((id) => labels.key(id)), ['html', 'body', 'p class="x"', '#t:same text', '/p', '/body', '/html']);
  assert.deepEqual([...tb.ids].slice(0, 5), [...ta.ids].slice(0, 5), 'equal tags and texts (after normalisation) get equal ids');
  const open = tokenize(b, labels, { endTags: false });
  assert.deepEqual([...open.ids].map((id) => labels.key(id)), ['html', 'body', 'p class="x"', '#t:same text', 'p', '#t:other']);
  assert.ok(open.type.every((ty) => ty !== TokenType.Close));
});

test('blank text, comments and script/style text give no token; labels option', () => {
  const labels = new LabelTable({ attributes: ['class'] });
  const t = parseHtml('<div id="a" class="k">  <!-- x --> <style>p{}</style> </div>', { labels });
  const keys = [...tokenize(t, labels).ids].map((id) => labels.key(id));
  assert.deepEqual(keys, ['div class="k"', 'style', '/style', '/div']);
});
