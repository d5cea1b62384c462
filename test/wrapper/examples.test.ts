/**
 * Wrappers made by example on record pages, as a user makes them: the values of one page given as
 * examples, the wrapper run on the shop's other pages. Examples find the element that really holds the
 * value (and the text after a label), what a run finds is checked (wrong kind of value, a single field
 * with several values: not found, with the reason), and a field with several values can be a list.
 * The shop's pages are written here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/html/parse.ts';
import { hasType } from '../../src/wrapper/constraints.ts';
import { createFromExamples, findValue, inferType } from '../../src/wrapper/create.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { selectLabel, textAfter } from '../../src/wrapper/value.ts';
import { NodeKind, type Tree } from '../../src/html/tree.ts';
import { evaluateXPath } from '../../src/html/xpath.ts';
import { corpusPages } from '../html/corpus-pages.ts';

interface Book {
  title: string;
  authors: string[];
  publisher: string;
  date: string;
  /** A series line before the authors. */
  series?: string;
  /** A discount badge. */
  badge?: string;
}

/** A book page: a byline, flags, and facts as bare text after bold labels. */
function bookPage(b: Book): string {
  const series = b.series ? `<a href="/series/${b.series.length}">${b.series}</a> series, ` : '';
  const authors = b.authors.map((a, k) => `<a href="/author/${k}">${a}</a>`).join(' and ');
  const badge = b.badge ? `<span>${b.badge}</span>` : '';
  return `<html><head><title>${b.title} - Books</title></head><body>
<div class="nav"><a href="/">Books</a> <a href="/new">New</a> <a href="/deals">Deals</a></div>
<div id="book">
  <h1>${b.title}</h1>
  <div class="byline">${series}by ${authors}</div>
  <div class="flags">${badge}<span>${b.publisher}</span><span>Paperback</span></div>
  <div class="facts">
    <b>Publisher:</b> ${b.publisher}<br>
    <b>Publication Date:</b> ${b.date}<br>
    <b>Pages:</b> 320<br>
  </div>
</div>
<div class="also"><h2>Readers also bought</h2><a href="/b/9">Another Book</a> by <a href="/author/9">Someone Else</a></div>
</body></html>`;
}

const TRAIN: Book = { title: 'Game Over', authors: ['Fern Michaels'], publisher: 'Zebra', date: 'June 2008' };
const OTHERS: Book[] = [
  { title: 'The Overton Window', authors: ['Glenn Beck', 'Kevin Balfe'], publisher: 'Threshold Editions', date: 'June 2010' },
  { title: 'Dead in the Family', authors: ['Charlaine Harris'], publisher: 'Ace Books', date: 'May 2010', series: 'Sookie Stackhouse' },
  { title: 'Foreign Influence', authors: ['Brad Thor'], publisher: 'Atria Books', date: 'July 2010', badge: '33% Off' },
  { title: 'Spider Bones', authors: ['Kathy Reichs'], publisher: 'Scribner', date: 'August 2010', series: 'Temperance Brennan', badge: 'Save £5' },
];

function examples(b: Book, authorList: boolean): Record<string, string | string[]> {
  return { title: b.title, author: authorList ? b.authors : b.authors[0]!, publisher: b.publisher, publication_date: b.date };
}

test('the text after a label can be given by example (value mode "after")', () => {
  const tree = parseHtml(bookPage(TRAIN));
  const found = findValue(tree, 'June 2008');
  assert.equal(found.length, 1);
  assert.equal(found[0]!.mode, 'after');
  assert.equal(tree.tag(found[0]!.node), 'b');
  assert.equal(textAfter(tree, found[0]!.node), 'June 2008');
  const { wrapper, missing } = createFromExamples([{ tree, values: { publication_date: 'June 2008' } }]);
  assert.deepEqual(missing, []);
  assert.deepEqual(wrapper.patterns[0], { ...wrapper.patterns[0], selector: "//b[normalize-space()='Publication Date:']", value: 'after', constraints: { type: 'date' } });
  assert.equal(runWrapper(wrapper, parseHtml(bookPage(OTHERS[0]!)), 'p').record['publication_date'], 'June 2010');
});

test('text after a label: `<li><b>L</b>: v</li>`, `<dt>`/`<dd>`, `<th>`/`<td>`, label and value spans', () => {
  const cases: Array<[string, string]> = [
    ['<ul><li><strong>Publisher</strong>: Zebra</li><li><strong>Date</strong>: 2008</li></ul>', 'Publisher'],
    ['<dl><dt>Publisher</dt><dd>Zebra</dd><dt>Date</dt><dd>2008</dd></dl>', 'Publisher'],
    ['<dl><dt><b>Publisher</b></dt><dd>Zebra</dd><dt><b>Date</b></dt><dd>2008</dd></dl>', 'Publisher'],
    ['<table><tr><th>Publisher</th><td>Zebra</td></tr><tr><th>Date</th><td>2008</td></tr></table>', 'Publisher'],
    ['<table><tr><td>Publisher</td><td>Zebra</td><td>Date</td><td>2008</td></tr></table>', 'Publisher'],
    ['<div><span class="k">Publisher</span><span class="v">Zebra</span><span class="k">Date</span><span class="v">2008</span></div>', 'Publisher'],
    ['<p><b>Publisher -</b> <i>Zebra</i> <b>Date -</b> 2008</p>', 'Publisher -'],
  ];
  for (const [html, label] of cases) {
    const tree = parseHtml(`<html><body>${html}</body></html>`);
    const occ = findValue(tree, 'Zebra').find((o) => o.mode === 'after');
    assert.ok(occ, html);
    assert.equal(textAfter(tree, occ.node), 'Zebra', html);
    const { wrapper } = createFromExamples([{ tree, values: { publisher: 'Zebra', date: '2008' } }]);
    assert.equal(wrapper.patterns[0]!.value, 'after', html);
    assert.match(wrapper.patterns[0]!.selector, new RegExp(label.replace(/ -$/, '')), html);
    const other = parseHtml(`<html><body>${html.replace('Zebra', 'Ace Books').replace('2008', '2011')}</body></html>`);
    assert.deepEqual(runWrapper(wrapper, other, 'o').record, { publisher: 'Ace Books', date: '2011' }, html);
  }
});

/** Runs a wrapper made by example on TRAIN over OTHERS; the records and reports per page. */
function byExample(authorList: boolean): Array<{ book: Book; record: Record<string, unknown>; reasons: Record<string, string | undefined> }> {
  const { wrapper, missing } = createFromExamples([{ tree: parseHtml(bookPage(TRAIN)), values: examples(TRAIN, authorList) }]);
  assert.deepEqual(missing, []);
  return OTHERS.map((book) => {
    const r = runWrapper(wrapper, parseHtml(bookPage(book)), book.title);
    return { book, record: r.record, reasons: Object.fromEntries(r.reports.map((x) => [x.pattern, x.reason])) };
  });
}

test('by example on one book page, run on the others: every value right or refused, never another field\'s', () => {
  for (const { book, record, reasons } of byExample(false)) {
    assert.equal(record['title'], book.title);
    assert.equal(record['publisher'], book.publisher, 'not the badge, not the flag');
    assert.equal(record['publication_date'], book.date);
    // A single author pattern: the author on one-author pages (not the series, not "Someone Else");
    // on a two-author page, no value: several values for a single field are ambiguous.
    if (book.authors.length === 1) assert.equal(record['author'], book.authors[0], book.title);
    else {
      assert.equal(record['author'], null);
      assert.equal(reasons['author'], 'ambiguous');
    }
  }
});

test('a field given as a list (several values, or author[] with one) is a list on every page', () => {
  for (const { book, record } of byExample(true)) assert.deepEqual(record['author'], book.authors, book.title);
  // Several example values make a list too.
  const two = OTHERS[0]!;
  const { wrapper } = createFromExamples([{ tree: parseHtml(bookPage(two)), values: { author: two.authors } }]);
  assert.equal(wrapper.patterns[0]!.multiple, true);
  assert.deepEqual(runWrapper(wrapper, parseHtml(bookPage(TRAIN)), 't').record['author'], TRAIN.authors);
});

test('the element that really holds the value: a label beats a position, and a badge is the wrong kind of value', () => {
  // The publisher is also the first flag on the example page; by position (the flag) a badge would take
  // its place on other pages; the label form is chosen.
  const tree = parseHtml(bookPage(TRAIN));
  const { choices } = createFromExamples([{ tree, values: { publisher: 'Zebra' } }]);
  assert.equal(choices[0]!.form, 'label');
  // Without labels, the flag's position is all there is: the badge that takes it is refused as the
  // wrong kind of data (the example is words; "33% Off" is a percentage).
  const noLabels = (b: Book): string => bookPage(b).replace(/<div class="facts">[^]*?<\/div>/, '');
  const w = createFromExamples([{ tree: parseHtml(noLabels(TRAIN)), values: { publisher: 'Zebra' } }]).wrapper;
  assert.deepEqual(w.patterns[0]!.constraints, { type: 'text' });
  const badge = runWrapper(w, parseHtml(noLabels(OTHERS[2]!)), 'badge');
  assert.equal(badge.record['publisher'], null);
  assert.equal(badge.reports[0]!.violations[0], 'value "33% Off" is not of type text');
  assert.ok(badge.reports[0]!.reason === 'ambiguous' || badge.reports[0]!.reason === 'wrong-value' || badge.reports[0]!.reason === 'not-similar');
  assert.equal(runWrapper(w, parseHtml(noLabels(OTHERS[0]!)), 'plain').record['publisher'], 'Threshold Editions');
});

test('values of the wrong kind are not found, with the reason', () => {
  const { wrapper } = createFromExamples([{ tree: parseHtml(bookPage(TRAIN)), values: { publication_date: TRAIN.date } }]);
  const page = parseHtml(bookPage({ ...OTHERS[0]!, date: 'to be announced' }));
  const r = runWrapper(wrapper, page, 'tba');
  assert.equal(r.record['publication_date'], null);
  assert.equal(r.reports[0]!.step, 'not-found');
  assert.match(r.reports[0]!.violations[0]!, /not of type date/);
  assert.ok(r.reports[0]!.reason === 'wrong-value' || r.reports[0]!.reason === 'not-similar');
});

test('inferred types: text for words, and what text refuses', () => {
  assert.equal(inferType(['Zebra']), 'text');
  assert.equal(inferType(['Catch-22']), 'non-empty');
  assert.equal(inferType(['June 2010']), 'date');
  assert.equal(inferType(['£179.00']), 'number');
  assert.ok(hasType('Threshold Editions', 'text') && hasType("Devil's Prize ($4.99 Value Promotion Edition)", 'text'));
  assert.ok(!hasType('33% Off', 'text') && !hasType('Save £5', 'text') && !hasType('1984', 'text') && !hasType('', 'text'));
});

test('attributes are found by example when the text does not have the value', () => {
  const tree: Tree = parseHtml('<html><head><meta property="og:title" content="Game Over"></head><body><p>Other text</p></body></html>');
  const { wrapper } = createFromExamples([{ tree, values: { title: 'Game Over' } }]);
  assert.equal(wrapper.patterns[0]!.value, '@content');
  const other = parseHtml('<html><head><meta property="og:title" content="Foreign Influence"></head><body><p>x</p></body></html>');
  assert.equal(runWrapper(wrapper, other, 'o').record['title'], 'Foreign Influence');
});

/** Label selectors of every short element of a page, with the scope each is tried in. */
function labelCases(t: Tree): Array<{ selector: string; scope: number }> {
  const out: Array<{ selector: string; scope: number }> = [];
  for (let i = 1; i < t.size; i++) {
    if (t.kind[i] !== NodeKind.Element) continue;
    let s = '';
    for (let j = i + 1; j < t.end[i]! && s.length < 60; j++) if (t.kind[j] === NodeKind.Text || t.kind[j] === NodeKind.Blank) s += t.nodeText(j);
    const label = s.replace(/[\x20\t\r\n]+/g, ' ').trim();
    if (label.length === 0 || label.length > 40 || (label.includes("'") && label.includes('"'))) continue;
    const lit = label.includes("'") ? `"${label}"` : `'${label}'`;
    out.push({ selector: `//${t.tag(i)}[normalize-space()=${lit}]`, scope: 0 });
    if (t.parent[i]! > 0) out.push({ selector: `.//${t.tag(i)}[normalize-space()=${lit}]`, scope: t.parent[t.parent[i]!]! > 0 ? t.parent[t.parent[i]!]! : t.parent[i]! });
  }
  return out;
}

test('label selectors are read in one pass, with the XPath engine\'s result (fixtures, and corpus pages when present)', () => {
  const pages = [
    parseHtml(bookPage(TRAIN)),
    parseHtml('<html><body><p><b>\n   Publisher:\n </b> x <b>Publisher: <i>more</i></b><b>Pub\tlisher:</b></p><svg><text>Date</text></svg></body></html>'),
    ...corpusPages(1).slice(0, 6).map((p) => parseHtml(p.html)),
  ];
  let checked = 0;
  for (const t of pages) {
    for (const c of labelCases(t).slice(0, 150)) {
      const fast = selectLabel(t, c.selector, c.scope);
      assert.ok(fast, c.selector);
      const engine = evaluateXPath(t, c.selector, c.scope).filter((n) => c.scope === 0 || (n > c.scope && n < t.end[c.scope]!));
      assert.deepEqual(fast, engine, `${c.selector} in ${c.scope}`);
      checked++;
    }
  }
  assert.ok(checked >= 40, `${checked} cases`);
  assert.equal(selectLabel(pages[0]!, "//b[contains(., 'x')]", 0), null, 'another XPath goes to the engine');
});
