/**
 * Sources as the pipelines take them: a PageSource the caller opened (and closes), or a path or URL the
 * pipeline opens with `openSource` and closes when the run ends; plus views of a source (at most n pages,
 * another page list) that the pipelines and the command line share; and a source opened from the source
 * options as the command line gives them (`openWithOptions`).
 */
import { resolve } from 'node:path';
import { GabaritError } from '../errors.ts';
import type { PageCut, PageResult, PageSource, PageSourceOptions } from '../site/page.ts';
import type { SitemapStats } from '../site/sitemap.ts';
import type { SourceOptions } from '../site/source.ts';
import type { Store } from '../site/store.ts';
import type { SourceFlags } from './options.ts';
import type { RunControls, SourceInput } from './types.ts';

/** A source opened for a run, with how to close it. */
export interface OpenedInput {
  source: PageSource;
  /** The source as given (a path or URL), or its root. */
  spec: string;
  close(): Promise<void>;
}

/** Opens a run's source (see the module comment); `maxPages` bounds what `pages()` yields. */
export async function openInput(input: SourceInput, controls: RunControls = {}): Promise<OpenedInput> {
  let source: PageSource;
  let spec: string;
  let close: () => Promise<void>;
  if (typeof input === 'string') {
    const { openSource } = await import('../site/source.ts');
    source = await openSource(input, controls.sourceOptions ?? {});
    spec = input;
    close = () => source.close();
  } else {
    source = input;
    spec = input.root;
    close = async () => undefined;
  }
  if (controls.maxPages !== undefined) source = limitPages(source, controls.maxPages);
  return { source: warningsOnce(source, (w) => controls.onWarning?.(w)), spec, close };
}

/**
 * A view of `source` whose pages come without their warnings (a charset their bytes contradict…), each
 * told to `warn` the first time it is met: once a run, however many times its engine reads the page, and
 * whatever thread then handles it. `each` is called for every page read.
 */
export function warningsOnce(source: PageSource, warn: (warning: string) => void, each?: () => void, signal?: AbortSignal): PageSource {
  const told = new Set<string>();
  return withPages(source, async function* (o) {
    for await (const r of source.pages(o)) {
      if (signal?.aborted) return;
      if (r.ok) each?.();
      if (r.ok && r.warnings) {
        for (const w of r.warnings) {
          if (told.has(w)) continue;
          told.add(w);
          warn(w);
        }
        yield { ok: true, page: r.page };
        continue;
      }
      yield r;
    }
  });
}

/**
 * A view of `source` whose `pages()` yields at most `maxPages` items (Infinity: no limit), whoever asks.
 * Its `cut` is set when that limit (or the source's own cap) left pages out of a caller that asked for
 * more; a smaller `maxPages` the caller gave is the caller's, told to its own `onCut` only.
 */
export function limitPages(source: PageSource, maxPages: number): PageSource {
  let cut: PageCut | undefined;
  const view = withPages(source, (options = {}) => {
    const asked = options.maxPages ?? Infinity;
    return source.pages({
      ...options,
      maxPages: Math.min(asked, maxPages),
      onCut: (c) => {
        if (c.maxPages < asked) {
          if (c.left > (cut?.left ?? 0)) cut = c;
        } else options.onCut?.(c);
      },
    });
  });
  return Object.defineProperty(view, 'cut', { get: () => cut ?? source.cut });
}

/** summary.json's fields of a cut (see PageCut): `cappedAt` and `pagesLeftByCap`, or none. */
export function cutFields(c: PageCut | undefined): { cappedAt?: number; pagesLeftByCap?: number } {
  return c ? { cappedAt: c.maxPages, pagesLeftByCap: c.left } : {};
}

/** A view of `source` with another `pages()`; everything else is the source's. */
export function withPages(source: PageSource, pages: (options?: PageSourceOptions) => AsyncIterable<PageResult>): PageSource {
  return {
    get kind() {
      return source.kind;
    },
    get root() {
      return source.root;
    },
    get entry() {
      return source.entry;
    },
    get loaded() {
      return source.loaded;
    },
    get cut() {
      return source.cut;
    },
    pages,
    get: (urlOrKey) => source.get(urlOrKey),
    keyOf: (url) => source.keyOf(url),
    urlOf: (key) => source.urlOf(key),
    close: () => source.close(),
  };
}

/** Pages loaded over the network (the contract's `pagesLoaded`): downloads for HTTP, 0 for local sources. */
export function networkLoads(source: PageSource): number {
  return source.kind === 'http' ? source.loaded : 0;
}

/** The names of RunControls: what a pipeline's options hold besides its own (the engine's) options. */
const CONTROL_KEYS: ReadonlySet<string> = new Set(['sourceOptions', 'maxPages', 'labels', 'onProgress', 'onWarning', 'signal', 'rendered', 'textOnly']);

/** A pipeline's own options: `options` without the run's controls and the names in `also`. */
export function ownOptions(options: Readonly<Record<string, unknown>>, also: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (!CONTROL_KEYS.has(k) && !also.includes(k)) out[k] = v;
  return out;
}

/** What opening a source from the source options takes besides them. */
export interface SourceHooks {
  /** Ends the reading: the source stops yielding pages once it is aborted. */
  signal?: AbortSignal;
  /** A diagnostic line (an option that does not apply to this kind of source). */
  warn?: (message: string) => void;
  /** Called for each page read. */
  onPageRead?: () => void;
  /** A line of information once the source is closed (what the sitemaps gave). */
  info?: (message: string) => void;
  /** The order of a crawl over HTTP (another kind of source is read in its own order, and `warn` says so). */
  linkPriority?: SourceOptions['linkPriority'];
}

/** A source opened from the source options, with what must be closed after the run. */
export interface OpenedSource {
  source: PageSource;
  /** Closes the source and the resume store (if any). */
  close(): Promise<void>;
}

/**
 * Opens `spec` (a directory, a .warc/.warc.gz file, a glob or an http(s) URL) with the source options as the
 * command line gives them (SOURCE_OPTIONS): `maxPages` bounds every kind of source (a crawl stops at
 * `FETCH_DEFAULTS.maxPages` without it; the view's `cut` says when a cap left pages out); the fetch options,
 * `store`, `include` and `exclude` apply to URLs (given with a local source, `warn` says so). A bad `spec`
 * is a UsageError; a store or a source that cannot be opened a GabaritError.
 */
export async function openWithOptions(spec: string, flags: SourceFlags, hooks: SourceHooks = {}): Promise<OpenedSource> {
  const [{ openSource }, { isHttpUrl }] = await Promise.all([import('../site/source.ts'), import('../site/keys.ts')]);
  const http = isHttpUrl(spec);
  let store: Store | undefined;
  if (flags.store !== undefined) {
    if (http) {
      const { Store } = await import('../site/store.ts');
      try {
        store = await Store.open(resolve(flags.store));
      } catch (err) {
        throw new GabaritError(`cannot open the store ${flags.store}: ${(err as Error).message}`);
      }
    } else {
      hooks.warn?.(`--store applies to URL sources only; ${spec} is read directly`);
    }
  }
  const options: SourceOptions = {
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    userAgent: flags.userAgent,
    delayMs: flags.delay,
    concurrencyPerHost: flags.concurrency,
    ...(flags.maxPages !== undefined ? { maxPages: flags.maxPages } : {}),
    maxBytes: flags.maxBytes,
    timeoutMs: flags.timeout,
  };
  if (store) options.store = store;
  if (flags.include || flags.exclude) {
    if (http) {
      if (flags.include) options.include = flags.include;
      if (flags.exclude) options.exclude = flags.exclude;
    } else hooks.warn?.(`--include and --exclude apply to the crawl of a URL; ${spec} is read whole`);
  }
  if (flags.sitemap !== undefined || flags.sitemapOnly) {
    if (http) {
      if (flags.sitemap !== undefined) options.sitemap = flags.sitemap;
      if (flags.sitemapOnly) options.sitemapOnly = true;
    } else hooks.warn?.(`--sitemap and --sitemap-only apply to the crawl of a URL; ${spec} is read whole`);
  }
  if (hooks.linkPriority) {
    if (http) options.linkPriority = hooks.linkPriority;
    else hooks.warn?.(`the crawl order applies to URL sources only; ${spec} is read in its own order`);
  }
  let source: PageSource;
  try {
    source = await openSource(spec, options);
  } catch (err) {
    await store?.close();
    if (err instanceof GabaritError) throw err;
    throw new GabaritError(`cannot read ${spec}: ${(err as Error).message}`);
  }
  const { signal, onPageRead } = hooks;
  const limited = limitPages(source, flags.maxPages ?? Infinity);
  const watched = warningsOnce(limited, (w) => hooks.warn?.(w), onPageRead, signal);
  return {
    source: watched,
    close: async () => {
      await source.close();
      await store?.close();
      const sm = (source as { sitemaps?: SitemapStats }).sitemaps;
      if (sm) hooks.info?.(`gabarit: ${spec}: sitemaps: ${sm.read} read, ${sm.failed} failed, ${sm.listed} URLs listed, ${sm.kept} queued for the crawl`);
    },
  };
}
