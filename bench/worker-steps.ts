/**
 * Pass 1's per-page steps as one worker runs them (worker.ts `analyse`), each timed apart on the pages of
 * a WARC file held in memory: decode, parse, the analysis, the text record. For finding where the
 * worker's time goes; `--cpu-prof` on it gives the functions.
 *
 * Run: `npx tsx bench/worker-steps.ts /tmp/crawl/crawl-0.warc.gz 3000`
 */
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml } from '../src/html/parse.ts';
import { analyseTree, pageletLabels } from '../src/template/pagelets/page-analysis.ts';
import { recordOfKind } from '../src/template/pagelets/render.ts';
import { WarcSource } from '../src/site/warc-source.ts';

const file = process.argv[2] ?? '/tmp/crawl/crawl-0.warc.gz';
const max = Number(process.argv[3] ?? 3000);
const src = await WarcSource.open(file);
const pages: Array<{ key: string; url: string; body: Uint8Array; type: string | undefined }> = [];
for await (const r of src.pages({ maxPages: max })) if (r.ok) pages.push({ key: r.page.key, url: r.page.url, body: r.page.body, type: r.page.headers['content-type'] });
await src.close();
const labels = pageletLabels();
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t = { decode: 0, parse: 0, analyse: 0, text: 0 };
for (let round = 0; round < 2; round++) {
  for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] = 0;
  for (const p of pages) {
    let c = cpu();
    const { text } = decodeHtml(p.body, p.type);
    let d = cpu();
    t.decode += d - c;
    const tree = parseHtml(text, { labels });
    c = cpu();
    t.parse += c - d;
    analyseTree(tree, p.key, p.url, {});
    d = cpu();
    t.analyse += d - c;
    recordOfKind(tree, 'text');
    t.text += cpu() - d;
  }
}
const kib = pages.reduce((a, p) => a + p.body.length, 0) / pages.length / 1024;
console.log(`${pages.length} pages, mean ${kib.toFixed(1)} KiB; ms of CPU a page: ` + Object.entries(t).map(([k, v]) => `${k} ${(v / pages.length).toFixed(3)}`).join(', '));
