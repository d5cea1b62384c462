import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupByShape, readStructures } from '../../src/cluster/schema.ts';
import { MemorySource } from '../../src/site/memory-source.ts';
import { clusterShapes, shapeSimilarity, shapeWeights, TooManyShapes } from '../../src/structure/page-shape.ts';

/** Pages whose content nests a different number of blocks (each of its own class): as many distinct shapes as pages. */
async function nested(n: number) {
  const pages = Array.from({ length: n }, (_, i) => ({
    key: `p${i}.html`,
    body: `<html><body><nav><a href="p0.html">home</a></nav><main>${Array.from({ length: i + 1 }, (_, k) => `<div class="b${k}">`).join('')}<p>text of page ${i} with enough words to read</p>${'</div>'.repeat(i + 1)}</main></body></html>`,
  }));
  return readStructures(new MemorySource(pages, { entry: 'p0.html' }));
}

test('page shapes: a list of 3 items and one of 30 have the same shape', async () => {
  const list = (n: number): string => `<ul class="m">${'<li><h3>name</h3><p>what it does</p></li>'.repeat(n)}</ul>`;
  const set = await readStructures(
    new MemorySource([
      { key: 'a.html', body: `<html><body><main>${list(3)}</main></body></html>` },
      { key: 'b.html', body: `<html><body><main>${list(30)}</main></body></html>` },
    ]),
  );
  const [a, b] = set.structures.map((s) => s.shape);
  assert.ok(a!.length > 0);
  assert.equal(shapeSimilarity(a!, b!, shapeWeights([a!, b!], set.tagLists)), 1);
});

test('page shapes: more distinct shapes than the cap are refused, and the page schema groups the pages instead', async () => {
  const set = await nested(5);
  assert.throws(() => clusterShapes(set.structures.map((s) => s.shape), set.tagLists, { maxDistinct: 4 }), TooManyShapes);
  const r = groupByShape(set, { maxDistinct: 4 });
  assert.equal(r.fallback, true);
  assert.match(r.capped ?? '', /5 distinct page shapes, over the cap of 4/);
  assert.equal(r.assignment.size, 5);
  assert.equal(groupByShape(set, { maxDistinct: 5 }).capped, undefined);
});

test('page shapes with flatContent: the kinds of blocks of an article count, not how deep its sections nest them', async () => {
  const words = '<p>a paragraph of running text long enough to make this block the article of the page here</p>';
  const page = (inner: string): string => `<html><body><nav><a href="a.html">home</a></nav><div class="body">${words}${inner}${words}</div></body></html>`;
  const pages = [
    { key: 'a.html', body: page('<section><div><dl class="py function"><dt>f</dt><dd>x</dd></dl></div></section>') },
    { key: 'b.html', body: page('<div><section><dl class="py function"><dt>g</dt><dd>y</dd></dl></section></div>') },
    { key: 'c.html', body: page('<section><div><dl class="c function"><dt>h</dt><dd>z</dd></dl></div></section>') },
  ];
  const shapes = async (flatContent: boolean) => (await readStructures(new MemorySource(pages, { entry: 'a.html' }), { flatContent })).structures.map((s) => s.shape.join(','));
  const nested = await shapes(false);
  assert.notEqual(nested[0], nested[1]);
  const [a, b, c] = await shapes(true);
  assert.equal(a, b);
  assert.notEqual(a, c);
});
