/**
 * The global step (paper 3, Figure 5) over every shard of a work directory (shards.ts), on one of two
 * engines running the same SQL (sql-steps.ts): the embedded DuckDB (default, no set-up) or Spark SQL,
 * submitted with `spark-submit` (`spark/gabarit_global.py`), on `local[N]` or a cluster
 * (`spark://HOST:PORT`). Either way the results land in `WORK/global/`:
 *
 *   template_pagelets/shard=<index>/*.parquet   page INTEGER (in its shard), ordinal, node, nodes, chars
 *   templates/*.parquet                          shingle DOUBLE, first_page BIGINT, size BIGINT
 *   result.json                                  backend, support, counts, timings per step, iterations, shards
 *
 * The results are written under a temporary name and renamed when complete.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile, open as openFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGELET_DEFAULTS } from './defaults.ts';
import { withDefaults } from '../../filled.ts';
import { manifestChecksum, readManifests, type ShardManifest, workPaths } from './shards.ts';
import { DUCKDB, SPARK } from './sql-dialect.ts';
import { runPlan } from './sql-run.ts';
import { figure5Plan, type SqlPlan, type SqlSupport } from './sql-steps.ts';

/** Options of the global step over shards. */
export interface GlobalShardsOptions {
  backend: 'duckdb' | 'spark';
  support: SqlSupport;
  /** Spark master URL: `local[2]` (default) or `spark://HOST:PORT`. */
  sparkMaster?: string;
  /** The spark-submit program (default: `$SPARK_HOME/bin/spark-submit`, else `spark-submit` on PATH). */
  sparkSubmit?: string;
  /** Extra `--conf key=value` settings for spark-submit (e.g. executor memory). */
  sparkConf?: Record<string, string>;
  /** Spark driver memory (default 1g). */
  driverMemory?: string;
  /** DuckDB memory limit (default `PAGELET_DEFAULTS.duckdbMemoryLimit`). */
  memoryLimit?: string;
  /** Environment of spark-submit (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Called with the spark-submit process id once it runs (to sample its memory). */
  onSparkProcess?: (pid: number) => void;
  /**
   * Runs the job files in a Spark application already running (src/run/spark-shards.ts), in place of a
   * spark-submit of its own; resolves once their results are written.
   */
  sparkRunner?: (jobPaths: readonly string[]) => Promise<void>;
}

/** What `WORK/global/result.json` holds. */
export interface GlobalResult {
  backend: 'duckdb' | 'spark';
  counts: Record<string, number>;
  /** Milliseconds per step group (the engine's own clock), and `total` as gabarit saw it. */
  timings: Record<string, number>;
  /** Iterations of the components loop (label propagation; 0 when the components were computed as a graph). */
  iterations: number;
  /**
   * How Spark computed the components: `graph` (a vectorised connected components per partition of the
   * template links), `sql` (the loop, as DuckDB), or `sql (<library> is missing on the driver)`.
   */
  components?: string;
  /** The support thresholds the template pagelets were selected with. */
  support: SqlSupport;
  shards: Array<{ index: number; name: string; pages: number; checksum: string }>;
  sparkVersion?: string;
  master?: string;
}

/** The driver file shipped with the package (next to src/ in the sources, next to dist/ when built). */
export function sparkDriverPath(): string {
  for (const rel of ['../../../spark/gabarit_global.py', '../../../../spark/gabarit_global.py']) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  throw new Error('spark/gabarit_global.py is missing from the package');
}

/** The spark-submit program to run. */
export function sparkSubmitPath(given?: string): string {
  if (given) return given;
  const home = process.env['SPARK_HOME'];
  if (home && existsSync(join(home, 'bin', 'spark-submit'))) return join(home, 'bin', 'spark-submit');
  return 'spark-submit';
}

function inputFiles(work: string, shards: readonly ShardManifest[]): Record<'pages' | 'pagelets' | 'links', string[]> {
  const files = (t: string): string[] => shards.map((s) => resolve(workPaths.shard(work, s), `${t}.parquet`));
  return { pages: files('pages'), pagelets: files('pagelets'), links: files('links') };
}

/** Runs the global step over every complete shard of `work`; returns (and writes) result.json. */
export async function runGlobalShards(work: string, options: GlobalShardsOptions): Promise<GlobalResult> {
  return (await runGlobalMany([work], options))[0]!;
}

/**
 * The global step of several work directories (independent crawls), one after the other; on Spark in one
 * spark-submit, so that the JVMs start once.
 */
export async function runGlobalMany(works: readonly string[], options: GlobalShardsOptions): Promise<GlobalResult[]> {
  const plan = figure5Plan(options.support);
  const jobs: Array<{ work: string; shards: ShardManifest[]; inputs: Record<'pages' | 'pagelets' | 'links', string[]>; tmp: string; final: string }> = [];
  for (const work of works) {
    const shards = await readManifests(work);
    if (shards.length === 0) throw new Error(`no analysed shard in ${work} (run the analyse phase first)`);
    const final = workPaths.global(work);
    const tmp = `${final}.tmp-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    jobs.push({ work, shards, inputs: inputFiles(work, shards), tmp, final });
  }
  const t0 = performance.now();
  try {
    const partials: Partial[] = [];
    if (options.backend === 'spark') partials.push(...(await onSpark(plan, jobs, options)));
    else for (const j of jobs) partials.push(await onDuckDB(plan, j.inputs, j.tmp, options));
    const results: GlobalResult[] = [];
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i]!;
      const partial = partials[i]!;
      const result: GlobalResult = {
        ...partial,
        timings: { ...partial.timings, ...(jobs.length === 1 ? { total: performance.now() - t0 } : {}) },
        support: options.support,
        shards: j.shards.map((s) => ({ index: s.index, name: s.name, pages: s.pages, checksum: manifestChecksum(s) })),
      };
      await writeFile(join(j.tmp, 'result.json'), JSON.stringify(result, null, 1) + '\n');
      await rm(j.final, { recursive: true, force: true });
      await rename(j.tmp, j.final);
      results.push(result);
    }
    return results;
  } finally {
    for (const j of jobs) await rm(j.tmp, { recursive: true, force: true });
  }
}

type Partial = Omit<GlobalResult, 'shards' | 'support'>;

async function onDuckDB(plan: SqlPlan, inputs: Record<string, string[]>, out: string, options: GlobalShardsOptions): Promise<Partial> {
  const { memoryLimit } = withDefaults({ memoryLimit: PAGELET_DEFAULTS.duckdbMemoryLimit }, options);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const temp = await mkdtemp(join(tmpdir(), 'gabarit-global-'));
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: memoryLimit,
    temp_directory: temp,
    preserve_insertion_order: 'false',
  });
  const c = await instance.connect();
  try {
    for (const [name, files] of Object.entries(inputs)) await c.run(`CREATE VIEW ${name} AS SELECT * FROM ${DUCKDB.readParquet(files)}`);
    const run = await runPlan(c, plan, { views: new Set(Object.keys(inputs)) });
    const t = performance.now();
    for (const o of plan.outputs) {
      if (!o.partitionBy) await mkdir(join(out, o.name), { recursive: true });
      await c.run(DUCKDB.writeParquet(o.sql, join(out, o.name), o.partitionBy));
    }
    return { backend: 'duckdb', counts: run.counts, timings: { ...run.timings, write: performance.now() - t }, iterations: run.iterations };
  } finally {
    c.closeSync();
    instance.closeSync();
    await rm(temp, { recursive: true, force: true });
  }
}

async function onSpark(plan: SqlPlan, jobs: ReadonlyArray<{ inputs: Record<string, string[]>; tmp: string }>, options: GlobalShardsOptions): Promise<Partial[]> {
  const jobPaths: string[] = [];
  for (const j of jobs) {
    const jobPath = resolve(j.tmp, 'job.json');
    const job = { appName: 'gabarit pagelets global', inputs: j.inputs, plan, outDir: resolve(j.tmp), resultPath: resolve(j.tmp, 'spark-result.json'), conf: SPARK.conf };
    await writeFile(jobPath, JSON.stringify(job, null, 1) + '\n');
    jobPaths.push(jobPath);
  }
  if (options.sparkRunner) await options.sparkRunner(jobPaths);
  else await sparkSubmitJobs(jobPaths, resolve(jobs[0]!.tmp), options);
  const out: Partial[] = [];
  for (const j of jobs) {
    const r = JSON.parse(await readFile(resolve(j.tmp, 'spark-result.json'), 'utf8')) as Partial & { sparkVersion: string; master: string; components: string };
    out.push({ backend: 'spark', counts: r.counts, timings: r.timings, iterations: r.iterations, components: r.components, sparkVersion: r.sparkVersion, master: r.master });
  }
  return out;
}

/** spark-submit of the global driver over the job files; its log in `dir` (kept beside it when it fails). */
async function sparkSubmitJobs(jobPaths: readonly string[], dir: string, options: GlobalShardsOptions): Promise<void> {
  const logPath = resolve(dir, 'spark.log');
  const { exited } = await startSparkSubmit([...sparkSubmitArgs(options), sparkDriverPath(), ...jobPaths], logPath, options);
  const code = await exited;
  if (code !== 0) throw await sparkSubmitError(code, logPath, resolve(dir, '..', 'spark-failed.log'));
}

/** The options of spark-submit before the driver file: master, driver memory and the settings given. */
export function sparkSubmitArgs(options: Pick<GlobalShardsOptions, 'sparkMaster' | 'driverMemory' | 'sparkConf'>): string[] {
  const args = ['--master', options.sparkMaster ?? 'local[2]', '--driver-memory', options.driverMemory ?? '1g'];
  for (const [k, v] of Object.entries(options.sparkConf ?? {})) args.push('--conf', `${k}=${v}`);
  return args;
}

/** Starts spark-submit with `args`, its output written to `logPath`; `exited` resolves with its exit code. */
export async function startSparkSubmit(args: readonly string[], logPath: string, options: Pick<GlobalShardsOptions, 'sparkSubmit' | 'env' | 'onSparkProcess'>): Promise<{ child: ChildProcess; exited: Promise<number> }> {
  const log = await openFile(logPath, 'w');
  const child = spawn(sparkSubmitPath(options.sparkSubmit), args, { stdio: ['ignore', log.fd, log.fd], env: options.env ?? process.env });
  if (child.pid !== undefined) options.onSparkProcess?.(child.pid);
  const exited = new Promise<number>((resolveCode, reject) => {
    child.on('error', (err) => reject(new Error(`cannot run spark-submit (${err.message}); install Spark (spark/install.sh, or pip install -r spark/requirements.txt) or give --spark-submit`)));
    child.on('exit', (c) => resolveCode(c ?? 1));
  }).finally(() => log.close());
  return { child, exited };
}

/**
 * The error of a spark-submit that exited with `code`: the failed step the global driver names, the log's
 * error lines, and the log moved to `kept` for the user (its folder is temporary).
 */
export async function sparkSubmitError(code: number, logPath: string, kept: string): Promise<Error> {
  const lines = (await logTail(logPath)).split('\n');
  const tail = lines.filter((l) => /error|exception|Traceback/i.test(l)).slice(-5).join('\n');
  // the driver names the step that failed (StepError)
  const step = lines.reverse().find((l) => /pagelets global step \S+.* failed/.test(l));
  await rename(logPath, kept).catch(() => undefined);
  const named = step ? `: ${step.slice(step.indexOf('pagelets global step'))}` : '';
  return new Error(`spark-submit exited with code ${code}${named} (log: ${kept})${tail ? `:\n${tail}` : ''}`);
}

/** The last 64 KiB of a log (Spark's can be large). */
async function logTail(path: string): Promise<string> {
  const f = await openFile(path, 'r');
  try {
    const size = (await f.stat()).size;
    const n = Math.min(size, 65536);
    const buf = Buffer.alloc(n);
    await f.read(buf, 0, n, size - n);
    return buf.toString('utf8');
  } finally {
    await f.close();
  }
}

/** The global result of a work directory, and the SHA-256 of its result.json (what marked shards record). */
export async function readGlobalResult(work: string): Promise<{ result: GlobalResult; checksum: string }> {
  const path = join(workPaths.global(work), 'result.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new Error(`no global result in ${work} (run the global phase first)`);
  }
  const { createHash } = await import('node:crypto');
  return { result: JSON.parse(text) as GlobalResult, checksum: createHash('sha256').update(text).digest('hex') };
}

/**
 * The global result of `work` when it is up to date: computed on `backend` with `support` from exactly the
 * shards analysed in `work` now (their indexes and checksums); else undefined.
 */
export async function globalDone(work: string, backend: GlobalResult['backend'], support: SqlSupport): Promise<GlobalResult | undefined> {
  let result: GlobalResult;
  try {
    result = (await readGlobalResult(work)).result;
  } catch {
    return undefined;
  }
  const shards = await readManifests(work);
  const key = (list: ReadonlyArray<{ index: number; checksum: string }>): string => JSON.stringify(list.map((s) => [s.index, s.checksum]));
  const same = result.backend === backend && JSON.stringify(result.support) === JSON.stringify({ minPages: support.minPages, minSupport: support.minSupport, supportCap: support.supportCap });
  return same && key(result.shards) === key(shards.map((m) => ({ index: m.index, checksum: manifestChecksum(m) }))) ? result : undefined;
}
