import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregate, evaluateRecords, evaluateTarget, formatTable, fmt, type EvalTarget } from '../../eval/harness.ts';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { parsePage } from '../../src/site/page.ts';
import { goldOracleEngine, wholeBodyEngine } from '../../src/eval/reference-engines.ts';
import type { CorpusSite } from '../../src/eval/corpus.ts';
import type { TemplateEngine } from '../../src/template/engine.ts';
import { noOptions } from '../../src/template/options.ts';

const page = (title: string, body: string): string =>
  `<html><head><title>${title}</title></head><body><nav><a href="a.html">Home</a> <a href="b.html">About</a></nav>` +
  `<article>${body}</article><footer>Copyright Example</footer></body></html>`;

function fixtureSite(): { dir: string; site: CorpusSite; target: EvalTarget } {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-harness-'));
  const pagesDir = join(dir, 'pages');
  mkdirSync(pagesDir);
  writeFileSync(join(pagesDir, 'a.html'), page('A', '<h1>Alpha page</h1><p>one two three</p>'));
  writeFileSync(join(pagesDir, 'b.html'), page('B', '<h1>Beta page</h1><p>four five</p>'));
  writeFileSync(join(pagesDir, 'c.html'), '<html><body><p>No article here</p></body></html>');
  const site: CorpusSite = { name: 'fixture', dir, pagesDir, entry: 'a.html', gold: { content: ['article'], exclude: [] }, files: () => ['a.html', 'b.html', 'c.html'] };
  return { dir, site, target: { set: 'sites', name: 'fixture', dir: pagesDir, entry: 'a.html', keys: site.files(), site } };
}

test('evaluateTarget: whole body on a hand-made site, scores computed by hand', async () => {
  const { dir, target } = fixtureSite();
  try {
    const r = await evaluateTarget(wholeBodyEngine, target);
    assert.equal(r.pages, 2);
    assert.equal(r.noGold, 1);
    assert.equal(r.failed, 0);
    // a.html: kept = home about alpha page one two three copyright example (9 words), gold = 5 words
    const a = r.perPage.find((p) => p.key === 'a.html')!;
    assert.ok(Math.abs(a.content.precision - 5 / 9) < 1e-9);
    assert.equal(a.content.recall, 1);
    // nothing marked, gold template elements exist → node P = R = 0
    assert.deepEqual(a.node, { precision: 0, recall: 0, f1: 0 });
    // b.html: 8 words kept, 4 gold
    const b = r.perPage.find((p) => p.key === 'b.html')!;
    assert.ok(Math.abs(b.content.precision - 4 / 8) < 1e-9);
    assert.ok(Math.abs(r.content.precision - (5 / 9 + 0.5) / 2) < 1e-9);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('evaluateTarget: the gold oracle scores 1.0; failures and missing pages are counted', async () => {
  const { dir, site, target } = fixtureSite();
  try {
    const r = await evaluateTarget(goldOracleEngine(site.gold), target);
    assert.equal(r.pages, 2);
    assert.deepEqual(r.content, { precision: 1, recall: 1, f1: 1 });
    assert.deepEqual(r.node, { precision: 1, recall: 1, f1: 1 });
    // an engine that emits only a.html and reports one failure, then crashes
    const flaky: TemplateEngine = {
      name: 'flaky',
      description: 'test',
      options: noOptions('test'),
      async run(ctx) {
        for await (const p of ctx.source.pages()) {
          if (!p.ok) continue;
          if (p.page.key === 'b.html') {
            ctx.onFailure({ url: p.page.url, key: 'b.html', code: 'empty', message: 'test failure' });
            continue;
          }
          if (p.page.key === 'c.html') throw new Error('boom');
          await wholeBodyEngine.run({ ...ctx, source: { ...ctx.source, pages: async function* () { yield p; } } });
        }
        return { template: null, summary: {}, timings: {} };
      },
    };
    const f = await evaluateTarget(flaky, target);
    assert.equal(f.error, 'boom');
    assert.equal(f.pages, 1);
    assert.deepEqual(f.failures.map((x) => `${x.key}:${x.code}`).sort(), ['b.html:empty', 'c.html:engine-error']);
    const all = aggregate('sites', [r, f]);
    assert.equal(all.pages, 3);
    assert.equal(all.failed, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('formatTable aligns columns; fmt prints NaN as a dash', () => {
  const t = formatTable(['name', 'F1'], [['a', '0.500'], null, ['longer', '1.000']]);
  assert.equal(t, ['name       F1', '------  -----', 'a       0.500', '------  -----', 'longer  1.000'].join('\n'));
  assert.equal(fmt(NaN), '—');
  assert.equal(fmt(0.12345), '0.123');
});

test('evaluateRecords: whole body keeps every SWDE value, marking everything keeps none', { skip: corpusSkip() }, async () => {
  const [whole] = await evaluateRecords(wholeBodyEngine, { report: false, progress: false });
  assert.ok(whole);
  assert.equal(whole.pages, 400);
  assert.equal(whole.failed, 0);
  assert.equal(whole.overall.rate, 1);
  assert.equal(whole.attributes['isbn_13']!.values, 400);
  const markAll: TemplateEngine = {
    name: 'mark-all',
    description: 'test',
    options: noOptions('test'),
    async run(ctx) {
      for await (const r of ctx.source.pages()) {
        if (!r.ok) continue;
        const tree = parsePage(r.page, ctx.labels);
        await ctx.onPage({ key: r.page.key, url: r.page.url, tree, template: new Uint8Array(tree.size).fill(1) });
      }
      return { template: null, summary: {}, timings: {} };
    },
  };
  const [none] = await evaluateRecords(markAll, { report: false, progress: false });
  assert.equal(none!.overall.kept, 0);
  assert.equal(none!.lost.length, 50);
});
