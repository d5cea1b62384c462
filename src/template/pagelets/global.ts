/**
 * The global template detection algorithm (paper 3, section 3.2, Figure 5) as relational steps over the
 * paper's tables PAGES, LINKS and PAGELETS in embedded DuckDB. Pages are ingested streaming (appender,
 * data chunks of up to 2,048 rows); DuckDB keeps the tables on disk or in memory within its memory limit
 * and spills beyond it, so the JavaScript side holds one batch at a time.
 *
 * Tables live in their own schema `pagelets` (so they sit beside the site store's own `pages`/`links`):
 *   pagelets.pages    (page INTEGER, url DOUBLE, fingerprint DOUBLE)      -- PAGES
 *   pagelets.links    (src INTEGER, dest DOUBLE)                           -- LINKS (dest: target URL id)
 *   pagelets.pagelets (page INTEGER, ordinal INTEGER, shingle DOUBLE)     -- PAGELETS
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
 *   the pages of non-singleton components), read back ordered by page for the marking pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOUBLE, DuckDBDataChunk, INTEGER, DuckDBInstance, type DuckDBConnection, type DuckDBAppender } from '@duckdb/node-api';
import { type Detection, OrdinalIndex, supportThreshold, type TemplateFound, UnionFind } from './detection.ts';
import { PAGELET_DEFAULTS } from './defaults.ts';
import type { GlobalOptions } from './memory.ts';
import { sortTemplates } from './memory.ts';
import type { PageRecord } from './page-analysis.ts';
import { NO_SHINGLE } from './shingle.ts';

/** Where the tables live. */
export interface SqlStoreOptions {
  /** An open DuckDB connection (e.g. the site Store's); when absent a private database is opened. */
  connection?: DuckDBConnection;
  /** Database file for a private database (default: in memory, spilling to a temporary directory). */
  path?: string;
  /** DuckDB memory limit (default `PAGELET_DEFAULTS.duckdbMemoryLimit`). */
  memoryLimit?: string;
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
  row3(a: number, b: number, c: number): void {
    this.cols[0]!.push(a);
    this.cols[1]!.push(b);
    this.cols[2]!.push(c);
    if (this.cols[0]!.length >= this.rows) this.flush();
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

  private constructor(
    readonly connection: DuckDBConnection,
    private readonly instance: DuckDBInstance | undefined,
  ) {}

  /** Opens (or adopts) a database and creates empty tables in schema `pagelets`. */
  static async open(options: SqlStoreOptions = {}): Promise<SqlPageletStore> {
    let instance: DuckDBInstance | undefined;
    let connection = options.connection;
    let tempDir: string | undefined;
    if (!connection) {
      tempDir = mkdtempSync(join(tmpdir(), 'gabarit-pagelets-'));
      const config: Record<string, string> = {
        memory_limit: options.memoryLimit ?? PAGELET_DEFAULTS.duckdbMemoryLimit,
        temp_directory: tempDir,
        preserve_insertion_order: 'false',
      };
      if (options.threads !== undefined) config['threads'] = String(options.threads);
      instance = await DuckDBInstance.create(options.path ?? ':memory:', config);
      connection = await instance.connect();
    }
    const store = new SqlPageletStore(connection, instance);
    store.tempDir = tempDir;
    await connection.run(`
      CREATE SCHEMA IF NOT EXISTS pagelets;
      DROP TABLE IF EXISTS pagelets.pages; DROP TABLE IF EXISTS pagelets.links; DROP TABLE IF EXISTS pagelets.pagelets;
      CREATE TABLE pagelets.pages (page INTEGER, url DOUBLE, fingerprint DOUBLE);
      CREATE TABLE pagelets.links (src INTEGER, dest DOUBLE);
      CREATE TABLE pagelets.pagelets (page INTEGER, ordinal INTEGER, shingle DOUBLE);
    `);
    const rows = Math.min(CHUNK, Math.max(1, options.chunkRows ?? CHUNK));
    store.pages = new ChunkAppender(await connection.createAppender('pages', 'pagelets'), [INTEGER, DOUBLE, DOUBLE], rows);
    store.links = new ChunkAppender(await connection.createAppender('links', 'pagelets'), [INTEGER, DOUBLE], rows);
    store.pagelets = new ChunkAppender(await connection.createAppender('pagelets', 'pagelets'), [INTEGER, INTEGER, DOUBLE], rows);
    return store;
  }

  /** Pages added so far. */
  get size(): number {
    return this.count;
  }

  /** Adds one page's rows to PAGES, PAGELETS and LINKS; returns its page id (ingestion order). */
  add(rec: PageRecord): number {
    const id = this.count++;
    this.pages.row3(id, rec.urlId, rec.fingerprint);
    const s = rec.shingles;
    for (let o = 0; o < s.length; o++) if (s[o] !== NO_SHINGLE) this.pagelets.row3(id, o, s[o]!);
    for (const d of rec.links) this.links.row2(id, d);
    return id;
  }

  /** Runs Figure 5 (steps (0)–(5)) over the tables. Call once, after the last `add`. */
  async detect(options: GlobalOptions = {}): Promise<Detection> {
    const c = this.connection;
    this.pages.close();
    this.links.close();
    this.pagelets.close();
    const timings: Record<string, number> = {};
    const step = async (name: string, sql: string): Promise<void> => {
      const t = performance.now();
      await c.run(sql);
      timings[name] = (timings[name] ?? 0) + performance.now() - t;
    };
    await step(
      'duplicates',
      `CREATE OR REPLACE TABLE pagelets.page_orig AS
         SELECT page, url, min(page) OVER (PARTITION BY fingerprint) AS orig FROM pagelets.pages;
       CREATE OR REPLACE TABLE pagelets.unique_pages AS SELECT page, url FROM pagelets.page_orig WHERE page = orig;
       CREATE OR REPLACE TABLE pagelets.page_links AS
         SELECT DISTINCT l.src, u.page AS dest
         FROM pagelets.links l
         JOIN pagelets.unique_pages s ON s.page = l.src
         JOIN (SELECT url, min(page) AS page FROM pagelets.unique_pages GROUP BY url) u ON u.url = l.dest
         WHERE u.page <> l.src;`,
    );
    const uniqueRows = await c.runAndReadAll('SELECT count(*)::INTEGER FROM pagelets.unique_pages');
    const minPages = supportThreshold(Number(uniqueRows.getRows()[0]![0]), options);
    // (1)-(2) in two grouping passes over (shingle, page) pairs rather than count(DISTINCT page) per
    // shingle: one hash aggregate each, which DuckDB runs in parallel and spills when it must.
    await step(
      'templateShingles',
      `CREATE OR REPLACE TABLE pagelets.shingle_pages AS
         SELECT DISTINCT p.shingle, p.page FROM pagelets.pagelets p SEMI JOIN pagelets.unique_pages u ON u.page = p.page;
       CREATE OR REPLACE TABLE pagelets.template_shingles AS
         SELECT shingle FROM pagelets.shingle_pages GROUP BY shingle HAVING count(*) >= ${Math.floor(minPages)};`,
    );
    await step(
      'templateCandidates',
      `CREATE OR REPLACE TABLE pagelets.template_candidates AS
         SELECT p.page, p.ordinal, p.shingle FROM pagelets.pagelets p
         SEMI JOIN pagelets.unique_pages u ON u.page = p.page
         SEMI JOIN pagelets.template_shingles t ON t.shingle = p.shingle;
       CREATE OR REPLACE TABLE pagelets.candidate_pages AS
         SELECT sp.shingle, sp.page FROM pagelets.shingle_pages sp SEMI JOIN pagelets.template_shingles t ON t.shingle = sp.shingle;
       DROP TABLE pagelets.shingle_pages;`,
    );
    await step(
      'templateLinks',
      `CREATE OR REPLACE TABLE pagelets.template_links AS
         SELECT t1.shingle, l.src, l.dest
         FROM pagelets.candidate_pages t1
         JOIN pagelets.page_links l ON t1.page = l.src
         JOIN pagelets.candidate_pages t2 ON t2.page = l.dest AND t2.shingle = t1.shingle;`,
    );
    // (4)-(5): components per shingle, streamed in shingle order.
    const t4 = performance.now();
    const templates = await this.components(options.listPages ?? true);
    timings['components'] = performance.now() - t4;
    await step(
      'templatePagelets',
      `CREATE OR REPLACE TABLE pagelets.template_pagelets AS
         SELECT c.page, c.ordinal FROM pagelets.template_candidates c
         SEMI JOIN (SELECT shingle, src AS page FROM pagelets.template_links
                    UNION ALL SELECT shingle, dest AS page FROM pagelets.template_links) k
           ON k.shingle = c.shingle AND k.page = c.page;`,
    );
    const t5 = performance.now();
    const n = this.count;
    const dupOf = new Int32Array(n);
    await this.scan('SELECT page, orig FROM pagelets.page_orig', (cols, rows) => {
      const p = cols[0]!;
      const o = cols[1]!;
      for (let r = 0; r < rows; r++) dupOf[p[r]!] = o[r]!;
    });
    // per-page template ordinals straight into typed arrays (4 bytes a template pagelet)
    const total = Number((await c.runAndReadAll('SELECT count(*)::INTEGER FROM pagelets.template_pagelets')).getRows()[0]![0]);
    const offsets = new Int32Array(n + 1);
    const values = new Int32Array(total);
    let row = 0;
    await this.scan('SELECT page, ordinal FROM pagelets.template_pagelets ORDER BY page, ordinal', (cols, rows) => {
      const p = cols[0]!;
      const o = cols[1]!;
      for (let r = 0; r < rows; r++) {
        offsets[p[r]! + 1]!++;
        values[row++] = o[r]!;
      }
    });
    const index = OrdinalIndex.fromCounts(offsets, values, dupOf);
    timings['readBack'] = performance.now() - t5;
    const countRow = await c.runAndReadAll(`SELECT
        (SELECT count(*) FROM pagelets.unique_pages)::INTEGER,
        (SELECT count(*) FROM pagelets.pagelets)::INTEGER,
        (SELECT count(*) FROM pagelets.links)::INTEGER,
        (SELECT count(*) FROM pagelets.template_shingles)::INTEGER,
        (SELECT count(*) FROM pagelets.template_candidates)::INTEGER,
        (SELECT count(*) FROM pagelets.template_links)::INTEGER`);
    const v = countRow.getRows()[0]!.map((x) => Number(x));
    return {
      algorithm: 'global',
      templates,
      counts: {
        pages: n,
        uniquePages: v[0]!,
        pagelets: v[1]!,
        links: v[2]!,
        templateShingles: v[3]!,
        templateCandidates: v[4]!,
        templateLinks: v[5]!,
        templatePagelets: total,
      },
      timings,
      templateOrdinals: (page) => index.get(page),
    };
  }

  /** Steps (4)–(5): for each shingle, union-find over its template links; non-singleton components. */
  private async components(listPages: boolean): Promise<TemplateFound[]> {
    const templates: TemplateFound[] = [];
    let current = Number.NaN;
    // the current shingle's pages (local ids) and components, built as its links stream in
    const local = new Map<number, number>();
    const ids: number[] = [];
    const uf = new UnionFind();
    const id = (p: number): number => {
      let i = local.get(p);
      if (i === undefined) {
        i = uf.add();
        local.set(p, i);
        ids.push(p);
      }
      return i;
    };
    const flush = (): void => {
      if (ids.length === 0) return;
      const groups = new Map<number, number[]>();
      for (let i = 0; i < ids.length; i++) {
        const r = uf.find(i);
        let g = groups.get(r);
        if (!g) groups.set(r, (g = []));
        g.push(ids[i]!);
      }
      for (const g of groups.values()) {
        const t: TemplateFound = { shingle: current, size: g.length };
        if (listPages) t.pages = Int32Array.from(g).sort();
        templates.push(t);
      }
      local.clear();
      ids.length = 0;
      uf.clear();
    };
    await this.scan('SELECT shingle, src, dest FROM pagelets.template_links ORDER BY shingle', (cols, rows) => {
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

  /** Streams a query chunk by chunk; columns arrive as number arrays. */
  private async scan(sql: string, onChunk: (cols: number[][], rows: number) => void): Promise<void> {
    const result = await this.connection.stream(sql);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const cols: number[][] = [];
      for (let i = 0; i < chunk.columnCount; i++) cols.push(chunk.getColumnValues(i) as number[]);
      onChunk(cols, chunk.rowCount);
    }
  }

  /** Closes a private database (an adopted connection stays open) and removes its spill directory. */
  close(): void {
    if (this.instance) {
      this.connection.closeSync();
      this.instance.closeSync();
    }
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
  }
}
