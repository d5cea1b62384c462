/**
 * The local template detection algorithm: paper 3, section 3.2, Figure 4. For small page sets (a query's
 * base set, a samesite group) where a template's pages need not link to one another inside the set:
 *   (1) eliminate duplicate pages;
 *   (2) sort and group the pagelets by shingle; each group is a template;
 *   (3) enumerate the groups and output their pagelets.
 * A group counts as a template when its pagelets belong to at least `minPages` distinct pages (a pagelet
 * repeated inside one page is not a shared look and feel; Definition 4 asks for a collection of pages).
 * Sorting is done by sorting (shingle, page, ordinal) triples packed in typed arrays, as in the paper.
 */
import { type Detection, OrdinalIndex, type SupportOptions, supportThreshold, type TemplateFound } from './detection.ts';
import { NO_SHINGLE } from './shingle.ts';
import type { PageletTables } from './tables.ts';

/** Options of the local algorithm. */
export type LocalOptions = SupportOptions;

/** Runs Figure 4 over in-memory tables. */
export function detectLocal(tables: PageletTables, options: LocalOptions = {}): Detection {
  const t0 = performance.now();
  const n = tables.size;
  const dupOf = tables.duplicates();
  let unique = 0;
  for (let p = 0; p < n; p++) if (dupOf[p] === p) unique++;
  const minPages = supportThreshold(unique, options);
  const t1 = performance.now();
  // (2) the pagelets of the unique pages, sorted by shingle then page then ordinal.
  let total = 0;
  let pageletsAll = 0;
  let links = 0;
  for (let p = 0; p < n; p++) {
    pageletsAll += tables.shingles[p]!.length;
    links += tables.links[p]!.length;
    if (dupOf[p] !== p) continue;
    for (const s of tables.shingles[p]!) if (s !== NO_SHINGLE) total++;
  }
  const sh = new Float64Array(total);
  const pg = new Int32Array(total);
  const od = new Int32Array(total);
  let r = 0;
  for (let p = 0; p < n; p++) {
    if (dupOf[p] !== p) continue;
    const s = tables.shingles[p]!;
    for (let o = 0; o < s.length; o++) {
      if (s[o] === NO_SHINGLE) continue;
      sh[r] = s[o]!;
      pg[r] = p;
      od[r] = o;
      r++;
    }
  }
  const order = new Int32Array(total);
  for (let i = 0; i < total; i++) order[i] = i;
  order.sort((a, b) => sh[a]! - sh[b]! || pg[a]! - pg[b]! || od[a]! - od[b]!);
  const t2 = performance.now();
  // (3) enumerate the groups.
  const templates: TemplateFound[] = [];
  const outPage: number[] = [];
  const outOrd: number[] = [];
  let candidates = 0;
  for (let i = 0; i < total; ) {
    const s = sh[order[i]!]!;
    let j = i;
    let pages = 0;
    let last = -1;
    while (j < total && sh[order[j]!] === s) {
      const p = pg[order[j]!]!;
      if (p !== last) pages++;
      last = p;
      j++;
    }
    if (j - i >= 2) candidates += j - i;
    if (pages >= minPages) {
      const list: number[] = [];
      for (let q = i; q < j; q++) {
        const p = pg[order[q]!]!;
        if (list[list.length - 1] !== p) list.push(p);
        outPage.push(p);
        outOrd.push(od[order[q]!]!);
      }
      templates.push({ shingle: s, size: list.length, pages: Int32Array.from(list) });
    }
    i = j;
  }
  // Sort the output by page then ordinal for the index.
  const idx = new Int32Array(outPage.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  idx.sort((a, b) => outPage[a]! - outPage[b]! || outOrd[a]! - outOrd[b]!);
  const index = OrdinalIndex.fromSorted(
    n,
    Array.from(idx, (i) => outPage[i]!),
    Array.from(idx, (i) => outOrd[i]!),
    dupOf,
  );
  const t3 = performance.now();
  return {
    algorithm: 'local',
    templates,
    counts: {
      pages: n,
      uniquePages: unique,
      pagelets: pageletsAll,
      links,
      templateShingles: templates.length,
      templateCandidates: candidates,
      templateLinks: 0,
      templatePagelets: outPage.length,
    },
    timings: { duplicates: t1 - t0, sort: t2 - t1, enumerate: t3 - t2 },
    templateOrdinals: (page) => index.get(page),
    ...tables.marks((page) => index.get(page)),
  };
}
