import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { cssEscape, cssPath, cssPathWithin, xpathOf } from '../../src/html/paths.ts';
import { compileSelector, selectAll, selectOne } from '../../src/html/select.ts';
import { evaluateXPath } from '../../src/html/xpath.ts';
import { NodeKind, tagId, TreeBuilder, type Tree } from '../../src/html/tree.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { corpusPages } from './corpus-pages.ts';

const PAGE = `<html><body>
<div id="top"><a>x</a><a class="k">y</a></div>
<div class="row"><p>1</p><p class="lead">2</p><p class="lead big">3</p></div>
<div class="row"><p>4</p><span id="dup">a</span><span id="dup">b</span></div>
<article class="md-content__inner"><h1>t</h1><p>a</p><p>b</p></article>
<div class="9col" id="1x"><b class="a:b">!</b></div>
</body></html>`;

/**
 * Checks cssPath and xpathOf round-trip for every element (and xpathOf for every node) of a tree; on trees
 * larger than `limit` nodes, for an evenly spread sample of about `limit` nodes (each check is a full-page
 * query, so all nodes of a huge page would be quadratic).
 */
function checkAll(t: Tree, where: string, limit = Infinity): void {
  const stride = Math.max(1, Math.floor(t.size / limit));
  for (let i = 1; i < t.size; i += stride) {
    const xp = xpathOf(t, i);
    assert.deepEqual(evaluateXPath(t, xp), [i], `${where}: xpath ${xp} of node ${i}`);
    if (t.kind[i] !== NodeKind.Element) continue;
    const css = cssPath(t, i);
    assert.deepEqual(selectAll(t, css), [i], `${where}: css ${css} of node ${i} <${t.tag(i)}>`);
  }
}

test('cssPath shapes: unique id, stable ancestor, nth-of-type only where needed', () => {
  const t = parseHtml(PAGE);
  const [a1, a2] = selectAll(t, '#top > a');
  assert.equal(cssPath(t, selectOne(t, '#top')), '#top');
  assert.equal(cssPath(t, a1!), '#top > a:nth-of-type(1)');
  assert.equal(cssPath(t, a2!), 'a.k');
  const ps = selectAll(t, 'div.row p');
  assert.equal(cssPath(t, ps[0]!), 'body > div.row:nth-of-type(2) > p:nth-of-type(1)');
  // p.lead also matches p.lead.big, so the position is needed; p.lead.big is unique.
  assert.equal(cssPath(t, ps[1]!), 'body > div.row:nth-of-type(2) > p.lead:nth-of-type(2)');
  assert.equal(cssPath(t, ps[2]!), 'p.lead.big');
  // Duplicated ids are not used.
  assert.equal(cssPath(t, selectAll(t, 'span')[1]!), 'body > div.row:nth-of-type(3) > span:nth-of-type(2)');
  assert.equal(cssPath(t, selectAll(t, 'article p')[1]!), 'article.md-content__inner > p:nth-of-type(2)');
  // Identifiers that need escaping.
  assert.equal(cssPath(t, selectOne(t, 'b')), 'b.a\\:b');
  assert.equal(cssPath(t, t.parent[selectOne(t, 'b')]!), '#\\31 x');
  checkAll(t, 'fixture');
  assert.throws(() => cssPath(t, 0), /not an element/);
});

test('cssPath on top-level elements of a fragment uses :root', () => {
  const t = parseHtml('<p>a</p><p>b<p>c</p></p>');
  checkAll(t, 'fragment');
  assert.equal(cssPath(t, 1), 'p:nth-of-type(1):root');
});

test('xpathOf shapes', () => {
  const t = parseHtml('<html><body><div>a<!--c--><br>b</div><div><p>x</p></div></body></html>');
  const div2 = selectAll(t, 'div')[1]!;
  assert.equal(xpathOf(t, div2), '/html[1]/body[1]/div[2]');
  assert.equal(xpathOf(t, div2 + 2), '/html[1]/body[1]/div[2]/p[1]/text()[1]');
  const div1 = selectOne(t, 'div');
  assert.equal(xpathOf(t, div1 + 2), '/html[1]/body[1]/div[1]/comment()[1]');
  assert.equal(xpathOf(t, div1 + 4), '/html[1]/body[1]/div[1]/text()[2]');
  assert.equal(xpathOf(t, 0), '/');
  checkAll(t, 'xpath fixture');
});

test('cssEscape follows CSS.escape', () => {
  assert.equal(cssEscape('a-b_c'), 'a-b_c');
  assert.equal(cssEscape('1a'), '\\31 a');
  assert.equal(cssEscape('-1'), '-\\31 ');
  assert.equal(cssEscape('-'), '\\-');
  assert.equal(cssEscape('a.b c'), 'a\\.b\\ c');
  assert.equal(cssEscape('é'), 'é');
});

test('on corpus pages, every element\'s cssPath and every node\'s xpathOf select exactly it', { skip: corpusSkip() }, () => {
  const pages = corpusPages(2);
  assert.ok(pages.length >= 5);
  for (const p of pages) {
    checkAll(parseHtml(p.html), `${p.site}/${p.key} (fast)`, 600);
  }
  // The browser-exact tree too, on one page per site.
  const seen = new Set<string>();
  for (const p of pages) {
    if (seen.has(p.site)) continue;
    seen.add(p.site);
    checkAll(parseHtmlExact(p.html), `${p.site}/${p.key} (exact)`, 300);
  }
});

/** A deterministic pseudo-random generator (LCG), so that a failing case can be replayed. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
}

/**
 * Characters of odd identifiers: ASCII punctuation, digits (a leading digit needs an escape), controls,
 * U+0080–U+00AF (the selector parser does not take them unescaped), Latin, CJK, an astral emoji (two code
 * units). NUL is left out: the HTML parsers turn it into U+FFFD in attribute values, as cssEscape does.
 */
const ODD = ['a', 'Z', '0', '9', '-', '_', '.', ':', '#', '[', ']', '"', "'", '\\', '(', ')', ',', '>', '+', '~', '*', '@', '%', '\u0001', '\u001f', '\u007f', '\u0080', '\u0085', '\u0099', '\u00a0', '\u00ad', '\u00ae', '\u00af', '\u00b0', 'é', 'ß', '中', '\u2028', '😀'];

function oddName(r: () => number, first = ''): string {
  let s = first;
  const n = 1 + Math.floor(r() * 5);
  for (let k = 0; k < n; k++) s += ODD[Math.floor(r() * ODD.length)]!;
  return s;
}

test('property: cssPath selects exactly its element, for odd class and tag names', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = rng(seed);
    const b = new TreeBuilder();
    const tags = ['div', 'p', 'span', 'li'];
    const open = (): void => {
      // Tag names as the parsers give them: lowercase, anything but white space, '/' and '>' after a letter.
      const tag = r() < 0.2 ? oddName(r, 'x').replace(/[\s/>]/g, '').toLowerCase() : tags[Math.floor(r() * tags.length)]!;
      const names: string[] = [];
      const values: string[] = [];
      if (r() < 0.7) {
        names.push('class');
        values.push(Array.from({ length: 1 + Math.floor(r() * 3) }, () => oddName(r).replace(/\s/g, '')).join(' '));
      }
      if (r() < 0.15) {
        names.push('id');
        values.push(oddName(r).replace(/\s/g, ''));
      }
      b.open(tagId(tag), 0, names, values);
    };
    let depth = 0;
    for (let k = 0; k < 120; k++) {
      const x = r();
      if (x < 0.45) {
        open();
        depth++;
      } else if (x < 0.8 && depth > 0) {
        b.close();
        depth--;
      } else b.addText('t');
    }
    const t = b.finish();
    for (let i = 1; i < t.size; i++) {
      if (t.kind[i] !== NodeKind.Element) continue;
      const css = cssPath(t, i);
      assert.equal(selectOne(t, css), i, `seed ${seed}: ${JSON.stringify(css)} of node ${i}`);
    }
  }
});

test('property: cssPath selects exactly its element on trees thousands of levels deep', () => {
  // Built directly (a parser may cap the depth of what it builds, as browsers do).
  const deep = (depth: number, unit: (b: TreeBuilder) => void): Tree => {
    const b = new TreeBuilder();
    for (let k = 0; k < depth; k++) unit(b);
    b.addText('x');
    return b.finish();
  };
  const cases: Array<[number, string, (b: TreeBuilder) => void]> = [
    [6000, 'div', (b) => b.open(tagId('div'), 0, [], [])],
    [6000, 'p + div.a.b', (b) => {
      b.open(tagId('p'), 0, [], []);
      b.close();
      b.open(tagId('div'), 0, ['class'], ['a b']);
    }],
    [12000, 'section with a first child', (b) => {
      b.open(tagId('section'), 0, [], []);
      b.open(tagId('i'), 0, [], []);
      b.close();
    }],
  ];
  for (const [depth, what, unit] of cases) {
    const t = deep(depth, unit);
    let deepest = 0;
    for (let i = 0; i < t.size; i++) if (t.kind[i] === NodeKind.Element && t.depth[i]! > t.depth[deepest]!) deepest = i;
    assert.ok(t.depth[deepest]! >= depth);
    for (const i of [deepest, t.parent[deepest]!, t.parent[t.parent[deepest]!]!]) {
      const css = cssPath(t, i);
      assert.equal(selectOne(t, css), i, `${what} × ${depth}: node at depth ${t.depth[i]}`);
      assert.deepEqual(selectAll(t, css), [i]);
    }
  }
});

test('cssPathWithin: a relative path inside a scope, the same for every record of a list', () => {
  const t = parseHtml(`<ul><li class="r"><h3>a</h3><p>x</p><p class="p">1</p></li><li class="r"><h3>b</h3><p>y</p><p class="p">2</p></li></ul>`);
  const [r1, r2] = selectAll(t, 'li.r');
  const price1 = selectOne(t, 'p.p', r1!);
  assert.equal(cssPathWithin(t, price1, r1!), ':scope > p.p');
  assert.deepEqual(selectAll(t, ':scope > p.p', r2!), [selectOne(t, 'p.p', r2!)]);
  const x = selectAll(t, 'p', r1!)[0]!;
  assert.equal(cssPathWithin(t, x, r1!), ':scope > p:nth-of-type(1)');
  assert.throws(() => cssPathWithin(t, price1, r2!), /not inside/);
});

test('cssPath leaves out class names too long to select by, and the path still selects its element alone', () => {
  const long = 'v'.repeat(40_000);
  const t = parseHtml(`<div><p class="${long}">x</p><p class="a ${long}">y</p><p class="short">z</p></div>`);
  for (const want of ['x', 'y', 'z']) {
    let el = -1;
    for (let i = 0; i < t.size; i++) if (t.tag(i) === 'p' && t.nodeText(i + 1) === want) el = i;
    const path = cssPath(t, el);
    assert.ok(path.length < 200, path.slice(0, 80));
    assert.deepEqual(selectAll(t, path), [el]);
  }
});

test('a selector testing a value of tens of kilobytes is refused when compiled, with a short message', () => {
  assert.throws(() => compileSelector('.' + 'v'.repeat(40_000)), (e: Error) => /invalid CSS selector .*40001 characters.*a value of 40000 characters/.test(e.message) && e.message.length < 400);
  // an id or an exact attribute value of any length is compared as a string
  const id = 'w'.repeat(60_000);
  const t = parseHtml(`<div><p id="${id}">x</p><p>y</p></div>`);
  const p = selectAll(t, 'p')[0]!;
  assert.deepEqual(selectAll(t, cssPath(t, p)), [p]);
  assert.deepEqual(selectAll(t, `[id="${id}"]`), [p]);
});

test('a NUL in a tag or attribute name becomes U+FFFD, so the element has a CSS path that selects it', () => {
  const t = parseHtml('<div><x-n\u0000>x</x-n\u0000><p data-\u0000="1">y</p><p>z</p></div>');
  let el = -1;
  for (let i = 0; i < t.size; i++) if (t.tag(i).startsWith('x-')) el = i;
  assert.equal(t.tag(el), 'x-n\uFFFD');
  assert.deepEqual(selectAll(t, cssPath(t, el)), [el]);
  const p = selectAll(t, 'p')[0]!;
  assert.equal(t.attr(p, 'data-\uFFFD'), '1');
});
