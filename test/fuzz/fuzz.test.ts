/**
 * The fuzzer in `npm run test:e2e` (a few hundred cases, seeded, deterministic; `npm run fuzz` runs thousands):
 * generated documents always, mutated corpus pages when the corpus is there. No step may crash, throw an
 * untyped exception, break a tree invariant or change a tree by writing it out and reading it back
 * (test/fuzz/run-case.ts says exactly what is checked). A finding prints the case's seed and index; replay
 * it with `npm run fuzz -- --seed <seed> --from <index> --cases 1`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusSkip } from '../../src/eval/corpus-path.ts';
import { corpusFiles, runCases, type CaseResult } from './cases.ts';

/**
 * Stages whose findings are printed as diagnostics here instead of failing the test (none at present:
 * a defect found in another module is fixed there, and `npm run fuzz` reports it like any other).
 */
const KNOWN_ELSEWHERE: readonly string[] = [];

/** Fixed seeds: the same cases on every run and machine. */
const GENERATED_SEED = 0x6a617262;
const CORPUS_SEED = 0x636f7270;

/** The findings of a run as lines naming seed and case, split into those that fail the test and the others. */
function report(bad: readonly CaseResult[], seed: number): { failing: string[]; known: string[] } {
  const failing: string[] = [];
  const known: string[] = [];
  for (const r of bad) {
    const where = `seed ${seed} case ${r.fuzzCase.index} (${r.fuzzCase.origin}, key ${JSON.stringify(r.fuzzCase.key.slice(0, 60))}, ${r.fuzzCase.page.how})`;
    for (const f of [...r.findings, ...r.siteFindings]) {
      const line = `${where}: ${f.stage}${f.untyped ? ' [untyped]' : ''}: ${f.message.slice(0, 300)}`;
      (KNOWN_ELSEWHERE.includes(f.stage) ? known : failing).push(line);
    }
  }
  return { failing, known };
}

async function fuzz(t: { diagnostic(s: string): void }, seed: number, count: number, corpus: readonly string[] = []): Promise<void> {
  const { failing, known } = report(await runCases(seed, 0, count, corpus.length > 0 ? { corpus, corpusShare: 1 } : {}), seed);
  for (const k of known) t.diagnostic(`known elsewhere: ${k}`);
  assert.deepEqual(failing, []);
}

test('fuzz: 200 generated documents through every parser, step, engine and the wrapper', { timeout: 300_000 }, (t) => fuzz(t, GENERATED_SEED, 200));

test('fuzz: 100 mutated corpus pages through every parser, step, engine and the wrapper', { skip: corpusSkip(), timeout: 300_000 }, (t) =>
  fuzz(t, CORPUS_SEED, 100, corpusFiles(150_000)),
);
