/**
 * The designer's requests over the wrapper library (src/ui/designer.ts), on small hand-written shop pages:
 * flat drafts become nested patterns; a preview gives each pattern's matches on this page and the others,
 * the values of a run on every page and a warning where a single value is ambiguous; the wrapper file
 * gets the inferred data type; an adaptation names each pattern's step and pairs the stored subtree with
 * the one found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { selectOne } from '../../src/html/select.ts';
import { adaptPage, create, load, preview, specsOf, suggest } from '../../src/ui/designer.ts';
import type { PatternDraft } from '../../src/ui/api.ts';

const product = (name: string, price: string, features: string[], extra = ''): string =>
  `<html><body><header><a href="/">Shop</a></header><article class="product"><h1>${name}</h1><p class="price">${price}</p>
<ul class="features">${features.map((f) => `<li>${f}</li>`).join('')}</ul></article>${extra}<footer>Footer</footer></body></html>`;

const pages = [
  { key: 'a.html', tree: parseHtml(product('Tent', '£120.00', ['Light', 'Warm'])) },
  { key: 'b.html', tree: parseHtml(product('Stove', '£45.50', ['Small'])) },
  { key: 'c.html', tree: parseHtml(product('Boot', '£99.00', ['Leather', 'Tough', 'Dry'], '<article class="product"><p class="price">£1.00</p></article>')) },
  { key: 'about.html', tree: parseHtml('<html><body><header><a href="/">Shop</a></header><main><h2>About</h2></main></body></html>') },
];

const drafts: PatternDraft[] = [
  { name: 'product', selector: 'article.product', multiple: false, value: 'text', parent: null },
  { name: 'name', selector: 'h1', multiple: false, value: 'text', parent: 'product' },
  { name: 'price', selector: 'article.product > p.price', multiple: false, value: 'text', parent: null },
  { name: 'features', selector: 'ul.features li', multiple: true, value: 'text', parent: 'product' },
];

test('drafts become nested pattern specs; a missing parent or a cycle is refused', () => {
  const specs = specsOf(drafts);
  assert.deepEqual(specs.map((s) => [s.name, (s.children ?? []).map((c) => c.name)]), [['product', ['name', 'features']], ['price', []]]);
  assert.throws(() => specsOf([{ ...drafts[1]!, parent: 'nope' }]), /not a pattern/);
  assert.throws(() => specsOf([{ ...drafts[0]!, parent: 'name' }, { ...drafts[1]!, parent: 'product' }]), /under itself/);
});

test('preview: matches here and elsewhere, values on every page, ambiguity and absence warned', () => {
  const r = preview(pages, 'a.html', drafts);
  assert.equal(r.problem, null);
  const by = new Map(r.patterns.map((p) => [p.name, p]));
  const price = by.get('price')!;
  assert.equal(price.thisPage, 1);
  assert.deepEqual(price.otherPages, { matched: 2, total: 3, elements: 3 });
  assert.equal(price.constraints['type'], 'number', 'data type inferred from £120.00');
  assert.deepEqual(price.perPage.map((p) => p.values), [['£120.00'], ['£45.50'], [], []], 'c.html: two prices, the run refuses to choose');
  assert.match(price.perPage[2]!.problem, /2 instances, at most 1/);
  assert.deepEqual(price.perPage.map((p) => p.notFound), [null, null, 'ambiguous', 'absent'], 'why no value: two prices on c.html, none on the about page');
  assert.ok(price.warnings.some((w) => /ambiguous/.test(w) && /c\.html/.test(w)));
  assert.ok(price.warnings.some((w) => /nothing on 1 of 4 pages/.test(w)));
  const features = by.get('features')!;
  assert.deepEqual(features.perPage[0]!.values, ['Light', 'Warm']);
  assert.equal(features.warnings.filter((w) => /ambiguous/.test(w)).length, 0, 'a list is never ambiguous');
  assert.deepEqual(by.get('name')!.perPage.map((p) => p.values), [['Tent'], ['Stove'], [], []], 'c.html: two products, the record refused');
  assert.equal(by.get('name')!.nodes.length, 1);
  assert.match(preview(pages, 'a.html', [{ ...drafts[2]!, name: '9bad' }]).problem ?? '', /name/);
});

test('suggest: the most robust selector of the clicked element (or of the element around a clicked text)', () => {
  const tree = pages[0]!.tree;
  const h1 = selectOne(tree, 'h1');
  const s = suggest(tree, h1 + 1, null, drafts);
  assert.equal(s.text, 'Tent');
  assert.equal(s.matches, 1);
  assert.equal(selectOne(tree, s.selector), h1);
  assert.equal(suggest(tree, h1, 'product', drafts).matches, 1, 'inside the parent instances');
  const price = selectOne(tree, 'p.price');
  assert.match(suggest(tree, price, null, drafts).selector, /\.price/, 'anchored on the class, not only on positions');
  const nested = suggest(tree, price, 'product', drafts).selector;
  assert.doesNotMatch(nested, /article/, `relative to the product: ${nested}`);
  assert.throws(() => suggest(tree, selectOne(tree, 'header a'), 'product', drafts), /not inside an instance/);
});

test('create, load and adapt: the wrapper file, then each pattern on a redesigned page with its step and pairs', () => {
  const w = create(pages, 'a.html', 'shop', drafts);
  const loaded = load(w.text, 'shop.wrapper.json');
  const byName = (ds: readonly PatternDraft[]): PatternDraft[] => [...ds].sort((a, b) => a.name.localeCompare(b.name));
  assert.deepEqual(byName(loaded.patterns), byName(drafts), 'drafts survive the round trip (parents first)');
  const price = loaded.wrapper.patterns.find((p) => p.name === 'price')!;
  assert.deepEqual(price.constraints, { type: 'number' });
  assert.ok((price.treeGram?.instances.length ?? 0) > 0);
  const redesigned = parseHtml(`<html><body><div class="top"><a href="/">Shop</a></div><section class="item"><h1>Tent</h1>
<p class="cost">£120.00</p><ul class="features"><li>Light</li><li>Warm</li></ul></section></body></html>`);
  const r = adaptPage(loaded.wrapper, redesigned, 'new.html');
  const by = new Map(r.reports.map((x) => [x.pattern, x]));
  assert.equal(by.get('price')!.value, '£120.00');
  assert.notEqual(by.get('price')!.step, 'selector');
  assert.notEqual(by.get('price')!.step, 'not-found');
  assert.ok((by.get('price')!.similarity ?? 0) > 0);
  assert.deepEqual(by.get('price')!.links, [[0, 0], [1, 1]], 'p and its text paired');
  assert.ok(r.updated, 'an updated wrapper');
  assert.match(r.updated!, /"history"/);
  const same = adaptPage(loaded.wrapper, pages[1]!.tree, 'b.html');
  assert.ok(same.reports.every((x) => x.step === 'selector'));
  assert.equal(same.updated, null);
  assert.deepEqual(same.reports.find((x) => x.pattern === 'features')!.value, ['Small']);
});
