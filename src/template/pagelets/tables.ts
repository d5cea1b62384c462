/**
 * The paper's relations PAGES, LINKS and PAGELETS (paper 3, section 3.2) held in memory, for small page
 * sets: the local algorithm (local.ts) and the in-memory global algorithm (memory.ts) read them. The
 * DuckDB path (global.ts) holds the same relations as tables.
 */
import type { PageMarksOf } from './detection.ts';
import type { PageRecord } from './page-analysis.ts';

/** In-memory PAGES / PAGELETS / LINKS: one entry per page, in ingestion order (page id = index). */
export class PageletTables {
  readonly keys: string[] = [];
  readonly urlIds: number[] = [];
  readonly fingerprints: number[] = [];
  readonly shingles: Float64Array[] = [];
  readonly links: Float64Array[] = [];
  /** Per page: pagelet root nodes, their node counts and text characters, and the body's text characters. */
  readonly pagelets: Int32Array[] = [];
  readonly spans: Int32Array[] = [];
  readonly chars: Int32Array[] = [];
  readonly bodyChars: number[] = [];

  /** Adds one page (PAGES row, its PAGELETS rows, its LINKS rows); returns its page id. */
  add(rec: PageRecord): number {
    const id = this.keys.length;
    this.keys.push(rec.key);
    this.urlIds.push(rec.urlId);
    this.fingerprints.push(rec.fingerprint);
    this.shingles.push(rec.shingles);
    this.links.push(rec.links);
    this.pagelets.push(rec.pagelets);
    this.spans.push(rec.spans);
    this.chars.push(rec.chars);
    this.bodyChars.push(rec.bodyChars);
    return id;
  }

  /** Node ranges and template fraction of each page, given its template ordinals (a duplicate: its original's). */
  marks(templateOrdinals: (page: number) => Int32Array): PageMarksOf {
    return {
      eachTemplateNodes: async (onPage) => {
        for (let page = 0; page < this.size; page++) {
          const ords = templateOrdinals(page);
          const start = new Int32Array(ords.length);
          const count = new Int32Array(ords.length);
          const roots = this.pagelets[page]!;
          const spans = this.spans[page]!;
          for (let j = 0; j < ords.length; j++) {
            start[j] = roots[ords[j]!]!;
            count[j] = spans[ords[j]!]!;
          }
          await onPage(page, start, count);
        }
      },
      templateFraction: (page) => {
        const all = this.bodyChars[page] ?? 0;
        if (all === 0) return 0;
        const chars = this.chars[page]!;
        let t = 0;
        for (const o of templateOrdinals(page)) t += chars[o]!;
        return t / all;
      },
    };
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
