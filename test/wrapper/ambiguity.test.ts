/**
 * Wrappers never return another element's value: a single pattern that matches several elements is
 * refused at create; at run time, candidates about equally similar give `not-found`, reason `ambiguous`;
 * an invalid selector is an error; attribute values and patterns on `title` work. Small pages written
 * here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { createWrapper } from '../../src/wrapper/create.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { makeTreeGram } from '../../src/wrapper/tree-gram.ts';
import { selectAll } from '../../src/html/select.ts';
import { parseWrapper, validateWrapper, WrapperError, type Wrapper } from '../../src/wrapper/wrapper.ts';

/** A product page: its product card, and optionally cards of related products with the same markup. */
function productPage(name: string, price: string, related: Array<[string, string]> = []): string {
  const cards = related.map(([n, p]) => `<div class="card"><h3>${n}</h3><p class="price">${p}</p></div>`).join('');
  return `<html><head><title>${name} | Teapots</title><meta name="description" content="Buy the ${name}">
<link rel="canonical" href="https://shop.example/p/${name.toLowerCase().replace(/ /g, '-')}"></head><body>
<header><a href="/">Teapots</a></header>
<main><article class="product"><h1>${name}</h1><p class="price">${price}</p><a class="more" href="/care">Care guide</a></article>
${related.length ? `<aside class="related"><h2>Related</h2>${cards}</aside>` : ''}</main>
</body></html>`;
}

test('a single pattern whose selector matches several elements is refused at create, with how many and what to do', () => {
  const tree = parseHtml(productPage('Blue teapot', '£42.00', [['Cup', '£9.00'], ['Saucer', '£5.00'], ['Tray', '£19.00']]));
  assert.throws(
    () => createWrapper(tree, [{ name: 'price', selector: '.price' }]),
    (e: unknown) =>
      e instanceof WrapperError &&
      /pattern "price": selector "\.price" matches 4 elements on the page/.test(e.message) &&
      /price\[\]=\.price for a list/.test(e.message) &&
      /tighter selector \(the first match alone: "article\.product > p\.price"\)/.test(e.message),
  );
  // A list is fine, and so is the tighter selector.
  assert.equal(createWrapper(tree, [{ name: 'price', selector: '.price', multiple: true }]).patterns[0]!.multiple, true);
  const w = createWrapper(tree, [{ name: 'price', selector: 'article.product > p.price' }]);
  assert.equal(runWrapper(w, tree, 'p').record['price'], '£42.00');
  // Nested: one match per parent instance is what counts.
  assert.throws(() => createWrapper(tree, [{ name: 'main', selector: 'main', children: [{ name: 'price', selector: 'p' }] }]), /matches 4 elements in one instance of its parent/);
});

test('a wrapper whose single pattern matches several elements on a page returns none of them (ambiguous)', () => {
  // A wrapper file whose tree-gram holds several prices (as the create of older versions allowed):
  // on another product page the selector matches the product's price and the related products'.
  const built = parseHtml(productPage('Blue teapot', '£42.00', [['Cup', '£9.00'], ['Saucer', '£5.00']]));
  const nodes = selectAll(built, '.price');
  const w: Wrapper = validateWrapper({ version: 1, patterns: [{ name: 'price', selector: '.price', treeGram: makeTreeGram(built, nodes, 3) }] });
  const other = parseHtml(productPage('Green teapot', '£39.00', [['Blue teapot', '£42.00'], ['Cup', '£9.00']]));
  const r = runWrapper(w, other, 'green');
  assert.equal(r.record['price'], null, 'not a related product\'s price');
  const rep = r.reports[0]!;
  assert.equal(rep.step, 'not-found');
  assert.equal(rep.reason, 'ambiguous');
  assert.equal(rep.matched, 3);
  assert.ok(rep.rival, 'the runner-up is named');
  assert.equal(r.ok, false);
});

test('a related product\'s price is not taken for the product\'s when the selector breaks', () => {
  const w = createWrapper(parseHtml(productPage('Blue teapot', '£42.00')), [{ name: 'price', selector: 'article.product > p.price' }]);
  // Redesign: the product card's class renamed, related products (same markup as before) beside it.
  const page = parseHtml(productPage('Green teapot', '£39.00', [['Blue teapot', '£42.00'], ['Cup', '£9.00']]).replace('class="product"', 'class="item"'));
  const r = runWrapper(w, page, 'green');
  assert.notEqual(r.record['price'], '£42.00');
  assert.notEqual(r.record['price'], '£9.00');
  // The product's own price is the one whose place (its ancestors) is the stored one's: no ambiguity.
  assert.equal(r.record['price'], '£39.00');
});

/** A page with product blocks of one markup: the first holds `names[0]`; `blurb` adds a paragraph of words. */
function blocksPage(names: readonly string[], cls: string, blurb = ''): string {
  const blocks = names.map((n, k) => `<div class="${cls}"><h2>${n}</h2><p class="${cls}-price">£${30 + k}.00</p><p>In stock</p>${blurb ? `<p>${n}: ${blurb}</p>` : ''}</div>`).join('\n');
  return `<html><body><header><a href="/">Home</a></header><main>${blocks}</main><footer>© teapots</footer></body></html>`;
}

test('a redesign that puts two look-alike blocks beside the real one is ambiguous, not a look-alike at ctm 1.000', () => {
  const w = createWrapper(parseHtml(blocksPage(['Blue teapot'], 'product')), [
    { name: 'product', selector: 'div.product', children: [{ name: 'name', selector: 'h2' }, { name: 'price', selector: 'p.product-price' }] },
  ]);
  // The redesign renames the class; two sponsored blocks of the same markup come first, the second of them
  // about the very product the wrapper was built on (the words alone would pick it).
  const page = parseHtml(blocksPage(['Green teapot', 'Blue teapot', 'Red teapot'], 'tile'));
  const r = runWrapper(w, page, 'redesign');
  assert.equal(r.record['product'], null);
  const rep = r.reports.find((x) => x.pattern === 'product')!;
  assert.equal(rep.step, 'not-found');
  assert.equal(rep.reason, 'ambiguous');
  assert.equal(rep.rival?.similarity, 1);
  // Alone on the page, the same block is found (ctm 1.000): ambiguity, not dissimilarity, refused it.
  const alone = runWrapper(w, parseHtml(blocksPage(['Green teapot'], 'tile')), 'alone');
  assert.deepEqual(alone.record['product'], { name: 'Green teapot', price: '£30.00' });
  // Cards with a description of some forty words: their words are still their data, not what tells them apart.
  const blurb = 'A round teapot for four cups, glazed stoneware with a lid that stays on when you pour, a spout that does not drip, and a handle that stays cool; it keeps tea warm for an hour and washes by hand.';
  const long = createWrapper(parseHtml(blocksPage(['Blue teapot'], 'product', blurb)), [{ name: 'product', selector: 'div.product', children: [{ name: 'name', selector: 'h2' }] }]);
  const longRun = runWrapper(long, parseHtml(blocksPage(['Green teapot', 'Blue teapot', 'Red teapot'], 'tile', blurb)), 'redesign');
  assert.equal(longRun.record['product'], null);
  assert.equal(longRun.reports.find((x) => x.pattern === 'product')!.reason, 'ambiguous');
  // With the rule off, the words pick a look-alike: the block about the product the wrapper was made on.
  const off = runWrapper(w, page, 'redesign', { settings: { ambiguityMargin: -1 } });
  assert.deepEqual(off.record['product'], { name: 'Blue teapot', price: '£31.00' });
});

test('several instances that all give the same value are one value (a block the page repeats)', () => {
  const detail = '<ul class="facts"><li><b>Publisher</b>: Zebra</li></ul>';
  const html = `<html><body><h1>Book</h1><div class="tab">${detail}</div><div class="tab">${detail}</div></body></html>`;
  const tree = parseHtml(html);
  const w = createWrapper(tree, [{ name: 'publisher', selector: "//b[normalize-space()='Publisher']", value: 'after' }]);
  const r = runWrapper(w, tree, 'p');
  assert.equal(r.record['publisher'], 'Zebra');
  assert.equal(r.reports[0]!.matched, 2);
  assert.equal(r.reports[0]!.step, 'selector');
  // Different values are ambiguous.
  const two = parseHtml(html.replace('Zebra', 'Ace'));
  assert.equal(runWrapper(w, two, 'q').reports[0]!.reason, 'ambiguous');
});

test('an invalid selector is an error at create and at run, not "no instance"', () => {
  const tree = parseHtml(productPage('Blue teapot', '£42.00'));
  assert.throws(() => createWrapper(tree, [{ name: 'price', selector: 'p[' }]), (e: unknown) => e instanceof WrapperError && /pattern "price": invalid CSS selector "p\["/.test(e.message));
  assert.throws(() => createWrapper(tree, [{ name: 'price', selector: '//p[' }]), (e: unknown) => e instanceof WrapperError && /invalid XPath/.test(e.message));
  const file = JSON.stringify({ version: 1, patterns: [{ name: 'price', selector: 'p:nope' }] });
  assert.throws(() => parseWrapper(file, 'w.json'), (e: unknown) => e instanceof WrapperError && /patterns\.0\.selector: invalid CSS selector "p:nope"/.test(e.message));
  // A wrapper object that skipped validation fails at run with the same kind of error.
  assert.throws(() => runWrapper({ version: 2, patterns: [{ name: 'price', selector: 'p[' }] }, tree, 'p'), /pattern "price": invalid CSS selector/);
});

test('attributes are values (a meta tag\'s content, a link\'s href), and a pattern on title works', () => {
  const tree = parseHtml(productPage('Blue teapot', '£42.00'));
  const w = createWrapper(tree, [
    { name: 'title', selector: 'title' },
    { name: 'description', selector: 'meta[name=description]', value: '@content' },
    { name: 'care', selector: 'a.more', value: '@href' },
    { name: 'canonical', selector: 'link[rel=canonical]', value: '@href' },
  ]);
  const other = parseHtml(productPage('Green teapot', '£39.00'));
  const r = runWrapper(w, other, 'green');
  assert.deepEqual(r.record, { title: 'Green teapot | Teapots', description: 'Buy the Green teapot', care: '/care', canonical: 'https://shop.example/p/green-teapot' });
  assert.ok(r.ok && !r.adapted);
  assert.equal(w.patterns[0]!.treeGram!.instances[0]!.tags[0], 'title');
});

test('wrapper files: version 1 still loads, an unknown version is refused with the reason', () => {
  const v1 = parseWrapper(JSON.stringify({ version: 1, patterns: [{ name: 'a', selector: 'p' }] }));
  assert.equal(v1.version, 1);
  assert.equal(parseWrapper(JSON.stringify({ version: 2, patterns: [{ name: 'a', selector: 'p' }] })).version, 2);
  assert.throws(() => parseWrapper(JSON.stringify({ version: 4, patterns: [{ name: 'a', selector: 'p' }] }), 'w.json'), /version: version 4 is not one this gabarit reads \(1, 2, 3\); a newer gabarit wrote it/);
  assert.equal(createWrapper(parseHtml('<p>x</p>'), [{ name: 'a', selector: 'p' }]).version, 3);
});
