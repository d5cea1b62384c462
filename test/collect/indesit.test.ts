import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indesit } from '../../src/collect/indesit.ts';
import { MemorySource, productKey, shopSite } from './fixture-site.ts';

test('INDESIT collects exactly the product pages of the fixture shop, from any product', async () => {
  const { files, products } = shopSite();
  const results: string[][] = [];
  for (const sample of [productKey('chairs', 0), productKey('tables', 5), productKey('lamps', 7)]) {
    const source = new MemorySource(files);
    const r = await indesit(source, sample);
    const got = r.pages.map((p) => p.key).sort();
    assert.deepEqual(got, [...products].sort(), `from ${sample}`);
    assert.ok(r.complete);
    assert.equal(r.downloads, source.loaded, 'every download counted');
    assert.ok(r.downloads < files.size + 1);
    assert.ok(r.indexPath.length > 0, 'an index cluster was followed');
    results.push(got);
  }
  assert.deepEqual(results[1], results[0]);
  assert.deepEqual(results[2], results[0]);
});

test('INDESIT collects the listing pages from one listing page', async () => {
  const { files, listings } = shopSite();
  const r = await indesit(new MemorySource(files), 'tables/2.html');
  assert.deepEqual(r.pages.map((p) => p.key).sort(), [...listings].sort());
});

test('a sample outside the source is a usage error; a missing sample a page error', async () => {
  const { files } = shopSite();
  await assert.rejects(indesit(new MemorySource(files), 'http://elsewhere.test/x.html'), { name: 'UsageError' });
  await assert.rejects(indesit(new MemorySource(files), 'nope.html'), { name: 'PageError' });
});

test('the download budget stops the run and says so', async () => {
  const { files } = shopSite();
  const r = await indesit(new MemorySource(files), productKey('chairs', 0), { maxDownloads: 5 });
  assert.equal(r.complete, false);
  assert.equal(r.downloads, 5);
});
