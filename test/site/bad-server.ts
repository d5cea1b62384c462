/**
 * Test-only HTTP server on 127.0.0.1 that misbehaves on purpose, for the fetcher's and the crawl's
 * bad-input tests. Every request is recorded (path, arrival time) so tests can count retries and check
 * politeness. Routes:
 *   /robots.txt            disallows /private/ for every agent
 *   /index.html            links to every route below (a crawl meets each of them)
 *   /ok.html, /ok2.html    good pages; /p/<n>.html  a chain of good pages (politeness)
 *   /private/secret.html   refused by robots.txt
 *   /error500.html         always HTTP 500;  /flaky.html  503 the first time, then a page
 *   /missing.html          404
 *   /loop-a.html ↔ /loop-b.html   a redirect loop;  /redirect.html → /ok.html
 *   /offsite.html          redirects to another host (never fetched: off site)
 *   /slow.html             answers after `slowMs`
 *   /huge.html             streams 10 MB of HTML (no Content-Length)
 *   /binary.html           NUL bytes served as text/html;  /picture  an image/png
 *   /empty.html            200 with an empty body
 *   /latin1.html           declares UTF-8, sends windows-1252 bytes
 *   /truncated.html        promises 1000 bytes, sends 100, then closes the connection
 *   /broken.html           truncated markup (no closing tags), served normally
 *   /held/<n>.html         answers after 40 ms (to observe concurrency)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BadServer {
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: Array<{ path: string; time: number }>;
  /** Number of requests to a path. */
  hits(path: string): number;
  /** Most requests in progress at once (over the server's life). */
  maxActive: number;
  close(): Promise<void>;
}

export const HUGE_BYTES = 10 * 1024 * 1024;

const page = (title: string, body = ''): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const INDEX_LINKS = [
  'ok.html', 'ok2.html', 'private/secret.html', 'error500.html', 'flaky.html', 'missing.html', 'loop-a.html',
  'redirect.html', 'offsite.html', 'huge.html', 'binary.html', 'picture', 'empty.html', 'latin1.html',
  'truncated.html', 'broken.html', 'http://[::1', 'p/1.html',
];

export async function startBadServer(options: { slowMs?: number; chainLength?: number } = {}): Promise<BadServer> {
  const slowMs = options.slowMs ?? 2000;
  const chain = options.chainLength ?? 5;
  const requests: Array<{ path: string; time: number }> = [];
  let active = 0;
  const state = { maxActive: 0, flaky: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const html = (res: ServerResponse, body: string | Buffer, status = 200, type = 'text/html; charset=utf-8'): void => {
    const b = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, { 'content-type': type, 'content-length': b.length });
    res.end(b);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, time: Date.now() });
    active++;
    state.maxActive = Math.max(state.maxActive, active);
    res.on('close', () => active--);
    let m: RegExpExecArray | null;
    switch (path) {
      case '/robots.txt':
        return html(res, 'User-agent: *\nDisallow: /private/\n', 200, 'text/plain');
      case '/':
      case '/index.html':
        return html(res, page('Index', INDEX_LINKS.map((l) => `<a href="${l}">${l}</a>`).join(' ')));
      case '/ok.html':
        return html(res, page('OK', '<a href="ok2.html">next</a>'));
      case '/ok2.html':
        return html(res, page('OK 2'));
      case '/private/secret.html':
        return html(res, page('Secret'));
      case '/error500.html':
        return html(res, 'oops', 500, 'text/plain');
      case '/flaky.html':
        return state.flaky++ === 0 ? html(res, 'busy', 503, 'text/plain') : html(res, page('Flaky'));
      case '/loop-a.html':
        res.writeHead(302, { location: '/loop-b.html' });
        return void res.end();
      case '/loop-b.html':
        res.writeHead(301, { location: 'loop-a.html' });
        return void res.end();
      case '/redirect.html':
        res.writeHead(302, { location: '/ok.html' });
        return void res.end();
      case '/offsite.html':
        res.writeHead(302, { location: `http://localhost:${(req.socket.localPort ?? 0)}/ok.html` });
        return void res.end();
      case '/slow.html':
        return later(slowMs, () => html(res, page('Slow')));
      case '/huge.html': {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!DOCTYPE html><html><body>');
        const chunk = Buffer.alloc(64 * 1024, '<p>x</p>');
        let sent = 0;
        const pump = (): void => {
          while (sent < HUGE_BYTES && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end('</body></html>');
        };
        return pump();
      }
      case '/binary.html':
        return html(res, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0]));
      case '/picture':
        return html(res, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), 200, 'image/png');
      case '/empty.html':
        return html(res, '');
      case '/latin1.html':
        return html(res, Buffer.from(page('Caf\u00e9 cr\u00e8me'), 'latin1'));
      case '/truncated.html':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': 1000 });
        res.write('<!DOCTYPE html><html><body><p>This page is cut short by a connection that closes too early');
        return later(20, () => res.destroy());
      case '/broken.html':
        return html(res, '<!DOCTYPE html><html><body><div><p>Unclosed paragraph <b>bold <i>italic</div><table><tr><td>cell');
    }
    if ((m = /^\/p\/(\d+)\.html$/.exec(path))) {
      const n = Number(m[1]);
      return html(res, page(`P${n}`, n < chain ? `<a href="${n + 1}.html">next</a>` : ''));
    }
    if ((m = /^\/held\/(\d+)\.html$/.exec(path))) return later(40, () => html(res, page(`Held ${m![1]}`)));
    return html(res, 'not found', 404, 'text/plain');
  };

  const server = createServer(handle);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    requests,
    hits: (p) => requests.filter((r) => r.path === p).length,
    get maxActive() {
      return state.maxActive;
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}
