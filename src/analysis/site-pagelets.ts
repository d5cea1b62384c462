/**
 * A site's pages as pagelets with their links and template flags, held in memory: the input of the
 * applications of paper 3, section 4 (HITS over pagelets, co-citation within pagelets, crawl priority).
 * Built by partitioning every page (Figure 3), shingling the pagelets and running the local (Figure 4) or
 * global (Figure 5) template detection. Meant for base sets and sites that fit in memory.
 */
import { LabelTable } from '../html/labels.ts';
import { textOf } from '../html/text.ts';
import type { PageSource } from '../site/page.ts';
import type { SupportOptions } from '../template/pagelets/detection.ts';
import { LOCAL_ORIGIN, linkBaseUrl } from '../template/pagelets/links.ts';
import { detectLocal } from '../template/pagelets/local.ts';
import { detectGlobalInMemory } from '../template/pagelets/memory.ts';
import { analyseTree, type AnalysisOptions, parseBytes } from '../template/pagelets/page-analysis.ts';
import { PageletTables } from '../template/pagelets/tables.ts';

/** One page of a SitePagelets. */
export interface PageletPage {
  key: string;
  /** URL id (53-bit hash of the canonical URL) that links to this page carry. */
  urlId: number;
  /** The URL links were resolved against (http://local.invalid/<key> for a directory source). */
  url: string;
  /** Text of each pagelet (for query filtering). */
  text: string[];
  /** 1 where the pagelet is template. */
  template: Uint8Array;
  /** Each link: the pagelet holding it (-1 outside every pagelet), target URL id and URL. */
  linkPagelet: Int32Array;
  linkDest: Float64Array;
  linkUrl: string[];
}

/** Options of `loadSitePagelets`. */
export interface SitePageletsOptions extends AnalysisOptions, SupportOptions {
  /** Global algorithm (Figure 5; default true) or local (Figure 4). */
  global?: boolean;
  /** Stop after this many pages. */
  maxPages?: number;
  /** Called for pages that could not be had. */
  onFailure?: (url: string, message: string) => void;
}

/** Everything section 4 needs about a set of pages. */
export interface SitePagelets {
  pages: PageletPage[];
  /** Page index by URL id. */
  byUrl: Map<number, number>;
}

/**
 * The support of a template shingle in link analysis (section 4): 5% of the pages, half the template
 * engine's (PAGELET_DEFAULTS.minSupport). Link analysis wants every navigation pagelet out of the graph,
 * those shared by a few pages of a section too; `gabarit hits` and `cocited` were built and checked with it.
 */
export const LINK_ANALYSIS_SUPPORT: Readonly<SupportOptions> = { minSupport: 0.05 };

/** Reads, partitions and shingles every page of `source`, then flags template pagelets. */
export async function loadSitePagelets(source: PageSource, given: SitePageletsOptions = {}): Promise<SitePagelets> {
  const options: SitePageletsOptions = { ...LINK_ANALYSIS_SUPPORT, ...given };
  const labels = new LabelTable({ attributes: 'none' });
  const tables = new PageletTables();
  const pages: PageletPage[] = [];
  const pageletsOf: Int32Array[] = [];
  for await (const r of source.pages(options.maxPages === undefined ? {} : { maxPages: options.maxPages })) {
    if (!r.ok) {
      options.onFailure?.(r.url, r.error.message);
      continue;
    }
    const page = r.page;
    const tree = parseBytes(page.body, page.headers['content-type'], page.key, labels);
    const url = linkBaseUrl(page);
    const rec = analyseTree(tree, page.key, url, options);
    tables.add(rec);
    pageletsOf.push(rec.pagelets);
    pages.push({
      key: page.key,
      urlId: rec.urlId,
      url,
      text: Array.from(rec.pagelets, (v) => textOf(tree, v)),
      template: new Uint8Array(rec.pagelets.length),
      linkPagelet: rec.pageletLinks.pagelet,
      linkDest: rec.pageletLinks.dest,
      linkUrl: rec.pageletLinks.url,
    });
  }
  const detection = (options.global ?? true) ? detectGlobalInMemory(tables, options) : detectLocal(tables, options);
  const byUrl = new Map<number, number>();
  pages.forEach((p, i) => {
    for (const o of detection.templateOrdinals(i)) p.template[o] = 1;
    if (!byUrl.has(p.urlId)) byUrl.set(p.urlId, i);
  });
  return { pages, byUrl };
}

/**
 * The key a source gives a link target (a URL as `loadSitePagelets` resolved it), or undefined when the
 * target is outside the source. A directory's links resolve under `http://local.invalid/` (see
 * `linkBaseUrl`); their key is the path there, whether or not that page exists in the directory.
 */
export function keyOfLinkTarget(url: string, source: Pick<PageSource, 'kind' | 'keyOf' | 'urlOf'>): string | undefined {
  if (source.kind === 'dir') {
    if (!url.startsWith(LOCAL_ORIGIN)) return undefined;
    let path: string;
    try {
      path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
    } catch {
      return undefined;
    }
    return source.keyOf(source.urlOf(path)) ?? path;
  }
  return source.keyOf(url);
}
