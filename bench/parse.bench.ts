/**
 * Parse throughput over every corpus site (target: "our fast path builds the Tree at no less than 60% of the
 * speed of htmlparser2's own DOM building on the same pages").
 * Methods, each over every page of a site (text decoded beforehand; MB = bytes of the page files):
 *  (a) parseHtml        our fast path (htmlparser2's tokenizer → tree-parser.ts → Tree), one LabelTable per site;
 *  (b) parseHtmlExact   our browser-exact path (parse5 → Tree);
 *  (c) htmlparser2 DOM  htmlparser2's own parseDocument (DomHandler): the named baseline;
 *  (d) parse5           parse5's own parse (its default tree adapter);
 *  (e) htmlparser2 SAX  htmlparser2's Parser with empty callbacks: the floor under (c);
 *  tokenize             tokens.ts on the trees of (a): tokens/s, MB/s and its time as a ratio to (a).
 * Then memory: heap retained by the trees of (a) against the documents of (c), and peak RSS.
 * Times are CPU times (user + system of this process; see common.ts `Timing.cpu`), which a busy machine
 * disturbs much less than wall time: medians of `--reps` runs after one warm-up, per site; the wall-clock
 * figure of (a) is printed too. Each method starts after a full GC, so that it does not pay for the garbage
 * of the method before it.
 * Run: `npx tsx bench/parse.bench.ts [--reps N]` (skips when the corpus is absent).
 */
import { parseDocument, Parser } from 'htmlparser2';
import { parse as parse5Parse } from 'parse5';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml, parseHtmlExact } from '../src/html/parse.ts';
import { tokenize } from '../src/html/tokens.ts';
import type { Tree } from '../src/html/tree.ts';
import { CORPUS_MISSING, corpusAvailable, fmt, fullGc, median, heapAfterGc, loadCorpusSites, mb, peakRss, table, time, type BenchSite } from './common.ts';

/** The speed target of the fast path, as a share of htmlparser2's own DOM building. */
const TARGET_SHARE_OF_HTMLPARSER2_DOM = 0.6;

const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 5;

type Method = { name: string; run: (site: BenchSite) => void };

const noop = (): void => {};
const methods: Method[] = [
  {
    name: '(a) parseHtml',
    run: (site) => {
      const labels = new LabelTable();
      for (const p of site.pages) parseHtml(p.html, { labels, selfClosing: p.xhtml });
    },
  },
  {
    name: '(b) parseHtmlExact',
    run: (site) => {
      const labels = new LabelTable();
      for (const p of site.pages) parseHtmlExact(p.html, { labels });
    },
  },
  {
    name: '(c) htmlparser2 DOM',
    run: (site) => {
      for (const p of site.pages) parseDocument(p.html, { recognizeSelfClosing: p.xhtml });
    },
  },
  { name: '(d) parse5', run: (site) => site.pages.forEach((p) => parse5Parse(p.html)) },
  {
    name: '(e) htmlparser2 SAX',
    run: (site) => {
      for (const p of site.pages) {
        const parser = new Parser({ onopentag: noop, onclosetag: noop, ontext: noop, oncomment: noop, onattribute: noop }, { recognizeSelfClosing: p.xhtml });
        parser.end(p.html);
      }
    },
  },
];

function main(): void {
  if (!corpusAvailable()) {
    console.log(`parse.bench: skipped, ${CORPUS_MISSING}`);
    return;
  }
  const sites = loadCorpusSites();
  const totalBytes = sites.reduce((s, x) => s + x.bytes, 0);
  const totalPages = sites.reduce((s, x) => s + x.pages.length, 0);
  console.log(`parse.bench: ${sites.length} sites, ${totalPages} pages, ${fmt(mb(totalBytes), 1)} MB; CPU-time medians of ${REPS} interleaved rounds after 1 warm-up\n`);

  // Throughput (MB/s of CPU time) per method and site. Rounds are interleaved (every method on every site,
  // then again), so that a change of load on this shared machine falls on all methods alike; each timed
  // run starts with a full GC, so that it does not pay for the garbage of the run before it.
  for (const m of methods) for (const s of sites) m.run(s); // warm-up
  const cpu = new Map<string, number[][]>(methods.map((m) => [m.name, sites.map(() => [])]));
  const wall: number[][] = sites.map(() => []);
  for (let r = 0; r < REPS; r++) {
    for (const m of methods) {
      sites.forEach((s, k) => {
        fullGc();
        const t = time(() => m.run(s), { warmup: 0, reps: 1 });
        cpu.get(m.name)![k]!.push(t.cpu);
        if (m === methods[0]) wall[k]!.push(t.median);
      });
    }
  }
  const ms = new Map<string, number[]>(methods.map((m) => [m.name, cpu.get(m.name)!.map((xs) => median(xs))]));
  const wallFast = wall.reduce((sum, xs) => sum + median(xs), 0);
  const rows: Array<Array<string | number>> = [['method (MB/s)', ...sites.map((s) => s.name), 'all sites']];
  const total = (name: string): number => ms.get(name)!.reduce((a, b) => a + b, 0);
  for (const m of methods) {
    const t = ms.get(m.name)!;
    rows.push([m.name, ...sites.map((s, k) => fmt(mb(s.bytes) / (t[k]! / 1000))), fmt(mb(totalBytes) / (total(m.name) / 1000))]);
  }

  // Tokenisation on the fast path's trees.
  const trees: Array<{ labels: LabelTable; trees: Tree[] }> = sites.map((s) => {
    const labels = new LabelTable();
    return { labels, trees: s.pages.map((p) => parseHtml(p.html, { labels, selfClosing: p.xhtml })) };
  });
  let tokens = 0;
  for (const x of trees) for (const t of x.trees) tokens += tokenize(t, x.labels).length;
  const tokMs = sites.map((_, k) => {
    fullGc();
    return time(() => trees[k]!.trees.forEach((t) => tokenize(t, trees[k]!.labels)), { warmup: 1, reps: REPS }).cpu;
  });
  const tokTotal = tokMs.reduce((a, b) => a + b, 0);
  rows.push(['tokenize', ...sites.map((s, k) => fmt(mb(s.bytes) / (tokMs[k]! / 1000))), fmt(mb(totalBytes) / (tokTotal / 1000))]);
  console.log(table(rows));

  const fast = total('(a) parseHtml');
  const h2 = total('(c) htmlparser2 DOM');
  const share = h2 / fast;
  console.log('');
  console.log(
    table([
      ['ratio (all sites)', 'value'],
      ['fast path speed / htmlparser2 DOM speed', `${fmt(share * 100, 0)}% (target >= ${TARGET_SHARE_OF_HTMLPARSER2_DOM * 100}%: ${share >= TARGET_SHARE_OF_HTMLPARSER2_DOM ? 'met' : 'NOT met'})`],
      ['fast path time / htmlparser2 SAX time', fmt(fast / total('(e) htmlparser2 SAX'), 2)],
      ['(a) wall-clock MB/s (sum of per-site medians)', fmt(mb(totalBytes) / (wallFast / 1000))],
      ['exact path time / fast path time', fmt(total('(b) parseHtmlExact') / fast, 2)],
      ['exact path time / parse5 time', fmt(total('(b) parseHtmlExact') / total('(d) parse5'), 2)],
      ['tokenize: tokens/s', `${fmt(tokens / (tokTotal / 1000) / 1e6, 2)} M (${tokens} tokens)`],
      ['tokenize time / parseHtml time', fmt(tokTotal / fast, 3)],
    ]),
  );

  // Memory retained by parsed pages: our Trees against htmlparser2's DOM, all pages of all sites held.
  trees.length = 0;
  const base = heapAfterGc();
  const held: unknown[] = [];
  for (const s of sites) {
    const labels = new LabelTable();
    for (const p of s.pages) held.push(parseHtml(p.html, { labels, selfClosing: p.xhtml }));
  }
  const treeHeap = heapAfterGc() - base;
  held.length = 0;
  const base2 = heapAfterGc();
  for (const s of sites) for (const p of s.pages) held.push(parseDocument(p.html, { recognizeSelfClosing: p.xhtml }));
  const domHeap = heapAfterGc() - base2;
  held.length = 0;
  console.log('');
  console.log(
    table([
      ['memory (all pages held)', 'MB', 'per MB of HTML'],
      ['Trees (parseHtml)', fmt(mb(treeHeap)), fmt(treeHeap / totalBytes, 2)],
      ['htmlparser2 DOM', fmt(mb(domHeap)), fmt(domHeap / totalBytes, 2)],
      ['peak RSS of this run', fmt(mb(peakRss())), ''],
    ]),
  );
}

main();
