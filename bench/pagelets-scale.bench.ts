/**
 * Scale benchmark of the pagelets engine (issue 5, "Scale"): a synthetic crawl made by perturbing corpus
 * site pages (bench/pagelets-synthetic.ts says how), run end to end through the global algorithm in
 * DuckDB: pass 1 (parse, partition, shingle, links) in 2 worker threads with rows appended to DuckDB as
 * they come, the relational steps of Figure 5, pass 2 (parse again, mark the template pagelets) in the
 * workers, each marked Tree handed to the main thread (counted, not written). Generating the pages is part
 * of the end-to-end time (it is the source), and is printed separately.
 *
 * Figures, for each size:
 *  - wall: end-to-end pages/s, and its ratio to raw `parseHtml` pages/s on the same pages, one thread (the
 *    default label table, as `npm run bench -- parse`); the baseline is timed just before and just after
 *    the run and averaged, so both see about the same machine load;
 *  - CPU: end-to-end CPU seconds per page (every thread of the process: main, workers, DuckDB, GC) against
 *    the baseline's CPU seconds per page; their ratio does not depend on how busy the machine is. With the
 *    2 workers on 2 free cores, wall ratio ≈ 2 × CPU ratio at best;
 *  - the time of each SQL step; peak RSS (sampled every 50 ms, and the kernel's high-water mark, which
 *    covers the whole process: run one size per process for a clean figure); the load average.
 *
 * Run: `npx tsx bench/pagelets-scale.bench.ts 50000` (sizes comma-separated, or PAGELETS_BENCH_PAGES);
 * default 3000 so `npm run bench` stays short. Without the corpus, the tests' synthetic site is the base.
 */
import { loadavg } from 'node:os';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { corpusAvailable } from '../src/eval/corpus-path.ts';
import { runPagelets } from '../src/template/pagelets/engine.ts';
import { SyntheticCrawl } from './pagelets-synthetic.ts';

const sizes = (process.argv[2] ?? process.env['PAGELETS_BENCH_PAGES'] ?? '3000').split(',').map(Number);
const WORKERS = 2;

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** Raw parse of `htmls` on this thread: pages/s by wall clock and CPU ms per page. */
function parseBaseline(htmls: readonly string[]): { rate: number; cpuPerPage: number } {
  const labels = new LabelTable();
  for (const h of htmls.slice(0, 200)) parseHtml(h, { labels }); // warm-up
  const c = cpuMs();
  const t = performance.now();
  for (const h of htmls) parseHtml(h, { labels });
  const ms = performance.now() - t;
  return { rate: htmls.length / (ms / 1000), cpuPerPage: (cpuMs() - c) / htmls.length };
}

async function main(): Promise<void> {
  const crawl = new SyntheticCrawl();
  const maxN = Math.max(...sizes);
  // flat strings, as the engine sees them after decoding bytes (generated strings are ropes, slower to scan)
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const sample = 1500;
  const htmls = Array.from({ length: sample }, (_, i) => dec.decode(enc.encode(crawl.page(i * 7, maxN))));
  const bytes = htmls.reduce((a, h) => a + h.length, 0);
  console.log(`base pages: ${crawl.bases} (${corpusAvailable() ? 'corpus sites' : 'synthetic'}); mean page ${(bytes / sample / 1024).toFixed(1)} KiB; ${WORKERS} workers`);
  const rows: Record<string, string | number>[] = [];
  for (const n of sizes) {
    const before = parseBaseline(htmls);
    const loadBefore = load();
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const source = crawl.source(n);
    let marked = 0;
    const c0 = cpuMs();
    const t = performance.now();
    const r = await runPagelets({
      source,
      labels: new LabelTable({ attributes: 'none' }),
      options: { global: true, backend: 'sql', workers: WORKERS, keepTreesUpTo: 0 },
      onPage: async () => {
        marked++;
      },
      onFailure: (f) => console.error(f.message),
    });
    const ms = performance.now() - t;
    const cpu = cpuMs() - c0;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    const loadAfter = load();
    const after = parseBaseline(htmls);
    const parseRate = (before.rate + after.rate) / 2;
    const parseCpu = (before.cpuPerPage + after.cpuPerPage) / 2;
    const s = r.summary['pagelets'] as Record<string, number>;
    const rate = n / (ms / 1000);
    const tm = r.timings;
    console.log(`n=${n}: load before ${loadBefore}, after ${loadAfter}`);
    console.log(`n=${n}: raw parse ${before.rate.toFixed(0)} / ${after.rate.toFixed(0)} pages/s (before / after), CPU ${before.cpuPerPage.toFixed(3)} / ${after.cpuPerPage.toFixed(3)} ms/page`);
    const steps = Object.entries(tm).filter(([k]) => k.startsWith('detect.')).map(([k, v]) => `${k.slice(7)} ${(v / 1000).toFixed(2)}s`);
    console.log(`n=${n}: SQL steps: ${steps.join(', ')}`);
    rows.push({
      pages: n,
      'pages/s': Math.round(rate),
      'parse pages/s': Math.round(parseRate),
      'wall ratio': +(rate / parseRate).toFixed(2),
      'CPU ms/page': +(cpu / n).toFixed(2),
      'parse CPU ms/page': +parseCpu.toFixed(2),
      'CPU ratio': +(parseCpu / (cpu / n)).toFixed(2),
      'generation s': +(source.genMs / 1000).toFixed(1),
      'pass 1 s': +((tm['pages'] ?? 0) / 1000).toFixed(1),
      'SQL s': +((tm['detect'] ?? 0) / 1000).toFixed(1),
      'pass 2 s': +((tm['marks'] ?? 0) / 1000).toFixed(1),
      'peak RSS MiB': Math.round(peak / 1048576),
      'max RSS MiB': Math.round(process.resourceUsage().maxRSS / 1024),
      marked,
      pagelets: s['pagelets']!,
      'template links': s['templateLinks']!,
      'template pagelets': s['templatePagelets']!,
    });
  }
  console.table(rows);
}

await main();
