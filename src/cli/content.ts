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
import { UsageError } from '../errors.ts';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, outDir, summaryLines, type SourceFlags } from './run.ts';

interface ContentFlags extends SourceFlags {
  method?: string;
  format: string;
  mainBlock: string;
  headline: string;
  out: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('content')
    .description('main content of every page: site template removed by the best engine, then the main block (text concentration, few links, position)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL');
  cmd.addOption(new Option('-m, --method <name>', 'template engine (default: chosen from the source: hyperlink, align or pagelets)'));
  cmd.addOption(new Option('-f, --format <format>', 'format written beside <page>.txt').choices(['text', 'html', 'markdown', 'json']).default('text'));
  cmd.addOption(new Option('--main-block <when>', 'the main block among non-template nodes: auto (whole after align/pagelets, navigation after hyperlink), always, navigation (leave out only the per-page navigation around it), never').choices(['auto', 'always', 'navigation', 'never']).default('auto'));
  cmd.addOption(new Option('--headline <where>', "the main content's headline: field (the title in JSON, left out of the text) or first (also the first line of the text)").choices(['field', 'first']).default('field'));
  addSourceOptions(cmd);
  addOutOption(cmd, 'content');
  cmd.action(async (spec: string, opts: ContentFlags, self: Command) => {
    const g = globalOptions(self);
    const [{ ENGINES }, { contentEngine }, { formatContent, FORMAT_EXTENSION }, { pageStem }, { runTemplate }] = await Promise.all([
      import('../template/engines.ts'),
      import('../content/engine.ts'),
      import('../content/format.ts'),
      import('../output.ts'),
      import('./template.ts'),
    ]);
    if (opts.method !== undefined && !Object.hasOwn(ENGINES, opts.method)) {
      throw new UsageError(`unknown method "${opts.method}" (known: ${Object.keys(ENGINES).join(', ')})`);
    }
    const format = opts.format as 'text' | 'html' | 'markdown' | 'json';
    const dir = outDir(opts.out);
    const engine = contentEngine({ ...(opts.method ? { method: opts.method } : {}), mainBlock: opts.mainBlock as 'auto' | 'always' | 'navigation' | 'never', headline: opts.headline as 'field' | 'first' });
    const { summary, failure } = await runTemplate(spec, engine, {}, opts, createReporter(g), {
      onPage: async (marks, extra) => {
        if (format !== 'text') await writeFile(join(dir, pageStem(marks.key) + FORMAT_EXTENSION[format]), formatContent(marks, format, extra ?? {}));
      },
      summary: (run) => ({ command: 'content', method: String(run?.summary['method'] ?? opts.method ?? ''), reason: String(run?.summary['reason'] ?? ''), format, options: { mainBlock: opts.mainBlock, headline: opts.headline } }),
    });
    const lines = [`method: ${String(summary.method ?? '')} (${String(summary['reason'] ?? '')})`, ...summaryLines(summary, dir)];
    emit(g, summary, lines);
    if (failure) throw failure;
    if (summary.pagesDone === 0) throw new NothingDone(`no page processed from ${spec} (${summary.pagesFailed} failed; see ${dir}/summary.json)`);
  });
}
