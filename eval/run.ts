/**
 * `npm run eval`: runs every eval/*.eval.ts, each in its own child process (`tsx <file>`), baseline first
 * then the others by name; or only those named as arguments (`npm run eval -- align pagelets`). Their
 * tables go straight to the terminal; the run ends with an overview of every eval/results/*.json (its
 * headline figures). When the corpus is absent it says so and exits 0 without running anything.
 * Exit code: 0 when every evaluation exited 0; 1 when one crashed (or exited non-zero); 2 for an unknown
 * evaluation name.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { totalmem } from 'node:os';
import { CORPUS_MISSING, corpusAvailable } from '../src/eval/corpus-path.ts';
import { formatTable, REPO_ROOT, RESULTS_DIR } from './harness.ts';

const EVAL_DIR = join(REPO_ROOT, 'eval');
const SUFFIX = '.eval.ts';

/** Evaluation names in run order: baseline first, then alphabetical. */
function evalNames(): string[] {
  const names = readdirSync(EVAL_DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length))
    .sort();
  return [...names.filter((n) => n === 'baseline'), ...names.filter((n) => n !== 'baseline')];
}

/** A figure as printed: scores (F1, precision, purity…) with three decimals, counts as integers. */
function figure(key: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'number') return String(v);
  const score = /\b(f1|p|r|precision|recall|purity|ari|mean|rate|accuracy|fraction)\b/i.test(key);
  return Number.isInteger(v) && !score ? String(v) : v.toFixed(3);
}

/** Figures of a results file written without a headline: its top-level numbers and those of `overall`. */
function fallbackFigures(data: Record<string, unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const visit = (obj: unknown, prefix: string, depth: number): void => {
    if (!obj || typeof obj !== 'object' || Array.isArray(obj) || depth > 2) return;
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'number') out.push([prefix + k, v]);
      else if (/^(overall|summary|mean|total|content|nodes?)$/i.test(k)) visit(v, `${prefix}${k} `, depth + 1);
    }
  };
  visit(data, '', 0);
  return out.slice(0, 12);
}

/** The headline figures of every results file, as table rows. */
function overview(): string {
  if (!existsSync(RESULTS_DIR)) return 'no results yet (eval/results/ is empty)';
  const rows: Array<string[] | null> = [];
  for (const f of readdirSync(RESULTS_DIR).filter((x) => x.endsWith('.json')).sort()) {
    let data: { name?: string; date?: string; headline?: Record<string, unknown>; [k: string]: unknown };
    try {
      data = JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8')) as typeof data;
    } catch (e) {
      rows.push([f, '', 'unreadable', e instanceof Error ? e.message : String(e)], null);
      continue;
    }
    const date = (data.date ?? '').slice(0, 16).replace('T', ' ');
    const entries = data.headline ? Object.entries(data.headline) : fallbackFigures(data);
    if (entries.length === 0) rows.push([f, date, '(no headline: write it with writeResults of eval/harness.ts)', '']);
    entries.forEach(([k, v], i) => rows.push([i === 0 ? f : '', i === 0 ? date : '', k, figure(k, v)]));
    rows.push(null);
  }
  if (rows.length === 0) return 'no results yet (eval/results/ is empty)';
  if (rows[rows.length - 1] === null) rows.pop();
  return formatTable(['results', 'written (UTC)', 'figure', 'value'], rows);
}

/**
 * NODE_OPTIONS for an evaluation: a heap of half the machine's memory (at most 16 GB) unless the caller set
 * one. The content evaluation holds every page's tree and runs the peers on jsdom over 2,000 pages; on a
 * cold peer cache it outgrew Node's default heap (4 GB here).
 */
function withHeap(options: string | undefined): string {
  if (options?.includes('--max-old-space-size')) return options;
  const mb = Math.min(16384, Math.floor(totalmem() / 2 / 1048576));
  return `${options ?? ''} --max-old-space-size=${mb}`.trim();
}

function main(): number {
  if (!corpusAvailable()) {
    process.stdout.write(`${CORPUS_MISSING}: every evaluation skipped\n`);
    return 0;
  }
  const all = evalNames();
  const asked = process.argv.slice(2).map((a) => a.replace(/^eval\//, '').replace(/\.eval\.ts$/, ''));
  const unknown = asked.filter((a) => !all.includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`unknown evaluation(s): ${unknown.join(', ')} (known: ${all.join(', ') || 'none'})\n`);
    return 2;
  }
  const names = asked.length > 0 ? all.filter((n) => asked.includes(n)) : all;
  const localTsx = join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
  const [cmd, pre] = existsSync(localTsx) ? [localTsx, []] : ['npx', ['tsx']];
  const outcomes: string[][] = [];
  let crashed = 0;
  for (const name of names) {
    const file = join(EVAL_DIR, name + SUFFIX);
    process.stdout.write(`\n=== ${name} (${relative(REPO_ROOT, file)}) ===\n`);
    const t0 = performance.now();
    const r = spawnSync(cmd, [...pre, file], { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: withHeap(process.env['NODE_OPTIONS']) } });
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    const ok = r.status === 0 && !r.error;
    if (!ok) crashed++;
    const how = r.error ? `could not start: ${r.error.message}` : r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
    outcomes.push([name, ok ? 'ok' : `FAILED (${how})`, s]);
  }
  process.stdout.write(`\n=== evaluations ===\n${formatTable(['evaluation', 'outcome', 'time s'], outcomes)}\n`);
  process.stdout.write(`\n=== results overview (eval/results/) ===\n${overview()}\n`);
  return crashed > 0 ? 1 : 0;
}

process.exitCode = main();
