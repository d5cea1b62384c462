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

/**
 * A documentation site of eight sections, each page carrying the whole menu (one list per section, the
 * current section's open): the sections are told apart by which list is open, as on MkDocs sites.
 */
function sectionSite(): { files: Map<string, string>; section: (s: string) => string[] } {
  const sections = { guide: 12, api: 20, news: 12, faq: 8, howto: 14, blog: 16, team: 6, misc: 10 } as const;
  const files = new Map<string, string>();
  const prose = 'This paragraph of the page is long enough to be running text of its article. '.repeat(3);
  const page = (open: string, current: string, article: string): string => {
    const menu = Object.entries(sections)
      .map(([s, n]) => `<li class="sec"><nav aria-labelledby="${s}" data-open="${s === open}"${s === open ? ' class="open"' : ''}><ul class="sub">${Array.from({ length: n }, (_, i) => `<li${`${s}/p${i}.html` === current ? ' class="active"' : ''}><a href="/${s}/p${i}.html">${s} ${i}</a></li>`).join('')}</ul></nav></li>`)
      .join('');
    const tabs = Object.keys(sections).map((s) => `<a href="/${s}/p0.html">${s}</a>`).join('');
    return `<html><body><header class="top"><a href="/index.html">Home</a><nav class="tabs">${tabs}</nav></header><div class="side"><ul class="menu">${menu}</ul></div><main><article>${article}</article></main></body></html>`;
  };
  const cards = Object.keys(sections).map((s) => `<div class="card"><a href="/${s}/p0.html">${s}</a></div>`).join('');
  files.set('index.html', `<html><body><header class="top"><a href="/index.html">Home</a></header><section class="hero"><h1>Docs</h1><p>${prose}</p></section><div class="cards">${cards}</div></body></html>`);
  for (const [s, n] of Object.entries(sections)) for (let i = 0; i < n; i++) files.set(`${s}/p${i}.html`, page(s, `${s}/p${i}.html`, i === 0 ? `<h1>${s} ${i}</h1>` : `<h1>${s} ${i}</h1><p>${prose}</p>`));
  return { files, section: (s) => [...files.keys()].filter((k) => k.startsWith(s + '/')).sort() };
}

test('a section told apart by its open menu is collected within 1.5 downloads per page, from any of its pages', async () => {
  const { files, section } = sectionSite();
  const api = section('api');
  for (const sample of [api[0]!, api[5]!, api[api.length - 1]!]) {
    const source = new MemorySource(files);
    const r = await indesit(source, sample);
    assert.deepEqual(r.pages.map((p) => p.key).sort(), api, `from ${sample}`);
    assert.ok(r.downloads <= 1.5 * api.length, `from ${sample}: ${r.downloads} downloads for ${api.length} pages`);
  }
});
