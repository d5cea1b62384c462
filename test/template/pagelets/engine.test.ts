import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelTable } from '../../../src/html/labels.ts';
import { loadEngine } from '../../../src/template/engines.ts';
import type { EngineContext } from '../../../src/template/engine.ts';
import { keptText, type PageMarks } from '../../../src/template/result.ts';
import { memorySource, syntheticSite } from './fixtures.ts';

async function run(pages: Record<string, string>, options: Record<string, unknown>): Promise<{ marks: Map<string, PageMarks>; extra: Map<string, Record<string, unknown>>; run: Awaited<ReturnType<Awaited<ReturnType<typeof loadEngine>>['run']>> }> {
  const engine = await loadEngine('pagelets');
  const marks = new Map<string, PageMarks>();
  const extra = new Map<string, Record<string, unknown>>();
  const failures: string[] = [];
  const ctx: EngineContext = {
    source: memorySource(pages),
    labels: new LabelTable(),
    options,
    onPage: async (m, e) => {
      marks.set(m.key, m);
      extra.set(m.key, e ?? {});
    },
    onFailure: (f) => failures.push(f.message),
  };
  const r = await engine.run(ctx);
  assert.deepEqual(failures, []);
  return { marks, extra, run: r };
}

test('pagelets engine (global, SQL): template text is dropped, article text kept, every page reported', async () => {
  const site = syntheticSite(16);
  const { marks, extra, run: r } = await run(site, { global: true, workers: 0 });
  assert.equal(marks.size, 16);
  const kept = keptText(marks.get('page-2.html')!);
  assert.ok(!kept.includes('Copyright Example Corp'), kept);
  assert.ok(!kept.includes('Section 3'), kept);
  assert.ok(kept.includes('Title'), kept);
  assert.ok((extra.get('page-2.html')!['templatePagelets'] as number) > 0);
  const tpl = r.template as { data: { algorithm: string; shingles: number[] }; about: { templates: unknown[] } };
  assert.equal(tpl.data.algorithm, 'global');
  assert.ok(tpl.about.templates.length >= 2);
  assert.ok(tpl.data.shingles.length >= 2);
});

test('worker threads give the same marks as the main thread', async () => {
  const site = syntheticSite(70);
  const inline = await run(site, { global: true, workers: 0, backend: 'memory' });
  const pooled = await run(site, { global: true, workers: 2, backend: 'sql', keepTreesUpTo: 10 });
  assert.equal(pooled.marks.size, 70);
  for (const [key, m] of inline.marks) {
    const p = pooled.marks.get(key)!;
    assert.deepEqual(Array.from(p.template), Array.from(m.template), key);
    assert.equal(keptText(p), keptText(m), key);
    assert.equal(p.tree.body(), m.tree.body());
  }
  // pools replaced every 16 pages in both phases (past the 48 pages analysed inline): the same marks again
  const recycled = await run(site, { global: true, workers: 2, backend: 'sql', keepTreesUpTo: 10, workerRecycle: 16 });
  assert.equal(recycled.marks.size, 70);
  for (const [key, m] of inline.marks) assert.deepEqual(Array.from(recycled.marks.get(key)!.template), Array.from(m.template), key);
});

test('local algorithm (Figure 4) runs without links', async () => {
  const site = syntheticSite(5);
  const { marks, run: r } = await run(site, { workers: 0 });
  assert.equal((r.template as { data: { algorithm: string } }).data.algorithm, 'local');
  assert.ok(!keptText(marks.get('page-4.html')!).includes('Copyright'));
});

test('shingles do not depend on the thread (tag ids are interned per thread in first-seen order)', async () => {
  const { PageletPool } = await import('../../../src/template/pagelets/workers.ts');
  const { analyseTree, parseBytes, pageletLabels } = await import('../../../src/template/pagelets/page-analysis.ts');
  const { parseHtml } = await import('../../../src/html/parse.ts');
  // intern tags in this thread in an order the worker will not see
  parseHtml('<html><body><x-zeta></x-zeta><x-alpha></x-alpha><x-beta></x-beta></body></html>');
  const body = new TextEncoder().encode('<html><body><x-beta><p>same words here</p></x-beta><x-alpha>other block</x-alpha><x-zeta>third</x-zeta></body></html>');
  const here = analyseTree(parseBytes(body, undefined, 'k.html', pageletLabels()), 'k.html', 'http://s.test/k.html');
  const pool = new PageletPool(1);
  try {
    const page = { body, contentType: undefined, key: 'k.html', url: 'http://s.test/k.html' };
    const batch = await pool.analyse([page, { ...page, body: new Uint8Array(0), key: 'empty.html' }, page], {});
    assert.equal(batch.count, 3);
    assert.deepEqual(batch.error, [null, null, null]);
    assert.deepEqual(Array.from(batch.shingles.subarray(batch.pageletStart[0], batch.pageletStart[1])), Array.from(here.shingles));
    assert.deepEqual(Array.from(batch.shingles.subarray(batch.pageletStart[2], batch.pageletStart[3])), Array.from(here.shingles));
    assert.equal(batch.fingerprint[0], here.fingerprint);
  } finally {
    await pool.close();
  }
});

test('batches sent one after another in the buffers the worker gives back: each analysed as alone, larger or smaller', async () => {
  const { PageletPool } = await import('../../../src/template/pagelets/workers.ts');
  const { analyseTree, parseBytes, pageletLabels } = await import('../../../src/template/pagelets/page-analysis.ts');
  // pages of very different sizes, so that a later batch lands in a buffer that held a larger one
  const page = (i: number, words: number): { body: Uint8Array; contentType: undefined; key: string; url: string } => ({
    body: new TextEncoder().encode(`<html><body><nav><a href="/a">A</a><a href="/${i}">${i}</a></nav><main><p>${Array.from({ length: words }, (_, w) => `w${(w * 7 + i) % 997}`).join(' ')}</p></main></body></html>`),
    contentType: undefined,
    key: `p${i}.html`,
    url: `http://s.test/p${i}.html`,
  });
  const batches = [[page(0, 90_000), page(1, 60_000)], [page(2, 20), page(3, 5)], [page(4, 300_000)], [page(5, 1)]];
  const pool = new PageletPool(1);
  try {
    for (const pages of batches) {
      const batch = await pool.analyse(pages, {});
      assert.deepEqual(batch.error, pages.map(() => null));
      for (const [j, p] of pages.entries()) {
        const here = analyseTree(parseBytes(p.body, undefined, p.key, pageletLabels()), p.key, p.url);
        assert.deepEqual(Array.from(batch.shingles.subarray(batch.pageletStart[j], batch.pageletStart[j + 1])), Array.from(here.shingles), p.key);
        assert.equal(batch.fingerprint[j], here.fingerprint, p.key);
        assert.equal(batch.bodyChars[j], here.bodyChars, p.key);
      }
    }
  } finally {
    await pool.close();
  }
});

test('a tree moved from a worker (marking pass) is the tree parsed here, attributes and text included', async () => {
  const { PageletPool } = await import('../../../src/template/pagelets/workers.ts');
  const { parseBytes, pageletLabels } = await import('../../../src/template/pagelets/page-analysis.ts');
  const { partition } = await import('../../../src/template/pagelets/partition.ts');
  const html = '<html><body><nav><a href="/a" class="x">A</a><a href="/b">B &amp; C</a><a href="/c" data-k="">C</a></nav><main id="m"><p>caf\u00e9 text</p><img alt="" src="i.png"></main></body></html>';
  const body = new TextEncoder().encode(html);
  const here = parseBytes(body, undefined, 'k.html', pageletLabels());
  const pool = new PageletPool(1);
  try {
    const page = { body, contentType: undefined, key: 'k.html', url: 'http://s.test/k.html' };
    const [m] = await pool.mark([page], [new Int32Array([0])], { k: 3 });
    assert.ok(m && !(m instanceof Error));
    const t = m.tree;
    assert.equal(t.size, here.size);
    for (let i = 0; i < t.size; i++) {
      assert.equal(t.tag(i), here.tag(i), `tag of node ${i}`);
      assert.deepEqual(t.attrs(i), here.attrs(i), `attributes of node ${i}`);
      assert.equal(t.nodeText(i), here.nodeText(i), `text of node ${i}`);
      assert.equal(t.end[i], here.end[i]);
    }
    const first = partition(here, { k: 3 })[0]!;
    assert.deepEqual(Array.from(m.marks), Array.from({ length: here.size }, (_, i) => (i >= first && i < here.end[first]! ? 1 : 0)));
  } finally {
    await pool.close();
  }
});

test('pass 1 keeps its worker threads for the next source when asked (replaced after workerRecycle pages), with the same records', async () => {
  const { KeptWorkers, passOne, runOptions } = await import('../../../src/template/pagelets/engine.ts');
  // more pages than pass 1 parses inline before it starts workers
  const siteA = syntheticSite(90);
  const siteB = Object.fromEntries(Object.entries(syntheticSite(70)).map(([k, v]) => [`b/${k}`, v.replace(/Section/g, 'Part')]));
  const failures: string[] = [];
  const records = async (pages: Record<string, string>, options: Record<string, unknown>, keep?: InstanceType<typeof KeptWorkers>, workers = 2): Promise<unknown[]> => {
    const recs: unknown[] = [];
    const ctx = { source: memorySource(pages), labels: new LabelTable(), options, onFailure: (f: { message: string }) => void failures.push(f.message) };
    const pass = await passOne(ctx, runOptions(options), (rec) => recs.push(rec) - 1, undefined, keep);
    assert.equal(pass.workers, workers);
    return recs;
  };
  const keep = new KeptWorkers();
  try {
    const a = await records(siteA, { workers: 2 }, keep);
    const pool = keep.pool;
    assert.ok(pool, 'the pool is kept after the first source');
    const b = await records(siteB, { workers: 2 }, keep);
    assert.equal(keep.pool, pool, 'the second source ran on the same threads');
    assert.deepEqual(a, await records(siteA, { workers: 2 }));
    assert.deepEqual(b, await records(siteB, { workers: 2 }));
    // 42 + 22 pages went to that pool's threads (the first 48 of each source are parsed inline): with a
    // limit of 60, the next source gets fresh threads, which then serve the one after (42 + 22 again)
    const again = await records(siteA, { workers: 2, workerRecycle: 60 }, keep);
    assert.notEqual(keep.pool, pool);
    assert.deepEqual(again, a);
    const fresh = keep.pool;
    await records(siteB, { workers: 2, workerRecycle: 60 }, keep);
    assert.equal(keep.pool, fresh);
    // another number of workers: another pool
    const one = await records(siteB, { workers: 1 }, keep, 1);
    assert.notEqual(keep.pool, fresh);
    assert.deepEqual(one, b);
  } finally {
    await keep.close();
  }
  assert.equal(keep.pool, null);
  assert.deepEqual(failures, []);
});
