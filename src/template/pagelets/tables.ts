/**
 * The paper's relations PAGES, LINKS and PAGELETS (paper 3, section 3.2) held in memory, for small page
 * sets: the local algorithm (local.ts) and the in-memory global algorithm (memory.ts) read them. The
 * DuckDB path (global.ts) holds the same relations as tables.
 */
import type { PageRecord } from './page-analysis.ts';

/** In-memory PAGES / PAGELETS / LINKS: one entry per page, in ingestion order (page id = index). */
export class PageletTables {
  readonly keys: string[] = [];
  readonly urlIds: number[] = [];
  readonly fingerprints: number[] = [];
  readonly shingles: Float64Array[] = [];
  readonly links: Float64Array[] = [];

  /** Adds one page (PAGES row, its PAGELETS rows, its LINKS rows); returns its page id. */
  add(rec: PageRecord): number {
    const id = this.keys.length;
    this.keys.push(rec.key);
    this.urlIds.push(rec.urlId);
    this.fingerprints.push(rec.fingerprint);
    this.shingles.push(rec.shingles);
    this.links.push(rec.links);
    return id;
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * Duplicate elimination (Figure 4 step (1)): `dupOf[p]` is the first page with p's fingerprint (p itself
   * for an original). Exact duplicates only: equal token sequences give equal fingerprints.
   */
  duplicates(): Int32Array {
    const first = new Map<number, number>();
    const dupOf = new Int32Array(this.size);
    for (let p = 0; p < this.size; p++) {
      const f = this.fingerprints[p]!;
      const o = first.get(f);
      if (o === undefined) {
        first.set(f, p);
        dupOf[p] = p;
      } else dupOf[p] = o;
    }
    return dupOf;
  }
}
