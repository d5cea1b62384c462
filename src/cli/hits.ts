/**
 * `gabarit hits <source> [--query WORDS] [--keep-templates] [--top N] [--local] [--out DIR]`: HITS over the
 * pagelet graph of a source (paper 3, section 4, Case 1): hubs are non-template pagelets, authorities are
 * pages; the edges of template pagelets are omitted (unless `--keep-templates`, for comparison). With
 * `--query`, only pagelets whose text holds every query word are hubs (the paper's FNM filter).
 * Templates are found with the global algorithm (Figure 5) unless `--local` (Figure 4).
 * Prints the top hubs and authorities; writes `hits.json` and `summary.json` in `--out` (default out/hits).
 * Exit 1 when no page could be read.
 */
import { join } from 'node:path';
import { interruptionField, noteSummary } from './interrupt.ts';
import { Option, type Command } from 'commander';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, outDir, parsePositive, since, type SourceFlags } from './run.ts';
import { cutFields, networkLoads } from '../run/source.ts';

interface HitsFlags extends SourceFlags {
  out: string;
  query?: string;
  keepTemplates?: boolean;
  top: number;
  local?: boolean;
  external?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('hits')
    .description('HITS over the pagelet graph with template pagelets left out (paper 3, section 4): top hubs and authorities')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  cmd.addOption(new Option('--query <words>', 'only pagelets whose text holds all these words are hubs (FNM filter)'));
  cmd.addOption(new Option('--keep-templates', 'keep the edges of template pagelets (the vanilla pagelet graph, for comparison)'));
  cmd.addOption(new Option('--top <n>', 'how many hubs and authorities to show').default(10).argParser(parsePositive));
  cmd.addOption(new Option('--local', 'find templates with the local algorithm (Figure 4) instead of the global one'));
  cmd.addOption(new Option('--no-external', 'leave out links to pages outside the source'));
  addSourceOptions(cmd);
  addOutOption(cmd, 'hits');
  cmd.action(async (spec: string, opts: HitsFlags, self: Command) => {
    const g = globalOptions(self);
    const reporter = createReporter(g);
    const start = performance.now();
    const [{ OutputWriter }, { loadPageletsFromFlags }, { hits, pageletGraph, top }, { keyOfLinkTarget }] = await Promise.all([
      import('../output.ts'),
      import('./site-pagelets.ts'),
      import('../analysis/hits.ts'),
      import('../analysis/site-pagelets.ts'),
    ]);
    const dir = outDir(opts.out);
    const writer = new OutputWriter(dir);
    const { site, source } = await loadPageletsFromFlags(spec, opts, reporter, writer);
    const graph = pageletGraph(site, {
      dropTemplates: !opts.keepTemplates,
      ...(opts.query !== undefined ? { query: opts.query } : {}),
      external: opts.external !== false,
    });
    const scores = hits(graph);
    const hubs = top(scores.hub, opts.top).map(([h, s]) => {
      const [key, ord] = graph.hubs[h]!.split('#') as [string, string];
      const page = site.pages.find((p) => p.key === key);
      return { pagelet: graph.hubs[h], score: s, template: graph.hubTemplate[h] === 1, text: (page?.text[Number(ord)] ?? '').replace(/\s+/g, ' ').slice(0, 80) };
    });
    const authorities = top(scores.authority, opts.top).map(([a, s]) => {
      const url = graph.authorities[a]!;
      const key = keyOfLinkTarget(url, source);
      return key === undefined ? { url, score: s } : { url, key, score: s };
    });
    const templatePagelets = site.pages.reduce((n, p) => n + p.template.reduce((x, y) => x + y, 0), 0);
    await writer.writeJson('hits.json', { hubs, authorities, iterations: scores.iterations });
    const summary = {
      command: 'hits',
      method: opts.local ? 'pagelets-local' : 'pagelets-global',
      source: spec,
      pagesLoaded: networkLoads(source),
      ...cutFields(source.cut),
      timings: { total: since(start) },
      pagesDone: site.pages.length,
      pagesFailed: writer.failed.length,
      failures: writer.failed,
      query: opts.query ?? null,
      templateEdgesDropped: !opts.keepTemplates,
      hubs: graph.hubs.length,
      authorities: graph.authorities.length,
      templatePagelets,
    };
    await writer.writeJson('summary.json', { ...summary, ...interruptionField() });
    noteSummary(join(writer.dir, 'summary.json'), summary.pagesDone);
    const lines = [`pages: ${site.pages.length}, template pagelets: ${templatePagelets}, hub pagelets: ${graph.hubs.length}, authorities: ${graph.authorities.length}`, 'top hubs:'];
    for (const h of hubs) lines.push(`  ${h.score.toFixed(4)}  ${h.pagelet}${h.template ? ' (template)' : ''}  ${h.text}`);
    lines.push('top authorities:');
    for (const a of authorities) lines.push(`  ${a.score.toFixed(4)}  ${a.key ?? a.url}`);
    lines.push(`output: ${dir}`);
    emit(g, { hubs, authorities, summary }, lines);
    if (site.pages.length === 0) throw new NothingDone(`no page could be read from ${spec}`);
  });
}
