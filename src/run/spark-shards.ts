/**
 * `gabarit shards run --backend spark`: the whole sharded run as one Spark application
 * (`spark/gabarit_shards.py`, submitted with spark-submit): analyse and mark run as Spark tasks on the
 * executors, one task per shard, each running gabarit there (`gabarit shards analyse SOURCES… --part i/n`,
 * n being the number of shards, so task i does shard i); the global step runs in the same application as
 * `gabarit shards global --backend spark` runs it (global-shards.ts). Spark places the tasks and retries a
 * failed one; a shard's files and output folder are written under a temporary name and renamed when
 * complete (shards.ts `stagingDir`), so a killed attempt leaves nothing half-written.
 *
 * The driver runs on this machine (client mode) and this process answers it through files in a control
 * folder: once the shards are analysed it writes the global step's job files (none when the global result
 * is up to date), then once their results are written it lets the mark stage start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageFailure } from '../output.ts';
import { PAGELET_OPTIONS, type PageletOptions } from '../template/pagelets/options.ts';
import { sparkSubmitArgs, sparkSubmitError, startSparkSubmit } from '../template/pagelets/global-shards.ts';
import type { Shard } from '../template/pagelets/shards.ts';
import { SHARD_PASS_ONE } from './options.ts';
import type { FailedShard, ShardsOptions, ShardsResult } from './shards.ts';

/** The driver file shipped with the package (next to src/ in the sources, next to dist/ when built). */
function driverPath(): string {
  return fileURLToPath(new URL('../../spark/gabarit_shards.py', import.meta.url));
}

/**
 * The command that runs this installation's gabarit with this Node: the package's bin/gabarit.js, or in
 * the repository the sources through tsx. It works on executors that share this machine or its paths.
 */
export function defaultExecutorGabarit(): string[] {
  if (import.meta.url.endsWith('.ts')) return [process.execPath, '--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../cli/main.ts', import.meta.url))];
  return [process.execPath, fileURLToPath(new URL('../../bin/gabarit.js', import.meta.url))];
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
}

/** The command-line flags that give the engine's options `names` their values in `o`. */
function engineArgs(o: PageletOptions, names: readonly string[]): string[] {
  const flags = PAGELET_OPTIONS.cliFlags();
  const values = o as unknown as Record<string, unknown>;
  const out: string[] = [];
  for (const name of names) {
    const f = flags.find((x) => x.name === name)!;
    const long = f.flags.split(/[\s,]+/).find((t) => t.startsWith('--'))!;
    if (!f.boolean) out.push(long, String(values[name]));
    else if (values[name] !== f.defaultValue) out.push(long);
  }
  return out;
}

/** What a task's `gabarit --json shards <phase>` printed. */
interface TaskOutput {
  index: number;
  host: string;
  /** The process id of the gabarit that ran it on the executor (its Python worker's `gabarit shards serve`). */
  server?: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs analyse, the global step and mark of every shard of `all` as one Spark application; `globalPhase`
 * is the global step of `shards` (skipped when up to date), given the runner of its jobs in this application.
 */
export async function runShardsOnSpark(
  all: readonly Shard[],
  options: ShardsOptions,
  globalPhase: (sparkRunner: (jobPaths: readonly string[]) => Promise<void>) => Promise<NonNullable<ShardsResult['global']>>,
): Promise<ShardsResult> {
  if (options.part) throw new Error('with the Spark backend, Spark runs every shard: give no part');
  if (all.length === 0) throw new Error('no shard to run');
  const { work, options: o } = options;
  const out = options.out ?? join(work, 'out');
  const sources = all.map((s) => s.spec);
  // without workers given, each task's gabarit runs as many worker threads as the task has CPUs (the driver adds them)
  const common = ['--work', work, ...(options.sparkTaskWorkers !== undefined ? ['--workers', String(options.sparkTaskWorkers)] : [])];
  const format = options.format === 'jsonl' ? ['--format', 'jsonl'] : [];
  await mkdir(work, { recursive: true });
  const control = await mkdtemp(join(tmpdir(), 'gabarit-spark-run-'));
  const job = {
    appName: 'gabarit shards run',
    control,
    launcher: process.pid,
    gabarit: options.sparkGabarit ?? defaultExecutorGabarit(),
    version: packageVersion(),
    shards: all.length,
    analyse: [...sources, ...common, ...engineArgs(o, SHARD_PASS_ONE), ...(options.records === false ? ['--no-records'] : []), ...format],
    mark: [...sources, ...common, '--out', out, ...format],
  };
  const jobPath = join(control, 'job.json');
  await writeFile(jobPath, JSON.stringify(job, null, 1) + '\n');
  const logPath = join(control, 'spark.log');
  const { child, exited } = await startSparkSubmit([...sparkSubmitArgs(options), driverPath(), jobPath], logPath, options);
  let code: number | undefined;
  let spawnError: Error | undefined;
  exited.then(
    (c) => (code = c),
    (err: Error) => (spawnError = err),
  );

  /** Why the application stopped: the driver's message (a task's, naming its executor), else spark-submit's. */
  const failure = async (): Promise<Error> => {
    if (spawnError) return spawnError;
    const kept = join(work, 'spark-failed.log');
    const said = join(control, 'error.json');
    if (existsSync(said)) {
      await rename(logPath, kept).catch(() => undefined);
      return new Error(`${(JSON.parse(await readFile(said, 'utf8')) as { message: string }).message} (Spark's log: ${kept})`);
    }
    return sparkSubmitError(code ?? 1, logPath, kept);
  };
  /** The driver's file `name`, once written. */
  const next = async <T>(name: string): Promise<T> => {
    const path = join(control, name);
    for (;;) {
      if (existsSync(path)) return JSON.parse(await readFile(path, 'utf8')) as T;
      if (spawnError || code !== undefined) throw await failure();
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const answer = async (name: string, value: unknown): Promise<void> => {
    await writeFile(join(control, `${name}.tmp`), JSON.stringify(value));
    await rename(join(control, `${name}.tmp`), join(control, name));
  };
  const result: ShardsResult = { work, failures: [] };
  const taskOutputs = <T>(tasks: readonly TaskOutput[], phase: string): T[] =>
    tasks.flatMap((t) => {
      for (const line of t.stderr.split('\n')) if (line.trim()) options.onTaskLine?.(line);
      const printed = JSON.parse(t.stdout) as Record<string, T[] | undefined> & { failedShards?: FailedShard[] };
      options.onInfo?.(`shard ${t.index}: ${phase} ran on executor ${t.host}${t.server !== undefined ? ` (gabarit process ${t.server})` : ''}`);
      // a shard left out by analyse is not named again by mark
      for (const f of printed.failedShards ?? []) {
        if (result.failedShards?.some((g) => g.shard === f.shard)) continue;
        (result.failedShards ??= []).push(f);
      }
      return printed[phase === 'analyse' ? 'analysed' : 'marked'] ?? [];
    });

  try {
    const analysed = await next<{ tasks: TaskOutput[] }>('analysed.json');
    result.analysed = taskOutputs<NonNullable<ShardsResult['analysed']>[number]>(analysed.tasks, 'analyse');
    result.global = await globalPhase(async (jobPaths) => {
      await answer('global.json', { jobs: jobPaths });
      await next('global-done.json');
    });
    // a global result up to date gave no job to run
    if (result.global.skipped) {
      await answer('global.json', { jobs: [] });
      await next('global-done.json');
    }
    await answer('mark.json', {});
    const marked = await next<{ tasks: TaskOutput[] }>('marked.json');
    result.marked = taskOutputs<NonNullable<ShardsResult['marked']>[number]>(marked.tasks, 'mark');
    for (const m of result.marked) {
      if (m.skipped || m.failures === 0) continue;
      const summary = JSON.parse(await readFile(join(m.out, 'summary.json'), 'utf8')) as { failures?: PageFailure[] };
      result.failures.push(...(summary.failures ?? []));
    }
    const c = await exited;
    if (c !== 0) throw await failure();
    return result;
  } catch (err) {
    if (code === undefined && !spawnError) {
      child.kill('SIGTERM');
      await exited.catch(() => undefined);
    }
    throw err;
  } finally {
    await rm(control, { recursive: true, force: true });
  }
}
