/**
 * What makes a body a page, shared by every source so that bad input gets the same verdict and the same
 * message wherever it comes from (STYLE.md 8: diagnostics as data). Refusals are PageErrors (`empty`,
 * `binary`, `not-html`); problems a page survives (a declared charset that cannot be right) are warnings.
 */
import { charsetFromContentType, charsetFromMeta, decodeHtml, looksBinary, plainUtf8 } from '../html/charset.ts';
import { PageError } from '../errors.ts';
import type { Page, PageResult, PageSourceOptions } from './page.ts';
import { normalizeUrl } from './links.ts';
import { SITE_DEFAULTS } from './defaults.ts';

/** True for the media types of HTML and XHTML documents (parameters such as charset are ignored). */
export function isHtmlType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  return media === 'text/html' || media === 'application/xhtml+xml';
}

/**
 * Sniffs bytes as HTML (a simplified WHATWG MIME sniffing "HTML" rule): after an optional BOM and white
 * space the text starts with '<', and its first `SITE_DEFAULTS.sniffBytes` bytes hold a doctype or one of
 * the html / head / body / title tags.
 */
export function sniffHtml(bytes: Uint8Array): boolean {
  if (looksBinary(bytes)) return false;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || (bytes[i]! >= 0x09 && bytes[i]! <= 0x0d))) i++;
  if (bytes[i] !== 0x3c) return false;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + i, Math.min(bytes.length - i, SITE_DEFAULTS.sniffBytes))
    .toString('latin1')
    .toLowerCase();
  return /<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<title[\s>]/.test(head);
}

/** True when the bytes hold nothing but white space (or nothing). */
export function isBlankBody(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && (b < 0x09 || b > 0x0d) && !(i < 3 && (b === 0xef || b === 0xbb || b === 0xbf))) return false;
  }
  return true;
}

/** Returns the reason a body is not a usable page (`empty`, `binary`), naming `url`, or undefined. */
export function checkBody(url: string, body: Uint8Array): PageError | undefined {
  if (isBlankBody(body)) return new PageError(url, 'empty', body.length === 0 ? 'empty (0 bytes)' : `blank page (${body.length} bytes of white space)`);
  if (looksBinary(body)) return new PageError(url, 'binary', `binary content, not a page (${body.length} bytes; NUL or control bytes in the first 4 KiB)`);
  return undefined;
}

/**
 * Problems a page survives, each a message naming it: a declared charset that is not supported, or a
 * declared UTF-8 that the bytes are not (the page is decoded anyway, with U+FFFD for bad bytes).
 */
export function pageWarnings(page: Page): string[] {
  const out: string[] = [];
  const ct = page.headers['content-type'];
  // Most pages are UTF-8 saying so (or saying nothing): nothing to warn of, no need to decode them here.
  if (plainUtf8(page.body, ct)) return out;
  const decoded = decodeHtml(page.body, ct);
  if (decoded.warning) out.push(`${page.url}: ${decoded.warning}`);
  const declared = charsetFromContentType(ct) ?? charsetFromMeta(page.body);
  if (declared !== undefined && (decoded.source === 'header' || decoded.source === 'meta') && decoded.charset === 'utf-8') {
    let bad = 0;
    for (let i = 0; i < decoded.text.length; i++) if (decoded.text.charCodeAt(i) === 0xfffd) bad++;
    if (bad > 0) out.push(`${page.url}: declared charset "${declared}" (${decoded.source}) does not match the bytes: ${bad} undecodable sequence(s) replaced by U+FFFD`);
  }
  return out;
}

/** Any error as a PageError naming `url` (errors that are not PageErrors become `read-error`). */
export function asPageError(url: string, err: unknown): PageError {
  if (err instanceof PageError) return err;
  return new PageError(url, 'read-error', err instanceof Error ? err.message : String(err), { cause: err });
}

/** The failure item of a source's stream. */
export function failed(url: string, key: string, err: unknown): PageResult {
  return { ok: false, url, key, error: asPageError(url, err) };
}

/** The success item of a source's stream, with the page's warnings when it has any. */
export function succeeded(page: Page): PageResult {
  const warnings = pageWarnings(page);
  return warnings.length > 0 ? { ok: true, page, warnings } : { ok: true, page };
}

/**
 * The `pages()` stream of a source whose keys are known: loads each key in order (at most
 * `options.maxPages`, telling `options.onCut` how many keys that left), turning a thrown error into a
 * failure item, and reports progress.
 */
export async function* loadEach(
  keys: Iterable<string>,
  options: PageSourceOptions,
  urlOf: (key: string) => string,
  load: (key: string) => Page | Promise<Page>,
): AsyncIterable<PageResult> {
  const max = options.maxPages ?? Infinity;
  let done = 0;
  const it = keys[Symbol.iterator]();
  for (let next = it.next(); !next.done; next = it.next()) {
    const key = next.value;
    if (done >= max) {
      if (options.onCut) {
        let left = 1;
        while (!it.next().done) left++;
        options.onCut({ maxPages: max, left });
      }
      break;
    }
    const url = urlOf(key);
    let r: PageResult;
    try {
      r = succeeded(await load(key));
    } catch (err) {
      r = failed(url, key, err);
    }
    done++;
    options.onProgress?.(done, url);
    yield r;
  }
}

/** A key as sources accept it from users: no leading slash; '' or a trailing '/' means its index.html. */
export function cleanKey(key: string): string {
  const k = key.replace(/^\/+/, '');
  return k === '' || k.endsWith('/') ? k + 'index.html' : k;
}

/**
 * The key named by `get(urlOrKey)` of a source under an http(s)-like root: an absolute URL must be valid
 * and under the root (else a PageError naming it, `where` saying what the root is); anything else is a key.
 */
export function keyOfUrlOrKey(urlOrKey: string, keyOf: (url: string) => string | undefined, where: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(urlOrKey)) return cleanKey(urlOrKey);
  if (normalizeUrl(urlOrKey) === undefined) throw new PageError(urlOrKey, 'invalid-url', 'invalid URL');
  const key = keyOf(urlOrKey);
  if (key === undefined) throw new PageError(urlOrKey, 'off-site', `not under ${where}`);
  return key;
}
