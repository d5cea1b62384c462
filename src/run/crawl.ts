/**
 * `crawl(source, options)`: loads every page of a source (a directory, a WARC file, or a site over HTTP
 * crawled politely from its entry), parses it, extracts its links and builds the site's link graph
 * (src/site/graph.ts). As an async iterable: each page as it is loaded (key, url, status, bytes, title,
 * links out and off site) or the reason it failed; the result has every page with its links in, the graph
 * and its figures (pages, links, mutual pairs — what paper 2's complete subdigraphs are made of —, links to
 * missing pages, off-site links, the most linked pages). What `gabarit crawl` runs (`crawlCommand`: from
 * the command's flags, its files written).
 */
import { join, resolve } from 'node:path';
import { pageTitle } from '../content/format.ts';
import type { PageFailure } from '../output.ts';
import type { LinkGraph } from '../site/graph.ts';
import type { PageCut, PageResult, PageSource } from '../site/page.ts';
import type { SourceOptions } from '../site/source.ts';
import { type CommandHooks, interruptionOf, overSource } from './command.ts';
import type { CrawlFlags, OutFlags, SourceFlags } from './options.ts';
import { cutFields, networkLoads, openInput, withPages } from './source.ts';
import { RunStream } from './stream.ts';
import type { CommandSummary, RunControls, SourceInput } from './types.ts';

/** One page of a crawl (`pages.json`). */
export interface CrawlPage {
  key: string;
  url: string;
  status: number;
  bytes: number;
  title: string;
  /** Distinct pages of the source this page links to (known once the crawl is over: 0 before). */
  linksOut: number;
  /** Distinct pages of the source linking to this page (known once the crawl is over: 0 before). */
  linksIn: number;
  /** Links leaving the source (other sites, or outside the source root). */
  linksOffSite: number;
}

/** The link graph's figures (summary.json `graph`). */
export interface GraphFigures {
  pages: number;
  /** Distinct links between two different pages of the source. */
  links: number;
  /** Unordered pairs of pages linking each other. */
  mutualPairs: number;
  /** Links to addresses of the site that are not among the pages (broken, or beyond the page limit). */
  danglingLinks: number;
  /** Links leaving the source. */
  offSiteLinks: number;
  /** Pages no other page links to (the entry usually is one). */
  unlinkedPages: number;
  /** The pages most linked to (by distinct linking pages), most first. */
  mostLinked: { key: string; linksIn: number }[];
}

export type CrawlOutcome = { ok: true; page: CrawlPage } | { ok: false; failure: PageFailure };

/** What a crawl found. */
export interface CrawlResult {
  source: string;
  /** Every page, in the graph's (sorted key) order, with its links in and out. */
  pages: CrawlPage[];
  graph: LinkGraph;
  figures: GraphFigures;
  failures: PageFailure[];
  pagesLoaded: number;
  /** Set when a cap of the source left pages out. */
  cut?: PageCut;
  timings: Record<string, number>;
}

export interface CrawlOptions extends RunControls {
  /** How many of the most linked pages the figures list (default 10). */
  top?: number;
  /** Over HTTP, crawl links found only in template pagelets (menus, footers) after the others (paper 3, section 4). */
  templatePriority?: boolean;
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

/**
 * The order a crawl over HTTP follows links in, as a source option (`SourceOptions.linkPriority`): with
 * `templatePriority`, links found only in template pagelets come after the others; else undefined (the
 * source's own order). For a caller that opens the source itself.
 */
export async function crawlOrder(options: Pick<CrawlOptions, 'templatePriority'>): Promise<SourceOptions['linkPriority'] | undefined> {
  if (!options.templatePriority) return undefined;
  const { TemplateAwarePriority } = await import('../analysis/crawl-priority.ts');
  return new TemplateAwarePriority().linkPriority;
}

/** Crawls `source` and builds its link graph (see the module comment). */
export function crawl(input: SourceInput, options: CrawlOptions = {}): RunStream<CrawlOutcome, CrawlResult> {
  return new RunStream<CrawlOutcome, CrawlResult>(async (emit) => {
    const start = performance.now();
    const [{ LinkGraph: Graph }, { LabelTable }] = await Promise.all([import('../site/graph.ts'), import('../html/labels.ts')]);
    const controls: RunControls = { ...options };
    // The crawl order is a source option (HTTP only): it applies when the pipeline opens the source.
    const linkPriority = typeof input === 'string' ? await crawlOrder(options) : undefined;
    if (linkPriority) controls.sourceOptions = { ...(options.sourceOptions ?? {}), linkPriority };
    const opened = await openInput(input, controls);
    const records = new Map<string, CrawlPage>();
    const failures: PageFailure[] = [];
    const siteTargets = new Set<string>();
    let offSite = 0;
    let seen = 0;
    let pending: Promise<void> = Promise.resolve();
    let graph: LinkGraph;
    try {
      const source = observed(opened.source, (r) => {
        options.onProgress?.('load', ++seen);
        if (!r.ok) {
          const f = { url: r.url, key: r.key, code: r.error.code, message: r.error.message };
          failures.push(f);
          pending = pending.then(() => emit({ ok: false, failure: f }));
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
          const rec: CrawlPage = { key: page.key, url: page.url, status: page.status, bytes: page.body.byteLength, title: pageTitle(tree), linksOut: 0, linksIn: 0, linksOffSite: off };
          records.set(page.key, rec);
          pending = pending.then(() => emit({ ok: true, page: { ...rec } }));
        },
      });
      await pending;
    } finally {
      await opened.close();
    }
    const pages = graph.keys.map((key) => {
      const r = records.get(key)!;
      r.linksOut = graph.outDegree(key);
      r.linksIn = graph.inDegree(key);
      return r;
    });
    const cut = opened.source.cut;
    return { source: opened.spec, pages, graph, figures: graphFigures(graph, pages, siteTargets, offSite, options.top ?? 10), failures, pagesLoaded: networkLoads(opened.source), ...(cut ? { cut } : {}), timings: { load: Math.round(performance.now() - start) } };
  });
}

/** What summary.json of `gabarit crawl` holds. */
export interface CrawlSummary extends CommandSummary {
  command: 'crawl';
  graph: GraphFigures;
  /** Set when the crawl was interrupted (a signal): the pages are those done before. */
  interrupted?: { signal: string; message: string };
}

/** Writes a crawl as `summary.json`, `pages.json` and `graph.json` in `dir`; returns the summary. */
export async function writeCrawl(result: CrawlResult, dir: string, extra: { source?: string; timings?: Record<string, number>; interrupted?: CrawlSummary['interrupted'] } = {}): Promise<CrawlSummary> {
  const { OutputWriter } = await import('../output.ts');
  const writer = new OutputWriter(dir);
  await writer.writeJson('pages.json', result.pages);
  await writer.writeJson('graph.json', { nodes: result.graph.keys, edges: result.graph.edges() });
  const summary: CrawlSummary = {
    command: 'crawl',
    source: extra.source ?? result.source,
    pagesLoaded: result.pagesLoaded,
    ...cutFields(result.cut),
    timings: { ...result.timings, ...(extra.timings ?? {}) },
    pagesDone: result.pages.length,
    pagesFailed: result.failures.length,
    failures: result.failures,
    graph: result.figures,
    ...(extra.interrupted ? { interrupted: extra.interrupted } : {}),
  };
  await writer.writeJson('summary.json', summary);
  return summary;
}

/** The figures of a crawl's graph. */
function graphFigures(graph: LinkGraph, pages: readonly CrawlPage[], siteTargets: ReadonlySet<string>, offSite: number, top: number): GraphFigures {
  let mutualPairs = 0;
  for (const [a, b] of graph.edges()) if (a < b && graph.hasEdge(b, a)) mutualPairs++;
  let dangling = 0;
  for (const k of siteTargets) if (!graph.has(k)) dangling++;
  return {
    pages: graph.size,
    links: graph.edgeCount,
    mutualPairs,
    danglingLinks: dangling,
    offSiteLinks: offSite,
    unlinkedPages: pages.filter((p) => p.linksIn === 0).length,
    mostLinked: pages
      .slice()
      .sort((a, b) => b.linksIn - a.linksIn || (a.key < b.key ? -1 : 1))
      .slice(0, top)
      .map((p) => ({ key: p.key, linksIn: p.linksIn })),
  };
}

/**
 * `gabarit crawl` without printing: opens `spec` with the source options (`templatePriority` orders a
 * crawl over HTTP), crawls it and writes summary.json, pages.json and graph.json in `flags.out`; failures
 * go to the hooks as they come.
 */
export async function crawlCommand(spec: string, flags: CrawlFlags & SourceFlags & OutFlags, hooks: CommandHooks = {}): Promise<{ summary: CrawlSummary; dir: string }> {
  const start = performance.now();
  const linkPriority = await crawlOrder({ templatePriority: flags.templatePriority });
  const result = await overSource(
    spec,
    flags,
    hooks,
    async (source) => {
      const run = crawl(source, { top: flags.top, ...(hooks.progress ? { onProgress: hooks.progress } : {}) });
      for await (const o of run) if (!o.ok) hooks.failure?.(o.failure);
      return run.result();
    },
    linkPriority ? { linkPriority } : {},
  );
  const dir = resolve(flags.out);
  const summary = await writeCrawl(result, dir, { source: spec, timings: { total: Math.round(performance.now() - start) }, ...interruptionOf(hooks) });
  hooks.onSummary?.(join(dir, 'summary.json'), summary.pagesDone);
  return { summary, dir };
}
