/**
 * Benchmark of the hyperlink engine (paper 2, Alarte et al.): the time to learn the template
 * from one key page (Algorithm 1 + Algorithm 2 + navigation regions), loading excluded and included, as
 * a ratio to parsing the pages involved (the key page and every page Algorithm 1 loaded) with `parseHtml`;
 * and the time to mark one page (parse included) as a ratio to parsing it.
 * Sources: the corpus sites as directories (loading = reading files) and served on 127.0.0.1 over HTTP
 * (loading = local HTTP). 3 key pages per site (the first, middle and last of the eval's 10), median of 3
 * runs each. Run: `npx tsx bench/hyperlink.bench.ts` (skips when the corpus is absent).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusAvailable, CORPUS_MISSING } from '../src/eval/corpus-path.ts';
import { listSites, type CorpusSite } from '../src/eval/corpus.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { HttpSource } from '../src/site/http-source.ts';
import type { PageSource } from '../src/site/page.ts';
import { serveDirectory } from '../src/site/serve.ts';
import { runEngine } from '../src/run/drive.ts';
import engine from '../src/template/hyperlink/engine.ts';
import { keyPages } from '../eval/hyperlink.eval.ts';

const RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Milliseconds to parse these files once (median of RUNS, text decoded beforehand). */
function parseMs(site: CorpusSite, keys: readonly string[]): number {
  const texts = keys.map((k) => decodeHtml(readFileSync(join(site.pagesDir, k))).text);
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const labels = new LabelTable();
    const t = performance.now();
    for (let i = 0; i < texts.length; i++) parseHtml(texts[i]!, { labels, selfClosing: keys[i]!.endsWith('.xhtml') });
    times.push(performance.now() - t);
  }
  return median(times);
}

interface Sample {
  learn: number;
  load: number;
  mark: number;
  pages: number;
  involved: string[];
}

async function once(source: PageSource, key: string): Promise<Sample> {
  let pages = 0;
  const run = runEngine(engine, source, { options: { key } });
  for await (const o of run) if (o.ok) pages++;
  const r = await run.result();
  const s = r.engine;
  const involved = new Set<string>([(s['keyPage'] as { key: string }).key, ...(s['linksTried'] as string[]), ...(s['templatePages'] as string[])]);
  return { learn: r.timings['learn']!, load: r.timings['load']!, mark: r.timings['mark']!, pages, involved: [...involved] };
}

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    process.stdout.write(`${CORPUS_MISSING}: hyperlink bench skipped\n`);
    return;
  }
  const rows: string[][] = [];
  for (const site of listSites()) {
    const all = keyPages(site);
    const keys = [...new Set([all[0]!, all[Math.floor(all.length / 2)]!, all[all.length - 1]!])];
    const served = await serveDirectory(site.pagesDir);
    try {
      for (const kind of ['dir', 'http'] as const) {
        const learnEx: number[] = [];
        const learnIn: number[] = [];
        const markRatio: number[] = [];
        let involvedPages = 0;
        for (const key of keys) {
          const samples: Sample[] = [];
          for (let r = 0; r < RUNS; r++) {
            const source = kind === 'dir' ? new DirSource(site.pagesDir, { entry: site.entry }) : new HttpSource(served.url + site.entry, { delayMs: 0, concurrencyPerHost: 4 });
            samples.push(await once(source, key));
            await source.close();
          }
          const involved = samples[0]!.involved.filter((k) => site.files().includes(k));
          involvedPages += involved.length;
          const p = parseMs(site, involved);
          learnIn.push(median(samples.map((s) => s.learn)) / p);
          learnEx.push(median(samples.map((s) => s.learn - s.load)) / p);
          const perPageParse = parseMs(site, site.files()) / site.files().length;
          const pagesMarked = samples[0]!.pages;
          markRatio.push(median(samples.map((s) => s.mark)) / pagesMarked / perPageParse);
        }
        const m = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);
        rows.push([site.name, kind, String(keys.length), (involvedPages / keys.length).toFixed(1), m(learnEx), m(learnIn), m(markRatio)]);
      }
    } finally {
      await served.close();
    }
  }
  const header = ['site', 'source', 'keys', 'pages involved', 'learn / parse (load excl.)', 'learn / parse (load incl.)', 'mark one page / parse it'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(`hyperlink bench — ratios to parseHtml on the same pages (median of ${RUNS} runs; lower is faster)\n`);
  process.stdout.write(line(header) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
  for (const r of rows) process.stdout.write(line(r) + '\n');
  process.stdout.write(`peak RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB\n`);
}

await main();
