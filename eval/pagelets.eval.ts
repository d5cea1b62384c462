/**
 * Evaluation of the pagelets engine (paper 3) on the corpus, scored as the corpus README says:
 *  - sites/: the global algorithm (Figure 5, DuckDB backend) on each whole site with its links; content
 *    P/R/F1 per page (kept text vs gold main text), template node P/R/F1, and the template fraction of the
 *    pages (the paper's Table 2 measure); means per site and over sites;
 *  - samesite/: the local algorithm (Figure 4) on each group of pages of one site; content P/R/F1.
 * Run: `npx tsx eval/pagelets.eval.ts [--sites-only|--samesite-only] [--backend memory]`; prints tables and
 * writes eval/results/pagelets.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabelTable } from '../src/html/labels.ts';
import { corpusAvailable, CORPUS_MISSING } from '../src/eval/corpus-path.ts';
import { goldContentText, listSamesite, listSites, samesiteGoldText, type SamesiteGroup } from '../src/eval/corpus.ts';
import { contentScore, mean, type Score, templateNodeScore } from '../src/eval/metrics.ts';
import { DirSource } from '../src/site/dir-source.ts';
import type { PageSource } from '../src/site/page.ts';
import { runEngine } from '../src/run/drive.ts';
import pageletsEngine from '../src/template/pagelets/engine.ts';
import { keptText, type PageMarks, templateFraction } from '../src/template/result.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const backend = flag('--backend') ?? 'sql';
const extra: Record<string, unknown> = {};
for (const o of ['--k', '--shingle-width', '--minhashes', '--min-pages', '--min-support', '--support-cap']) {
  const v = flag(o);
  if (v !== undefined) extra[o.slice(2).replace(/-(\w)/g, (_, c: string) => c.toUpperCase())] = Number(v);
}
if (args.includes('--link-targets')) extra['linkTargets'] = true;
if (args.includes('--no-fold-digits')) extra['foldDigits'] = false;

/** Runs the engine on a source, calling `score` for each marked page. */
async function run(source: PageSource, options: Record<string, unknown>, score: (m: PageMarks) => void): Promise<{ ms: number; summary: Record<string, unknown> }> {
  const t = performance.now();
  const failures: string[] = [];
  const run = runEngine(pageletsEngine, source, { options: { ...options, ...extra }, labels: new LabelTable({ attributes: 'none' }) });
  for await (const o of run) {
    if (o.ok) score(o.marks);
    else failures.push(`${o.key}: ${o.failure.message}`);
  }
  const r = { summary: (await run.result()).engine };
  if (failures.length > 0) console.error(`${failures.length} failures, e.g. ${failures[0]}`);
  return { ms: performance.now() - t, summary: r.summary };
}

const f3 = (x: number): string => x.toFixed(3);
function meanOf(scores: Score[]): Score {
  return { precision: mean(scores.map((s) => s.precision)), recall: mean(scores.map((s) => s.recall)), f1: mean(scores.map((s) => s.f1)) };
}

interface SiteRow {
  site: string;
  pages: number;
  scored: number;
  content: Score;
  nodes: Score;
  templateFraction: number;
  templates: number;
  ms: number;
}

async function evalSites(): Promise<SiteRow[]> {
  const rows: SiteRow[] = [];
  const only = flag('--site');
  for (const site of listSites()) {
    if (only !== undefined && site.name !== only) continue;
    const content: Score[] = [];
    const nodes: Score[] = [];
    const fractions: number[] = [];
    let pages = 0;
    const source = new DirSource(site.pagesDir, { entry: site.entry });
    const { ms, summary } = await run(source, { global: true, backend, workers: 2 }, (m) => {
      pages++;
      fractions.push(templateFraction(m));
      const gold = goldContentText(site, m.tree);
      if (gold === null) return;
      content.push(contentScore(keptText(m), gold));
      const ns = templateNodeScore(m.tree, m.template, site.gold);
      if (ns) nodes.push(ns);
    });
    await source.close();
    const p = summary['pagelets'] as { templateShingles: number } | undefined;
    rows.push({ site: site.name, pages, scored: content.length, content: meanOf(content), nodes: meanOf(nodes), templateFraction: mean(fractions), templates: p?.templateShingles ?? 0, ms });
  }
  return rows;
}

interface GroupRow {
  set: string;
  site: string;
  pages: number;
  content: Score;
  baseline: Score;
}

async function evalSamesite(): Promise<GroupRow[]> {
  const rows: GroupRow[] = [];
  for (const g of listSamesite()) {
    if (g.pages.length < 2) continue;
    const content: Score[] = [];
    const baseline: Score[] = [];
    const gold = goldOf(g);
    const source = new DirSource(g.dir);
    await run(source, { global: false, workers: 0 }, (m) => {
      const id = m.key.replace(/\.html$/, '');
      const text = gold.get(id);
      if (text === undefined) return;
      content.push(contentScore(keptText(m), text));
      baseline.push(contentScore(keptText({ ...m, template: new Uint8Array(m.tree.size) }), text));
    });
    await source.close();
    rows.push({ set: g.set, site: g.site, pages: content.length, content: meanOf(content), baseline: meanOf(baseline) });
  }
  return rows;
}

function goldOf(g: SamesiteGroup): Map<string, string> {
  return new Map(g.pages.map((p) => [p.id, samesiteGoldText(p)]));
}

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    console.log(`skipped: ${CORPUS_MISSING}`);
    return;
  }
  const out: Record<string, unknown> = { method: 'pagelets', options: { backend, ...extra } };
  if (!args.includes('--samesite-only')) {
    const sites = await evalSites();
    console.log('\nsites/ — global algorithm (Figure 5), backend ' + backend);
    console.table(
      sites.map((r) => ({
        site: r.site,
        pages: r.pages,
        scored: r.scored,
        'content P': f3(r.content.precision),
        'content R': f3(r.content.recall),
        'content F1': f3(r.content.f1),
        'node P': f3(r.nodes.precision),
        'node R': f3(r.nodes.recall),
        'tpl fraction': f3(r.templateFraction),
        templates: r.templates,
        ms: Math.round(r.ms),
      })),
    );
    const all = meanOf(sites.map((r) => r.content));
    console.log(`mean over sites: content P ${f3(all.precision)} R ${f3(all.recall)} F1 ${f3(all.f1)}`);
    out['sites'] = sites;
    out['sitesMean'] = all;
  }
  if (!args.includes('--sites-only')) {
    const groups = await evalSamesite();
    console.log('\nsamesite/ — local algorithm (Figure 4); baseline keeps the whole body');
    const bySet = new Map<string, GroupRow[]>();
    for (const g of groups) bySet.set(g.set, [...(bySet.get(g.set) ?? []), g]);
    console.table(
      [...bySet].map(([set, gs]) => {
        const c = meanOf(gs.map((g) => g.content));
        const b = meanOf(gs.map((g) => g.baseline));
        return { set, groups: gs.length, pages: gs.reduce((a, g) => a + g.pages, 0), 'content P': f3(c.precision), 'content R': f3(c.recall), 'content F1': f3(c.f1), 'baseline F1': f3(b.f1) };
      }),
    );
    out['samesite'] = groups;
    out['samesiteMean'] = meanOf(groups.map((g) => g.content));
  }
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'pagelets.json'), JSON.stringify(out, null, 1) + '\n');
}

await main();
