/**
 * The per-page work of paper 3 (section 3.2: "Building these tables can be done by streaming through the
 * pages in the dataset, and parsing their HTML text to extract their links and pagelets"): parse, partition
 * (Figure 3), shingle each pagelet, fingerprint the page, and collect its links. A pure function of one
 * page, so it runs in worker threads (workers.ts) as well as inline.
 */
import { decodeHtml } from '../../html/charset.ts';
import { LabelTable } from '../../html/labels.ts';
import { parseHtml } from '../../html/parse.ts';
import type { Tree } from '../../html/tree.ts';
import { pageLinks, urlId } from './links.ts';
import { linkCounts, pageletOf, partition } from './partition.ts';
import { NO_SHINGLE, pageFingerprint, shinglePagelets, type ShingleOptions } from './shingle.ts';

/** Options of the per-page work. */
export interface AnalysisOptions extends ShingleOptions {
  /** k of Definition 2 (default 3). */
  k?: number;
}

/** What one page contributes to the tables PAGES, PAGELETS and LINKS. */
export interface PageRecord {
  key: string;
  url: string;
  /** 53-bit hash of the canonical URL (PAGES key that LINKS targets join on). */
  urlId: number;
  /** Whole-page fingerprint for duplicate elimination. */
  fingerprint: number;
  /** Pagelet root nodes, document order (Figure 3). */
  pagelets: Int32Array;
  /** s(p) of each pagelet, NO_SHINGLE for pagelets without words or links. */
  shingles: Float64Array;
  /** Distinct link targets of the page (53-bit URL ids), self-links left out. */
  links: Float64Array;
}

/** Per-link detail for the applications (section 4): which pagelet holds each link. */
export interface PageletLinks {
  /** Pagelet ordinal holding each link (-1 when outside every pagelet). */
  pagelet: Int32Array;
  /** Target URL id of each link. */
  dest: Float64Array;
  /** Canonical target URL of each link. */
  url: string[];
}

/** Analyses a parsed page. `withLinks` also returns each link with its pagelet (for section 4). */
export function analyseTree(tree: Tree, key: string, url: string, options: AnalysisOptions = {}): PageRecord & { pageletLinks: PageletLinks } {
  const counts = linkCounts(tree);
  const pagelets = partition(tree, { k: options.k ?? 3, counts });
  const links = pageLinks(tree, url);
  const shingles = shinglePagelets(tree, pagelets, links.node, links.dest, options);
  const self = urlId(url);
  const owner = pageletOf(tree, pagelets);
  const pagelet = new Int32Array(links.node.length);
  for (let j = 0; j < links.node.length; j++) pagelet[j] = owner[links.node[j]!]!;
  const distinct = new Set<number>();
  for (let j = 0; j < links.dest.length; j++) if (links.dest[j] !== self) distinct.add(links.dest[j]!);
  return {
    key,
    url,
    urlId: self,
    fingerprint: pageFingerprint(shingles),
    pagelets,
    shingles,
    links: Float64Array.from(distinct),
    pageletLinks: { pagelet, dest: links.dest, url: links.url },
  };
}

/** Parses bytes the way `parsePage` does (charset detection; XHTML self-closing tags by type or extension). */
export function parseBytes(body: Uint8Array, contentType: string | undefined, key: string, labels: LabelTable): Tree {
  const { text } = decodeHtml(body, contentType);
  const xhtml = (contentType ?? '').includes('xhtml') || /\.xhtml$/i.test(key);
  return parseHtml(text, { labels, selfClosing: xhtml });
}

/** A label table for trees the pagelets engine parses itself (labels play no part in pagelets). */
export function pageletLabels(): LabelTable {
  return new LabelTable({ attributes: 'none' });
}

/**
 * The template marks of a page given which of its pagelets are template: the whole subtree of each
 * template pagelet (PageMarks of result.ts).
 */
export function marksFromPagelets(tree: Tree, pagelets: Int32Array, templateOrdinals: ArrayLike<number>): Uint8Array {
  const marks = new Uint8Array(tree.size);
  for (let j = 0; j < templateOrdinals.length; j++) {
    const v = pagelets[templateOrdinals[j]!];
    if (v !== undefined) marks.fill(1, v, tree.end[v]!);
  }
  return marks;
}

export { NO_SHINGLE };
