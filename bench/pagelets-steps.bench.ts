/**
 * Where pass 1 of the pagelets engine spends its CPU, page by page, on one thread: the steps a worker runs
 * for each page of the synthetic crawl (bench/pagelets-synthetic.ts), each timed apart in CPU time, against
 * raw `parseHtml` of the same pages (the default label table, as bench/pagelets-scale.bench.ts times it):
 *  - decode: the page's bytes to a string (charset detection, html/charset.ts);
 *  - parse: `parseHtml` with the engine's label table;
 *  - analyse: partition, links, shingles, navigation pagelets, pagelet sizes (page-analysis.ts);
 *  - serialise: the page's file as UTF-8 bytes with its mark slots (html/serialize.ts `serializeUtf8`),
 *    also part of the next step, timed alone to show its share;
 *  - record: what the output phase needs (render.ts `recordRender`: the serialisation, the text walk, the
 *    record encoded).
 * Each step's figure is its CPU ms per page over the second of two passes (the first warms the JIT).
 *
 * Run: `npx tsx bench/pagelets-steps.bench.ts 3000` (pages; default 1000).
 */
import { loadavg } from 'node:os';
import { decodeHtml } from '../src/html/charset.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { serializeUtf8, Utf8Sink } from '../src/html/serialize.ts';
import { OVERLAY_STYLE } from '../src/output.ts';
import { analysisOptions, runOptions } from '../src/template/pagelets/engine.ts';
import { analyseTree, pageletLabels } from '../src/template/pagelets/page-analysis.ts';
import { recordRender } from '../src/template/pagelets/render.ts';
import { SyntheticCrawl } from './pagelets-synthetic.ts';

const n = Number(process.argv[2] ?? 1000);
const crawl = new SyntheticCrawl();
const pages = Array.from({ length: n }, (_, i) => crawl.pageBytes(i, n).slice());
const labels = pageletLabels();
const options = analysisOptions(runOptions({}));
const sink = new Utf8Sink();
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const ms: Record<string, number> = {};
const load = loadavg()[0]!.toFixed(2);
let bytes = 0;
for (let pass = 0; pass < 2; pass++) {
  for (const k of Object.keys(ms)) ms[k] = 0;
  for (let i = 0; i < n; i++) {
    let a = cpu();
    const step = (name: string): void => {
      const b = cpu();
      ms[name] = (ms[name] ?? 0) + b - a;
      a = b;
    };
    const { text } = decodeHtml(pages[i]!, 'text/html');
    step('decode');
    const tree = parseHtml(text, { labels });
    step('parse');
    analyseTree(tree, `p/${i}.html`, `${crawl.root}p/${i}.html`, options);
    step('analyse');
    serializeUtf8(tree, sink, { inject: OVERLAY_STYLE });
    step('serialise (alone)');
    bytes += recordRender(tree)?.length ?? 0;
    step('record (serialise, text walk, encoding)');
  }
}
const base = new LabelTable();
const texts = pages.map((p) => new TextDecoder().decode(p));
for (const t of texts.slice(0, 200)) parseHtml(t, { labels: base });
const c = cpu();
for (const t of texts) parseHtml(t, { labels: base });
const parse = (cpu() - c) / n;
console.log(`${n} pages, load ${load} → ${loadavg()[0]!.toFixed(2)}; records ${(bytes / 2 / n / 1024).toFixed(1)} KiB a page`);
const rows = Object.entries(ms).map(([step, v]) => ({ step, 'CPU ms/page': +(v / n).toFixed(3), 'of raw parse': +(v / n / parse).toFixed(2) }));
rows.push({ step: 'raw parseHtml (default labels)', 'CPU ms/page': +parse.toFixed(3), 'of raw parse': 1 });
console.table(rows);
