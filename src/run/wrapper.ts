/**
 * Wrappers on pages given as a user gives them (`gabarit wrapper create|run`, the UI, scripts): the pages
 * are opened as every command opens a source, with the same checks; `createWrapperOn` learns a wrapper
 * from selectors on the first page and from example values given per page; `runWrapperOn` runs one on
 * every page of its sources.
 *
 * Pages: an http(s) URL is one page, fetched as a guest (robots.txt, a delay between requests to a host,
 * size and time limits); its address is the URL after redirects. Anything else is opened by site/source.ts
 * (a page file, a directory of pages, a .warc/.warc.gz file, a quoted glob of these), so its pages get the
 * checks of site/check.ts (the size cap, empty, binary) and the same messages. A page file is named as
 * given, other local pages by their path, a WARC's pages by their URL (which is their address too).
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.ts';
import type { Tree } from '../html/tree.ts';
import type { PageFailure } from '../output.ts';
import { isGlob } from '../site/glob.ts';
import type { Fetcher } from '../site/fetch.ts';
import { type Page, type PageSource, parsePage } from '../site/page.ts';
import { LabelTable } from '../html/labels.ts';
import type { TreeParts } from '../template/pagelets/tree-transfer.ts';
import { createFromExamples, createWrapper, type CreateOptions, type ExampleChoice, type ExamplePage, type PatternSpec } from '../wrapper/create.ts';
import { runWrapper, type PageRun, type RunOptions } from '../wrapper/run.ts';
import type { Wrapper } from '../wrapper/wrapper.ts';

/** How pages given as URLs are fetched, and the largest page accepted (every page). */
export interface WrapperFetchOptions {
  userAgent: string;
  delay: number;
  timeout: number;
  maxBytes: number;
}

/** A page, loaded: the name records and messages give it, its tree, its http(s) address when it has one. */
export interface LoadedPage {
  ok: true;
  name: string;
  tree: Tree;
  url?: string;
}
/** A page that could not be used: its name and the failure summary.json lists. */
export interface LoadFailure {
  ok: false;
  name: string;
  failure: PageFailure;
}
/** A page argument, opened: a source, or null for an http(s) URL (one page, fetched). */
interface Opened {
  spec: string;
  source: PageSource | null;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** True when `spec` names one page: an http(s) URL or a page file. */
export function isOnePage(spec: string): boolean {
  return /^https?:\/\//i.test(spec) || (!isGlob(spec) && isFile(spec));
}

/** A file:// URL as a path: relative to the working directory when inside it, else absolute. */
function localName(url: string): string {
  const path = fileURLToPath(url);
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** A message without the page name it may start with (the caller names the page). */
function unprefixed(message: string, page: string): string {
  return message.startsWith(page + ': ') ? message.slice(page.length + 2) : message;
}

/** How the pages of an opened source are named: a page file as given, other local pages by their path, others by their URL. */
function pageNamer({ spec, source }: Opened & { source: PageSource }): (url: string) => string {
  const single = !isGlob(spec) && isFile(spec) && source.kind === 'dir';
  return (url) => (single ? spec : /^https?:/i.test(url) ? url : localName(url));
}

/** The pages of the wrapper commands (see the module comment). */
export class PageLoader {
  private fetcher: Fetcher | null = null;
  private readonly sources: PageSource[] = [];
  /** Pages fetched over the network. */
  fetched = 0;
  constructor(private readonly flags: WrapperFetchOptions) {}

  /**
   * Opens each argument before any page is read, so that a missing path or a glob that matches nothing is
   * a usage error up front. `onePage`: only http(s) URLs and page files are accepted.
   */
  async open(specs: readonly string[], onePage = false): Promise<Opened[]> {
    const { openSource, isWarcPath } = await import('../site/source.ts');
    const missing = specs.filter((p) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(p) && !isGlob(p) && !existsSync(p));
    if (missing.length > 0) throw new UsageError(`no such page file: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? `, … (${missing.length} in all)` : ''}`);
    const out: Opened[] = [];
    for (const spec of specs) {
      if (/^https?:\/\//i.test(spec)) {
        out.push({ spec, source: null });
        continue;
      }
      if (onePage && (isGlob(spec) || isWarcPath(spec) || !isFile(spec))) throw new UsageError(`${spec}: give one page, an HTML file or an http(s) URL`);
      const source = await openSource(spec, { maxBytes: this.flags.maxBytes });
      this.sources.push(source);
      out.push({ spec, source });
    }
    return out;
  }

  /** The pages of the opened arguments, in order: each loaded, or named with why it could not be. */
  async *pages(opened: readonly Opened[]): AsyncIterable<LoadedPage | LoadFailure> {
    const { parsePage } = await import('../site/page.ts');
    const { LabelTable } = await import('../html/labels.ts');
    const { asPageError } = await import('../site/check.ts');
    for (const { spec, source } of opened) {
      if (!source) {
        const { Fetcher } = await import('../site/fetch.ts');
        this.fetcher ??= new Fetcher({ userAgent: this.flags.userAgent, delayMs: this.flags.delay, timeoutMs: this.flags.timeout, maxBytes: this.flags.maxBytes });
        let page;
        try {
          page = await this.fetcher.fetch(spec);
        } catch (e) {
          const err = asPageError(spec, e);
          yield { ok: false, name: spec, failure: { url: spec, key: spec, code: err.code, message: unprefixed(err.message, spec) } };
          continue;
        }
        this.fetched++;
        yield { ok: true, name: spec, tree: parsePage(page, new LabelTable()), url: page.url };
        continue;
      }
      const nameOf = pageNamer({ spec, source });
      for await (const r of source.pages()) {
        if (!r.ok) {
          yield { ok: false, name: nameOf(r.url), failure: { url: r.url, key: r.key, code: r.error.code, message: unprefixed(r.error.message, r.url) } };
          continue;
        }
        for (const w of r.warnings ?? []) process.stderr.write(`gabarit: warning: ${w}\n`);
        const tree = parsePage(r.page, new LabelTable());
        const name = nameOf(r.page.url);
        yield /^https?:/i.test(r.page.url) ? { ok: true, name, tree, url: r.page.url } : { ok: true, name, tree };
      }
    }
  }

  async close(): Promise<void> {
    await this.fetcher?.close();
    await Promise.all(this.sources.splice(0).map((s) => s.close()));
  }
}

/** Example values of one page: per name, a value, or a list of values (a list pattern). */
export type ExampleValues = Record<string, string | string[]>;

/** What `createWrapperOn` is given besides the pages. */
export interface CreateOnOptions extends CreateOptions {
  /** Patterns by selector, evaluated on the first page. */
  patterns?: readonly PatternSpec[];
  /** Per page (in the order of the pages), the example values to find there. */
  examples?: ReadonlyArray<ExampleValues | undefined>;
  fetch: WrapperFetchOptions;
}

/** A wrapper created on pages, with what was chosen for each example name and what could not be. */
export interface Created {
  wrapper: Wrapper;
  /** Per example name: its pattern, and on how many of the example pages that give it a value it holds. */
  choices: ExampleChoice[];
  /** Example names whose values were found on no page. */
  missing: string[];
  /** Example names whose values are on the pages but that no one selector extracts. */
  unextracted: string[];
  /** The names of the pages, in order. */
  pages: string[];
}

/** A page that could not be used to create a wrapper (the CLI's "nothing could be done"). */
export class PageUnusable extends UsageError {}

/**
 * A wrapper from pages (each an HTML file or an http(s) URL): the patterns given by selector, on the first
 * page, and the patterns learned from example values given per page (wrapper/create.ts
 * `createFromExamples`: one pattern per name from all the pages that give it values). Throws a
 * PageUnusable naming a page that could not be read, a UsageError for a page that is not one page, a
 * WrapperError for a pattern that cannot be made.
 */
export async function createWrapperOn(specs: readonly string[], options: CreateOnOptions): Promise<Created> {
  if (specs.length === 0) throw new UsageError('give at least one page');
  const loader = new PageLoader(options.fetch);
  const pages: LoadedPage[] = [];
  try {
    for await (const p of loader.pages(await loader.open(specs, true))) {
      if (!p.ok) throw new PageUnusable(`${p.name}: ${p.failure.message}`);
      pages.push(p);
    }
  } finally {
    await loader.close();
  }
  const first = pages[0];
  if (!first) throw new PageUnusable(`${specs[0]}: not a page`);
  const { patterns, examples, fetch: _fetch, ...rest } = options;
  const create: CreateOptions = { ...rest };
  if (create.source === undefined) create.source = specs.length === 1 ? specs[0]! : specs.join(', ');
  if (create.url === undefined && first.url !== undefined) create.url = first.url;
  let wrapper = patterns && patterns.length > 0 ? createWrapper(first.tree, patterns, create) : null;
  const out: Created = { wrapper: wrapper!, choices: [], missing: [], unextracted: [], pages: pages.map((p) => p.name) };
  const given: ExamplePage[] = [];
  pages.forEach((p, k) => {
    const values = examples?.[k];
    if (values && Object.keys(values).length > 0) given.push({ tree: p.tree, values });
  });
  if (given.length > 0) {
    const r = createFromExamples(given, create);
    Object.assign(out, { choices: r.choices, missing: r.missing, unextracted: r.unextracted });
    const names = new Set((wrapper?.patterns ?? []).map((p) => p.name));
    for (const p of r.wrapper.patterns) if (names.has(p.name)) throw new UsageError(`"${p.name}" is given both as a pattern and as an example`);
    wrapper = wrapper ? { ...wrapper, patterns: [...wrapper.patterns, ...r.wrapper.patterns] } : r.wrapper;
  }
  if (!wrapper) throw new UsageError('give at least one pattern or example');
  out.wrapper = wrapper;
  return out;
}

/** One page of `runWrapperOn`: its run and tree, or why it could not be read. */
export type WrapperPageRun = (LoadedPage & { run: PageRun }) | LoadFailure;

/**
 * Runs a wrapper on every page of the sources given (see the module comment), in order. The sources are
 * opened first (a missing path, a glob that matches nothing: a UsageError before any page is read); then
 * `pages` yields each page with its run, or with why it could not be read, and closes the sources at its
 * end. `wrapper` is asked for the wrapper before each page (a caller may update it between pages); `url`
 * is the address of a single page; `fetched()` counts the pages fetched over the network.
 */
export async function runWrapperOn(
  wrapper: () => Wrapper,
  specs: readonly string[],
  options: { fetch: WrapperFetchOptions; settings?: RunOptions['settings']; url?: string; workers?: number },
): Promise<{ pages: AsyncIterable<WrapperPageRun>; fetched: () => number }> {
  if (options.url !== undefined && (specs.length !== 1 || !isOnePage(specs[0]!))) throw new UsageError('--url gives the address of one page; run the pages one at a time');
  const loader = new PageLoader(options.fetch);
  let opened: Opened[];
  try {
    opened = await loader.open(specs);
  } catch (e) {
    await loader.close();
    throw e;
  }
  const how = { ...(options.settings ? { settings: options.settings } : {}), ...(options.url !== undefined ? { url: options.url } : {}) };
  const workers = options.workers ?? 0;
  async function* pages(): AsyncIterable<WrapperPageRun> {
    try {
      for (const o of opened) {
        if (o.source && workers > 0) {
          yield* pooledPages(wrapper(), o as Opened & { source: PageSource }, how, workers);
          continue;
        }
        for await (const loaded of loader.pages([o])) {
          if (!loaded.ok) {
            yield loaded;
            continue;
          }
          const address = options.url ?? loaded.url;
          const run = runWrapper(wrapper(), loaded.tree, loaded.name, { ...how, ...(address !== undefined ? { url: address } : {}) });
          yield { ...loaded, run };
        }
      }
    } finally {
      await loader.close();
    }
  }
  return { pages: pages(), fetched: () => loader.fetched };
}

/** A page's tree and the wrapper's run on it (`name` names it; its http(s) URL is its address unless `how.url` says). */
export function wrapperPage(wrapper: Wrapper, page: Page, name: string, how: { settings?: RunOptions['settings']; url?: string }): { tree: Tree; run: PageRun } {
  const tree = parsePage(page, new LabelTable());
  const address = how.url ?? (/^https?:/i.test(page.url) ? page.url : undefined);
  return { tree, run: runWrapper(wrapper, tree, name, { ...(how.settings ? { settings: how.settings } : {}), ...(address !== undefined ? { url: address } : {}) }) };
}

/** The pages of a source, the wrapper run on each in the page pool (page-pool.ts), in order. */
async function* pooledPages(wrapper: Wrapper, o: Opened & { source: PageSource }, how: { settings?: RunOptions['settings']; url?: string }, workers: number): AsyncIterable<WrapperPageRun> {
  const [{ eachPage }, { treeFromParts }, { WrapperError }] = await Promise.all([import('./page-pool.ts'), import('../template/pagelets/tree-transfer.ts'), import('../wrapper/wrapper.ts')]);
  const nameOf = pageNamer(o);
  const work = {
    task: { kind: 'wrapper' as const, wrapper, ...how },
    inline: (p: Page) => wrapperPage(wrapper, p, nameOf(p.url), how),
    received: (a: Record<string, unknown>) => ({ tree: treeFromParts(a['parts'] as TreeParts), run: a['run'] as PageRun }),
    about: (p: Page) => ({ name: nameOf(p.url) }),
    warn: (w: string) => void process.stderr.write(`gabarit: warning: ${w}\n`),
    // A selector of the wrapper that cannot be run fails on every page: the wrapper is at fault.
    fatal: { is: (err: unknown) => err instanceof WrapperError, rebuild: (message: string) => new WrapperError(message) },
    workers,
  };
  for await (const h of eachPage(o.source.pages(), work)) {
    if (!h.ok) {
      const name = nameOf(h.failure.url);
      yield { ok: false, name, failure: { ...h.failure, message: unprefixed(h.failure.message, h.failure.url) } };
      continue;
    }
    const name = nameOf(h.page.url);
    yield { ok: true, name, tree: h.value.tree, ...(/^https?:/i.test(h.page.url) ? { url: h.page.url } : {}), run: h.value.run };
  }
}
