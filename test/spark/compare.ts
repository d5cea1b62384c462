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
