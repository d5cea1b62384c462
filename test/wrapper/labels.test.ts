/**
 * Labels and places (src/wrapper/label.ts) as a run uses them: where a value's label is found (a row's
 * header, the words that start its line, a list's first item's, a label before its block); a page with only
 * the block of another label gives no value rather than that block's; the rank of the example's block
 * tells apart blocks that have no label. Small pages written here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { selectAll } from '../../src/html/select.ts';
import { createFromExamples } from '../../src/wrapper/create.ts';
import { labelOf } from '../../src/wrapper/label.ts';
import { runWrapper } from '../../src/wrapper/run.ts';

function labelAt(html: string, selector: string): Array<string | null> {
  const tree = parseHtml(`<html><body>${html}</body></html>`);
  return selectAll(tree, selector).map((n) => labelOf(tree, n)?.text ?? null);
}

test('a value\'s label: row header, definition term, the words that start its line, a list\'s first item\'s', () => {
  assert.deepEqual(labelAt('<table><tr><th>Publisher:</th><td><span>Zebra</span></td></tr></table>', 'span'), ['Publisher:']);
  assert.deepEqual(labelAt('<dl><dt>Pages</dt><dd><b>320</b></dd></dl>', 'b'), ['Pages']);
  assert.deepEqual(labelAt('<div>By: <a>A</a>, <a>B</a> and <a>C</a></div>', 'a'), ['By:', 'By:', 'By:']);
  assert.deepEqual(labelAt('<div><a>Sookie</a> series, by <a>Charlaine</a></div>', 'a'), [null, 'by']);
  assert.deepEqual(labelAt('<p><b>By:</b> <a>A</a></p>', 'a'), ['By:']);
  assert.deepEqual(labelAt('<h4>Author:</h4><div><a>A</a></div><h4>Related</h4><div><a>B</a></div>', 'a'), ['Author:', null]);
});

const page = (blocks: string): string => `<html><body><div id="main"><h1>A book</h1>${blocks}<p>Text here.</p></div></body></html>`;
const by = (a: string): string => `<div class="product-author">By: <a href="/s?q=1">${a}</a></div>`;
const more = (s: string): string => `<div class="product-author">More in <a href="/s?q=2">${s}</a></div>`;

test('a page with only the block of another label gives no value, not that block\'s; either order of the blocks works', () => {
  const { wrapper } = createFromExamples([{ tree: parseHtml(page(by('Fern Michaels'))), values: { author: 'Fern Michaels' } }]);
  assert.equal(wrapper.patterns[0]!.choose?.label, 'By:');
  const only = runWrapper(wrapper, parseHtml(page(more('Shetland'))), 'p');
  assert.equal(only.record['author'], null);
  assert.deepEqual(only.reports[0]!.violations, ['its label is "More in", not "By:"']);
  for (const blocks of [more('Shetland') + by('Ann Cleeves'), by('Ann Cleeves') + more('Shetland')]) {
    const r = runWrapper(wrapper, parseHtml(page(blocks)), 'p');
    assert.equal(r.record['author'], 'Ann Cleeves');
    assert.equal(r.reports[0]!.chosenBy, 'label');
  }
});

test('blocks with no label: the rank the example pages agree on tells them apart', () => {
  const boxes = (a: string, b: string): string => `<html><body><div id="m"><div class="box"><p>${a}</p></div><div class="box"><p>${b}</p></div></div></body></html>`;
  const { wrapper } = createFromExamples([
    { tree: parseHtml(boxes('Alpha one', 'Beta two')), values: { x: 'Alpha one' } },
    { tree: parseHtml(boxes('Gamma three', 'Delta four')), values: { x: 'Gamma three' } },
  ]);
  const p = wrapper.patterns[0]!;
  assert.equal(p.choose?.rank, 1);
  assert.match(p.choose!.rule, /the 1st block of its kind/);
  // The same pattern with a selector that matches both blocks: the rank decides.
  const loose = { ...wrapper, patterns: [{ ...p, selector: '#m p' }] };
  const r = runWrapper(loose, parseHtml(boxes('Eps five', 'Zeta six')), 'p');
  assert.equal(r.record['x'], 'Eps five');
  assert.equal(r.reports[0]!.chosenBy, 'rank');
});
