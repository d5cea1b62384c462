/**
 * Memory of a crawl pipeline: `extractContent` on a WARC written as one jsonl record per page (what
 * `gabarit content crawl.warc.gz --format jsonl --out -` runs), for archives of growing size. Each size
 * runs in its own process (so peak RSS is its own): a synthetic site of N pages (test/run/fixtures.ts, each
 * page padded to about 21 KB) archived with `writeWarc`, read back page by page from the records' offsets
 * (src/site/warc-source.ts), the records written to a stream that discards them. Prints peak RSS and the
 * JS heap after a full GC at the end, per size; with `--heap MB` the child runs under that V8 heap cap
 * (a run that completes under a small cap holds no per-page data beyond it).
 * Run: `npx tsx bench/jsonl.bench.ts [--sizes 1000,4000,16000] [--heap 96]` (no corpus needed).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { extractContent } from '../src/run/content.ts';
import { writeOutputs } from '../src/run/write.ts';
import { writeWarc } from '../src/site/warc-source.ts';
import { sitePage } from '../test/run/fixtures.ts';
import { fullGc, heapAfterGc, peakRss, table } from './common.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** The child: one archive of `n` pages, one jsonl run; prints a JSON line of its figures. */
async function child(n: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-jsonl-'));
  try {
    const file = join(dir, 'crawl.warc.gz');
    const pad = '<!--' + 'x'.repeat(20000) + '-->';
    await writeWarc((function* () {
      for (let i = 0; i < n; i++) yield { key: `p/${i}.html`, body: sitePage('alpha', i, 6) + pad };
    })(), file, { baseUrl: 'https://alpha.example/' });
    fullGc();
    const before = peakRss();
    let records = 0;
    const sink = new Writable({ write: (_c, _e, cb) => ((records++), cb()) });
    const t0 = performance.now();
    const { summary } = await writeOutputs(extractContent(file), { out: sink, format: 'jsonl' });
    const ms = performance.now() - t0;
    process.stdout.write(JSON.stringify({ n, done: summary.pagesDone, records, ms, rssBefore: before, rss: peakRss(), heap: heapAfterGc() }) + '\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sizes = (arg('--sizes') ?? '1000,4000,16000').split(',').map(Number);
  const heap = arg('--heap');
  const rows: Array<Array<string | number>> = [['pages', 'MB of HTML', 'records', 'peak RSS MiB', 'heap after GC MiB', 'pages/s']];
  for (const n of sizes) {
    const flags = ['--expose-gc', '--import', 'tsx', ...(heap ? [`--max-old-space-size=${heap}`] : [])];
    const r = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), '--child', String(n)], { encoding: 'utf8' });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) {
      rows.push([n, '', `failed (exit ${r.status}): ${r.stderr.trim().split('\n').pop() ?? ''}`, '', '', '']);
      continue;
    }
    const f = JSON.parse(line) as { n: number; done: number; records: number; ms: number; rss: number; heap: number };
    rows.push([n, (n * 21_000 / 1e6).toFixed(0), f.records, Math.round(f.rss / 2 ** 20), Math.round(f.heap / 2 ** 20), Math.round(f.done / (f.ms / 1000))]);
  }
  console.log(`extractContent on a WARC, jsonl records to a discarding stream${heap ? `, V8 heap capped at ${heap} MB` : ''}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(table(rows));
}

if (process.argv.includes('--child')) await child(Number(arg('--child')));
else await main();
