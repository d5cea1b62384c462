/**
 * What the two local servers, `gabarit serve` (serve.ts) and `gabarit ui` (src/ui/server.ts), share to serve a
 * folder's files. Both listen on 127.0.0.1 only, yet any web page the user opens can send them requests, a
 * DNS-rebinding page can make its own host name resolve to 127.0.0.1, and a folder may hold more than pages
 * (a `.git` directory, an `.env` file, a FIFO). So:
 *  - `refuseForeign`: the Host header must name this server by a loopback address and its port
 *    (`127.0.0.1:P`, `localhost:P`, `[::1]:P`; a rebound host name arrives with its own name), else 421; an
 *    Origin header, when sent, must be the server's own, else 403;
 *  - `safeSegments`: a decoded URL path is refused when a segment is hidden (a leading '.': `.git`, `.env`,
 *    and so `.` and `..`) or holds a backslash or a NUL;
 *  - `realInside`: the real path (symbolic links followed) must be inside the folder;
 *  - `sendFile`: only a regular file is served: it is opened without blocking (a FIFO opened for reading
 *    would wait for a writer, holding one of the few threads every file operation shares) and anything else
 *    is not found; the file is streamed with backpressure (a slow reader costs a chunk, not the file, and a
 *    client that goes away ends the read), with its Content-Type and `X-Content-Type-Options: nosniff`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sniffHtml } from './check.ts';
import { isInside } from './dir-source.ts';
import { SITE_DEFAULTS } from './defaults.ts';

/** The only address the local servers listen on. */
export const LOOPBACK = '127.0.0.1';

/** Headers of every answer: the browser takes the Content-Type as given. */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.woff2': 'font/woff2',
};

/** Why a request is refused (an HTTP status and a short reason). */
export interface Refusal {
  status: number;
  reason: string;
}

/** The Host values that name a server on `port` of this machine. */
function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** A refusal when the request's Host or Origin is not this server on `port` (see the module comment), else null. */
export function refuseForeign(req: IncomingMessage, port: number): Refusal | null {
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !loopbackHosts(port).includes(host)) return { status: 421, reason: `host ${JSON.stringify(req.headers.host ?? '')} is not this server` };
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return { status: 403, reason: `origin ${JSON.stringify(origin)} is not this server` };
  return null;
}

/** The segments of a decoded '/'-separated path, or null when one is hidden or holds a backslash or a NUL (empty ones dropped). */
export function safeSegments(decoded: string): string[] | null {
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const parts = decoded.split('/').filter((p) => p !== '');
  return parts.some((p) => p.startsWith('.')) ? null : parts;
}

/** The real path of `path` when it exists and is inside `realRoot` (itself a real path), else null. */
export async function realInside(realRoot: string, path: string): Promise<string | null> {
  try {
    const real = await realpath(path);
    return isInside(real, realRoot) ? real : null;
  } catch {
    return null;
  }
}

/** The Content-Type of an open file: by extension, else HTML when an extensionless file sniffs as HTML, else octet-stream. */
async function typeOf(path: string, fh: FileHandle): Promise<string> {
  const ext = extname(path).toLowerCase();
  const known = TYPES[ext];
  if (known) return known;
  if (ext === '') {
    const buf = new Uint8Array(SITE_DEFAULTS.sniffBytes);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    if (sniffHtml(buf.subarray(0, bytesRead))) return 'text/html; charset=utf-8';
  }
  return 'application/octet-stream';
}

/** Opening for reading never waits (a FIFO without a writer); regular files read as usual. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Answers 200 with the file at `path` (a real path already checked by `realInside`), streamed, with
 * `headers` added; false, with nothing sent, when it is not a regular file or cannot be opened.
 */
export async function sendFile(req: IncomingMessage, res: ServerResponse, path: string, headers: Record<string, string> = {}): Promise<boolean> {
  let fh: FileHandle;
  try {
    fh = await open(path, OPEN_FLAGS);
  } catch {
    return false;
  }
  let streaming = false;
  try {
    const st = await fh.stat();
    if (!st.isFile()) return false;
    res.writeHead(200, { ...headers, ...NOSNIFF, 'content-type': await typeOf(path, fh), 'content-length': st.size });
    if (req.method === 'HEAD' || st.size === 0) {
      res.end();
      return true;
    }
    // The size announced is the size sent, should the file grow meanwhile; the stream closes the file.
    const stream = fh.createReadStream({ start: 0, end: st.size - 1 });
    streaming = true;
    // A client that goes away rejects the pipeline, which has destroyed the stream: nothing more to do.
    await pipeline(stream, res).catch(() => undefined);
    return true;
  } finally {
    if (!streaming) await fh.close();
  }
}
