/**
 * Algorithm 1 of paper 2 (Alarte et al., "Web Template Extraction Based on Hyperlink Analysis", section
 * 4.1): find a complete subdigraph (CS) — pages pairwise mutually linked — among the pages the key page
 * links to. The links of the key page (`reachableLinks`: same site, unique, no self-link) are walked in the
 * given order; each page is loaded, its links intersected with `reachableLinks` give its `connections`,
 * and the largest CS containing the current link is computed. The walk stops as soon as an n-CS exists
 * (n = 4, the paper's value) and otherwise returns the biggest m-CS seen.
 *
 * Choices the paper leaves open, made here:
 *  - The key page is not a member of the CS (the paper's CS ranges over `processedLinks`, which never holds
 *    the key page); it links to every member by construction.
 *  - A page that fails to load is processed with no connections, so it can never be in a CS; the failure
 *    is reported by the caller's `load`.
 *  - "maximalCS", the largest CS containing the current link, is kept incrementally: adjacency is a byte
 *    matrix over `reachableLinks` indices, and the largest clique among the current link's mutual
 *    neighbours is found by branch and bound, bounded by n. Since every earlier CS has fewer than n pages,
 *    one with the new link has at most n.
 *  - `maxLoad` caps how many pages are loaded (defaults.ts says why); when it is hit the biggest m-CS is
 *    returned, as when the links run out. Ties keep the CS found first.
 *  - `loadBudget` (ours): once this many pages are loaded, a CS of at least `minSettle` pages (3) found so
 *    far is taken rather than loading on toward an n-CS. The paper reports about 7 pages loaded on average;
 *    where pages of the key page's kind do not link to each other (a Javadoc's class pages), an n-CS of
 *    the site's top bar pages takes many more loads than a smaller CS already found.
 */
import { HYPERLINK_DEFAULTS } from './defaults.ts';
import { filled } from '../../filled.ts';

export interface CompleteSubdigraphOptions {
  /** n: stop as soon as a CS of this size exists (>= 2). */
  n?: number;
  /** Most pages loaded before settling for the biggest m-CS. */
  maxLoad?: number;
  /** Pages loaded after which a CS of at least `minSettle` pages is taken (no budget when absent). */
  loadBudget?: number;
  /** Smallest CS taken once the load budget is spent (default 3). */
  minSettle?: number;
  /**
   * Loads the page a link points to and returns its links (absolute URLs, any order, duplicates allowed),
   * or null when it could not be loaded (the caller reports why).
   */
  load(url: string): Promise<readonly string[] | null>;
  signal?: AbortSignal | undefined;
}

export interface CompleteSubdigraphResult {
  /** The CS found: URLs of mutually linked pages, in the order they were loaded. */
  cs: string[];
  /** True when |cs| = n (else it is the biggest m-CS, m < n). */
  complete: boolean;
  /** Links tried (loaded or failed), in order. */
  tried: string[];
  /** Links whose page failed to load. */
  failed: string[];
}

/** Runs Algorithm 1 over `reachableLinks` (already ordered; see link-order.ts). */
export async function findCompleteSubdigraph(reachableLinks: readonly string[], options: CompleteSubdigraphOptions): Promise<CompleteSubdigraphResult> {
  const { n, maxLoad } = filled(options, HYPERLINK_DEFAULTS, ['n', 'maxLoad']);
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`n must be an integer >= 2 (got ${n})`);
  const loadBudget = options.loadBudget ?? Infinity;
  const minSettle = Math.min(n, options.minSettle ?? 3);
  const L = reachableLinks.length;
  const index = new Map<string, number>();
  reachableLinks.forEach((u, i) => index.set(u, i));
  const graph = new CompleteSubdigraph(L);
  const tried: string[] = [];
  const failed: string[] = [];
  let best: number[] = [];
  for (let k = 0; k < L && tried.length < maxLoad; k++) {
    options.signal?.throwIfAborted();
    const url = reachableLinks[k]!;
    tried.push(url);
    const links = await options.load(url);
    if (links === null) {
      failed.push(url);
      continue;
    }
    const out: number[] = [];
    for (const l of links) {
      const j = index.get(l);
      if (j !== undefined && j !== k) out.push(j);
    }
    graph.process(k, out);
    const maximal = graph.largestWith(k, n);
    if (maximal.length > best.length) best = maximal;
    if (best.length >= n) break;
    if (tried.length >= loadBudget && best.length >= minSettle) break;
  }
  best.sort((a, b) => a - b);
  return { cs: best.map((i) => reachableLinks[i]!), complete: best.length >= n, tried, failed };
}

/**
 * The `connections` of Algorithm 1 over L links, kept as a byte matrix, with the largest complete
 * subdigraph containing a given link. Links are indices 0..L-1.
 */
export class CompleteSubdigraph {
  readonly size: number;
  private readonly edge: Uint8Array;
  private readonly processed: Uint8Array;
  private readonly order: number[] = [];

  constructor(size: number) {
    this.size = size;
    this.edge = new Uint8Array(size * size);
    this.processed = new Uint8Array(size);
  }

  /** Records link k as processed, with connections k → j for every j in `out`. */
  process(k: number, out: readonly number[]): void {
    if (this.processed[k] === 0) this.order.push(k);
    this.processed[k] = 1;
    const row = k * this.size;
    for (const j of out) this.edge[row + j] = 1;
  }

  /** True when i and j are both processed and link to each other. */
  mutual(i: number, j: number): boolean {
    const L = this.size;
    return this.processed[i] === 1 && this.processed[j] === 1 && this.edge[i * L + j] === 1 && this.edge[j * L + i] === 1;
  }

  /**
   * The largest set of processed links containing k that are pairwise mutually linked, of at most `cap`
   * links (branch and bound over k's mutual neighbours). [k] alone when k has no mutual neighbour.
   */
  largestWith(k: number, cap: number): number[] {
    if (this.processed[k] !== 1) return [];
    const cands: number[] = [];
    for (const i of this.order) if (i !== k && this.mutual(i, k)) cands.push(i);
    let best: number[] = [k];
    const current: number[] = [k];
    const grow = (pool: number[]): void => {
      if (current.length > best.length) best = current.slice();
      if (best.length >= cap) return;
      for (let p = 0; p < pool.length; p++) {
        if (current.length + (pool.length - p) <= best.length) return; // bound
        const v = pool[p]!;
        const next: number[] = [];
        for (let q = p + 1; q < pool.length; q++) if (this.mutual(v, pool[q]!)) next.push(pool[q]!);
        current.push(v);
        grow(next);
        current.pop();
        if (best.length >= cap) return;
      }
    };
    grow(cands);
    return best;
  }
}
