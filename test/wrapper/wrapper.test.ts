import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { selectAll } from '../../src/html/select.ts';
import { hasType, occurrenceViolations, childViolations, valueViolations } from '../../src/wrapper/constraints.ts';
import { createFromExamples, createWrapper } from '../../src/wrapper/create.ts';
import { runWrapper, updateWrapper } from '../../src/wrapper/run.ts';
import { parseWrapper, WrapperError } from '../../src/wrapper/wrapper.ts';

const ORIGINAL = `<html><body>
<header class="top"><nav><a href="/">Home</a><a href="/shop">Shop</a></nav></header>
<main>
 <div class="product">
  <h1 class="product-title">Blue teapot</h1>
  <p class="price">42</p>
  <ul class="specs"><li><b>Colour</b>: blue</li><li><b>Weight</b>: 800 g</li></ul>
  <div class="description"><p>A round teapot for four cups.</p><p>Glazed stoneware.</p></div>
 </div>
 <aside class="related"><h2>Related</h2><ul><li><a href="/a">Cup</a></li><li><a href="/b">Saucer</a></li></ul></aside>
</main>
<footer><p>© shop</p></footer>
</body></html>`;

// The redesign: classes renamed, an extra wrapper div, an ad inserted before the product.
const CHANGED = `<html><body>
<header class="site-header"><nav><a href="/">Home</a><a href="/shop">Shop</a></nav></header>
<main>
 <div class="ad-slot"><p>Buy now!</p></div>
 <div class="layout"><div class="item-card">
  <h1 class="item-name">Green teapot</h1>
  <p class="item-price">39</p>
  <ul class="item-specs"><li><b>Colour</b>: green</li><li><b>Weight</b>: 750 g</li></ul>
  <div class="item-text"><p>A round teapot for four cups.</p><p>Glazed stoneware.</p></div>
 </div></div>
 <aside class="related"><h2>Related</h2><ul><li><a href="/a">Cup</a></li><li><a href="/b">Saucer</a></li></ul></aside>
</main>
<footer><p>© shop</p></footer>
</body></html>`;

const specs = [
  {
    name: 'product',
    selector: 'div.product',
    children: [
      { name: 'title', selector: 'h1.product-title' },
      { name: 'price', selector: 'p.price', constraints: { type: 'integer' as const } },
      { name: 'description', selector: '.description' },
    ],
  },
];

test('create writes a tree-gram per pattern; run on the same page uses the selectors', () => {
  const tree = parseHtml(ORIGINAL);
  const w = createWrapper(tree, specs);
  assert.ok(w.patterns[0]!.treeGram!.instances[0]!.tags.length > 5);
  assert.equal(w.patterns[0]!.children![0]!.treeGram!.instances[0]!.tags[0], 'h1');
  const r = runWrapper(w, tree, 'original');
  assert.deepEqual(r.record, { product: { title: 'Blue teapot', price: '42', description: 'A round teapot for four cups.\nGlazed stoneware.' } });
  assert.ok(r.ok && !r.adapted);
  assert.ok(r.reports.every((x) => x.step === 'selector'));
});

test('adaptation finds the data after classes were renamed and a wrapper div added', () => {
  const w = createWrapper(parseHtml(ORIGINAL), specs);
  const changed = parseHtml(CHANGED);
  const r = runWrapper(w, changed, 'changed');
  assert.deepEqual(r.record, { product: { title: 'Green teapot', price: '39', description: 'A round teapot for four cups.\nGlazed stoneware.' } });
  assert.ok(r.ok && r.adapted);
  const product = r.reports.find((x) => x.pattern === 'product')!;
  assert.equal(product.step, 'ctm');
  assert.ok(product.similarity! >= 0.7 && product.similarity! <= 1);
  assert.deepEqual(product.violations, [], 'what adaptation found breaks no constraint');
  assert.deepEqual(product.cause, ['no instance found'], 'what the selector broke');
  // The new selector selects the new product element.
  assert.deepEqual(selectAll(changed, product.newSelector!), selectAll(changed, 'div.item-card'));
  // Updating writes the selector, a fresh tree-gram and the history; the updated wrapper then needs no adaptation.
  const u = updateWrapper(w, r, changed, '2026-01-01T00:00:00Z');
  assert.equal(u.history!.length, 4);
  assert.equal(u.history![0]!.from, 'div.product');
  const again = runWrapper(u, changed, 'changed');
  assert.ok(again.ok && !again.adapted);
  assert.deepEqual(again.record, r.record);
});

test('below the threshold the wrapper says it could not adapt', () => {
  const w = createWrapper(parseHtml(ORIGINAL), specs);
  const other = parseHtml('<html><body><table><tr><td>Nothing like a product</td></tr></table></body></html>');
  const r = runWrapper(w, other, 'other');
  assert.equal(r.ok, false);
  assert.deepEqual(r.record, { product: null });
  const rep = r.reports.find((x) => x.pattern === 'product')!;
  assert.equal(rep.step, 'not-found');
  assert.ok(rep.similarity! < 0.7);
  // A threshold of 1 refuses a changed page whose structure is not identical (a badge was added)...
  const badge = parseHtml(CHANGED.replace('<p class="item-price">', '<span class="badge">new</span><p class="item-price">'));
  const strict = runWrapper({ ...w, adaptation: { threshold: 1 } }, badge, 'changed');
  assert.equal(strict.ok, false);
  assert.equal(strict.reports.find((x) => x.pattern === 'product')!.step, 'not-found');
  // ...which the default threshold accepts.
  assert.equal(runWrapper(w, badge, 'changed').ok, true);
});

test('a wrong data type starts the adaptation; no candidate of the right type means not found', () => {
  const w = createWrapper(parseHtml(ORIGINAL), [{ name: 'price', selector: 'p.price', constraints: { type: 'integer' } }]);
  const page = parseHtml(ORIGINAL.replace('<p class="price">42</p>', '<p class="price">call us</p>'));
  const r = runWrapper(w, page, 'p');
  assert.equal(r.record['price'], null);
  assert.equal(r.reports[0]!.step, 'not-found');
  assert.match(r.reports[0]!.violations[0]!, /not of type integer/);
});

test('constraint checks', () => {
  assert.ok(hasType('42', 'integer') && hasType('1,234', 'integer') && !hasType('4.5', 'integer') && !hasType('abc', 'integer'));
  assert.ok(hasType('$4.50', 'number') && hasType('3,5', 'number') && !hasType('n/a', 'number'));
  assert.ok(hasType('2024-05-01', 'date') && hasType('June 2010', 'date') && hasType('01/02/2020', 'date') && !hasType('soon', 'date'));
  assert.ok(hasType('https://a.example/x', 'url') && hasType('/shop/a', 'url') && hasType('www.a.example', 'url') && !hasType('not a url', 'url') && !hasType('Zebra', 'url'));
  assert.ok(!hasType('  ', 'non-empty') && hasType('x', 'non-empty'));
  assert.deepEqual(valueViolations(['abc'], { regex: '^\\d+$' }), ['value "abc" does not match /^\\d+$/']);
  assert.deepEqual(occurrenceViolations(0, undefined, false), ['no instance found']);
  assert.deepEqual(occurrenceViolations(2, undefined, false), ['2 instances, at most 1 allowed']);
  assert.deepEqual(occurrenceViolations(5, { minOccurs: 2 }, true), []);
  assert.deepEqual(childViolations(1, { minChildren: 2 }), ['1 child instances, at least 2 required']);
});

test('schema errors are clear', () => {
  assert.throws(() => parseWrapper('{', 'w.json'), (e: unknown) => e instanceof WrapperError && /w\.json: not JSON/.test(e.message));
  const bad = JSON.stringify({ version: 1, patterns: [{ name: 'a', selector: '' }, { name: 'a', selector: 'p', constraints: { type: 'colour', minOccurs: 3, maxOccurs: 1 } }], adaptation: { threshold: 2 } });
  assert.throws(
    () => parseWrapper(bad, 'w.json'),
    (e: unknown) => {
      const m = (e as Error).message;
      return (
        e instanceof WrapperError &&
        m.includes('patterns.0.selector: must not be empty') &&
        m.includes('patterns.1.constraints.type') &&
        m.includes('adaptation.threshold') &&
        m.startsWith('w.json: not a valid wrapper')
      );
    },
  );
  assert.throws(() => createWrapper(parseHtml(ORIGINAL), [{ name: 'x', selector: '.nothing' }]), /pattern "x": selector ".nothing" matches nothing/);
});

test('create from examples picks a selector that holds on every example page', () => {
  const page = (isbn: string, pub: string, swap: boolean): string => {
    const items = [`<li><strong>ISBN-13</strong>: ${isbn}</li>`, `<li><strong>Publisher</strong>: ${pub}</li>`];
    if (swap) items.reverse();
    return `<html><body><div id="d"><ul>${items.join('')}</ul></div></body></html>`;
  };
  const pages = [
    { tree: parseHtml(page('9780316125581', 'Hachette', false)), values: { isbn: ': 9780316125581', publisher: 'Hachette' } },
    { tree: parseHtml(page('9781420106879', 'Zebra', true)), values: { isbn: '9781420106879', publisher: 'Zebra' } },
  ];
  const { wrapper, missing } = createFromExamples(pages);
  assert.deepEqual(missing, []);
  const r = runWrapper(wrapper, parseHtml(page('9781439184301', 'Threshold Editions', true)), 'p3');
  // Each value is read after its label (whichever position the item has), the separator dropped.
  assert.deepEqual(r.record, { isbn: '9781439184301', publisher: 'Threshold Editions' });
  assert.equal(wrapper.patterns[0]!.value, 'after');
});
