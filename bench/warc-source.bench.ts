/**
 * Reading WARC files: `WarcSource.open` (the index: every record read once) and `pages()` (each page read
 * back from its record), CPU ms a page, against raw `parseHtml` of the same pages (default label table,
 * each page decoded first and not timed).
 *
 * Run: `npx tsx bench/warc-source.bench.ts /tmp/crawl/crawl-0.warc.gz` (archives from
 * bench/synthetic-warc.ts, or any WARC files); without an argument, a synthetic archive of 2,000 pages is
 * written to a temporary folder first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { WarcSource } from '../src/site/warc-source.ts';
import { SyntheticCrawl, writeSyntheticWarc } from './pagelets-synthetic.ts';

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

let files = process.argv.slice(2);
let temp: string | undefined;
if (files.length === 0) {
  temp = mkdtempSync(join(tmpdir(), 'gabarit-warc-bench-'));
  await writeSyntheticWarc(new SyntheticCrawl(), 2000, 0, 2000, join(temp, 'crawl.warc.gz'));
  files = [join(temp, 'crawl.warc.gz')];
}
try {
  const rows = [];
  for (const file of files) {
    let c = cpu();
    const source = await WarcSource.open(file);
    const index = cpu() - c;
    const sample: Uint8Array[] = [];
    let n = 0;
    c = cpu();
    for await (const r of source.pages()) {
      if (!r.ok) continue;
      n++;
      if (n % 7 === 0 && sample.length < 1500) sample.push(r.page.body);
    }
    const read = cpu() - c;
    await source.close();
    const dec = new TextDecoder();
    const htmls = sample.map((b) => dec.decode(b));
    const labels = new LabelTable();
    for (const h of htmls.slice(0, 200)) parseHtml(h, { labels });
    c = cpu();
    for (const h of htmls) parseHtml(h, { labels });
    const parse = (cpu() - c) / htmls.length;
    rows.push({
      file,
      pages: n,
      'gzip members by zlib': source.members,
      'index ms/page': +(index / n).toFixed(3),
      'read ms/page': +(read / n).toFixed(3),
      'parse ms/page': +parse.toFixed(3),
      'index + read / parse': +((index + read) / n / parse).toFixed(2),
    });
  }
  console.table(rows);
} finally {
  if (temp) rmSync(temp, { recursive: true, force: true });
}
