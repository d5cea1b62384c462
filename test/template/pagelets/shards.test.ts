/**
 * The sharded pagelets run on DuckDB (shards.ts, global-shards.ts, crawl.ts): on one corpus site as one
 * shard it writes the same page files as the one-machine engine, its label-propagation components are the
 * engine's union-find components, and a rerun skips what is done (and redoes what changed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../../src/eval/corpus-path.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { OutputWriter } from '../../../src/output.ts';
import { openSource } from '../../../src/site/source.ts';
import { analyseCrawl, markCrawl } from '../../../src/run/pagelet-shards.ts';
import { detectPagelets, runOptions } from '../../../src/template/pagelets/engine.ts';
import { runGlobalShards } from '../../../src/template/pagelets/global-shards.ts';
import { listShards, parsePart, partOf, workPaths } from '../../../src/template/pagelets/shards.ts';
import { loadEngine } from '../../../src/template/engines.ts';
import { differingFiles, globalRows } from '../../spark/compare.ts';

// The engine's own support (its defaults), so that the sharded run's files can be compared with the engine's.
const { minPages, minSupport, supportCap } = runOptions({ global: true });
const support = { minPages, minSupport, supportCap };

test('shards: names unique by parent folder, indexes by sorted path, parts by index modulo n', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shards-'));
  try {
    for (const s of ['b', 'a', 'c']) mkdirSync(join(dir, s, 'pages'), { recursive: true });
    writeFileSync(join(dir, 'crawl-1.warc.gz'), '');
    writeFileSync(join(dir, 'crawl-0.warc.gz'), '');
    const shards = await listShards([join(dir, '*', 'pages').replace('*', 'b'), join(dir, 'a', 'pages'), join(dir, 'c', 'pages')]);
    assert.deepEqual(shards.map((s) => [s.index, s.name]), [[0, 'a_pages'], [1, 'b_pages'], [2, 'c_pages']]);
    const warcs = await listShards([join(dir, 'crawl-*.warc.gz')]);
    assert.deepEqual(warcs.map((s) => s.name), ['crawl-0.warc.gz', 'crawl-1.warc.gz']);
    await assert.rejects(listShards([join(dir, 'nothing-*.warc')]), /no source matches/);
    assert.deepEqual(partOf(shards, parsePart('1/2')).map((s) => s.index), [1]);
    assert.throws(() => parsePart('2/2'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('shards on DuckDB: one site as one shard gives the engine\'s page files and components; reruns skip what is done', { skip: corpusSkip() }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-shards-'));
  const site = join(CORPUS_DIR, 'sites', 'httpx-docs', 'pages');
  const failures: string[] = [];
  const hooks = { onFailure: (f: { message: string }) => void failures.push(f.message) };
  try {
    const o = runOptions({ global: true, workers: 0 });
    const shards = await listShards([site]);
    const work = join(dir, 'work');
    const first = await analyseCrawl(work, shards, o, hooks);
    assert.equal(first[0]!.skipped, false);
    const g = await runGlobalShards(work, { backend: 'duckdb', support });
    assert.ok(g.iterations >= 1 && g.counts['template_pagelets']! > 0);
    await markCrawl(work, shards, () => join(dir, 'sharded'), o, hooks);

    // the one-machine engine (union-find components) on the same site
    const engine = await loadEngine('pagelets');
    const writer = new OutputWriter(join(dir, 'engine'));
    const source = await openSource(site);
    await engine.run({ source, labels: new LabelTable(), options: { global: true, workers: 0 }, onPage: async (m, e) => void (await writer.writePage(m, e)), onFailure: hooks.onFailure });
    assert.deepEqual(differingFiles(join(dir, 'engine'), join(dir, 'sharded')), []);
    const run = await detectPagelets({ source, labels: new LabelTable(), options: { global: true, workers: 0 }, onFailure: hooks.onFailure });
    await source.close();
    const uf = run.detection.templates.map((t) => [t.shingle, t.pages![0], t.size]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    assert.equal(JSON.stringify(uf), (await globalRows(work)).templates, 'label propagation = union-find');
    assert.equal(g.counts['templates'], uf.length);

    // a rerun skips the analysed shard and the written output; a damaged shard file is analysed again
    assert.equal((await analyseCrawl(work, shards, o, hooks))[0]!.skipped, true);
    assert.equal((await markCrawl(work, shards, () => join(dir, 'sharded'), o, hooks))[0]!.skipped, true);
    appendFileSync(join(workPaths.shard(work, shards[0]!), 'links.parquet'), 'x');
    assert.equal((await analyseCrawl(work, shards, o, hooks))[0]!.skipped, false);
    // (the same rows again: the written output still stands)
    assert.equal((await markCrawl(work, shards, () => join(dir, 'sharded'), o, hooks))[0]!.skipped, true);
    // other options: analysed again, and its output cannot come from the old global step
    const k4 = runOptions({ global: true, workers: 0, k: 4 });
    assert.equal((await analyseCrawl(work, shards, k4, hooks))[0]!.skipped, false);
    await assert.rejects(markCrawl(work, shards, () => join(dir, 'sharded'), k4, hooks), /analysed after the global step/);
    assert.deepEqual(failures, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
