/**
 * `gabarit demo [--out DIR]`: the demo of `npm start`, from the installed package (src/demo/run.ts): the
 * demo site that ships with the package served on 127.0.0.1, crawled, every template engine run on it, a
 * wrapper surviving the shop's redesign, and an HTML report. Writes into `--out` (default out/demo).
 * Exit 1 when a step did not do its work.
 */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { addOutOption, emit, globalOptions, NothingDone, outDir } from './run.ts';

export function register(program: Command): void {
  const cmd = program.command('demo').description('run every engine, a self-repairing wrapper and the report on the demo site shipped with the package');
  addOutOption(cmd, 'demo');
  cmd.action(async (opts: { out: string }, self: Command) => {
    const g = globalOptions(self);
    const [{ runDemo }, { DEMO_SITE }] = await Promise.all([import('../demo/run.ts'), import('../demo/files.ts')]);
    const out = outDir(opts.out);
    // With --json the demo's lines go to stderr, the result alone to stdout.
    const stream = g.json ? process.stderr : process.stdout;
    const ok = await runDemo({ out, base: process.cwd(), uiCommand: `gabarit ui ${relative(process.cwd(), DEMO_SITE)}`, say: (line = '') => stream.write(line + '\n') });
    if (!ok) throw new NothingDone('the demo did not complete every step (see above)');
    emit(g, { out, site: DEMO_SITE }, []);
  });
}
