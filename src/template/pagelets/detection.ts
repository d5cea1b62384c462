/**
 * What a template detection (paper 3, Figures 4 and 5) returns, whichever way it ran (in memory or in
 * DuckDB): the templates found and, for every page, which of its pagelets are template.
 */
import { PAGELET_DEFAULTS } from './defaults.ts';

/** One template: a shingle s(T) and the owner pages O(T) (a connected component for Figure 5). */
export interface TemplateFound {
  /** s(T), the shared pagelet fingerprint (53-bit integer). */
  shingle: number;
  /** |O(T)|: number of pages owning a pagelet of the template. */
  size: number;
  /** O(T) as page ids, sorted, when the run lists them (small inputs). */
  pages?: Int32Array;
}

/** Sizes of the relations of the run, for summary.json and the benchmark. */
export interface DetectionCounts {
  pages: number;
  /** Pages left after duplicate elimination. */
  uniquePages: number;
  pagelets: number;
  links: number;
  templateShingles: number;
  templateCandidates: number;
  templateLinks: number;
  templatePagelets: number;
}

/** The outcome of a detection. */
export interface Detection {
  algorithm: 'local' | 'global';
  templates: TemplateFound[];
  counts: DetectionCounts;
  /** Milliseconds per step. */
  timings: Record<string, number>;
  /** Pagelet ordinals (sorted) of page `id` that are template; a duplicate page gets its original's. */
  templateOrdinals(page: number): Int32Array;
  /**
   * The template marks of every page without its tree, streamed page by page in id order (pages without
   * template pagelets too): the node ranges of its template pagelets, in ordinal order, pagelet j covering
   * nodes [start[j], start[j] + count[j]) of the page's Tree. The arrays are only valid during the call;
   * a promise returned by `onPage` is awaited before the next page (back-pressure for writers).
   */
  eachTemplateNodes(onPage: (page: number, start: Int32Array, count: Int32Array) => void | Promise<void>): Promise<void>;
  /**
   * Text characters of the page's template pagelets over its body's (paper 3, Table 2 measure): what
   * `templateFraction` of result.ts gives on the marked tree, known from pass 1 without the page.
   */
  templateFraction(page: number): number;
  /** Figures of the run that are not times (e.g. DuckDB's spill to disk), for the benchmark. */
  stats?: Record<string, number>;
}

/** The per-page marks of a Detection, for detections that run over in-memory tables (tables.ts). */
export type PageMarksOf = Pick<Detection, 'eachTemplateNodes' | 'templateFraction'>;

/**
 * Per-page template ordinals as bit sets: page p's bytes are bits[offsets[p], offsets[p+1]), bit o set
 * when pagelet o is template. A page of 48 pagelets takes 6 bytes however many are template (the pages
 * of a large crawl are mostly template: 44 of 48 pagelets on the synthetic crawl), plus 4 for its offset.
 */
export class OrdinalBits {
  private bits = new Uint8Array(1 << 12);
  private used = 0;
  private cur = -1;
  private start = 0;
  private readonly offsets: Int32Array;
  constructor(private readonly pages: number) {
    this.offsets = new Int32Array(pages + 1);
  }
  /** Sets pagelet `ordinal` of `page`; pages must come in increasing order (ordinals in any order). */
  set(page: number, ordinal: number): void {
    if (page !== this.cur) {
      for (let q = this.cur + 1; q <= page; q++) this.offsets[q] = this.used;
      this.cur = page;
      this.start = this.used;
    }
    const byte = this.start + (ordinal >> 3);
    if (byte >= this.bits.length) {
      const b = new Uint8Array(Math.max(byte + 1, this.bits.length * 2));
      b.set(this.bits);
      this.bits = b;
    }
    this.bits[byte]! |= 1 << (ordinal & 7);
    if (byte + 1 > this.used) this.used = byte + 1;
  }
  /** Call once after the last `set`. */
  finish(): this {
    for (let q = this.cur + 1; q <= this.pages; q++) this.offsets[q] = this.used;
    this.cur = this.pages;
    this.bits = this.bits.slice(0, this.used);
    return this;
  }
  /** The template ordinals of a page, sorted. */
  get(page: number): Int32Array {
    if (page < 0 || page >= this.pages) return new Int32Array(0);
    const a = this.offsets[page]!;
    const e = this.offsets[page + 1]!;
    let k = 0;
    for (let i = a; i < e; i++) for (let x = this.bits[i]!; x !== 0; x &= x - 1) k++;
    const out = new Int32Array(k);
    k = 0;
    for (let i = a; i < e; i++) {
      const b = this.bits[i]!;
      if (b === 0) continue;
      for (let j = 0; j < 8; j++) if (b & (1 << j)) out[k++] = (i - a) * 8 + j;
    }
    return out;
  }
}

/** Per-page template ordinals in compressed-row form (offsets into one array). */
export class OrdinalIndex {
  private readonly offsets: Int32Array;
  private readonly values: Int32Array;
  private readonly dupOf: Int32Array;

  /** `rows[page]` lists ordinals; `dupOf[page]` is the original of a duplicate page, or the page itself. */
  constructor(offsets: Int32Array, values: Int32Array, dupOf: Int32Array) {
    this.offsets = offsets;
    this.values = values;
    this.dupOf = dupOf;
  }

  /** Builds the index from per-page counts (`offsets[p + 1]` = rows of page p) and the ordinals in page order. */
  static fromCounts(offsets: Int32Array, values: Int32Array, dupOf: Int32Array): OrdinalIndex {
    for (let p = 0; p + 1 < offsets.length; p++) offsets[p + 1]! += offsets[p]!;
    return new OrdinalIndex(offsets, values, dupOf);
  }

  /** Builds the index from (page, ordinal) pairs sorted by page then ordinal. */
  static fromSorted(pages: number, pageCol: ArrayLike<number>, ordCol: ArrayLike<number>, dupOf: Int32Array): OrdinalIndex {
    const offsets = new Int32Array(pages + 1);
    for (let r = 0; r < pageCol.length; r++) offsets[pageCol[r]! + 1]!++;
    for (let p = 0; p < pages; p++) offsets[p + 1]! += offsets[p]!;
    return new OrdinalIndex(offsets, Int32Array.from(ordCol), dupOf);
  }

  get(page: number): Int32Array {
    const p = this.dupOf[page] ?? page;
    if (p < 0 || p + 1 >= this.offsets.length) return new Int32Array(0);
    return this.values.subarray(this.offsets[p]!, this.offsets[p + 1]!);
  }
}

/** How many pages a shingle must span to be a template shingle (see `supportThreshold`). */
export interface SupportOptions {
  /** Absolute minimum of distinct pages (default `PAGELET_DEFAULTS.minTemplatePages`: Definition 4 needs a collection). */
  minPages?: number;
  /** Minimum fraction of the (unique) pages of the input (default `PAGELET_DEFAULTS.minSupport`; 0 turns it off). */
  minSupport?: number;
  /** The fraction's page count never exceeds this (default `PAGELET_DEFAULTS.supportCap`). */
  supportCap?: number;
}

/** The support options' defaults, in memory and in SQL alike (PAGELET_DEFAULTS). */
export const SUPPORT_DEFAULTS: Readonly<Required<SupportOptions>> = {
  minPages: PAGELET_DEFAULTS.minTemplatePages,
  minSupport: PAGELET_DEFAULTS.minSupport,
  supportCap: PAGELET_DEFAULTS.supportCap,
};

/**
 * The least number of distinct pages a template shingle must span: max(minPages, min(cap, ⌈f·N⌉)) for
 * N unique pages. The paper's first property of a template is that "there is a significant collection of
 * pages that conform to this template" (section 1.4), but its algorithms accept any shingle seen twice.
 * On whole sites that also catches content repeated on a few pages that link to each other (a code
 * example quoted in three neighbouring chapters, a PEP and its revision, index pages listing the same
 * rows), so we ask for a small fraction of the site, capped so that large crawls still see templates of
 * a few dozen pages. With f = 0 this is the paper's rule.
 */
export function supportThreshold(uniquePages: number, o: SupportOptions = {}): number {
  const minPages = Math.max(1, o.minPages ?? SUPPORT_DEFAULTS.minPages);
  const f = o.minSupport ?? SUPPORT_DEFAULTS.minSupport;
  const cap = o.supportCap ?? SUPPORT_DEFAULTS.supportCap;
  return Math.max(minPages, Math.min(cap, Math.ceil(f * uniquePages)));
}
