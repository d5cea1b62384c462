/**
 * Comparing two runs of the sharded global step (DuckDB and Spark): their template pagelets and templates
 * (the Parquet results, as sorted rows) and every page's output files (byte for byte).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** Sorted rows of the global step's results in a work directory. */
export async function globalRows(work: string): Promise<{ templatePagelets: string; templates: string }> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const g = join(work, 'global');
    // no rows, no files: Spark writes no partition folder for an empty result
    const read = async (glob: string, sql: string): Promise<string> =>
      parquetFiles(join(g, glob)).length === 0 ? '[]' : JSON.stringify((await c.runAndReadAll(sql)).getRows(), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    return {
      templatePagelets: await read('template_pagelets', `SELECT shard, page, ordinal, node, nodes, chars FROM read_parquet('${g}/template_pagelets/*/*.parquet', hive_partitioning = true) ORDER BY ALL`),
      templates: await read('templates', `SELECT shingle, first_page, size FROM read_parquet('${g}/templates/*.parquet') ORDER BY ALL`),
    };
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** The Parquet files under `dir` (none when it is missing). */
function parquetFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.parquet'));
}

/** Every `.html` and `.txt` file under `dir`, by relative path. */
export function pageFiles(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(html|txt)$/.test(f)) out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

/** The page files that differ between two output folders (missing on either side included). */
export function differingFiles(a: string, b: string): string[] {
  const fa = pageFiles(a);
  const fb = pageFiles(b);
  const diff: string[] = [];
  for (const [k, v] of fa) if (!fb.get(k)?.equals(v)) diff.push(k);
  for (const k of fb.keys()) if (!fa.has(k)) diff.push(k);
  return diff;
}

/** One task attempt's end, from a Spark event log. */
export interface TaskEnd {
  /** The description of the job whose stage ran the task (`SparkContext.setJobDescription`). */
  job: string;
  index: number;
  attempt: number;
  executor: string;
  host: string;
  /** `Success`, or why the attempt failed (`ExceptionFailure`, `ExecutorLostFailure`, …). */
  reason: string;
}

/**
 * The task ends of the one application whose uncompressed event log is in `dir`, in their order: a file,
 * or a folder of numbered files (a rolling event log, Spark 4's default).
 */
export function taskEnds(dir: string): TaskEnd[] {
  const logs = readdirSync(dir).filter((f) => !f.startsWith('.'));
  if (logs.length !== 1) throw new Error(`expected one event log in ${dir}, found ${logs.join(', ') || 'none'}`);
  const log = join(dir, logs[0]!);
  const number = (f: string): number => Number(/^events_(\d+)_/.exec(f)?.[1] ?? 0);
  const files = statSync(log).isDirectory()
    ? readdirSync(log).filter((f) => f.startsWith('events_')).sort((a, b) => number(a) - number(b)).map((f) => join(log, f))
    : [log];
  const jobOfStage = new Map<number, string>();
  const ends: TaskEnd[] = [];
  for (const line of files.flatMap((f) => readFileSync(f, 'utf8').split('\n'))) {
    if (!line) continue;
    const e = JSON.parse(line) as Record<string, any>;
    if (e['Event'] === 'SparkListenerJobStart') for (const id of e['Stage IDs'] as number[]) jobOfStage.set(id, String(e['Properties']?.['spark.job.description'] ?? ''));
    if (e['Event'] === 'SparkListenerTaskEnd') {
      const info = e['Task Info'];
      ends.push({ job: jobOfStage.get(e['Stage ID']) ?? '', index: info['Index'], attempt: info['Attempt'], executor: String(info['Executor ID']), host: info['Host'], reason: e['Task End Reason']['Reason'] });
    }
  }
  return ends;
}
