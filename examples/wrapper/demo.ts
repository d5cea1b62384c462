/**
 * The self-healing wrapper demo alone: `npx tsx examples/wrapper/demo.ts` (src/demo/wrapper.ts; part of
 * `gabarit demo` and `npm start`).
 */
import { fileURLToPath } from 'node:url';
import { wrapperDemo } from '../../src/demo/wrapper.ts';

export { wrapperDemo };

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ok = wrapperDemo((line = '') => process.stdout.write(line + '\n'));
  process.exitCode = ok ? 0 : 1;
}
