/**
 * Pass 1's per-page steps as a worker thread runs them (worker.ts `analyse`), each timed apart on the
 * pages of a WARC file held in memory: decoding, the parse, the analysis, the text record. With
 * `--against DIR` (the dist/ folder of another build, e.g. a checkout of an earlier commit built with
 * `npm run build`), that build and this tree's dist/ (`npm run build` first: both compiled by tsc, as
 * users run them; tsx's output of the sources runs at another speed) run in the same process, alternating
 * every 50 pages, so that the machine's drift (a quarter of the parse's figure between runs on a shared
 * machine) falls on both alike.
 *
 * Run: `npx tsx bench/worker-steps.ts /tmp/crawl/crawl-0.warc.gz 2000 [--against /tmp/base/dist]`
 * (the archive from `npx tsx bench/synthetic-warc.ts 20000 2 /tmp/crawl`).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml } from '../src/html/parse.ts';
import type { Tree } from '../src/html/tree.ts';
import { WarcSource } from '../src/site/warc-source.ts';
import type { Page } from '../src/site/page.ts';
import { analyseTree, pageletLabels } from '../src/template/pagelets/page-analysis.ts';
import { recordOfKind } from '../src/template/pagelets/render.ts';

/** What one build gives the bench. */
interface Build {
  name: string;
  decodeHtml: typeof decodeHtml;
  parseHtml: typeof parseHtml;
  analyseTree: typeof analyseTree;
  pageletLabels: typeof pageletLabels;
  recordOfKind: typeof recordOfKind;
}

const args = process.argv.slice(2);
const against = args.indexOf('--against');
const other = against >= 0 ? args.splice(against, 2)[1] : undefined;
const file = args[0] ?? '/tmp/crawl/crawl-0.warc.gz';
const max = Number(args[1] ?? 2000);

/** The functions of the build compiled into `dir`. */
async function compiled(dir: string): Promise<Build> {
  const at = (m: string): Promise<Record<string, unknown>> => import(pathToFileURL(resolve(dir, m)).href) as Promise<Record<string, unknown>>;
  const [charset, parse, pa, render] = await Promise.all([at('html/charset.js'), at('html/parse.js'), at('template/pagelets/page-analysis.js'), at('template/pagelets/render.js')]);
  return { name: dir, ...charset, ...parse, ...pa, ...render } as unknown as Build;
}

const builds: Build[] = other
  ? [await compiled(other), await compiled(resolve(import.meta.dirname, '..', 'dist'))]
  : [{ name: 'this tree', decodeHtml, parseHtml, analyseTree, pageletLabels, recordOfKind }];

const src = await WarcSource.open(file);
const pages: Page[] = [];
for await (const r of src.pages({ maxPages: max })) if (r.ok) pages.push(r.page);
await src.close();

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const STEPS = ['decode', 'parse', 'analyse', 'text'] as const;
const labels = builds.map((b) => b.pageletLabels());
const spent = builds.map(() => ({ decode: 0, parse: 0, analyse: 0, text: 0 }));
const ROUNDS = 3;
const CHUNK = 50;
// round 0 warms both builds up and is not counted
for (let round = 0; round <= ROUNDS; round++) {
  for (let c = 0; c < pages.length; c += CHUNK) {
    for (let k = 0; k < builds.length; k++) {
      const w = (k + round) % builds.length;
      const b = builds[w]!;
      const t = spent[w]!;
      for (const p of pages.slice(c, c + CHUNK)) {
        let a = cpu();
        const { text } = b.decodeHtml(p.body, p.headers['content-type']);
        let z = cpu();
        if (round > 0) t.decode += z - a;
        const tree: Tree = b.parseHtml(text, { labels: labels[w]! });
        a = cpu();
        if (round > 0) t.parse += a - z;
        b.analyseTree(tree, p.key, p.url, {});
        z = cpu();
        if (round > 0) t.analyse += z - a;
        b.recordOfKind(tree, 'text');
        if (round > 0) t.text += cpu() - z;
      }
    }
  }
}
const n = pages.length * ROUNDS;
const kib = pages.reduce((a, p) => a + p.body.length, 0) / pages.length / 1024;
console.log(`${pages.length} pages of ${file}, mean ${kib.toFixed(1)} KiB, ${ROUNDS} rounds; ms of CPU a page:`);
for (let w = 0; w < builds.length; w++) console.log(`  ${builds[w]!.name}: ` + STEPS.map((s) => `${s} ${(spent[w]![s] / n).toFixed(3)}`).join(', '));
if (builds.length === 2) console.log('  change: ' + STEPS.map((s) => `${s} ${(((spent[1]![s] - spent[0]![s]) / spent[0]![s]) * 100).toFixed(1)}%`).join(', '));
