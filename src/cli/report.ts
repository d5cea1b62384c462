/**
 * `gabarit report <source> [--out DIR] [--method NAME] [--max-shown N] [--no-other-engines]`: an HTML report
 * to open in a browser, offline (src/report/): each page with its template greyed and its main content
 * outlined, the template fraction of each page, the template found, figures per engine and a chart.
 * Writes `<out>/index.html` and prints its path. Exit 1 when no page could be processed.
 */
import type { Command } from 'commander';
import { REPORT_OPTIONS, type ReportFlags } from '../run/options.ts';
import { UsageError } from '../errors.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, emit, globalOptions, type OutFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('report')
    .description('HTML report (offline): pages with template greyed and main content outlined, template fractions, figures per engine, chart')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL');
  addDeclaredOptions(cmd, REPORT_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'report');
  cmd.action(async (spec: string, opts: ReportFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const [{ ENGINES }, { reportCommand }] = await Promise.all([import('../template/engines.ts'), import('../run/report.ts')]);
    if (opts.method !== undefined && !Object.hasOwn(ENGINES, opts.method)) throw new UsageError(`unknown method "${opts.method}" (known: ${Object.keys(ENGINES).join(', ')})`);
    const { file, data } = await reportCommand(spec, opts, commandHooks(createReporter(g)));
    emit(g, { report: file, pages: data.pages.length, method: data.method, engines: data.engines }, [`method: ${data.method} (${data.reason})`, `pages: ${data.pages.length}`, `report: ${file}`]);
  });
}
