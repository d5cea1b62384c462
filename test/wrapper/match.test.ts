import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromParents, LabelSpace, type LabelledTree } from '../../src/wrapper/match/labelled-tree.ts';
import { clusteredTreeMatching, clusteredUpperBound } from '../../src/wrapper/match/clustered.ts';
import { simpleTreeMatching, stmSimilarity } from '../../src/wrapper/match/simple.ts';
import { bigramSimilarity } from '../../src/wrapper/match/bigram.ts';
import { jaroWinkler, jaroWinklerTree } from '../../src/wrapper/match/jaro-winkler.ts';

/** A tree from `a(b(d,e),c)` notation; labels interned in `space`. */
function t(src: string, space = new LabelSpace({ tag: true, id: false, class: false })): LabelledTree {
  const labels: number[] = [];
  const parents: number[] = [];
  const stack: number[] = [];
  let k = 0;
  while (k < src.length) {
    const ch = src[k]!;
    if (ch === '(') {
      stack.push(labels.length - 1);
      k++;
    } else if (ch === ')') {
      stack.pop();
      k++;
    } else if (ch === ',' || ch === ' ') k++;
    else {
      let name = '';
      while (k < src.length && /\w/.test(src[k]!)) name += src[k++];
      labels.push(space.intern(name));
      parents.push(stack.length ? stack[stack.length - 1]! : -1);
    }
  }
  return fromParents(labels, parents);
}

const space = new LabelSpace({ tag: true, id: false, class: false });
// Paper 5, Figure 1.
const A = t('a(b(d,e),c(f),b(e,d),c(g(h,i,j)))', space);
const B = t('a(b(d,e),c(g(h),f))', space);

test('simple tree matching on the paper\'s Figure 1 (hand-computed: 7)', () => {
  assert.equal(simpleTreeMatching(A, B), 7);
  assert.equal(simpleTreeMatching(B, A), 7);
  assert.equal(stmSimilarity(A, B), 14 / 22);
});

test('STM(T, T) is the size of T', () => {
  assert.equal(simpleTreeMatching(A, A), A.size);
  assert.equal(simpleTreeMatching(B, B), B.size);
  assert.equal(stmSimilarity(A, A), 1);
});

test('clustered tree matching on Figure 1 (hand-computed: b·b 1/4 + c·c 1/8 = 3/8)', () => {
  assert.ok(Math.abs(clusteredTreeMatching(A, B) - 3 / 8) < 1e-12);
  assert.ok(Math.abs(clusteredTreeMatching(B, A) - 3 / 8) < 1e-12);
});

test('CTM is 1 on identical trees, in [0, 1], 0 on different roots, and below its bound', () => {
  for (const src of ['a', 'a(b)', 'a(b(c,d),e(f(g)),h)', 'a(b(d,e),c(f),b(e,d),c(g(h,i,j)))']) {
    const x = t(src, space);
    assert.ok(Math.abs(clusteredTreeMatching(x, x) - 1) < 1e-12, src);
  }
  const trees = ['a(b,c)', 'a(c,b)', 'a(b(c))', 'a(b,b,b)', 'a', 'a(x(y(z)),b)'].map((s) => t(s, space));
  const scratch = new Int32Array(space.size + 1);
  for (const x of trees) {
    for (const y of trees) {
      const s = clusteredTreeMatching(x, y);
      assert.ok(s >= 0 && s <= 1 + 1e-12);
      assert.ok(Math.abs(s - clusteredTreeMatching(y, x)) < 1e-12, 'symmetric');
      assert.ok(s <= clusteredUpperBound(x, 0, y, 0, scratch) + 1e-12, 'bound holds');
    }
  }
  assert.equal(clusteredTreeMatching(t('a(b)', space), t('x(b)', space)), 0);
  // a(b,c) vs a(b): one of two children matches, each worth 1/2.
  assert.equal(clusteredTreeMatching(t('a(b,c)', space), t('a(b)', space)), 0.5);
});

test('tree bigram ignores sibling order; Jaro-Winkler values', () => {
  assert.equal(bigramSimilarity(t('a(b(x),c(y))', space), t('a(c(y),b(x))', space)), 1);
  assert.ok(bigramSimilarity(t('a(b,c)', space), t('a(b,d)', space)) < 1);
  // Classic example: MARTHA / MARHTA, Jaro 0.944, Jaro-Winkler 0.961.
  assert.ok(Math.abs(jaroWinkler('MARTHA', 'MARHTA') - 0.9611) < 1e-3);
  assert.equal(jaroWinkler('abc', 'abc'), 1);
  assert.equal(jaroWinklerTree(A, A), 1);
  assert.ok(Math.abs(jaroWinklerTree(A, B) - jaroWinklerTree(B, A)) < 1e-12);
});

test('at the root, a childless element is no match for a tree-gram with children (but is below the root)', () => {
  assert.equal(clusteredTreeMatching(t('a(b,c)', space), t('a', space)), 0);
  assert.equal(clusteredTreeMatching(t('a', space), t('a', space)), 1);
  // Below the root, Algorithm 1 line 18 as written: b(c,d) against a childless b is worth 1/t = 1/2.
  assert.equal(clusteredTreeMatching(t('a(b(c,d),e)', space), t('a(b,e)', space)), 1);
});
