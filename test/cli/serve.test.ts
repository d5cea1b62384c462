/**
 * The two local servers, `gabarit serve <dir>` and `gabarit ui <dir>`, started as a user starts them (a
 * child process), serve a folder's files through one layer (src/site/static-files.ts); one table of
 * requests runs against both: a foreign Host (DNS rebinding) or Origin is refused, hidden files (`.git/`,
 * `.env`) and paths out of the folder are not found, a FIFO in the folder is not opened for reading and
 * blocks nothing, and slow readers of a large file cost the server a chunk each, not the file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGabarit, type Serving } from './gabarit-process.ts';

const PAGE = (n: number): string => `<!DOCTYPE html><html><head><title>Page ${n}</title></head>
<body><nav><a href="p1.html">One</a> <a href="p2.html">Two</a></nav><main><h1>Page ${n}</h1><p>Words of page ${n}.</p></main></body></html>`;
const SECRET = 'SECRET-OUTSIDE-THE-FOLDER';
const CSS = 'body{color:#123456}';
const BIG_BYTES = 100 * 1024 * 1024;
const MiB = 1024 * 1024;

/** mkfifo(1), where there is one (POSIX). */
function mkfifo(path: string): boolean {
  if (process.platform === 'win32') return false;
  try {
    execFileSync('mkfifo', [path]);
    return true;
  } catch {
    return false;
  }
}

/** The folder served: two pages, a stylesheet, hidden files, a 100 MiB sparse file, a FIFO; a secret beside it. */
async function writeFolder(base: string): Promise<{ site: string; fifo: boolean }> {
  const site = join(base, 'site');
  await mkdir(join(site, '.git'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'secret.txt'), SECRET);
  await writeFile(join(site, 'p1.html'), PAGE(1));
  await writeFile(join(site, 'p2.html'), PAGE(2));
  await writeFile(join(site, 'style.css'), CSS);
  await writeFile(join(site, '.env'), `TOKEN=${SECRET}`);
  await writeFile(join(site, '.git', 'config'), `[remote "origin"]\n\turl = ${SECRET}\n`);
  await writeFile(join(site, 'big.bin'), '');
  await truncate(join(site, 'big.bin'), BIG_BYTES);
  return { site, fifo: mkfifo(join(site, 'fifo')) };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One server under test: where the folder's files are and the headers its own page sends. */
interface Server {
  port: number;
  pid: number;
  /** The URL path of the folder's file `rel`, as written (no normalisation). */
  file(rel: string): string;
  /** The headers of a request from the server's own page (the UI's cookie). */
  own: Record<string, string>;
}

/** A raw request (path and headers sent as given); rejects after `timeoutMs`. */
function raw(server: Server, path: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, agent: false, headers: { host: `127.0.0.1:${server.port}`, ...server.own, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${path} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** The server process's resident memory (Linux), or null. */
async function rssBytes(pid: number): Promise<number | null> {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A client that asks for `path` and reads nothing after its first bytes (its socket paused); the head of the answer. */
function socketGet(server: Server, path: string, version = '1.1', withHost = true): Promise<{ socket: Socket; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      const headers = Object.entries({ ...(withHost ? { host: `127.0.0.1:${server.port}` } : {}), ...server.own }).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`GET ${path} HTTP/${version}\r\n${headers.join('')}\r\n`);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${path} within 10 s`)));
    socket.once('data', (d: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      resolve({ socket, head: d.toString('latin1').split('\r\n\r\n')[0] ?? '' });
    });
    socket.on('error', reject);
  });
}

interface Case {
  name: string;
  /** A file of the folder (URL path under the server's file prefix, as written). */
  path: string;
  headers?: (s: Server) => Record<string, string>;
  /** Accepted statuses. */
  status: number[];
}

/** One table for both servers. */
const CASES: Case[] = [
  { name: 'a foreign Host (DNS rebinding)', path: 'style.css', headers: (s) => ({ host: `evil.example:${s.port}` }), status: [421, 403] },
  { name: 'a Host of another port', path: 'style.css', headers: (s) => ({ host: `127.0.0.1:${s.port + 1}` }), status: [421, 403] },
  { name: 'a loopback name ending a foreign host', path: 'style.css', headers: (s) => ({ host: `localhost.evil.example:${s.port}` }), status: [421, 403] },
  { name: 'a foreign Origin', path: 'style.css', headers: () => ({ origin: 'http://evil.example' }), status: [403] },
  { name: 'an opaque Origin', path: 'style.css', headers: () => ({ origin: 'null' }), status: [403] },
  { name: '.env', path: '.env', status: [404] },
  { name: '.git/config', path: '.git/config', status: [404] },
  { name: 'an encoded .git/config', path: '%2egit%2fconfig', status: [404] },
  { name: '..', path: '../outside/secret.txt', status: [404] },
  { name: 'encoded ..', path: '%2e%2e/%2e%2e/outside/secret.txt', status: [404] },
  { name: 'encoded .. and slashes', path: '..%2f..%2foutside%2fsecret.txt', status: [404] },
  { name: 'backslashes', path: '..%5C..%5Coutside%5Csecret.txt', status: [404] },
  { name: 'a NUL byte', path: 'p1.html%00', status: [404] },
];

/** `gabarit serve` or `gabarit ui` on the folder. */
function suite(kind: 'serve' | 'ui'): void {
  describe(`gabarit ${kind}`, { timeout: 120_000 }, () => {
    let base = '';
    let fifo = false;
    let serving: Serving | undefined;
    let server: Server;
    before(async () => {
      base = await mkdtemp(join(tmpdir(), `gabarit-${kind}-`));
      const folder = await writeFolder(base);
      fifo = folder.fifo;
      serving = await startGabarit([kind, folder.site, '--port', '0']);
      const url = new URL(serving.url);
      const port = Number(url.port);
      const pid = serving.child.pid ?? 0;
      if (kind === 'serve') server = { port, pid, file: (rel) => `/${rel}`, own: {} };
      else {
        server = { port, pid, file: (rel) => `/frame/none/${rel}`, own: {} };
        const first = await raw(server, `${url.pathname}${url.search}`);
        assert.equal(first.status, 303, 'the printed URL hands the cookie');
        server.own = { cookie: String(first.headers['set-cookie']).split(';')[0]! };
      }
    });
    after(async () => {
      serving?.stop();
      await rm(base, { recursive: true, force: true });
    });

    test("the folder's files are served with their type and nosniff", async () => {
      const r = await raw(server, server.file('style.css'));
      assert.equal(r.status, 200);
      assert.equal(r.body, CSS);
      assert.equal(r.headers['content-type'], 'text/css; charset=utf-8');
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.equal((await raw(server, server.file('style.css'), { host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` })).status, 200, 'localhost with its own Origin');
      assert.equal((await raw(server, server.file('style.css'), { host: `[::1]:${server.port}` })).status, 200, '[::1]');
    });

    test('refused: no Host (HTTP/1.0)', async () => {
      const { socket, head } = await socketGet(server, server.file('style.css'), '1.0', false);
      socket.destroy();
      assert.match(head, /^HTTP\/1\.1 (421|403|400) /);
    });

    for (const c of CASES) {
      test(`refused: ${c.name}`, async () => {
        const r = await raw(server, server.file(c.path), c.headers?.(server) ?? {});
        assert.ok(c.status.includes(r.status), `${c.path}: ${r.status} ${r.body}`);
        assert.ok(!r.body.includes(SECRET) && !r.body.includes(CSS), r.body);
      });
    }

    test('ten slow readers of a 100 MiB file: the server holds a chunk each, not the file', async (t) => {
      const before = await rssBytes(server.pid);
      if (before === null) return t.skip('no /proc/<pid>/status here');
      const readers = await Promise.all(Array.from({ length: 10 }, () => socketGet(server, server.file('big.bin'))));
      t.after(() => readers.forEach((r) => r.socket.destroy()));
      for (const r of readers) {
        assert.match(r.head, /^HTTP\/1\.1 200 /);
        assert.match(r.head, /\r\ncontent-type: application\/octet-stream\r\n/i);
        assert.match(r.head, new RegExp(`\r\ncontent-length: ${BIG_BYTES}(\r\n|$)`, 'i'));
      }
      let most = before;
      for (let i = 0; i < 15; i++) {
        await new Promise((ok) => setTimeout(ok, 200));
        most = Math.max(most, (await rssBytes(server.pid)) ?? 0);
      }
      assert.ok(most < 200 * MiB, `resident memory ${(most / MiB).toFixed(0)} MiB (${(before / MiB).toFixed(0)} MiB before)`);
      assert.ok(most - before < 100 * MiB, `resident memory grew by ${((most - before) / MiB).toFixed(0)} MiB`);
      const after = await raw(server, server.file('p2.html'), {}, 5000);
      assert.equal(after.status, 200, 'and the server still answers');
    });

    test('a FIFO in the folder is not found and blocks no other request', async (t) => {
      if (!fifo) return t.skip('no mkfifo here');
      const fifos = await Promise.all(Array.from({ length: 6 }, () => raw(server, server.file('fifo'), {}, 5000)));
      for (const r of fifos) assert.ok([403, 404].includes(r.status), `fifo: ${r.status}`);
      const next = await raw(server, server.file('p2.html'), {}, 5000);
      assert.equal(next.status, 200);
      assert.match(next.body, /Page 2/);
    });
  });
}

suite('serve');
suite('ui');
