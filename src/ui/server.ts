/**
 * The UI's web server (`gabarit ui <source>`): listens on 127.0.0.1 only, on a random port unless told,
 * and serves the front end (assets.ts), a JSON API over a Session (session.ts, designer.ts) and the
 * source's pages in sandboxed frames (frame.ts) with the source's own files beside them (directory
 * sources, through src/site/static-files.ts as `gabarit serve` serves them). Every request passes
 * security.ts's checks (Host, Origin, Sec-Fetch-Site, the run's token), every API body requests.ts's
 * shapes; nothing outside the source's directory is served. Routes:
 *   GET  /?token=T                       the URL printed for the user: sets the cookie, redirects to /
 *   GET  /  /app.js  /app.css            the front end
 *   GET  /api/site                       pages, page classes, engines (api.ts SiteInfo)
 *   GET  /api/engine?method=M            an engine's run and figures (EngineInfo)
 *   GET  /api/node?method=M&key=K&node=N what the page view shows on hover (NodeInfo)
 *   POST /api/suggest /api/preview /api/learn /api/wrapper/create /api/wrapper/load /api/adapt   the designer's
 *   GET  /frame/M/KEY                    page KEY (marked by engine M, or 'none'), or a file of the source
 *   GET  /upload/ID/NAME                 a page uploaded to the adaptation view
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { z } from 'zod';
import { GabaritError } from '../errors.ts';
import { parseHtml } from '../html/parse.ts';
import { cssPath, xpathOf } from '../html/paths.ts';
import { textOf } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { contentRoots } from '../content/format.ts';
import type { SourceInput } from '../run/types.ts';
import { LOOPBACK, realInside, safeSegments, sendFile } from '../site/static-files.ts';
import type { AdaptResponse, NodeInfo } from './api.ts';
import { loadAssets, type Assets } from './assets.ts';
import { adaptPage, create, learn, load, preview, suggest } from './designer.ts';
import { FRAME_CSP, frameHtml } from './frame.ts';
import { checkOrigin, hasApiToken, hasCookie, newToken, sameToken, tokenCookie, TOKEN_HEADER, TOKEN_PARAM } from './security.ts';
import { adaptRequest, createRequest, learnRequest, loadRequest, parseRequest, previewRequest, suggestRequest } from './requests.ts';
import { Session, type SessionOptions } from './session.ts';

/** Options of `startUi`. */
export interface UiOptions extends SessionOptions {
  /** Port (default 0: a free port chosen by the system). */
  port?: number;
  /** The token (default: a new random one); for tests. */
  token?: string;
}

/** A running UI. */
export interface RunningUi {
  /** The URL to open: `http://127.0.0.1:<port>/?token=…`. */
  url: string;
  port: number;
  token: string;
  session: Session;
  close(): Promise<void>;
}

/** Largest request body accepted (an uploaded page, a wrapper file). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Uploaded pages kept (the oldest is dropped beyond). */
const MAX_UPLOADS = 16;

/** The Content-Security-Policy of the front end: its own script and style, frames and requests of this server only. */
const APP_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store', 'cross-origin-resource-policy': 'same-origin' } as const;

/** A request the server answers with a status and a message. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The front end's page: the token for API requests in a meta element (served only to holders of the cookie). */
function shellHtml(token: string, source: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="gabarit-token" content="${escapeHtml(token)}"><title>gabarit ui: ${escapeHtml(source)}</title>
<link rel="stylesheet" href="/app.css"><script type="module" src="/app.js"></script></head>
<body><div id="app"></div></body></html>
`;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(c);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
}

/** `v` as a non-empty string, or a 400. */
function str(v: unknown, what: string): string {
  if (typeof v !== 'string' || v === '') throw new HttpError(400, `${what}: expected a string`);
  return v;
}

/** A request body of `schema`'s shape, or a 400 naming the field that is not. */
function valid<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const r = parseRequest(schema, body);
  if (!r.ok) throw new HttpError(400, r.message);
  return r.value;
}

/** The path after a prefix, split into decoded segments ('/a%20b/c' → ['a b', 'c']); a 404 when undecodable. */
function segments(pathname: string, prefix: string): string[] {
  try {
    return pathname.slice(prefix.length).split('/').map(decodeURIComponent);
  } catch {
    throw new HttpError(404, 'not found');
  }
}

/** Starts the UI on a source (a path or URL, or an open PageSource left open; see the module comment). */
export async function startUi(input: SourceInput, options: UiOptions = {}): Promise<RunningUi> {
  const [session, assets] = await Promise.all([Session.open(input, options), loadAssets()]);
  const token = options.token ?? newToken();
  const uploads = new Map<string, { name: string; tree: Tree }>();
  let port = 0;
  let uploadCount = 0;

  const pageOf = async (key: string, method: string): Promise<NonNullable<Awaited<ReturnType<Session['page']>>>> => {
    const p = await session.page(key, method === 'none' ? null : method);
    if (!p) throw new HttpError(404, `no page ${JSON.stringify(key)} in the source`);
    return p;
  };
  const engineParam = (v: unknown): string => {
    const m = str(v, 'method');
    if (m !== 'none' && !session.isEngine(m)) throw new HttpError(400, `unknown engine ${JSON.stringify(m)}`);
    return m;
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const route = url.pathname.slice('/api/'.length);
    if (req.method === 'GET') {
      const q = url.searchParams;
      if (route === 'site') return sendJson(res, session.site());
      if (route === 'engine') {
        const m = engineParam(q.get('method'));
        if (m === 'none') throw new HttpError(400, 'choose an engine');
        return sendJson(res, (await session.engine(m)).info);
      }
      if (route === 'node') {
        const { tree, marks } = await pageOf(str(q.get('key'), 'key'), engineParam(q.get('method')));
        const node = Number(q.get('node'));
        if (!Number.isInteger(node) || node <= 0 || node >= tree.size || tree.kind[node] !== NodeKind.Element) throw new HttpError(400, `node ${q.get('node')} is not an element of the page`);
        const text = textOf(tree, node);
        const inContent = marks ? contentRoots(marks).some((r) => tree.contains(r, node)) : false;
        const info: NodeInfo = { node, tag: tree.tag(node), cssPath: cssPath(tree, node), xpath: xpathOf(tree, node), template: marks?.template[node] === 1, content: inContent, text: text.length > 160 ? text.slice(0, 160) + '…' : text, attributes: Object.fromEntries(tree.attrs(node)) };
        return sendJson(res, info);
      }
      throw new HttpError(404, `no API ${route}`);
    }
    if (req.method !== 'POST') throw new HttpError(405, 'GET or POST only');
    const body = await readBody(req);
    if (route === 'suggest') {
      const b = valid(suggestRequest, body);
      const { tree } = await pageOf(b.key, engineParam(b.method));
      if (b.node >= tree.size) throw new HttpError(400, `node: ${b.node} is not a node of the page`);
      return sendJson(res, suggest(tree, b.node, b.parent, b.patterns));
    }
    if (route === 'preview') {
      const b = valid(previewRequest, body);
      return sendJson(res, preview(session.allTrees(), b.key, b.patterns));
    }
    if (route === 'learn') {
      const b = valid(learnRequest, body);
      return sendJson(res, learn(session.allTrees(), b));
    }
    if (route === 'wrapper/create') {
      const b = valid(createRequest, body);
      await pageOf(b.key, engineParam(b.method));
      return sendJson(res, create(session.allTrees(), b.key, b.name, b.patterns));
    }
    if (route === 'wrapper/load') {
      const b = valid(loadRequest, body);
      const { wrapper: _w, ...rest } = load(b.text, b.file);
      return sendJson(res, rest);
    }
    if (route === 'adapt') {
      const b = valid(adaptRequest, body);
      const { wrapper } = load(b.wrapper, 'wrapper');
      let tree: Tree;
      let name: string;
      let frame: string;
      if ('html' in b.page) {
        name = b.page.name.replace(/[^\w.-]+/g, '_');
        tree = parseHtml(b.page.html);
        const id = String(++uploadCount);
        uploads.set(id, { name, tree });
        for (const k of uploads.keys()) if (uploads.size > MAX_UPLOADS) uploads.delete(k);
        frame = `/upload/${id}/${encodeURIComponent(name)}`;
      } else {
        name = b.page.key;
        const method = engineParam(b.page.method);
        tree = (await pageOf(name, method)).tree;
        frame = `/frame/${method}/${name.split('/').map(encodeURIComponent).join('/')}`;
      }
      const r: AdaptResponse = { page: name, frame, ...adaptPage(wrapper, tree, name) };
      return sendJson(res, r);
    }
    throw new HttpError(404, `no API ${route}`);
  };

  /** A page of the source in a frame, or one of the source's files (directory sources). */
  const frame = async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    const [method = '', ...rest] = segments(pathname, '/frame/');
    const key = rest.join('/');
    if (method !== 'none' && !session.isEngine(method)) throw new HttpError(404, 'not found');
    const page = await session.page(key, method === 'none' ? null : method);
    if (page) return send(res, 200, 'text/html; charset=utf-8', frameHtml(page.tree, page.marks), { 'content-security-policy': FRAME_CSP, 'x-frame-options': 'SAMEORIGIN' });
    const dir = session.dir;
    const parts = dir === null ? null : safeSegments(key);
    const file = dir === null || parts === null ? null : await realInside(dir, join(dir, ...parts));
    if (file === null || !(await sendFile(req, res, file, { ...COMMON_HEADERS, 'content-security-policy': FRAME_CSP }))) throw new HttpError(404, 'not found');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = checkOrigin(req, port);
    if (refused) throw new HttpError(refused.status, refused.reason);
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    if (url.pathname === '/' && url.searchParams.has(TOKEN_PARAM) && req.method === 'GET') {
      if (!sameToken(url.searchParams.get(TOKEN_PARAM), token)) throw new HttpError(403, 'wrong token: open the URL gabarit ui printed');
      res.writeHead(303, { ...COMMON_HEADERS, 'set-cookie': tokenCookie(port, token), location: '/' });
      res.end();
      return;
    }
    if (!hasCookie(req, port, token)) throw new HttpError(403, 'no token: open the URL gabarit ui printed');
    if (url.pathname.startsWith('/api/')) {
      if (!hasApiToken(req, port, token)) throw new HttpError(403, `API requests carry the token in ${TOKEN_HEADER}`);
      return api(req, res, url);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'GET only');
    if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', shellHtml(token, session.spec), { 'content-security-policy': APP_CSP, 'x-frame-options': 'DENY' });
    if (url.pathname === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', (assets as Assets).js);
    if (url.pathname === '/app.css') return send(res, 200, 'text/css; charset=utf-8', assets.css);
    if (url.pathname.startsWith('/frame/')) return frame(req, res, url.pathname);
    if (url.pathname.startsWith('/upload/')) {
      const [id = ''] = segments(url.pathname, '/upload/');
      const u = uploads.get(id);
      if (!u) throw new HttpError(404, 'not found');
      return send(res, 200, 'text/html; charset=utf-8', frameHtml(u.tree, null), { 'content-security-policy': FRAME_CSP, 'x-frame-options': 'SAMEORIGIN' });
    }
    throw new HttpError(404, 'not found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.end();
      // Bad requests (a wrong selector, a wrapper file that does not validate) are the user's; others are ours.
      const status = err instanceof HttpError ? err.status : err instanceof GabaritError ? 400 : 500;
      sendJson(res, { error: err instanceof Error ? err.message : String(err) }, status);
    });
  });
  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(options.port ?? 0, LOOPBACK, () => ok());
    });
  } catch (err) {
    await session.close();
    throw err;
  }
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${LOOPBACK}:${port}/?${TOKEN_PARAM}=${token}`,
    port,
    token,
    session,
    close: async () => {
      await new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      });
      await session.close();
    },
  };
}
