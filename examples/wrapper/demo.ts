/**
 * The self-healing wrapper demo (paper 5), for `npm start` (call `wrapperDemo(say)`) or alone:
 * `npx tsx examples/wrapper/demo.ts`. Runs the wrapper built on the original demo shop design
 * (examples/wrapper/product.wrapper.json) on the original product pages, where its selectors work, then on
 * the redesigned pages (examples/wrapper/redesigned/, written by redesign.ts), where every selector fails
 * and the wrapper adapts: it prints, per page and pattern, which step found the data and with what
 * similarity, and the record extracted. Returns true when every pattern was found on every page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../src/html/parse.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { parseWrapper } from '../../src/wrapper/wrapper.ts';
import { DEMO_PAGES, REDESIGNED_DIR, WRAPPER_FILE } from './redesign.ts';

const SHOP = join(REDESIGNED_DIR, '..', '..', 'site', 'shop');

export function wrapperDemo(say: (line?: string) => void): boolean {
  if (!existsSync(WRAPPER_FILE) || !existsSync(REDESIGNED_DIR)) {
    say('(the wrapper demo files are missing: run `npx tsx examples/wrapper/redesign.ts`)');
    return false;
  }
  const wrapper = parseWrapper(readFileSync(WRAPPER_FILE, 'utf8'), WRAPPER_FILE);
  let ok = true;
  for (const [label, dir] of [
    ['original design', SHOP],
    ['redesigned', REDESIGNED_DIR],
  ] as const) {
    say(`-- ${label}`);
    for (const page of DEMO_PAGES) {
      const r = runWrapper(wrapper, parseHtml(readFileSync(join(dir, page), 'utf8')), page);
      ok &&= r.ok;
      const steps = r.reports.map((x) => `${x.pattern}: ${x.step}${x.similarity !== null ? ` ${x.similarity.toFixed(2)}` : ''}`).join(', ');
      const product = r.record['product'] as { name?: string; price?: string; features?: string[] } | null;
      say(`   ${page}: ${product ? `${product.name} · ${product.price} · ${product.features?.length ?? 0} features` : 'NOT FOUND'}`);
      say(`      ${steps}`);
    }
  }
  return ok;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ok = wrapperDemo((line = '') => process.stdout.write(line + '\n'));
  process.exitCode = ok ? 0 : 1;
}
