/**
 * Fields given by example through the UI's HTTP API (`POST /api/learn`, then `/api/preview` and
 * `/api/wrapper/create`), on the hand-written book shop (book-shop.ts), with node numbers read from the
 * pages the UI serves in its frames: an author learned from the first book is ambiguous on the others,
 * and the preview says so page by page; the author picked on a second book is one more example, the
 * field is learned again from both, and every page gets its author; the saved wrapper's pattern is the
 * one `gabarit wrapper create p1 p2 --example …` learns from the same values (run/wrapper.ts
 * `createWrapperOn`), and a run of it gives every author; two items of a list give the list. A page
 * where a pattern matches nothing is `absent`. Requests of the wrong shape are refused with 400.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHtml } from '../../src/html/parse.ts';
import { selectAll } from '../../src/html/select.ts';
import { createWrapperOn } from '../../src/run/wrapper.ts';
import type { LearnResponse, PatternDraft, PreviewResponse, WrapperText } from '../../src/ui/api.ts';
import { NODE_ATTR } from '../../src/ui/frame.ts';
import { startUi, type RunningUi } from '../../src/ui/server.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { parseWrapper } from '../../src/wrapper/wrapper.ts';
import { BOOKS, bookPage, writeBookShop } from './book-shop.ts';
import { own, raw } from './ui-http.ts';

async function withShop(fn: (ui: RunningUi, dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-ui-learn-'));
  await writeBookShop(dir);
  const ui = await startUi(dir, { port: 0 });
  try {
    await fn(ui, dir);
  } finally {
    await ui.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function post<T>(ui: RunningUi, route: string, body: unknown): Promise<T> {
  const r = await raw(ui, `/api/${route}`, { ...own(ui, true), 'content-type': 'application/json' }, 'POST', JSON.stringify(body));
  assert.equal(r.status, 200, `POST /api/${route}: ${r.status} ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body) as T;
}

/** The node numbers of the elements `selector` matches on a page, as the UI's frame numbers them (what a click sends). */
async function framed(ui: RunningUi, key: string, selector: string): Promise<number[]> {
  const r = await raw(ui, `/frame/none/${key}`, own(ui));
  assert.equal(r.status, 200);
  const tree = parseHtml(r.body);
  return selectAll(tree, selector).map((n) => Number(tree.attr(n, NODE_ATTR)));
}

/** Per page: the values of pattern `name` in a preview, and why none where none. */
function table(r: PreviewResponse, name: string): Record<string, { values: string[]; notFound: string | null }> {
  assert.equal(r.problem, null);
  const p = r.patterns.find((x) => x.name === name)!;
  return Object.fromEntries(p.perPage.map((q) => [q.key, { values: q.values, notFound: q.notFound }]));
}

const [first, second] = [BOOKS[0]!, BOOKS[1]!];

test('an author given on one book is ambiguous on the others; an example on one of them settles every page', async () => {
  await withShop(async (ui, dir) => {
    const [a1] = await framed(ui, first.file, '.product-author a');
    const one = await post<LearnResponse>(ui, 'learn', { name: 'author', multiple: false, examples: [{ key: first.file, nodes: [a1] }] });
    assert.deepEqual([one.pages, one.examplePages, one.label], [1, 1, null], 'no label on the first book');
    const before = table(await post<PreviewResponse>(ui, 'preview', { method: 'none', key: first.file, patterns: [one.pattern] }), 'author');
    assert.deepEqual(before[first.file], { values: [first.author], notFound: null });
    for (const b of BOOKS.slice(1)) assert.deepEqual(before[b.file], { values: [], notFound: 'ambiguous' }, `${b.file}: author and series blocks, nothing tells them apart`);

    // The author on the second book (its first author block: the second is the series).
    const [a2] = await framed(ui, second.file, '.product-author a');
    const examples = [...one.pattern.examples!, { key: second.file, nodes: [a2] }];
    const two = await post<LearnResponse>(ui, 'learn', { name: 'author', multiple: false, examples });
    assert.deepEqual([two.pages, two.examplePages], [2, 2]);
    assert.deepEqual(two.pattern.examples, examples);
    const after = table(await post<PreviewResponse>(ui, 'preview', { method: 'none', key: first.file, patterns: [two.pattern] }), 'author');
    assert.deepEqual(after, Object.fromEntries(BOOKS.map((b) => [b.file, { values: [b.author], notFound: null }])));

    // The saved pattern is the command line's from the same values, and a run of it gives every author.
    const saved = await post<WrapperText>(ui, 'wrapper/create', { method: 'none', key: first.file, name: 'books', patterns: [two.pattern] });
    const wrapper = parseWrapper(saved.text, 'books.wrapper.json');
    const cli = await createWrapperOn([join(dir, first.file), join(dir, second.file)], {
      examples: [{ author: first.author }, { author: second.author }],
      fetch: { userAgent: 'gabarit-test', delay: 0, timeout: 5000, maxBytes: 1 << 20 },
    });
    assert.deepEqual(wrapper.patterns, cli.wrapper.patterns);
    for (const [k, b] of BOOKS.entries()) {
      const run = runWrapper(wrapper, parseHtml(bookPage(b, k === 0)), b.file);
      assert.deepEqual(run.record, { author: b.author }, b.file);
    }
  });
});

test('two items of a list give the whole list on every page; a page without the element is absent', async () => {
  await withShop(async (ui) => {
    const items = await framed(ui, second.file, 'ul.tags li');
    assert.ok(items.length > 2);
    const tags = await post<LearnResponse>(ui, 'learn', { name: 'tags', multiple: true, examples: [{ key: second.file, nodes: items.slice(0, 2) }] });
    assert.equal(tags.pattern.multiple, true);
    const isbn: PatternDraft = { name: 'isbn', selector: 'p.isbn', multiple: false, value: 'text', parent: null };
    const r = await post<PreviewResponse>(ui, 'preview', { method: 'none', key: second.file, patterns: [tags.pattern, isbn] });
    assert.deepEqual(table(r, 'tags'), Object.fromEntries(BOOKS.map((b) => [b.file, { values: b.tags, notFound: null }])));
    assert.deepEqual(table(r, 'isbn'), Object.fromEntries(BOOKS.map((b) => [b.file, b.isbn ? { values: [b.isbn], notFound: null } : { values: [], notFound: 'absent' }])));
  });
});

test('learn: a request that is not one is refused with 400 and the reason', async () => {
  await withShop(async (ui) => {
    const [a1] = await framed(ui, first.file, '.product-author a');
    const items = await framed(ui, second.file, 'ul.tags li');
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'author', examples: [] }, /examples/],
      [{ name: 'author', examples: 'x' }, /examples/],
      [{ name: 'author', examples: [{ key: first.file, nodes: ['3'] }] }, /examples\.0\.nodes\.0/],
      [{ name: 'author', examples: [{ key: first.file, nodes: [] }] }, /examples\.0\.nodes/],
      [{ name: '', examples: [{ key: first.file, nodes: [a1] }] }, /name/],
      [{ name: 'author', multiple: 'no', examples: [{ key: first.file, nodes: [a1] }] }, /multiple/],
      [{ name: 'author', examples: [{ key: 'nope.html', nodes: [a1] }] }, /no page nope\.html/],
      [{ name: 'author', examples: [{ key: first.file, nodes: [1e6] }] }, /not an element/],
      [{ name: 'author', examples: [{ key: second.file, nodes: items.slice(0, 2) }] }, /one example per page/],
      [{ name: 'author', examples: [{ key: first.file, nodes: [a1] }, { key: first.file, nodes: [a1] }] }, /given twice/],
    ];
    const problems: string[] = [];
    for (const [body, why] of cases) {
      const r = await raw(ui, '/api/learn', { ...own(ui, true), 'content-type': 'application/json' }, 'POST', JSON.stringify(body));
      const error = r.status === 400 ? String((JSON.parse(r.body) as { error?: unknown }).error) : '';
      if (r.status !== 400 || !why.test(error)) problems.push(`${JSON.stringify(body)}: ${r.status} ${r.body.slice(0, 200)}`);
    }
    assert.deepEqual(problems, []);
  });
});
