/**
 * Evaluation of the align engine (paper 1, alignment-template-detection; issue 3, "Done when"):
 *  1. content P/R/F1 on every corpus site and samesite group, template node P/R/F1 on sites
 *     (eval/harness.ts `evaluateTemplateEngine`, scoring of src/eval/metrics.ts), next to the "keep the
 *     whole body" baseline: its recall is the most any template removal can keep (gold words absent from
 *     the body text are lost for every method), so the table also gives recall relative to it;
 *  2. web page clustering (the paper's application) on clusters/stackoverflow, with and without template
 *     removal: purity and adjusted Rand index, k = 5 (the number of classes) and k chosen by silhouette;
 *  3. the fast path's exactness on real pairs: the 8 level-1 pairs of the 16-page sample of each site,
 *     anchored score against the optimum (linear-space NW), pairs of at most 8,000 tokens;
 *  4. with `--sweep`: the headline figures for several `--min-evidence` values (how the default was chosen).
 * Run: `npx tsx eval/align.eval.ts [--sweep] [--only <name>]`; writes eval/results/align.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterByContent } from '../src/cluster/content.ts';
import { listSites, loadClusters } from '../src/eval/corpus.ts';
import { adjustedRandIndex, purity } from '../src/eval/metrics.ts';
import { wholeBodyEngine } from '../src/eval/reference-engines.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { tokenize } from '../src/html/tokens.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { alignSequences } from '../src/template/align/align.ts';
import { ALIGN_DEFAULTS } from '../src/template/align/defaults.ts';
import alignEngine from '../src/template/align/engine.ts';
import { nwScore } from '../src/template/align/needleman-wunsch.ts';
import { chooseSample } from '../src/template/align/sample.ts';
import { evaluateTemplateEngine, fmt, formatTable, runEval, templateHeadline, templateTable, writeResults, type TemplateEvalResult } from './harness.ts';

const args = process.argv.slice(2);
const only = args.includes('--only') ? [args[args.indexOf('--only') + 1]!] : [];

/** Per group: recall and precision of align next to the whole-body baseline. */
function relativeTable(align: TemplateEvalResult, whole: TemplateEvalResult): { table: string; rows: Array<Record<string, unknown>> } {
  const rows: Array<Record<string, unknown>> = [];
  const out: string[][] = [];
  for (const g of align.groups) {
    const w = whole.groups.find((x) => x.name === g.name);
    if (!w) continue;
    const rel = w.content.recall > 0 ? g.content.recall / w.content.recall : NaN;
    rows.push({ set: g.set, name: g.name, recall: g.content.recall, wholeRecall: w.content.recall, relativeRecall: rel, precision: g.content.precision, wholePrecision: w.content.precision });
    out.push([g.set, g.name, fmt(g.content.recall), fmt(w.content.recall), fmt(rel), fmt(g.content.precision), fmt(w.content.precision)]);
  }
  const header = ['set', 'site / group', 'R', 'R whole', 'R / R whole', 'P', 'P whole'];
  return { table: formatTable(header, out), rows };
}

/** Clustering of clusters/stackoverflow with and without template removal. */
async function clustering(): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (const set of loadClusters()) {
    for (const removeTemplate of [true, false]) {
      for (const k of [5, undefined]) {
        const t = performance.now();
        const r = await clusterByContent(new DirSource(set.dir), { removeTemplate, ...(k !== undefined ? { k } : {}) });
        const pred = new Map([...r.assignment].map(([key, c]) => [key, String(c)]));
        const gold = new Map([...set.gold].filter(([key]) => pred.has(key)));
        out.push({
          set: set.name, templateRemoved: removeTemplate, k: k ?? `auto (${r.k})`, pages: pred.size,
          purity: purity(pred, gold), ari: adjustedRandIndex(pred, gold), silhouette: r.silhouette, ms: Math.round(performance.now() - t),
        });
      }
    }
  }
  return out;
}

/** Anchored fast path against the optimum on the level-1 pairs of each site's sample. */
function exactness(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const site of listSites()) {
    if (only.length > 0 && !only.some((o) => site.name.includes(o))) continue;
    const labels = new LabelTable();
    const keys = chooseSample(site.files(), ALIGN_DEFAULTS.sample);
    const seqs = keys.map((k) => tokenize(parseHtml(decodeHtml(readFileSync(join(site.pagesDir, k))).text, { labels, selfClosing: k.endsWith('.xhtml') }), labels).ids);
    let pairs = 0;
    let anchored = 0;
    let below = 0;
    let loss = 0;
    let matchedExact = 0;
    let matchedFast = 0;
    for (let p = 0; p + 1 < seqs.length; p += 2) {
      const a = seqs[p]!;
      const b = seqs[p + 1]!;
      if (a.length > 8000 || b.length > 8000) continue;
      pairs++;
      const fast = alignSequences(a, b);
      if (fast.exact) continue;
      anchored++;
      const opt = nwScore(a, b);
      const exact = alignSequences(a, b, { exactCells: Number.MAX_SAFE_INTEGER });
      let mf = 0;
      for (let k = 0; k < fast.length; k++) if (fast.colA[k]! >= 0 && fast.colB[k]! >= 0 && a[fast.colA[k]!] === b[fast.colB[k]!]) mf++;
      let me = 0;
      for (let k = 0; k < exact.length; k++) if (exact.colA[k]! >= 0 && exact.colB[k]! >= 0 && a[exact.colA[k]!] === b[exact.colB[k]!]) me++;
      matchedFast += mf;
      matchedExact += me;
      if (fast.score < opt) {
        below++;
        loss += (opt - fast.score) / (a.length + b.length);
      }
    }
    out.push({ site: site.name, pairs, anchored, belowOptimum: below, meanLossPerToken: below > 0 ? loss / below : 0, matchesFastOverExact: matchedExact > 0 ? matchedFast / matchedExact : NaN });
  }
  return out;
}

await runEval('align', async () => {
  const align = await evaluateTemplateEngine(alignEngine, { name: 'align', report: false, only, progress: false });
  const whole = await evaluateTemplateEngine(wholeBodyEngine, { name: 'whole body', report: false, only, progress: false });
  process.stdout.write(templateTable(align) + '\n\n');
  const rel = relativeTable(align, whole);
  process.stdout.write('Recall and precision next to keeping the whole body\n' + rel.table + '\n\n');

  const clusters = only.length === 0 ? await clustering() : [];
  if (clusters.length > 0) {
    process.stdout.write('Clustering by content (clusters/stackoverflow)\n' + formatTable(
      ['set', 'template removed', 'k', 'pages', 'purity', 'ARI', 'silhouette', 'ms'],
      clusters.map((c) => [String(c['set']), String(c['templateRemoved']), String(c['k']), String(c['pages']), fmt(c['purity'] as number), fmt(c['ari'] as number), fmt(c['silhouette'] as number), String(c['ms'])]),
    ) + '\n\n');
  }

  const ex = exactness();
  process.stdout.write('Fast path vs optimum on level-1 sample pairs (anchored pairs only)\n' + formatTable(
    ['site', 'pairs', 'anchored', 'below optimum', 'mean loss / token', 'matches fast / exact'],
    ex.map((e) => [String(e['site']), String(e['pairs']), String(e['anchored']), String(e['belowOptimum']), fmt(e['meanLossPerToken'] as number, 4), fmt(e['matchesFastOverExact'] as number)]),
  ) + '\n');

  const sweep: Array<Record<string, unknown>> = [];
  if (args.includes('--sweep')) {
    for (const minEvidence of [0.3, 0.4, 0.5, 0.6, 0.75]) {
      const r = await evaluateTemplateEngine(alignEngine, { name: `align min-evidence ${minEvidence}`, report: false, only, progress: false, options: { minEvidence } });
      sweep.push({ minEvidence, ...templateHeadline(r), sitesRecall: r.sets.find((s) => s.set === 'sites')?.content.recall ?? null, samesiteRecall: r.sets.find((s) => s.set === 'samesite')?.content.recall ?? null });
    }
    process.stdout.write('\nSweep of --min-evidence\n' + formatTable(
      ['min evidence', 'sites F1', 'sites R', 'sites node F1', 'samesite F1', 'samesite R'],
      sweep.map((s) => [String(s['minEvidence']), fmt(s['sites content F1'] as number), fmt(s['sitesRecall'] as number), fmt(s['sites node F1'] as number), fmt(s['samesite content F1'] as number), fmt(s['samesiteRecall'] as number)]),
    ) + '\n');
  }

  const headline: Record<string, number | string | null> = { ...templateHeadline(align) };
  const sitesSet = align.sets.find((s) => s.set === 'sites');
  const sameSet = align.sets.find((s) => s.set === 'samesite');
  const wholeSame = whole.sets.find((s) => s.set === 'samesite');
  if (sitesSet) headline['sites content recall'] = sitesSet.content.recall;
  if (sameSet) headline['samesite content recall'] = sameSet.content.recall;
  if (sameSet && wholeSame) {
    headline['samesite precision'] = sameSet.content.precision;
    headline['samesite precision, whole body'] = wholeSame.content.precision;
    headline['samesite recall / whole-body recall'] = sameSet.content.recall / wholeSame.content.recall;
  }
  const c5 = clusters.find((c) => c['templateRemoved'] === true && c['k'] === 5);
  const c5n = clusters.find((c) => c['templateRemoved'] === false && c['k'] === 5);
  if (c5) headline['stackoverflow purity, template removed (k=5)'] = c5['purity'] as number;
  if (c5n) headline['stackoverflow purity, whole page (k=5)'] = c5n['purity'] as number;
  const path = writeResults('align', headline, { overall: align.overall, sets: align.sets, relative: rel.rows, clustering: clusters, exactness: ex, sweep, groups: align.groups });
  process.stdout.write(`results: ${path}\n`);
});
