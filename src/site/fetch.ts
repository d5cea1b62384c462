/**
 * The fetcher: how gabarit downloads pages as a guest of the site (brief, "A crawler is a guest").
 *  - robots.txt (RFC 9309) is read once per host and obeyed for the configured user agent (robots.ts);
 *  - per-host politeness: at most `concurrencyPerHost` requests at once, and request starts to one host at
 *    least `delayMs` apart, or the host's Crawl-delay (politeness.ts);
 *  - a timeout per attempt; retries with exponential backoff (`retryBaseMs · 2^attempt`) on 5xx, 429,
 *    timeouts and network errors, never on other 4xx;
 *  - compressed answers (Accept-Encoding gzip, deflate, br) decoded as they stream (decode.ts); a corrupt
 *    or unknown coding fails with `bad-encoding`;
 *  - a size cap enforced while streaming, on the decoded bytes (the body is abandoned past `maxBytes`, so a
 *    decompression bomb stops there), and a refusal before reading when Content-Length already says too much;
 *  - only HTML and XHTML are accepted (by Content-Type, or sniffed when the server sends none);
 *  - redirects are followed by hand so that loops, excessive chains, off-site targets and robots rules on
 *    the target are all checked;
 *  - an in-run cache (a URL is fetched at most once per run, failures included) and, with a Store, pages
 *    stored by an earlier run are taken from it instead of the network (resume);
 *  - files that are not pages (sitemaps: `fetchFile`) go through the same robots rules, host gate and retries,
 *    with their own size cap and any content type;
 *  - an abort signal (an interrupted run): requests under way are abandoned, none is started, and the
 *    fetches fail with `interrupted`.
 * Every failure is a PageError whose message names the URL and the reason.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { PageError, type PageErrorCode } from '../errors.ts';
import type { Store } from './store.ts';
import { checkBody, isHtmlType, sniffHtml } from './check.ts';
import { ACCEPT_ENCODING, contentCodings, decodeBody, DecodeError, unsupportedCoding } from './decode.ts';
import { sameSite } from './links.ts';
import type { Page } from './page.ts';
import { HostGate } from './politeness.ts';
import { ROBOTS_MAX_BYTES, RobotsRules } from './robots.ts';
import { FETCH_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';

export interface FetchOptions {
  /** User agent sent, and matched against robots.txt groups (default `DEFAULTS.userAgent`). */
  userAgent?: string;
  /** Requests at once per host (default `DEFAULTS.concurrencyPerHost`). */
  concurrencyPerHost?: number;
  /** Least time between the starts of two requests to one host, ms (default `DEFAULTS.delayMs`). */
  delayMs?: number;
  /** Time allowed for one attempt, headers and body, ms (default `DEFAULTS.timeoutMs`). */
  timeoutMs?: number;
  /** Retries after the first attempt on retryable failures (default `DEFAULTS.retries`). */
  retries?: number;
  /** First backoff, ms; doubled at each retry (default `DEFAULTS.retryBaseMs`). */
  retryBaseMs?: number;
  /** Largest body accepted, bytes (default `DEFAULTS.maxBytes`). */
  maxBytes?: number;
  /** Redirects followed before giving up (default `DEFAULTS.maxRedirects`). */
  maxRedirects?: number;
  /** Obey robots.txt (default true). */
  robots?: boolean;
  /** Pages already in this store are not fetched again; fetched pages are put in it. */
  store?: Store;
  /** When set, a redirect to a URL outside this root fails with `off-site` instead of being followed. */
  stayWithin?: string;
  /** Called at the start of every HTTP request (robots.txt, redirects and retries included). */
  onRequest?: (info: RequestInfo) => void;
  /** Once aborted, no request starts, those under way are abandoned, and fetches fail with `interrupted`. */
  signal?: AbortSignal;
}

/** One HTTP request as it starts (for progress and for checking politeness). */
export interface RequestInfo {
  url: string;
  /** `Date.now()` at the start. */
  time: number;
  /** 0 for the first attempt, then 1, 2… for retries. */
  attempt: number;
}

/** What a fetcher did so far. */
export interface FetchStats {
  /** HTTP requests sent (robots.txt, redirect hops and retries included). */
  requests: number;
  /** Pages downloaded (successful page fetches over the network). */
  downloads: number;
  /** Retries after retryable failures. */
  retries: number;
  /** Pages taken from the store instead of the network. */
  storeHits: number;
  /** Fetches answered by the in-run cache. */
  cacheHits: number;
}

interface RawResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * What a request is for: a page (robots, HTML and size checks, the page cache and store), robots.txt itself
 * (no robots check, a body past its cap truncated), or a file such as a sitemap (robots obeyed, any
 * content type, a body past `limit` refused, redirects kept on its host).
 */
type Want = { kind: 'page' | 'robots' } | { kind: 'file'; limit: number };
const PAGE: Want = { kind: 'page' };
const ROBOTS: Want = { kind: 'robots' };
const ACCEPT: Record<Want['kind'], string> = {
  page: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  robots: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  file: 'application/xml,text/xml;q=0.9,*/*;q=0.1',
};
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'truncated body (shorter than its Content-Length)',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request content length mismatch',
};

function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
  }
  return undefined;
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Downloads pages politely; see the module comment. One Fetcher per run. */
export class Fetcher {
  readonly stats: FetchStats = { requests: 0, downloads: 0, retries: 0, storeHits: 0, cacheHits: 0 };
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly store: Store | undefined;
  private readonly stayWithin: string | undefined;
  private readonly onRequest: ((info: RequestInfo) => void) | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly dispatcher: Agent;
  private readonly gate: HostGate;
  /** null when robots.txt is not obeyed (`robots: false`). */
  private readonly robots: RobotsRules | null;
  private readonly cache = new Map<string, Promise<Page>>();
  /** Store lookups waiting for their batch's query (see `stored`). */
  private lookups: Map<string, Array<{ resolve: (p: Page | undefined) => void; reject: (e: unknown) => void }>> | undefined;

  constructor(options: FetchOptions = {}) {
    const o = filled(options, FETCH_DEFAULTS, ['userAgent', 'concurrencyPerHost', 'delayMs', 'timeoutMs', 'retries', 'retryBaseMs', 'maxBytes', 'maxRedirects']);
    this.userAgent = o.userAgent;
    const concurrency = Math.max(1, o.concurrencyPerHost);
    this.gate = new HostGate(concurrency, Math.max(0, o.delayMs));
    this.timeoutMs = o.timeoutMs;
    this.retries = Math.max(0, o.retries);
    this.retryBaseMs = o.retryBaseMs;
    this.maxBytes = o.maxBytes;
    this.maxRedirects = o.maxRedirects;
    this.robots = (options.robots ?? true) ? new RobotsRules(this.userAgent, (url) => this.readRobots(url), (host, ms) => this.gate.raiseDelay(host, ms)) : null;
    this.store = options.store;
    this.stayWithin = options.stayWithin;
    this.onRequest = options.onRequest;
    this.signal = options.signal;
    this.dispatcher = new Agent({ connections: concurrency, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
  }

  /**
   * Fetches one page (`key` is stored with it; default: the URL's path). Rejects with a PageError.
   * Each URL is fetched once per run: later calls share the first call's outcome.
   */
  fetch(url: string, key?: string): Promise<Page> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return Promise.reject(new PageError(url, 'invalid-url', 'invalid URL'));
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return Promise.reject(new PageError(url, 'invalid-url', `unsupported scheme "${parsed.protocol}" (only http and https are fetched)`));
    }
    parsed.hash = '';
    const href = parsed.href;
    const cached = this.cache.get(href);
    if (cached) {
      this.stats.cacheHits++;
      return cached;
    }
    const p = this.load(href, key ?? (decodeURIComponent(parsed.pathname).replace(/^\/+/, '') || 'index.html'));
    this.cache.set(href, p);
    p.catch(() => undefined);
    return p;
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** The stored page of `url`: lookups asked for in one turn of the event loop share one query. */
  private stored(url: string): Promise<Page | undefined> {
    const store = this.store!;
    let batch = this.lookups;
    if (!batch) {
      const b = new Map<string, Array<{ resolve: (p: Page | undefined) => void; reject: (e: unknown) => void }>>();
      batch = this.lookups = b;
      setImmediate(() => {
        this.lookups = undefined;
        store.getPages([...b.keys()]).then(
          (found) => {
            for (const [u, waiting] of b) for (const w of waiting) w.resolve(found.get(u));
          },
          (err: unknown) => {
            for (const waiting of b.values()) for (const w of waiting) w.reject(err);
          },
        );
      });
    }
    const waiting = batch.get(url) ?? [];
    batch.set(url, waiting);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  private async load(url: string, key: string): Promise<Page> {
    if (this.store) {
      const stored = await this.stored(url);
      if (stored) {
        this.stats.storeHits++;
        return stored;
      }
    }
    const res = await this.followRedirects(url, PAGE);
    if ('alias' in res) return res.alias; // redirected to a page fetched in this run or stored: no download
    const page: Page = { url: res.url, key, status: res.status, headers: res.headers, body: res.body, origin: 'http' };
    this.stats.downloads++;
    if (res.url !== url && !this.cache.has(res.url)) this.cache.set(res.url, Promise.resolve(page));
    if (this.store) {
      await this.store.putPage(page);
    }
    return page;
  }

  /**
   * A file that is not a page (a sitemap), fetched as politely as pages: robots.txt obeyed, through the
   * host's gate, retried, counted in `stats.requests`; any content type; a body over `maxBytes` (decoded)
   * fails with `too-large`; a redirect to another host fails with `off-site`. Not cached: the caller
   * reads each file once. Rejects with a PageError.
   */
  async fetchFile(url: string, maxBytes: number): Promise<{ url: string; headers: Record<string, string>; body: Uint8Array }> {
    const res = await this.followRedirects(url, { kind: 'file', limit: maxBytes });
    if ('alias' in res) throw new Error(`${url} answered from the page cache`); // only pages are aliased
    return { url: res.url, headers: res.headers, body: res.body };
  }

  /** The `Sitemap:` lines of the robots.txt of `url`'s origin (none when robots.txt is not obeyed or has none). */
  robotsSitemaps(url: string): Promise<string[]> {
    return this.robots?.sitemaps(url) ?? Promise.resolve([]);
  }

  /** Follows redirects from `url` by hand, with the checks of what is wanted (see Want). */
  private async followRedirects(url: string, want: Want): Promise<RawResponse | { alias: Promise<Page> }> {
    const page = want.kind === 'page';
    const chain = new Set<string>();
    let current = url;
    for (let hop = 0; ; hop++) {
      if (want.kind !== 'robots') await this.robots?.check(current, url);
      chain.add(current);
      const res = await this.withRetries(current, want);
      if (!REDIRECTS.has(res.status)) return res;
      const location = res.headers['location'];
      if (!location) throw new PageError(url, 'http-status', `HTTP ${res.status} redirect without a Location header (at ${current})`, { status: res.status });
      let next: string;
      try {
        const u = new URL(location, current);
        u.hash = '';
        next = u.href;
      } catch {
        throw new PageError(url, 'invalid-url', `redirect to an invalid URL "${location}" (from ${current})`);
      }
      if (chain.has(next)) {
        throw new PageError(url, 'redirect-loop', `redirect loop: ${[...chain, next].join(' -> ')}`);
      }
      if (hop + 1 > this.maxRedirects) {
        throw new PageError(url, 'too-many-redirects', `more than ${this.maxRedirects} redirects (last: ${next})`);
      }
      if (page && this.stayWithin !== undefined && !sameSite(next, this.stayWithin)) {
        throw new PageError(url, 'off-site', `redirects off site to ${next} (site root ${this.stayWithin})`);
      }
      if (want.kind === 'file' && new URL(next).host !== new URL(url).host) throw new PageError(url, 'off-site', `redirects to another host: ${next}`);
      const known = page ? this.cache.get(next) : undefined;
      if (known) {
        this.stats.cacheHits++;
        return { alias: known };
      }
      if (page && this.store) {
        const stored = await this.store.getPage(next);
        if (stored) {
          this.stats.storeHits++;
          return { alias: Promise.resolve(stored) };
        }
      }
      current = next;
    }
  }

  private async withRetries(url: string, want: Want): Promise<RawResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(url, attempt, want);
      } catch (err) {
        if (this.signal?.aborted) throw this.interrupted(url);
        const e = err instanceof PageError ? err : new PageError(url, 'network', String(err), { retryable: true, cause: err });
        if (!e.retryable) throw e;
        if (attempt >= this.retries) {
          if (attempt === 0) throw e;
          const reason = e.message.startsWith(`${e.url}: `) ? e.message.slice(e.url.length + 2) : e.message;
          const opts: { retryable: boolean; status?: number; cause: unknown } = { retryable: true, cause: e };
          if (e.status !== undefined) opts.status = e.status;
          throw new PageError(e.url, e.code, `${reason} (gave up after ${attempt + 1} attempts)`, opts);
        }
        this.stats.retries++;
        try {
          await sleep(this.retryBaseMs * 2 ** attempt, undefined, this.signal ? { signal: this.signal } : {});
        } catch {
          throw this.interrupted(url);
        }
      }
    }
  }

  /** One HTTP request through the host's politeness gate. */
  private async attempt(url: string, attempt: number, want: Want): Promise<RawResponse> {
    const page = want.kind === 'page';
    const host = new URL(url).host;
    // The start the gate recorded is the one reported: other work queued before this continuation may run
    // between the two, and the delay is kept between the gate's starts.
    const started = await this.gate.acquire(host, this.signal);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    const stop = (): void => controller.abort();
    this.signal?.addEventListener('abort', stop, { once: true });
    try {
      this.stats.requests++;
      this.onRequest?.({ url, time: started, attempt });
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: 'GET',
          dispatcher: this.dispatcher,
          signal: controller.signal,
          headers: { 'user-agent': this.userAgent, accept: ACCEPT[want.kind], 'accept-encoding': ACCEPT_ENCODING },
        });
      } catch (err) {
        throw this.networkError(url, err, controller.signal.aborted);
      }
      const status = res.statusCode;
      const headers = headerRecord(res.headers);
      const drop = async (): Promise<void> => {
        try {
          await res.body.dump({ limit: 64 * 1024 });
        } catch {
          /* the body is abandoned either way */
        }
      };
      if (REDIRECTS.has(status)) {
        await drop();
        return { url, status, headers, body: new Uint8Array(0) };
      }
      if (status < 200 || status > 299) {
        await drop();
        throw this.statusError(url, status);
      }
      const limit = want.kind === 'file' ? want.limit : page ? this.maxBytes : ROBOTS_MAX_BYTES;
      const declared = Number(headers['content-length']);
      if (want.kind !== 'robots' && Number.isFinite(declared) && declared > limit) {
        await drop();
        throw new PageError(url, 'too-large', `too large: Content-Length ${declared} bytes exceeds the cap of ${limit} bytes`);
      }
      const ct = headers['content-type'];
      if (page && ct !== undefined && !isHtmlType(ct)) {
        await drop();
        throw new PageError(url, 'not-html', `not an HTML page (Content-Type: ${ct})`);
      }
      const codings = contentCodings(headers['content-encoding']);
      const unknown = unsupportedCoding(codings);
      if (unknown !== undefined) {
        await drop();
        throw new PageError(url, 'bad-encoding', `unsupported Content-Encoding "${unknown}" (accepted: ${ACCEPT_ENCODING})`);
      }
      // The cap counts decoded bytes (and, for a compressed body, the encoded ones too).
      let encoded = 0;
      const counted = async function* (): AsyncGenerator<Uint8Array> {
        for await (const chunk of res.body) {
          encoded += (chunk as Uint8Array).length;
          if (encoded > limit) throw new PageError(url, 'too-large', `too large: body exceeds the cap of ${limit} bytes (stopped reading after ${encoded} bytes)`);
          yield chunk as Uint8Array;
        }
      };
      const chunks: Uint8Array[] = [];
      let total = 0;
      try {
        for await (const c of decodeBody(counted(), codings)) {
          if (total + c.length > limit) {
            if (want.kind === 'robots') {
              chunks.push(c.subarray(0, limit - total));
              total = limit;
              break;
            }
            const decoded = codings.length > 0 ? ` decoded from ${codings.join(', ')} (stopped after ${total + c.length} decoded bytes from ${encoded} encoded bytes)` : ` (stopped reading after ${total + c.length} bytes)`;
            throw new PageError(url, 'too-large', `too large: body exceeds the cap of ${limit} bytes${decoded}`);
          }
          total += c.length;
          chunks.push(c);
        }
      } catch (err) {
        if (err instanceof PageError) throw err;
        if (err instanceof DecodeError) throw new PageError(url, 'bad-encoding', err.message, { cause: err });
        throw this.networkError(url, err, controller.signal.aborted);
      } finally {
        res.body.destroy();
      }
      if (codings.length > 0) {
        // The body kept is the decoded one: the headers that described its encoding no longer apply.
        delete headers['content-encoding'];
        delete headers['content-length'];
      }
      const body = concat(chunks, total);
      if (page) {
        const bad = checkBody(url, body);
        if (bad) throw bad;
        if (ct === undefined && !sniffHtml(body)) throw new PageError(url, 'not-html', 'not an HTML page (no Content-Type, and the body does not look like HTML)');
      }
      return { url, status, headers, body };
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', stop);
      this.gate.release(host);
    }
  }

  private statusError(url: string, status: number): PageError {
    if (status === 404 || status === 410) return new PageError(url, 'not-found', `not found (HTTP ${status})`, { status });
    const retryable = status >= 500 || status === 429;
    return new PageError(url, 'http-status', `HTTP ${status}${retryable ? ' (server error)' : ''}`, { status, retryable });
  }

  /** The failure of a fetch cut short by the fetcher's abort signal. */
  private interrupted(url: string): PageError {
    return new PageError(url, 'interrupted', 'not loaded: the run was interrupted');
  }

  private networkError(url: string, err: unknown, timedOut: boolean): PageError {
    if (this.signal?.aborted) return this.interrupted(url);
    const code = errorCode(err);
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new PageError(url, 'timeout', `timed out after ${this.timeoutMs} ms`, { retryable: true, cause: err });
    }
    const reason = (code && NETWORK_REASONS[code]) ?? (err instanceof Error ? err.message : String(err));
    const errCode: PageErrorCode = 'network';
    return new PageError(url, errCode, `network error: ${reason}${code ? ` (${code})` : ''}`, { retryable: true, cause: err });
  }

  /** A robots.txt after redirects (no page checks: it is not a page). */
  private async readRobots(url: string): Promise<RawResponse> {
    const res = await this.followRedirects(url, ROBOTS);
    if ('alias' in res) throw new Error(`robots.txt ${url} answered from the page cache`); // only pages are aliased
    return res;
  }
}
