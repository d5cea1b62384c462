/**
 * `npm start`: the demo (src/demo/run.ts, also `gabarit demo`), writing to out/demo/ in the repository.
 * Exits 0 only when every step did its work.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDemo } from '../src/demo/run.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

let ok = false;
try {
  ok = await runDemo({
    out: join(ROOT, 'out', 'demo'),
    base: ROOT,
    uiCommand: 'npm run gabarit -- ui examples/site',
    say: (line = '') => process.stdout.write(line + '\n'),
  });
} catch (err) {
  process.stderr.write(`demo failed: ${(err as Error).stack ?? String(err)}\n`);
}
process.exitCode = ok ? 0 : 1;
