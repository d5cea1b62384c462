/**
 * `gabarit report <source> [--out DIR] [--method NAME] [--max-shown N] [--no-other-engines]`: an HTML report
 * to open in a browser, offline (src/report/): each page with its template greyed and its main content
 * outlined, the template fraction of each page, the template found, figures per engine and a chart.
 * Writes `<out>/index.html` and prints its path. Exit 1 when no page could be processed.
 */
import type { Command } from 'commander';
import { REPORT_OPTIONS, type ReportFlags } from '../run/options.ts';
import { UsageError } from '../errors.ts';
import type { ReportData } from '../report/html-report.ts';
import type { Method } from '../template/engines.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, openFromFlags, type OutFlags, outDir, type Reporter, type SourceFlags } from './run.ts';

/** What `runReport` made: the report file and the data it shows. */
export interface ReportRun {
  file: string;
  data: ReportData;
}

/**
 * Builds the report of a source (the library's `report`) and writes `<out>/index.html` (the command's work).
 * Throws NothingDone when no page could be processed.
 */
export async function runReport(spec: string, opts: ReportFlags & SourceFlags & OutFlags, reporter: Reporter): Promise<ReportRun> {
  const { report, writeReport } = await import('../run/report.ts');
  const opened = await openFromFlags(spec, opts, reporter);
  let data: ReportData;
  try {
    data = await report(opened.source, { ...(opts.method ? { method: opts.method as Method } : {}), maxShown: opts.maxShown, otherEngines: opts.otherEngines, onWarning: (m) => reporter.warn(m) });
  } finally {
    reporter.stop();
    await opened.close();
  }
  data.source = spec;
  for (const f of data.failures) reporter.warn(`${f.key}: ${f.message}`);
  if (data.pages.length === 0) throw new NothingDone(`no page processed from ${spec}`);
  return { file: await writeReport(data, outDir(opts.out), (m) => reporter.warn(m)), data };
}

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
    const { ENGINES } = await import('../template/engines.ts');
    if (opts.method !== undefined && !Object.hasOwn(ENGINES, opts.method)) throw new UsageError(`unknown method "${opts.method}" (known: ${Object.keys(ENGINES).join(', ')})`);
    const { file, data } = await runReport(spec, opts, createReporter(g));
    emit(g, { report: file, pages: data.pages.length, method: data.method, engines: data.engines }, [`method: ${data.method} (${data.reason})`, `pages: ${data.pages.length}`, `report: ${file}`]);
  });
}
