import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkPriorities, TemplateAwarePriority } from '../../src/analysis/crawl-priority.ts';
import { parseHtml } from '../../src/html/parse.ts';

test('links found only in template pagelets get the lower priority', () => {
  const p = linkPriorities(Int32Array.from([0, 0, 1, -1]), ['a', 'b', 'a', 'c'], Uint8Array.from([1, 0]));
  const by = new Map(p.map((l) => [l.url, l]));
  assert.equal(by.get('a')!.priority, 1, 'a is also in a content pagelet');
  assert.equal(by.get('b')!.templateOnly, true);
  assert.equal(by.get('b')!.priority, 0.25);
  assert.equal(by.get('c')!.priority, 1);
});

test('TemplateAwarePriority learns the menu while crawling and lowers its links', () => {
  const menu = '<ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li><li><a href="/c">C</a></li></ul>';
  const page = (i: number): string =>
    `<html><body><nav>${menu}</nav><article><p>Story ${'abcdefgh'[i]} text</p><p>Read <a href="/story-${i + 1}">the next ${'abcdefgh'[i]}</a> and <a href="/b">b</a></p></article></body></html>`;
  const prio = new TemplateAwarePriority({ minPages: 3 });
  const first = prio.observe(parseHtml(page(0)), 'http://s.test/story-0');
  assert.ok(first.every((l) => l.priority === 1), 'nothing is known to be template on the first page');
  prio.observe(parseHtml(page(1)), 'http://s.test/story-1');
  const third = new Map(prio.observe(parseHtml(page(2)), 'http://s.test/story-2').map((l) => [l.url, l.priority]));
  assert.equal(third.get('http://s.test/a'), 0.25);
  assert.equal(third.get('http://s.test/b'), 1, 'also linked from the article');
  assert.equal(third.get('http://s.test/story-3'), 1);
});

test('the crawler with the template-aware priority fetches content links before links found only in template pagelets', async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { serveDirectory } = await import('../../src/site/serve.ts');
  const { HttpSource } = await import('../../src/site/http-source.ts');
  // Articles form a ternary tree through content links. Every page has the same bar "Home | Archive |
  // Next" whose "Next" target is a page of its own (x-<i>.html, linked from nowhere else): the bar's
  // shingle is the same everywhere (link targets are not tokens), so after a few pages it is template.
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-priority-'));
  const articles = 40;
  const words = (i: number): string => Array.from({ length: 12 }, (_, k) => `w${(i * 7 + k * 13) % 97}`).join(' ');
  const page = (name: string, i: number, kids: number[]): string =>
    `<html><body><div class="bar"><a href="index.html">Home</a> | <a href="archive.html">Archive</a> | <a href="x-${i}.html">Next</a></div>` +
    `<main><h1>${name}</h1><p>${words(i)}</p><ul>${kids.map((k) => `<li><a href="a-${k}.html">Article ${k}: ${words(k).slice(0, 20)}</a></li>`).join('')}</ul></main></body></html>`;
  const kids = (i: number): number[] => [3 * i + 1, 3 * i + 2, 3 * i + 3].filter((k) => k < articles);
  writeFileSync(join(dir, 'index.html'), page('Home', 0, [0]));
  writeFileSync(join(dir, 'archive.html'), page('Archive', 1000, []));
  for (let i = 0; i < articles; i++) writeFileSync(join(dir, `a-${i}.html`), page(`Article ${i}`, i + 1, kids(i)));
  for (let i = 0; i <= articles + 1000; i++) writeFileSync(join(dir, `x-${i}.html`), `<html><body><p>extra ${i}</p></body></html>`);
  const served = await serveDirectory(dir);
  const order = async (withPriority: boolean): Promise<string[]> => {
    const prio = new TemplateAwarePriority({ minPages: 3 });
    const source = new HttpSource(served.url + 'index.html', { delayMs: 0, concurrencyPerHost: 8, retries: 0, ...(withPriority ? { linkPriority: prio.linkPriority } : {}) });
    const keys: string[] = [];
    try {
      for await (const r of source.pages()) if (r.ok) keys.push(r.page.key);
    } finally {
      await source.close();
    }
    return keys;
  };
  try {
    const plain = await order(false);
    const prioritised = await order(true);
    assert.deepEqual([...prioritised].sort(), [...plain].sort(), 'the same pages are crawled');
    const extrasAmongFirst = (keys: string[]): number => keys.slice(0, articles + 2).filter((k) => k.startsWith('x-')).length;
    // breadth-first, a bar's target comes right after its page's articles; prioritised, only the targets
    // found before the bar is known as template (and those the fetch window takes) come early
    // (measured: 15 breadth-first, 5 prioritised)
    assert.ok(extrasAmongFirst(plain) >= 10, `breadth-first: ${extrasAmongFirst(plain)} extras among the first pages`);
    assert.ok(extrasAmongFirst(prioritised) <= 6, `prioritised: ${extrasAmongFirst(prioritised)} extras among the first pages`);
    const lastArticle = (keys: string[]): number => keys.reduce((m, k, j) => (k.startsWith('a-') ? j : m), -1);
    assert.ok(lastArticle(prioritised) + 8 <= lastArticle(plain), `the last article comes at ${lastArticle(prioritised)}, not ${lastArticle(plain)}`);
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
