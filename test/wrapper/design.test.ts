/**
 * The functions a visual wrapper designer builds on: patterns proposed for a node (single, list, nested
 * under another pattern's instance, attribute, text after a label) with their match counts and a
 * look-alike warning, a selector previewed on several pages, constraints inferred from values, and runs
 * summarised per pattern with reason codes. Small pages written here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { selectAll, selectOne } from '../../src/html/select.ts';
import { NodeKind } from '../../src/html/tree.ts';
import { createWrapper, inferConstraints } from '../../src/wrapper/create.ts';
import { previewSelector, summarizeRuns } from '../../src/wrapper/design.ts';
import { runWrapper, selectPattern } from '../../src/wrapper/run.ts';
import { suggestPattern, suggestPatterns } from '../../src/wrapper/suggest.ts';
import { WrapperError } from '../../src/wrapper/wrapper.ts';

const LIST = (items: Array<[string, string, string]>): string => `<html><body><div id="results"><h1>Books</h1><ul class="hits">
${items.map(([t, a, y]) => `<li class="hit"><h3><a href="/book/${t.length}">${t}</a></h3><span class="by">${a}</span><p><b>Year:</b> ${y}<br><b>Pages:</b> 300</p></li>`).join('\n')}
</ul></div></body></html>`;

const PAGE1 = LIST([
  ['Game Over', 'Fern Michaels', '2008'],
  ['Foreign Influence', 'Brad Thor', '2010'],
]);
const PAGE2 = LIST([
  ['Spider Bones', 'Kathy Reichs', '2010'],
  ['Dead in the Family', 'Charlaine Harris', '2010'],
  ['The Overton Window', 'Glenn Beck', '2010'],
]);

test('suggestPatterns: ranked patterns for an element, with match counts and values', () => {
  const t = parseHtml(PAGE1);
  const h3 = selectAll(t, 'h3')[1]!;
  const all = suggestPatterns(t, h3);
  assert.ok(all.length >= 2);
  assert.deepEqual(
    all.map((s) => s.robustness),
    [...all.map((s) => s.robustness)].sort((a, b) => b - a),
    'most robust first',
  );
  const best = suggestPattern(t, h3)!;
  assert.equal(best.form, 'positional');
  assert.equal(best.matches, 1);
  assert.deepEqual(best.values, ['Foreign Influence']);
  assert.equal(best.lookAlikes, 2, 'one of two look-alike titles: a list is likely meant');
  // As a list: every title.
  const list = suggestPattern(t, h3, { multiple: true })!;
  assert.deepEqual(list.values, ['Game Over', 'Foreign Influence']);
  assert.equal(list.lookAlikes, undefined);
  // An attribute.
  const link = suggestPattern(t, selectAll(t, 'h3 > a')[0]!, { value: '@href' })!;
  assert.deepEqual(link.values, ['/book/9']);
});

test('suggestPatterns: a text node after a label gives the label pattern (value "after")', () => {
  const t = parseHtml(PAGE1);
  const b = selectAll(t, 'b')[0]!;
  let text = b + 1;
  while (!(t.kind[text] === NodeKind.Text && t.nodeText(text).trim() === '2008')) text++;
  const s = suggestPattern(t, text, { scope: selectAll(t, 'li.hit')[0]! })!;
  assert.equal(s.value, 'after');
  assert.equal(s.form, 'label');
  assert.equal(s.selector, ".//b[normalize-space()='Year:']");
  assert.deepEqual(s.values, ['2008']);
});

test('suggestPatterns inside a parent instance: relative selectors that hold in every instance (nested patterns)', () => {
  const t = parseHtml(PAGE1);
  const [r1, r2] = selectAll(t, 'li.hit');
  const by = selectOne(t, 'span.by', r1!);
  const s = suggestPattern(t, by, { scope: r1! })!;
  assert.equal(s.selector, ':scope > span.by');
  // The same selector, inside the other instance, finds that instance's author.
  assert.deepEqual(selectPattern(t, s, r2!).map((n) => t.nodeText(n + 1)), ['Brad Thor']);
  assert.throws(() => suggestPatterns(t, by, { scope: r2! }), /not inside the scope/);
  // A wrapper of records made of these suggestions runs on another page of the list.
  const w = createWrapper(t, [
    {
      name: 'book',
      selector: 'li.hit',
      multiple: true,
      children: [
        { name: 'title', selector: suggestPattern(t, selectOne(t, 'h3', r1!), { scope: r1! })!.selector },
        { name: 'author', selector: s.selector },
        { name: 'year', selector: ".//b[normalize-space()='Year:']", value: 'after' },
      ],
    },
  ]);
  const r = runWrapper(w, parseHtml(PAGE2), 'page 2');
  assert.deepEqual(r.record['book'], [
    { title: 'Spider Bones', author: 'Kathy Reichs', year: '2010' },
    { title: 'Dead in the Family', author: 'Charlaine Harris', year: '2010' },
    { title: 'The Overton Window', author: 'Glenn Beck', year: '2010' },
  ]);
});

test('previewSelector: per page, how many elements match, their values, and whether a single value is ambiguous', () => {
  const pages = [
    { page: 'p1', tree: parseHtml(PAGE1) },
    { page: 'p2', tree: parseHtml(PAGE2) },
    { page: 'empty', tree: parseHtml('<html><body><p>nothing</p></body></html>') },
  ];
  const single = previewSelector(pages, { selector: 'span.by' });
  assert.deepEqual(
    single.map((x) => [x.page, x.matches, x.verdict]),
    [
      ['p1', 2, 'ambiguous'],
      ['p2', 3, 'ambiguous'],
      ['empty', 0, 'none'],
    ],
  );
  const h1 = previewSelector(pages, { selector: 'h1' });
  assert.deepEqual(h1.map((x) => x.verdict), ['ok', 'ok', 'none']);
  const list = previewSelector(pages, { selector: 'span.by', multiple: true });
  assert.deepEqual(list[1]!.values, ['Kathy Reichs', 'Charlaine Harris', 'Glenn Beck']);
  assert.equal(list[1]!.verdict, 'list');
  // The same year on every record of page 2: one value, not ambiguous.
  const years = previewSelector(pages, { selector: "//b[normalize-space()='Year:']", value: 'after' });
  assert.deepEqual(years.map((x) => x.verdict), ['ambiguous', 'ok', 'none']);
  assert.throws(() => previewSelector(pages, { selector: 'span[' }), WrapperError);
});

test('inferConstraints and summarizeRuns (reason codes per pattern and page)', () => {
  assert.deepEqual(inferConstraints(['2008', '2010']), { type: 'integer' });
  assert.deepEqual(inferConstraints(['Fern Michaels']), { type: 'text' });
  assert.deepEqual(inferConstraints(['A-12']), {});
  const t1 = parseHtml(PAGE1);
  const w = createWrapper(t1, [{ name: 'heading', selector: 'h1' }, { name: 'first', selector: 'li.hit:nth-of-type(1) span.by' }, { name: 'author', selector: 'span.by', multiple: true }]);
  const runs = [runWrapper(w, t1, 'p1'), runWrapper(w, parseHtml(PAGE2), 'p2'), runWrapper(w, parseHtml('<html><body><p>x</p></body></html>'), 'empty')];
  const s = summarizeRuns(runs);
  assert.equal(s.pages, 3);
  assert.equal(s.complete, 2);
  assert.deepEqual(s.patterns['heading'], { steps: { selector: 2, 'not-found': 1 }, notFound: { 'not-similar': 1 } });
  assert.equal(s.incomplete.length, 1);
  assert.equal(s.incomplete[0]!.page, 'empty');
  assert.deepEqual(
    s.incomplete[0]!.notFound.map((x) => x.pattern),
    ['heading', 'first', 'author'],
  );
});
