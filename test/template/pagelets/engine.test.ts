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
  const tpl = r.template as { algorithm: string; templates: unknown[] };
  assert.equal(tpl.algorithm, 'global');
  assert.ok(tpl.templates.length >= 2);
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
});

test('local algorithm (Figure 4) runs without links', async () => {
  const site = syntheticSite(5);
  const { marks, run: r } = await run(site, { workers: 0 });
  assert.equal((r.template as { algorithm: string }).algorithm, 'local');
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
    const there = await pool.analyse(body, undefined, 'k.html', 'http://s.test/k.html', {});
    assert.deepEqual(Array.from(there.shingles), Array.from(here.shingles));
  } finally {
    await pool.close();
  }
});
