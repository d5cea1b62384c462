/**
 * A static web server for a local mirror (`gabarit serve <dir>`), bound to 127.0.0.1 only, so that a site
 * copied to disk behaves like the site: crawls, the UI and tests reach it over real HTTP.
 *  - `GET /a/` serves `a/index.html` (or index.htm / index.xhtml); `GET /a` where `a` is a directory
 *    redirects (301) to `/a/` so that relative links resolve as on the original site;
 *  - `GET /a` where no file `a` exists but `a.html` does serves `a.html` (200, even beside a directory
 *    `a/`), as GitHub Pages serves the extensionless links of static site generators;
 *  - content types by extension: `text/html; charset=utf-8` for .html/.htm, `application/xhtml+xml` for
 *    .xhtml, common others; extensionless files that sniff as HTML are served as HTML;
 *  - only GET and HEAD (405 otherwise);
 *  - what static-files.ts guarantees: a request whose Host or Origin is not this server is refused (421,
 *    403); a missing file, a hidden one (`.git/`, `.env`), a path that would leave the directory (`..`,
 *    encoded or not, a backslash, a NUL, a symbolic link out of it) and anything but a regular file (a
 *    FIFO, a socket) are 404; files are streamed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.ts';
import { SITE_DEFAULTS } from './defaults.ts';
import { LOOPBACK, NOSNIFF, realInside, refuseForeign, safeSegments, sendFile } from './static-files.ts';

/** The only address the server listens on. */
export const SERVE_HOST = LOOPBACK;
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

/** Serves `dir` on 127.0.0.1 (see the module comment). */
export async function serveDirectory(dir: string, options: ServeOptions = {}): Promise<Served> {
  const root = resolve(dir);
  if (!(await isDirectory(root))) throw new UsageError(`not a directory: ${root}`);
  const realRoot = await realpath(root);

  let port = 0;
  const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { ...NOSNIFF, ...headers, 'content-type': 'text/plain; charset=utf-8' });
    res.end(text + '\n');
  };
  const notFound = (res: ServerResponse): void => answer(res, 404, 'not found');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refuseForeign(req, port);
    if (refused) return answer(res, refused.status, refused.reason);
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'GET or HEAD only', { allow: 'GET, HEAD' });
    const url = new URL(req.url ?? '/', 'http://x');
    let parts: string[] | null;
    try {
      parts = safeSegments(decodeURIComponent(url.pathname));
    } catch {
      return notFound(res);
    }
    if (parts === null) return notFound(res);
    const trailingSlash = url.pathname.endsWith('/');
    let path = join(root, ...parts);
    // An extensionless path naming no file is served from `<path>.html` when it exists, before a directory
    // of the same name (as GitHub Pages does: `/docs/overview` → docs/overview.html).
    if (!trailingSlash && !(await isFile(path)) && (await isFile(path + '.html'))) path += '.html';
    else if (await isDirectory(path)) {
      if (!trailingSlash) {
        res.writeHead(301, { ...NOSNIFF, location: url.pathname + '/' + url.search });
        res.end();
        return;
      }
      let found: string | undefined;
      for (const f of SITE_DEFAULTS.indexFiles) {
        if (await isFile(join(path, f))) {
          found = join(path, f);
          break;
        }
      }
      if (!found) return notFound(res);
      path = found;
    }
    // Served only when it really is inside the directory: a symbolic link may point anywhere.
    const real = await realInside(realRoot, path);
    if (real === null || !(await sendFile(req, res, real))) return notFound(res);
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
  port = (server.address() as AddressInfo).port;
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
