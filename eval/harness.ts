/**
 * Shared drivers of the evaluations (eval/*.eval.ts), so that each engine's evaluation is a few lines:
 *  - `evaluateTemplateEngine`: runs a TemplateEngine over every corpus site (sites/) and every samesite
 *    group, scores each page it emits with the corpus README's method (src/eval/metrics.ts) and aggregates
 *    the means per site/group, per set and overall;
 *  - `evaluateRecords`: the same engine over the SWDE records pages: how many gold values survive;
 *  - `formatTable` / `templateTable` / `recordsTable`: aligned text tables;
 *  - `writeResults`: eval/results/<name>.json with a `headline` the overview of `npm run eval` prints;
 *  - `runEval`: the main of an eval file (skips cleanly when the corpus is absent, exit code 1 on a crash).
 * Evaluations print (they are programs, like the CLI); the library under src/ never does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabelTable } from '../src/html/labels.ts';
import { CORPUS_DIR, CORPUS_MISSING, corpusAvailable } from '../src/eval/corpus-path.ts';
import { goldContentText, listSamesite, listSites, loadRecords, samesiteGoldText, type CorpusSite, type SamesiteGroup } from '../src/eval/corpus.ts';
import { contentScore, meanScore, templateNodeScore, valueKept, wordCounts, words, type Score } from '../src/eval/metrics.ts';
import type { PageSource } from '../src/site/page.ts';
import { openSource } from '../src/site/source.ts';
import { runEngine } from '../src/run/drive.ts';
import type { RunResult } from '../src/run/types.ts';
import type { TemplateEngine } from '../src/template/engine.ts';
import { keptText, type PageMarks } from '../src/template/result.ts';

/** The repository root (eval/..). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where evaluations write their results. */
export const RESULTS_DIR = join(REPO_ROOT, 'eval', 'results');

/** Which corpus sets a template evaluation covers. */
export type TemplateSets = 'sites' | 'samesite' | 'both';

/** One unit an engine runs on: a corpus site (its pages/ directory) or a samesite group (its directory). */
export interface EvalTarget {
  readonly set: 'sites' | 'samesite';
  /** Site name, or `<set>/<site>` for a samesite group. */
  readonly name: string;
  /** The directory of pages. */
  readonly dir: string;
  /** Entry page key (sites only). */
  readonly entry?: string;
  /** Keys the source holds (page paths relative to dir), sorted. */
  readonly keys: readonly string[];
  readonly site?: CorpusSite;
  readonly group?: SamesiteGroup;
}

/** The scores of one page. `node` only on sites (template node P/R/F1). */
export interface PageScore {
  key: string;
  content: Score;
  node?: Score;
}

/** A page that could not be scored: the engine's failure, a page it never emitted, or a scoring error. */
export interface EvalFailure {
  key: string;
  code: string;
  message: string;
}

/** Results of one site / group. Means are over the pages scored (NaN, written null, when none). */
export interface GroupResult {
  set: 'sites' | 'samesite';
  name: string;
  /** Pages scored (emitted by the engine, with gold). */
  pages: number;
  /** Pages failed (reported by the engine, never emitted, or the engine crashed). */
  failed: number;
  /** Pages emitted without gold (no content selector matches; empty gold text): left out of scores. */
  noGold: number;
  content: Score;
  node: Score | null;
  /** Wall-clock milliseconds of the engine's run (including scoring). */
  ms: number;
  /** The engine's own timings and summary. */
  timings: Record<string, number>;
  summary: Record<string, unknown>;
  /** Set when the engine threw: its message. */
  error?: string;
  failures: EvalFailure[];
  perPage: PageScore[];
}

/** Aggregate over the pages of a set, or over all pages (`set: 'overall'`). */
export interface SetResult {
  set: 'sites' | 'samesite' | 'overall';
  /** Number of sites / groups. */
  groups: number;
  pages: number;
  failed: number;
  noGold: number;
  /** Mean over every page scored in the set (not the mean of group means): corpus README. */
  content: Score;
  node: Score | null;
}

/** Everything a template evaluation measured: per site / group (with per-page scores), per set, overall. */
export interface TemplateEvalResult {
  name: string;
  engine: string;
  options: Record<string, unknown>;
  groups: GroupResult[];
  sets: SetResult[];
  overall: SetResult;
}

/** How `evaluateTemplateEngine` / `evaluateTarget` / `evaluateRecords` run an engine. */
export interface TemplateEvalOptions {
  /** Name of the evaluation: the results file eval/results/<name>.json (default: the engine's name). */
  name?: string;
  /** Print the table and write the results file (default true). */
  report?: boolean;
  /** Sets to run on (default 'both'). */
  sets?: TemplateSets;
  /** Engine options (camelCase names, parsed values), passed as ctx.options. */
  options?: Record<string, unknown>;
  /** The PageSource of a target (default: a directory source over target.dir, with the site's entry). */
  sourceFor?: (target: EvalTarget) => Promise<PageSource>;
  /** Label table of a target (default: a fresh `new LabelTable()`, all attributes). */
  labelsFor?: (target: EvalTarget) => LabelTable;
  /** Only targets whose name contains one of these strings. */
  only?: readonly string[];
  /** Progress lines on stderr (default true). */
  progress?: boolean;
  /** Called with each marked page before it is scored (e.g. to keep its text). */
  onPage?(target: EvalTarget, marks: PageMarks): void | Promise<void>;
}

/** The targets of a run: corpus sites, then samesite groups, each sorted by name. */
export function templateTargets(sets: TemplateSets = 'both', only?: readonly string[]): EvalTarget[] {
  const out: EvalTarget[] = [];
  if (sets !== 'samesite') {
    for (const site of listSites()) out.push({ set: 'sites', name: site.name, dir: site.pagesDir, entry: site.entry, keys: site.files(), site });
  }
  if (sets !== 'sites') {
    for (const group of listSamesite()) {
      out.push({ set: 'samesite', name: `${group.set}/${group.site}`, dir: group.dir, keys: group.pages.map((p) => `${p.id}.html`), group });
    }
  }
  return only && only.length > 0 ? out.filter((t) => only.some((o) => t.name.includes(o))) : out;
}

/** The default source of a target: `openSource(dir)` (a directory source), with the site's entry page. */
export async function directorySource(target: EvalTarget): Promise<PageSource> {
  return openSource(target.dir, target.entry !== undefined ? { entry: target.entry } : {});
}

/**
 * Scores one emitted page of a target: content P/R/F1 (kept text vs gold text) and, on sites, template
 * node P/R/F1. Null when the page has no gold (no content selector matches, or an empty samesite gold).
 */
export function scorePage(target: EvalTarget, marks: PageMarks): PageScore | null {
  if (target.site) {
    const gold = goldContentText(target.site, marks.tree);
    if (gold === null) return null;
    const node = templateNodeScore(marks.tree, marks.template, target.site.gold);
    const s: PageScore = { key: marks.key, content: contentScore(keptText(marks), gold) };
    if (node) s.node = node;
    return s;
  }
  const page = target.group?.pages.find((p) => `${p.id}.html` === marks.key);
  if (!page) return null;
  const gold = samesiteGoldText(page);
  if (gold.trim() === '') return null;
  return { key: marks.key, content: contentScore(keptText(marks), gold) };
}

/** Runs `engine` on one target and scores every page it emits. Never throws: a crash is recorded. */
export async function evaluateTarget(
  engine: TemplateEngine,
  target: EvalTarget,
  options: TemplateEvalOptions = {},
): Promise<GroupResult> {
  const t0 = performance.now();
  const perPage: PageScore[] = [];
  const failures: EvalFailure[] = [];
  const seen = new Set<string>();
  let noGold = 0;
  let run: RunResult | undefined;
  let error: string | undefined;
  let source: PageSource | undefined;
  try {
    source = await (options.sourceFor ?? directorySource)(target);
    const pipeline = runEngine(engine, source, { options: options.options ?? {}, labels: options.labelsFor ? options.labelsFor(target) : new LabelTable(), onWarning: () => undefined });
    try {
      for await (const o of pipeline) {
        seen.add(o.key);
        if (!o.ok) {
          failures.push({ key: o.key, code: String(o.failure.code), message: o.failure.message });
          continue;
        }
        await options.onPage?.(target, o.marks);
        try {
          const s = scorePage(target, o.marks);
          if (s) perPage.push(s);
          else noGold++;
        } catch (e) {
          failures.push({ key: o.key, code: 'score-error', message: e instanceof Error ? e.message : String(e) });
        }
      }
    } finally {
      run = await pipeline.result().catch(() => undefined);
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  } finally {
    await source?.close().catch(() => undefined);
  }
  for (const key of target.keys) {
    if (!seen.has(key)) failures.push({ key, code: error ? 'engine-error' : 'not-emitted', message: error ?? 'the engine emitted no marks for this page' });
  }
  const node = perPage.filter((p) => p.node).map((p) => p.node!);
  const r: GroupResult = {
    set: target.set,
    name: target.name,
    pages: perPage.length,
    failed: failures.length,
    noGold,
    content: meanScore(perPage.map((p) => p.content)),
    node: target.set === 'sites' ? meanScore(node) : null,
    ms: performance.now() - t0,
    timings: run?.timings ?? {},
    summary: run?.engine ?? {},
    failures,
    perPage,
  };
  if (error !== undefined) r.error = error;
  return r;
}

/** Aggregates group results over their pages. */
export function aggregate(set: SetResult['set'], groups: readonly GroupResult[]): SetResult {
  const pages = groups.flatMap((g) => g.perPage);
  const nodes = pages.filter((p) => p.node).map((p) => p.node!);
  return {
    set,
    groups: groups.length,
    pages: pages.length,
    failed: groups.reduce((n, g) => n + g.failed, 0),
    noGold: groups.reduce((n, g) => n + g.noGold, 0),
    content: meanScore(pages.map((p) => p.content)),
    node: groups.some((g) => g.set === 'sites') ? meanScore(nodes) : null,
  };
}

/**
 * Runs a template engine over the corpus (see the module comment), target by target (sites first), scores
 * it, and (unless `report: false`) prints its table and writes eval/results/<name>.json. `engine` may be a
 * function giving the engine of each target (an oracle needs the target's gold). Prints one progress line
 * per target on stderr unless `progress: false`.
 */
export async function evaluateTemplateEngine(
  engine: TemplateEngine | ((target: EvalTarget) => TemplateEngine),
  options: TemplateEvalOptions = {},
): Promise<TemplateEvalResult> {
  const targets = templateTargets(options.sets ?? 'both', options.only);
  const groups: GroupResult[] = [];
  let engineName = typeof engine === 'function' ? '' : engine.name;
  const name = options.name ?? engineName;
  for (const target of targets) {
    const e = typeof engine === 'function' ? engine(target) : engine;
    engineName ||= e.name;
    const g = await evaluateTarget(e, target, options);
    groups.push(g);
    if (options.progress !== false) {
      const err = g.error ? `  ERROR: ${g.error}` : '';
      process.stderr.write(
        `${name || engineName}: ${target.set} ${target.name}: ${g.pages} scored, ${g.failed} failed, ` +
          `content F1 ${fmt(g.content.f1)} (${(g.ms / 1000).toFixed(1)} s)${err}\n`,
      );
    }
  }
  const sets: SetResult[] = [];
  for (const s of ['sites', 'samesite'] as const) {
    const gs = groups.filter((g) => g.set === s);
    if (gs.length > 0) sets.push(aggregate(s, gs));
  }
  const result: TemplateEvalResult = {
    name: name || engineName,
    engine: engineName,
    options: options.options ?? {},
    groups,
    sets,
    overall: aggregate('overall', groups),
  };
  if (options.report !== false) reportTemplateEval(result);
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Records (SWDE): gold values must survive template removal

/** How many gold values of an attribute (or of all) survive template removal. */
export interface KeptCount {
  values: number;
  kept: number;
  /** kept / values (NaN when no value). */
  rate: number;
}

/** Results of a template engine on one records set (records/<name>/pages). */
export interface RecordsResult {
  name: string;
  set: string;
  engine: string;
  /** Pages emitted and scored. */
  pages: number;
  failed: number;
  failures: EvalFailure[];
  attributes: Record<string, KeptCount>;
  overall: KeptCount;
  /** The first gold values lost (marked template), for diagnosis. */
  lost: Array<{ page: string; attribute: string; value: string }>;
  ms: number;
}

/** How many lost values a RecordsResult lists. */
const LOST_LISTED = 50;

/**
 * Runs a template engine over each records set's pages (a directory source over records/<name>/pages)
 * and counts, per attribute, the gold values whose words all survive in the kept text (corpus README,
 * "Records"; `valueKept`). Unless `report: false`, prints a table and writes eval/results/<name>.json.
 */
export async function evaluateRecords(engine: TemplateEngine, options: Omit<TemplateEvalOptions, 'sets' | 'only' | 'sourceFor' | 'labelsFor'> = {}): Promise<RecordsResult[]> {
  const out: RecordsResult[] = [];
  for (const set of loadRecords()) {
    const t0 = performance.now();
    const byId = new Map(set.pages.map((p) => [p.id + '.html', p]));
    const counts: Record<string, KeptCount> = Object.fromEntries(set.attributes.map((a) => [a, { values: 0, kept: 0, rate: NaN }]));
    const lost: RecordsResult['lost'] = [];
    const failures: EvalFailure[] = [];
    const seen = new Set<string>();
    let pages = 0;
    let error: string | undefined;
    const source = await openSource(join(set.dir, 'pages'));
    try {
      for await (const o of runEngine(engine, source, { options: options.options ?? {}, onWarning: () => undefined })) {
        seen.add(o.key);
        if (!o.ok) {
          failures.push({ key: o.key, code: String(o.failure.code), message: o.failure.message });
          continue;
        }
        const page = byId.get(o.key);
        if (!page) continue;
        pages++;
        const kept = wordCounts(words(keptText(o.marks)));
        for (const a of set.attributes) {
          for (const v of page.values[a] ?? []) {
            const c = counts[a]!;
            c.values++;
            if (valueKept(v, kept)) c.kept++;
            else if (lost.length < LOST_LISTED) lost.push({ page: page.id, attribute: a, value: v });
          }
        }
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      await source.close().catch(() => undefined);
    }
    for (const key of byId.keys()) {
      if (!seen.has(key)) failures.push({ key, code: error ? 'engine-error' : 'not-emitted', message: error ?? 'the engine emitted no marks for this page' });
    }
    let values = 0;
    let kept = 0;
    for (const c of Object.values(counts)) {
      c.rate = c.values > 0 ? c.kept / c.values : NaN;
      values += c.values;
      kept += c.kept;
    }
    const r: RecordsResult = {
      name: options.name ?? engine.name,
      set: set.name,
      engine: engine.name,
      pages,
      failed: failures.length,
      failures,
      attributes: counts,
      overall: { values, kept, rate: values > 0 ? kept / values : NaN },
      lost,
      ms: performance.now() - t0,
    };
    out.push(r);
    if (options.progress !== false) {
      process.stderr.write(`${r.name}: records ${set.name}: ${pages} pages, ${r.failed} failed, values kept ${fmt(r.overall.rate)}${error ? `  ERROR: ${error}` : ''}\n`);
    }
  }
  if (options.report !== false && out.length > 0) {
    process.stdout.write(recordsTable(out) + '\n');
    const headline: Record<string, number | null> = {};
    for (const r of out) headline[`${r.set} values kept rate`] = Number.isNaN(r.overall.rate) ? null : r.overall.rate;
    const path = writeResults(out[0]!.name, headline, { records: out });
    process.stdout.write(`results: ${relative(REPO_ROOT, path)}\n`);
  }
  return out;
}

/** The table of a records evaluation: one row per set and attribute. */
export function recordsTable(results: readonly RecordsResult[]): string {
  const rows: Array<string[] | null> = [];
  for (const r of results) {
    for (const [a, c] of Object.entries(r.attributes)) rows.push([r.set, a, String(r.pages), String(r.failed), String(c.values), String(c.kept), fmt(c.rate)]);
    rows.push([r.set, 'all attributes', String(r.pages), String(r.failed), String(r.overall.values), String(r.overall.kept), fmt(r.overall.rate)]);
    rows.push(null);
  }
  rows.pop();
  const name = results[0]?.name ?? '';
  return `${name} — records: gold values whose words all survive template removal\n` + formatTable(['set', 'attribute', 'pages', 'failed', 'values', 'kept', 'rate'], rows);
}

// ---------------------------------------------------------------------------------------------------------
// Tables and results

/** A score as printed: three decimals; '—' for NaN / null / undefined. */
export function fmt(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(digits);
}

/**
 * An aligned text table: a header row, a rule, the rows. Columns whose cells all look numeric (or '—')
 * are right-aligned, the others left-aligned. A row that is `null` prints as a rule.
 */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[] | null>): string {
  const n = header.length;
  const width = header.map((h) => h.length);
  const numeric = header.map(() => true);
  for (const row of rows) {
    if (!row) continue;
    for (let c = 0; c < n; c++) {
      const cell = row[c] ?? '';
      width[c] = Math.max(width[c]!, cell.length);
      if (cell !== '' && cell !== '—' && !/^[-+]?[\d.,]+\s?[%sx]?$/.test(cell)) numeric[c] = false;
    }
  }
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, c) => (numeric[c] ? cell.padStart(width[c]!) : cell.padEnd(width[c]!)))
      .join('  ')
      .trimEnd();
  const rule = width.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map((r) => (r ? line(header.map((_, c) => r[c] ?? '')) : rule))].join('\n');
}

/** The table of a template evaluation: one row per site / group, then one per set, then overall. */
export function templateTable(r: TemplateEvalResult): string {
  const header = ['set', 'site / group', 'scored', 'failed', 'no gold', 'P', 'R', 'F1', 'node P', 'node R', 'node F1', 'time s'];
  const row = (set: string, name: string, x: { pages: number; failed: number; noGold: number; content: Score; node: Score | null }, ms?: number): string[] => [
    set,
    name,
    String(x.pages),
    String(x.failed),
    String(x.noGold),
    fmt(x.content.precision),
    fmt(x.content.recall),
    fmt(x.content.f1),
    fmt(x.node?.precision),
    fmt(x.node?.recall),
    fmt(x.node?.f1),
    ms === undefined ? '' : (ms / 1000).toFixed(1),
  ];
  const rows: Array<string[] | null> = [];
  for (const s of r.sets) {
    for (const g of r.groups.filter((x) => x.set === s.set)) rows.push(row(g.set, g.error ? `${g.name} (ERROR)` : g.name, g, g.ms));
    rows.push(row(s.set, `all ${s.groups} ${s.set === 'sites' ? 'sites' : 'groups'} (mean over pages)`, s));
    rows.push(null);
  }
  rows.push(row('overall', `${r.overall.groups} targets`, r.overall));
  return `${r.name} — engine "${r.engine}", content P/R/F1 = word multisets of kept vs gold text; node = template elements (sites only)\n` + formatTable(header, rows);
}

/** Headline figures of a template evaluation (for the overview of `npm run eval`). */
export function templateHeadline(r: TemplateEvalResult): Record<string, number | null> {
  const h: Record<string, number | null> = {};
  const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);
  for (const s of [...r.sets, r.overall]) {
    h[`${s.set} content F1`] = num(s.content.f1);
    if (s.node && s.set === 'sites') h[`${s.set} node F1`] = num(s.node.f1);
    h[`${s.set} failed`] = s.failed;
  }
  return h;
}

/**
 * Writes eval/results/<name>.json: `{ name, date, command, corpus, headline, ...data }`. `headline` is a
 * few named figures (null for NaN) the overview prints. Returns the path written.
 */
export function writeResults(name: string, headline: Record<string, number | string | null>, data: Record<string, unknown>): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.json`);
  const out = {
    name,
    date: new Date().toISOString(),
    command: `npx tsx ${relative(REPO_ROOT, process.argv[1] ?? '')}`.trim(),
    corpus: CORPUS_DIR,
    headline,
    ...data,
  };
  writeFileSync(path, JSON.stringify(out, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 1) + '\n');
  return path;
}

/** Prints the table of a template evaluation and writes its results file (per-page scores included). */
export function reportTemplateEval(r: TemplateEvalResult): void {
  process.stdout.write(templateTable(r) + '\n');
  const path = writeResults(r.name, templateHeadline(r), { engine: r.engine, options: r.options, overall: r.overall, sets: r.sets, groups: r.groups });
  process.stdout.write(`results: ${relative(REPO_ROOT, path)}\n`);
}

/**
 * The main of an eval file: skips with the corpus-absent message (exit 0) when the corpus is missing,
 * otherwise runs `main`; a crash prints its stack and sets exit code 1.
 */
export async function runEval(name: string, main: () => Promise<void>): Promise<void> {
  if (!corpusAvailable()) {
    process.stdout.write(`${CORPUS_MISSING}: ${name} skipped\n`);
    return;
  }
  try {
    await main();
  } catch (e) {
    process.stderr.write(`${name}: evaluation crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  }
}
