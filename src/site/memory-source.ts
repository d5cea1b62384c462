/**
 * Pages held in memory as a PageSource, for tests and for library users who already have the pages
 * (from their own crawler, a database…). URLs are the keys under a root (default
 * `http://memory.invalid/`: the reserved `.invalid` name never reaches a network) and keys follow the URL
 * rules of keys.ts. pages() yields in the order given; the same checks as other sources apply (an empty or
 * binary body is a failure item).
 */
import { PageError } from '../errors.ts';
import { checkBody, cleanKey, keyOfUrlOrKey, loadEach } from './check.ts';
import { RootedSource } from './rooted-source.ts';
import type { Page, PageResult, PageSource, PageSourceOptions } from './page.ts';

/** One page given to a MemorySource. */
export interface MemoryPage {
  /** Key relative to the root (`a/b.html`; '' or a trailing '/' means index.html). */
  key: string;
  body: Uint8Array | string;
  status?: number;
  headers?: Record<string, string>;
}

export interface MemorySourceOptions {
  /** Root URL (ends with '/'); default `http://memory.invalid/`. */
  root?: string;
  /** Entry key; default index.html when given, else the first page. */
  entry?: string;
}

/** The default root of a MemorySource. */
export const MEMORY_ROOT = 'http://memory.invalid/';

export class MemorySource extends RootedSource implements PageSource {
  readonly kind = 'memory' as const;
  readonly entry: string;
  private readonly byKey = new Map<string, MemoryPage>();

  constructor(pages: Iterable<MemoryPage>, options: MemorySourceOptions = {}) {
    super(options.root ?? MEMORY_ROOT);
    for (const p of pages) {
      const key = cleanKey(p.key);
      if (!this.byKey.has(key)) this.byKey.set(key, p);
    }
    const entry = options.entry !== undefined ? cleanKey(options.entry) : this.byKey.has('index.html') ? 'index.html' : [...this.byKey.keys()][0] ?? 'index.html';
    this.entry = this.urlOf(entry);
  }

  pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    return loadEach(this.byKey.keys(), options, (key) => this.urlOf(key), (key) => this.page(key));
  }

  async get(urlOrKey: string): Promise<Page> {
    return this.page(keyOfUrlOrKey(urlOrKey, (url) => this.keyOf(url), `the root ${this.root}`));
  }

  private page(key: string): Page {
    const url = this.urlOf(key);
    const p = this.byKey.get(key);
    if (!p) throw new PageError(url, 'not-found', 'no such page in memory');
    const status = p.status ?? 200;
    if (status === 404 || status === 410) throw new PageError(url, 'not-found', `HTTP ${status}`, { status });
    if (status < 200 || status > 299) throw new PageError(url, 'http-status', `HTTP ${status}`, { status });
    const body = typeof p.body === 'string' ? new TextEncoder().encode(p.body) : Buffer.isBuffer(p.body) ? new Uint8Array(p.body.buffer, p.body.byteOffset, p.body.byteLength) : p.body;
    const bad = checkBody(url, body);
    if (bad) throw bad;
    this.count++;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(p.headers ?? {})) headers[k.toLowerCase()] = v;
    return { url, key, status, headers, body, origin: 'memory' };
  }

  async close(): Promise<void> {}
}
