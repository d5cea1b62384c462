/**
 * `gabarit cocited <source> --url <page> [--top N] [--page-weight W] [--keep-templates] [--local] [--out DIR]`:
 * the pages most often co-cited with a page (paper 3, section 4, Case 3; Dean & Henzinger's co-citation
 * algorithm), counted within pagelets and with citations from template pagelets ignored
 * (src/analysis/cocitation.ts). `--page-weight` also counts co-citations elsewhere on the same page, with
 * that weight; `--keep-templates` counts template citations too (the classic algorithm, for comparison).
 * Templates are found with the global algorithm (Figure 5) unless `--local` (Figure 4).
 * `<page>` is a URL, or a key of the source (`api/index.html`). Prints the related pages; writes
 * `cocited.json` and `summary.json` in `--out` (default out/cocited). Exit 1 when no page could be read.
 */
import type { Command } from 'commander';
import { COCITED_OPTIONS, type CocitedFlags } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, emit, globalOptions, NothingDone, type OutFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('cocited')
    .description('pages most often cited together with a page, within pagelets, template citations ignored (paper 3, section 4)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  addDeclaredOptions(cmd, COCITED_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'cocited');
  cmd.action(async (spec: string, opts: CocitedFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const { cocitedCommand } = await import('../run/cocited.ts');
    const { summary, related, dir } = await cocitedCommand(spec, opts, commandHooks(createReporter(g)));
    const lines = [`pages: ${summary.pagesDone}, co-cited with ${summary.targetKey ?? summary.target}:`];
    for (const r of related) lines.push(`  ${r.score.toFixed(2).padStart(7)}  ${r.key ?? r.url}`);
    if (related.length === 0) lines.push('  (none)');
    lines.push(`output: ${dir}`);
    emit(g, { related, summary }, lines);
    if (summary.pagesDone === 0) throw new NothingDone(`no page could be read from ${spec}`);
  });
}
