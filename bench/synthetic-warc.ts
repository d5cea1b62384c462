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
 * With `--busy`, the parse is measured with every core busy, as a job that runs on all of them finds it: as
 * many copies of the measure run at once as the machine has cores, and their mean is printed (two cores
 * that share a physical core, or its caches, each parse slower than one alone: compare a job run on all
 * the cores with this figure, not with the one of an idle machine).
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { LabelTable } from '../src/html/labels.ts';
import { parseDocument } from 'htmlparser2';
import { parseHtml } from '../src/html/parse.ts';
import { SyntheticCrawl, writeSyntheticWarc } from './pagelets-synthetic.ts';

const argv = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const n = Number(argv[0] ?? 20000);
const files = Number(argv[1] ?? 2);
const dir = argv[2] ?? 'synthetic-crawl';
if (process.argv.includes('--busy')) {
  // the parse's figure with every core busy: one copy of this measure per core, run at once
  const copies = availableParallelism();
  const run = (): Promise<string> =>
    new Promise((done, fail) =>
      execFile(process.execPath, [...process.execArgv, process.argv[1]!, String(n), '0'], { maxBuffer: 1 << 20 }, (err, out) => (err ? fail(err) : done(out))),
    );
  const outs = await Promise.all(Array.from({ length: copies }, run));
  const figure = (re: RegExp): number[] => outs.map((o) => Number(re.exec(o)?.[1]));
  const ours = figure(/raw parseHtml: ([\d.]+)/);
  const theirs = figure(/htmlparser2 parseDocument: ([\d.]+)/);
  const mean = (xs: number[]): string => (xs.reduce((a, x) => a + x, 0) / xs.length).toFixed(2);
  console.log(`every core busy (${copies} copies at once): raw parseHtml ${mean(ours)} ms of CPU a page (${ours.join(', ')}), htmlparser2 parseDocument ${mean(theirs)} (${theirs.join(', ')})`);
  process.exit(0);
}
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
