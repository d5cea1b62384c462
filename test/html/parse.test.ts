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
