/**
 * The embedded store (DESIGN.md, "store"): DuckDB tables that hold what a run fetched, so that a crawl
 * can resume without refetching and the global, relational steps (paper 3's template shingles and
 * template links, clustering over many pages) run as SQL over them.
 *
 *   pages(url VARCHAR PRIMARY KEY, key VARCHAR, status INTEGER, headers JSON, body BLOB, fetched_at TIMESTAMP)
 *   links(src VARCHAR, dst VARCHAR)                 -- page URL → linked URL, as extracted by links.ts
 *
 * Engines that need more tables create them through `run` / `connection` (STYLE.md 2: one seam, not DuckDB
 * calls scattered around). Batches go through DuckDB's appender (a staging table, then one upsert), which
 * is what makes ingesting hundreds of thousands of pages practical. Calls on one Store are serialised, as a
 * DuckDB connection runs one statement at a time.
 */
import { DuckDBInstance, blobValue, timestampValue, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import type { Page } from './page.ts';

/** What the store keeps of a page (a Page without its origin). */
export interface StoredPage {
  url: string;
  key: string;
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

/** A value bindable as an SQL parameter (`$1`, `?`): DuckDB values plus Uint8Array for BLOBs and Date for timestamps. */
export type SqlParam = DuckDBValue | Uint8Array | Date;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS pages (
  url VARCHAR PRIMARY KEY,
  key VARCHAR NOT NULL,
  status INTEGER NOT NULL,
  headers JSON NOT NULL,
  body BLOB NOT NULL,
  fetched_at TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS links (src VARCHAR NOT NULL, dst VARCHAR NOT NULL);
`;

function toDuck(p: SqlParam): DuckDBValue {
  if (p instanceof Uint8Array) return blobValue(p);
  if (p instanceof Date) return timestampValue(BigInt(p.getTime()) * 1000n);
  return p;
}

function toBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return Buffer.isBuffer(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : v;
  if (v && typeof v === 'object' && 'bytes' in v && (v as { bytes: unknown }).bytes instanceof Uint8Array) return toBytes((v as { bytes: Uint8Array }).bytes);
  throw new TypeError('stored body is not a BLOB');
}

/** A page from a row of `pages` (headers as JSON text). */
function storedPage(row: Record<string, unknown>): Page {
  const r = row as { url: string; key: string; status: number; headers: string; body: Uint8Array };
  return { url: r.url, key: r.key, status: r.status, headers: JSON.parse(r.headers) as Record<string, string>, body: r.body, origin: 'store' };
}

export class Store {
  /** The DuckDB connection, for engines that add their own tables and SQL (prefer `run` / `all`). */
  readonly connection: DuckDBConnection;
  /** The database file, or ':memory:'. */
  readonly path: string;
  private readonly instance: DuckDBInstance;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Prepared statements of the store's own frequent queries (parsing and planning once, not per page). */
  private readonly prepared = new Map<string, DuckDBPreparedStatement>();

  private constructor(instance: DuckDBInstance, connection: DuckDBConnection, path: string) {
    this.instance = instance;
    this.connection = connection;
    this.path = path;
  }

  /** Opens (creating if needed) a store at a file path, or an in-memory one with ':memory:'. */
  static async open(path: string): Promise<Store> {
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const store = new Store(instance, connection, path);
    await connection.run(SCHEMA);
    return store;
  }

  /** Runs `fn` after every earlier call on this store has finished (one statement at a time). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`store ${this.path} is closed`));
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs one or more SQL statements; parameters bind to `$1…` / `?` (in the last statement). */
  run(sql: string, params: readonly SqlParam[] = []): Promise<void> {
    return this.serial(async () => {
      await this.connection.run(sql, params.length ? params.map(toDuck) : undefined);
    });
  }

  /** Runs a query and returns its rows as objects (BIGINT as bigint, BLOB as Uint8Array, JSON as string). */
  all<T = Record<string, unknown>>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return this.serial(async () => {
      const reader = await this.connection.runAndReadAll(sql, params.length ? params.map(toDuck) : undefined);
      const rows = reader.getRowObjects();
      return rows.map((r) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r)) o[k] = v instanceof Uint8Array || (v && typeof v === 'object' && 'bytes' in v) ? toBytes(v) : v;
        return o as T;
      });
    });
  }

  /** Runs one of the store's own statements, prepared once; returns its rows. */
  private async exec(sql: string, params: readonly SqlParam[]): Promise<Array<Record<string, unknown>>> {
    return this.serial(async () => {
      let st = this.prepared.get(sql);
      if (!st) {
        st = await this.connection.prepare(sql);
        this.prepared.set(sql, st);
      }
      st.bind(params.map(toDuck));
      const rows = (await st.runAndReadAll()).getRowObjects();
      return rows.map((r) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r)) o[k] = v instanceof Uint8Array || (v && typeof v === 'object' && 'bytes' in v) ? toBytes(v) : v;
        return o;
      });
    });
  }

  /** Inserts or replaces one page. */
  putPage(page: StoredPage, fetchedAt: Date = new Date()): Promise<void> {
    return this.exec('INSERT OR REPLACE INTO pages VALUES ($1, $2, $3, $4, $5, $6)', [
      page.url,
      page.key,
      page.status,
      JSON.stringify(page.headers),
      page.body,
      fetchedAt,
    ]).then(() => undefined);
  }

  /**
   * Inserts or replaces many pages at once through the appender (into a staging table, then one upsert;
   * later pages win over earlier ones with the same URL).
   */
  putPages(pages: Iterable<StoredPage>, fetchedAt: Date = new Date()): Promise<number> {
    return this.serial(async () => {
      const c = this.connection;
      await c.run('CREATE OR REPLACE TEMP TABLE pages_staging (seq INTEGER, url VARCHAR, key VARCHAR, status INTEGER, headers VARCHAR, body BLOB, fetched_at TIMESTAMP)');
      const app = await c.createAppender('pages_staging');
      const ts = timestampValue(BigInt(fetchedAt.getTime()) * 1000n);
      let n = 0;
      try {
        for (const p of pages) {
          app.appendInteger(n++);
          app.appendVarchar(p.url);
          app.appendVarchar(p.key);
          app.appendInteger(p.status);
          app.appendVarchar(JSON.stringify(p.headers));
          app.appendBlob(p.body);
          app.appendTimestamp(ts);
          app.endRow();
        }
        app.flushSync();
      } finally {
        app.closeSync();
      }
      await c.run(`INSERT OR REPLACE INTO pages
        SELECT url, key, status, headers::JSON, body, fetched_at FROM pages_staging
        QUALIFY row_number() OVER (PARTITION BY url ORDER BY seq DESC) = 1`);
      await c.run('DROP TABLE pages_staging');
      return n;
    });
  }

  /** The stored page of a URL (origin 'store'), or undefined. */
  async getPage(url: string): Promise<Page | undefined> {
    const rows = await this.exec('SELECT url, key, status, headers::VARCHAR AS headers, body FROM pages WHERE url = $1', [url]);
    return rows[0] ? storedPage(rows[0]) : undefined;
  }

  /** The stored pages of these URLs (one query), by URL; URLs not stored are left out. */
  async getPages(urls: readonly string[]): Promise<Map<string, Page>> {
    const out = new Map<string, Page>();
    if (urls.length === 0) return out;
    const rows = await this.all(`SELECT url, key, status, headers::VARCHAR AS headers, body FROM pages WHERE url IN (${urls.map((_, i) => `$${i + 1}`).join(', ')})`, urls);
    for (const r of rows) out.set(r['url'] as string, storedPage(r));
    return out;
  }

  /** True when a page with this URL is stored. */
  async hasPage(url: string): Promise<boolean> {
    const rows = await this.exec('SELECT 1 FROM pages WHERE url = $1', [url]);
    return rows.length > 0;
  }

  /** Number of stored pages. */
  async pageCount(): Promise<number> {
    const rows = await this.all<{ n: bigint }>('SELECT count(*) AS n FROM pages');
    return Number(rows[0]?.n ?? 0n);
  }

  /** Replaces the links of page `src` with `dsts` (appender batch). */
  putLinks(src: string, dsts: Iterable<string>): Promise<void> {
    return this.serial(async () => {
      const c = this.connection;
      await c.run('DELETE FROM links WHERE src = $1', [src]);
      const app = await c.createAppender('links');
      try {
        for (const d of dsts) {
          app.appendVarchar(src);
          app.appendVarchar(d);
          app.endRow();
        }
        app.flushSync();
      } finally {
        app.closeSync();
      }
    });
  }

  /** The pages whose links are stored. */
  async linkSources(): Promise<Set<string>> {
    const rows = await this.all<{ src: string }>('SELECT DISTINCT src FROM links');
    return new Set(rows.map((r) => r.src));
  }

  /** The stored links of a page, in insertion order. */
  async linksOf(src: string): Promise<string[]> {
    const rows = await this.all<{ dst: string }>('SELECT dst FROM links WHERE src = $1 ORDER BY rowid', [src]);
    return rows.map((r) => r.dst);
  }

  /** Closes the connection and the database (waits for pending calls). */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    for (const st of this.prepared.values()) st.destroySync();
    this.prepared.clear();
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
