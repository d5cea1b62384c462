/**
 * Learn once, apply to new pages, measured on the corpus: how close a template applied to pages it was not
 * learned on comes to the one-shot run (`gabarit template`, which learns from the whole source).
 * For every corpus site (sites/) and samesite group, pages sorted by key are split in two: the even ranks
 * are the pages learned on (a view of the directory holding only them: the engine can neither list nor load
 * the others, as a crawler has not seen them yet), the odd ranks are the new pages. Per engine:
 *  - one-shot: `detectTemplate` on the whole directory; its kept text of each new page;
 *  - learn + apply: `learnTemplate` on the learned half, then `applyTemplate` on each new page.
 * Reported over the new pages: agreement (word F1 of the applied kept text against the one-shot kept text;
 * 1 = the same words), and content F1 against the gold of both (corpus README scoring). hyperlink runs on
 * sites/ only (samesite groups have no link graph).
 *
 *     npx tsx eval/apply.eval.ts [--only name]
 */
import { loadavg } from 'node:os';
import { listSamesite, listSites, goldContentText, samesiteGoldText, type CorpusSite, type SamesiteGroup } from '../src/eval/corpus.ts';
import { contentScore, mean } from '../src/eval/metrics.ts';
import { applyTemplate, learnTemplate } from '../src/run/learn.ts';
import { siteView } from '../src/run/by-site.ts';
import { detectTemplate, type DetectOptions } from '../src/run/template.ts';
import { PageError } from '../src/errors.ts';
import { DirSource } from '../src/site/dir-source.ts';
import type { PageSource } from '../src/site/page.ts';
import { keptText } from '../src/template/result.ts';
import type { Tree } from '../src/html/tree.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';

const ENGINES: Array<{ name: string; options: DetectOptions; sitesOnly?: boolean }> = [
  { name: 'align', options: { method: 'align' } },
  { name: 'hyperlink', options: { method: 'hyperlink' }, sitesOnly: true },
  { name: 'pagelets local', options: { method: 'pagelets', workers: 0 } },
  { name: 'pagelets global', options: { method: 'pagelets', global: true, backend: 'memory', workers: 0 } },
];

interface Target {
  set: 'sites' | 'samesite';
  name: string;
  dir: string;
  entry?: string;
  gold(key: string, tree: Tree): string | null;
}

function targets(): Target[] {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const out: Target[] = [];
  for (const s of listSites() as CorpusSite[]) out.push({ set: 'sites', name: s.name, dir: s.pagesDir, entry: s.entry, gold: (_k, tree) => goldContentText(s, tree) });
  for (const g of listSamesite() as SamesiteGroup[]) {
    const byKey = new Map(g.pages.map((p) => [`${p.id}.html`, p]));
    out.push({ set: 'samesite', name: `${g.set}/${g.site}`, dir: g.dir, gold: (k) => (byKey.has(k) ? samesiteGoldText(byKey.get(k)!) : null) });
  }
  return only ? out.filter((t) => t.name.includes(only)) : out;
}

/** A view holding only `keys`: the others can neither be listed nor loaded (pages not seen yet). */
function seenOnly(source: PageSource, keys: readonly string[]): PageSource {
  const held = new Set(keys);
  const view = siteView(source, keys);
  return {
    ...view,
    get kind() {
      return source.kind;
    },
    get loaded() {
      return source.loaded;
    },
    get: async (urlOrKey) => {
      const key = source.keyOf(urlOrKey) ?? urlOrKey;
      if (!held.has(key)) throw new PageError(source.urlOf(key), 'not-found', 'not seen yet');
      return source.get(key);
    },
  };
}

interface Row {
  set: string;
  name: string;
  engine: string;
  newPages: number;
  agreement: number;
  oneShotF1: number;
  appliedF1: number;
  error?: string;
}

async function evaluate(t: Target, e: (typeof ENGINES)[number]): Promise<Row> {
  const row: Row = { set: t.set, name: t.name, engine: e.name, newPages: 0, agreement: NaN, oneShotF1: NaN, appliedF1: NaN };
  const source = new DirSource(t.dir, t.entry ? { entry: t.entry } : {});
  const keys = (await source.keys()).sort();
  const learnKeys = keys.filter((_, i) => i % 2 === 0);
  const newKeys = keys.filter((_, i) => i % 2 === 1);
  const oneShot = new Map<string, { text: string; tree: Tree }>();
  try {
    for await (const o of detectTemplate(source, { ...e.options, onWarning: () => undefined } as DetectOptions)) if (o.ok) oneShot.set(o.key, { text: keptText(o.marks), tree: o.marks.tree });
    const { template } = await learnTemplate(seenOnly(source, learnKeys), { ...e.options, onWarning: () => undefined } as DetectOptions);
    const agree: number[] = [];
    const f1One: number[] = [];
    const f1App: number[] = [];
    for (const key of newKeys) {
      const one = oneShot.get(key);
      if (!one) continue;
      const page = await source.get(key);
      const a = applyTemplate(template, { bytes: page.body, key, url: page.url }, { key, url: page.url });
      const applied = keptText(a);
      agree.push(contentScore(applied, one.text).f1);
      const gold = t.gold(key, one.tree);
      if (gold === null || gold.trim() === '') continue;
      f1One.push(contentScore(one.text, gold).f1);
      f1App.push(contentScore(applied, gold).f1);
    }
    Object.assign(row, { newPages: agree.length, agreement: mean(agree), oneShotF1: mean(f1One), appliedF1: mean(f1App), f1: f1App.length });
  } catch (err) {
    row.error = (err as Error).message.slice(0, 80);
  }
  return row;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const t of targets()) {
    for (const e of ENGINES) {
      if (e.sitesOnly && t.set !== 'sites') continue;
      const r = await evaluate(t, e);
      rows.push(r);
      process.stderr.write(`apply: ${t.name} ${e.name}: ${r.newPages} new pages, agreement ${fmt(r.agreement)}${r.error ? ` ERROR ${r.error}` : ''}\n`);
    }
  }
  const table: Array<string[] | null> = [];
  const headline: Record<string, number | null> = {};
  for (const set of ['sites', 'samesite']) {
    for (const e of ENGINES) {
      const rs = rows.filter((r) => r.set === set && r.engine === e.name && !r.error);
      if (rs.length === 0) continue;
      // Means over pages: each row's mean weighted by its new pages.
      const w = (f: (r: Row) => number): number => {
        let s = 0;
        let n = 0;
        for (const r of rs) if (!Number.isNaN(f(r))) {
          s += f(r) * r.newPages;
          n += r.newPages;
        }
        return n === 0 ? NaN : s / n;
      };
      const errors = rows.filter((r) => r.set === set && r.engine === e.name && r.error).length;
      table.push([set, e.name, String(rs.length), String(errors), String(rs.reduce((n, r) => n + r.newPages, 0)), fmt(w((r) => r.agreement)), fmt(w((r) => r.oneShotF1)), fmt(w((r) => r.appliedF1))]);
      headline[`${set} ${e.name} agreement`] = w((r) => r.agreement);
      headline[`${set} ${e.name} F1 one-shot`] = w((r) => r.oneShotF1);
      headline[`${set} ${e.name} F1 applied`] = w((r) => r.appliedF1);
    }
    table.push(null);
  }
  process.stdout.write(`Learned on half the pages (even ranks), applied to the other half; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  process.stdout.write(formatTable(['set', 'engine', 'targets', 'errors', 'new pages', 'agreement F1', 'content F1 one-shot', 'content F1 applied'], table) + '\n');
  for (const r of rows.filter((x) => x.error)) process.stdout.write(`error: ${r.name} ${r.engine}: ${r.error}\n`);
  writeResults('apply', headline, { rows });
}

await runEval('apply', main);
