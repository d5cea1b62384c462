/**
 * `gabarit apply <template.json> <source> [--out DIR] [--format text|jsonl]`: marks every page of a source
 * with a template learned before (`gabarit template` writes template.json; the library's `applyToSource`,
 * src/run/learn.ts), pages it was not learned on included, and writes the same output contract as
 * `gabarit template` (or jsonl records). A template file that cannot be read is a usage error (exit 2).
 */
import type { Command } from 'commander';
import { APPLY_OPTIONS, type ApplyFlags } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { destination, finishRun, pipelineLines } from './pipeline.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, globalOptions, type OutFlags, type SourceFlags, SOURCE_ARGUMENT } from './run.ts';


export function register(program: Command): void {
  const cmd = program
    .command('apply')
    .description('mark every page of a source with a template learned before (template.json of gabarit template), pages it was not learned on included')
    .argument('<template>', 'template.json written by gabarit template')
    .argument('<source>', SOURCE_ARGUMENT);
  addDeclaredOptions(cmd, APPLY_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'apply');
  cmd.action(async (file: string, spec: string, opts: ApplyFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const to = destination(opts.out, opts.format, g);
    const { applyCommand } = await import('../run/learn.ts');
    const written = await applyCommand(file, spec, opts, to, commandHooks(createReporter(g)));
    finishRun(g, written, to, spec, [`method: ${String(written.summary.method)} (template ${file})`, ...pipelineLines(written.summary, to)]);
  });
}
