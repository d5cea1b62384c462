/**
 * `shards(specs, { phases, work, ... })`: the pagelets engine's global algorithm (paper 3, Figure 5) over
 * a crawl split into shards (one source each: WARC files or directories, globs allowed), phase by phase,
 * against a work directory every machine shares (src/run/pagelet-shards.ts): `analyse` (pass 1 of
 * each shard into Parquet rows), `global` (Figure 5 over every shard, on DuckDB or Spark SQL), `mark` (each
 * page marked, the output contract written). What `gabarit shards` runs. The three on Spark run as one
 * Spark job whose executors run analyse and mark (spark-shards.ts). A rerun skips what is done: the
 * shards already analysed or written, and the global step when its shards, backend and support are those
 * of its last result. Failed pages are handed to `onFailure` as they come and listed in the result.
 */
import type { PageFailure } from '../output.ts';
import type { GlobalResult } from '../template/pagelets/global-shards.ts';
import type { PageletOptions } from '../template/pagelets/options.ts';
import type { ShardFormat } from './pagelet-shards.ts';

export type ShardPhase = 'analyse' | 'global' | 'mark';

/** Options of `shards`. */
export interface ShardsOptions {
  phases: readonly ShardPhase[];
  /** The work directory (absolute): shards' rows, the global step's result. */
  work: string;
  /** Only the shards of machine `i` of `n` (shard index mod n = i). */
  part?: { i: number; n: number };
  /** Where `mark` writes (absolute): one folder per shard when there are several. */
  out?: string;
  /** The engine's options (parsed: PAGELET_OPTIONS.parse). */
  options: PageletOptions;
  /** Analyse: record what the output phase needs, so that mark parses no page again (default true). */
  records?: boolean;
  /**
   * What mark writes: `text`, the page files (default); `jsonl`, one JSON line a page in each shard's
   * pages.jsonl. Analyse records for it: with `jsonl`, the kept text and title only, not the page.
   */
  format?: ShardFormat;
  /** Engine of the relational steps (default duckdb) and, for Spark, how to submit. */
  backend?: 'duckdb' | 'spark';
  sparkMaster?: string;
  sparkSubmit?: string;
  sparkConf?: Record<string, string>;
  driverMemory?: string;
  /**
   * With `backend: 'spark'` and the three phases, analyse and mark run as Spark tasks on the executors
   * (src/run/spark-shards.ts): the command that runs gabarit there (default: this installation's, run by
   * this Node, `defaultExecutorGabarit`).
   */
  sparkGabarit?: readonly string[];
  /**
   * With the Spark backend, the worker threads of each task's gabarit; default: the task's CPUs
   * (`spark.task.cpus`, 1 unless set), as the executor's cores are shared by its tasks.
   */
  sparkTaskWorkers?: number;
  /** Spark's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  onFailure?: (f: PageFailure) => void;
  /** A shard left out (listed in the result's `failedShards` too): its failure names its source. */
  onShardFailed?: (f: PageFailure) => void;
  onProgress?: (phase: string, done: number, total?: number) => void;
  /** A line about one shard or step (done, skipped). */
  onInfo?: (message: string) => void;
  /** A line a Spark task's gabarit wrote on its stderr (its failed pages, its warnings). */
  onTaskLine?: (line: string) => void;
}

/** What each phase did. */
export interface ShardsResult {
  work: string;
  analysed?: Array<{ shard: number; name: string; skipped: boolean; pages: number }>;
  global?: GlobalResult & { skipped: boolean };
  marked?: Array<{ shard: number; name: string; skipped: boolean; pages: number; failures: number; out: string }>;
  /**
   * The shards left out, the others done: in `analyse` when the source cannot be read (a damaged or empty
   * archive, a missing folder), in `mark` when the shard is not analysed. `url` names the source.
   */
  failedShards?: FailedShard[];
  failures: PageFailure[];
}

/** A shard left out of a phase, and why. */
export interface FailedShard {
  shard: number;
  name: string;
  phase: ShardPhase;
  url: string;
  code: string;
  message: string;
}

/** Runs the phases asked for over the shards of `specs` (see the module comment). */
export async function shards(specs: readonly string[], options: ShardsOptions): Promise<ShardsResult> {
  const [{ listShards, partOf }, { analyseCrawl, markCrawl }, { join }] = await Promise.all([
    import('../template/pagelets/shards.ts'),
    import('./pagelet-shards.ts'),
    import('node:path'),
  ]);
  const { work, options: o, phases } = options;
  const result: ShardsResult = { work, failures: [] };
  let phase: ShardPhase = 'analyse';
  const hooks = {
    onFailure: (f: PageFailure) => {
      result.failures.push(f);
      options.onFailure?.(f);
    },
    onShardFailed: (shard: { index: number; name: string }, f: PageFailure) => {
      (result.failedShards ??= []).push({ shard: shard.index, name: shard.name, phase, url: f.url, code: String(f.code), message: f.message });
      options.onShardFailed?.(f);
    },
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onInfo ? { onShard: options.onInfo } : {}),
  };
  const all = specs.length > 0 ? await listShards(specs) : [];
  if (options.backend === 'spark' && (['analyse', 'global', 'mark'] as const).every((p) => phases.includes(p))) {
    const { runShardsOnSpark } = await import('./spark-shards.ts');
    return runShardsOnSpark(all, options, (sparkRunner) => globalPhase(options, sparkRunner));
  }
  const mine = partOf(all, options.part);
  if (phases.includes('analyse')) {
    const r = await analyseCrawl(work, mine, o, hooks, options.records === false ? false : options.format === 'jsonl' ? 'text' : 'page');
    result.analysed = r.map((s) => ({ shard: s.shard.index, name: s.shard.name, skipped: s.skipped, pages: s.manifest.pages }));
    // no shard could be read: nothing for the next phases (the failures say why)
    if (r.length === 0 && mine.length > 0) return result;
  }
  if (phases.includes('global')) result.global = await globalPhase(options);
  if (phases.includes('mark')) {
    phase = 'mark';
    const out = options.out ?? join(work, 'out');
    // the shards left out by analyse in this run are named once, there
    const left = new Set((result.failedShards ?? []).map((f) => f.shard));
    const r = await markCrawl(work, mine.filter((s) => !left.has(s.index)), (s) => (all.length > 1 ? join(out, s.name) : out), o, hooks, options.format ?? 'text');
    result.marked = r.map((s) => ({ shard: s.shard.index, name: s.shard.name, skipped: s.skipped, pages: s.pages, failures: s.failures, out: s.out }));
  }
  return result;
}

/**
 * The global step of `options.work`, skipped when its result is up to date; on Spark in its own
 * spark-submit, or through `sparkRunner` in an application already running.
 */
async function globalPhase(options: ShardsOptions, sparkRunner?: (jobPaths: readonly string[]) => Promise<void>): Promise<NonNullable<ShardsResult['global']>> {
  const { globalDone, runGlobalShards } = await import('../template/pagelets/global-shards.ts');
  const { work, options: o } = options;
  const backend = options.backend ?? 'duckdb';
  const support = { minPages: o.minPages, minSupport: o.minSupport, supportCap: o.supportCap };
  const done = await globalDone(work, backend, support);
  if (done) {
    options.onInfo?.(`global step (${done.backend}): already done for these shards, skipped`);
    return { ...done, skipped: true };
  }
  options.onProgress?.('global', 0);
  const r = await runGlobalShards(work, {
    backend,
    support,
    ...(options.sparkMaster !== undefined ? { sparkMaster: options.sparkMaster } : {}),
    ...(options.sparkSubmit ? { sparkSubmit: options.sparkSubmit } : {}),
    sparkConf: options.sparkConf ?? {},
    ...(options.driverMemory !== undefined ? { driverMemory: options.driverMemory } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(sparkRunner ? { sparkRunner } : {}),
  });
  return { ...r, skipped: false };
}
