/**
 * Page caps are never silent: a cap of the source itself (a view's limit, a crawl's maxPages) that leaves
 * pages out is kept in the source's `cut`; a smaller maxPages a caller gives `pages()` is the caller's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitPages } from '../../src/run/source.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import { MemorySource } from '../../src/site/memory-source.ts';
import type { PageCut, PageSource } from '../../src/site/page.ts';
import { serveDirectory } from '../../src/site/serve.ts';

async function count(source: PageSource, maxPages?: number): Promise<number> {
  let n = 0;
  for await (const _ of source.pages(maxPages === undefined ? {} : { maxPages })) n++;
  return n;
}

const page = (i: number): string => `<!doctype html><html><head><title>P${i}</title></head><body><p>Page ${i}</p><a href="p${i + 1}.html">next</a> <a href="p${i + 2}.html">after</a></body></html>`;

test('a limited view keeps its cut; a caller asking for fewer pages cuts nothing of it', async () => {
  const pages = Array.from({ length: 5 }, (_, i) => ({ key: `p${i}.html`, body: page(i) }));
  const asked = limitPages(new MemorySource(pages), 3);
  assert.equal(await count(asked, 2), 2);
  assert.equal(asked.cut, undefined, "the caller's own maxPages");
  assert.equal(await count(asked), 3);
  assert.deepEqual(asked.cut, { maxPages: 3, left: 2 });
  const whole = limitPages(new MemorySource(pages), Infinity);
  assert.equal(await count(whole), 5);
  assert.equal(whole.cut, undefined);
});

test("a crawl's own maxPages that leaves addresses unloaded is its cut", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-cut-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'site'));
  await writeFile(join(dir, 'site', 'index.html'), page(-1));
  for (let i = 0; i < 6; i++) await writeFile(join(dir, 'site', `p${i}.html`), page(i));
  const served = await serveDirectory(join(dir, 'site'), { port: 0 });
  t.after(() => served.close());
  const small = new HttpSource(served.url, { maxPages: 2, delayMs: 0 });
  t.after(() => small.close());
  assert.equal(await count(small, 1), 1);
  assert.equal(small.cut, undefined, "the caller's own maxPages");
  assert.equal(await count(small), 2);
  const cut = small.cut as PageCut | undefined;
  assert.equal(cut?.maxPages, 2);
  assert.ok((cut?.left ?? 0) >= 1);
  const all = new HttpSource(served.url, { maxPages: 100, delayMs: 0 });
  t.after(() => all.close());
  assert.equal(await count(all), 9, 'seven pages and the two missing ones the last page links to');
  assert.equal(all.cut, undefined);
});
