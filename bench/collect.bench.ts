/**
 * Throughput of paper 4's page model (run: `npx tsx bench/collect.bench.ts`): on every page of the corpus
 * sites and clusters/stackoverflow, the time to parse (parseHtml, the baseline), to read the structure of
 * the parsed trees and make their schemas (src/structure/page-structure.ts: link collections, text region, layout),
 * and to cluster the schemas (src/structure/schema-clusters.ts), each as pages per second and as a ratio to parsing.
 * A last row does the same on generated pages of one element holding 200,000 links (a worst case for the
 * per-link work: it must stay a small multiple of parsing). Prints a table; skips when the corpus is absent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clusterBySchema } from '../src/structure/schema-clusters.ts';
import { TagLists } from '../src/structure/link-collections.ts';
import type { PageSchema } from '../src/structure/page-schema.ts';
import { readStructure, schemaOfStructure } from '../src/structure/page-structure.ts';
import { corpusAvailable, CORPUS_MISSING } from '../src/eval/corpus-path.ts';
import { listSites, loadClusters } from '../src/eval/corpus.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import type { Tree } from '../src/html/tree.ts';

if (!corpusAvailable()) {
  process.stdout.write(`${CORPUS_MISSING}: collect bench skipped\n`);
} else {
  const groups: Array<{ name: string; pages: Array<{ url: string; html: string }> }> = [];
  for (const s of listSites()) groups.push({ name: s.name, pages: s.files().map((k) => ({ url: pathToFileURL(join(s.pagesDir, k)).href, html: readFileSync(join(s.pagesDir, k), 'utf8') })) });
  for (const c of loadClusters()) groups.push({ name: c.name, pages: c.pages.map((p) => ({ url: pathToFileURL(p.path).href, html: readFileSync(p.path, 'utf8') })) });
  const many = 200_000;
  const huge = `<html><body><p>${Array.from({ length: many }, (_, i) => `<a href="/p${i}">p ${i}</a> `).join('')}</p></body></html>`;
  groups.push({ name: `one element, ${many} links`, pages: [{ url: 'http://bench.test/', html: huge }] });

  const REPS = 5;
  const time = (f: () => void): number => {
    f(); // warm-up
    const t0 = performance.now();
    for (let r = 0; r < REPS; r++) f();
    return (performance.now() - t0) / REPS;
  };
  const rows: string[][] = [];
  let totP = 0;
  let totS = 0;
  let totC = 0;
  let totN = 0;
  for (const g of groups) {
    const labels = new LabelTable({ attributes: 'none' });
    let trees: Tree[] = [];
    const parseMs = time(() => {
      trees = g.pages.map((p) => parseHtml(p.html, { labels }));
    });
    let schemas: PageSchema[] = [];
    const schemaMs = time(() => {
      const tl = new TagLists();
      schemas = trees.map((t, i) => {
        const s = readStructure(t, g.pages[i]!.url, tl);
        return schemaOfStructure(s, tl, s.contentDepth);
      });
    });
    let k = 0;
    const clusterMs = time(() => {
      k = Math.max(...clusterBySchema(schemas)) + 1;
    });
    const n = g.pages.length;
    totP += parseMs;
    totS += schemaMs;
    totC += clusterMs;
    totN += n;
    rows.push([g.name, String(n), String(k), (n / (parseMs / 1000)).toFixed(0), (n / (schemaMs / 1000)).toFixed(0), (n / (clusterMs / 1000)).toFixed(0), (parseMs / schemaMs).toFixed(2), (parseMs / clusterMs).toFixed(1)]);
  }
  rows.push(['all', String(totN), '', (totN / (totP / 1000)).toFixed(0), (totN / (totS / 1000)).toFixed(0), (totN / (totC / 1000)).toFixed(0), (totP / totS).toFixed(2), (totP / totC).toFixed(1)]);
  const header = ['pages of', 'pages', 'clusters', 'parse p/s', 'schema p/s', 'cluster p/s', 'schema ×parse', 'cluster ×parse'];
  const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: readonly string[]): string => r.map((x, c) => (c === 0 ? x.padEnd(width[c]!) : x.padStart(width[c]!))).join('  ');
  process.stdout.write([line(header), width.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n');
  process.stdout.write(`(×parse: throughput as a multiple of parsing the same pages; ${REPS} runs after a warm-up; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB)\n`);
}
