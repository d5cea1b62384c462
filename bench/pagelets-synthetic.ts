/**
 * The synthetic crawl of the pagelets scale benchmark: any number of pages made by
 * perturbing the corpus site pages (or, without the corpus, the synthetic site of the pagelets tests),
 * with links, deterministic (page i is the same on every pass and every run).
 *
 * Page i of a crawl of n pages is base page b = i mod B (B base pages, in site and path order), with:
 *  - new text: each paragraph `<p>…</p>` of at least 20 characters (no markup inside) is replaced, with
 *    probability 0.35, by 12–41 random words (about a tenth of them with a number appended);
 *  - a shuffled list: the items of the page's first `<ul>` change order (Fisher–Yates);
 *  - an extra block before `</body>`: a `div` with a 3-word heading and a 20-word paragraph;
 *  - crawl links, in a second `div`: to copies i ± B of the same base page (so every copy of a base page is
 *    linked into one chain: each site's template stays one connected component, as in a real crawl), to
 *    the first copy of its site's home page, and to two random pages of the crawl.
 * Paragraphs inside the shuffled list are left as they are. Each base page is cut once into its fixed
 * parts, paragraph slots and list items, UTF-8 encoded, so making a page is copying bytes plus the random
 * words (a small share of a parse: the benchmark prints the time spent generating).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeHtml } from '../src/html/charset.ts';
import { CORPUS_DIR, corpusAvailable } from '../src/eval/corpus-path.ts';
import type { Page, PageResult, PageSource } from '../src/site/page.ts';
import { syntheticSite } from '../test/template/pagelets/fixtures.ts';

/** A base page: its site index and decoded HTML. */
export interface BasePage {
  site: number;
  html: string;
}

/** Base pages: every corpus site page (HTML), grouped by site, else the tests' synthetic site. */
export function basePages(): BasePage[] {
  const out: BasePage[] = [];
  if (corpusAvailable()) {
    const sites = readdirSync(join(CORPUS_DIR, 'sites')).sort();
    sites.forEach((s, si) => {
      const walk = (d: string): void => {
        for (const f of readdirSync(d).sort()) {
          const p = join(d, f);
          if (statSync(p).isDirectory()) walk(p);
          else if (/\.(html?|xhtml)$/.test(f)) out.push({ site: si, html: decodeHtml(readFileSync(p)).text });
        }
      };
      const dir = join(CORPUS_DIR, 'sites', s, 'pages');
      if (existsSync(dir)) walk(dir);
    });
  } else {
    for (const html of Object.values(syntheticSite(200))) out.push({ site: 0, html });
  }
  return out;
}

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat'.split(
    ' ',
  );

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let x = (seed * 2654435761) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

function words(r: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    if (i > 0) s += ' ';
    s += WORDS[Math.floor(r() * WORDS.length)]!;
    if (r() < 0.1) s += String(Math.floor(r() * 1000));
  }
  return s;
}

/**
 * A base page cut into parts, UTF-8 encoded once: `fixed[0] slot[0] fixed[1] slot[1] … fixed[m] tail`,
 * where a slot is a paragraph (`para[j]`, kept or replaced) or the shuffled list (`items`, para[j] null).
 * The extra block and the crawl links go before `tail` (`</body>` and what follows it).
 */
interface Cut {
  site: number;
  fixed: Uint8Array[];
  para: Array<Uint8Array | null>;
  items: Uint8Array[];
  /** True when the list's last part is text after the last `</li>` (it stays last). */
  itemsTail: boolean;
  tail: Uint8Array;
}

const PARA = /<p>[^<]{20,}<\/p>/g;
const utf8 = new TextEncoder();

function cut(base: BasePage): Cut {
  let html = base.html;
  const b = html.lastIndexOf('</body>');
  const tail = b >= 0 ? html.slice(b) : '';
  if (b >= 0) html = html.slice(0, b);
  // the first list's items (between the end of `<ul …>` and `</ul>`)
  let listOpen = -1;
  let listEnd = -1;
  const ul = html.indexOf('<ul');
  if (ul >= 0) {
    const end = html.indexOf('</ul>', ul);
    const open = html.indexOf('>', ul) + 1;
    if (end > open) {
      listOpen = open;
      listEnd = end;
    }
  }
  const slots: Array<{ start: number; end: number; list: boolean }> = [];
  for (const m of html.matchAll(PARA)) {
    const start = m.index;
    const end = start + m[0].length;
    if (listOpen >= 0 && end > listOpen && start < listEnd) continue; // inside the list: left as it is
    slots.push({ start, end, list: false });
  }
  if (listOpen >= 0) slots.push({ start: listOpen, end: listEnd, list: true });
  slots.sort((x, y) => x.start - y.start);
  const c: Cut = { site: base.site, fixed: [], para: [], items: [], itemsTail: false, tail: utf8.encode(tail) };
  let at = 0;
  for (const s of slots) {
    c.fixed.push(utf8.encode(html.slice(at, s.start)));
    if (s.list) {
      const parts = html.slice(s.start, s.end).split('</li>');
      const last = parts.pop() ?? '';
      c.items = parts.map((x) => utf8.encode(x + '</li>'));
      if (last) {
        c.items.push(utf8.encode(last));
        c.itemsTail = true;
      }
      c.para.push(null);
    } else c.para.push(utf8.encode(html.slice(s.start, s.end)));
    at = s.end;
  }
  c.fixed.push(utf8.encode(html.slice(at)));
  return c;
}

/** Bytes written one after the other (the pages are built as bytes: no string to encode). */
class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  private n = 0;
  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const b = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
  /** An ASCII string. */
  ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.n++] = s.charCodeAt(i);
  }
  /** A copy of what was written; the writer starts again empty. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.n);
    this.n = 0;
    return out;
  }
}

/** The synthetic crawl: page i as bytes or HTML, and a PageSource over pages [0, n). */
export class SyntheticCrawl {
  readonly root = 'http://crawl.bench/';
  readonly bases: number;
  private readonly cuts: Cut[];
  private readonly homes: number[] = [];
  private readonly out = new ByteWriter();

  constructor(bases: readonly BasePage[] = basePages()) {
    this.cuts = bases.map(cut);
    this.bases = bases.length;
    bases.forEach((b, i) => {
      if (this.homes[b.site] === undefined) this.homes[b.site] = i;
    });
  }

  /** The bytes (UTF-8) of page i of a crawl of n pages. */
  pageBytes(i: number, n: number): Uint8Array {
    const B = this.cuts.length;
    const c = this.cuts[i % B]!;
    const r = rng(i + 1);
    const w = this.out;
    w.bytes(c.fixed[0]!);
    for (let s = 0; s < c.para.length; s++) {
      const p = c.para[s];
      if (p === null || p === undefined) {
        const items = c.items.slice();
        for (let k = items.length - (c.itemsTail ? 2 : 1); k > 0; k--) {
          const j = Math.floor(r() * (k + 1));
          const t = items[k]!;
          items[k] = items[j]!;
          items[j] = t;
        }
        for (const it of items) w.bytes(it);
      } else if (r() < 0.35) w.ascii(`<p>${words(r, 12 + Math.floor(r() * 30))}</p>`);
      else if (p) w.bytes(p);
      w.bytes(c.fixed[s + 1]!);
    }
    const link = (j: number): string => {
      const t = ((j % n) + n) % n;
      return `<a href="${this.root}p/${t}.html">page ${t}</a>`;
    };
    w.ascii(
      `<div class="bench-extra"><h4>${words(r, 3)}</h4><p>${words(r, 20)}</p></div>` +
        `<div class="bench-links">${link(i + B)} ${link(i - B)} ${link(this.homes[c.site]!)} ${link(Math.floor(r() * n))} ${link(Math.floor(r() * n))}</div>`,
    );
    w.bytes(c.tail);
    return w.take();
  }

  /** The HTML of page i of a crawl of n pages. */
  page(i: number, n: number): string {
    return new TextDecoder().decode(this.pageBytes(i, n));
  }

  /**
   * A PageSource generating pages [from, to) of a crawl of n pages on the fly (default: all of them; the
   * same pages on every pass); `genMs` adds up the time spent making them.
   */
  source(n: number, from = 0, to = n): PageSource & { genMs: number } {
    const root = this.root;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const crawl = this;
    const src = {
      kind: 'memory' as const,
      root,
      entry: root + 'p/0.html',
      loaded: 0,
      genMs: 0,
      async *pages(): AsyncIterable<PageResult> {
        for (let i = from; i < to; i++) {
          const t = performance.now();
          const page: Page = { url: `${root}p/${i}.html`, key: `p/${i}.html`, status: 200, headers: { 'content-type': 'text/html' }, body: crawl.pageBytes(i, n), origin: 'memory' };
          src.genMs += performance.now() - t;
          yield { ok: true, page };
        }
      },
      async get(): Promise<Page> {
        throw new Error('not used');
      },
      keyOf: (url: string) => (url.startsWith(root) ? url.slice(root.length) : undefined),
      urlOf: (key: string) => root + key,
      close: async () => undefined,
    };
    return src;
  }
}

/**
 * Writes pages [from, to) of a crawl of n pages as a WARC file of one gzip member per record (as crawlers
 * write them), under the crawl's root; returns the number of pages written.
 */
export async function writeSyntheticWarc(crawl: SyntheticCrawl, n: number, from: number, to: number, file: string): Promise<number> {
  const { writeWarc } = await import('../src/site/warc-source.ts');
  const pages = function* (): Iterable<{ key: string; body: Uint8Array }> {
    for (let i = from; i < to; i++) yield { key: `p/${i}.html`, body: crawl.pageBytes(i, n).slice() };
  };
  return writeWarc(pages(), file, { baseUrl: crawl.root });
}
