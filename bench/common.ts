/**
 * Shared benchmark helpers: the corpus sites' pages (decoded once, read in place from CORPUS_DIR), a timer
 * with warm-up and repetitions reporting the median, memory figures (peak RSS, heap after a full GC), and
 * a plain table printer. Benchmarks print; this module only returns values.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { decodeHtml } from '../src/html/charset.ts';
import { CORPUS_DIR, CORPUS_MISSING, corpusAvailable } from '../src/eval/corpus-path.ts';

export { CORPUS_MISSING, corpusAvailable };

export interface BenchPage {
  /** Path relative to the site's pages/ folder. */
  key: string;
  /** Decoded text. */
  html: string;
  /** Size of the file in bytes (throughput is bytes of input per second). */
  bytes: number;
  /** XHTML page (parsed with self-closing tags recognised, as parsePage does). */
  xhtml: boolean;
}

export interface BenchSite {
  name: string;
  pages: BenchPage[];
  bytes: number;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.x?html?$/i.test(name)) out.push(p);
  }
}

/** Every page of every corpus site (sites/<name>/pages/**), decoded. [] when the corpus is absent. */
export function loadCorpusSites(): BenchSite[] {
  if (!corpusAvailable()) return [];
  const sitesDir = join(CORPUS_DIR, 'sites');
  const sites: BenchSite[] = [];
  for (const name of readdirSync(sitesDir).sort()) {
    const pagesDir = join(sitesDir, name, 'pages');
    const files: string[] = [];
    walk(pagesDir, files);
    const pages = files.map((f) => {
      const raw = readFileSync(f);
      return { key: relative(pagesDir, f), html: decodeHtml(raw).text, bytes: raw.length, xhtml: /\.xhtml$/i.test(f) };
    });
    sites.push({ name, pages, bytes: pages.reduce((s, p) => s + p.bytes, 0) });
  }
  return sites;
}

export interface Timing {
  /** Median wall-clock time of the timed repetitions, milliseconds. */
  median: number;
  min: number;
  max: number;
  /**
   * Median CPU time (user + system, all threads of the process, GC helpers included), milliseconds. On a
   * shared machine it moves much less than wall time, so throughput figures use it.
   */
  cpu: number;
  reps: number;
}

/** Runs `fn` `warmup` times untimed, then `reps` times timed; returns medians (and spread) in ms. */
export function time(fn: () => void, options: { warmup?: number; reps?: number } = {}): Timing {
  const warmup = options.warmup ?? 1;
  const reps = options.reps ?? 5;
  for (let k = 0; k < warmup; k++) fn();
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < reps; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), cpu: median(cpu), reps };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

let gcFn: (() => void) | null = null;
/** A full garbage collection (exposes V8's gc on first use, so no node flag is needed). */
export function fullGc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose_gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
  gcFn();
}

/** Heap in use after a full GC, bytes. */
export function heapAfterGc(): number {
  fullGc();
  return process.memoryUsage().heapUsed;
}

/** Peak resident set size of this process so far, bytes. */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Bytes to MB (10^6, the unit of throughput figures). */
export function mb(bytes: number): number {
  return bytes / 1e6;
}

/** Formats a number with `d` decimals. */
export function fmt(x: number, d = 1): string {
  return Number.isFinite(x) ? x.toFixed(d) : '-';
}

/** A plain text table: first row is the header; columns right-aligned except the first. */
export function table(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cells = rows.map((r) => r.map(String));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, k) => (widths[k] = Math.max(widths[k] ?? 0, c.length)));
  const line = (r: string[]): string => r.map((c, k) => (k === 0 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join('  ');
  const out = [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of cells.slice(1)) out.push(line(r));
  return out.join('\n');
}
