/**
 * Per-page cost of the pagelets engine (paper 3): parse (baseline), then partition (Figure 3), links,
 * and shingles, on the corpus site pages, one thread; plus the whole engine (global algorithm, DuckDB)
 * per site. Throughput is given as a ratio to parsing the same pages with `parseHtml`.
 * Run: `npx tsx bench/pagelets.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { CORPUS_MISSING, corpusAvailable } from '../src/eval/corpus-path.ts';
import { listSites } from '../src/eval/corpus.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { runEngine } from '../src/run/drive.ts';
import pageletsEngine from '../src/template/pagelets/engine.ts';
import { pageLinks } from '../src/template/pagelets/links.ts';
import { linkCounts, partition } from '../src/template/pagelets/partition.ts';
import { shinglePagelets } from '../src/template/pagelets/shingle.ts';

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    console.log(`skipped: ${CORPUS_MISSING}`);
    return;
  }
  const htmls: string[] = [];
  for (const s of listSites()) for (const f of s.files()) htmls.push(readFileSync(join(s.pagesDir, f), 'utf8'));
  const labels = new LabelTable();
  const trees = htmls.map((h) => parseHtml(h, { labels }));
  const time = (fn: () => void, reps = 3): number => {
    fn();
    const t = performance.now();
    for (let r = 0; r < reps; r++) fn();
    return (performance.now() - t) / reps;
  };
  const parse = time(() => htmls.forEach((h) => parseHtml(h, { labels })));
  const part = time(() => trees.forEach((t) => partition(t, { counts: linkCounts(t) })));
  const links = time(() => trees.forEach((t) => pageLinks(t, 'http://local.invalid/a/b/index.html')));
  const pagelets = trees.map((t) => partition(t));
  const ls = trees.map((t) => pageLinks(t, 'http://local.invalid/a/b/index.html'));
  const shingle = time(() => trees.forEach((t, i) => shinglePagelets(t, pagelets[i]!, ls[i]!.node, ls[i]!.dest)));
  const row = (step: string, ms: number): Record<string, string | number> => ({ step, 'ms total': +ms.toFixed(1), 'pages/s': Math.round(htmls.length / (ms / 1000)), 'cost / parse': +(ms / parse).toFixed(3) });
  console.log(`${htmls.length} corpus site pages, one thread`);
  console.table([row('parseHtml (baseline)', parse), row('partition (Figure 3)', part), row('links', links), row('shingles', shingle), row('per-page work after parse', part + links + shingle)]);
  const sites: Record<string, string | number>[] = [];
  for (const s of listSites()) {
    const n = s.files().length;
    const src = new DirSource(s.pagesDir, { entry: s.entry });
    const t = performance.now();
    await runEngine(pageletsEngine, src, { options: { global: true, workers: 2 } }).result();
    const ms = performance.now() - t;
    const pms = time(() => s.files().forEach((f) => parseHtml(readFileSync(join(s.pagesDir, f), 'utf8'))), 1);
    sites.push({ site: s.name, pages: n, 'engine ms': Math.round(ms), 'parse ms': Math.round(pms), 'ratio to parse': +(pms / ms).toFixed(2) });
  }
  console.log('whole engine (global, DuckDB, 2 workers, read + write nothing) per site:');
  console.table(sites);
}

await main();
