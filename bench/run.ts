/**
 * Runs the benchmarks: every bench/*.bench.ts in name order, or those named on the command line
 * (`npm run bench -- parse hyperlink`), each as its own child process (`npx tsx <file>`) so that memory
 * figures are separate. Benchmarks that need the corpus skip with a message when it is absent; this runner
 * says so up front too. Exit code: 0 when every benchmark exited 0.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_MISSING, corpusAvailable } from '../src/eval/corpus-path.ts';

const dir = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort();
const wanted = process.argv.slice(2).map((a) => a.replace(/^bench\//, '').replace(/(\.bench)?(\.ts)?$/, '.bench.ts'));
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')} (have: ${all.join(', ')})`);
  process.exit(2);
}
const files = wanted.length > 0 ? wanted : all;
if (!corpusAvailable()) console.log(`note: ${CORPUS_MISSING}; benchmarks that need it will skip.`);
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const t0 = performance.now();
  const r = spawnSync('npx', ['tsx', join(dir, f)], { stdio: 'inherit' });
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    failed++;
    console.log(`=== ${f}: FAILED (exit ${r.status ?? r.signal}) after ${s} s ===`);
  } else console.log(`=== ${f}: done in ${s} s ===`);
}
console.log(`\n${files.length - failed} of ${files.length} benchmarks ran`);
process.exit(failed > 0 ? 1 : 0);
