/**
 * HITS over the pagelet graph: paper 3, section 4, "Case 1: HITS and Clever". Instead of a graph of pages,
 * there is a vertex for each non-template pagelet of the base set and one for each page; an edge goes from
 * a pagelet to a page when the pagelet links to it; "edges out of template pagelets are omitted
 * entirely". Kleinberg's iteration (section 2.1) then runs as is: h(p) = Σ a(q) over q ∈ O(p),
 * a(q) = Σ h(p) over p ∈ I(q), normalised after each update. Hubs are pagelets, authorities pages.
 *
 * `filter` is the paper's FNM step (section 5): with a query, only pagelets (hubs) whose text holds every
 * query word take part. Edges are kept as compressed rows of integers; the iteration allocates nothing.
 */
import type { SitePagelets } from './site-pagelets.ts';

/** The bipartite pagelet → page graph. */
export interface PageletGraph {
  /** Hub labels: `<page key>#<pagelet ordinal>`. */
  hubs: string[];
  /** Whether each hub is a template pagelet (always 0 when template edges are dropped). */
  hubTemplate: Uint8Array;
  /** Authority labels: target URLs. */
  authorities: string[];
  /** Edges in compressed rows: hub h links to authorities target[start[h] .. start[h+1]). */
  start: Int32Array;
  target: Int32Array;
}

/** Options of `pageletGraph`. */
export interface PageletGraphOptions {
  /** Omit the edges of template pagelets (default true: the paper's "Pagelet FT"). */
  dropTemplates?: boolean;
  /** Query words: only pagelets whose text contains all of them are hubs (FNM). */
  query?: string;
  /** Links to pages outside the input count as authorities too (default true). */
  external?: boolean;
}

/** Lowercased words of a query or text (letters and digits). */
function wordsOf(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Builds the graph of section 4, Case 1. */
export function pageletGraph(site: SitePagelets, options: PageletGraphOptions = {}): PageletGraph {
  const drop = options.dropTemplates ?? true;
  const query = options.query ? wordsOf(options.query) : [];
  const external = options.external ?? true;
  const hubs: string[] = [];
  const hubTemplate: number[] = [];
  const authIndex = new Map<number, number>();
  const authorities: string[] = [];
  const start: number[] = [0];
  const target: number[] = [];
  for (const page of site.pages) {
    const perPagelet = new Map<number, Set<number>>();
    for (let j = 0; j < page.linkPagelet.length; j++) {
      const p = page.linkPagelet[j]!;
      if (p < 0) continue;
      if (drop && page.template[p] === 1) continue;
      const dest = page.linkDest[j]!;
      if (dest === page.urlId) continue;
      if (!external && !site.byUrl.has(dest)) continue;
      let a = authIndex.get(dest);
      if (a === undefined) {
        a = authorities.length;
        authIndex.set(dest, a);
        authorities.push(page.linkUrl[j]!);
      }
      let set = perPagelet.get(p);
      if (!set) perPagelet.set(p, (set = new Set()));
      set.add(a);
    }
    for (const [p, set] of [...perPagelet].sort((x, y) => x[0] - y[0])) {
      if (query.length > 0) {
        const words = new Set(wordsOf(page.text[p] ?? ''));
        if (!query.every((w) => words.has(w))) continue;
      }
      hubs.push(`${page.key}#${p}`);
      hubTemplate.push(page.template[p]!);
      for (const a of set) target.push(a);
      start.push(target.length);
    }
  }
  return { hubs, hubTemplate: Uint8Array.from(hubTemplate), authorities, start: Int32Array.from(start), target: Int32Array.from(target) };
}

/** Hub and authority scores (each vector of unit L2 norm). */
export interface HitsScores {
  hub: Float64Array;
  authority: Float64Array;
  iterations: number;
}

/** Kleinberg's iteration on a bipartite graph until the scores move less than `tolerance` (L1). */
export function hits(graph: PageletGraph, options: { maxIterations?: number; tolerance?: number } = {}): HitsScores {
  const maxIt = options.maxIterations ?? 100;
  const tol = options.tolerance ?? 1e-9;
  const nh = graph.hubs.length;
  const na = graph.authorities.length;
  const hub = new Float64Array(nh).fill(1);
  const auth = new Float64Array(na).fill(1);
  const prev = new Float64Array(na);
  const { start, target } = graph;
  let it = 0;
  for (; it < maxIt; it++) {
    prev.set(auth);
    auth.fill(0);
    for (let h = 0; h < nh; h++) for (let e = start[h]!; e < start[h + 1]!; e++) auth[target[e]!]! += hub[h]!;
    normalise(auth);
    for (let h = 0; h < nh; h++) {
      let s = 0;
      for (let e = start[h]!; e < start[h + 1]!; e++) s += auth[target[e]!]!;
      hub[h] = s;
    }
    normalise(hub);
    let delta = 0;
    for (let a = 0; a < na; a++) delta += Math.abs(auth[a]! - prev[a]!);
    if (delta < tol) {
      it++;
      break;
    }
  }
  return { hub, authority: auth, iterations: it };
}

function normalise(v: Float64Array): void {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
}

/** The `n` best entries of a score vector as [index, score], best first. */
export function top(scores: Float64Array, n: number): Array<[number, number]> {
  const idx = Array.from(scores.keys());
  idx.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return idx.slice(0, n).map((i) => [i, scores[i]!]);
}
