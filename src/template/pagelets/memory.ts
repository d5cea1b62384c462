/**
 * The global template detection algorithm (paper 3, section 3.2, Figure 5) over in-memory tables, for
 * inputs that fit in memory. global.ts runs the same steps as SQL in DuckDB; a test checks that both give
 * the same templates. Steps:
 *   (0) eliminate exact duplicate pages (as Figure 4 step (1); links to or from duplicates are dropped);
 *   (1) TEMPLATE_SHINGLES: shingles of pagelets on at least `minPages` distinct pages;
 *   (2) TEMPLATE_CANDIDATES: the pagelets whose shingle is a template shingle;
 *   (3) TEMPLATE_LINKS: the links (src, dest) between two pages that both hold a candidate of shingle s —
 *       the triple join T1.page = src, T2.page = dest, T1.shingle = T2.shingle;
 *   (4)–(5) for each s, the undirected connected components of its pages under its template links; each
 *       component that is not a singleton is a template.
 * A candidate pagelet is template exactly when its page lies in a non-singleton component of its shingle,
 * that is, when its page has at least one template link for that shingle.
 */
import { type Detection, OrdinalIndex, type SupportOptions, supportThreshold, type TemplateFound } from './detection.ts';
import { UnionFind } from '../../structure/union-find.ts';
import { NO_SHINGLE } from './shingle.ts';
import type { PageletTables } from './tables.ts';

/** Options of the global algorithm. */
export interface GlobalOptions extends SupportOptions {
  /** List O(T) in each template (default true). */
  listPages?: boolean;
}

/** Runs Figure 5 over in-memory tables. */
export function detectGlobalInMemory(tables: PageletTables, options: GlobalOptions = {}): Detection {
  const listPages = options.listPages ?? true;
  const n = tables.size;
  const t0 = performance.now();
  const dupOf = tables.duplicates();
  let unique = 0;
  for (let p = 0; p < n; p++) if (dupOf[p] === p) unique++;
  const minPages = supportThreshold(unique, options);
  // (1) distinct pages per shingle.
  const pagesOf = new Map<number, number>();
  const lastPage = new Map<number, number>();
  let pagelets = 0;
  let linksAll = 0;
  for (let p = 0; p < n; p++) {
    pagelets += tables.shingles[p]!.length;
    linksAll += tables.links[p]!.length;
    if (dupOf[p] !== p) continue;
    for (const s of tables.shingles[p]!) {
      if (s === NO_SHINGLE || lastPage.get(s) === p) continue;
      lastPage.set(s, p);
      pagesOf.set(s, (pagesOf.get(s) ?? 0) + 1);
    }
  }
  const templateShingles = new Set<number>();
  for (const [s, c] of pagesOf) if (c >= minPages) templateShingles.add(s);
  const t1 = performance.now();
  // (2) candidates: per unique page, its distinct template shingles, sorted; pair ids index (page, shingle).
  const candStart = new Int32Array(n + 1);
  const candShingle: number[] = [];
  let candidates = 0;
  for (let p = 0; p < n; p++) {
    candStart[p] = candShingle.length;
    if (dupOf[p] !== p) continue;
    const set = new Set<number>();
    for (const s of tables.shingles[p]!) {
      if (templateShingles.has(s)) {
        candidates++;
        set.add(s);
      }
    }
    const sorted = Float64Array.from(set).sort();
    for (const s of sorted) candShingle.push(s);
  }
  candStart[n] = candShingle.length;
  const t2 = performance.now();
  // (3) template links: resolve LINKS targets to unique pages, intersect candidate shingles.
  const pageOfUrl = new Map<number, number>();
  for (let p = 0; p < n; p++) if (dupOf[p] === p && !pageOfUrl.has(tables.urlIds[p]!)) pageOfUrl.set(tables.urlIds[p]!, p);
  const uf = new UnionFind(candShingle.length);
  const linked = new Uint8Array(candShingle.length);
  let templateLinks = 0;
  for (let src = 0; src < n; src++) {
    if (dupOf[src] !== src) continue;
    const seen = new Set<number>();
    for (const d of tables.links[src]!) {
      const dest = pageOfUrl.get(d);
      if (dest === undefined || dest === src || seen.has(dest)) continue;
      seen.add(dest);
      // merge-intersect the two sorted candidate lists
      let i = candStart[src]!;
      let j = candStart[dest]!;
      const ie = candStart[src + 1]!;
      const je = candStart[dest + 1]!;
      while (i < ie && j < je) {
        const a = candShingle[i]!;
        const b = candShingle[j]!;
        if (a < b) i++;
        else if (a > b) j++;
        else {
          templateLinks++;
          uf.union(i, j);
          linked[i] = 1;
          linked[j] = 1;
          i++;
          j++;
        }
      }
    }
  }
  const t3 = performance.now();
  // (4)–(5) components per shingle: group linked pairs by root.
  const members = new Map<number, number[]>();
  for (let p = 0; p < n; p++) {
    for (let q = candStart[p]!; q < candStart[p + 1]!; q++) {
      if (!linked[q]) continue;
      const root = uf.find(q);
      let list = members.get(root);
      if (!list) members.set(root, (list = []));
      list.push(p);
    }
  }
  const templates: TemplateFound[] = [];
  for (const [root, list] of members) {
    const t: TemplateFound = { shingle: candShingle[root]!, size: list.length };
    if (listPages) t.pages = Int32Array.from(list);
    templates.push(t);
  }
  sortTemplates(templates);
  // Template pagelets: the ordinals of candidates whose (page, shingle) pair is linked.
  const pageCol: number[] = [];
  const ordCol: number[] = [];
  for (let p = 0; p < n; p++) {
    if (dupOf[p] !== p) continue;
    const lo = candStart[p]!;
    const hi = candStart[p + 1]!;
    if (lo === hi) continue;
    const shingles = tables.shingles[p]!;
    for (let o = 0; o < shingles.length; o++) {
      const s = shingles[o]!;
      if (!templateShingles.has(s)) continue;
      // binary search s among this page's candidates
      let a = lo;
      let b = hi - 1;
      while (a < b) {
        const mid = (a + b) >> 1;
        if (candShingle[mid]! < s) a = mid + 1;
        else b = mid;
      }
      if (linked[a]) {
        pageCol.push(p);
        ordCol.push(o);
      }
    }
  }
  const index = OrdinalIndex.fromSorted(n, pageCol, ordCol, dupOf);
  const t4 = performance.now();
  return {
    algorithm: 'global',
    templates,
    counts: {
      pages: n,
      uniquePages: unique,
      pagelets,
      links: linksAll,
      templateShingles: templateShingles.size,
      templateCandidates: candidates,
      templateLinks,
      templatePagelets: pageCol.length,
    },
    timings: { templateShingles: t1 - t0, templateCandidates: t2 - t1, templateLinks: t3 - t2, components: t4 - t3 },
    templateOrdinals: (page) => index.get(page),
    ...tables.marks((page) => index.get(page)),
  };
}

/** Canonical order of templates: by shingle, then by smallest page (size breaks ties when pages are absent). */
export function sortTemplates(templates: TemplateFound[]): void {
  templates.sort((a, b) => a.shingle - b.shingle || (a.pages?.[0] ?? 0) - (b.pages?.[0] ?? 0) || a.size - b.size);
}
