/**
 * The per-page work of paper 3 (section 3.2: "Building these tables can be done by streaming through the
 * pages in the dataset, and parsing their HTML text to extract their links and pagelets"): parse, partition
 * (Figure 3), shingle each pagelet, fingerprint the page, and collect its links. A pure function of one
 * page, so it runs in worker threads (workers.ts) as well as inline.
 */
import { decodeHtml } from '../../html/charset.ts';
import { LabelTable } from '../../html/labels.ts';
import { parseHtml } from '../../html/parse.ts';
import { NodeKind, type Tree } from '../../html/tree.ts';
import { pageLinks, urlId } from './links.ts';
import { linkCounts, pageletOf, partition } from './partition.ts';
import { navigationShingles } from './navigation.ts';
import { NO_SHINGLE, pageFingerprint, shinglePagelets, type ShingleOptions } from './shingle.ts';

/** Options of the per-page work. */
export interface AnalysisOptions extends ShingleOptions {
  /** k of Definition 2 (default 3). */
  k?: number;
  /** Navigation pagelets get a navigation shingle (navigation.ts; default true). */
  navigation?: boolean;
  /** Share of the prose the content region holds (navigation.ts `CONTENT_SHARE`). */
  contentShare?: number;
  /** Landmarks are pagelet boundaries and `<nav>` pagelets navigation (partition.ts, navigation.ts). */
  landmarks?: boolean;
  /** Navigation pagelets shingled by their items, linked or not (shingle.ts `navigationFingerprint`). */
  items?: boolean;
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
  /** Nodes in each pagelet's subtree: pagelet p covers nodes [pagelets[p], pagelets[p] + spans[p]). */
  spans: Int32Array;
  /** Text characters of each pagelet (its text nodes, as `templateFraction` of result.ts counts them). */
  chars: Int32Array;
  /** Text characters of the page's body (the denominator of the template fraction). */
  bodyChars: number;
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
  const pagelets = partition(tree, { k: options.k ?? 3, counts, landmarks: options.landmarks ?? false });
  const links = pageLinks(tree, url);
  const shingles = shinglePagelets(tree, pagelets, links.node, links.dest, options);
  // The page's fingerprint (duplicate elimination) from its words, before navigation pagelets lose theirs.
  const fingerprint = pageFingerprint(shingles);
  if (options.navigation ?? true) navigationShingles(tree, pagelets, shingles, options);
  const self = urlId(url);
  const owner = pageletOf(tree, pagelets);
  const pagelet = new Int32Array(links.node.length);
  for (let j = 0; j < links.node.length; j++) pagelet[j] = owner[links.node[j]!]!;
  const distinct = new Set<number>();
  for (let j = 0; j < links.dest.length; j++) if (links.dest[j] !== self) distinct.add(links.dest[j]!);
  const { spans, chars, bodyChars } = pageletSizes(tree, pagelets);
  return {
    key,
    url,
    urlId: self,
    fingerprint,
    pagelets,
    spans,
    chars,
    bodyChars,
    shingles,
    links: Float64Array.from(distinct),
    pageletLinks: { pagelet, dest: links.dest, url: links.url },
  };
}

/**
 * What marking a page and its template fraction need of its pagelets, so that neither needs the page again
 * after detection: each pagelet's node count and text characters (text nodes only, as `templateFraction`
 * of result.ts counts them), and the body's text characters. Pagelets are disjoint subtrees, so one walk
 * over them and one over the body.
 */
export function pageletSizes(tree: Tree, pagelets: Int32Array): { spans: Int32Array; chars: Int32Array; bodyChars: number } {
  const spans = new Int32Array(pagelets.length);
  const chars = new Int32Array(pagelets.length);
  const kind = tree.kind;
  const ts = tree.textStart;
  const te = tree.textEnd;
  for (let p = 0; p < pagelets.length; p++) {
    const v = pagelets[p]!;
    const e = tree.end[v]!;
    spans[p] = e - v;
    let c = 0;
    for (let i = v; i < e; i++) if (kind[i] === NodeKind.Text) c += te[i]! - ts[i]!;
    chars[p] = c;
  }
  const body = tree.body();
  let bodyChars = 0;
  for (let i = body, e = tree.end[body]!; i < e; i++) if (kind[i] === NodeKind.Text) bodyChars += te[i]! - ts[i]!;
  return { spans, chars, bodyChars };
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

/**
 * The PageRecords of a batch of pages packed into a few typed arrays (what a worker sends back: moved, not
 * cloned). Page j's pagelets are `pagelets[pageletStart[j], pageletStart[j+1])` (and its shingles the same
 * range), its links `links[linkStart[j], linkStart[j+1])`. `error[j]` is the message of a page that failed,
 * else null.
 */
export interface RecordBatch {
  count: number;
  urlId: Float64Array;
  fingerprint: Float64Array;
  bodyChars: Int32Array;
  pageletStart: Int32Array;
  pagelets: Int32Array;
  spans: Int32Array;
  chars: Int32Array;
  shingles: Float64Array;
  linkStart: Int32Array;
  links: Float64Array;
  error: Array<string | null>;
  /** When asked for: each page's render record (render.ts), each in a buffer of its own (moved, not copied). */
  render?: Array<Uint8Array | undefined>;
}

/** Packs records (or the errors of pages that failed) into a RecordBatch; returns the buffers to transfer. */
export function packRecords(recs: ReadonlyArray<PageRecord | Error>, rendered?: ReadonlyArray<Uint8Array | undefined>): { batch: RecordBatch; transfer: ArrayBuffer[] } {
  const count = recs.length;
  const pageletStart = new Int32Array(count + 1);
  const linkStart = new Int32Array(count + 1);
  for (let j = 0; j < count; j++) {
    const r = recs[j]!;
    pageletStart[j + 1] = pageletStart[j]! + (r instanceof Error ? 0 : r.pagelets.length);
    linkStart[j + 1] = linkStart[j]! + (r instanceof Error ? 0 : r.links.length);
  }
  const batch: RecordBatch = {
    count,
    urlId: new Float64Array(count),
    fingerprint: new Float64Array(count),
    bodyChars: new Int32Array(count),
    pageletStart,
    pagelets: new Int32Array(pageletStart[count]!),
    spans: new Int32Array(pageletStart[count]!),
    chars: new Int32Array(pageletStart[count]!),
    shingles: new Float64Array(pageletStart[count]!),
    linkStart,
    links: new Float64Array(linkStart[count]!),
    error: [],
  };
  for (let j = 0; j < count; j++) {
    const r = recs[j]!;
    if (r instanceof Error) {
      batch.error.push(r.message);
      continue;
    }
    batch.error.push(null);
    batch.urlId[j] = r.urlId;
    batch.fingerprint[j] = r.fingerprint;
    batch.bodyChars[j] = r.bodyChars;
    batch.pagelets.set(r.pagelets, pageletStart[j]!);
    batch.spans.set(r.spans, pageletStart[j]!);
    batch.chars.set(r.chars, pageletStart[j]!);
    batch.shingles.set(r.shingles, pageletStart[j]!);
    batch.links.set(r.links, linkStart[j]!);
  }
  const transfer = [batch.urlId, batch.fingerprint, batch.bodyChars, pageletStart, batch.pagelets, batch.spans, batch.chars, batch.shingles, linkStart, batch.links].map((a) => a.buffer as ArrayBuffer);
  if (rendered) {
    batch.render = rendered.slice();
    for (const r of rendered) if (r) transfer.push(r.buffer as ArrayBuffer);
  }
  return { batch, transfer };
}

/** Page j of a RecordBatch as a PageRecord (views into the batch's arrays, no copy). */
export function recordAt(batch: RecordBatch, j: number, key: string, url: string): PageRecord {
  const p0 = batch.pageletStart[j]!;
  const p1 = batch.pageletStart[j + 1]!;
  return {
    key,
    url,
    urlId: batch.urlId[j]!,
    fingerprint: batch.fingerprint[j]!,
    pagelets: batch.pagelets.subarray(p0, p1),
    spans: batch.spans.subarray(p0, p1),
    chars: batch.chars.subarray(p0, p1),
    bodyChars: batch.bodyChars[j]!,
    shingles: batch.shingles.subarray(p0, p1),
    links: batch.links.subarray(batch.linkStart[j]!, batch.linkStart[j + 1]!),
  };
}
