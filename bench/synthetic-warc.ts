/**
 * The synthetic crawl of the pagelets benchmarks (bench/pagelets-synthetic.ts) written as WARC files, one
 * gzip member per record as crawlers write them, so that the whole job can be timed through the command line
 * as a user runs it (`gabarit shards run 'DIR/crawl-*.warc.gz'`): reading the archives, pass 1, the global
 * step, writing every page's files. Also prints the raw `parseHtml` CPU per page of a sample of the pages (the
 * default label table, each page decoded first and not timed), the baseline the job's CPU is compared with,
 * and htmlparser2's own DOM building of the same pages, alternating with it.
 *
 * Run: `npx tsx bench/synthetic-warc.ts 20000 2 /tmp/crawl` (pages, files, folder), then for example
 * `/usr/bin/time -f '%U %S %e' gabarit shards run '/tmp/crawl/crawl-*.warc.gz' --work /tmp/w --out /tmp/o`;
 * with 0 files, the parse's figure alone (`npx tsx bench/synthetic-warc.ts 20000 0`: between timed runs).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LabelTable } from '../src/html/labels.ts';
import { parseDocument } from 'htmlparser2';
import { parseHtml } from '../src/html/parse.ts';
import { SyntheticCrawl, writeSyntheticWarc } from './pagelets-synthetic.ts';

const n = Number(process.argv[2] ?? 20000);
const files = Number(process.argv[3] ?? 2);
const dir = process.argv[4] ?? 'synthetic-crawl';
if (files > 0) mkdirSync(dir, { recursive: true });
const crawl = new SyntheticCrawl();
for (let f = 0; f < files; f++) {
  const from = Math.floor((f * n) / files);
  const to = Math.floor(((f + 1) * n) / files);
  const written = await writeSyntheticWarc(crawl, n, from, to, join(dir, `crawl-${f}.warc.gz`));
  console.log(`${join(dir, `crawl-${f}.warc.gz`)}: ${written} pages`);
}

// the baseline: every seventh page up to 3,000, as bench/pagelets-shards.bench.ts samples them; timed
// in blocks of 100 pages alternating with htmlparser2's own DOM building (`parseDocument`), a reference
// that does not move with this package's parser
const sample = Array.from({ length: Math.min(3000, n) }, (_, j) => crawl.page((j * 7) % n, n));
const labels = new LabelTable();
for (const h of sample.slice(0, 300)) {
  parseHtml(h, { labels });
  parseDocument(h);
}
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let ours = 0;
let theirs = 0;
for (let from = 0; from < sample.length; from += 100) {
  const block = sample.slice(from, from + 100);
  let c = cpu();
  for (const h of block) parseHtml(h, { labels });
  ours += cpu() - c;
  c = cpu();
  for (const h of block) parseDocument(h);
  theirs += cpu() - c;
}
const kib = sample.reduce((a, h) => a + Buffer.byteLength(h), 0) / sample.length / 1024;
console.log(`raw parseHtml: ${(ours / sample.length).toFixed(2)} ms of CPU a page (${sample.length} pages, mean ${kib.toFixed(1)} KiB)`);
console.log(`htmlparser2 parseDocument: ${(theirs / sample.length).toFixed(2)} ms of CPU a page (parseHtml ${(ours / theirs).toFixed(2)} × its time)`);
