/**
 * Benchmark of `gabarit content`: the throughput of the whole content path — the template engine
 * chosen for the source (hyperlink on the corpus sites, align on the samesite groups), the main block of
 * every page and its kept text — as a ratio to parsing the same pages (decode + `parsePage`), per corpus
 * site and per samesite set. Pages are held in memory (a MemorySource), so no file reading is timed.
 * Also the main-block choice alone (chooseMainBlock on parsed pages with their template marks) and each
 * page alone (no template: single-page mode) against parsing. Parse and content runs are interleaved (parse, content, parse, content…) and timed in CPU time
 * (user + system) of this process, median of the runs, so that a shared machine moves the ratio little;
 * the load average is printed with the figures. Run: `npx tsx bench/content.bench.ts [runs]` (default 3;
 * skips when the corpus is absent).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runEngine } from '../src/run/drive.ts';
import { contentEngine } from '../src/content/engine.ts';
import { chooseMainBlock } from '../src/content/main-block.ts';
import { listSamesite, listSites } from '../src/eval/corpus.ts';
import { LabelTable } from '../src/html/labels.ts';
import type { Tree } from '../src/html/tree.ts';
import { MemorySource, type MemoryPage } from '../src/site/memory-source.ts';
import { parsePage, type Page } from '../src/site/page.ts';
import { loadEngine } from '../src/template/engines.ts';
import { keptText } from '../src/template/result.ts';
import { corpusAvailable, CORPUS_MISSING, fmt, mb, median, table } from './common.ts';
import { loadavg } from 'node:os';

const RUNS = Number(process.argv[2] ?? 3);

/** A unit of the benchmark: one site, or one samesite set (its groups run one after the other). */
interface Unit {
  name: string;
  /** Each group is one source (a samesite site, or a corpus site). */
  groups: Array<{ pages: MemoryPage[]; entry?: string }>;
  bytes: number;
  pages: number;
}

function units(): Unit[] {
  const out: Unit[] = [];
  for (const site of listSites()) {
    const pages = site.files().map((key) => ({ key, body: readFileSync(join(site.pagesDir, key)) }));
    out.push({ name: `sites/${site.name}`, groups: [{ pages, entry: site.entry }], bytes: pages.reduce((s, p) => s + p.body.length, 0), pages: pages.length });
  }
  const sets = new Map<string, Unit>();
  for (const g of listSamesite()) {
    const pages = g.pages.map((p) => ({ key: `${p.id}.html`, body: readFileSync(p.htmlPath) }));
    let u = sets.get(g.set);
    if (!u) sets.set(g.set, (u = { name: `samesite/${g.set}`, groups: [], bytes: 0, pages: 0 }));
    u.groups.push({ pages });
    u.bytes += pages.reduce((s, p) => s + p.body.length, 0);
    u.pages += pages.length;
  }
  return [...out, ...sets.values()];
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

function asPage(p: MemoryPage): Page {
  const body = typeof p.body === 'string' ? new TextEncoder().encode(p.body) : p.body;
  return { url: `http://memory.invalid/${p.key}`, key: p.key, status: 200, headers: {}, body, origin: 'memory' };
}

/** Parses every page of the unit (decode + parsePage, one label table per group). */
function parseAll(u: Unit): number {
  const t0 = cpuMs();
  let nodes = 0;
  for (const g of u.groups) {
    const labels = new LabelTable();
    for (const p of g.pages) nodes += parsePage(asPage(p), labels).size;
  }
  if (nodes === 0) throw new Error('nothing parsed');
  return cpuMs() - t0;
}

/** The whole content path on every group of the unit: template engine, main block, kept text. */
async function contentAll(u: Unit): Promise<{ ms: number; method: string }> {
  const t0 = cpuMs();
  let method = '';
  let chars = 0;
  for (const g of u.groups) {
    const source = new MemorySource(g.pages, g.entry !== undefined ? { entry: g.entry } : {});
    const run = runEngine(contentEngine(), source);
    for await (const o of run) if (o.ok) chars += keptText(o.marks).length;
    method = String((await run.result()).engine['method'] ?? '');
    await source.close();
  }
  if (chars === 0) throw new Error('no content kept');
  return { ms: cpuMs() - t0, method };
}

/** Parsed pages with the template marks of the unit's engine, for timing the main block alone. */
async function marked(u: Unit, method: string): Promise<Array<{ tree: Tree; template: Uint8Array }>> {
  const out: Array<{ tree: Tree; template: Uint8Array }> = [];
  for (const g of u.groups) {
    const source = new MemorySource(g.pages, g.entry !== undefined ? { entry: g.entry } : {});
    for await (const o of runEngine(await loadEngine(method), source)) if (o.ok) out.push({ tree: o.marks.tree, template: o.marks.template });
    await source.close();
  }
  return out;
}

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    process.stdout.write(`${CORPUS_MISSING}: content bench skipped\n`);
    return;
  }
  const rows: Array<Array<string | number>> = [['unit', 'pages', 'MB', 'method', 'parse MB/s', 'content MB/s', 'content / parse', 'main block / parse', 'page alone / parse']];
  for (const u of units()) {
    // Warm-up (JIT, caches), then interleaved runs.
    parseAll(u);
    const { method } = await contentAll(u);
    const parse: number[] = [];
    const content: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      parse.push(parseAll(u));
      content.push((await contentAll(u)).ms);
    }
    // The main block alone, with the template's marks, then each page alone (no template): on trees made
    // afresh for each run (what a tree caches from one choice must not speed up the next run).
    const block: number[] = [];
    const single: number[] = [];
    for (let k = 0; k <= RUNS; k++) {
      const pages = await marked(u, method);
      let t0 = cpuMs();
      for (const p of pages) chooseMainBlock(p.tree, p.template);
      if (k > 0) block.push(cpuMs() - t0);
      const alone = (await marked(u, method)).map((p) => p.tree);
      t0 = cpuMs();
      for (const tree of alone) chooseMainBlock(tree, new Uint8Array(tree.size));
      if (k > 0) single.push(cpuMs() - t0);
    }
    const p = median(parse);
    const c = median(content);
    rows.push([u.name, u.pages, fmt(mb(u.bytes), 1), method, fmt(mb(u.bytes) / (p / 1000), 1), fmt(mb(u.bytes) / (c / 1000), 1), fmt(c / p, 2) + 'x', fmt(median(block) / p, 2) + 'x', fmt(median(single) / p, 2) + 'x']);
    process.stderr.write(`content bench: ${u.name} done\n`);
  }
  process.stdout.write(`content throughput (CPU time, median of ${RUNS} interleaved runs; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')})\n`);
  process.stdout.write(table(rows) + '\n');
  process.stdout.write('content / parse: CPU time of the whole content path (template engine + main block + kept text) over the CPU time of parsing the same pages; main block / parse: the main-block choice alone, with the template marks; page alone / parse: the main-block choice on each page with no template (single-page mode).\n');
}

await main();
