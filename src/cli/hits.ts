/**
 * `gabarit hits <source> [--query WORDS] [--keep-templates] [--top N] [--local] [--out DIR]`: HITS over the
 * pagelet graph of a source (paper 3, section 4, Case 1): hubs are non-template pagelets, authorities are
 * pages; the edges of template pagelets are omitted (unless `--keep-templates`, for comparison). With
 * `--query`, only pagelets whose text holds every query word are hubs (the paper's FNM filter).
 * Templates are found with the global algorithm (Figure 5) unless `--local` (Figure 4).
 * Prints the top hubs and authorities; writes `hits.json` and `summary.json` in `--out` (default out/hits).
 * Exit 1 when no page could be read.
 */
import type { Command } from 'commander';
import { HITS_OPTIONS, type HitsFlags } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, emit, globalOptions, NothingDone, type OutFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('hits')
    .description('HITS over the pagelet graph with template pagelets left out (paper 3, section 4): top hubs and authorities')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  addDeclaredOptions(cmd, HITS_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'hits');
  cmd.action(async (spec: string, opts: HitsFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const { hitsCommand } = await import('../run/hits.ts');
    const { hubs, authorities, summary, dir } = await hitsCommand(spec, opts, commandHooks(createReporter(g)));
    const lines = [`pages: ${summary.pagesDone}, template pagelets: ${summary.templatePagelets}, hub pagelets: ${summary.hubs}, authorities: ${summary.authorities}`, 'top hubs:'];
    for (const h of hubs) lines.push(`  ${h.score.toFixed(4)}  ${h.pagelet}${h.template ? ' (template)' : ''}  ${h.text}`);
    lines.push('top authorities:');
    for (const a of authorities) lines.push(`  ${a.score.toFixed(4)}  ${a.key ?? a.url}`);
    lines.push(`output: ${dir}`);
    emit(g, { hubs, authorities, summary }, lines);
    if (summary.pagesDone === 0) throw new NothingDone(`no page could be read from ${spec}`);
  });
}
