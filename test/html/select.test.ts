import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { compileSelector, LONG_CHAIN, matches, selectAll, selectOne } from '../../src/html/select.ts';
import { NodeKind, tagId, TreeBuilder, type Tree } from '../../src/html/tree.ts';

const PAGE = `<!DOCTYPE html><html><head><title>t</title></head><body>
<header id="top" class="site-header"><nav><a href="/">home</a><a href="/a">a</a></nav></header>
<section id="s1" class="intro"><p>one</p><p class="x">two</p></section>
<div class="md-container"><main><article class="md-content__inner md-typeset" data-k="v1">
<h1>Title</h1><p>first</p><p lang="en-GB">second</p><ul><li>1</li><li>2</li><li>3</li><li>4</li></ul>
</article></main></div>
<section class="other"><p>three</p></section>
<footer><p>foot</p></footer>
</body></html>`;

/** Tag + first class of each node, for readable assertions. */
function names(t: Tree, nodes: number[]): string[] {
  return nodes.map((i) => t.tag(i) + (t.attr(i, 'class') ? '.' + t.attr(i, 'class')!.split(' ')[0] : '') + (t.attr(i, 'id') ? '#' + t.attr(i, 'id') : ''));
}

for (const [label, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
  test(`${label}: combinators, classes, ids, attributes`, () => {
    const t = parse(PAGE);
    assert.deepEqual(names(t, selectAll(t, 'body > section')), ['section.intro#s1', 'section.other']);
    assert.deepEqual(names(t, selectAll(t, 'article.md-content__inner')), ['article.md-content__inner']);
    assert.deepEqual(names(t, selectAll(t, 'section p')), ['p', 'p.x', 'p']);
    assert.deepEqual(names(t, selectAll(t, 'body > p')), []);
    assert.deepEqual(names(t, selectAll(t, '#s1 > .x')), ['p.x']);
    assert.deepEqual(names(t, selectAll(t, '[data-k="v1"] p')), ['p', 'p']);
    assert.deepEqual(names(t, selectAll(t, '[lang|="en"]')), ['p']);
    assert.deepEqual(names(t, selectAll(t, 'a[href^="/a"]')), ['a']);
    assert.deepEqual(names(t, selectAll(t, 'h1 + p')), ['p']);
    assert.deepEqual(names(t, selectAll(t, 'h1 ~ p')), ['p', 'p']);
    assert.deepEqual(names(t, selectAll(t, 'header, footer')), ['header.site-header#top', 'footer']);
    assert.deepEqual(names(t, selectAll(t, 'section:not(.intro) p')), ['p']);
    assert.deepEqual(names(t, selectAll(t, 'section:has(> p.x)')), ['section.intro#s1']);
    assert.deepEqual(names(t, selectAll(t, 'p:contains("seco")')), ['p']);
    assert.deepEqual(names(t, selectAll(t, 'SECTION.intro')), ['section.intro#s1']);
  });

  test(`${label}: structural pseudo-classes`, () => {
    const t = parse(PAGE);
    const lis = selectAll(t, 'li');
    assert.equal(lis.length, 4);
    assert.deepEqual(selectAll(t, 'li:nth-child(2)'), [lis[1]]);
    assert.deepEqual(selectAll(t, 'li:nth-child(odd)'), [lis[0], lis[2]]);
    assert.deepEqual(selectAll(t, 'li:nth-last-child(1)'), [lis[3]]);
    assert.deepEqual(selectAll(t, 'li:first-child, li:last-child'), [lis[0], lis[3]]);
    assert.deepEqual(names(t, selectAll(t, 'article > p:nth-of-type(2)')), ['p']);
    assert.equal(t.nodeText(selectAll(t, 'article > p:nth-of-type(2)')[0]! + 1), 'second');
    assert.deepEqual(names(t, selectAll(t, ':root')), ['html']);
  });

  test(`${label}: selectOne, matches, root scoping, :scope`, () => {
    const t = parse(PAGE);
    const art = selectOne(t, 'article');
    assert.ok(art > 0);
    assert.equal(selectOne(t, 'table'), -1);
    assert.equal(selectOne(t, 'p'), selectAll(t, 'p')[0]);
    assert.ok(matches(t, art, 'main > article.md-typeset'));
    assert.ok(!matches(t, art, 'section article'));
    assert.ok(!matches(t, art + 1, 'article'), 'a text node never matches');
    // Inside a root: root excluded, ancestors outside the root still count (querySelectorAll semantics).
    assert.deepEqual(names(t, selectAll(t, 'p', art)), ['p', 'p']);
    assert.deepEqual(names(t, selectAll(t, 'div p', art)), ['p', 'p']);
    assert.deepEqual(selectAll(t, 'article', art), []);
    const ul = selectOne(t, 'ul');
    assert.deepEqual(selectAll(t, '> li', ul), selectAll(t, 'li'));
    assert.deepEqual(selectAll(t, '> li', art), []);
    assert.deepEqual(names(t, selectAll(t, ':scope > h1', art)), ['h1']);
  });
}

test('the document node is handled (node 0 is falsy)', () => {
  const t = parseHtml('<p>a</p><p>b</p>');
  // Top-level elements have the document as parent: :root matches both, ">" from an element does not.
  assert.deepEqual(selectAll(t, 'p'), [1, 3]);
  assert.deepEqual(selectAll(t, ':root'), [1, 3]);
  assert.deepEqual(selectAll(t, 'p + p'), [3]);
  assert.deepEqual(selectAll(t, '* > p'), []);
  assert.deepEqual(selectAll(t, 'p:nth-of-type(2)'), [3]);
  assert.ok(!matches(t, 0, 'p'));
});

test('a compiled selector runs on many trees', () => {
  const sel = compileSelector('div.a > span');
  const t1 = parseHtml('<div class="a"><span>1</span></div>');
  const t2 = parseHtml('<div class="b"><span>1</span></div><div class="a"><i></i><span>2</span><span>3</span></div>');
  assert.deepEqual(sel.selectAll(t1), [2]);
  assert.deepEqual(sel.selectAll(t2).map((i) => t2.nodeText(i + 1)), ['2', '3']);
  assert.equal(sel.source, 'div.a > span');
  assert.equal(compileSelector('div.a > span'), sel, 'compiled once, cached');
});

test('invalid selectors throw an error naming the selector', () => {
  const t = parseHtml('<p>x</p>');
  assert.throws(() => selectAll(t, 'div[[x'), /invalid CSS selector "div\[\[x"/);
  assert.throws(() => selectAll(t, 'p:unknown-pseudo'), /invalid CSS selector "p:unknown-pseudo".*unknown-pseudo/);
  assert.throws(() => selectAll(t, 'p::before'), /invalid CSS selector "p::before"/);
  assert.throws(() => selectAll(t, 'p', 99), /node 99 is not in this tree/);
});

/** A deterministic pseudo-random generator (LCG), so that a failing case can be replayed. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
}

test('long chains (beyond LONG_CHAIN compounds) match as the definition says, by both of their loops', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const r = rng(seed);
    // A random tree about 150 levels deep: a spine with short side branches, tags a/b/c, classes x/y.
    const b = new TreeBuilder();
    const open = (): void => {
      const tag = ['a', 'b', 'c'][Math.floor(r() * 3)]!;
      const cls = r() < 0.4 ? ['x', 'y', 'x y'][Math.floor(r() * 3)]! : '';
      b.open(tagId(tag), 0, cls ? ['class'] : [], cls ? [cls] : []);
    };
    for (let d = 0; d < 150; d++) {
      if (r() < 0.3) {
        open();
        if (r() < 0.5) {
          open();
          b.close();
        }
        b.close();
      }
      open();
    }
    const t = b.finish();
    const elements: number[] = [];
    for (let i = 1; i < t.size; i++) if (t.kind[i] === NodeKind.Element) elements.push(i);
    const deepest = elements.reduce((x, y) => (t.depth[y]! > t.depth[x]! ? y : x));
    // A chain built from the deepest element's ancestors (so it matches something), some skipped with a
    // descendant combinator, some compounds loosened to `*` or a class.
    const comps: string[] = [];
    const combs: string[] = []; // combs[j] joins comps[j + 1] (above) and comps[j]
    for (let x = deepest; ; ) {
      const cls = (t.attr(x, 'class') ?? '').split(' ').filter(Boolean);
      const z = r();
      comps.push(z < 0.15 ? '*' : z < 0.3 && cls.length > 0 ? '.' + cls[0] : t.tag(x) + (cls.length > 0 && z < 0.6 ? '.' + cls[0] : ''));
      const descendant = r() < 0.25;
      let next = t.parent[x]!;
      if (descendant && r() < 0.5 && next > 0) next = t.parent[next]!; // an ancestor skipped
      if (next <= 0 || comps.length >= LONG_CHAIN + 10) break;
      combs.push(descendant ? ' ' : ' > ');
      x = next;
    }
    const chain = comps.map((c, j) => (j === 0 ? c : c + combs[j - 1])).reverse().join('');
    const compounds = chain.split(/ > | /);
    assert.ok(compounds.length > LONG_CHAIN, `seed ${seed}: ${compounds.length} compounds`);
    const combinators = [...chain.matchAll(/ > | (?!> )/g)].map((m) => m[0] === ' > ');
    // The definition, by recursion over compounds (about 75 deep: fine), each compound by css-select.
    const memo = new Map<number, boolean>();
    const defined = (i: number, k: number): boolean => {
      const key = i * 1000 + k;
      let v = memo.get(key);
      if (v !== undefined) return v;
      v = false;
      if (i > 0 && t.kind[i] === NodeKind.Element && matches(t, i, compounds[k]!)) {
        if (k === 0) v = true;
        else if (combinators[k - 1]) v = defined(t.parent[i]!, k - 1);
        else for (let p = t.parent[i]!; p > 0 && !v; p = t.parent[p]!) v = defined(p, k - 1);
      }
      memo.set(key, v);
      return v;
    };
    const expected = elements.filter((i) => defined(i, compounds.length - 1));
    assert.ok(expected.includes(deepest), `seed ${seed}: the chain matches the element it was built from`);
    assert.deepEqual(selectAll(t, chain), expected, `seed ${seed}: selectAll ${chain}`);
    assert.deepEqual(elements.filter((i) => matches(t, i, chain)), expected, `seed ${seed}: matches`);
    assert.equal(selectOne(t, chain), expected[0]);
    // Inside a root (the root's ancestors still count).
    const root = t.parent[t.parent[deepest]!]!;
    assert.deepEqual(selectAll(t, chain, root), expected.filter((i) => i > root && i < t.end[root]!));
  }
});
