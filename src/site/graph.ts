/**
 * The site's link graph (DESIGN.md, "site/graph.ts"): the directed graph whose nodes are the pages of a
 * source (by key) and whose edges are the hyperlinks between them (paper 2 builds its complete subdigraphs
 * on it; paper 3's template links and crawl priorities read it). A link counts when it leads to a page of
 * the same source (`keyOf` gives a key that is one of the source's pages), other than the page itself; a
 * page linking twice to another gives one edge.
 *
 * Stored as compressed sparse rows over integer ids (ids = keys in sorted order; neighbours sorted by
 * id), both ways, so that engines walk neighbours as typed-array ranges; the string methods are for the
 * edges of the program. Same pages and links give the same graph whatever the source's order.
 */
import { LabelTable } from '../html/labels.ts';
import type { Tree } from '../html/tree.ts';
import { extractLinks, type Link } from './links.ts';
import { parsePage, type Page, type PageResult, type PageSource } from './page.ts';

export interface LinkGraphOptions {
  /** Called with each page, its Tree and its links (to reuse the parse instead of parsing again). */
  onPage?: (page: Page, tree: Tree, links: Link[]) => void;
  /** Parse with the browser-exact parser (default false: the fast one). */
  exact?: boolean;
}

export class LinkGraph {
  /** Node keys in sorted order; node id = index. */
  readonly keys: readonly string[];
  /** Out-edges of node i: `outTargets[outStart[i] .. outStart[i+1])`, sorted ids. */
  readonly outStart: Int32Array;
  readonly outTargets: Int32Array;
  /** In-edges of node i: `inSources[inStart[i] .. inStart[i+1])`, sorted ids. */
  readonly inStart: Int32Array;
  readonly inSources: Int32Array;
  /** Pages the source could not give while building with `fromSource` (empty otherwise). */
  readonly failures: ReadonlyArray<Extract<PageResult, { ok: false }>>;
  private readonly ids: Map<string, number>;

  private constructor(keys: string[], edges: Array<[number, number]>, failures: Array<Extract<PageResult, { ok: false }>>) {
    this.keys = keys;
    this.ids = new Map(keys.map((k, i) => [k, i]));
    this.failures = failures;
    const n = keys.length;
    edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const uniq: Array<[number, number]> = [];
    for (const e of edges) {
      const last = uniq[uniq.length - 1];
      if (e[0] === e[1] || (last && last[0] === e[0] && last[1] === e[1])) continue;
      uniq.push(e);
    }
    this.outStart = new Int32Array(n + 1);
    this.inStart = new Int32Array(n + 1);
    for (const [s, d] of uniq) {
      this.outStart[s + 1]!++;
      this.inStart[d + 1]!++;
    }
    for (let i = 0; i < n; i++) {
      this.outStart[i + 1]! += this.outStart[i]!;
      this.inStart[i + 1]! += this.inStart[i]!;
    }
    this.outTargets = new Int32Array(uniq.length);
    this.inSources = new Int32Array(uniq.length);
    const fill = this.inStart.slice(0, n);
    // uniq is sorted by source then target: out rows fill in order; in rows get sources in increasing order.
    for (let e = 0; e < uniq.length; e++) {
      const [s, d] = uniq[e]!;
      this.outTargets[e] = d;
      this.inSources[fill[d]!++] = s;
    }
  }

  /** A graph of the given nodes and edges (edges naming unknown keys, and self-edges, are dropped). */
  static fromEdges(keys: Iterable<string>, edges: Iterable<readonly [string, string]>): LinkGraph {
    const sorted = [...new Set(keys)].sort();
    const ids = new Map(sorted.map((k, i) => [k, i]));
    const e: Array<[number, number]> = [];
    for (const [a, b] of edges) {
      const s = ids.get(a);
      const d = ids.get(b);
      if (s !== undefined && d !== undefined) e.push([s, d]);
    }
    return new LinkGraph(sorted, e, []);
  }

  /**
   * Reads every page of a source, extracts its links and keeps those between pages of the source.
   * `labels` is the site's label table (a tag-only one by default; links do not depend on labels).
   */
  static async fromSource(source: PageSource, labels?: LabelTable, options: LinkGraphOptions = {}): Promise<LinkGraph> {
    const table = labels ?? new LabelTable({ attributes: 'none' });
    const keys: string[] = [];
    const raw: Array<[string, string]> = [];
    const failures: Array<Extract<PageResult, { ok: false }>> = [];
    for await (const r of source.pages()) {
      if (!r.ok) {
        failures.push(r);
        continue;
      }
      const page = r.page;
      keys.push(page.key);
      const tree = parsePage(page, table, options.exact ?? false);
      const links = extractLinks(tree, page.url);
      options.onPage?.(page, tree, links);
      for (const l of links) {
        const k = source.keyOf(l.url);
        if (k !== undefined) raw.push([page.key, k]);
      }
    }
    const g = LinkGraph.fromEdges(keys, raw);
    return failures.length ? new LinkGraph(g.keys as string[], g.edgeList(), failures) : g;
  }

  /** Number of nodes. */
  get size(): number {
    return this.keys.length;
  }

  /** Number of edges. */
  get edgeCount(): number {
    return this.outTargets.length;
  }

  /** The id of a key, or -1. */
  id(key: string): number {
    return this.ids.get(key) ?? -1;
  }

  /** True when the graph has node `key`. */
  has(key: string): boolean {
    return this.ids.has(key);
  }

  private edgeList(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let s = 0; s < this.size; s++) for (let e = this.outStart[s]!; e < this.outStart[s + 1]!; e++) out.push([s, this.outTargets[e]!]);
    return out;
  }

  private row(start: Int32Array, targets: Int32Array, key: string): string[] {
    const i = this.id(key);
    if (i < 0) return [];
    const out: string[] = [];
    for (let e = start[i]!; e < start[i + 1]!; e++) out.push(this.keys[targets[e]!]!);
    return out;
  }

  /** Pages `key` links to, sorted. */
  outLinks(key: string): string[] {
    return this.row(this.outStart, this.outTargets, key);
  }

  /** Pages linking to `key`, sorted. */
  inLinks(key: string): string[] {
    return this.row(this.inStart, this.inSources, key);
  }

  outDegree(key: string): number {
    const i = this.id(key);
    return i < 0 ? 0 : this.outStart[i + 1]! - this.outStart[i]!;
  }

  inDegree(key: string): number {
    const i = this.id(key);
    return i < 0 ? 0 : this.inStart[i + 1]! - this.inStart[i]!;
  }

  /** True when `from` links to `to` (binary search in the sorted row). */
  hasEdge(from: string, to: string): boolean {
    const s = this.id(from);
    const d = this.id(to);
    if (s < 0 || d < 0) return false;
    let lo = this.outStart[s]!;
    let hi = this.outStart[s + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.outTargets[mid]!;
      if (v === d) return true;
      if (v < d) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Pages linked both ways with `key` (mutual links), sorted. */
  mutual(key: string): string[] {
    return this.outLinks(key).filter((k) => this.hasEdge(k, key));
  }

  /** Every edge as [from, to] keys, sorted by from then to. */
  edges(): Array<[string, string]> {
    return this.edgeList().map(([s, d]) => [this.keys[s]!, this.keys[d]!]);
  }
}
