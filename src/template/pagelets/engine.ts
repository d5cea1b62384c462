/**
 * One file over 400 lines: the two phases share the run's tables, spool and worker pool and their cleanup;
 * the algorithms (partition, shingles, Figures 4 and 5) live in their own modules.
 *
 * The pagelets template engine (paper 3: Bar-Yossef & Rajagopalan, WWW 2002): pages are partitioned into
 * pagelets (Definition 2, Figure 3), pagelets are shingled, and templates are found by the local algorithm
 * (Figure 4, default: small page sets) or the global one (Figure 5, `--global`: whole sites, with links).
 * Template pagelets become template marks (result.ts); each page's report says how many of its pagelets
 * are template (summary.json also has its template fraction, the paper's Table 2 measure).
 *
 * Two phases:
 *  1. detection (`detectPagelets`, the paper's job): per page, once (inline for the first pages, then in
 *     worker threads): parse, partition, shingle, links → rows of PAGES, PAGELETS, LINKS (in memory, or
 *     streamed into DuckDB for `--global --backend sql`), with each pagelet's node range and text length;
 *     then Figure 4 or 5. Every page's template marks (node ranges) and template fraction follow from
 *     those rows: no page is parsed twice for them (`pageResults`);
 *  2. output (`markPagelets`, optional): the output contract needs each page's Tree, so small runs keep
 *     their trees (or raw pages) between the phases and large ones read the source again and parse each
 *     page again in the workers; each marked Tree is handed to `ctx.onPage`.
 * `runPagelets` (the engine) runs both. Memory does not grow with the number of pages beyond a few
 * integers per page and per template pagelet.
 */
import { textOf } from '../../html/text.ts';
import type { Tree } from '../../html/tree.ts';
import type { Page, PageSource } from '../../site/page.ts';
import type { EngineContext, EngineRun, LearningEngine } from '../engine.ts';
import { TEMPLATE_MARK } from '../result.ts';
import { learnPagelets } from './learn.ts';
import { compilePagelets, pageletTemplate } from './learned.ts';
import { PAGELET_DEFAULTS } from './defaults.ts';
import { PAGELET_OPTIONS, type PageletOptions } from './options.ts';
import type { Detection, SupportOptions } from './detection.ts';
import { detectLocal } from './local.ts';
import { detectGlobalInMemory } from './memory.ts';
import { linkBaseUrl } from './links.ts';
import { analyseTree, type AnalysisOptions, marksFromPagelets, parseBytes, type PageRecord, recordAt } from './page-analysis.ts';
import { partition } from './partition.ts';
import { type RecordKind, recordOfKind, renderHtml, RenderSpool, renderText } from './render.ts';
import { PageletTables } from './tables.ts';
import { type BatchPage, PageletPool } from './workers.ts';
import { INLINE_FIRST } from '../pool.ts';

/** Resolved options of a pagelets run. */
export type PageletRunOptions = PageletOptions;

/** Reads engine options (any subset, validated, defaults from defaults.ts); throws EngineError `bad-option`. */
export function runOptions(o: Readonly<Record<string, unknown>>): PageletRunOptions {
  return PAGELET_OPTIONS.parse(o);
}


/** A page kept between the passes: its tree when analysed inline, else its raw bytes. */
export interface Kept {
  page: Page;
  tree?: Tree;
  pagelets?: Int32Array;
  shingles?: Float64Array;
}

/** The backend holding PAGES / PAGELETS / LINKS for the run. */
interface Tables {
  add(rec: PageRecord): number;
  detect(): Promise<Detection>;
  close(): void;
}

function support(o: PageletRunOptions): SupportOptions {
  return { minPages: o.minPages, minSupport: o.minSupport, supportCap: o.supportCap };
}

async function openTables(o: PageletRunOptions): Promise<Tables> {
  if (o.global && o.backend === 'sql') {
    // With --db, the tables go into the site store (src/site/store.ts), schema `pagelets`, beside its
    // own pages and links; without, into a private DuckDB in memory that spills to a temporary directory.
    // DuckDB is loaded only here, by a run that uses it.
    const site = o.db === undefined ? undefined : await (await import('../../site/store.ts')).Store.open(o.db);
    const { SqlPageletStore } = await import('./global.ts');
    const store = await SqlPageletStore.open(site ? { connection: site.connection } : {});
    return {
      add: (rec) => store.add(rec),
      detect: () => store.detect({ ...support(o), listPages: store.size <= o.keepTreesUpTo }),
      close: () => {
        store.close();
        void site?.close();
      },
    };
  }
  const tables = new PageletTables();
  return {
    add: (rec) => tables.add(rec),
    detect: async () =>
      o.global
        ? detectGlobalInMemory(tables, { ...support(o), listPages: tables.size <= o.keepTreesUpTo })
        : detectLocal(tables, support(o)),
    close: () => undefined,
  };
}

/** What the detection phase needs of an EngineContext (no `onPage`: it writes nothing). */
export type DetectContext = Omit<EngineContext, 'onPage'>;

/** The outcome of the detection phase: the templates and, per page, its marks and template fraction. */
export interface PageletDetectionRun {
  readonly options: PageletRunOptions;
  readonly detection: Detection;
  /** Page id of each page key that was analysed (its index in the detection's per-page results). */
  readonly ids: Map<string, number>;
  /** Pass 1 ('pages'), detection ('detect', 'detect.<step>'), ms. */
  readonly timings: Record<string, number>;
  /** Worker threads pass 1 used (0: main thread only). */
  readonly workers: number;
  /** Small runs: pages (and the trees of those analysed inline) kept for the output phase. */
  readonly kept: Kept[] | null;
  /** Pass 1's render records, when the detection was asked for them (`spool`). */
  readonly spool?: RenderSpool;
  /** Closes the tables (DuckDB) when the detection was opened with `keepTables`, and the spool; else nothing to do. */
  close(): void;
}

/** Options of the detection phase. */
export interface DetectOptions {
  /**
   * Keep the tables open after detection so that `pageResults` can stream each page's node ranges from
   * them (call `close()` after); by default they are closed as soon as the detection is read back.
   */
  keepTables?: boolean;
  /**
   * Record in pass 1 what writing each page's output needs (render.ts), spooled to disk, so that the
   * output phase writes the files without parsing any page again (`ctx.onRendered`); implies `keepTables`.
   * `'text'`: only what the kept text and a JSON-lines record need (no page file is written from them).
   */
  spool?: boolean | RecordKind;
}

/** One page's result without its tree: template pagelet ordinals, their node ranges, template fraction. */
export interface PageletPageResult {
  key: string;
  id: number;
  ordinals: Int32Array;
  nodes: { start: Int32Array; count: Int32Array };
  templateFraction: number;
}

/**
 * The detection phase, the paper's job: pass 1 (parse, partition, shingle, links, once per page, in
 * worker threads), then Figure 4 or 5. Afterwards every page's template marks (node ranges of its template
 * pagelets) and template fraction are known without parsing it again (`pageResults`). The worker pool is
 * closed before the relational steps (no thread idles on its heap meanwhile) and the tables are closed
 * once their results are read back.
 */
export async function detectPagelets(ctx: DetectContext, detectOptions: DetectOptions = {}): Promise<PageletDetectionRun> {
  const o = runOptions(ctx.options);
  const timings: Record<string, number> = {};
  const tables = await openTables(o);
  const spool = detectOptions.spool ? RenderSpool.open(detectOptions.spool === 'text' ? 'text' : 'page') : undefined;
  let open = false;
  try {
    // ---- pass 1: PAGES, PAGELETS, LINKS ----
    let t = performance.now();
    const pass = await passOne(ctx, o, (rec) => tables.add(rec), spool);
    timings['pages'] = performance.now() - t;

    // ---- detection ----
    ctx.onProgress?.('detect', 0);
    t = performance.now();
    const detection = await tables.detect();
    timings['detect'] = performance.now() - t;
    for (const [step, ms] of Object.entries(detection.timings)) timings[`detect.${step}`] = ms;
    const keep = detectOptions.keepTables === true || spool !== undefined;
    if (keep) open = true;
    const close = (): void => {
      if (keep) tables.close();
      spool?.close();
    };
    return { options: o, detection, ids: pass.ids, timings, workers: pass.workers, kept: pass.kept, ...(spool ? { spool } : {}), close };
  } finally {
    if (!open) {
      tables.close();
      spool?.close();
    }
  }
}

/** What pass 1 gives: each analysed page's id, the workers used, and (small runs) the pages kept. */
export interface PassOne {
  ids: Map<string, number>;
  workers: number;
  kept: Kept[] | null;
}

/** The per-page work's options (page-analysis.ts), the same in pass 1 and in the marking pass. */
export function analysisOptions(o: PageletRunOptions): AnalysisOptions {
  return { k: o.k, width: o.shingleWidth, minhashes: o.minhashes, linkTargets: o.linkTargets, foldDigits: o.foldDigits, navigation: o.navigationPagelets, contentShare: o.contentShare, landmarks: o.landmarks, items: o.navigationItems };
}

/**
 * Pass 1 of the paper's job (section 3.2, "streaming through the pages"): every page of `ctx.source`
 * parsed, partitioned, shingled and its links collected, once (inline for the first pages, then in worker
 * threads, at most `batchesInFlight` batches per worker in flight); `add` takes each page's record and
 * returns its id. The workers are closed before it returns (their heaps would sit idle afterwards), unless
 * `keep` holds them for the next run (`KeptWorkers`).
 */
export async function passOne(ctx: DetectContext, o: PageletRunOptions, add: (rec: PageRecord) => number, spool?: RenderSpool, keep?: KeptWorkers): Promise<PassOne> {
  const analysis = analysisOptions(o);
  const ids = new Map<string, number>();
  let kept: Kept[] | null = [];
  let { pool, pooled } = await keep?.take(o.workers) ?? { pool: null as PageletPool | null, pooled: 0 };
  let finished = false;
  let usedWorkers = 0;
  const pipe = pipeline(o);
  const fail = (page: Page, err: unknown): void =>
    ctx.onFailure({ url: page.url, key: page.key, code: 'parse', message: `${page.url}: ${err instanceof Error ? err.message : String(err)}` });
  let seen = 0;
  try {
    // the page's id, or -1 when its key was seen before
    const ingest = (page: Page, rec: PageRecord): number => {
      if (ids.has(page.key)) return -1;
      const id = add(rec);
      ids.set(page.key, id);
      ctx.onProgress?.('pagelets', ids.size);
      return id;
    };
    const toSpool = (id: number, page: Page, pagelets: number, render: Uint8Array | undefined): void => {
      if (id < 0 || !spool) return;
      spool.put(id, page.url, pagelets, render && render.length > 0 ? { kind: 'render', bytes: render } : { kind: 'page', body: page.body, contentType: page.headers['content-type'] });
    };
    let batch: Page[] = [];
    let inOrder: Promise<void> = Promise.resolve();
    const analyseBatch = async (): Promise<void> => {
      const pages = batch;
      batch = [];
      pool = await recycled(pool, pooled, o.workerRecycle, pipe);
      if (pool === null) pooled = 0;
      pool ??= new PageletPool(o.workers);
      usedWorkers = pool.size;
      pooled += pages.length;
      // batches are taken in the order they were sent, so page ids follow the source's order whichever
      // worker finishes first (the first of duplicate pages is the same on every run)
      const analysed = pool.analyse(pages.map(toWorker), analysis, spool?.kind);
      const work = (inOrder = inOrder.then(() => analysed).then(
        (b) => {
          for (let j = 0; j < pages.length; j++) {
            const page = pages[j]!;
            const error = b.error[j];
            if (error != null) fail(page, error);
            else {
              const rec = recordAt(b, j, page.key, linkBaseUrl(page));
              toSpool(ingest(page, rec), page, rec.pagelets.length, b.render?.[j]);
            }
          }
        },
        (err: unknown) => {
          for (const page of pages) fail(page, err);
        },
      ));
      await pipe.track(work);
    };
    for await (const r of ctx.source.pages()) {
      if (ctx.signal?.aborted) break;
      if (!r.ok) {
        ctx.onFailure({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
        continue;
      }
      const page = r.page;
      seen++;
      if (kept && seen > o.keepTreesUpTo) kept = null;
      if (o.workers <= 0 || seen <= INLINE_FIRST) {
        try {
          const tree = parseBytes(page.body, page.headers['content-type'], page.key, ctx.labels);
          const rec = analyseTree(tree, page.key, linkBaseUrl(page), analysis);
          const id = ingest(page, rec);
          if (spool && id >= 0) {
            toSpool(id, page, rec.pagelets.length, recordOfKind(tree, spool.kind));
          }
          kept?.push({ page, tree, pagelets: rec.pagelets, shingles: rec.shingles });
        } catch (err) {
          fail(page, err);
        }
        continue;
      }
      kept?.push({ page });
      batch.push(page);
      if (batch.length >= PAGELET_DEFAULTS.workerBatch) await analyseBatch();
    }
    if (batch.length > 0) await analyseBatch();
    await pipe.drain();
    finished = true;
    return { ids, workers: usedWorkers, kept };
  } finally {
    await KeptWorkers.give(keep, finished, pool as PageletPool | null, pooled);
  }
}

/**
 * Worker threads kept from one run to the next (`passOne`'s and `markPagelets`' `keep`: the shards one
 * process handles in turn), still replaced after `workerRecycle` pages. A fresh thread spends seconds of
 * CPU compiling the per-page code and filling its caches before it runs at full speed (docs/spark.md):
 * once a shard otherwise. `close` stops them.
 */
export class KeptWorkers {
  pool: PageletPool | null = null;
  /** Pages `pool` has handled. */
  pooled = 0;

  /** The kept pool when it has `workers` threads (else it is closed), and its count; the caller owns it until `give`. */
  async take(workers: number): Promise<{ pool: PageletPool | null; pooled: number }> {
    const { pool, pooled } = this;
    this.pool = null;
    this.pooled = 0;
    if (pool && pool.size === Math.max(1, workers)) return { pool, pooled };
    await pool?.close();
    return { pool: null, pooled: 0 };
  }

  /** Keeps `pool` in `keep` after a run that finished; closes it otherwise (no `keep`, or a run that failed). */
  static async give(keep: KeptWorkers | undefined, finished: boolean, pool: PageletPool | null, pooled: number): Promise<void> {
    if (keep && finished && pool) {
      await keep.close();
      keep.pool = pool;
      keep.pooled = pooled;
    } else await pool?.close();
  }

  async close(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    this.pooled = 0;
    await p?.close();
  }
}

/**
 * Every analysed page's result (marks as node ranges, template fraction), in page-id order, without
 * parsing any page. On the SQL backend the node ranges stream from the tables (detect with `keepTables`).
 * The arrays given to `onPage` are only valid during the call.
 */
export async function pageResults(run: PageletDetectionRun, onPage: (r: PageletPageResult) => void): Promise<void> {
  const d = run.detection;
  const keys: string[] = new Array<string>(d.counts.pages);
  for (const [key, id] of run.ids) keys[id] = key;
  await d.eachTemplateNodes((id, start, count) => {
    onPage({ key: keys[id]!, id, ordinals: d.templateOrdinals(id), nodes: { start, count }, templateFraction: d.templateFraction(id) });
  });
}

/** What the output phase needs of a detection: each page's id and template ordinals (a shard's, too). */
export type MarkInput = Pick<PageletDetectionRun, 'options' | 'ids' | 'kept' | 'workers'> & {
  detection: Pick<Detection, 'templateOrdinals'> & Partial<Pick<Detection, 'eachTemplateNodes' | 'templateFraction'>>;
  spool?: RenderSpool;
};

/**
 * The output phase without a second parse: every page's files rendered from its pass-1 record and its
 * template pagelets' node ranges (streamed in page order), handed to `onRendered`; a page that has no
 * record (render.ts could not make one) is parsed again here and handed to `ctx.onPage` with its tree.
 */
async function writeFromSpool(run: MarkInput & { spool: RenderSpool }, ctx: MarkContext, onRendered: NonNullable<EngineContext['onRendered']>): Promise<number> {
  const d = run.detection;
  if (!d.eachTemplateNodes || !d.templateFraction) throw new Error('pagelets: the detection gives no node ranges to write from');
  const fraction = d.templateFraction;
  const keys: string[] = new Array<string>(run.ids.size);
  for (const [key, id] of run.ids) keys[id] = key;
  let marked = 0;
  await d.eachTemplateNodes(async (id, start, count) => {
    const got = run.spool.get(id);
    const key = keys[id];
    if (!got || key === undefined) return;
    const extra = { pagelets: got.pagelets, templatePagelets: start.length };
    marked++;
    if (got.entry.kind === 'render') {
      const r = got.entry.record;
      // a text record (render.ts `recordText`) has no page file: its title instead
      const html = r.title === undefined ? renderHtml(r, start, count, TEMPLATE_MARK) : '';
      await onRendered({ key, url: got.url, html, text: renderText(r, start, count), templateFraction: fraction(id), ...(r.title !== undefined ? { title: r.title } : {}) }, extra);
      return;
    }
    const tree = parseBytes(got.entry.body, got.entry.contentType, key, ctx.labels);
    const template = new Uint8Array(tree.size);
    for (let j = 0; j < start.length; j++) template.fill(1, start[j]!, start[j]! + count[j]!);
    await ctx.onPage({ key, url: got.url, tree, template }, extra);
  });
  return marked;
}

/** What the output phase needs of a run: the source only when pages are read again (no records of pass 1). */
export type MarkContext = Omit<EngineContext, 'source'> & { source?: PageSource };

/**
 * The output phase (optional, streamed): the output contract needs each page's Tree with its marks, so the
 * pages are read from the source again and parsed again in worker threads (small runs keep theirs), and
 * each marked page is handed to `ctx.onPage`. Returns the number of pages handed over, and samples of
 * template texts (from the trees kept on small runs) for template.json. `keep` keeps the worker threads for
 * the next run (`KeptWorkers`).
 */
export async function markPagelets(run: MarkInput, ctx: MarkContext, keep?: KeptWorkers): Promise<{ marked: number; samples: Map<number, string>; workers: number }> {
  const o = run.options;
  const analysis = analysisOptions(o);
  const { detection, ids, kept } = run;
  const pipe = pipeline(o);
  let { pool, pooled } = await keep?.take(o.workers) ?? { pool: null as PageletPool | null, pooled: 0 };
  let finished = false;
  const fail = (page: Page, err: unknown): void =>
    ctx.onFailure({ url: page.url, key: page.key, code: 'parse', message: `${page.url}: ${err instanceof Error ? err.message : String(err)}` });
  const samples = new Map<number, string>();
  let marked = 0;
  let chain = Promise.resolve();
  const emit = (page: Page, tree: Tree, marks: Uint8Array, pagelets: number, ordinals: Int32Array): Promise<void> => {
    marked++;
    chain = chain.then(() => ctx.onPage({ key: page.key, url: page.url, tree, template: marks }, { pagelets, templatePagelets: ordinals.length }));
    return chain;
  };
  try {
    if (run.spool && ctx.onRendered && !kept) return { marked: await writeFromSpool(run as MarkInput & { spool: RenderSpool }, ctx, ctx.onRendered), samples, workers: 0 };
    const markInline = async (page: Page, entry: Kept | undefined, ordinals: Int32Array): Promise<void> => {
      if (entry?.tree && entry.pagelets) {
        const marks = marksFromPagelets(entry.tree, entry.pagelets, ordinals);
        if (entry.shingles && samples.size < 200) sampleTexts(entry.tree, entry.pagelets, entry.shingles, ordinals, samples);
        await emit(page, entry.tree, marks, entry.pagelets.length, ordinals);
        return;
      }
      const tree = parseBytes(page.body, page.headers['content-type'], page.key, ctx.labels);
      const pagelets = partition(tree, { k: o.k, landmarks: o.landmarks });
      await emit(page, tree, marksFromPagelets(tree, pagelets, ordinals), pagelets.length, ordinals);
    };
    let markPages: Page[] = [];
    let markOrdinals: Int32Array[] = [];
    let inOrder: Promise<void> = Promise.resolve();
    const markBatch = async (): Promise<void> => {
      const pages = markPages;
      const ordinals = markOrdinals;
      markPages = [];
      markOrdinals = [];
      pool = await recycled(pool, pooled, o.workerRecycle, pipe);
      if (pool === null) pooled = 0;
      pool ??= new PageletPool(o.workers);
      pooled += pages.length;
      // batches are handed on in the order they were sent, whichever worker finishes first: the output
      // (a shard's pages.jsonl) follows the source's order on every run
      const replies = pool.mark(pages.map(toWorker), ordinals, analysis);
      const work = (inOrder = inOrder.then(() => replies).then(
        async (replies) => {
          for (let j = 0; j < pages.length; j++) {
            const m = replies[j]!;
            if (m instanceof Error) fail(pages[j]!, m);
            else void emit(pages[j]!, m.tree, m.marks, m.pagelets, ordinals[j]!);
          }
          await chain;
        },
        (err: unknown) => {
          for (const page of pages) fail(page, err);
        },
      ));
      await pipe.track(work);
    };
    // pages already scheduled, by id (a key seen twice in the source is marked once): a byte a page
    const done = new Uint8Array(ids.size);
    const schedule = async (page: Page, entry: Kept | undefined): Promise<void> => {
      const id = ids.get(page.key);
      if (id === undefined || done[id] === 1) return;
      done[id] = 1;
      const ordinals = detection.templateOrdinals(id);
      if (entry?.tree || o.workers <= 0 || run.workers === 0) {
        await markInline(page, entry, ordinals).catch((err: unknown) => fail(page, err));
        return;
      }
      markPages.push(page);
      markOrdinals.push(ordinals);
      if (markPages.length >= PAGELET_DEFAULTS.workerBatch) await markBatch();
    };
    if (kept) {
      for (const entry of kept) await schedule(entry.page, entry);
    } else {
      if (!ctx.source) throw new Error("pagelets: the output phase reads the pages again (no records of pass 1 to write from) and was given no source");
      for await (const r of ctx.source.pages()) {
        if (ctx.signal?.aborted) break;
        if (r.ok) await schedule(r.page, undefined);
      }
    }
    if (markPages.length > 0) await markBatch();
    await pipe.drain();
    await chain;
    finished = true;
    return { marked, samples, workers: pool ? o.workers : 0 };
  } finally {
    await KeptWorkers.give(keep, finished, pool as PageletPool | null, pooled);
  }
}

/** Runs the pagelets engine over `ctx.source`: the detection phase, then the output phase. */
export async function runPagelets(ctx: EngineContext): Promise<EngineRun> {
  // a writer that takes rendered pages gets them from pass 1's records: no page is parsed twice
  const run = await detectPagelets(ctx, { spool: ctx.onRendered === undefined ? false : ctx.textOnly ? 'text' : 'page' });
  const { detection, ids, options: o } = run;
  const timings = { ...run.timings };
  const t = performance.now();
  let out: Awaited<ReturnType<typeof markPagelets>>;
  try {
    out = await markPagelets(run, ctx);
  } finally {
    run.close();
  }
  timings['marks'] = performance.now() - t;
  const templates = detection.templates.slice(0, 1000).map((tpl) => {
    const keys = tpl.pages ? Array.from(tpl.pages.subarray(0, 5), (p) => keyOf(ids, p)) : undefined;
    return { shingle: tpl.shingle.toString(16), pages: tpl.size, ...(keys ? { examplePages: keys } : {}), ...(out.samples.has(tpl.shingle) ? { sample: out.samples.get(tpl.shingle) } : {}) };
  });
  return {
    template: pageletTemplate(detection, o, ctx, {
      algorithm: detection.algorithm,
      paper: 'Bar-Yossef & Rajagopalan, Template Detection via Data Mining and its Applications (WWW 2002)',
      options: { k: o.k, shingleWidth: o.shingleWidth, minhashes: o.minhashes, linkTargets: o.linkTargets, foldDigits: o.foldDigits, navigationPagelets: o.navigationPagelets, contentShare: o.contentShare, landmarks: o.landmarks, navigationItems: o.navigationItems, minPages: o.minPages, minSupport: o.minSupport, supportCap: o.supportCap, backend: o.global ? o.backend : 'memory' },
      counts: detection.counts,
      templateCount: detection.templates.length,
      templates,
    }),
    summary: { pagelets: { algorithm: detection.algorithm, ...detection.counts, pagesMarked: out.marked, workers: Math.max(run.workers, out.workers) } },
    timings,
  };
}

/** A page as a worker takes it. */
function toWorker(page: Page): BatchPage {
  return { body: page.body, contentType: page.headers['content-type'], key: page.key, url: linkBaseUrl(page) };
}

/**
 * Bounded pipeline: pages go to the workers in batches; at most `batchesInFlight` batches per worker are
 * waiting or running, so the pages held in memory do not depend on the size of the source.
 */
/**
 * The pool to use for the next batch: `pool` itself, or null (the caller opens a fresh one) once it has
 * handled `limit` pages (`workerRecycle`); then the batches in flight are awaited and its workers
 * closed, so that their heaps, which grow with the pages parsed, are given back.
 */
async function recycled(pool: PageletPool | null, pooled: number, limit: number, pipe: ReturnType<typeof pipeline>): Promise<PageletPool | null> {
  if (!pool || pooled < limit) return pool;
  await pipe.drain();
  await pool.close();
  return null;
}

function pipeline(o: PageletRunOptions): { track(p: Promise<void>): Promise<void>; drain(): Promise<void> } {
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = Math.max(1, o.workers) * PAGELET_DEFAULTS.batchesInFlight;
  return {
    async track(p) {
      const q = p.finally(() => inFlight.delete(q));
      inFlight.add(q);
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    },
    async drain() {
      await Promise.all(inFlight);
    },
  };
}

/** Reverse lookup of a page id (only for the few example pages of template.json). */
function keyOf(ids: Map<string, number>, id: number): string {
  for (const [k, v] of ids) if (v === id) return k;
  return String(id);
}

/** Records the text of template pagelets (first 120 characters) as samples for template.json. */
function sampleTexts(tree: Tree, pagelets: Int32Array, shingles: Float64Array, ordinals: Int32Array, samples: Map<number, string>): void {
  for (const ord of ordinals) {
    const s = shingles[ord]!;
    if (samples.has(s)) continue;
    samples.set(s, textOf(tree, pagelets[ord]!).replace(/\s+/g, ' ').slice(0, 120));
  }
}

export { linkBaseUrl };

export { PAGELET_OPTIONS };

/** The pagelets engine (registered in src/template/engines.ts). */
const engine: LearningEngine<typeof PAGELET_OPTIONS.shape> = {
  name: 'pagelets',
  description: 'pagelets and shingles, local or global template detection (Bar-Yossef & Rajagopalan 2002)',
  options: PAGELET_OPTIONS,
  run: runPagelets,
  learn: learnPagelets,
  compile: compilePagelets,
};
export default engine;

