/**
 * `gabarit content <source> [--method NAME] [--format text|html|markdown|json] [--main-block auto|always|never]`:
 * the main content of every page (src/content/): the site template removed by the engine best suited to
 * the source (hyperlink where a link graph exists, align for a group of pages, pagelets for large sources
 * without links; `--method` overrides), then the main block chosen among what is left. Writes the output
 * contract (`<page>.txt` = main content, `<page>.html` with data-gabarit marks, template.json,
 * summary.json) plus, for `--format` other than text, `<page>.content.html` / `.md` / `.json`.
 * Exit codes: see main.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { EngineError, PageError, UsageError } from '../errors.ts';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, networkLoads, openFromFlags, outDir, since, summaryLines, type SourceFlags } from './run.ts';

interface ContentFlags extends SourceFlags {
  method?: string;
  format: string;
  mainBlock: string;
  out: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('content')
    .description('main content of every page: site template removed by the best engine, then the main block (text concentration, few links, position)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL');
  cmd.addOption(new Option('-m, --method <name>', 'template engine (default: chosen from the source: hyperlink, align or pagelets)'));
  cmd.addOption(new Option('-f, --format <format>', 'format written beside <page>.txt').choices(['text', 'html', 'markdown', 'json']).default('text'));
  cmd.addOption(new Option('--main-block <when>', 'choose a main block among non-template nodes: auto (after align/pagelets), always, never').choices(['auto', 'always', 'never']).default('auto'));
  addSourceOptions(cmd);
  addOutOption(cmd, 'content');
  cmd.action(async (spec: string, opts: ContentFlags, self: Command) => {
    const g = globalOptions(self);
    const start = performance.now();
    const [{ ENGINES }, { contentEngine }, { formatContent, FORMAT_EXTENSION }, { OutputWriter, pageStem }, { LabelTable }] = await Promise.all([
      import('../template/engines.ts'),
      import('../content/engine.ts'),
      import('../content/format.ts'),
      import('../output.ts'),
      import('../html/labels.ts'),
    ]);
    if (opts.method !== undefined && !Object.hasOwn(ENGINES, opts.method)) {
      throw new UsageError(`unknown method "${opts.method}" (known: ${Object.keys(ENGINES).join(', ')})`);
    }
    const format = opts.format as 'text' | 'html' | 'markdown' | 'json';
    const reporter = createReporter(g);
    const opened = await openFromFlags(spec, opts, reporter);
    const dir = outDir(opts.out);
    const writer = new OutputWriter(dir);
    const engine = contentEngine({ ...(opts.method ? { method: opts.method } : {}), mainBlock: opts.mainBlock as 'auto' | 'always' | 'never' });
    let written = 0;
    let failure: EngineError | PageError | undefined;
    let run;
    try {
      run = await engine.run({
        source: opened.source,
        labels: new LabelTable(),
        options: {},
        onPage: async (marks, extra) => {
          await writer.writePage(marks, extra);
          if (format !== 'text') await writeFile(join(dir, pageStem(marks.key) + FORMAT_EXTENSION[format]), formatContent(marks, format, extra ?? {}));
          reporter.progress.update('write', ++written);
        },
        onFailure: (f) => {
          writer.fail(f);
          reporter.failure(f);
        },
        onProgress: (phase, done, total) => reporter.progress.update(phase, done, total),
        onWarning: (m) => reporter.warn(m),
      });
    } catch (err) {
      if (err instanceof EngineError || err instanceof PageError) failure = err;
      else throw err;
    } finally {
      reporter.stop();
      await opened.close();
    }
    const summary = await writer.finish(
      {
        command: 'content',
        method: String(run?.summary['method'] ?? opts.method ?? ''),
        source: spec,
        pagesLoaded: networkLoads(opened.source),
        timings: { ...(run?.timings ?? {}), total: since(start) },
        format,
        engine: run?.summary ?? {},
        ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
      },
      run?.template,
    );
    const lines = [`method: ${summary.method ?? ''} (${String(run?.summary['reason'] ?? '')})`, ...summaryLines(summary, dir)];
    emit(g, summary, lines);
    if (failure) throw failure;
    if (summary.pagesDone === 0) throw new NothingDone(`no page processed from ${spec} (${summary.pagesFailed} failed; see ${dir}/summary.json)`);
  });
}
