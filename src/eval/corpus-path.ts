/**
 * Where the evaluation corpus is: `$GABARIT_CORPUS`, else `../shared/corpus` beside the repository.
 * Tests, evaluations and benchmarks that need it skip with `CORPUS_MISSING` as the reason when it is absent.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS_DIR = process.env['GABARIT_CORPUS'] ?? join(repoRoot, '..', 'shared', 'corpus');
export const CORPUS_MISSING = `corpus absent: ${CORPUS_DIR} not found (set GABARIT_CORPUS or put shared/corpus beside the repo)`;
export function corpusAvailable(): boolean {
  return existsSync(join(CORPUS_DIR, 'README.md'));
}
/** For node:test: `test(name, { skip: corpusSkip() }, fn)`. False when the corpus is there, else the reason. */
export function corpusSkip(): string | false {
  return corpusAvailable() ? false : CORPUS_MISSING;
}
