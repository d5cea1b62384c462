/**
 * `gabarit crawl <source>`: the foundation's main job. Loads every page of the source (a directory, a WARC
 * file, or a site over HTTP crawled politely from its entry), parses it, extracts its links and builds the
 * site's link graph (src/site/graph.ts). Prints the pages found, the failures (each named on stderr), and
 * the link graph's figures: pages, links, mutual pairs (pages linked both ways: what paper 2's complete
 * subdigraphs are made of), the most linked pages. Writes in `--out` (default out/crawl):
 *  - `summary.json`: command, source, pages done and failed (failures with reasons), pages loaded over the
 *    network, timings, and the graph figures;
 *  - `pages.json`: one record per page (key, url, status, bytes, title, links out / in / off site);
 *  - `graph.json`: the link graph (nodes = page keys, edges = [from, to] keys).
 * Exit 1 when no page could be loaded; see main.ts for the other codes.
 */
import type { Command } from 'commander';
import { CRAWL_OPTIONS, type CrawlFlags } from '../run/options.ts';
import type { CrawlSummary } from '../run/crawl.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, emit, globalOptions, NothingDone, type OutFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('crawl')
    .description('load every page of a source, extract links, build the link graph (pages.json, graph.json)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  addSourceOptions(cmd);
  addOutOption(cmd, 'crawl');
  addDeclaredOptions(cmd, CRAWL_OPTIONS);
  cmd.action(async (spec: string, opts: CrawlFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const { crawlCommand } = await import('../run/crawl.ts');
    const { summary, dir } = await crawlCommand(spec, opts, commandHooks(createReporter(g)));
    emit(g, summary, crawlLines(summary, dir));
    if (summary.pagesDone === 0) {
      throw new NothingDone(`no page could be loaded from ${spec} (${summary.pagesFailed} failed; see ${dir}/summary.json)`);
    }
  });
}

/** The human lines of a crawl's result. */
export function crawlLines(summary: CrawlSummary, dir: string): string[] {
  const f = summary.graph;
  const lines = [
    `pages found: ${summary.pagesDone}`,
    `pages failed: ${summary.pagesFailed}`,
    ...(summary.pagesLoaded > 0 ? [`pages loaded over the network: ${summary.pagesLoaded}`] : []),
    `link graph: ${f.pages} pages, ${f.links} links, ${f.mutualPairs} mutual pairs` +
      `, ${f.danglingLinks} links to missing pages, ${f.offSiteLinks} off-site links`,
  ];
  if (f.mostLinked.length > 0) {
    lines.push('most linked pages (linked from N pages):');
    const w = String(f.mostLinked[0]!.linksIn).length;
    for (const p of f.mostLinked) lines.push(`  ${String(p.linksIn).padStart(w)}  ${p.key}`);
  }
  lines.push(`output: ${dir}`);
  return lines;
}
