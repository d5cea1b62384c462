/**
 * One file over 400 lines: Figure 5's relational steps, one after the other, read as the paper's figure
 * does.
 *
 * The global template detection algorithm (paper 3, section 3.2, Figure 5) as relational steps over the
 * paper's tables PAGES, LINKS and PAGELETS in embedded DuckDB. Pages are ingested streaming (appender,
 * data chunks of up to 2,048 rows); DuckDB keeps the tables on disk or in memory within its memory limit
 * and spills beyond it, so the JavaScript side holds one batch at a time.
 *
 * Tables live in their own schema `pagelets` (so they sit beside the site store's own `pages`/`links`):
 *   pagelets.pages    (page INTEGER, url DOUBLE, fingerprint DOUBLE, chars INTEGER)      -- PAGES
 *   pagelets.links    (src INTEGER, dest DOUBLE)                                         -- LINKS (dest: target URL id)
 *   pagelets.pagelets (page INTEGER, ordinal INTEGER, shingle DOUBLE,
 *                      node INTEGER, nodes INTEGER, chars INTEGER)                         -- PAGELETS
 * `chars` of a page is its body's text characters, of a pagelet its own; `node`/`nodes` are the pagelet's
 * node range in the page's Tree. With them, each page's template marks and template fraction come out of
 * the tables without parsing the page again.
 * Hashes are 53-bit integers held in DOUBLE columns: exact, and appended without a BigInt per row.
 *
 * Steps (each one SQL statement or two; timings are reported per step):
 *   (0)  duplicates: pages with the same fingerprint keep the first (Figure 4 step (1), applied here too);
 *        LINKS targets are resolved to unique pages (PAGE_LINKS, self-links dropped);
 *   (1)  TEMPLATE_SHINGLES: shingles on at least `minPages` distinct unique pages;
 *   (2)  TEMPLATE_CANDIDATES: pagelets whose shingle is in TEMPLATE_SHINGLES;
 *   (3)  TEMPLATE_LINKS: the triple join T1.page = LINKS.src, T2.page = LINKS.dest, T1.shingle = T2.shingle;
 *   (4)  enumerate the shingles, loading each one's links into memory (streamed, ordered by shingle);
 *   (5)  undirected connected components per shingle (union-find); non-singletons are templates.
 *   The template pagelets are the candidates whose page has a template link for their shingle (exactly
 *   the pages of non-singleton components), read back ordered by page: per page, template ordinals, node
 *   ranges and template fraction, in typed arrays (12 bytes a template pagelet, 12 a page).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOUBLE, DuckDBDataChunk, INTEGER, DuckDBInstance, type DuckDBConnection, type DuckDBAppender } from '@duckdb/node-api';
import { type Detection, OrdinalBits, SUPPORT_DEFAULTS, type TemplateFound } from './detection.ts';
import { UnionFind } from '../../structure/union-find.ts';
import { PAGELET_DEFAULTS } from './defaults.ts';
import { withDefaults } from '../../filled.ts';
import type { GlobalOptions } from './memory.ts';
import { sortTemplates } from './memory.ts';
import type { PageRecord } from './page-analysis.ts';
import { NO_SHINGLE } from './shingle.ts';
import { runPlan } from './sql-run.ts';
import { figure5Plan } from './sql-steps.ts';

/** `SqlStoreOptions` defaults (PAGELET_DEFAULTS). */
const STORE_DEFAULTS = { memoryLimit: PAGELET_DEFAULTS.duckdbMemoryLimit, ingestMemoryLimit: PAGELET_DEFAULTS.duckdbIngestMemoryLimit };


/** Where the tables live. */
export interface SqlStoreOptions {
  /** An open DuckDB connection (e.g. the site Store's); when absent a private database is opened. */
  connection?: DuckDBConnection;
  /** Database file for a private database (default: in memory, spilling to a temporary directory). */
  path?: string;
  /** DuckDB memory limit of a private database for the relational steps (default `PAGELET_DEFAULTS.duckdbMemoryLimit`). */
  memoryLimit?: string;
  /** DuckDB memory limit of a private database while rows are appended (default `PAGELET_DEFAULTS.duckdbIngestMemoryLimit`). */
  ingestMemoryLimit?: string;
  /** DuckDB threads (default: DuckDB's own choice, the number of cores). */
  threads?: number;
  /** Rows per appended data chunk (max 2048, DuckDB's vector size). */
  chunkRows?: number;
}

const CHUNK = 2048;

/** Buffers the rows of one table and appends them as data chunks. */
class ChunkAppender {
  private readonly cols: number[][];
  private readonly chunk: DuckDBDataChunk;
  constructor(
    private readonly appender: DuckDBAppender,
    types: Parameters<typeof DuckDBDataChunk.create>[0],
    private readonly rows: number,
  ) {
    this.cols = types.map(() => []);
    this.chunk = DuckDBDataChunk.create(types);
  }
  row4(a: number, b: number, c: number, d: number): void {
    this.cols[0]!.push(a);
    this.cols[1]!.push(b);
    this.cols[2]!.push(c);
    this.cols[3]!.push(d);
    if (this.cols[0]!.length >= this.rows) this.flush();
  }
  row6(a: number, b: number, c: number, d: number, e: number, f: number): void {
    const k = this.cols;
    k[0]!.push(a);
    k[1]!.push(b);
    k[2]!.push(c);
    k[3]!.push(d);
    k[4]!.push(e);
    k[5]!.push(f);
    if (k[0]!.length >= this.rows) this.flush();
  }
  row2(a: number, b: number): void {
    this.cols[0]!.push(a);
    this.cols[1]!.push(b);
    if (this.cols[0]!.length >= this.rows) this.flush();
  }
  flush(): void {
    if (this.cols[0]!.length === 0) return;
    this.chunk.reset();
    this.chunk.setColumns(this.cols);
    this.appender.appendDataChunk(this.chunk);
    for (const c of this.cols) c.length = 0;
  }
  close(): void {
    this.flush();
    this.appender.flushSync();
    this.appender.closeSync();
  }
}

/** PAGES, LINKS and PAGELETS in DuckDB, filled streaming, and Figure 5 run over them. */
export class SqlPageletStore {
  private pages!: ChunkAppender;
  private links!: ChunkAppender;
  private pagelets!: ChunkAppender;
  private count = 0;
  private tempDir: string | undefined;
  private stepsMemoryLimit = '';
  private closed = false;
  private appending = true;
  /**
   * Schema `pagelets` qualified by the database's catalog: a database file named pagelets.duckdb is a
   * catalog `pagelets` too, where a bare `pagelets.pages` would be ambiguous.
   */
  schema = 'pagelets';

  private constructor(
    readonly connection: DuckDBConnection,
    private readonly instance: DuckDBInstance | undefined,
  ) {}

  /** Opens (or adopts) a database and creates empty tables in schema `pagelets`. */
  static async open(options: SqlStoreOptions = {}): Promise<SqlPageletStore> {
    const { memoryLimit, ingestMemoryLimit } = withDefaults(STORE_DEFAULTS, options);
    let instance: DuckDBInstance | undefined;
    let connection = options.connection;
    let tempDir: string | undefined;
    if (!connection) {
      tempDir = mkdtempSync(join(tmpdir(), 'gabarit-pagelets-'));
      const config: Record<string, string> = {
        memory_limit: ingestMemoryLimit,
        temp_directory: tempDir,
        preserve_insertion_order: 'false',
      };
      if (options.threads !== undefined) config['threads'] = String(options.threads);
      instance = await DuckDBInstance.create(options.path ?? ':memory:', config);
      connection = await instance.connect();
    }
    const store = new SqlPageletStore(connection, instance);
    store.tempDir = tempDir;
    store.stepsMemoryLimit = memoryLimit;
    const catalog = String((await connection.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
    const q = (store.schema = `"${catalog.replace(/"/g, '""')}".pagelets`);
    await connection.run(`
      CREATE SCHEMA IF NOT EXISTS ${q};
      DROP TABLE IF EXISTS ${q}.pages; DROP TABLE IF EXISTS ${q}.links; DROP TABLE IF EXISTS ${q}.pagelets;
      CREATE TABLE ${q}.pages (page INTEGER, url DOUBLE, fingerprint DOUBLE, chars INTEGER);
      CREATE TABLE ${q}.links (src INTEGER, dest DOUBLE);
      CREATE TABLE ${q}.pagelets (page INTEGER, ordinal INTEGER, shingle DOUBLE, node INTEGER, nodes INTEGER, chars INTEGER);
    `);
    const rows = Math.min(CHUNK, Math.max(1, options.chunkRows ?? CHUNK));
    store.pages = new ChunkAppender(await connection.createAppender('pages', 'pagelets', catalog), [INTEGER, DOUBLE, DOUBLE, INTEGER], rows);
    store.links = new ChunkAppender(await connection.createAppender('links', 'pagelets', catalog), [INTEGER, DOUBLE], rows);
    store.pagelets = new ChunkAppender(await connection.createAppender('pagelets', 'pagelets', catalog), [INTEGER, INTEGER, DOUBLE, INTEGER, INTEGER, INTEGER], rows);
    return store;
  }

  /** Pages added so far. */
  get size(): number {
    return this.count;
  }

  /** Adds one page's rows to PAGES, PAGELETS and LINKS; returns its page id (ingestion order). */
  add(rec: PageRecord): number {
    const id = this.count++;
    this.pages.row4(id, rec.urlId, rec.fingerprint, rec.bodyChars);
    const s = rec.shingles;
    for (let o = 0; o < s.length; o++) if (s[o] !== NO_SHINGLE) this.pagelets.row6(id, o, s[o]!, rec.pagelets[o]!, rec.spans[o]!, rec.chars[o]!);
    for (const d of rec.links) this.links.row2(id, d);
    return id;
  }

  /** Flushes and closes the appenders (after the last `add`; `detect` calls it). */
  async finishAppends(): Promise<void> {
    if (this.appending) {
      this.appending = false;
      this.pages.close();
      this.links.close();
      this.pagelets.close();
    }
  }

  /** Runs Figure 5 (steps (0)–(5)) over the tables. Call once, after the last `add`. */
  async detect(options: GlobalOptions = {}): Promise<Detection> {
    const support = withDefaults(SUPPORT_DEFAULTS, options);
    const c = this.connection;
    await this.finishAppends();
    // A private database appends within a small memory limit (full table blocks go to the temporary
    // directory, so the tables' share of memory stops growing after the first pages) and gets a larger one
    // for the joins and aggregates of the steps (defaults.ts gives the measurements).
    if (this.instance) await c.run(`SET memory_limit = '${this.stepsMemoryLimit}'`);
    const timings: Record<string, number> = {};
    const stats: Record<string, number> = {};
    // DuckDB's spill: the size of its temporary directory, sampled while each step runs (its files are
    // deleted when a step ends), and what duckdb_memory() reports after the step.
    let tempPeak = 0;
    const sampler = this.tempDir === undefined ? undefined : setInterval(() => (tempPeak = Math.max(tempPeak, dirBytes(this.tempDir!))), 100);
    sampler?.unref();
    // Figure 5's steps: the SQL of sql-steps.ts (the same text Spark runs), here over schema `pagelets`.
    // The components are a union-find streamed over template_links in shingle order, not the SQL loop:
    // one pass over the links instead of one per iteration (the template pagelets do not depend on them).
    const plan = figure5Plan(support, (name) => `${this.schema}.${name}`);
    // A private database drops each table once no later step reads it, so that DuckDB's memory goes to
    // the steps' joins and sorts rather than to idle tables (with --db the site store keeps them all).
    const keep = new Set(this.instance ? ['pages', 'page_template_pagelets'] : [...Object.keys(plan.inputs), ...plan.before.map((x) => x.table), ...plan.after.map((x) => x.table)]);
    let templates: TemplateFound[] = [];
    const planRun = await runPlan(c, plan, {
      t: (name) => `${this.schema}.${name}`,
      keep,
      afterStep: async (group) => {
        if (sampler) await this.memoryStats(group, tempPeak, stats);
        tempPeak = 0;
      },
      components: async () => {
        tempPeak = 0;
        const t4 = performance.now();
        templates = await this.components(options.listPages ?? true);
        timings['components'] = performance.now() - t4;
        if (sampler) await this.memoryStats('components', tempPeak, stats);
        tempPeak = 0;
      },
    });
    Object.assign(timings, planRun.timings);
    const pc = planRun.counts;
    const counts = { uniquePages: pc['unique_pages']!, links: pc['links']!, pagelets: pc['pagelets']! };
    const later = { templateShingles: pc['template_shingles']!, templateCandidates: pc['template_candidates']!, templateLinks: pc['template_links']! };
    const t5 = performance.now();
    tempPeak = 0;
    const n = this.count;
    // Per page: template ordinals, their node ranges, and the template fraction (template pagelets' text
    // characters over the body's), straight into typed arrays. A duplicate page gets its original's
    // ordinals with its own node ranges and characters (equal token streams, but blank text may differ).
    const bodyChars = new Float64Array(n);
    await this.scan(`SELECT page, chars FROM ${this.schema}.pages`, (cols, rows) => {
      const p = cols[0]!;
      const ch = cols[1]!;
      for (let r = 0; r < rows; r++) bodyChars[p[r]!] = ch[r]!;
    });
    const rowsSql = `SELECT page, ordinal, node, nodes, chars FROM ${this.schema}.page_template_pagelets`;
    const index = new OrdinalBits(n);
    const fraction = new Float64Array(n);
    await this.scan(`SELECT page, ordinal, chars FROM (${rowsSql}) ORDER BY page, ordinal`, (cols, rows) => {
      const [p, o, ch] = cols as [number[], number[], number[]];
      for (let r = 0; r < rows; r++) {
        index.set(p[r]!, o[r]!);
        fraction[p[r]!]! += ch[r]!;
      }
    });
    index.finish();
    for (let p = 0; p < n; p++) fraction[p] = bodyChars[p]! === 0 ? 0 : fraction[p]! / bodyChars[p]!;
    if (sampler) await this.memoryStats('readBack', tempPeak, stats);
    timings['readBack'] = performance.now() - t5;
    if (sampler) clearInterval(sampler);
    return {
      algorithm: 'global',
      templates,
      counts: { pages: n, ...counts, ...later, templatePagelets: pc['template_pagelets']! },
      timings,
      stats,
      templateOrdinals: (page) => index.get(page),
      templateFraction: (page) => fraction[page] ?? 0,
      eachTemplateNodes: (onPage) => this.eachTemplateNodes(rowsSql, n, onPage),
    };
  }

  /** Steps (4)–(5): for each shingle, union-find over its template links; non-singleton components. */
  private async components(listPages: boolean): Promise<TemplateFound[]> {
    const templates: TemplateFound[] = [];
    let current = Number.NaN;
    // The current shingle's pages get local ids 0..k-1 as its links stream in: `localOf[p]` is valid when
    // `stamp[p]` is the shingle's number (typed arrays over the page ids, reused for every shingle, so
    // millions of links leave no garbage behind).
    const n = this.count;
    const localOf = new Int32Array(n);
    const stamp = new Int32Array(n).fill(-1);
    let group = 0;
    let ids = new Int32Array(1024);
    let k = 0;
    let size = new Int32Array(1024);
    const uf = new UnionFind();
    const id = (p: number): number => {
      if (stamp[p] === group) return localOf[p]!;
      stamp[p] = group;
      const i = uf.add();
      localOf[p] = i;
      if (k === ids.length) {
        const grown = new Int32Array(k * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[k++] = p;
      return i;
    };
    const flush = (): void => {
      if (k === 0) return;
      if (size.length < k) size = new Int32Array(ids.length);
      size.fill(0, 0, k);
      for (let i = 0; i < k; i++) size[uf.find(i)]!++;
      // components in the order their first page came (as a Map of roots would list them)
      const members = listPages ? new Map<number, number[]>() : undefined;
      for (let i = 0; i < k; i++) {
        const r = uf.find(i);
        if (members) {
          let g = members.get(r);
          if (!g) members.set(r, (g = []));
          g.push(ids[i]!);
        } else if (size[r]! > 0) {
          templates.push({ shingle: current, size: size[r]! });
          size[r] = 0;
        }
      }
      if (members) for (const g of members.values()) templates.push({ shingle: current, size: g.length, pages: Int32Array.from(g).sort() });
      k = 0;
      group++;
      uf.clear();
    };
    await this.scan(`SELECT shingle, src, dest FROM ${this.schema}.template_links ORDER BY shingle`, (cols, rows) => {
      const s = cols[0]!;
      const a = cols[1]!;
      const b = cols[2]!;
      for (let r = 0; r < rows; r++) {
        if (s[r] !== current) {
          flush();
          current = s[r]!;
        }
        uf.union(id(a[r]!), id(b[r]!));
      }
    });
    flush();
    sortTemplates(templates);
    return templates;
  }

  /**
   * Streams the node ranges of every page's template pagelets, in page order, from the tables (they
   * stay in DuckDB, not in memory): `rowsSql` gives (page, ordinal, node, nodes, chars) rows.
   */
  private async eachTemplateNodes(rowsSql: string, n: number, onPage: (page: number, start: Int32Array, count: Int32Array) => void | Promise<void>): Promise<void> {
    if (this.closed) throw new Error('pagelets: the tables are closed (open the detection with keepTables to stream node ranges)');
    let start = new Int32Array(256);
    let count = new Int32Array(256);
    let k = 0;
    let cur = -1;
    const upTo = async (page: number): Promise<void> => {
      if (cur >= 0) await onPage(cur, start.subarray(0, k), count.subarray(0, k));
      for (let q = cur + 1; q < page; q++) await onPage(q, start.subarray(0, 0), count.subarray(0, 0));
      cur = page;
      k = 0;
    };
    await this.scan(`SELECT page, node, nodes FROM (${rowsSql}) ORDER BY page, ordinal`, async (cols, rows) => {
      const [p, v, c] = cols as [number[], number[], number[]];
      for (let r = 0; r < rows; r++) {
        if (p[r] !== cur) await upTo(p[r]!);
        if (k === start.length) {
          const s2 = new Int32Array(k * 2);
          s2.set(start);
          start = s2;
          const c2 = new Int32Array(k * 2);
          c2.set(count);
          count = c2;
        }
        start[k] = v[r]!;
        count[k] = c[r]!;
        k++;
      }
    });
    await upTo(n);
  }

  /**
   * After a step: DuckDB's own memory (`duckdb_memory()`: buffer-managed memory and temporary storage, MB)
   * and the peak size of its temporary directory while the step ran, into `stats` as `<step>.memMB`,
   * `<step>.tempMB`, `<step>.spillPeakMB`.
   */
  private async memoryStats(name: string, tempPeak: number, stats: Record<string, number>): Promise<void> {
    const r = await this.connection.runAndReadAll('SELECT sum(memory_usage_bytes)::DOUBLE, sum(temporary_storage_bytes)::DOUBLE FROM duckdb_memory()');
    const [mem, temp] = r.getRows()[0]!.map((x) => Number(x));
    stats[`${name}.memMB`] = Math.round(mem! / 1048576);
    stats[`${name}.tempMB`] = Math.round(temp! / 1048576);
    stats[`${name}.spillPeakMB`] = Math.round(Math.max(tempPeak, dirBytes(this.tempDir!)) / 1048576);
  }

  /** Streams a query chunk by chunk; columns arrive as number arrays. */
  private async scan(sql: string, onChunk: (cols: number[][], rows: number) => void | Promise<void>): Promise<void> {
    const result = await this.connection.stream(sql);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const cols: number[][] = [];
      for (let i = 0; i < chunk.columnCount; i++) cols.push(chunk.getColumnValues(i) as number[]);
      await onChunk(cols, chunk.rowCount);
    }
  }

  /** Closes a private database (an adopted connection stays open) and removes its spill directory. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.instance) {
      this.connection.closeSync();
      this.instance.closeSync();
    }
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
  }
}

/** Bytes of the files directly in `dir` (DuckDB's temporary directory is flat); 0 if it is gone. */
function dirBytes(dir: string): number {
  let total = 0;
  try {
    for (const f of readdirSync(dir)) {
      try {
        total += statSync(join(dir, f)).size;
      } catch {
        // a spill file removed while we looked
      }
    }
  } catch {
    return 0;
  }
  return total;
}
