/**
 * The DuckDB store: pages and links round-trip, batches through the appender, SQL access for engines,
 * and a crawl that resumes from the store without downloading again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/site/store.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import { serveDirectory } from '../../src/site/serve.ts';
import { FIXTURE_KEYS, FIXTURE_SITE, fixtureBytes } from '../site/page-source-suite.ts';

test('pages and links round-trip; batches replace by URL; SQL helpers reach the tables', async () => {
  const store = await Store.open(':memory:');
  try {
    const body = new Uint8Array([0x3c, 0x70, 0x3e, 0x00, 0xff]);
    await store.putPage({ url: 'http://h.invalid/a.html', key: 'a.html', status: 200, headers: { 'content-type': 'text/html' }, body });
    const got = await store.getPage('http://h.invalid/a.html');
    assert.deepEqual(got, { url: 'http://h.invalid/a.html', key: 'a.html', status: 200, headers: { 'content-type': 'text/html' }, body, origin: 'store' });
    assert.equal(await store.hasPage('http://h.invalid/b.html'), false);
    assert.equal(await store.getPage('http://h.invalid/b.html'), undefined);

    const n = await store.putPages([
      { url: 'http://h.invalid/a.html', key: 'a.html', status: 200, headers: {}, body: new Uint8Array([1]) },
      { url: 'http://h.invalid/b.html', key: 'b.html', status: 200, headers: {}, body: new Uint8Array([2]) },
      { url: 'http://h.invalid/b.html', key: 'b.html', status: 200, headers: {}, body: new Uint8Array([3]) },
    ]);
    assert.equal(n, 3);
    assert.equal(await store.pageCount(), 2);
    assert.deepEqual((await store.getPage('http://h.invalid/a.html'))?.body, new Uint8Array([1]));
    assert.deepEqual((await store.getPage('http://h.invalid/b.html'))?.body, new Uint8Array([3]), 'the later duplicate wins');

    await store.putLinks('http://h.invalid/a.html', ['http://h.invalid/b.html', 'http://h.invalid/c.html']);
    await store.putLinks('http://h.invalid/a.html', ['http://h.invalid/b.html']);
    assert.deepEqual(await store.linksOf('http://h.invalid/a.html'), ['http://h.invalid/b.html'], 'links of a page are replaced');

    await store.run('CREATE TABLE shingles (url VARCHAR, shingle UBIGINT)');
    await store.run('INSERT INTO shingles VALUES ($1, $2), ($1, $3)', ['http://h.invalid/a.html', 7n, 9n]);
    const rows = await store.all<{ url: string; n: bigint }>('SELECT url, count(*) AS n FROM shingles GROUP BY url');
    assert.deepEqual(rows, [{ url: 'http://h.invalid/a.html', n: 2n }]);
    assert.ok(store.connection, 'the connection is exposed');
  } finally {
    await store.close();
  }
});

test('a crawl with a store resumes: the second run downloads 0 pages and gives the same pages', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-store-'));
  const served = await serveDirectory(FIXTURE_SITE);
  try {
    const dbPath = join(dir, 'crawl.duckdb');
    const crawl = async (): Promise<{ loaded: number; pages: Map<string, Uint8Array>; origins: Set<string> }> => {
      const store = await Store.open(dbPath);
      const s = new HttpSource(served.url, { delayMs: 0, retries: 0, store });
      const pages = new Map<string, Uint8Array>();
      const origins = new Set<string>();
      for await (const r of s.pages()) {
        if (!r.ok) continue;
        pages.set(r.page.key, r.page.body);
        origins.add(r.page.origin);
      }
      await s.close();
      const loaded = s.loaded;
      assert.equal(await store.pageCount(), FIXTURE_KEYS.length);
      await store.close();
      return { loaded, pages, origins };
    };
    const first = await crawl();
    assert.equal(first.loaded, FIXTURE_KEYS.length);
    assert.deepEqual([...first.origins], ['http']);
    const second = await crawl();
    assert.equal(second.loaded, 0, 'nothing downloaded on resume');
    assert.deepEqual([...second.origins], ['store']);
    assert.deepEqual([...second.pages.keys()].sort(), FIXTURE_KEYS);
    for (const [k, b] of second.pages) assert.deepEqual(b, fixtureBytes(k));
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
