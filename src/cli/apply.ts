/**
 * `gabarit apply <template.json> <source> [--out DIR] [--format text|jsonl]`: marks every page of a source
 * with a template learned before (`gabarit template` writes template.json; the library's `applyToSource`,
 * src/run/learn.ts), pages it was not learned on included, and writes the same output contract as
 * `gabarit template` (or jsonl records). A template file that cannot be read is a usage error (exit 2).
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { APPLY_OPTIONS, type ApplyFlags } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { UsageError } from '../errors.ts';
import { destination, finishRun, pipelineLines, writeRun } from './pipeline.ts';
import { addOutOption, addSourceOptions, createReporter, globalOptions, openFromFlags, type OutFlags, type SourceFlags, SOURCE_ARGUMENT } from './run.ts';


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
    const [{ applyToSource }, { readTemplate, TemplateError }] = await Promise.all([import('../run/learn.ts'), import('../template/learned.ts')]);
    let template;
    try {
      template = readTemplate(JSON.parse(await readFile(file, 'utf8')) as unknown, file);
    } catch (err) {
      if (err instanceof TemplateError) throw new UsageError(err.message);
      const code = (err as { code?: string }).code;
      throw new UsageError(code === 'ENOENT' ? `no such template file: ${file}` : `${file}: not a template (${(err as Error).message})`);
    }
    const reporter = createReporter(g);
    const opened = await openFromFlags(spec, opts, reporter);
    let written;
    try {
      written = await writeRun(applyToSource(template, opened.source, { onProgress: (p, d, t) => reporter.progress.update(p, d, t), onWarning: (m) => reporter.warn(m) }), to, reporter, spec, { summary: { template: file } });
    } finally {
      await opened.close();
    }
    finishRun(g, written, to, spec, [`method: ${String(written.summary.method)} (template ${file})`, ...pipelineLines(written.summary, to)]);
  });
}
