/**
 * `gabarit collect <sample> [--out DIR]`: the pages of the sample's class, found by INDESIT (paper 4,
 * src/collect/indesit.ts), crawling as little of the site as it can. `<sample>` is an http(s) URL (the
 * site is crawled politely through HttpSource, from the root `--root`, by default the URL's origin), a
 * page file of a directory of pages (`--root`, by default the highest ancestor directory holding an
 * index.html), or a directory: its index page is the sample, as a static host serves a directory. Writes
 * in `--out` (default out/collect):
 *  - `pages.json`: the collected pages (key, url, cluster, similarity of its schema to the sample's), the
 *    sample first;
 *  - `summary.json`: command, source, sample, pages collected and the pages read but left (the same why),
 *    downloads (ours and the source's; dead links apart), clusters met, the path of index pages followed and the index pages used, failures with
 *    reasons, timings, whether the run finished or hit `--max-downloads`;
 *  - with `--save-pages`, the HTML of each collected page under `pages/<key>`.
 * Exit 1 when the sample cannot be loaded; 2 for a sample outside its root, a directory without an index
 * page, a missing file, or bad options.
 */
import type { Command } from 'commander';
import { COLLECT_OPTIONS, type CollectFlags } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, emit, globalOptions, type OutFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('collect')
    .description('collect the pages structured like a sample page (INDESIT, paper 4): pages.json, summary.json')
    .argument('<sample>', 'the sample page: an http(s) URL, a page file in a directory of pages, or a directory (its index page)');
  addDeclaredOptions(cmd, COLLECT_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'collect');
  cmd.action(async (sample: string, opts: CollectFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const { collectCommand } = await import('../run/collect.ts');
    const result = await collectCommand(sample, opts, commandHooks(createReporter(g)));
    const lines = [
      `pages collected: ${result.pages.length} (like ${result.sample.key})`,
      `downloads: ${result.downloads}${result.deadLinks > 0 ? ` (${result.deadLinks} dead links)` : ''}${result.complete ? '' : ' (stopped at --max-downloads)'}`,
      `clusters met: ${result.clusters.length}`,
      `index steps: ${result.indexPath.map((s) => `${s.example} (score ${s.score}, +${s.newTargets})`).join(' → ') || 'none'}`,
      `pages failed: ${result.failures.length}`,
      `output: ${result.dir}`,
    ];
    emit(g, result.summary, lines);
  });
}
