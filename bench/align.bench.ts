/**
 * Benchmark of the align engine (paper 1). For 16 pages of each corpus site (the engine's own
 * sample, sample.ts):
 *  - parse: `parseHtml` of the 16 pages (the baseline);
 *  - learn: tokenise them and build the hierarchical consensus (every alignment exact, align.ts);
 *  - mark: tokenise them and align each with the template, marks included.
 * Runs are interleaved (parse, learn, mark, parse, learn, mark, ...) after two warm-up rounds, and each
 * run's learn/parse and mark/parse ratios are taken within the run, so a change of machine load hits both
 * sides of a ratio alike; the table gives the median ratio over the runs, in wall time and in CPU time
 * (user + system of the process). Target: learning <= 3x the parse time. A second table marks
 * every page of the site with the learned template, as a ratio to parsing every page. Memory: peak RSS of
 * the process and the bit-parallel traceback store. The load average is printed before and after.
 * Run: `npx tsx bench/align.bench.ts [--runs N] [--crossover]` (skips when the corpus is absent).
 * `--crossover` times the scalar and the bit-parallel DP on square blocks of real tokens (how
 * ALIGN_DEFAULTS.scalarCells was chosen); `--large` times the exact DP on long sequences made by joining
 * the pages of a site (how ALIGN_DEFAULTS.maxExactCells was chosen).
 */
import { loadavg } from 'node:os';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { tokenize } from '../src/html/tokens.ts';
import type { Tree } from '../src/html/tree.ts';
import { alignSequences } from '../src/template/align/align.ts';
import { applyTemplate } from '../src/template/align/apply.ts';
import type { BitStats } from '../src/template/align/bit-parallel-nw.ts';
import { hierarchicalConsensus, pageProfile } from '../src/template/align/consensus.ts';
import { ALIGN_DEFAULTS } from '../src/template/align/defaults.ts';
import { chooseSample } from '../src/template/align/sample.ts';
import { type BenchPage, CORPUS_MISSING, corpusAvailable, fmt, loadCorpusSites, median, peakRss, table } from './common.ts';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 7;

interface Phase {
  wall: number;
  cpu: number;
}

/** Times `fn` in wall and CPU milliseconds. */
function timed<T>(fn: () => T): [T, Phase] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [r, { wall, cpu: (c.user + c.system) / 1000 }];
}

interface Run {
  parse: Phase;
  learn: Phase;
  mark: Phase;
  words: number;
  templateTokens: number;
  template: Int32Array;
  labels: LabelTable;
}

/** One interleaved round on the sample: parse, learn, mark. */
function round(pages: readonly BenchPage[]): Run {
  const labels = new LabelTable();
  const [trees, parse] = timed(() => pages.map((p) => parseHtml(p.html, { labels, selfClosing: p.xhtml })));
  const stats: BitStats = { words: 0, splits: 0 };
  const [template, learn] = timed(() => {
    const leaves = trees.map((tree) => pageProfile(tokenize(tree, labels).ids));
    return hierarchicalConsensus(leaves, { stats }).template;
  });
  const [, mark] = timed(() => {
    for (const tree of trees) applyTemplate(tree, tokenize(tree, labels), template.ids);
  });
  return { parse, learn, mark, words: stats.words, templateTokens: template.ids.length, template: template.ids, labels };
}

function ratio(xs: readonly Run[], phase: 'learn' | 'mark', clock: 'wall' | 'cpu'): number {
  return median(xs.map((r) => r[phase][clock] / r.parse[clock]));
}

function load(): string {
  return loadavg().map((x) => x.toFixed(2)).join(' ');
}

function sampleBench(): void {
  const sites = loadCorpusSites();
  const rssLoaded = peakRss();
  process.stdout.write(`load average before: ${load()}\n`);
  const rows: Array<Array<string | number>> = [[
    'site', 'pages', 'max tokens', 'parse ms', 'learn ms', 'learn/parse', 'learn/parse cpu', 'mark ms', 'mark/parse', 'mark/parse cpu', 'M cells', 'template',
  ]];
  const allRows: Array<Array<string | number>> = [['site', 'pages', 'parse ms', 'mark ms', 'mark/parse', 'mark/parse cpu']];
  let worst = 0;
  let worstCpu = 0;
  let rssAfterSample = 0;
  const learned: Run[] = [];
  for (const site of sites) {
    const byKey = new Map(site.pages.map((p) => [p.key, p]));
    const sample = chooseSample(byKey.keys(), ALIGN_DEFAULTS.sample).map((k) => byKey.get(k)!);
    let maxTokens = 0;
    {
      const labels = new LabelTable();
      for (const p of sample) maxTokens = Math.max(maxTokens, tokenize(parseHtml(p.html, { labels, selfClosing: p.xhtml }), labels).length);
    }
    round(sample);
    round(sample); // warm-up
    const runs: Run[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(round(sample));
    const learnRatio = ratio(runs, 'learn', 'wall');
    const learnCpu = ratio(runs, 'learn', 'cpu');
    worst = Math.max(worst, learnRatio);
    worstCpu = Math.max(worstCpu, learnCpu);
    rows.push([
      site.name, sample.length, maxTokens,
      fmt(median(runs.map((r) => r.parse.wall))), fmt(median(runs.map((r) => r.learn.wall))), fmt(learnRatio, 2), fmt(learnCpu, 2),
      fmt(median(runs.map((r) => r.mark.wall))), fmt(ratio(runs, 'mark', 'wall'), 2), fmt(ratio(runs, 'mark', 'cpu'), 2),
      fmt((runs[0]!.words * 32) / 1e6), runs[0]!.templateTokens,
    ]);
    learned.push(runs[runs.length - 1]!);
  }
  rssAfterSample = peakRss();
  for (const [k, site] of sites.entries()) {
    // Every page of the site marked with the learned template, interleaved with parsing them.
    const last = learned[k]!;
    const ratios: number[] = [];
    const ratiosCpu: number[] = [];
    const parseMs: number[] = [];
    const markMs: number[] = [];
    for (let r = 0; r < 3; r++) {
      const [trees, parse] = timed(() => site.pages.map((p) => parseHtml(p.html, { labels: last.labels, selfClosing: p.xhtml })));
      const [, mark] = timed(() => {
        for (const tree of trees as Tree[]) applyTemplate(tree, tokenize(tree, last.labels), last.template);
      });
      ratios.push(mark.wall / parse.wall);
      ratiosCpu.push(mark.cpu / parse.cpu);
      parseMs.push(parse.wall);
      markMs.push(mark.wall);
    }
    allRows.push([site.name, site.pages.length, fmt(median(parseMs)), fmt(median(markMs)), fmt(median(ratios), 2), fmt(median(ratiosCpu), 2)]);
  }
  process.stdout.write(`align engine: learning and marking the 16-page sample of each site, as ratios to parsing it (median over ${RUNS} interleaved runs)\n`);
  process.stdout.write(table(rows) + '\n');
  process.stdout.write(`worst learn/parse: ${worst.toFixed(2)} wall, ${worstCpu.toFixed(2)} CPU (target <= 3)\n`);
  process.stdout.write(`peak RSS after the sample runs ${fmt(rssAfterSample / 1048576, 0)} MiB (${fmt(rssLoaded / 1048576, 0)} MiB with every corpus page loaded, before any run)\n\n`);
  process.stdout.write('marking every page of each site with its learned template, as a ratio to parsing them (median of 3)\n');
  process.stdout.write(table(allRows) + '\n');
  process.stdout.write(`peak RSS ${fmt(peakRss() / 1048576, 0)} MiB after marking every page (bit-parallel traceback store at most ${fmt((ALIGN_DEFAULTS.storeWords * 4) / 1048576, 0)} MiB)\n`);
  process.stdout.write(`load average after: ${load()}\n`);
}

/** Scalar against bit-parallel DP on square blocks of real tokens (the middle of two sample pages). */
function crossover(): void {
  const sites = loadCorpusSites();
  const labels = new LabelTable();
  const seqs: Int32Array[] = [];
  for (const site of sites) {
    const byKey = new Map(site.pages.map((p) => [p.key, p]));
    for (const k of chooseSample(byKey.keys(), 4)) {
      const p = byKey.get(k)!;
      seqs.push(tokenize(parseHtml(p.html, { labels, selfClosing: p.xhtml }), labels).ids);
    }
  }
  const rows: Array<Array<string | number>> = [['block', 'cells', 'scalar µs', 'bit-parallel µs', 'scalar/bit']];
  for (const s of [16, 24, 32, 48, 64, 96, 128, 192, 256]) {
    const pairs: Array<[Int32Array, Int32Array]> = [];
    for (let k = 0; k + 1 < seqs.length; k += 2) {
      const a = seqs[k]!;
      const b = seqs[k + 1]!;
      if (a.length < 2 * s || b.length < 2 * s) continue;
      // Shift one window so that the blocks do not start with a long common prefix (trimmed away).
      pairs.push([a.slice(a.length >> 1, (a.length >> 1) + s), b.slice((b.length >> 1) + 7, (b.length >> 1) + 7 + s)]);
    }
    const reps = Math.max(3, Math.floor(200000 / (s * s)));
    const run = (options: { scalarCells: number }): number => {
      const samples: number[] = [];
      for (let r = 0; r < 5; r++) {
        const t0 = performance.now();
        for (let q = 0; q < reps; q++) for (const [a, b] of pairs) alignSequences(a, b, options);
        samples.push(((performance.now() - t0) * 1000) / (reps * pairs.length));
      }
      return median(samples);
    };
    run({ scalarCells: Number.MAX_SAFE_INTEGER });
    run({ scalarCells: 0 });
    const scalar = run({ scalarCells: Number.MAX_SAFE_INTEGER });
    const bit = run({ scalarCells: 0 });
    rows.push([`${s} x ${s}`, s * s, fmt(scalar, 1), fmt(bit, 1), fmt(scalar / bit, 2)]);
  }
  process.stdout.write(`scalar vs bit-parallel DP per pair (load ${load()})\n${table(rows)}\n`);
}

/** The exact DP (no fallback) on pairs of long sequences: the site's pages joined end to end. */
function large(): void {
  const site = loadCorpusSites().find((s) => s.name === 'django-rest-framework-docs');
  if (!site) return;
  const labels = new LabelTable();
  const seqs = site.pages.map((p) => tokenize(parseHtml(p.html, { labels, selfClosing: p.xhtml }), labels).ids);
  const joined = (from: number, total: number): Int32Array => {
    const ids: number[] = [];
    for (let k = from; ids.length < total; k++) ids.push(...seqs[k % seqs.length]!);
    return Int32Array.from(ids);
  };
  const rows: Array<Array<string | number>> = [['tokens', 'ms', 'G cells computed', 'Hirschberg splits', 'ns per n·m cell']];
  for (const size of [5000, 10000, 20000, 40000]) {
    const a = joined(0, size);
    const b = joined(7, size);
    const stats: BitStats = { words: 0, splits: 0 };
    const [, t] = timed(() => alignSequences(a, b, { stats, maxExactCells: Infinity }));
    rows.push([`${a.length} x ${b.length}`, fmt(t.wall, 0), fmt((stats.words * 32) / 1e9, 2), stats.splits, fmt((t.wall * 1e6) / (a.length * b.length), 2)]);
  }
  process.stdout.write(`exact DP on long sequences (django-rest-framework-docs pages joined; load ${load()})\n${table(rows)}\n`);
  process.stdout.write(`peak RSS ${fmt(peakRss() / 1048576, 0)} MiB\n`);
}

if (!corpusAvailable()) process.stdout.write(`${CORPUS_MISSING}: align bench skipped\n`);
else if (args.includes('--large')) large();
else if (args.includes('--crossover')) crossover();
else sampleBench();
