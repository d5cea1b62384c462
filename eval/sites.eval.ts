/**
 * Grouping pages by site (src/run/sites.ts), measured on the corpus:
 *  1. every corpus site (sites/) and samesite group read as a directory: how many sites it is taken for,
 *     the largest one's share, and the pages taken alone (one site each is the aim);
 *  2. a mixed directory (written to a temporary folder): every page of single/readability and the first
 *     page of every samesite group. Pages should stand alone or with pages of their own site; then
 *     `extractContent` on it (the library's pipeline, as `gabarit content` runs): content F1 of each page
 *     against its gold, and the pages with a gold but an empty main text, against each page given alone
 *     (a one-page source each).
 *
 *     npx tsx eval/sites.eval.ts
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { listSamesite, listSites } from '../src/eval/corpus.ts';
import { contentScore, mean } from '../src/eval/metrics.ts';
import { extractContent } from '../src/run/content.ts';
import { groupSource, type SiteGroup } from '../src/run/sites.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { keptText } from '../src/template/result.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';
import { candidates, corpusUnits, costs, leaveOneOut, misjoined, type UnitCost } from './site-resemblance.ts';
import { RUN_DEFAULTS } from '../src/run/defaults.ts';

/** How one directory was grouped. */
interface Grouped {
  name: string;
  pages: number;
  sites: number;
  largest: number;
  alone: number;
}

async function groupsOf(dir: string): Promise<SiteGroup[]> {
  return (await groupSource(new DirSource(dir), () => undefined)) ?? [];
}

function summarise(name: string, groups: SiteGroup[]): Grouped {
  const pages = groups.reduce((n, g) => n + g.keys.length, 0);
  return { name, pages, sites: groups.length, largest: Math.max(0, ...groups.map((g) => g.keys.length)), alone: groups.filter((g) => g.keys.length === 1).length };
}

/** Part 1: each corpus site and samesite group as one directory. */
async function corpusGroups(): Promise<Grouped[]> {
  const out: Grouped[] = [];
  for (const s of listSites()) out.push(summarise(`sites/${s.name}`, await groupsOf(s.pagesDir)));
  for (const g of listSamesite()) out.push(summarise(`samesite/${g.set}/${g.site}`, await groupsOf(g.dir)));
  return out;
}

/** Part 2: the mixed directory; returns its folder and each page's gold text. */
async function mixedFolder(): Promise<{ dir: string; gold: Map<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-mixed-'));
  const gold = new Map<string, string>();
  const single = join(CORPUS_DIR, 'single', 'readability');
  for (const f of readdirSync(single).filter((x) => x.endsWith('.html')).sort()) {
    await copyFile(join(single, f), join(dir, f));
    gold.set(f, await readFile(join(single, f.replace(/\.html$/, '.txt')), 'utf8'));
  }
  for (const g of listSamesite()) {
    const p = g.pages[0];
    if (!p) continue;
    const name = `${g.set}_${g.site}_${basename(p.htmlPath)}`;
    await copyFile(p.htmlPath, join(dir, name));
    gold.set(name, await readFile(p.goldPath, 'utf8'));
  }
  return { dir, gold };
}

/** Content of every page of a source, by key. */
async function contentOf(source: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const o of extractContent(source, { onWarning: () => undefined })) if (o.ok) out.set(o.key, keptText(o.marks));
  return out;
}

/** Part 3: the sweep and its cross-validation; returns what goes into the results file. */
async function resemblanceChoice(): Promise<Record<string, unknown>> {
  const { units, mixed } = await corpusUnits();
  const cands = candidates();
  const byCand = costs(units, mixed, cands);
  const sum = (us: readonly UnitCost[]): { split: number; misjoined: number } => ({ split: us.reduce((s, u) => s + u.split, 0), misjoined: us.reduce((s, u) => s + u.misjoined, 0) });
  const ranked = [...byCand].map(([name, us]) => ({ name, ...sum(us) })).sort((a, b) => a.split + a.misjoined - (b.split + b.misjoined));
  const pages = [...units.values()].reduce((n, p) => n + p.length, 0);
  process.stdout.write(`\nResemblance of pages without a URL: ${units.size} units, ${pages} pages (each directory whole and in halves), mixed directory of ${mixed.length} pages\n`);
  const current = `overlap floor ${RUN_DEFAULTS.siteEvidenceFloor} ${RUN_DEFAULTS.siteSimilarity}`;
  const shown = ranked.filter((r, i) => i < 8 || r.name === current || r.name === 'jaccard 0.1');
  process.stdout.write(formatTable(['candidate (in-sample)', 'pages split off', 'pages misjoined', 'cost'], shown.map((r) => [r.name + (r.name === current ? ' (default)' : ''), String(r.split), String(r.misjoined), String(r.split + r.misjoined)])) + '\n');
  const folds = leaveOneOut(byCand);
  const held = sum(folds.map((f) => f.cost));
  const chosen = new Map<string, number>();
  for (const f of folds) chosen.set(f.chosen, (chosen.get(f.chosen) ?? 0) + 1);
  const jac = sum(byCand.get('jaccard 0.1')!);
  process.stdout.write(
    `leave one unit out (${folds.length} folds): held-out pages split off ${held.split}, misjoined ${held.misjoined}; chosen: ${[...chosen].map(([n, k]) => `${n} ×${k}`).join(', ')}\n` +
      `the measure used before (jaccard 0.1) on the same units: split off ${jac.split}, misjoined ${jac.misjoined}\n`,
  );
  for (const f of folds) if (f.cost.split + f.cost.misjoined > 0) process.stdout.write(`  ${f.unit}: split off ${f.cost.split}, misjoined ${f.cost.misjoined} (${f.chosen})\n`);
  const mis = misjoined(mixed, cands.find((c) => c.name === current)!.r).sites;
  for (const keys of mis) process.stdout.write(`  misjoined under the default: ${keys.join(' ')}\n`);
  return { ranked, folds, heldOut: held, jaccard: jac, default: current, misjoinedSites: mis };
}

async function main(): Promise<void> {
  const choice = await resemblanceChoice();
  const groups = await corpusGroups();
  const rows = groups.map((g) => [g.name, String(g.pages), String(g.sites), fmt(g.largest / g.pages), String(g.alone)]);
  process.stdout.write('Sites found in each corpus directory (one is the aim)\n' + formatTable(['directory', 'pages', 'sites', 'largest share', 'alone'], rows) + '\n\n');

  const { dir, gold } = await mixedFolder();
  try {
    const mixed = await groupsOf(dir);
    const multi = mixed.filter((g) => g.keys.length > 1);
    process.stdout.write(`Mixed directory: ${gold.size} pages taken for ${mixed.length} sites; pages alone ${mixed.filter((g) => g.keys.length === 1).length}; sites of several pages:\n`);
    for (const g of multi) process.stdout.write(`  ${g.site} (${g.by}): ${g.keys.join(' ')}\n`);
    const together = await contentOf(dir);
    const alone = new Map<string, string>();
    for (const key of gold.keys()) for (const [k, v] of await contentOf(join(dir, key))) alone.set(k, v);
    const score = (got: Map<string, string>): { f1: number; empty: string[] } => {
      const f1: number[] = [];
      const empty: string[] = [];
      for (const [key, g] of gold) {
        if (g.trim() === '') continue;
        const text = got.get(key) ?? '';
        if (text.trim() === '') empty.push(key);
        f1.push(contentScore(text, g).f1);
      }
      return { f1: mean(f1), empty };
    };
    const t = score(together);
    const a = score(alone);
    process.stdout.write(
      formatTable(['run', 'pages with gold', 'content F1', 'empty main text'], [
        ['mixed directory (extractContent)', String(gold.size), fmt(t.f1), String(t.empty.length)],
        ['each page alone', String(gold.size), fmt(a.f1), String(a.empty.length)],
      ]) + '\n',
    );
    if (t.empty.length > 0) process.stdout.write(`empty in the mixed run: ${t.empty.join(' ')}\n`);
    if (a.empty.length > 0) process.stdout.write(`empty alone: ${a.empty.join(' ')}\n`);
    const path = writeResults(
      'sites',
      {
        'corpus dirs taken for one site': groups.filter((g) => g.largest / g.pages >= 0.9).length,
        'corpus dirs': groups.length,
        'mixed sites': mixed.length,
        'mixed content F1': t.f1,
        'mixed empty': t.empty.length,
        'alone content F1': a.f1,
        'alone empty': a.empty.length,
        'held-out pages split off': (choice.heldOut as { split: number }).split,
        'held-out pages misjoined': (choice.heldOut as { misjoined: number }).misjoined,
      },
      { choice, corpus: groups, mixed: mixed.map((g) => ({ site: g.site, by: g.by, keys: g.keys })), emptyMixed: t.empty, emptyAlone: a.empty },
    );
    process.stdout.write(`results: ${path}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await runEval('sites', main);
