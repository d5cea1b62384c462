/**
 * A WARC file (ISO 28500, as written by Heritrix, wget --warc-file, Browsertrix, webrecorder) as a
 * PageSource, read with warcio; and `writeWarc`, which archives a directory (or pages in memory) so that
 * tests and users can make one.
 *  - `response` records (and `resource` records) whose payload is HTML become pages: URL (WARC-Target-URI),
 *    status, headers, body (transfer and content encodings removed, so the headers that described them are
 *    dropped too). Other records (requests, metadata, images, CSS) are not pages and are skipped;
 *    redirect responses (3xx) are skipped as well, their targets being archived on their own; an archived
 *    error response (4xx/5xx) is a failure item of `pages()`. The first response of a URL wins.
 *  - root: the `root` option, else the origin and common directory of the pages' URLs; keys are derived
 *    from URL paths as for HTTP (keys.ts).
 *  - pages() yields in key order (as a directory does), so equal sites give equal streams;
 *  - a payload over `maxBytes` is not read further nor kept: that page fails with `too-large` (refused, not
 *    cut, as over HTTP: a cut page would be another page).
 * `open` reads the archive once and keeps an index (each page's URL, status, headers and the offset of
 * its record in the file), not the pages: a page's payload is read from its record when it is loaded, so
 * memory does not grow with the archive's payloads. That needs records that can be read from their offset
 * (an uncompressed WARC, or one gzip member per record, as WARC writers make them); an archive gzipped as
 * one stream is read into memory instead.
 */
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { WARCParser, WARCRecord, WARCSerializer } from 'warcio';
import { PageError } from '../errors.ts';
import { checkBody, isHtmlType, keyOfUrlOrKey, loadEach, sniffHtml } from './check.ts';
import { RootedSource } from './rooted-source.ts';
import { DirSource } from './dir-source.ts';
import { commonRoot, keyFromUrl, urlFromKey, encodeKeyPath } from './keys.ts';
import { normalizeUrl } from './links.ts';
import type { Page, PageResult, PageSource, PageSourceOptions } from './page.ts';
import { FETCH_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';

export interface WarcSourceOptions {
  /** Site root (absolute URL ending in '/'); default: the common origin and directory of the pages. */
  root?: string;
  /** Entry page (absolute URL or key); default: the root's index.html when archived, else the first page. */
  entry?: string;
  /**
   * Largest payload accepted as a page, bytes, after transfer and content encodings are removed (default
   * `DEFAULTS.maxBytes`). A larger page is not kept in memory: loading it fails with `too-large`.
   */
  maxBytes?: number;
}

interface Archived {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Offset of the record in the file, or the payload itself when records cannot be read from their offset. */
  at: number | Uint8Array;
  /** Set when the payload was over the size cap: the bytes read before reading stopped. */
  tooLarge?: number;
}

/**
 * Reads a record's payload up to `max` bytes: its bytes when `keep` (else an empty array: only its size is
 * checked), or the bytes read when it is over `max` (reading stops there; the caller skips the rest).
 */
async function readCapped(record: WARCRecord, max: number, keep: boolean): Promise<{ body: Uint8Array } | { over: number }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of record.contentReader) {
    total += chunk.length;
    if (total > max) return { over: total };
    if (keep) chunks.push(chunk);
  }
  const body = new Uint8Array(keep ? total : 0);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body };
}

/** Headers that describe the transfer, not the (decoded) payload warcio gives. */
const TRANSFER_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

export class WarcSource extends RootedSource implements PageSource {
  readonly kind = 'warc' as const;
  readonly entry: string;
  /** The archive file. */
  readonly file: string;
  /** Records that were not pages (non-HTML, redirects, requests, metadata…). */
  readonly skipped: number;
  /** True when pages are read from their records' offsets (false: the archive is held in memory). */
  readonly fromOffsets: boolean;
  private readonly byKey: Map<string, Archived>;
  private readonly order: string[];
  private readonly maxBytes: number;

  private constructor(file: string, root: string, entry: string, byKey: Map<string, Archived>, skipped: number, maxBytes: number) {
    super(root);
    this.maxBytes = maxBytes;
    this.file = file;
    this.entry = entry;
    this.byKey = byKey;
    this.order = [...byKey.keys()].sort();
    this.skipped = skipped;
    this.fromOffsets = [...byKey.values()].every((r) => typeof r.at === 'number');
  }

  /** Reads an archive (.warc or .warc.gz; gzip is detected by warcio whatever the name). */
  static async open(file: string, options: WarcSourceOptions = {}): Promise<WarcSource> {
    const { maxBytes } = filled(options, FETCH_DEFAULTS, ['maxBytes']);
    let { records, skipped } = await index(file, false, maxBytes);
    // Records read back from their offset? (Not when the whole file is one gzip stream.)
    const probe = records[records.length - 1];
    if (probe && !(await readableAt(file, probe))) ({ records, skipped } = await index(file, true, maxBytes));
    const root = options.root ?? commonRoot(records.map((r) => r.url));
    if (root === undefined) {
      throw new PageError(`file://${file}`, records.length === 0 ? 'empty' : 'read-error',
        records.length === 0 ? 'no HTML response records in the archive' : 'the archive holds several sites; give a root');
    }
    const byKey = new Map<string, Archived>();
    for (const r of records) {
      const key = keyFromUrl(r.url, root);
      if (key === undefined) {
        skipped++;
        continue;
      }
      if (!byKey.has(key)) byKey.set(key, r);
    }
    const entryKey = options.entry !== undefined ? (keyFromUrl(options.entry, root) ?? options.entry) : byKey.has('index.html') ? 'index.html' : [...byKey.keys()].sort()[0] ?? 'index.html';
    return new WarcSource(file, root, urlFromKey(entryKey, root), byKey, skipped, maxBytes);
  }

  pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    return loadEach(this.order, options, (key) => this.byKey.get(key)!.url, (key) => this.page(key, this.byKey.get(key)!));
  }

  async get(urlOrKey: string): Promise<Page> {
    const key = keyOfUrlOrKey(urlOrKey, (url) => this.keyOf(url), `the archive's root ${this.root}`);
    const r = this.byKey.get(key);
    if (!r) throw new PageError(this.urlOf(key), 'not-found', `not in the archive ${this.file}`);
    return this.page(key, r);
  }

  private async page(key: string, r: Archived): Promise<Page> {
    if (r.tooLarge !== undefined) {
      throw new PageError(r.url, 'too-large', `too large: the archived page exceeds the cap of ${this.maxBytes} bytes (stopped reading after ${r.tooLarge} bytes)`);
    }
    if (r.status === 404 || r.status === 410) throw new PageError(r.url, 'not-found', `archived response is HTTP ${r.status}`, { status: r.status });
    if (r.status < 200 || r.status > 299) throw new PageError(r.url, 'http-status', `archived response is HTTP ${r.status}`, { status: r.status });
    let body: Uint8Array;
    try {
      body = typeof r.at === 'number' ? await payloadAt(this.file, r.at) : r.at;
    } catch (err) {
      throw new PageError(r.url, 'read-error', `cannot read its record in ${this.file} (${(err as Error).message})`, { cause: err });
    }
    const bad = checkBody(r.url, body);
    if (bad) throw bad;
    this.count++;
    return { url: r.url, key, status: r.status, headers: r.headers, body, origin: 'warc' };
  }

  async close(): Promise<void> {}
}

/** A page to archive with `writeWarc`. */
/**
 * The archive's HTML pages (the first response of each URL), with the offset of each record, or with its
 * payload when `keep` (an archive whose records cannot be read from their offset). A payload over
 * `maxBytes` is indexed as too large (read no further, never kept).
 */
async function index(file: string, keep: boolean, maxBytes: number): Promise<{ records: Archived[]; skipped: number }> {
  const records: Archived[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  const parser = new WARCParser(createReadStream(file));
  for await (const record of parser) {
    const offset = parser.offset;
    const type = record.warcType;
    const target = record.warcTargetURI;
    const url = target ? normalizeUrl(target) : undefined;
    if ((type !== 'response' && type !== 'resource') || url === undefined || seen.has(url)) {
      skipped++;
      await record.skipFully();
      continue;
    }
    const info = type === 'response' ? record.getResponseInfo() : null;
    const headers: Record<string, string> = {};
    if (info) {
      for (const [k, v] of info.headers as Iterable<[string, string]>) if (!TRANSFER_HEADERS.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    } else {
      const ct = record.warcHeader('Content-Type');
      if (ct) headers['content-type'] = ct;
    }
    const status = info ? Number(info.status) : 200;
    if (status >= 300 && status < 400) {
      skipped++;
      await record.skipFully();
      continue;
    }
    const ct = headers['content-type'];
    if (ct !== undefined && !isHtmlType(ct)) {
      skipped++;
      await record.skipFully();
      continue;
    }
    // Read through (counting its size, keeping its bytes only when held in memory or sniffed for HTML).
    const read = await readCapped(record, maxBytes, keep || ct === undefined);
    if ('over' in read) {
      // Indexed as a page that fails when loaded, so that it is named (a cut page would be another page).
      await record.skipFully();
      seen.add(url);
      records.push({ url, status, headers, at: offset, tooLarge: read.over });
      continue;
    }
    if (ct === undefined && !sniffHtml(read.body)) {
      skipped++;
      continue;
    }
    seen.add(url);
    records.push({ url, status, headers, at: keep ? read.body : offset });
  }
  return { records, skipped };
}

/** The (decoded) payload of the record at `offset`. */
async function payloadAt(file: string, offset: number): Promise<Uint8Array> {
  const stream = createReadStream(file, { start: offset });
  try {
    const record = await new WARCParser(stream).parse();
    if (!record) throw new Error(`no record at offset ${offset}`);
    return new Uint8Array(await record.readFully(true));
  } finally {
    stream.destroy();
  }
}

/** True when the record of `r` reads back from its offset (its URL is found there). */
async function readableAt(file: string, r: Archived): Promise<boolean> {
  if (typeof r.at !== 'number') return true;
  const stream = createReadStream(file, { start: r.at });
  try {
    const record = await new WARCParser(stream).parse();
    const target = record?.warcTargetURI;
    return target !== undefined && target !== null && normalizeUrl(target) === r.url;
  } catch {
    return false;
  } finally {
    stream.destroy();
  }
}

export interface WarcPage {
  /** Key relative to `baseUrl` (or give `url`). */
  key: string;
  url?: string;
  body: Uint8Array | string;
  status?: number;
  headers?: Record<string, string>;
}

export interface WriteWarcOptions {
  /** The URL the pages are archived under (ends with '/'); a page's URL is `baseUrl` + its key. */
  baseUrl: string;
  /** Gzip each record (default: when the file name ends in .gz). */
  gzip?: boolean;
  /** WARC-Date of the records (default: now). */
  date?: Date;
}

/** The Content-Type of a page file by its extension. */
export function contentTypeOfKey(key: string): string {
  return /\.xhtml$/i.test(key) ? 'application/xhtml+xml' : 'text/html';
}

/**
 * Writes a WARC/1.1 file: a warcinfo record, then one `response` record (HTTP 200 unless a page says
 * otherwise) per page of a directory (its DirSource pages; failures are skipped) or per page given.
 * Returns the number of response records written.
 */
export async function writeWarc(from: string | Iterable<WarcPage> | AsyncIterable<WarcPage>, outFile: string, options: WriteWarcOptions): Promise<number> {
  const gzip = options.gzip ?? /\.gz$/i.test(outFile);
  const date = (options.date ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const parts: Uint8Array[] = [];
  const warcVersion = 'WARC/1.1';
  const info = WARCRecord.createWARCInfo({ filename: outFile.split('/').pop() ?? outFile, warcVersion }, { software: 'gabarit' });
  parts.push(await WARCSerializer.serialize(info, { gzip }));
  let n = 0;
  const pages: Iterable<WarcPage> | AsyncIterable<WarcPage> = typeof from === 'string' ? dirPages(from) : from;
  for await (const p of pages) {
    const body = typeof p.body === 'string' ? new TextEncoder().encode(p.body) : p.body;
    const url = p.url ?? new URL(encodeKeyPath(p.key), options.baseUrl).href;
    const status = p.status ?? 200;
    const httpHeaders: Record<string, string> = { 'Content-Type': contentTypeOfKey(p.key), ...(p.headers ?? {}) };
    httpHeaders['Content-Length'] = String(body.length);
    const record = WARCRecord.create(
      { url, date, type: 'response', warcVersion, httpHeaders, statusline: `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Status'}` },
      [body],
    );
    parts.push(await WARCSerializer.serialize(record, { gzip }));
    n++;
  }
  await writeFile(outFile, parts);
  return n;
}

async function* dirPages(dir: string): AsyncIterable<WarcPage> {
  const source = new DirSource(dir);
  for await (const r of source.pages()) if (r.ok) yield { key: r.page.key, body: r.page.body };
}
