/**
 * The Crawlee example (examples/crawlee-crawler.ts) run in a child process against a site served on
 * 127.0.0.1, its storage in a temporary folder; and `gabarit content` on the same site, for comparison.
 * Shared by the test and the bench.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gabarit, ROOT, runProcess } from '../cli/gabarit-process.ts';

/** One Dataset record of the example. */
export interface Crawled {
  n: number;
  url: string;
  title: string;
  headline?: string;
  text?: string;
  learned?: boolean;
  method?: string;
  inClass?: boolean;
}

/** What one run of the example gave: its records in fetch order and its summary line. */
export interface ExampleRun {
  records: Crawled[];
  summary: { strategy: string; pages: number; seconds: number; pagesPerSecond: number; cpuSeconds: number };
  stderr: string;
}

/** Runs the example from `url` with `strategy`, its storage (Dataset, key-value stores) in `storage`. */
export async function runExample(url: string, strategy: string, storage: string, maxRequests = 1000): Promise<ExampleRun> {
  const ran = await runProcess(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'examples', 'crawlee-crawler.ts'), url, strategy, String(maxRequests)], {
    cwd: storage,
    env: { ...process.env, CRAWLEE_STORAGE_DIR: storage, CRAWLEE_PURGE_ON_START: '1' },
  });
  if (ran.code !== 0) throw new Error(`crawlee-crawler.ts exited ${ran.code}: ${ran.stderr}`);
  const dir = join(storage, 'datasets', 'default');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const records = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as Crawled));
  records.sort((a, b) => a.n - b.n);
  const lines = ran.stdout.trim().split('\n');
  return { records, summary: JSON.parse(lines[lines.length - 1]!) as ExampleRun['summary'], stderr: ran.stderr };
}

/** `gabarit content <url> --method align` as jsonl: each page's text by URL. */
export async function gabaritContent(url: string): Promise<Map<string, string>> {
  const ran = await gabarit(['content', url, '--method', 'align', '--delay', '0', '--format', 'jsonl', '--out', '-', '-q']);
  if (ran.code !== 0) throw new Error(`gabarit content exited ${ran.code}: ${ran.stderr}`);
  const texts = new Map<string, string>();
  for (const line of ran.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { url: string; text?: string };
    if (r.text !== undefined) texts.set(r.url, r.text);
  }
  return texts;
}

/** Requests made until every URL for which `isContent` holds was fetched (Infinity when one never was). */
export function requestsToReach(records: readonly Crawled[], isContent: (path: string) => boolean, all: ReadonlySet<string>): number {
  const left = new Set([...all].filter(isContent));
  for (const r of records) {
    left.delete(new URL(r.url).pathname);
    if (left.size === 0) return r.n;
  }
  return Infinity;
}
