import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LinkGraph } from '../../src/site/graph.ts';
import { MemorySource } from '../../src/site/memory-source.ts';

test('LinkGraph: neighbours both ways, mutual links, counts; order of input does not matter', async () => {
  const pages = [
    { key: 'index.html', body: '<a href="a.html">a</a><a href="b.html">b</a><a href="index.html">self</a><a href="missing.html">?</a>' },
    { key: 'a.html', body: '<a href="index.html">home</a><a href="b.html">b</a><a href="b.html#x">b again</a>' },
    { key: 'b.html', body: '<a href="./">home</a><a href="https://elsewhere.invalid/">out</a>' },
    { key: 'c.html', body: '<p>nobody links here, and it links nowhere</p>' },
  ];
  const g1 = await LinkGraph.fromSource(new MemorySource(pages));
  const g2 = await LinkGraph.fromSource(new MemorySource([...pages].reverse()));
  for (const g of [g1, g2]) {
    assert.deepEqual([...g.keys], ['a.html', 'b.html', 'c.html', 'index.html']);
    assert.equal(g.edgeCount, 5);
    assert.deepEqual(g.outLinks('index.html'), ['a.html', 'b.html']);
    assert.deepEqual(g.inLinks('index.html'), ['a.html', 'b.html']);
    assert.deepEqual(g.inLinks('b.html'), ['a.html', 'index.html']);
    assert.deepEqual(g.mutual('index.html'), ['a.html', 'b.html']);
    assert.deepEqual(g.mutual('a.html'), ['index.html']);
    assert.equal(g.outDegree('a.html'), 2);
    assert.equal(g.inDegree('c.html'), 0);
    assert.equal(g.hasEdge('b.html', 'index.html'), true);
    assert.equal(g.hasEdge('index.html', 'index.html'), false, 'no self-edges');
    assert.equal(g.hasEdge('index.html', 'missing.html'), false, 'links to pages outside the source are dropped');
    assert.deepEqual(g.outLinks('nope.html'), []);
  }
  assert.deepEqual(g1.edges(), g2.edges());
  assert.deepEqual([...g1.outTargets], [...g2.outTargets]);
});

test('LinkGraph.fromSource keeps the failures of the source', async () => {
  const g = await LinkGraph.fromSource(new MemorySource([{ key: 'index.html', body: '<a href="e.html">e</a>' }, { key: 'e.html', body: '' }]));
  assert.deepEqual([...g.keys], ['index.html']);
  assert.equal(g.failures.length, 1);
  assert.equal(g.failures[0]!.error.code, 'empty');
  assert.match(g.failures[0]!.error.message, /e\.html: empty/);
});
