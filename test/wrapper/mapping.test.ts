/**
 * The node pairs of simple tree matching (src/wrapper/match/mapping.ts): as many pairs as the matching's
 * size, label-preserving, top-down (a pair's parents are a pair) and order-preserving; on paper 5's Figure 1
 * and on random trees against simple.ts; and a tree-gram's instance paired with a changed page subtree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { selectOne } from '../../src/html/select.ts';
import { fromParents, LabelSpace, type LabelledTree } from '../../src/wrapper/match/labelled-tree.ts';
import { gramMapping, simpleTreeMapping } from '../../src/wrapper/match/mapping.ts';
import { simpleTreeMatching } from '../../src/wrapper/match/simple.ts';
import { makeTreeGram } from '../../src/wrapper/tree-gram.ts';

/** A tree from `a(b(d,e),c)` notation. */
function t(src: string, space: LabelSpace): LabelledTree {
  const labels: number[] = [];
  const parents: number[] = [];
  const stack: number[] = [];
  for (const m of src.matchAll(/\w+|[()]/g)) {
    if (m[0] === '(') stack.push(labels.length - 1);
    else if (m[0] === ')') stack.pop();
    else {
      labels.push(space.intern(m[0]));
      parents.push(stack.length ? stack[stack.length - 1]! : -1);
    }
  }
  return fromParents(labels, parents);
}

/** Checks that `pairs` is a top-down, order- and label-preserving matching of a and b. */
function assertMatching(a: LabelledTree, b: LabelledTree, pairs: Array<[number, number]>): void {
  const inB = new Map(pairs);
  const seenB = new Set<number>();
  for (const [i, j] of pairs) {
    assert.equal(a.label[i], b.label[j], `pair ${i},${j} keeps the label`);
    assert.ok(!seenB.has(j), `node ${j} of b paired once`);
    seenB.add(j);
    if (i > 0) assert.equal(inB.get(a.parent[i]!), b.parent[j], `pair ${i},${j}: parents paired`);
  }
  const sorted = [...pairs].sort((p, q) => p[0] - q[0]);
  for (let k = 1; k < sorted.length; k++) {
    const [i0, j0] = sorted[k - 1]!;
    const [i1, j1] = sorted[k]!;
    if (a.parent[i0] === a.parent[i1]) assert.ok(j0 < j1, 'siblings keep their order');
  }
}

test('simple tree mapping on Figure 1: 7 pairs, a matching', () => {
  const space = new LabelSpace({ tag: true, id: false, class: false });
  const A = t('a(b(d,e),c(f),b(e,d),c(g(h,i,j)))', space);
  const B = t('a(b(d,e),c(g(h),f))', space);
  const pairs = simpleTreeMapping(A, B);
  assert.equal(pairs.length, 7);
  assertMatching(A, B, pairs);
  assert.deepEqual(simpleTreeMapping(A, t('z(b)', space)), [], 'different roots: nothing');
});

test('simple tree mapping has the size of simple tree matching on random trees', () => {
  let seed = 7;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const space = new LabelSpace({ tag: true, id: false, class: false });
  const random = (n: number): LabelledTree => {
    // Preorder: each node's parent is on the path from the root to the node before it.
    const labels = [space.intern('r')];
    const parents = [-1];
    const path = [0];
    for (let k = 1; k < n; k++) {
      path.length = 1 + rnd(path.length);
      labels.push(space.intern('abc'[rnd(3)]!));
      parents.push(path[path.length - 1]!);
      path.push(k);
    }
    return fromParents(labels, parents);
  };
  for (let round = 0; round < 200; round++) {
    const a = random(1 + rnd(14));
    const b = random(1 + rnd(14));
    const pairs = simpleTreeMapping(a, b);
    assert.equal(pairs.length, simpleTreeMatching(a, b), `round ${round}`);
    assertMatching(a, b, pairs);
  }
});

test('gram mapping pairs a stored instance with the subtree found on a changed page', () => {
  const before = parseHtml('<body><article class="p"><h1>Tent</h1><p class="price">£10</p><ul><li>a</li></ul></article></body>');
  const after = parseHtml('<body><div><section class="item"><h1>Tent</h1><div class="badge">new</div><p class="cost">£10</p></section></div></body>');
  const gram = makeTreeGram(before, [selectOne(before, 'article')], 3);
  const found = selectOne(after, 'section');
  const m = gramMapping(gram, after, found, { tag: true, id: false, class: false });
  assert.ok(m);
  assert.equal(m.instance, 0);
  const tags = m.pairs.map(([i, j]) => [gram.instances[0]!.tags[i], after.tag(m.found.node[j]!) || '#text']);
  // The roots differ in tag (article / section): under tag labels simple tree matching pairs nothing.
  assert.deepEqual(tags, []);
  const same = gramMapping(makeTreeGram(before, [selectOne(before, 'h1')], 3), after, selectOne(after, 'h1'), { tag: true, id: false, class: false });
  assert.deepEqual(same?.pairs, [[0, 0], [1, 1]]);
});
