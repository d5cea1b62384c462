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
import { Option, type Command } from 'commander';
import type { Tree } from '../html/tree.ts';
import type { LinkGraph } from '../site/graph.ts';
import type { PageFailure } from '../output.ts';
import type { PageResult, PageSource } from '../site/page.ts';
import {
  addOutOption,
  addSourceOptions,
  createReporter,
  emit,
  globalOptions,
  NothingDone,
  openFromFlags,
  networkLoads,
  outDir,
  parseCount,
  since,
  withPages,
  type Reporter,
  type SourceFlags,
} from './run.ts';

/** How many of the most linked pages the summary lists by default. */
export const DEFAULT_TOP_PAGES = 10;

/** One page of `pages.json`. */
export interface CrawlPage {
  key: string;
  url: string;
  status: number;
  bytes: number;
  title: string;
  /** Distinct pages of the source this page links to. */
  linksOut: number;
  /** Distinct pages of the source linking to this page. */
  linksIn: number;
  /** Links leaving the source (other sites, or outside the source root). */
  linksOffSite: number;
}

/** The link graph's figures, in summary.json under `graph`. */
export interface GraphFigures {
  pages: number;
  /** Distinct links between two different pages of the source. */
  links: number;
  /** Unordered pairs of pages linking each other. */
  mutualPairs: number;
  /** Links to addresses of the site that are not among the pages (broken, or beyond --max-pages). */
  danglingLinks: number;
  /** Links leaving the source. */
  offSiteLinks: number;
  /** Pages no other page links to (the entry usually is one). */
  unlinkedPages: number;
  /** The pages most linked to (by distinct linking pages), most first. */
  mostLinked: { key: string; linksIn: number }[];
}

/** A view of `source` whose `pages()` reports every item to `observe` as it is yielded. */
function observed(source: PageSource, observe: (r: PageResult) => void): PageSource {
  return withPages(source, async function* (options) {
    for await (const r of source.pages(options)) {
      observe(r);
      yield r;
    }
  });
}

/** The first `<title>`'s text, collapsed, or ''. */
function titleOf(tree: Tree): string {
  const t = tree.find('title');
  if (t < 0) return '';
  let s = '';
  for (let i = t + 1; i < tree.end[t]!; i++) s += tree.nodeText(i);
  return s.replace(/\s+/g, ' ').trim();
}

/** The options of `gabarit crawl`. */
export interface CrawlFlags extends SourceFlags {
  out: string;
  top: number;
  /** Crawl links found only in template pagelets later (paper 3, section 4, Case 2). */
  templatePriority?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('crawl')
    .description('load every page of a source, extract links, build the link graph (pages.json, graph.json)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  addSourceOptions(cmd);
  addOutOption(cmd, 'crawl');
  cmd.addOption(
    new Option('--top <n>', 'most linked pages listed').default(DEFAULT_TOP_PAGES).argParser(parseCount),
  );
  cmd.addOption(
    new Option('--template-priority', 'over HTTP, fetch links found only in template pagelets (menus, footers) after the others (paper 3, section 4)'),
  );
  cmd.action(async (spec: string, opts: CrawlFlags, self: Command) => {
    const g = globalOptions(self);
    const reporter = createReporter(g);
    const { summary, dir } = await runCrawl(spec, opts, reporter);
    emit(g, summary, crawlLines(summary, dir));
    if (summary.pagesDone === 0) {
      throw new NothingDone(`no page could be loaded from ${spec} (${summary.pagesFailed} failed; see ${dir}/summary.json)`);
    }
  });
}

/** What summary.json of `gabarit crawl` holds. */
export interface CrawlSummary {
  command: 'crawl';
  source: string;
  pagesLoaded: number;
  timings: Record<string, number>;
  pagesDone: number;
  pagesFailed: number;
  failures: readonly PageFailure[];
  graph: GraphFigures;
}

/**
 * The crawl itself (the command's action without printing): opens the source, builds the link graph,
 * writes summary.json, pages.json and graph.json in `flags.out`; failures go to the reporter as they come.
 */
export async function runCrawl(spec: string, opts: CrawlFlags, reporter: Reporter): Promise<{ summary: CrawlSummary; dir: string }> {
  const start = performance.now();
  const [{ LinkGraph: Graph }, { OutputWriter }, { LabelTable }] = await Promise.all([
    import('../site/graph.ts'),
    import('../output.ts'),
    import('../html/labels.ts'),
  ]);
  const linkPriority = opts.templatePriority ? new (await import('../analysis/crawl-priority.ts')).TemplateAwarePriority().linkPriority : undefined;
  const opened = await openFromFlags(spec, opts, reporter, linkPriority ? { linkPriority } : {});
  const dir = outDir(opts.out);
  const writer = new OutputWriter(dir);
  const records = new Map<string, CrawlPage>();
  const siteTargets = new Set<string>();
  let offSite = 0;
  let seen = 0;
  let graph: LinkGraph;
  try {
    const source = observed(opened.source, (r) => {
      reporter.progress.update('load', ++seen);
      if (!r.ok) {
        const f = { url: r.url, key: r.key, code: r.error.code, message: r.error.message };
        writer.fail(f);
        reporter.failure(f);
      }
    });
    graph = await Graph.fromSource(source, new LabelTable({ attributes: 'none' }), {
      onPage: (page, tree, links) => {
        let off = 0;
        for (const l of links) {
          const k = source.keyOf(l.url);
          if (k === undefined) off++;
          else siteTargets.add(k);
        }
        offSite += off;
        records.set(page.key, {
          key: page.key,
          url: page.url,
          status: page.status,
          bytes: page.body.byteLength,
          title: titleOf(tree),
          linksOut: 0,
          linksIn: 0,
          linksOffSite: off,
        });
      },
    });
  } finally {
    reporter.stop();
    await opened.close();
  }
  const loadMs = since(start);

  const pages = graph.keys.map((key) => {
    const r = records.get(key)!;
    r.linksOut = graph.outDegree(key);
    r.linksIn = graph.inDegree(key);
    return r;
  });
  let mutualPairs = 0;
  for (const [a, b] of graph.edges()) if (a < b && graph.hasEdge(b, a)) mutualPairs++;
  let dangling = 0;
  for (const k of siteTargets) if (!graph.has(k)) dangling++;
  const figures: GraphFigures = {
    pages: graph.size,
    links: graph.edgeCount,
    mutualPairs,
    danglingLinks: dangling,
    offSiteLinks: offSite,
    unlinkedPages: pages.filter((p) => p.linksIn === 0).length,
    mostLinked: pages
      .slice()
      .sort((a, b) => b.linksIn - a.linksIn || (a.key < b.key ? -1 : 1))
      .slice(0, opts.top)
      .map((p) => ({ key: p.key, linksIn: p.linksIn })),
  };

  await writer.writeJson('pages.json', pages);
  await writer.writeJson('graph.json', { nodes: graph.keys, edges: graph.edges() });
  const summary: CrawlSummary = {
    command: 'crawl',
    source: spec,
    pagesLoaded: networkLoads(opened.source),
    timings: { load: loadMs, total: since(start) },
    pagesDone: pages.length,
    pagesFailed: writer.failed.length,
    failures: writer.failed,
    graph: figures,
  };
  await writer.writeJson('summary.json', summary);
  return { summary, dir };
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
