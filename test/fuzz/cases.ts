/**
 * The fuzzer's cases and its loop, shared by the test (a few hundred cases) and scripts/fuzz.ts (thousands,
 * with a watchdog). Case i of a run seeded s is made from its own seed (rng.ts `caseSeed`), so it can be
 * made again alone: a generated document, or, when corpus pages are given, a mutation of one of them.
 * Every `siteSize` cases form a small site (their pages under their keys) on which the site checks run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, corpusAvailable } from '../../src/eval/corpus-path.ts';
import type { Tree } from '../../src/html/tree.ts';
import { MEMORY_ROOT } from '../../src/site/memory-source.ts';
import { encodePage, generatedPage, mutate, pageKey, type EncodedPage } from './generate.ts';
import { caseSeed, Rng } from './rng.ts';
import { checkPage, checkSite, type Finding } from './run-case.ts';

/** One input of the fuzzer. */
export interface FuzzCase {
  index: number;
  seed: number;
  /** 'generated', or the corpus file the page is a mutation of. */
  origin: string;
  key: string;
  html: string;
  page: EncodedPage;
}

/** Corpus pages the mutations start from: HTML files up to `maxBytes`, sorted (so a seed means the same pages). */
export function corpusFiles(maxBytes = 400_000): string[] {
  if (!corpusAvailable()) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (/\.x?html?$/i.test(name) && s.size <= maxBytes) out.push(p);
    }
  };
  for (const sub of ['sites', 'single', 'samesite', 'clusters', 'records', 'versions']) {
    try {
      walk(join(CORPUS_DIR, sub));
    } catch {
      /* a part of the corpus that is not there */
    }
  }
  return out;
}

/** Case `index` of a run seeded `seed`; a mutation of a corpus page when `corpus` is not empty and the dice say so. */
export function makeCase(seed: number, index: number, corpus: readonly string[] = [], corpusShare = 0.5): FuzzCase {
  const s = caseSeed(seed, index);
  const rng = new Rng(s);
  let origin = 'generated';
  let html: string;
  if (corpus.length > 0 && rng.chance(corpusShare)) {
    origin = rng.pick(corpus);
    html = mutate(rng, readFileSync(origin, 'utf8'));
  } else {
    html = generatedPage(rng);
  }
  return { index, seed: s, origin: origin === 'generated' ? origin : origin.slice(CORPUS_DIR.length + 1), key: pageKey(rng, index), html, page: encodePage(rng, html) };
}

/** What one case gave. */
export interface CaseResult {
  fuzzCase: FuzzCase;
  findings: Finding[];
  /** Findings of the site this case completed (the site of cases index-siteSize+1 … index), if any. */
  siteFindings: Finding[];
}

export interface RunOptions {
  /** Corpus files to mutate (none: generated documents only). */
  corpus?: readonly string[];
  /** Share of cases that are corpus mutations when a corpus is given (default 0.5). */
  corpusShare?: number;
  /** Cases per site check (default 4; 0: no site checks). */
  siteSize?: number;
  /** Write every engine's output files in site checks (odd keys reach the file system). Default true. */
  writeOutput?: boolean;
  /** Called before each case (the watchdog of scripts/fuzz.ts listens). */
  onStart?(c: FuzzCase): void;
  onResult?(r: CaseResult): void;
}

/** Runs cases `from` … `to - 1` of a run seeded `seed`; returns the results that found something. */
export async function runCases(seed: number, from: number, to: number, options: RunOptions = {}): Promise<CaseResult[]> {
  const siteSize = options.siteSize ?? 4;
  const bad: CaseResult[] = [];
  let site: Array<{ key: string; body: Uint8Array; headers?: Record<string, string>; tree?: Tree }> = [];
  for (let i = from; i < to; i++) {
    const c = makeCase(seed, i, options.corpus ?? [], options.corpusShare);
    options.onStart?.(c);
    const { findings, tree } = checkPage(c.page, MEMORY_ROOT + c.key);
    const entry: (typeof site)[number] = { key: c.key, body: c.page.bytes };
    if (c.page.contentType) entry.headers = { 'content-type': c.page.contentType };
    if (tree) entry.tree = tree;
    site.push(entry);
    let siteFindings: Finding[] = [];
    if (siteSize > 0 && site.length >= siteSize) {
      siteFindings = await checkSite(new Rng(c.seed ^ 0x5bd1e995), site, { writeOutput: options.writeOutput ?? true });
      site = [];
    }
    const r: CaseResult = { fuzzCase: c, findings, siteFindings };
    options.onResult?.(r);
    if (findings.length > 0 || siteFindings.length > 0) bad.push(r);
  }
  return bad;
}
