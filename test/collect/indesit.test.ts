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

test('one odd page (the 26th) in an index of 30 does not hide the index (strayShare); the paper\'s rule (0) loses it', async () => {
  const files = new Map<string, string>();
  const n = 30;
  const items = Array.from({ length: n }, (_, i) => `<li><a href="/item-${i}.html">item ${i}</a></li>`).join('');
  files.set('index.html', `<html><body><div class="menu"><a href="/index.html">Home</a></div><ul class="items">${items}</ul></body></html>`);
  for (let i = 0; i < n; i++) {
    const body =
      i === 25
        ? '<table><tr><td><a href="/index.html">back</a></td></tr></table>' // the odd one: another structure
        : `<div class="menu"><a href="/index.html">Home</a></div><h1>item ${i}</h1>`;
    files.set(`item-${i}.html`, `<html><body>${body}</body></html>`);
  }
  const odd = 'item-25.html';
  const tolerant = await indesit(new MemorySource(files), 'item-3.html');
  const got = tolerant.pages.map((p) => p.key);
  assert.equal(got.length, n - 1);
  assert.ok(!got.includes(odd));
  const paper = await indesit(new MemorySource(files), 'item-3.html', { strayShare: 0 });
  assert.ok(paper.pages.length < n - 1, `paper's rule: ${paper.pages.length} pages`);
});
