/**
 * Evaluation of the align engine (paper 1, alignment-template-detection):
 *  1. content P/R/F1 on every corpus site and samesite group, template node P/R/F1 on sites
 *     (eval/harness.ts `evaluateTemplateEngine`, scoring of src/eval/metrics.ts), next to the "keep the
 *     whole body" baseline: its recall is the most any template removal can keep (gold words absent from
 *     the body text are lost for every method), so the table also gives recall relative to it;
 *  2. web page clustering (the paper's application) on clusters/stackoverflow, with and without template
 *     removal: purity and adjusted Rand index, k = 5 (the number of classes) and k chosen by silhouette;
 *  3. the fast path's exactness on real pairs: every merge of each site's 16-page consensus and every
 *     sample page against the template, fast path score against plain NW (linear space);
 *  4. what is left beyond the gold on samesite: kept words on text repeated over the group's pages vs
 *     page-specific text;
 *  0. first, the options chosen out of sample (eval/cross-validation.ts): a grid of option sets measured on
 *     every whole site, leave one generator out; per site the held-out content F1 (the headline) and the
 *     in-sample one, and the grid itself (how the defaults were chosen: every ablation is a grid point);
 * Run: `npx tsx eval/align.eval.ts [--only <name>] [--no-cv]`; writes eval/results/align.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterByContent } from '../src/cluster/content.ts';
import { listSamesite, listSites, loadClusters, samesiteGoldText } from '../src/eval/corpus.ts';
import { adjustedRandIndex, purity, wordCounts, words } from '../src/eval/metrics.ts';
import { wholeBodyEngine } from '../src/eval/reference-engines.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { collapseSpace, LabelTable } from '../src/html/labels.ts';
import { isNonText } from '../src/html/text.ts';
import { NodeKind } from '../src/html/tree.ts';
import { openSource } from '../src/site/source.ts';
import type { PageMarks } from '../src/template/result.ts';
import { parseHtml } from '../src/html/parse.ts';
import { tokenize } from '../src/html/tokens.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { alignSequences } from '../src/template/align/align.ts';
import { ALIGN_DEFAULTS } from '../src/template/align/defaults.ts';
import alignEngine from '../src/template/align/engine.ts';
import { runEngine } from '../src/run/drive.ts';
import { alignmentScore, isValidAlignment, nwScore } from '../src/template/align/needleman-wunsch.ts';
import { mergeProfiles, pageProfile } from '../src/template/align/consensus.ts';
import { chooseSample } from '../src/template/align/sample.ts';
import { evaluateTemplateEngine, fmt, formatTable, runEval, templateHeadline, templateTable, writeResults, type TemplateEvalResult } from './harness.ts';
import { crossValidate, crossValidationHeadline, foldTable, gridTable, type GridPoint, type SiteFigures } from './cross-validation.ts';

const args = process.argv.slice(2);
const only = args.includes('--only') ? [args[args.indexOf('--only') + 1]!] : [];

/**
 * The grid the options are chosen from (defaults first): each option of the engine varied alone, and
 * paper 1 as written (its scoring, one template, no navigation regions).
 */
const ALIGN_GRID: readonly GridPoint[] = [
  { name: 'default', options: {} },
  { name: 'mismatch 0', options: { mismatch: 0 } },
  { name: 'min evidence 0.4', options: { minEvidence: 0.4 } },
  { name: 'min evidence 0.6', options: { minEvidence: 0.6 } },
  { name: 'sample 16', options: { sample: 16 } },
  { name: 'sample 32', options: { sample: 32 } },
  { name: 'no line rule', options: { lineRule: false } },
  { name: 'no navigation regions', options: { navigationRegions: false } },
  { name: 'no languages', options: { languages: false } },
  { name: 'paper 1', options: { mismatch: 0, sample: 16, navigationRegions: false, languages: false } },
];

/** Target of the align engine on every whole site (content F1, held out). */
const ALIGN_TARGET_F1 = 0.97;

/** The figures of every site under one grid point. */
async function measureSites(point: GridPoint): Promise<Map<string, SiteFigures>> {
  const r = await evaluateTemplateEngine(alignEngine, { name: `align ${point.name}`, sets: 'sites', report: false, progress: false, options: point.options });
  return new Map(r.groups.map((g) => [g.name, { f1: g.content.f1, precision: g.content.precision, recall: g.content.recall, nodeF1: g.node?.f1 ?? NaN }]));
}

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

/** Exact-cell limit that forces align.ts's explicit fallback on the corpus pairs, to measure its loss. */
const FORCED_LIMIT = 1 << 16;

/**
 * The fast path (bit-parallel DP, align.ts) against plain NW (the textbook recurrence, linear space) on real
 * pairs: every merge of each site's 16-page consensus (profiles of every level) and every sample page
 * against the learned template. Every score must be equal: a pair that differs is a bug. The same pairs
 * with the explicit fallback forced (FORCED_LIMIT): how many take it, how many then score below the
 * optimum, and by how much per token (score difference / (n + m)) on those.
 */
function exactness(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const site of listSites()) {
    if (only.length > 0 && !only.some((o) => site.name.includes(o))) continue;
    const labels = new LabelTable();
    const keys = chooseSample(site.files(), ALIGN_DEFAULTS.sample);
    const seqs = keys.map((k) => tokenize(parseHtml(decodeHtml(readFileSync(join(site.pagesDir, k))).text, { labels, selfClosing: k.endsWith('.xhtml') }), labels).ids);
    let pairs = 0;
    let equal = 0;
    let cells = 0;
    let fastMs = 0;
    let plainMs = 0;
    let forcedAnchored = 0;
    let forcedBelow = 0;
    let forcedLoss = 0;
    const check = (a: Int32Array, b: Int32Array): void => {
      let t = performance.now();
      const fast = alignSequences(a, b);
      fastMs += performance.now() - t;
      t = performance.now();
      const plain = nwScore(a, b);
      plainMs += performance.now() - t;
      pairs++;
      cells += a.length * b.length;
      if (fast.exact && fast.score === plain && alignmentScore(a, b, fast) === plain && isValidAlignment(a, b, fast)) equal++;
      // The explicit fallback of align.ts, forced on this pair (limit 2^16 cells instead of 2^31).
      const forced = alignSequences(a, b, { maxExactCells: FORCED_LIMIT });
      if (!forced.exact) forcedAnchored++;
      if (forced.score < plain) {
        forcedBelow++;
        forcedLoss += (plain - forced.score) / (a.length + b.length);
      }
    };
    let level = seqs.map((x) => pageProfile(x));
    while (level.length > 1) {
      const next = [];
      for (let p = 0; p + 1 < level.length; p += 2) {
        check(level[p]!.ids, level[p + 1]!.ids);
        next.push(mergeProfiles(level[p]!, level[p + 1]!).profile);
      }
      if (level.length % 2 === 1) next.push(level[level.length - 1]!);
      level = next;
    }
    for (const x of seqs) check(x, level[0]!.ids);
    out.push({
      site: site.name, pairs, equal, cells, fastMs: Math.round(fastMs), plainMs: Math.round(plainMs),
      forcedAnchored, forcedBelow, forcedMeanLossPerToken: forcedBelow > 0 ? forcedLoss / forcedBelow : 0,
    });
  }
  return out;
}

/**
 * What template removal leaves on the samesite groups beyond the gold: the kept text nodes whose words are
 * mostly not in the page's gold, split by whether the same text (lowercased, whitespace collapsed) is on at
 * least half of the group's pages (repeated: text a template could in principle remove) or not (per-page
 * boilerplate: related links, comments, teasers, which no template holds). Words are counted per text node.
 */
async function leftover(): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (const g of listSamesite()) {
    const name = `${g.set}/${g.site}`;
    if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
    const marks: PageMarks[] = [];
    for await (const o of runEngine(alignEngine, g.dir)) if (o.ok) marks.push(o.marks);
    const texts = marks.map((m) => {
      const t = m.tree;
      const body = t.body();
      const list: Array<[number, string]> = [];
      for (let i = body; i < t.end[body]!; i++) {
        if (t.kind[i] !== NodeKind.Text || insideNonText(t, i)) continue;
        const x = collapseSpace(t.nodeText(i)).trim().toLowerCase();
        if (x) list.push([i, x]);
      }
      return list;
    });
    const pagesWith = new Map<string, number>();
    for (const list of texts) for (const x of new Set(list.map((e) => e[1]))) pagesWith.set(x, (pagesWith.get(x) ?? 0) + 1);
    const half = Math.max(2, Math.ceil(marks.length / 2));
    let repeated = 0;
    let perPage = 0;
    for (const [k, m] of marks.entries()) {
      const page = g.pages.find((p) => `${p.id}.html` === m.key);
      if (!page) continue;
      const gold = wordCounts(words(samesiteGoldText(page)));
      for (const [i, x] of texts[k]!) {
        if (m.template[i] === 1) continue;
        const ws = words(x);
        if (ws.filter((w) => gold.has(w)).length >= ws.length / 2) continue;
        if ((pagesWith.get(x) ?? 0) >= half) repeated += ws.length;
        else perPage += ws.length;
      }
    }
    out.push({ group: name, pages: marks.length, repeatedWords: repeated, perPageWords: perPage });
  }
  return out;
}

function insideNonText(t: PageMarks['tree'], i: number): boolean {
  for (let p = t.parent[i]!; p >= 0; p = t.parent[p]!) if (isNonText(t, p)) return true;
  return false;
}

await runEval('align', async () => {
  const cv = only.length === 0 && !args.includes('--no-cv')
    ? await crossValidate({ engine: 'align', grid: ALIGN_GRID, sites: listSites().map((s) => s.name), measure: measureSites, objective: (f) => f.f1 })
    : null;
  if (cv) {
    process.stdout.write(foldTable(cv, [], (f) => f.f1 >= ALIGN_TARGET_F1) + `\n(target: content F1 >= ${ALIGN_TARGET_F1} on every site, held out)\n\n` + gridTable(cv) + '\n\n');
  }
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
  process.stdout.write('Fast path (bit-parallel) vs plain NW (linear-space recurrence): every consensus merge and every sample page vs the template\n' + formatTable(
    ['site', 'pairs', 'same score', 'M cells', 'fast ms', 'plain NW ms', 'forced fallback: anchored', 'below optimum', 'mean loss / token'],
    ex.map((e) => [
      String(e['site']), String(e['pairs']), String(e['equal']), fmt((e['cells'] as number) / 1e6, 1), String(e['fastMs']), String(e['plainMs']),
      String(e['forcedAnchored']), String(e['forcedBelow']), fmt(e['forcedMeanLossPerToken'] as number, 4),
    ]),
  ) + '\n');

  const left = await leftover();
  const sumLeft = (key: string): number => left.reduce((t, r) => t + (r[key] as number), 0);
  process.stdout.write('Kept text beyond the gold on samesite (words of mostly non-gold text nodes)\n' + formatTable(
    ['group', 'pages', 'repeated on >= half the pages', 'page-specific'],
    [...left.map((r) => [String(r['group']), String(r['pages']), String(r['repeatedWords']), String(r['perPageWords'])]), ['all groups', '', String(sumLeft('repeatedWords')), String(sumLeft('perPageWords'))]],
  ) + '\n\n');

  const headline: Record<string, number | string | null> = { ...(cv ? crossValidationHeadline(cv) : {}), ...templateHeadline(align) };
  const sitesSet = align.sets.find((s) => s.set === 'sites');
  const sameSet = align.sets.find((s) => s.set === 'samesite');
  const wholeSame = whole.sets.find((s) => s.set === 'samesite');
  if (sitesSet) headline['sites content recall'] = sitesSet.content.recall;
  if (sameSet) headline['samesite content recall'] = sameSet.content.recall;
  if (sameSet && wholeSame) {
    headline['samesite precision'] = sameSet.content.precision;
    headline['samesite precision, whole body'] = wholeSame.content.precision;
    headline['samesite recall, whole body'] = wholeSame.content.recall;
    headline['samesite recall / whole-body recall'] = sameSet.content.recall / wholeSame.content.recall;
  }
  if (left.length > 0) headline['samesite kept non-gold words: repeated text / page-specific'] = `${sumLeft('repeatedWords')} / ${sumLeft('perPageWords')}`;
  const low = (key: 'recall' | 'relativeRecall'): string => rel.rows.filter((r) => (r[key] as number) < 0.98).map((r) => String(r['name'])).join(', ') || 'none';
  headline['groups with recall < 0.98'] = low('recall');
  headline['groups with recall / whole-body recall < 0.98'] = low('relativeRecall');
  const c5 = clusters.find((c) => c['templateRemoved'] === true && c['k'] === 5);
  const c5n = clusters.find((c) => c['templateRemoved'] === false && c['k'] === 5);
  if (c5) headline['stackoverflow purity, template removed (k=5)'] = c5['purity'] as number;
  if (c5n) headline['stackoverflow purity, whole page (k=5)'] = c5n['purity'] as number;
  if (ex.length > 0) {
    headline['fast path pairs scoring as plain NW'] = `${ex.reduce((t, e) => t + (e['equal'] as number), 0)} of ${ex.reduce((t, e) => t + (e['pairs'] as number), 0)}`;
  }
  const path = writeResults('align', headline, { overall: align.overall, sets: align.sets, relative: rel.rows, clustering: clusters, exactness: ex, leftover: left, crossValidation: cv, groups: align.groups });
  process.stdout.write(`results: ${path}\n`);
});
