/**
 * Every corpus site (sites/*, and each site of the samesite groups) through the sharded global step on
 * DuckDB and on a standalone Spark cluster started here on 127.0.0.1 (a master and two workers; all the
 * sites' jobs in one spark-submit): prints, per site, whether the template pagelets, the templates and every
 * page's output files are identical. Exits 1 when any differs. Not part of either test suite (minutes, not seconds):
 *
 *     npx tsx test/spark/all-sites.ts            (Spark from spark/install.sh)
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, CORPUS_MISSING, corpusAvailable } from '../../src/eval/corpus-path.ts';
import { analyseCrawl, markCrawl } from '../../src/run/pagelet-shards.ts';
import { runOptions } from '../../src/template/pagelets/engine.ts';
import { runGlobalMany, runGlobalShards } from '../../src/template/pagelets/global-shards.ts';
import { listShards } from '../../src/template/pagelets/shards.ts';
import { findSpark, startCluster } from './cluster.ts';
import { differingFiles, globalRows } from './compare.ts';

if (!corpusAvailable()) throw new Error(CORPUS_MISSING);
const spark = findSpark();
if (typeof spark === 'string') throw new Error(spark);

const crawls: Array<{ name: string; dir: string }> = [];
for (const s of readdirSync(join(CORPUS_DIR, 'sites')).sort()) crawls.push({ name: `sites/${s}`, dir: join(CORPUS_DIR, 'sites', s, 'pages') });
for (const g of readdirSync(join(CORPUS_DIR, 'samesite')).sort()) {
  for (const s of readdirSync(join(CORPUS_DIR, 'samesite', g)).sort()) crawls.push({ name: `samesite/${g}/${s}`, dir: join(CORPUS_DIR, 'samesite', g, s) });
}
const base = mkdtempSync(join(tmpdir(), 'gabarit-spark-sites-'));
const support = { minPages: 2, minSupport: 0.05, supportCap: 50 };
const o = runOptions({ global: true, workers: 0 });
let failed = 0;
const hooks = { onFailure: (f: { message: string }) => void (failed++, console.error(f.message)) };
const cluster = startCluster(spark, 2);
cluster.catch(() => undefined);
try {
  const t0 = performance.now();
  const runs = [];
  for (const [i, c] of crawls.entries()) {
    const shards = await listShards([c.dir]);
    const duck = join(base, String(i), 'duckdb');
    await analyseCrawl(duck, shards, o, hooks);
    const r = await runGlobalShards(duck, { backend: 'duckdb', support });
    await markCrawl(duck, shards, () => join(base, String(i), 'out-duckdb'), o, hooks);
    const sp = join(base, String(i), 'spark');
    cpSync(join(duck, 'shards'), join(sp, 'shards'), { recursive: true });
    runs.push({ c, i, shards, duck, sp, r });
  }
  const tDuck = performance.now() - t0;
  const { master, conf } = await cluster;
  const t1 = performance.now();
  const sparkResults = await runGlobalMany(runs.map((r) => r.sp), { backend: 'spark', sparkMaster: master, sparkConf: conf, driverMemory: '512m', env: spark.env, support });
  const tSpark = performance.now() - t1;
  const rows = [];
  let differ = 0;
  for (const [k, run] of runs.entries()) {
    await markCrawl(run.sp, run.shards, () => join(base, String(run.i), 'out-spark'), o, hooks);
    const [a, b] = await Promise.all([globalRows(run.duck), globalRows(run.sp)]);
    const files = differingFiles(join(base, String(run.i), 'out-duckdb'), join(base, String(run.i), 'out-spark'));
    const same = a.templatePagelets === b.templatePagelets && a.templates === b.templates && files.length === 0 && JSON.stringify(run.r.counts) === JSON.stringify(sparkResults[k]!.counts);
    if (!same) differ++;
    const pageCount = existsSync(join(base, String(run.i), 'out-duckdb')) ? run.r.counts['pages'] : 0;
    rows.push({ site: run.c.name, pages: pageCount, 'template pagelets': run.r.counts['template_pagelets'], templates: run.r.counts['templates'], iterations: `${run.r.iterations} / ${sparkResults[k]!.iterations}`, 'files differing': files.length, identical: same ? 'yes' : 'NO' });
  }
  console.table(rows);
  console.log(`${crawls.length} sites: ${crawls.length - differ} identical on DuckDB and Spark (${master}), ${differ} differ; pages failed: ${failed}`);
  console.log(`time: DuckDB (analyse, global, mark) ${(tDuck / 1000).toFixed(1)} s; Spark global step of all sites in one spark-submit ${(tSpark / 1000).toFixed(1)} s`);
  process.exitCode = differ > 0 ? 1 : 0;
} finally {
  await (await cluster.catch(() => undefined))?.stop();
  rmSync(base, { recursive: true, force: true });
}
