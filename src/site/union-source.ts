/**
 * Several sources of one kind as one PageSource: what a quoted glob of WARC files or directories opens
 * (`'crawl/crawl-*.warc.gz'`, `'mirror/part-*'`), a crawl written in several parts.
 *  - root: the common root of the parts' roots (for directories, their common parent folder); parts on
 *    several origins (WARC files of different sites, or WARC files and directories) are refused, except
 *    archives that each hold several sites (their root is `SITES_ROOT`, their keys `host/path`);
 *  - a page's key is its path under that root: a part's key with the part's root's path below the common
 *    root in front (`part-1/a.html` for directories; for WARC parts of one site the key its URL has);
 *  - pages(): each part's pages in the order the parts are given (sorted paths for a glob); a key already
 *    given by an earlier part is not given again (the first part wins, as the first response of a URL
 *    does within one WARC file); a cut at `maxPages` tells the pages left in the later parts, plus one;
 *  - links: a URL belongs to the part whose root holds it. A link from a mirrored page to the site's root
 *    (`/a.html`) does not say which part's site it meant, so it is off the union (a single directory reads
 *    it as relative to itself).
 */
import { PageError, UsageError } from '../errors.ts';
import { cleanKey } from './check.ts';
import { commonRoot, SITES_ROOT, urlFromKey } from './keys.ts';
import { directoryOf, normalizeUrl } from './links.ts';
import type { Page, PageResult, PageSource, PageSourceOptions } from './page.ts';
import type { WarcSource } from './warc-source.ts';

interface Part {
  source: PageSource;
  /** The part's root's path under the union's root ('' or ending in '/'), decoded as keys are. */
  prefix: string;
  /** What the part was opened from (for messages). */
  spec: string;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export class UnionSource implements PageSource {
  readonly kind: PageSource['kind'];
  readonly root: string;
  readonly entry: string;
  private readonly parts: Part[];

  /**
   * The union of opened sources (`specs[i]` names `sources[i]` in messages). Throws a UsageError when they
   * are of different kinds or on several origins. `entry`: a key or absolute URL (default: the root's
   * index.html when a part holds it as its entry, else the first part's entry).
   */
  constructor(sources: readonly PageSource[], specs: readonly string[], entry?: string) {
    if (sources.length === 0) throw new UsageError('no source to read');
    const kinds = new Set(sources.map((s) => s.kind));
    if (kinds.size > 1) throw new UsageError(`the sources are not of one kind (${specs.join(', ')}): give WARC files only or directories only`);
    const root = commonRoot(sources.map((s) => s.root));
    if (root === undefined) throw new UsageError(`the sources hold several sites (${[...new Set(sources.map((s) => s.root))].join(', ')}): open each on its own`);
    this.kind = sources[0]!.kind;
    this.root = root;
    const base = directoryOf(new URL(root));
    this.parts = sources.map((source, i) => ({ source, spec: specs[i] ?? source.root, prefix: decodeSafe(new URL(source.root).pathname.slice(base.length)) }));
    if (entry !== undefined) {
      this.entry = /^[a-z][a-z0-9+.-]*:/i.test(entry) ? entry : urlFromKey(cleanKey(entry), root);
    } else {
      const index = urlFromKey('index.html', root);
      this.entry = sources.some((s) => s.entry === index) ? index : sources[0]!.entry;
    }
  }

  get loaded(): number {
    let n = 0;
    for (const p of this.parts) n += p.source.loaded;
    return n;
  }

  async *pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    const max = options.maxPages ?? Infinity;
    const given = new Set<string>();
    let done = 0;
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i]!;
      for await (const r of part.source.pages()) {
        if (done >= max) {
          if (options.onCut) options.onCut({ maxPages: max, left: 1 + (await this.keysIn(this.parts.slice(i + 1))) });
          return;
        }
        const key = part.prefix + (r.ok ? r.page.key : r.key);
        if (given.has(key)) continue;
        given.add(key);
        done++;
        options.onProgress?.(done, r.ok ? r.page.url : r.url);
        yield r.ok ? { ...r, page: { ...r.page, key } } : { ...r, key };
      }
    }
  }

  /** The pages the parts hold (keys given by several parts counted in each), without loading them. */
  private async keysIn(parts: readonly Part[]): Promise<number> {
    let n = 0;
    for (const part of parts) {
      for await (const _ of part.source.pages({ maxPages: 0, onCut: (c) => (n += c.left) }));
    }
    return n;
  }

  async get(urlOrKey: string): Promise<Page> {
    let key: string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(urlOrKey)) {
      if (normalizeUrl(urlOrKey) === undefined) throw new PageError(urlOrKey, 'invalid-url', 'invalid URL');
      const k = this.keyOf(urlOrKey);
      if (k === undefined) throw new PageError(urlOrKey, 'off-site', `not under the root of any of the sources (${this.root})`);
      key = k;
    } else {
      key = cleanKey(urlOrKey);
    }
    // the first part holding the key, as pages() gives it
    for (const part of this.parts) {
      if (!key.startsWith(part.prefix)) continue;
      try {
        const page = await part.source.get(key.slice(part.prefix.length));
        return { ...page, key: part.prefix + page.key };
      } catch (err) {
        if (err instanceof PageError && err.code === 'not-found') continue;
        throw err;
      }
    }
    throw new PageError(this.urlOf(key), 'not-found', `in none of the sources (${this.parts.map((p) => p.spec).join(', ')})`);
  }

  keyOf(url: string): string | undefined {
    const n = normalizeUrl(url);
    if (n === undefined) return undefined;
    for (const part of this.parts) {
      // (archives of several sites share a root that no page's URL starts with: each part keys its hosts)
      if (!n.startsWith(part.source.root) && part.source.root !== SITES_ROOT) continue;
      const k = part.source.keyOf(n);
      if (k !== undefined) return part.prefix + k;
    }
    return undefined;
  }

  urlOf(key: string): string {
    for (const part of this.parts) if (part.prefix !== '' && key.startsWith(part.prefix)) return part.source.urlOf(key.slice(part.prefix.length));
    if (this.root !== SITES_ROOT) return urlFromKey(key, this.root);
    // archives of several sites: the URL of the first part holding the key (else as the first part spells it)
    const holder = this.parts.find((p) => (p.source as WarcSource).holds(key)) ?? this.parts[0]!;
    return holder.source.urlOf(key);
  }

  async close(): Promise<void> {
    await Promise.all(this.parts.map((p) => p.source.close()));
  }
}
