/**
 * Content codings of HTTP answers (RFC 9110 §8.4) as the fetcher accepts them: gzip, deflate and br, decoded
 * by node's zlib as the body streams in, so that a size cap counts decoded bytes and stops a decompression
 * bomb after the cap, not after it has filled memory. Codings listed in a Content-Encoding are undone in
 * the reverse order of the list. `deflate` is meant to be zlib-wrapped (RFC 1950) but some servers send raw
 * deflate (RFC 1951): the first bytes tell which.
 */
import { Readable, pipeline, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/** The Accept-Encoding the fetcher sends. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const DECODERS: Readonly<Record<string, (first: Uint8Array | undefined) => Transform>> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  br: () => createBrotliDecompress(),
  deflate: (first) => (first === undefined || isZlibHeader(first) ? createInflate() : createInflateRaw()),
};

/** True when the bytes start like a zlib stream (RFC 1950: method 8, header check a multiple of 31). */
function isZlibHeader(b: Uint8Array): boolean {
  if (b.length === 0 || (b[0]! & 0x0f) !== 8) return false;
  return b.length < 2 || ((b[0]! << 8) | b[1]!) % 31 === 0;
}

/** The codings of a Content-Encoding value, in the order they were applied, `identity` left out. */
export function contentCodings(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** The first of `codings` that cannot be decoded, or undefined. */
export function unsupportedCoding(codings: readonly string[]): string | undefined {
  return codings.find((c) => !(c in DECODERS));
}

/** A coding whose bytes do not decode (corrupt or truncated data). */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    readonly coding: string,
    cause: unknown,
  ) {
    super(`cannot decode its Content-Encoding ${coding}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * The decoded bytes of `body` encoded with `codings` (as `contentCodings` gives them; all supported).
 * Errors of `body` come out as they are; data that does not decode comes out as a DecodeError. Stopping
 * the iteration early stops decoding (the caller still closes `body`).
 */
export async function* decodeBody(body: AsyncIterable<Uint8Array>, codings: readonly string[]): AsyncGenerator<Uint8Array> {
  if (codings.length === 0) {
    yield* body;
    return;
  }
  const it = body[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  let sourceError: unknown;
  async function* raw(): AsyncGenerator<Uint8Array> {
    try {
      yield first.value;
      for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    } catch (err) {
      sourceError = err;
      throw err;
    }
  }
  const order = [...codings].reverse();
  let decodeError: DecodeError | undefined;
  const decoders = order.map((c, i) => {
    const d = DECODERS[c]!(i === 0 ? first.value : undefined);
    d.once('error', (err) => (decodeError ??= new DecodeError(c, err)));
    return d;
  });
  const out = pipeline([Readable.from(raw(), { objectMode: false }), ...decoders], () => undefined) as unknown as Readable;
  try {
    for await (const chunk of out) yield chunk as Uint8Array;
  } catch (err) {
    throw sourceError ?? decodeError ?? err;
  } finally {
    out.destroy();
  }
}
