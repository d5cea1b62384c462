/**
 * Paper 3's global step on Apache Spark against DuckDB, on one standalone Spark cluster started here on
 * 127.0.0.1 (a master and two workers) and shared by the file's tests:
 *  - a crawl of two corpus sites split into two shards (one per site) is analysed once; its global step
 *    runs on DuckDB, on the cluster (components as a graph, Spark's default) and on Spark `local[2]` (the
 *    SQL loop DuckDB runs); the template pagelets, the templates and every page's output files must be
 *    identical (skips without the corpus);
 *  - `gabarit shards run --backend spark` from the command line on a crawl of two small shards (the demo
 *    site, a generated shop as a WARC file): analyse and mark run as tasks on the executors (the job's
 *    event log says where) by a gabarit each Python worker keeps from task to task, the gabarit of one
 *    analyse task killed while it runs (the task is retried), and the pages equal the DuckDB run's; an
 *    executor that cannot run gabarit stops the run with a message naming it.
 * Skips where Java or Spark is missing (spark/install.sh installs Spark), never in CI.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { analyseCrawl, markCrawl } from '../../src/run/pagelet-shards.ts';
import { runOptions } from '../../src/template/pagelets/engine.ts';
import { type GlobalResult, runGlobalShards } from '../../src/template/pagelets/global-shards.ts';
import { listShards, type Shard } from '../../src/template/pagelets/shards.ts';
import { writeWarc } from '../../src/site/warc-source.ts';
import { shop } from '../fixtures/synthetic-sites.ts';
import { gabarit, ROOT, runProcess, CLI, type Ran } from '../cli/gabarit-process.ts';
import { type Cluster, findSpark, type SparkEnv, sparkSkip, startCluster } from './cluster.ts';
import { differingFiles, globalRows, taskEnds } from './compare.ts';

/** The cluster of this file's tests, started by the first that needs it. */
let starting: Promise<Cluster> | undefined;
function sharedCluster(): Promise<Cluster> {
  starting ??= startCluster(findSpark() as SparkEnv, 2);
  return starting;
}
after(async () => {
  if (starting) await (await starting.catch(() => undefined))?.stop();
});

const SITES = ['httpx-docs', 'retrofit-javadoc'];
const noSpark = sparkSkip();
const skip = noSpark || corpusSkip();
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
    const starting = sharedCluster();
    starting.catch(() => undefined);
    shards = await listShards(SITES.map((s) => join(CORPUS_DIR, 'sites', s, 'pages')));
    await analyseCrawl(join(dir, 'duckdb'), shards, o, hooks);
    duck = await runGlobalShards(join(dir, 'duckdb'), { backend: 'duckdb', support });
    await markCrawl(join(dir, 'duckdb'), shards, outDirOf(join(dir, 'out-duckdb')), o, hooks);
    cluster = await starting;
  });

  after(() => {
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
    assert.equal(r.components, 'graph');
  });

  test('on local[2]', async () => {
    const r = await check('local', 'local[2]', { 'spark.ui.enabled': 'false', 'spark.gabarit.components': 'sql' });
    assert.equal(r.master, 'local[2]');
    assert.equal(r.components, 'sql');
    assert.equal(r.iterations, duck.iterations);
  });
});

// a hang fails the run rather than blocking it (the file takes about 10 minutes at a load of 20–40)
describe('gabarit shards run --backend spark: analyse and mark as Spark tasks on the executors', { skip: noSpark, timeout: 20 * 60_000 }, () => {
  let dir = '';
  let spark: SparkEnv;
  let cluster: Cluster;
  const path = (...p: string[]): string => join(dir, ...p);
  const crawl = (): string => path('crawl', 'site-*');

  /** `gabarit shards run` on the cluster from the command line, its event log in `events`. */
  const onCluster = (name: string, events: string, extra: readonly string[] = []): Promise<Ran> => {
    mkdirSync(events, { recursive: true });
    const conf = { ...cluster.conf, 'spark.eventLog.enabled': 'true', 'spark.eventLog.dir': `file://${events}`, 'spark.eventLog.compress': 'false' };
    const args = ['shards', 'run', crawl(), '--work', path(`work-${name}`), '--out', path(`out-${name}`), '--backend', 'spark', '--spark-master', cluster.master, '--spark-submit', spark.sparkSubmit, '--driver-memory', '512m'];
    for (const [k, v] of Object.entries(conf)) args.push('--spark-conf', `${k}=${v}`);
    return runProcess(process.execPath, [...CLI, ...args, ...extra], { cwd: ROOT, env: spark.env });
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gabarit-spark-run-'));
    spark = findSpark() as SparkEnv;
    const started = sharedCluster();
    started.catch(() => undefined);
    mkdirSync(path('crawl'));
    cpSync(join(ROOT, 'examples', 'site'), path('crawl', 'site-a'), { recursive: true });
    await writeWarc([...shop().files].map(([key, body]) => ({ key, body })), path('crawl', 'site-b.warc'), { baseUrl: 'https://shop.example.invalid/' });
    // a third shard that cannot be read (neither gzip nor WARC): named and left out, by both backends
    writeFileSync(path('crawl', 'site-c.warc.gz'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131 + 7) % 256)));
    const duck = await gabarit(['shards', 'run', crawl(), '--work', path('work-duckdb'), '--out', path('out-duckdb')]);
    assert.equal(duck.code, 0, duck.stderr);
    assert.match(duck.stdout, /shard 2 site-c\.warc\.gz: not analysed \(empty\)/);
    cluster = await started;
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('every analyse and mark task runs on an executor; one analyse task killed is retried; the pages equal DuckDB\'s; a shard that cannot be read is left out, not retried', async () => {
    const work = path('work-cluster');
    const running = onCluster('cluster', path('events-cluster'));
    // the gabarit that analyses shard 1 (the `gabarit shards serve` of a task's Python worker), killed once
    // it writes in the shard's temporary folder
    const shard1 = join(work, 'shards', '1-');
    const killed = await killOnce((argv, pid) => argv.includes('shards') && argv.includes('serve') && openFiles(pid).some((f) => f.startsWith(shard1)), () => true, running);
    const r = await running;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(killed, 'the analyse task of shard 1 was seen running and killed');
    assert.match(r.stderr, /gabarit: file:\/\/\S*site-c\.warc\.gz: /);
    assert.match(r.stdout, /shard 2 site-c\.warc\.gz: not analysed \(empty\)\nshards failed: 1/);

    const ends = taskEnds(path('events-cluster'));
    for (const phase of ['analyse', 'mark']) {
      const tasks = ends.filter((e) => e.job === `gabarit shards ${phase}`);
      assert.deepEqual([...new Set(tasks.filter((t) => t.reason === 'Success').map((t) => t.index))].sort(), [0, 1, 2], `${phase}: a successful task per shard`);
      assert.equal(tasks.filter((t) => t.index === 2).length, 1, `${phase}: the task of the shard left out is not retried`);
      for (const t of tasks) assert.notEqual(t.executor, 'driver', `${phase} task ${t.index} ran on an executor`);
    }
    // each Python worker keeps its gabarit (`shards serve`) from task to task: 6 tasks and a retry on two
    // executors of one core, so one process ran several
    const served = [...r.stderr.matchAll(/: (?:analyse|mark) ran on executor \S+ \(gabarit process (\d+)\)/g)].map((m) => m[1]);
    assert.equal(served.length, 6, r.stderr);
    assert.ok(new Set(served).size < served.length, `a gabarit process ran several tasks: ${served.join(', ')}`);
    const attempts = ends.filter((e) => e.job === 'gabarit shards analyse' && e.index === 1);
    assert.equal(attempts[0]?.reason, 'ExceptionFailure', 'the killed attempt failed');
    assert.equal(attempts.at(-1)?.reason, 'Success', 'a later attempt succeeded');
    assert.ok(attempts.at(-1)!.attempt > 0);

    assert.deepEqual(await globalRows(work), await globalRows(path('work-duckdb')));
    assert.deepEqual(differingFiles(path('out-duckdb'), path('out-cluster')), [], 'every page file identical');
    const result = JSON.parse(readFileSync(join(work, 'global', 'result.json'), 'utf8')) as { backend: string; master: string };
    assert.equal(result.backend, 'spark');
    assert.equal(result.master, cluster.master);
    // the killed attempt's temporary folder is gone, no other is left
    const left = [...readdirSync(join(work, 'shards')), ...readdirSync(path('out-cluster'))].filter((d) => d.includes('~tmp-'));
    assert.deepEqual(left, []);
  });

  test('an executor that cannot run gabarit: exit code 1, the message names the executor and what is missing', async () => {
    const r = await onCluster('missing', path('events-missing'), ['--spark-gabarit', '/nonexistent/bin/gabarit', '--spark-conf', 'spark.task.maxFailures=1']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /executor \S+ cannot run gabarit: \/nonexistent\/bin\/gabarit: No such file or directory; every executor needs Node/);
    assert.doesNotMatch(r.stderr, /Traceback|Py4JJavaError/);
  });
});

/**
 * Kills (SIGKILL) the first process whose arguments match, once `ready()` says it is at work (or 5 s after
 * it is seen); gives up when `until` settles first. True when it killed one.
 */
async function killOnce(matches: (argv: string[], pid: string) => boolean, ready: () => boolean, until: Promise<unknown>): Promise<boolean> {
  let over = false;
  void until.finally(() => (over = true));
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  while (!over) {
    const pid = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .find((d) => {
        try {
          return matches(readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0'), d);
        } catch {
          return false;
        }
      });
    if (pid !== undefined) {
      for (let waited = 0; waited < 5000 && !ready(); waited += 50) await sleep(50);
      try {
        process.kill(Number(pid), 'SIGKILL');
        return true;
      } catch {
        return false;
      }
    }
    await sleep(50);
  }
  return false;
}

/** The paths of the files process `pid` has open (none when it is gone or not ours to see). */
function openFiles(pid: string): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}
