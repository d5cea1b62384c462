/**
 * Scale benchmark of the pagelets engine: a synthetic crawl made by perturbing corpus
 * site pages (bench/pagelets-synthetic.ts says how), run end to end through the global algorithm in
 * DuckDB, in two phases timed apart: detection (pass 1: parse, partition, shingle, links in 2 worker
 * threads, rows appended to DuckDB as they come; the relational steps of Figure 5; every page's marks as
 * node ranges and its template fraction read back, no page parsed again), then the output phase (the pages
 * read and parsed again in the workers, each marked Tree handed to the main thread), or, by default, written
 * from what pass 1 recorded (render.ts, no second parse; PAGELETS_BENCH_OUTPUT=trees for the other path).
 * Either way each page's output text (marked HTML and kept text) is made, not written to disk.
 * Generating the pages is part of the time (it is the source), and is printed separately.
 *
 * Figures, for each size:
 *  - wall: end-to-end pages/s, and its ratio to raw `parseHtml` pages/s on the same pages, one thread (the
 *    default label table, as `npm run bench -- parse`); the baseline is timed just before and just after
 *    the run and averaged, so both see about the same machine load;
 *  - CPU: end-to-end CPU seconds per page (every thread of the process: main, workers, DuckDB, GC) against
 *    the baseline's CPU seconds per page, for the detection and for the whole run (output included); their
 *    ratio depends little on how busy the machine is. With the 2 workers on 2 free cores, wall ratio ≈ 2 ×
 *    CPU ratio at best;
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
import { type RenderedPage, TEMPLATE_MARK } from '../src/output.ts';
import { serialize } from '../src/html/serialize.ts';
import { keptText } from '../src/template/result.ts';
import { detectPagelets, markPagelets, pageResults } from '../src/template/pagelets/engine.ts';
import { SyntheticCrawl } from './pagelets-synthetic.ts';

const sizes = (process.argv[2] ?? process.env['PAGELETS_BENCH_PAGES'] ?? '3000').split(',').map(Number);
/**
 * The output phase: 'rendered' (default) writes each page's files from what pass 1 recorded (render.ts, no
 * second parse; the HTML and text are made, not written); 'trees' reads and parses every page again and
 * hands its marked tree over (the path taken when the writer needs trees).
 */
const RENDERED = (process.env['PAGELETS_BENCH_OUTPUT'] ?? 'rendered') === 'rendered';
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
    // peak RSS per phase: pass 1, the relational steps with the read-back, the output phase
    const phasePeak: Record<string, number> = {};
    let phase = 'pass1';
    const timer = setInterval(() => {
      const rss = process.memoryUsage().rss;
      peak = Math.max(peak, rss);
      phasePeak[phase] = Math.max(phasePeak[phase] ?? 0, rss);
    }, 50);
    // with `node --expose-gc`, live memory only (a full collection first); else what the heap holds
    const heap = (): string => {
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      return `rss ${Math.round(m.rss / 1048576)} heapUsed ${Math.round(m.heapUsed / 1048576)} external ${Math.round(m.external / 1048576)} arrayBuffers ${Math.round(m.arrayBuffers / 1048576)} MiB`;
    };
    const source = crawl.source(n);
    const labels = new LabelTable({ attributes: 'none' });
    const options = { global: true, backend: 'sql', workers: WORKERS, keepTreesUpTo: 0 };
    const onFailure = (f: { message: string }): void => console.error(f.message);
    // detection: pass 1, the relational steps, and every page's marks (node ranges) and template fraction
    const c0 = cpuMs();
    const t0 = performance.now();
    const onProgress = (p: string): void => {
      if (p === 'detect') {
        memAt['end of pass 1'] = heap();
        phase = 'sql';
      }
    };
    const memAt: Record<string, string> = {};
    const run = await detectPagelets({ source, labels, options, onFailure, onProgress }, { keepTables: true, spool: RENDERED });
    memAt['after the relational steps'] = heap();
    let fractions = 0;
    let ranges = 0;
    await pageResults(run, (r) => {
      fractions += r.templateFraction;
      ranges += r.nodes.start.length;
    });
    if (!RENDERED) run.close();
    memAt['tables closed'] = heap();
    const ms = performance.now() - t0;
    const cpu = cpuMs() - c0;
    const genDetect = source.genMs;
    peak = Math.max(peak, process.memoryUsage().rss);
    const peakDetect = peak;
    const loadMid = load();
    // output phase (optional): read the pages again, parse and mark them in the workers, hand each Tree over
    peak = 0;
    phase = 'output';
    let marked = 0;
    const c1 = cpuMs();
    const t1 = performance.now();
    let bytes = 0;
    await markPagelets(run, {
      source,
      labels,
      options,
      onFailure,
      // the output files' text made from the marked tree, as OutputWriter.writePage makes it (not written)
      onPage: async (m) => {
        marked++;
        bytes += serialize(m.tree, { mark: (i) => (m.template[i] === 1 ? TEMPLATE_MARK : undefined) }).length + keptText(m).length;
      },
      // the output files' text, rendered from pass 1's records (not written: the same for both paths)
      ...(RENDERED ? { onRendered: async (r: RenderedPage) => void (marked++, (bytes += r.html.length + r.text.length)) } : {}),
    });
    run.close();
    const outMs = performance.now() - t1;
    const outCpu = cpuMs() - c1;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    const loadAfter = load();
    const after = parseBaseline(htmls);
    const parseRate = (before.rate + after.rate) / 2;
    const parseCpu = (before.cpuPerPage + after.cpuPerPage) / 2;
    const d = run.detection;
    const rate = n / (ms / 1000);
    const tm = run.timings;
    console.log(`n=${n}: load before ${loadBefore}, after detection ${loadMid}, after output ${loadAfter}`);
    console.log(`n=${n}: raw parse ${before.rate.toFixed(0)} / ${after.rate.toFixed(0)} pages/s (before / after), CPU ${before.cpuPerPage.toFixed(3)} / ${after.cpuPerPage.toFixed(3)} ms/page`);
    const steps = Object.entries(tm).filter(([k]) => k.startsWith('detect.')).map(([k, v]) => `${k.slice(7)} ${(v / 1000).toFixed(2)}s`);
    console.log(`n=${n}: SQL steps: ${steps.join(', ')}`);
    console.log(`n=${n}: DuckDB memory / temporary storage / spill peak MB per step: ${JSON.stringify(d.stats ?? {})}`);
    console.log(`n=${n}: peak RSS MiB by phase: ${JSON.stringify(Object.fromEntries(Object.entries(phasePeak).map(([k, v]) => [k, Math.round(v / 1048576)])))}`);
    for (const [k, v] of Object.entries(memAt)) console.log(`n=${n}: memory ${k}: ${v}`);
    console.log(`n=${n}: templates (components) ${d.templates.length}`);
    console.log(`n=${n}: output phase ${RENDERED ? `rendered from pass 1 records (spool ${((run.spool?.size ?? 0) / 1048576).toFixed(0)} MiB)` : 'trees (second parse)'}: ${(bytes / 1048576).toFixed(0)} MiB of HTML and text made`);
    console.log(`n=${n}: mean template fraction ${(fractions / run.ids.size).toFixed(4)}, template pagelet ranges ${ranges}, pages marked in the output phase ${marked}`);
    const cpuRatio = parseCpu / (cpu / n);
    console.log(
      `n=${n}: whole run ${(n / ((ms + outMs) / 1000)).toFixed(0)} pages/s, wall ratio ${(n / ((ms + outMs) / 1000) / parseRate).toFixed(2)}; ` +
        `CPU ${((cpu + outCpu) / n).toFixed(2)} ms/page (detection ${(cpu / n).toFixed(2)}, output ${(outCpu / n).toFixed(2)}) against parse ${parseCpu.toFixed(2)}: ` +
        `CPU ratio ${(parseCpu / ((cpu + outCpu) / n)).toFixed(2)}; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`,
    );
    rows.push({
      pages: n,
      'detect pages/s': Math.round(rate),
      'parse pages/s': Math.round(parseRate),
      'wall ratio': +(rate / parseRate).toFixed(2),
      'CPU ms/page': +(cpu / n).toFixed(2),
      'parse CPU ms/page': +parseCpu.toFixed(2),
      'CPU ratio': +cpuRatio.toFixed(2),
      'generation s': +(genDetect / 1000).toFixed(1),
      'pass 1 s': +((tm['pages'] ?? 0) / 1000).toFixed(1),
      'SQL s': +((tm['detect'] ?? 0) / 1000).toFixed(1),
      'detect peak RSS MiB': Math.round(peakDetect / 1048576),
      'output s': +(outMs / 1000).toFixed(1),
      'output CPU ms/page': +(outCpu / n).toFixed(2),
      'output peak RSS MiB': Math.round(peak / 1048576),
      'with output pages/s': Math.round(n / ((ms + outMs) / 1000)),
      'with output wall ratio': +(n / ((ms + outMs) / 1000) / parseRate).toFixed(2),
      'with output CPU ms/page': +((cpu + outCpu) / n).toFixed(2),
      'with output CPU ratio': +(parseCpu / ((cpu + outCpu) / n)).toFixed(2),
      'max RSS MiB': Math.round(process.resourceUsage().maxRSS / 1024),
      pagelets: d.counts.pagelets,
      'template links': d.counts.templateLinks,
      'template pagelets': d.counts.templatePagelets,
    });
  }
  console.table(rows);
}

await main();
