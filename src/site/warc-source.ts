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
 *    from URL paths as for HTTP (keys.ts). An archive of several sites (a crawl of the web) without a
 *    `root` reads as a mirror folder of sites: root `SITES_ROOT`, keys `host/path` (`host_port/path` on a
 *    port not the scheme's; `http://a.example/x` and `https://a.example/x` are one key, the first record
 *    wins), each page keeping its URL; each site is its host's pages under their common directory, as
 *    an archive of that site alone has its root (a link above it, or to a host not archived, is off the
 *    source);
 *  - pages() yields in key order (as a directory does), so equal sites give equal streams;
 *  - a payload over `maxBytes` is not read further nor kept: that page fails with `too-large` (refused, not
 *    cut, as over HTTP: a cut page would be another page).
 * `open` reads the archive once and keeps an index (each page's URL, status, headers and the offset of
 * its record in the file), not the pages: a page's payload is read from its record when it is loaded, so
 * memory does not grow with the archive's payloads. That needs records that can be read from their offset
 * (an uncompressed WARC, or one gzip member per record, as WARC writers make them); an archive gzipped as
 * one stream is read into memory instead.
 * Gzip is inflated by Node's zlib, not by warcio (which inflates in JavaScript, several times slower): an
 * archive of one gzip member per record is split into its members here (`gzipMembers`), each inflated at
 * once and, when it is exactly one whole record, read from its headers (`recordHead`: plain ones, most of a
 * crawl's) or else handed to warcio to parse; a member the file's end cuts short makes its page fail by name.
 * (A member's end could be found from its start alone, as the gzip trailer giving its record's length; it
 * is not, because a stored deflate block can hold such a trailer and a whole forged member: only inflating
 * the member tells where it ends.) Other archives (uncompressed, one gzip stream, records split over
 * members, a member over `MEMBER_MAX` or inflating past the size cap) are indexed by warcio's own reading.
 * Either way (an archive held in memory aside) a page is read back as its record's bytes [offset, end)
 * through one file descriptor, inflated by zlib, and checked whole; a response whose HTTP message is not
 * encoded gives its payload as it lies there (`plainPayload`), any other record is parsed by warcio (given
 * a record cut short, warcio returns what there is, or waits for the rest forever).
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { type FileHandle, open, writeFile } from 'node:fs/promises';
import { constants as zlibConstants, gunzipSync, inflateRawSync } from 'node:zlib';
import { WARCParser, WARCRecord, WARCSerializer } from 'warcio';
import { PageError } from '../errors.ts';
import { checkBody, isHtmlType, keyOfUrlOrKey, loadEach, sniffHtml } from './check.ts';
import { RootedSource } from './rooted-source.ts';
import { DirSource } from './dir-source.ts';
import { commonRoot, keyFromUrl, siteFolder, siteKey, siteOrigin, SITES_ROOT, urlFromKey, encodeKeyPath } from './keys.ts';
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
  /** Where the record's bytes end in the file (the next record's offset, or the file's size). */
  end?: number;
  /** Set when the payload was over the size cap: the bytes read before reading stopped. */
  tooLarge?: number;
  /** Set when the archive ends inside the record (its file was cut): the record's size in the file. */
  cut?: number;
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

/** Records by their key (the first record of a key wins), and how many have none (off the root). */
function byKeyOf(records: Iterable<Archived>, keyOf: (url: string) => string | undefined): { byKey: Map<string, Archived>; skipped: number } {
  const byKey = new Map<string, Archived>();
  let skipped = 0;
  for (const r of records) {
    const key = keyOf(r.url);
    if (key === undefined) skipped++;
    else if (!byKey.has(key)) byKey.set(key, r);
  }
  return { byKey, skipped };
}

export class WarcSource extends RootedSource implements PageSource {
  readonly kind = 'warc' as const;
  readonly entry: string;
  /** The archive file. */
  readonly file: string;
  /** Records that were not pages (non-HTML, redirects, requests, metadata…). */
  readonly skipped: number;
  /** True when pages are read from their records' offsets (false: the archive is held in memory). */
  readonly fromOffsets: boolean;
  /** True when each record is a gzip member of its own, split and inflated by zlib (false: read by warcio). */
  readonly members: boolean;
  /** True for an archive of several sites read as a folder of them (root `SITES_ROOT`, keys `host/path`). */
  readonly sites: boolean;
  private readonly byKey: Map<string, Archived>;
  private readonly order: string[];
  private readonly maxBytes: number;
  /** The archive, open while pages are read from it. */
  private fd: number | undefined;

  private constructor(file: string, root: string, entry: string, byKey: Map<string, Archived>, skipped: number, maxBytes: number, members: boolean) {
    super(root);
    this.sites = root === SITES_ROOT;
    this.members = members;
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
    let { records, skipped, members } = await index(file, false, maxBytes);
    // Records read back from their offset? (Not when the whole file is one gzip stream.)
    const probe = records[records.length - 1];
    if (!members && probe && !(await readableAt(file, probe))) ({ records, skipped } = await index(file, true, maxBytes));
    if (records.length === 0) throw new PageError(`file://${file}`, 'empty', 'no HTML response records in the archive');
    const root = options.root ?? commonRoot(records.map((r) => r.url)) ?? SITES_ROOT;
    const keyed = byKeyOf(records, root === SITES_ROOT ? siteKey : (url) => keyFromUrl(url, root));
    const byKey = keyed.byKey;
    skipped += keyed.skipped;
    const sorted = [...byKey.keys()].sort();
    const first = sorted[0] ?? 'index.html';
    if (root === SITES_ROOT) {
      // the given entry, else the home page of the first site that has one (`host/index.html`)
      const given = options.entry === undefined ? undefined : (siteKey(options.entry) ?? options.entry);
      const entry = given !== undefined && byKey.has(given) ? given : (sorted.find((k) => /^[^/]+\/index\.html$/.test(k)) ?? first);
      return new WarcSource(file, root, byKey.get(entry)?.url ?? root, byKey, skipped, maxBytes, members);
    }
    const entryKey = options.entry !== undefined ? (keyFromUrl(options.entry, root) ?? options.entry) : byKey.has('index.html') ? 'index.html' : first;
    return new WarcSource(file, root, urlFromKey(entryKey, root), byKey, skipped, maxBytes, members);
  }

  async *pages(options: PageSourceOptions = {}): AsyncIterable<PageResult> {
    try {
      yield* loadEach(this.order, options, (key) => this.byKey.get(key)!.url, (key) => this.page(key, this.byKey.get(key)!));
    } finally {
      // the file is opened again if a page is asked for later
      this.closeFile();
    }
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
    if (r.cut !== undefined) {
      throw new PageError(r.url, 'read-error', `the archive ${this.file} ends inside its record (the file is cut: ${r.cut} bytes of its gzip member, incomplete)`);
    }
    if (r.status === 404 || r.status === 410) throw new PageError(r.url, 'not-found', `archived response is HTTP ${r.status}`, { status: r.status });
    if (r.status < 200 || r.status > 299) throw new PageError(r.url, 'http-status', `archived response is HTTP ${r.status}`, { status: r.status });
    let body: Uint8Array;
    try {
      // a record indexed by its offset has its end (the next record's offset, or the file's size)
      body = typeof r.at === 'number' ? await payloadAt(r.at, r.end ?? statSync(this.file).size, () => (this.fd ??= openSync(this.file, 'r'))) : r.at;
    } catch (err) {
      throw new PageError(r.url, 'read-error', `cannot read its record in ${this.file} (${(err as Error).message})`, { cause: err });
    }
    const bad = checkBody(r.url, body);
    if (bad) throw bad;
    this.count++;
    return { url: r.url, key, status: r.status, headers: r.headers, body, origin: 'warc' };
  }

  /**
   * The same archive read as one of several sites (root `SITES_ROOT`, keys `host/path`), from its index
   * (not read again): what a glob of archives of different sites makes of each.
   */
  asSites(): WarcSource {
    if (this.sites) return this;
    const { byKey, skipped } = byKeyOf(this.byKey.values(), siteKey);
    return new WarcSource(this.file, SITES_ROOT, this.entry, byKey, this.skipped + skipped, this.maxBytes, this.members);
  }

  /** True when the archive holds a page of this key. */
  holds(key: string): boolean {
    return this.byKey.has(key);
  }

  override keyOf(url: string): string | undefined {
    if (!this.sites) return super.keyOf(url);
    const n = normalizeUrl(url);
    const key = n === undefined ? undefined : siteKey(n);
    if (key === undefined) return undefined;
    // a site is its host's archived pages under their common directory, as an archive of that site alone
    // has it (its root): a link above it, or to a host the archive does not hold, is off the source
    const slash = key.indexOf('/');
    const site = this.siteRoots.get(key.slice(0, slash));
    return site !== undefined && key.startsWith(site.dir, slash) ? key : undefined;
  }

  override urlOf(key: string): string {
    if (!this.sites) return super.urlOf(key);
    const archived = this.byKey.get(key);
    if (archived) return archived.url;
    // a key of a page not archived: under its site's origin, on the scheme of that site's first page
    // (https for a site the archive does not hold)
    const slash = key.indexOf('/');
    const folder = slash < 0 ? key : key.slice(0, slash);
    return urlFromKey(slash < 0 ? '' : key.slice(slash + 1), `${siteOrigin(folder, this.siteRoots.get(folder)?.scheme ?? 'https:')}/`);
  }

  /**
   * Per site folder of an archive of several sites: the scheme of its first page, and the common directory
   * of its pages' URL paths (`/`, `/std/`; http and https pages of a host share it). Made when first asked.
   */
  private get siteRoots(): Map<string, { scheme: string; dir: string }> {
    if (this.roots) return this.roots;
    const paths = new Map<string, { scheme: string; urls: string[] }>();
    for (const r of this.byKey.values()) {
      const u = new URL(r.url);
      const folder = siteFolder(u.hostname, u.port);
      let site = paths.get(folder);
      if (!site) paths.set(folder, (site = { scheme: u.protocol, urls: [] }));
      site.urls.push(`https://${u.host}${u.pathname}`);
    }
    this.roots = new Map();
    for (const [folder, site] of paths) this.roots.set(folder, { scheme: site.scheme, dir: new URL(commonRoot(site.urls)!).pathname });
    return this.roots;
  }

  private roots: Map<string, { scheme: string; dir: string }> | undefined;

  async close(): Promise<void> {
    this.closeFile();
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Builds the index of `index` record by record: each record given with its offset (and its end, when
 * known; else the next record's offset ends it).
 */
class RecordIndex {
  readonly records: Archived[] = [];
  skipped = 0;
  private readonly seen = new Set<string>();
  /** The last record indexed by its offset whose end is not known yet. */
  private open: Archived | undefined;

  constructor(private readonly keep: boolean, private readonly maxBytes: number) {}

  async add(record: WARCRecord, offset: number, end?: number): Promise<void> {
    if (this.open) this.open.end = offset;
    this.open = undefined;
    const got = await this.read(record, offset);
    if (got && typeof got.at === 'number') {
      if (end !== undefined) got.end = end;
      else this.open = got;
    }
  }

  /**
   * Indexes a record [offset, end) from its head alone, as `add` would from the whole record; false (and
   * nothing indexed) when it needs the whole record: a resource, a page without a content type (its bytes
   * are sniffed), a payload over the cap.
   */
  addHead(h: RecordHead, offset: number, end: number): boolean {
    const page = (h.type === 'response' || h.type === 'resource') && h.url !== undefined && !this.seen.has(h.url);
    const redirect = h.status >= 300 && h.status < 400;
    const ct = h.headers['content-type'];
    const html = ct === undefined || isHtmlType(ct);
    if (page && (h.type === 'resource' || (!redirect && html && (ct === undefined || h.payload > this.maxBytes)))) return false;
    if (this.open) this.open.end = offset;
    this.open = undefined;
    if (!page || redirect || !html) {
      this.skipped++;
      return true;
    }
    this.seen.add(h.url!);
    this.records.push({ url: h.url!, status: h.status, headers: h.headers, at: offset, end });
    return true;
  }

  /**
   * The last record, cut short by the end of the file: a page that fails when loaded, named by the URL its
   * WARC headers give (`head`: what could be inflated of it), when they hold one.
   */
  cut(head: Buffer, offset: number, size: number): void {
    const text = head.toString('latin1', 0, Math.min(head.length, 64 << 10));
    const fields = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n')));
    const type = /^WARC-Type:[ \t]*(\S+)/im.exec(fields)?.[1];
    const target = /^WARC-Target-URI:[ \t]*<?([^\s>]+)/im.exec(fields)?.[1];
    const url = target ? normalizeUrl(target) : undefined;
    if ((type !== 'response' && type !== 'resource') || url === undefined || this.seen.has(url)) {
      this.skipped++;
      return;
    }
    this.seen.add(url);
    this.records.push({ url, status: 200, headers: {}, at: offset, end: offset + size, cut: size });
  }

  /** The file's size ends the last record. */
  finish(size: number): void {
    if (this.open) this.open.end = size;
    this.open = undefined;
  }

  private async read(record: WARCRecord, offset: number): Promise<Archived | undefined> {
    const type = record.warcType;
    const target = record.warcTargetURI;
    const url = target ? normalizeUrl(target) : undefined;
    if ((type !== 'response' && type !== 'resource') || url === undefined || this.seen.has(url)) return this.skip(record);
    const info = type === 'response' ? record.getResponseInfo() : null;
    const headers: Record<string, string> = {};
    if (info) {
      for (const [k, v] of info.headers as Iterable<[string, string]>) if (!TRANSFER_HEADERS.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    } else {
      const ct = record.warcHeader('Content-Type');
      if (ct) headers['content-type'] = ct;
    }
    const status = info ? Number(info.status) : 200;
    if (status >= 300 && status < 400) return this.skip(record);
    const ct = headers['content-type'];
    if (ct !== undefined && !isHtmlType(ct)) return this.skip(record);
    // Read through (counting its size, keeping its bytes only when held in memory or sniffed for HTML).
    const read = await readCapped(record, this.maxBytes, this.keep || ct === undefined);
    if ('over' in read) {
      // Indexed as a page that fails when loaded, so that it is named (a cut page would be another page).
      await record.skipFully();
      this.seen.add(url);
      const r: Archived = { url, status, headers, at: offset, tooLarge: read.over };
      this.records.push(r);
      return r;
    }
    if (ct === undefined && !sniffHtml(read.body)) {
      this.skipped++;
      return undefined;
    }
    this.seen.add(url);
    const r: Archived = { url, status, headers, at: this.keep ? read.body : offset };
    this.records.push(r);
    return r;
  }

  private async skip(record: WARCRecord): Promise<undefined> {
    this.skipped++;
    await record.skipFully();
    return undefined;
  }
}

/**
 * The archive's HTML pages (the first response of each URL), with the offset and end of each record, or
 * with its payload when `keep` (an archive whose records cannot be read from their offset). A payload over
 * `maxBytes` is indexed as too large (read no further, never kept). `members` is true when every record
 * was read from a gzip member of its own (so each reads back from its offset).
 */
async function index(file: string, keep: boolean, maxBytes: number): Promise<{ records: Archived[]; skipped: number; members: boolean }> {
  if (!keep) {
    const byMember = await indexMembers(file, maxBytes);
    if (byMember) return { records: byMember.records, skipped: byMember.skipped, members: true };
  }
  const acc = new RecordIndex(keep, maxBytes);
  const parser = new WARCParser(createReadStream(file));
  for await (const record of parser) await acc.add(record, parser.offset);
  acc.finish(statSync(file).size);
  return { records: acc.records, skipped: acc.skipped, members: false };
}

/** Largest gzip member inflated at once (compressed bytes); a larger one takes warcio's streaming. */
const MEMBER_MAX = 64 << 20;
/** Bytes read from the archive at a time. */
const CHUNK = 1 << 20;
/** Bytes of a member at hand before inflating it (more are read if it goes on). */
const MEMBER_START = 64 << 10;
/** Output chunk of zlib when the index inflates a member (the size of most records of a crawl). */
const INDEX_CHUNK = 64 << 10;
/** Room for a record's WARC and HTTP headers above the payload cap, when inflating a member. */
const HEADERS_ROOM = 1 << 20;

/**
 * The index of an archive of one gzip member per record, each member inflated by zlib; undefined when the
 * file is not that (not gzip, a member holding several records, a member over `MEMBER_MAX`, one inflating
 * past the cap, a damaged member): the caller reads it with warcio then.
 */
async function indexMembers(file: string, maxBytes: number): Promise<RecordIndex | undefined> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const acc = new RecordIndex(false, maxBytes);
    for await (const m of gzipMembers(fh, size, maxBytes + HEADERS_ROOM)) {
      if (m === null) return undefined;
      if ('cut' in m) {
        acc.cut(m.head, m.at, m.cut);
        break;
      }
      // a record read from its headers (most of a crawl's); else parsed by warcio
      const head = recordHead(m.data);
      if (head && acc.addHead(head, m.at, m.end)) continue;
      // a member that is not exactly one record (a record split over members): warcio reads the file
      // (given a record cut short, warcio waits for the rest forever)
      const record = oneRecord(m.data) ? await new WARCParser([m.data]).parse() : null;
      if (!record) return undefined;
      await acc.add(record, m.at, m.end);
    }
    return acc;
  } finally {
    await fh.close();
  }
}

/** What the index needs of a WARC record: its type, URL and, for a response, HTTP status, headers and payload length. */
interface RecordHead {
  type: string;
  url: string | undefined;
  status: number;
  /** The HTTP headers (lower-case names), without those of the transfer (content length). */
  headers: Record<string, string>;
  /** The payload's length (a response's HTTP message without its headers); -1 when not a response. */
  payload: number;
}

/** A header line `Name: value` (no folding, a token as its name, a value that is not empty). */
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/;
/** A character other than printable ASCII and tab, or a line end other than CRLF. */
const NOT_PLAIN = /[^\x20-\x7e\r\n\t]|\r(?!\n)|(?<!\r)\n/;

/**
 * The header lines of a block (after its first line), by lower-case name; undefined when one is not plain,
 * or, when `once`, when a name comes twice.
 */
function headerLines(lines: readonly string[], once: boolean): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const m = HEADER_LINE.exec(lines[i]!);
    const name = m?.[1]!.toLowerCase();
    if (!m || m[2] === '' || (once && out.has(name!))) return undefined;
    // a name given twice: the last value (as warcio gives an HTTP message's headers)
    out.set(name!, m[2]!);
  }
  return out;
}

/**
 * The head of the one whole WARC record `data` holds (and nothing after it), read without warcio, which
 * spent as much CPU on a record as inflating it; undefined when the record's headers are not plain: ASCII,
 * lines ended by CRLF, no folded lines, no empty values, no transfer or content encoding. Such records are
 * parsed by warcio, as are those the index needs whole (addHead); what is read here is what warcio gives.
 */
function recordHead(data: Buffer): RecordHead | undefined {
  const record = wholeRecord(data);
  if (!record || record.block + record.length + 4 !== data.length || NOT_PLAIN.test(record.fields)) return undefined;
  const warc = headerLines(record.fields.split('\r\n'), true);
  const type = warc?.get('warc-type');
  let target = warc?.get('warc-target-uri');
  if (!type || target?.startsWith('<') !== target?.endsWith('>')) return undefined;
  if (target?.startsWith('<')) target = target.slice(1, -1);
  const head: RecordHead = { type, url: target ? normalizeUrl(target) : undefined, status: 200, headers: {}, payload: -1 };
  if (type !== 'response') return head;
  const httpEnd = data.subarray(record.block, record.block + record.length).indexOf('\r\n\r\n');
  if (httpEnd < 0) return undefined;
  const http = data.toString('latin1', record.block, record.block + httpEnd);
  if (NOT_PLAIN.test(http)) return undefined;
  const lines = http.split('\r\n');
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})(?: |$)/.exec(lines[0]!);
  const headers = headerLines(lines, false);
  if (!status || !headers || headers.has('transfer-encoding') || headers.has('content-encoding')) return undefined;
  head.status = Number(status[1]);
  for (const [k, v] of headers) if (!TRANSFER_HEADERS.has(k)) head.headers[k] = v;
  head.payload = record.length - httpEnd - 4;
  return head;
}

/**
 * True when `data` is one whole WARC record: its header block, the `Content-Length` bytes of its content
 * block, then the two line ends that close a record (more line ends tolerated after them).
 */
function oneRecord(data: Buffer): boolean {
  const end = recordEnd(data);
  if (end < 0) return false;
  for (let k = end; k < data.length; k++) if (data[k] !== 13 && data[k] !== 10) return false;
  return true;
}

/** Where the WARC record that `data` starts with ends (after its closing line ends), or -1 if it is not all there. */
function recordEnd(data: Buffer): number {
  const r = wholeRecord(data);
  return r ? r.block + r.length + 4 : -1;
}

/**
 * The WARC record that `data` starts with, when it is all there: its header fields, where its content
 * block starts and its length (the block followed by the two line ends that close a record).
 */
function wholeRecord(data: Buffer): { fields: string; block: number; length: number } | undefined {
  const head = data.subarray(0, 64 << 10).indexOf('\r\n\r\n');
  if (head < 0) return undefined;
  const fields = data.toString('latin1', 0, head);
  const length = /\r\nContent-Length:[ \t]*(\d+)[ \t]*(?:\r\n|$)/i.exec(fields);
  if (!/^WARC\/\d/.test(fields) || !length) return undefined;
  const block = head + 4;
  const end = block + Number(length[1]);
  if (end + 4 > data.length || data.toString('latin1', end, end + 4) !== '\r\n\r\n') return undefined;
  return { fields, block, length: end - block };
}

/** Length of the gzip member header at `buf[p]`, or -1 when there is none (or it is not all in `buf`). */
function gzipHeader(buf: Uint8Array, p: number): number {
  if (p + 10 > buf.length || buf[p] !== 0x1f || buf[p + 1] !== 0x8b || buf[p + 2] !== 8) return -1;
  const flags = buf[p + 3]!;
  let q = p + 10;
  if (flags & 4) {
    if (q + 2 > buf.length) return -1;
    q += 2 + (buf[q]! | (buf[q + 1]! << 8));
  }
  for (const bit of [8, 16]) {
    if (flags & bit) {
      while (q < buf.length && buf[q] !== 0) q++;
      q++;
    }
  }
  if (flags & 2) q += 2;
  return q <= buf.length ? q - p : -1;
}

/**
 * The gzip members of a file, each with its place [at, end) and its inflated bytes; null (and no more)
 * where the file stops being a sequence of members this can inflate; a last member the file's end cuts
 * short comes as `cut` (its bytes in the file) with `head`, what of it inflates.
 */
async function* gzipMembers(fh: FileHandle, size: number, maxOut: number): AsyncGenerator<{ at: number; end: number; data: Buffer } | { at: number; cut: number; head: Buffer } | null> {
  let buf = Buffer.alloc(0);
  // buf[0] is the file's byte `base`; the next member starts at buf[pos]
  let base = 0;
  let pos = 0;
  // makes buf hold at least `need` bytes from pos (fewer at the end of the file), reading a chunk or more
  const fill = async (need: number): Promise<void> => {
    if (buf.length - pos >= need || base + buf.length >= size) return;
    const want = Math.min(Math.max(need, buf.length - pos + CHUNK), size - base - pos);
    const next = Buffer.allocUnsafe(want);
    let got = buf.copy(next, 0, pos);
    while (got < want) {
      const { bytesRead } = await fh.read(next, got, want - got, base + pos + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    base += pos;
    pos = 0;
    buf = next.subarray(0, got);
  };
  while (base + pos < size) {
    await fill(MEMBER_START);
    const h = gzipHeader(buf, pos);
    if (h < 0) {
      yield null;
      return;
    }
    let out: { buffer: Buffer; engine: { bytesWritten: number } } | undefined;
    while (out === undefined) {
      try {
        // output in chunks of 64 KB, not zlib's 16 KB: most records take one, not four joined by a copy
        out = inflateRawSync(buf.subarray(pos + h), { info: true, maxOutputLength: maxOut, chunkSize: INDEX_CHUNK } as object) as unknown as typeof out;
      } catch (err) {
        // the member goes on past what was read: read as much again (up to MEMBER_MAX), else give up
        const have = buf.length - pos;
        const short = (err as { code?: string }).code === 'Z_BUF_ERROR';
        if (short && base + buf.length >= size) {
          yield { at: base + pos, cut: have, head: partial(buf.subarray(pos + h)) };
          return;
        }
        if (!short || have >= MEMBER_MAX) {
          yield null;
          return;
        }
        await fill(have * 2);
      }
    }
    // the deflate data, then the trailer's CRC-32 and size (8 bytes)
    const length = h + out!.engine.bytesWritten + 8;
    await fill(length);
    if (buf.length - pos < length) {
      // the file ends inside the member's trailer
      yield { at: base + pos, cut: buf.length - pos, head: out!.buffer };
      return;
    }
    yield { at: base + pos, end: base + pos + length, data: out!.buffer };
    pos += length;
  }
}

/** What inflates of the start of a deflate stream cut short (enough for a record's headers). */
function partial(deflated: Uint8Array): Buffer {
  try {
    return inflateRawSync(deflated.subarray(0, 16 << 10), { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 32 << 20 });
  } catch {
    return Buffer.alloc(0);
  }
}

/** The bytes [at, end) of a file open as `fd`. */
function bytesAt(fd: number, at: number, end: number): Buffer {
  const b = Buffer.allocUnsafe(end - at);
  let got = 0;
  while (got < b.length) {
    const n = readSync(fd, b, got, b.length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return b.subarray(0, got);
}

/**
 * The (decoded) payload of the record at `offset`: its bytes [offset, end) read through `fd`, inflated by
 * zlib when gzip, and checked whole before warcio parses them.
 */
async function payloadAt(offset: number, end: number, fd: () => number): Promise<Uint8Array> {
  let bytes: Buffer = bytesAt(fd(), offset, end);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    // every member up to the next record (a record split over several members), or, when what follows
    // is damaged, the first one alone
    try {
      // one output buffer of the size the (last) member's trailer gives, not chunks joined by a copy: less
      // memory outside the heap to churn, whose growth starts the main thread's full collections
      const size = bytes.length >= 18 ? bytes.readUInt32LE(bytes.length - 4) : 0;
      bytes = gunzipSync(bytes, { chunkSize: Math.min(Math.max(64, size + 1), MEMBER_MAX) });
    } catch {
      const h = gzipHeader(bytes, 0);
      if (h < 0) throw new Error(`no gzip member at offset ${offset}`);
      bytes = inflateRawSync(bytes.subarray(h));
    }
  }
  // warcio, given a record cut short, would give what there is (or wait for the rest)
  const whole = wholeRecord(bytes);
  if (!whole) throw new Error(`the record at offset ${offset} is incomplete`);
  const plain = plainPayload(bytes, whole);
  if (plain) return plain;
  const record = await new WARCParser([bytes]).parse();
  if (!record) throw new Error(`no record at offset ${offset}`);
  return new Uint8Array(await record.readFully(true));
}

/**
 * The payload of a whole response record (`data`, as `wholeRecord` found it) whose HTTP message has neither
 * a transfer nor a content encoding: the bytes after its HTTP header block, without a copy. Undefined for
 * any other record (warcio decodes those). What warcio gives for such a record, without parsing it again
 * and copying the payload twice (most of a crawl's records are read this way), and right where warcio is
 * not: a header block ended by bare line feeds.
 */
function plainPayload(data: Buffer, record: { fields: string; block: number; length: number }): Uint8Array | undefined {
  if (!/\r\nWARC-Type:[ \t]*response[ \t]*(?:\r\n|$)/i.test(record.fields)) return undefined;
  const start = record.block;
  const end = start + record.length;
  if (data.toString('latin1', start, start + 5) !== 'HTTP/') return undefined;
  // the HTTP header block ends at the first blank line, its line ends CRLF or bare line feeds (which HTTP
  // allows a reader to accept, and warcio does not: it looks for CRLF CRLF, maybe in the page itself)
  const limit = Math.min(end, start + (64 << 10)) - 2;
  let i = start;
  while (i < limit && !(data[i] === 10 && (data[i + 1] === 10 || (data[i + 1] === 13 && data[i + 2] === 10)))) i++;
  if (i >= limit) return undefined;
  if (/\n(?:transfer|content)-encoding[ \t]*:/i.test(data.toString('latin1', start, i))) return undefined;
  const at = i + (data[i + 1] === 10 ? 2 : 3);
  // a plain Uint8Array (a page's body is one), a view of the record's bytes
  return new Uint8Array(data.buffer, data.byteOffset + at, end - at);
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
