/**
 * Paper 3's global step on Apache Spark against DuckDB: a crawl of two corpus sites split into two shards
 * (one per site) is analysed once; its global step runs on DuckDB, on a standalone Spark cluster started
 * here on 127.0.0.1 (a master and two workers) and on Spark `local[2]`; the template pagelets, the
 * templates and every page's output files must be identical. Skips where Java or Spark is missing
 * (spark/install.sh installs Spark), never in CI.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { analyseCrawl, markCrawl } from '../../src/run/pagelet-shards.ts';
import { runOptions } from '../../src/template/pagelets/engine.ts';
import { type GlobalResult, runGlobalShards } from '../../src/template/pagelets/global-shards.ts';
import { listShards, type Shard } from '../../src/template/pagelets/shards.ts';
import { type Cluster, findSpark, type SparkEnv, sparkSkip, startCluster } from './cluster.ts';
import { differingFiles, globalRows } from './compare.ts';

const SITES = ['httpx-docs', 'retrofit-javadoc'];
const skip = corpusSkip() || sparkSkip();
const support = { minPages: 2, minSupport: 0.05, supportCap: 50 };
const o = runOptions({ global: true, workers: 0 });
const failures: string[] = [];
const hooks = { onFailure: (f: { message: string }) => void failures.push(f.message) };

describe('pagelets global step: Spark and DuckDB give the same template pagelets and marks', { skip }, () => {
  let dir = '';
  let shards: Shard[] = [];
  let spark: SparkEnv;
  let cluster: Cluster | undefined;
  let duck: GlobalResult;

  /** A copy of the analysed shards in a new work directory. */
  const workCopy = (name: string): string => {
    const w = join(dir, name);
    cpSync(join(dir, 'duckdb', 'shards'), join(w, 'shards'), { recursive: true });
    return w;
  };
  const outDirOf = (root: string) => (s: Shard) => join(root, s.name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gabarit-spark-test-'));
    spark = findSpark() as SparkEnv;
    // the cluster starts while the shards are analysed
    const starting = startCluster(spark, 2);
    starting.catch(() => undefined);
    shards = await listShards(SITES.map((s) => join(CORPUS_DIR, 'sites', s, 'pages')));
    await analyseCrawl(join(dir, 'duckdb'), shards, o, hooks);
    duck = await runGlobalShards(join(dir, 'duckdb'), { backend: 'duckdb', support });
    await markCrawl(join(dir, 'duckdb'), shards, outDirOf(join(dir, 'out-duckdb')), o, hooks);
    cluster = await starting;
  });

  after(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const check = async (name: string, master: string, conf: Record<string, string>): Promise<GlobalResult> => {
    const work = workCopy(name);
    const r = await runGlobalShards(work, { backend: 'spark', sparkMaster: master, sparkConf: conf, driverMemory: '512m', env: spark.env, support });
    assert.equal(r.backend, 'spark');
    assert.deepEqual(r.counts, duck.counts);
    assert.ok(r.counts['template_pagelets']! > 0, 'some pagelets are template');
    const [a, b] = await Promise.all([globalRows(join(dir, 'duckdb')), globalRows(work)]);
    assert.equal(b.templatePagelets, a.templatePagelets, 'template pagelets');
    assert.equal(b.templates, a.templates, 'templates (components)');
    await markCrawl(work, shards, outDirOf(join(dir, `out-${name}`)), o, hooks);
    assert.deepEqual(differingFiles(join(dir, 'out-duckdb'), join(dir, `out-${name}`)), [], 'every page file identical');
    assert.deepEqual(failures, []);
    return r;
  };

  test('on a standalone cluster (master and two workers on 127.0.0.1)', async () => {
    const r = await check('cluster', cluster!.master, cluster!.conf);
    assert.match(r.master ?? '', /^spark:\/\/127\.0\.0\.1:\d+$/);
  });

  test('on local[2]', async () => {
    const r = await check('local', 'local[2]', { 'spark.ui.enabled': 'false' });
    assert.equal(r.master, 'local[2]');
  });
});
