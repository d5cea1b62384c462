import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../../src/html/parse.ts';
import { SqlPageletStore } from '../../../src/template/pagelets/global.ts';
import { detectLocal } from '../../../src/template/pagelets/local.ts';
import { detectGlobalInMemory } from '../../../src/template/pagelets/memory.ts';
import { analyseTree, marksFromPagelets, type PageRecord } from '../../../src/template/pagelets/page-analysis.ts';
import { templateFraction } from '../../../src/template/result.ts';
import { PageletTables } from '../../../src/template/pagelets/tables.ts';
import { type Detection, supportThreshold } from '../../../src/template/pagelets/detection.ts';
import { PAGELET_OPTIONS } from '../../../src/template/pagelets/options.ts';
import { syntheticSite, ROOT } from './fixtures.ts';

function records(pages: Record<string, string>): PageRecord[] {
  return Object.entries(pages).map(([key, html]) => analyseTree(parseHtml(html), key, ROOT + key));
}
function tablesOf(recs: PageRecord[]): PageletTables {
  const t = new PageletTables();
  for (const r of recs) t.add(r);
  return t;
}
const noSupport = { minSupport: 0 };

test('global algorithm: the shared menu, footer and sidebar are templates, articles are not', () => {
  const recs = records(syntheticSite(12));
  const d = detectGlobalInMemory(tablesOf(recs), noSupport);
  // page 0 has menu, sidebar, footer → their pagelets are template; its article paragraphs are not.
  const tree = parseHtml(syntheticSite(12)['page-0.html']!);
  const rec = recs[0]!;
  const tpl = new Set(Array.from(d.templateOrdinals(0), (o) => tree.tag(rec.pagelets[o]!)));
  assert.ok(tpl.has('ul') || tpl.has('nav') || tpl.has('header'), `template tags ${[...tpl]}`);
  assert.ok(tpl.has('footer') || tpl.has('p'), `template tags ${[...tpl]}`);
  const main = tree.find('main');
  for (const o of d.templateOrdinals(0)) assert.ok(!tree.contains(main, rec.pagelets[o]!), 'an article pagelet was marked template');
  assert.ok(d.templates.length >= 2);
});

test('Definition 4 (2): equal pagelets on pages that do not link together are not one template', () => {
  // two islands of 3 pages each, linked inside an island only, sharing one identical box
  const box = '<div class="box"><a href="x1">X1</a> <a href="x2">X2</a> <a href="x3">X3</a></div>';
  const page = (links: string[], text: string): string =>
    `<html><body>${box}<p>${text}</p><div>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</div></body></html>`;
  const pages: Record<string, string> = {
    'a1.html': page(['a2.html', 'a3.html', 'zz'], 'first unique words here'),
    'a2.html': page(['a3.html', 'zz', 'yy'], 'second set of unique words'),
    'a3.html': page(['a1.html', 'zz', 'yy'], 'third group of words now'),
    'b1.html': page(['b2.html', 'zz', 'yy'], 'fourth sentence with content'),
    'b2.html': page(['b1.html', 'zz', 'yy'], 'fifth paragraph that differs'),
    'c1.html': page(['zz', 'yy', 'ww'], 'sixth lonely page linking nowhere'),
  };
  const recs = records(pages);
  const g = detectGlobalInMemory(tablesOf(recs), noSupport);
  const boxShingle = recs[0]!.shingles[0]!;
  const boxTemplates = g.templates.filter((t) => t.shingle === boxShingle);
  assert.deepEqual(boxTemplates.map((t) => Array.from(t.pages!)), [[0, 1, 2], [3, 4]]);
  assert.equal(g.templateOrdinals(5).length, 0, 'the unlinked page has no template pagelet in the global algorithm');
  // the local algorithm (Figure 4) ignores links: one group of all six
  const l = detectLocal(tablesOf(recs), noSupport);
  assert.deepEqual(Array.from(l.templates.find((t) => t.shingle === boxShingle)!.pages!), [0, 1, 2, 3, 4, 5]);
  assert.ok(l.templateOrdinals(5).length >= 1);
});

test('exact duplicate pages are eliminated and share their original marks', () => {
  const site = syntheticSite(6);
  site['copy.html'] = site['page-3.html']!;
  const recs = records(site);
  const d = detectGlobalInMemory(tablesOf(recs), noSupport);
  assert.equal(d.counts.pages, 7);
  assert.equal(d.counts.uniquePages, 6);
  assert.deepEqual(Array.from(d.templateOrdinals(6)), Array.from(d.templateOrdinals(3)));
  // without the copy being eliminated, its article would be a template with page-3 (they are identical)
  const local = detectLocal(tablesOf(recs), noSupport);
  const main = parseHtml(site['page-3.html']!).find('main');
  for (const o of local.templateOrdinals(3)) assert.ok(!parseHtml(site['page-3.html']!).contains(main, recs[3]!.pagelets[o]!));
});

test('the SQL path (DuckDB) gives the same templates and marks as the in-memory path', async () => {
  const site = syntheticSite(30, { sidebarOn: (i) => i % 3 !== 0 });
  site['dup.html'] = site['page-4.html']!;
  const recs = records(site);
  for (const options of [noSupport, { minSupport: 0.2 }]) {
    const mem = detectGlobalInMemory(tablesOf(recs), options);
    const store = await SqlPageletStore.open({ chunkRows: 7 });
    try {
      for (const r of recs) store.add(r);
      const sql = await store.detect(options);
      const norm = (d: typeof mem): string[] => d.templates.map((t) => `${t.shingle}:${Array.from(t.pages ?? []).join(',')}`);
      assert.ok(mem.templates.length > 0);
      assert.deepEqual(norm(sql), norm(mem));
      assert.deepEqual(await nodeRanges(sql), await nodeRanges(mem));
      for (let p = 0; p < recs.length; p++) {
        assert.deepEqual(Array.from(sql.templateOrdinals(p)), Array.from(mem.templateOrdinals(p)), `page ${p}`);
        assert.equal(sql.templateFraction(p), mem.templateFraction(p), `page ${p} fraction`);
      }
      assert.deepEqual(
        { ...sql.counts, links: 0 },
        { ...mem.counts, links: 0 },
      );
      // without page lists (large runs), the same components by shingle and size
      const bare = await SqlPageletStore.open({ chunkRows: 11 });
      try {
        for (const r of recs) bare.add(r);
        const d = await bare.detect({ ...options, listPages: false });
        const sizes = (x: typeof mem): string[] => x.templates.map((t) => `${t.shingle}:${t.size}`).sort();
        assert.deepEqual(sizes(d), sizes(mem));
        assert.ok(d.templates.every((t) => t.pages === undefined));
      } finally {
        bare.close();
      }
    } finally {
      store.close();
    }
  }
});

test('page order does not change the templates', () => {
  const site = syntheticSite(10);
  const recs = records(site);
  const a = detectGlobalInMemory(tablesOf(recs), noSupport);
  const b = detectGlobalInMemory(tablesOf(recs.slice().reverse()), noSupport);
  const set = (d: typeof a, ids: (p: number) => string): string[] =>
    d.templates.map((t) => `${t.shingle}:${Array.from(t.pages ?? [], ids).sort().join(',')}`).sort();
  assert.deepEqual(set(a, (p) => recs[p]!.key), set(b, (p) => recs[recs.length - 1 - p]!.key));
});

test('union-find grows as elements are added and empties for the next group', async () => {
  const { UnionFind } = await import('../../../src/structure/union-find.ts');
  const uf = new UnionFind();
  for (let i = 0; i < 100; i++) assert.equal(uf.add(), i);
  for (let i = 0; i + 2 < 100; i += 2) uf.union(i, i + 2); // evens in one component, odds alone
  assert.equal(uf.find(98), uf.find(0));
  assert.notEqual(uf.find(1), uf.find(3));
  assert.equal(uf.count, 100);
  uf.clear();
  assert.equal(uf.count, 0);
  assert.equal(uf.add(), 0);
  assert.equal(uf.find(0), 0);
  const fixed = new UnionFind(5);
  assert.equal(fixed.count, 5);
  fixed.union(4, 0);
  assert.equal(fixed.find(0), fixed.find(4));
});

/** Every page's template node ranges, as `eachTemplateNodes` streams them. */
async function nodeRanges(d: Detection): Promise<number[][]> {
  const out: number[][] = [];
  await d.eachTemplateNodes((page, start, count) => {
    assert.equal(page, out.length, 'pages come in id order, each once');
    out.push([...Array.from(start), -1, ...Array.from(count)]);
  });
  return out;
}

test('marks and template fractions known without the tree agree with marking the parsed page', async () => {
  const site = syntheticSite(12, { sidebarOn: (i) => i % 2 === 0 });
  site['dup.html'] = site['page-5.html']!.replace('<body>', '<body>\n  ');
  const recs = records(site);
  const htmls = Object.values(site);
  const store = await SqlPageletStore.open({ chunkRows: 5 });
  for (const r of recs) store.add(r);
  const sql = await store.detect(noSupport);
  const mem = detectGlobalInMemory(tablesOf(recs), noSupport);
  assert.deepEqual(await nodeRanges(sql), await nodeRanges(mem), 'SQL and in-memory node ranges');
  assert.equal(sql.counts.uniquePages, recs.length - 1, 'dup.html is a duplicate (blank text is no token)');
  const dup = recs.length - 1;
  assert.notDeepEqual(Array.from(recs[dup]!.pagelets), Array.from(recs[5]!.pagelets), 'its pagelets sit at other nodes');
  for (const d of [mem, detectLocal(tablesOf(recs), noSupport), sql]) {
    let some = 0;
    const ranges = await nodeRanges(d);
    assert.equal(ranges.length, recs.length);
    for (let p = 0; p < recs.length; p++) {
      const tree = parseHtml(htmls[p]!);
      const ords = d.templateOrdinals(p);
      const marks = marksFromPagelets(tree, recs[p]!.pagelets, ords);
      const fromNodes = new Uint8Array(tree.size);
      const r = ranges[p]!;
      const k = r.indexOf(-1);
      for (let j = 0; j < k; j++) fromNodes.fill(1, r[j]!, r[j]! + r[k + 1 + j]!);
      assert.deepEqual(fromNodes, marks, `page ${p}: node ranges are the marks`);
      const expected = templateFraction({ key: '', url: '', tree, template: marks });
      assert.ok(Math.abs(d.templateFraction(p) - expected) < 1e-12, `page ${p}: ${d.templateFraction(p)} vs ${expected}`);
      if (expected > 0) some++;
    }
    assert.ok(some >= 10, `${d.algorithm}: pages with template text ${some}`);
  }
  store.close();
  await assert.rejects(sql.eachTemplateNodes(() => undefined), /closed/);
});

test('supportThreshold: without options, the support the pagelets engine defaults to', () => {
  const d = PAGELET_OPTIONS.defaults();
  for (const n of [1, 10, 35, 100, 1000]) {
    assert.equal(supportThreshold(n), supportThreshold(n, { minPages: d.minPages, minSupport: d.minSupport, supportCap: d.supportCap }), `${n} pages`);
  }
});
