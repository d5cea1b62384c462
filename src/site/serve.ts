/**
 * A static web server for a local mirror (`gabarit serve <dir>`), bound to 127.0.0.1 only, so that a site
 * copied to disk behaves like the site: crawls, the UI and tests reach it over real HTTP.
 *  - `GET /a/` serves `a/index.html` (or index.htm / index.xhtml); `GET /a` where `a` is a directory
 *    redirects (301) to `/a/` so that relative links resolve as on the original site;
 *  - `GET /a` where no file `a` exists but `a.html` does serves `a.html` (200, even beside a directory
 *    `a/`), as GitHub Pages serves the extensionless links of static site generators;
 *  - content types by extension: `text/html; charset=utf-8` for .html/.htm, `application/xhtml+xml` for
 *    .xhtml, common others; extensionless files that sniff as HTML are served as HTML;
 *  - a missing file is a 404; a path that would leave the directory (`..`, encoded or not) is a 404 too,
 *    and so is a file whose real path (symbolic links followed) is outside the directory;
 *  - only GET and HEAD (405 otherwise).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.ts';
import { sniffHtml } from './check.ts';
import { isInside } from './dir-source.ts';
import { SITE_DEFAULTS } from './defaults.ts';

/** The only address the server listens on. */
export const SERVE_HOST = '127.0.0.1';

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

export interface ServeOptions {
  /** Port (default 0: any free port). */
  port?: number;
}

/** A running server. */
export interface Served {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The Content-Type of a file: by extension, else HTML when an extensionless file sniffs as HTML, else octet-stream. */
export async function typeOf(path: string): Promise<string> {
  const ext = extname(path).toLowerCase();
  const known = TYPES[ext];
  if (known) return known;
  if (ext === '') {
    const fh = await open(path, 'r');
    try {
      const buf = new Uint8Array(SITE_DEFAULTS.sniffBytes);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      if (sniffHtml(buf.subarray(0, bytesRead))) return 'text/html; charset=utf-8';
    } finally {
      await fh.close();
    }
  }
  return 'application/octet-stream';
}

/** Serves `dir` on 127.0.0.1 (see the module comment). */
export async function serveDirectory(dir: string, options: ServeOptions = {}): Promise<Served> {
  const root = resolve(dir);
  if (!(await isDirectory(root))) throw new UsageError(`not a directory: ${root}`);
  const realRoot = await realpath(root);

  const notFound = (res: ServerResponse): void => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return notFound(res);
    }
    if (pathname.includes('\0')) return notFound(res);
    let path = resolve(root, '.' + pathname);
    if (path !== root && !path.startsWith(root + sep)) return notFound(res);
    // An extensionless path naming no file is served from `<path>.html` when it exists, before a directory
    // of the same name (as GitHub Pages does: `/docs/overview` → docs/overview.html).
    if (!pathname.endsWith('/') && !(await isFile(path)) && (await isFile(path + '.html'))) path += '.html';
    else if (await isDirectory(path)) {
      if (!pathname.endsWith('/')) {
        const u = new URL(req.url ?? '/', 'http://x');
        res.writeHead(301, { location: u.pathname + '/' + u.search });
        res.end();
        return;
      }
      let found: string | undefined;
      for (const f of SITE_DEFAULTS.indexFiles) {
        const candidate = join(path, f);
        try {
          if ((await stat(candidate)).isFile()) {
            found = candidate;
            break;
          }
        } catch {
          /* next */
        }
      }
      if (!found) return notFound(res);
      path = found;
    }
    let body: Buffer;
    try {
      // Served only when it really is inside the directory: a symbolic link may point anywhere.
      if (!isInside(await realpath(path), realRoot)) return notFound(res);
      body = await readFile(path);
    } catch {
      return notFound(res);
    }
    res.writeHead(200, { 'content-type': await typeOf(path), 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, SERVE_HOST, () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${SERVE_HOST}:${port}/`,
    port,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
