/**
 * The choice of the resemblance that links pages without a URL into one site (src/run/sites.ts), by
 * leave-one-unit-out cross-validation on the corpus. A unit is a corpus site, a samesite group, or
 * single/readability. Each candidate (a measure and its threshold) is scored per unit:
 *  - pages split off: for the unit's pages (but single/readability's, which are of many sites) read as a directory, then each half of them (even and odd
 *    ranks, as a user may hold part of a site), the pages outside the largest site found;
 *  - pages misjoined: in one mixed directory (every single/readability page, two pages of each corpus
 *    site and samesite group), the pages put in a site whose pages mostly belong to another site (a
 *    readability page without a URL is a site of its own, but for numbered pages of one name).
 * For each held-out unit the candidate with the least cost (split + misjoined) on the other units is
 * chosen, and the held-out unit's cost under it is the reported figure.
 */
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { listSamesite, listSites } from '../src/eval/corpus.ts';
import { groupPages, hostOf, jaccardOf, overlapOf, type Resemblance, shared, siteOf, templateEvidence } from '../src/run/sites.ts';
import { DirSource } from '../src/site/dir-source.ts';
import { pageText } from '../src/site/page.ts';
import { join } from 'node:path';

/** Pages of many sites (not one site: never scored as split). */
const READABILITY = 'single/readability';

/** A page as grouping sees it, with the unit it belongs to and its label in the mixed directory. */
interface Entry {
  key: string;
  host: string | undefined;
  evidence: Int32Array;
  unit: string;
  /** The site the page belongs to. */
  label: string;
}

export interface Candidate {
  name: string;
  r: Resemblance;
}

export interface UnitCost {
  unit: string;
  split: number;
  misjoined: number;
}

async function entries(dir: string, unit: string, label: (key: string, host: string | undefined) => string): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const p of new DirSource(dir).pages()) {
    if (!p.ok) continue;
    const host = siteOf(p.page, false).host;
    out.push({ key: p.page.key, host, evidence: templateEvidence(pageText(p.page).text), unit, label: label(p.page.key, host) });
  }
  return out;
}

/** Every unit's pages (a directory each) and the mixed directory's pages. */
export async function corpusUnits(): Promise<{ units: Map<string, Entry[]>; mixed: Entry[] }> {
  const units = new Map<string, Entry[]>();
  for (const s of listSites()) units.set(`sites/${s.name}`, await entries(s.pagesDir, `sites/${s.name}`, () => `sites/${s.name}`));
  for (const g of listSamesite()) {
    const unit = `samesite/${g.set}/${g.site}`;
    // Two groups of one host (bbc.co.uk) are one site.
    const host = hostOf(`https://${g.site.split('_')[0]}/`) ?? unit;
    units.set(unit, await entries(g.dir, unit, () => host));
  }
  const r = READABILITY;
  // A readability page without a URL is its own site, but for numbered pages of one name (webmd-1,
  // webmd-2), and pages named after the host of other pages (wikipedia.html with en.wikipedia.org's).
  const pages = await entries(join(CORPUS_DIR, 'single', 'readability'), r, (key, host) => host ?? key.replace(/(-\d+)?\.html$/, ''));
  const hosts = [...new Set(pages.filter((p) => p.host !== undefined).map((p) => p.label))];
  for (const p of pages) if (p.host === undefined) p.label = hosts.find((h) => h.split('.').includes(p.label)) ?? `readability:${p.label}`;
  units.set(r, pages);
  const mixed: Entry[] = [];
  for (const [unit, pages] of units) {
    if (unit === r) mixed.push(...pages);
    else if (unit.startsWith('samesite/')) mixed.push(...pages.slice(0, 1));
    else mixed.push(...[pages[0], pages[pages.length >> 1]].filter((p): p is Entry => p !== undefined));
  }
  // Pages of a samesite group are keyed by file name alone: keys made unique in the mixed directory.
  return { units, mixed: mixed.map((p) => ({ ...p, key: `${p.unit}/${p.key}` })) };
}

/** A measure that caches shared counts by pair of evidence sets (the sweep asks each pair many times). */
function cached(): { jaccard: (a: Int32Array, b: Int32Array) => number; overlap: (a: Int32Array, b: Int32Array, floor: number) => number } {
  const ids = new WeakMap<Int32Array, number>();
  const counts = new Map<number, number>();
  let next = 0;
  const id = (a: Int32Array): number => {
    let i = ids.get(a);
    if (i === undefined) ids.set(a, (i = next++));
    return i;
  };
  const both = (a: Int32Array, b: Int32Array): number => {
    const i = id(a);
    const j = id(b);
    const k = i < j ? i * 65536 + j : j * 65536 + i;
    let n = counts.get(k);
    if (n === undefined) counts.set(k, (n = shared(a, b)));
    return n;
  };
  return {
    jaccard: (a, b) => jaccardOf(both(a, b), a.length, b.length),
    overlap: (a, b, floor) => overlapOf(both(a, b), a.length, b.length, floor),
  };
}

/** The candidates: Jaccard (the measure used before), and the overlap coefficient with a floor. */
export function candidates(): Candidate[] {
  const m = cached();
  const out: Candidate[] = [];
  for (const t of [0.05, 0.08, 0.1, 0.12, 0.15, 0.2]) out.push({ name: `jaccard ${t}`, r: { threshold: t, floor: 0, measure: m.jaccard } });
  for (const floor of [1, 10, 20, 40])
    for (let k = 2; k <= 12; k++) {
      const t = k / 20;
      out.push({ name: `overlap floor ${floor} ${t}`, r: { threshold: t, floor, measure: m.overlap } });
    }
  return out;
}

/** Pages outside the largest site found, for a unit's pages and each half of them. */
function splitOff(pages: readonly Entry[], r: Resemblance): number {
  let n = 0;
  for (const part of [pages, pages.filter((_, i) => i % 2 === 0), pages.filter((_, i) => i % 2 === 1)]) {
    if (part.length === 0) continue;
    const groups = groupPages(part, 'dir', r);
    n += part.length - Math.max(...groups.map((g) => g.keys.length));
  }
  return n;
}

/** The mixed directory's sites holding pages of another unit than most of their pages' (keys), with the misjoined pages by unit. */
export function misjoined(mixed: readonly Entry[], r: Resemblance): { byUnit: Map<string, number>; sites: string[][] } {
  const byKey = new Map(mixed.map((p) => [p.key, p]));
  const byUnit = new Map<string, number>();
  const sites: string[][] = [];
  for (const g of groupPages(mixed, 'mixed', r)) {
    const pages = g.keys.map((k) => byKey.get(k)!);
    const counts = new Map<string, number>();
    for (const p of pages) counts.set(p.label, (counts.get(p.label) ?? 0) + 1);
    if (counts.size < 2) continue;
    const major = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    for (const p of pages) if (p.label !== major) byUnit.set(p.unit, (byUnit.get(p.unit) ?? 0) + 1);
    sites.push(g.keys);
  }
  return { byUnit, sites };
}

/** Each candidate's cost per unit. */
export function costs(units: ReadonlyMap<string, Entry[]>, mixed: readonly Entry[], cands: readonly Candidate[]): Map<string, UnitCost[]> {
  const out = new Map<string, UnitCost[]>();
  for (const c of cands) {
    const mis = misjoined(mixed, c.r).byUnit;
    out.set(
      c.name,
      [...units].map(([unit, pages]) => ({ unit, split: unit === READABILITY ? 0 : splitOff(pages, c.r), misjoined: mis.get(unit) ?? 0 })),
    );
  }
  return out;
}

/** Leave one unit out: the candidate chosen without it, and its cost on it. */
export function leaveOneOut(byCand: ReadonlyMap<string, UnitCost[]>): { unit: string; chosen: string; cost: UnitCost }[] {
  const names = [...byCand.keys()];
  const units = byCand.get(names[0]!)!.map((u) => u.unit);
  const total = (name: string, skip: number): number => byCand.get(name)!.reduce((s, u, i) => (i === skip ? s : s + u.split + u.misjoined), 0);
  return units.map((unit, i) => {
    let best = names[0]!;
    for (const n of names) if (total(n, i) < total(best, i)) best = n;
    return { unit, chosen: best, cost: byCand.get(best)![i]! };
  });
}
