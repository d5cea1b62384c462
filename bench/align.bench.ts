/**
 * Benchmark of the align engine (paper 1; issue 3): for 16 pages of each corpus site (the engine's own
 * sample, sample.ts), the time to learn the template (tokenise + hierarchical consensus, parsing
 * excluded) and the time to mark the same 16 pages (tokenise + align with the template + marks), each as
 * a ratio to parsing those pages with `parseHtml`. Target (issue 3): learning <= 3x the parse time.
 * Also: the longest alignment of the run, how many alignments used anchors, the heap held after learning
 * and the process's peak RSS. Median of 3 runs after a warm-up run. Run: `npx tsx bench/align.bench.ts`
 * (skips when the corpus is absent).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusAvailable, CORPUS_MISSING } from '../src/eval/corpus-path.ts';
import { listSites } from '../src/eval/corpus.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { tokenize } from '../src/html/tokens.ts';
import type { Tree } from '../src/html/tree.ts';
import { applyTemplate } from '../src/template/align/apply.ts';
import { hierarchicalConsensus, pageProfile } from '../src/template/align/consensus.ts';
import { ALIGN_DEFAULTS } from '../src/template/align/defaults.ts';
import { chooseSample } from '../src/template/align/sample.ts';

const RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Run {
  parse: number;
  learn: number;
  mark: number;
  anchored: number;
  templateTokens: number;
}

function once(texts: readonly string[], xhtml: readonly boolean[]): Run {
  const labels = new LabelTable();
  let t = performance.now();
  const trees: Tree[] = texts.map((s, i) => parseHtml(s, { labels, selfClosing: xhtml[i]! }));
  const parse = performance.now() - t;
  t = performance.now();
  const leaves = trees.map((tree) => pageProfile(tokenize(tree, labels).ids));
  const { template, levels } = hierarchicalConsensus(leaves);
  const learn = performance.now() - t;
  t = performance.now();
  let anchored = levels.reduce((s, l) => s + l.anchored, 0);
  for (const tree of trees) {
    const r = applyTemplate(tree, tokenize(tree, labels), template.ids);
    if (!r.exact) anchored++;
  }
  const mark = performance.now() - t;
  return { parse, learn, mark, anchored, templateTokens: template.ids.length };
}

function main(): void {
  if (!corpusAvailable()) {
    process.stdout.write(`${CORPUS_MISSING}: align bench skipped\n`);
    return;
  }
  const rows: string[][] = [];
  let worst = 0;
  for (const site of listSites()) {
    const keys = chooseSample(site.files(), ALIGN_DEFAULTS.sample);
    const texts = keys.map((k) => decodeHtml(readFileSync(join(site.pagesDir, k))).text);
    const xhtml = keys.map((k) => k.endsWith('.xhtml'));
    let maxTokens = 0;
    {
      const labels = new LabelTable();
      for (let i = 0; i < texts.length; i++) maxTokens = Math.max(maxTokens, tokenize(parseHtml(texts[i]!, { labels, selfClosing: xhtml[i]! }), labels).length);
    }
    once(texts, xhtml); // warm-up
    const heapBefore = process.memoryUsage().heapUsed;
    const runs: Run[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(once(texts, xhtml));
    const heapAfter = process.memoryUsage().heapUsed;
    const parse = median(runs.map((r) => r.parse));
    const learn = median(runs.map((r) => r.learn));
    const mark = median(runs.map((r) => r.mark));
    worst = Math.max(worst, learn / parse);
    rows.push([
      site.name, String(keys.length), String(maxTokens), parse.toFixed(1), learn.toFixed(1), (learn / parse).toFixed(2), mark.toFixed(1), (mark / parse).toFixed(2),
      String(runs[0]!.anchored), String(runs[0]!.templateTokens), ((heapAfter - heapBefore) / 1048576).toFixed(1), (process.resourceUsage().maxRSS / 1024).toFixed(0),
    ]);
  }
  const header = ['site', 'pages', 'max tokens', 'parse ms', 'learn ms', 'learn/parse', 'mark ms', 'mark/parse', 'anchored', 'template', 'heap Δ MB', 'peak RSS MB'];
  const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: readonly string[]): string => r.map((x, c) => x.padStart(width[c]!)).join('  ');
  process.stdout.write('align engine: learning and marking 16 pages per site, as a ratio to parsing them (median of 3)\n');
  process.stdout.write([line(header), width.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n');
  process.stdout.write(`worst learn/parse: ${worst.toFixed(2)} (target <= 3)\n`);
}

main();
