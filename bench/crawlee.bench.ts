/**
 * The cost of gabarit inside a Crawlee crawl: pages a second of the example crawler
 * (examples/crawlee-crawler.ts, a CheerioCrawler, one request at a time) with gabarit (`priority`: each
 * page's content, metadata and links from the site's model, the template learned online, links enqueued by
 * paper 3's priority) against the same crawler without gabarit (`plain`: Crawlee's own `enqueueLinks`, the
 * title pushed to the Dataset), on sites served on 127.0.0.1 (the demo site, and corpus sites when present).
 * Each crawl runs in its own process, its storage in a temporary folder; the time is the crawl's
 * (`crawler.run`), process start left out; medians of `--reps` runs, the modes alternating. The time gabarit
 * adds to each page (learning included) is the difference of the two times a page; the CPU time a page of
 * the crawling process (Crawlee and gabarit; the server runs in this one) is steadier on a loaded machine.
 * Run: `npx tsx bench/crawlee.bench.ts [--reps N] [--only site]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { serveDirectory } from '../src/site/serve.ts';
import { runExample } from '../test/crawlee/crawl.ts';
import { corpusAvailable, CORPUS_MISSING, fmt, median, table } from './common.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const REPS = Number(arg('--reps') ?? 3);
const ONLY = arg('--only');

const SITES: Array<{ name: string; dir: string }> = [{ name: 'demo', dir: join(import.meta.dirname, '..', 'examples', 'site') }];
if (corpusAvailable()) for (const name of ['jekyll-blog', 'python-docs']) SITES.push({ name, dir: join(CORPUS_DIR, 'sites', name, 'pages') });
else console.log(`note: ${CORPUS_MISSING}; the demo site only`);

const work = await mkdtemp(join(tmpdir(), 'gabarit-crawlee-bench-'));
const rows: Array<Array<string | number>> = [['site', 'pages', 'plain pages/s', 'gabarit pages/s', 'ratio', 'added ms/page', 'CPU ms/page plain', 'CPU ms/page gabarit']];
const ratios: number[] = [];
try {
  for (const site of SITES.filter((s) => ONLY === undefined || s.name === ONLY)) {
    const served = await serveDirectory(site.dir);
    const rate: Record<string, number[]> = { plain: [], priority: [] };
    const cpu: Record<string, number[]> = { plain: [], priority: [] };
    let pages = 0;
    try {
      for (let r = 0; r < REPS; r++) {
        for (const mode of ['plain', 'priority']) {
          const run = await runExample(served.url, mode, await mkdtemp(join(work, 'st-')));
          rate[mode]!.push(run.summary.pagesPerSecond);
          cpu[mode]!.push((1000 * run.summary.cpuSeconds) / run.summary.pages);
          pages = run.summary.pages;
        }
      }
    } finally {
      await served.close();
    }
    const plain = median(rate['plain']!);
    const gabarit = median(rate['priority']!);
    ratios.push(gabarit / plain);
    rows.push([site.name, pages, fmt(plain), fmt(gabarit), fmt(gabarit / plain, 2), fmt(1000 / gabarit - 1000 / plain), fmt(median(cpu['plain']!)), fmt(median(cpu['priority']!))]);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
console.log(table(rows));
console.log(`pages a second with gabarit over without: ${ratios.map((r) => fmt(r, 2)).join(', ')}; ${REPS} runs each, load average ${fmt(loadavg()[0]!)}`);
