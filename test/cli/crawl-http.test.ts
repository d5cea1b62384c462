/**
 * `gabarit crawl` (and a pipeline command) over a local HTTP server on 127.0.0.1: interruption by a signal
 * (exit code, message, summary, resume from the store), a resumed crawl's first request, and compressed
 * answers (gzip, deflate, br; a decompression bomb), also in a WARC file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { writeWarc } from '../../src/site/warc-source.ts';
import { Store } from '../../src/site/store.ts';
import { gabarit, ROOT, CLI, type Ran } from './gabarit-process.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gabarit-crawl-http-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Seen {
  path: string;
  time: number;
  headers: IncomingHttpHeaders;
}

interface Site {
  url: string;
  requests: Seen[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 answering each path with `answer` (after `delayMs`); it logs every request. */
async function serve(answer: (path: string, res: ServerResponse) => void, delayMs = 0): Promise<Site> {
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, time: Date.now(), headers: req.headers });
    const go = (): void => {
      if (path === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      answer(path, res);
    };
    if (delayMs > 0 && path !== '/robots.txt') setTimeout(go, delayMs);
    else go();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A tiny page titled `p<i>` linking to `links` (page numbers; 0 is the entry). */
function page(i: number, links: readonly number[]): string {
  const a = links.map((j) => `<a href="${j === 0 ? '/' : `p${j}.html`}">page ${j}</a>`).join(' ');
  return `<!doctype html><html><head><title>p${i}</title></head><body><h1>Page ${i}</h1><p>Text of page ${i}.</p>${a}</body></html>`;
}

/** A site of n pages: the entry links to all, each page to the entry and the next `fan` pages. */
function numbered(n: number, fan: number): (path: string, res: ServerResponse) => void {
  return (path, res) => {
    const m = /^\/(?:p(\d+)\.html)?$/.exec(path);
    const i = m ? Number(m[1] ?? 0) : -1;
    if (i < 0 || i > n) {
      res.writeHead(404).end();
      return;
    }
    const links = i === 0 ? Array.from({ length: n }, (_, j) => j + 1) : [0, ...Array.from({ length: fan }, (_, j) => ((i + j) % n) + 1)];
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(i, links));
  };
}

/** Starts the command line; resolves with its outcome, and gives the child to signal it. */
function start(args: readonly string[]): { child: ReturnType<typeof spawn>; done: Promise<Ran>; started: number } {
  const started = Date.now();
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Ran>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done, started };
}

async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

const pagePaths = (s: Site): string[] => s.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');

test('crawl: SIGTERM stops the crawl, writes summary.json with the pages done, exits 143; a rerun resumes from the store', async () => {
  const site = await serve(numbered(30, 2), 150);
  try {
    const out = join(dir, 'term');
    const store = join(dir, 'term.duckdb');
    const run = start(['crawl', site.url, '--delay', '0', '--store', store, '-o', out]);
    await until(() => pagePaths(site).length >= 5, 30_000);
    run.child.kill('SIGTERM');
    const r = await run.done;
    assert.equal(r.code, 143, r.stderr);
    const m = /gabarit: interrupted by SIGTERM; (\d+) pages done, summary in (\S+summary\.json)/.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.equal(m[2], join(out, 'summary.json'));
    const summary = await readJson(join(out, 'summary.json'));
    assert.equal((summary['interrupted'] as { signal: string }).signal, 'SIGTERM');
    assert.equal(summary['pagesDone'], Number(m[1]));
    assert.ok(Number(m[1]) >= 1 && Number(m[1]) < 31, `pages done: ${m[1]}`);
    const done = (JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as { url: string }[]).map((p) => new URL(p.url).pathname);
    assert.equal(done.length, Number(m[1]));

    // The rerun takes the stored pages from the store and fetches only the others.
    const before = site.requests.length;
    const again = await gabarit(['crawl', site.url, '--delay', '0', '--store', store, '-o', join(dir, 'term2')]);
    assert.equal(again.code, 0, again.stderr);
    const summary2 = await readJson(join(dir, 'term2', 'summary.json'));
    assert.equal(summary2['pagesDone'], 31);
    assert.equal(summary2['interrupted'], undefined);
    const refetched = site.requests.slice(before).map((q) => q.path).filter((p) => done.includes(p));
    assert.deepEqual(refetched, [], 'pages done before the interruption are not fetched again');
    assert.ok(Number(summary2['pagesLoaded']) <= 31 - done.length);
  } finally {
    await site.close();
  }
});

test('template: SIGINT during the crawl writes summary.json with an interrupted note and exits 130', async () => {
  const site = await serve(numbered(30, 2), 150);
  try {
    const out = join(dir, 'int');
    const run = start(['template', site.url, '--delay', '0', '-o', out]);
    await until(() => pagePaths(site).length >= 5, 30_000);
    run.child.kill('SIGINT');
    const r = await run.done;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /gabarit: interrupted by SIGINT; \d+ pages done, summary in \S+summary\.json/);
    const summary = await readJson(join(out, 'summary.json'));
    assert.equal((summary['interrupted'] as { signal: string }).signal, 'SIGINT');
    assert.ok(Number(summary['pagesDone']) + Number(summary['pagesFailed']) < 31);
  } finally {
    await site.close();
  }
});

test('crawl: a resumed crawl over a store of 300 pages walks them in well under a second before its first new request', async () => {
  const numberedSite = numbered(320, 12);
  // start.html: an entry the store does not hold (fetched first), linking to every page as the root does.
  const site = await serve((path, res) => numberedSite(path === '/start.html' ? '/' : path, res));
  try {
    const store = join(dir, 'resume.duckdb');
    const r1 = await gabarit(['crawl', site.url, '--delay', '0', '--store', store, '--max-pages', '300', '-q', '-o', join(dir, 'resume1')]);
    assert.equal(r1.code, 0, r1.stderr);
    const pages1 = site.requests.filter((q) => q.path !== '/robots.txt');
    // What 300 pages cost when fetched and stored (a loaded machine makes both this and the walk slower).
    const fetched = pages1[pages1.length - 1]!.time - pages1[0]!.time;
    const n = site.requests.length;
    const linksBefore = await storedLinks(store);
    const r2 = await gabarit(['crawl', `${site.url}start.html`, '--delay', '0', '--store', store, '-q', '-o', join(dir, 'resume2')]);
    assert.equal(r2.code, 0, r2.stderr);
    const pages2 = site.requests.slice(n).filter((q) => q.path !== '/robots.txt');
    assert.equal(pages2[0]?.path, '/start.html');
    assert.ok(pages2.length > 1, 'the resumed crawl fetched the pages not stored');
    // What the store held is read, not written again (the rows of the stored pages' links are the same rows).
    const linksAfter = await storedLinks(store);
    assert.equal(linksBefore.length, 300);
    assert.deepEqual(linksAfter.slice(0, linksBefore.length), linksBefore);
    const walk = pages2[1]!.time - pages2[0]!.time;
    assert.ok(walk < Math.max(1000, fetched / 3), `the first new page was requested ${walk} ms after the entry (300 pages fetched in ${fetched} ms)`);
  } finally {
    await site.close();
  }
});

/** The first link row (DuckDB rowid) of each page in a store, in row order. */
async function storedLinks(file: string): Promise<string[]> {
  const store = await Store.open(file);
  try {
    const rows = await store.all<{ src: string; first: bigint }>('SELECT src, min(rowid) AS first FROM links GROUP BY src ORDER BY first');
    return rows.map((r) => `${r.first} ${r.src}`);
  } finally {
    await store.close();
  }
}

/** Sends `html` encoded with `coding` (the body as given when it is already bytes). */
function encoded(res: ServerResponse, coding: string, body: Uint8Array): void {
  res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': coding }).end(body);
}

test('crawl: gzip, br and deflate answers are decoded, Accept-Encoding is sent, a decompression bomb is refused and named', async () => {
  const html = (title: string, links = ''): Buffer => Buffer.from(`<html><head><title>${title}</title></head><body><p>${title} text</p>${links}</body></html>`);
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
  const site = await serve((path, res) => {
    if (path === '/') encoded(res, 'gzip', gzipSync(html('gzip page', '<a href="b.html">b</a><a href="d.html">d</a><a href="r.html">r</a><a href="z.html">z</a><a href="x.html">x</a>')));
    else if (path === '/b.html') encoded(res, 'br', brotliCompressSync(html('brotli page')));
    else if (path === '/d.html') encoded(res, 'deflate', deflateSync(html('deflate page')));
    else if (path === '/r.html') encoded(res, 'deflate', deflateRawSync(html('raw deflate page')));
    else if (path === '/z.html') encoded(res, 'gzip', bomb);
    else if (path === '/x.html') encoded(res, 'gzip', Buffer.from('this is not gzip at all'));
    else res.writeHead(404).end();
  });
  try {
    const out = join(dir, 'enc');
    const r = await gabarit(['crawl', site.url, '--delay', '0', '--max-bytes', '100000', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    for (const q of site.requests) assert.match(String(q.headers['accept-encoding']), /^gzip, deflate, br$/, q.path);
    const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as { url: string; title: string }[];
    assert.deepEqual(pages.map((p) => p.title).sort(), ['brotli page', 'deflate page', 'gzip page', 'raw deflate page']);
    const bombLine = r.stderr.split('\n').find((l) => l.startsWith(`gabarit: ${site.url}z.html: `));
    assert.ok(bombLine, r.stderr);
    assert.match(bombLine, /too large: body exceeds the cap of 100000 bytes decoded from gzip/);
    const decoded = Number(/stopped after (\d+) decoded bytes/.exec(bombLine)?.[1]);
    assert.ok(decoded < 1_000_000, `decoding stopped after ${decoded} bytes`);
    assert.match(r.stderr, new RegExp(`gabarit: ${site.url}x\\.html: cannot decode its Content-Encoding gzip`));
    const summary = await readJson(join(out, 'summary.json'));
    const codes = Object.fromEntries((summary['failures'] as { url: string; code: string }[]).map((f) => [new URL(f.url).pathname, f.code]));
    assert.deepEqual(codes, { '/z.html': 'too-large', '/x.html': 'bad-encoding' });
  } finally {
    await site.close();
  }
});

test('crawl: a WARC response with Content-Encoding gzip is read decoded', async () => {
  const warc = join(dir, 'gz.warc');
  const body = gzipSync(Buffer.from('<html><head><title>archived gzip</title></head><body><p>archived text</p><a href="plain.html">p</a></body></html>'));
  await writeWarc(
    [
      { key: 'index.html', body, headers: { 'Content-Encoding': 'gzip' } },
      { key: 'plain.html', body: '<html><head><title>archived plain</title></head><body><p>plain text</p></body></html>' },
    ],
    warc,
    { baseUrl: 'http://archive.test/' },
  );
  const out = join(dir, 'warc');
  const r = await gabarit(['crawl', warc, '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as { title: string }[];
  assert.deepEqual(pages.map((p) => p.title).sort(), ['archived gzip', 'archived plain']);
});
