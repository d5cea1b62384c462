/**
 * `gabarit content <source> [--method NAME] [--format text|html|markdown|json|jsonl] [--main-block auto|always|never]`:
 * the main content of every page (the library's `extractContent`, run by `contentCommand`, src/run/content.ts): the site template
 * removed by the engine best suited to the source (hyperlink where a link graph exists, align for a group of
 * pages; `--method` overrides, e.g. pagelets), then the main block chosen among
 * what is left. Writes the output contract (`<page>.txt` = main content, `<page>.html` with data-gabarit
 * marks, template.json, summary.json) plus, for `--format` html, markdown or json, `<page>.content.html` /
 * `.md` / `.json`; with `--format jsonl`, one record per page in `pages.jsonl` (or stdout with `--out -`)
 * instead of the page files. Exit codes: see main.ts and pipeline.ts.
 */
import type { Command } from 'commander';
import { CONTENT_COMMAND_OPTIONS, type ContentFlags, METHODS } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { UsageError } from '../errors.ts';
import { destination, finishRun, pipelineLines } from './pipeline.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, globalOptions, type OutFlags, prepareBeforeParse, type SourceFlags, SOURCE_ARGUMENT } from './run.ts';
import { addEngineFlags, engineFlagValues, givenFlagValues } from './template.ts';


export function register(program: Command): void {
  const cmd = program
    .command('content')
    .description('main content of every page: site template removed by the best engine, then the main block (text concentration, few links, position)')
    .argument('<source>', SOURCE_ARGUMENT);
  addDeclaredOptions(cmd, CONTENT_COMMAND_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'content');
  // The template engines' options, as `gabarit template` takes them.
  const prepare = prepareBeforeParse(program, cmd, () => addEngineFlags(cmd));
  cmd.action(async (spec: string, opts: ContentFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    if (opts.method !== undefined && !(METHODS as readonly string[]).includes(opts.method)) {
      throw new UsageError(`unknown method "${opts.method}" (known: ${METHODS.join(', ')})`);
    }
    const declared = await prepare();
    // With --method, a flag of another engine is a usage error; without, the method is chosen from the
    // source and the flags it does not take are named (a warning) and left.
    const engineValues = opts.method !== undefined ? engineFlagValues(self, opts.method, declared) : givenFlagValues(self, declared);
    const to = destination(opts.out, opts.format, g);
    const { contentCommand } = await import('../run/content.ts');
    const written = await contentCommand(spec, opts, engineValues, to, commandHooks(createReporter(g)));
    const s = written.summary;
    finishRun(g, written, to, spec, [`method: ${String(s.method ?? '')} (${String(s['reason'] ?? '')})`, ...pipelineLines(s, to)]);
  });
}
