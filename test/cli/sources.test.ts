/**
 * Reading a source from the command line: every page of a local source (no default cap), a cap that cuts a
 * source named on stderr and counted in summary.json, distinct output files for every page, the engine
 * options of `template` and `content`, and one meaning of a page's `title`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { article } from '../run/fixtures.ts';
import { gabarit, ROOT } from './gabarit-process.ts';
import { writeWarc } from '../../src/site/warc-source.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-sources-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `n` tiny pages in folders of 1,000 (`d<i>/p<j>.html`), each linking to the first. */
async function writeTinyPages(dir: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `d${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `p${i}.html`), `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1><p>Text of page ${i}.</p><a href="../d0/p0.html">first</a></body></html>`);
  }
}

async function summaryOf(out: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
}

test('crawl of a folder of 20,000 pages reads all 20,000 (no default cap on a local source)', async (t) => {
  const dir = await tempDir(t);
  await writeTinyPages(join(dir, 'site'), 20_000);
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', join(dir, 'site'), '--out', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const summary = await summaryOf(out);
  assert.equal(summary['pagesDone'], 20_000);
  assert.equal(summary['cappedAt'], undefined);
  assert.doesNotMatch(r.stderr, /cap/);
  const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as unknown[];
  assert.equal(pages.length, 20_000);
});

test('--max-pages that cuts a local source is named on stderr and counted in summary.json', async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await writeTinyPages(site, 10);
  for (const command of ['crawl', 'content']) {
    const out = join(dir, `out-${command}`);
    const r = await gabarit([command, site, '--max-pages', '3', '--out', out, '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(`gabarit: ${site}: `));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /cap of 3 pages/);
    assert.match(lines[0]!, /7 pages left unread/);
    const summary = await summaryOf(out);
    assert.equal(summary['pagesDone'], 3, command);
    assert.equal(summary['cappedAt'], 3, command);
    assert.equal(summary['pagesLeftByCap'], 7, command);
  }
  // A cap the source does not reach cuts nothing and says nothing.
  const out = join(dir, 'out-all');
  const r = await gabarit(['crawl', site, '--max-pages', '10', '--out', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal((await summaryOf(out))['cappedAt'], undefined);
});

test('a crawl over HTTP cut by --max-pages names the addresses it left', async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await mkdir(site);
  const links = Array.from({ length: 6 }, (_, i) => `<a href="p${i}.html">p${i}</a>`).join(' ');
  await writeFile(join(site, 'index.html'), `<!doctype html><html><head><title>Home</title></head><body>${links}</body></html>`);
  for (let i = 0; i < 6; i++) await writeFile(join(site, `p${i}.html`), `<!doctype html><html><head><title>P${i}</title></head><body><p>Page ${i}</p>${links}</body></html>`);
  const { serveDirectory } = await import('../../src/site/serve.ts');
  const served = await serveDirectory(site, { port: 0 });
  t.after(() => served.close());
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', served.url, '--max-pages', '2', '--delay', '0', '--out', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`^gabarit: ${served.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: stopped at the cap of 2 pages .*addresses found and not loaded$`, 'm'));
  const summary = await summaryOf(out);
  assert.equal(summary['pagesDone'], 2);
  assert.equal(summary['cappedAt'], 2);
  assert.ok(Number(summary['pagesLeftByCap']) >= 1, JSON.stringify(summary));
});

/** Serves `pages` (path → HTML) on 127.0.0.1; any other path is a 404. */
async function servePages(t: { after(fn: () => Promise<void>): void }, pages: Readonly<Record<string, string>>): Promise<string> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}/`;
}

/** A page of a small site: a shared menu and footer around its own story. */
function sitePage(title: string, story: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/a/index.html">A</a> <a href="/a/index.html/">A folder</a> <a href="/b.html">B</a></nav><main><h1>${title}</h1><p>${story}</p></main><footer>Copyright the example site, all rights kept.</footer></body></html>`;
}

test('pages at a/index.html and a/index.html/ both get their own output files', async (t) => {
  const dir = await tempDir(t);
  const url = await servePages(t, {
    '/': sitePage('Home', 'The home page tells what the site holds and where to find it.'),
    '/a/index.html': sitePage('A file', 'The first story is about a file named like a folder.'),
    '/a/index.html/': sitePage('A folder', 'The second story is about a folder named like a file.'),
    '/b.html': sitePage('B', 'The third story is about a page with a plain name.'),
  });
  for (const format of ['text', 'html']) {
    const out = join(dir, `out-${format}`);
    const r = await gabarit(['content', url, '--method', 'align', '--format', format, '--delay', '0', '--out', out, '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /cannot write/);
    const summary = await summaryOf(out);
    assert.equal(summary['pagesFailed'], 0, JSON.stringify(summary['failures']));
    const pages = summary['pages'] as { key: string; stem?: string }[];
    assert.deepEqual(pages.map((p) => p.key).sort(), ['a/index.html', 'a/index.html/index.html', 'b.html', 'index.html']);
    const stemOf = (key: string): string => {
      const p = pages.find((x) => x.key === key)!;
      return p.stem ?? key.replace(/\.html$/, '');
    };
    const endings = format === 'html' ? ['.txt', '.html', '.content.html'] : ['.txt', '.html'];
    for (const ending of endings) {
      assert.match(await readFile(join(out, stemOf('a/index.html') + ending), 'utf8'), /file named like a folder/);
      assert.match(await readFile(join(out, stemOf('a/index.html/index.html') + ending), 'utf8'), /folder named like a file/);
    }
  }
});

test('the engine options are in the help of template and content, however it is asked for', async () => {
  for (const args of [['template', '--help'], ['help', 'template'], ['content', '--help'], ['help', 'content']]) {
    const r = await gabarit(args);
    assert.equal(r.code, 0, r.stderr);
    for (const flag of ['--sample <n>', '--global', '--n <n>', '--no-line-rule']) assert.ok(r.stdout.includes(flag), `gabarit ${args.join(' ')} lists ${flag}`);
  }
});

test('content takes the engine options: for the method given, or for the one chosen (others named)', async (t) => {
  const dir = await tempDir(t);
  const given = await gabarit(['content', 'examples/site', '--sample', '4', '--method', 'align', '--out', join(dir, 'given'), '--quiet']);
  assert.equal(given.code, 0, given.stderr);
  assert.deepEqual(((await summaryOf(join(dir, 'given')))['options'] as Record<string, unknown>)['engineOptions'], { sample: 4 });
  const chosen = await gabarit(['content', 'examples/site', '--sample', '4', '--out', join(dir, 'chosen'), '--quiet']);
  assert.equal(chosen.code, 0, chosen.stderr);
  const method = String((await summaryOf(join(dir, 'chosen')))['method']);
  if (method !== 'align') assert.match(chosen.stderr, new RegExp(`option sample not taken by ${method}`));
  const other = await gabarit(['content', 'examples/site', '--global', '--method', 'align', '--out', join(dir, 'other')]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /--global is an option of method pagelets, not of align/);
  const bad = await gabarit(['content', 'examples/site', '--sample', '0', '--out', join(dir, 'bad')]);
  assert.equal(bad.code, 2);
});

test("title is the document's <title> and headline the main heading, in every output of content and template", async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await mkdir(site);
  for (let i = 0; i < 4; i++) {
    await writeFile(join(site, `p${i}.html`), `<!DOCTYPE html><html><head><title>Daily ${i} | The Site</title></head><body>
<header><div class="brand">The site</div><nav><ul><li><a href="p0.html">Zero</a></li><li><a href="p1.html">One</a></li><li><a href="p2.html">Two</a></li></ul></nav></header>
<main><article><h1>What happened on day ${i}</h1>${article(i, 8)}</article></main>
<footer><p>Copyright the site. Contact, terms and privacy.</p></footer></body></html>`);
  }
  type Rec = { key: string; title: string; headline?: string };
  const content = await gabarit(['content', site, '--method', 'align', '--format', 'jsonl', '--out', '-']);
  assert.equal(content.code, 0, content.stderr);
  const records = content.stdout.trim().split('\n').map((l) => JSON.parse(l) as Rec);
  assert.equal(records.length, 4);
  for (const r of records) {
    const i = r.key.replace(/\D/g, '');
    assert.equal(r.title, `Daily ${i} | The Site`);
    assert.equal(r.headline, `What happened on day ${i}`);
  }
  const json = await gabarit(['content', site, '--method', 'align', '--format', 'json', '--out', join(dir, 'json'), '--quiet']);
  assert.equal(json.code, 0, json.stderr);
  const page = JSON.parse(await readFile(join(dir, 'json', 'p1.json'), 'utf8')) as Rec;
  assert.deepEqual({ title: page.title, headline: page.headline }, { title: 'Daily 1 | The Site', headline: 'What happened on day 1' });
  const summary = await summaryOf(join(dir, 'json'));
  const listed = (summary['pages'] as Rec[]).find((p) => p.key === 'p1.html')!;
  assert.deepEqual({ title: listed.title, headline: listed.headline }, { title: 'Daily 1 | The Site', headline: 'What happened on day 1' });
  const html = await gabarit(['content', site, '--method', 'align', '--format', 'html', '--out', join(dir, 'html'), '--quiet']);
  assert.equal(html.code, 0, html.stderr);
  const doc = await readFile(join(dir, 'html', 'p1.content.html'), 'utf8');
  assert.match(doc, /<title>Daily 1 \| The Site<\/title>/);
  assert.match(doc, /<h1>What happened on day 1<\/h1>/);
  // A template run finds no headline: the title is still the document's <title>.
  const template = await gabarit(['template', site, '--format', 'jsonl', '--out', '-']);
  assert.equal(template.code, 0, template.stderr);
  for (const r of template.stdout.trim().split('\n').map((l) => JSON.parse(l) as Rec)) {
    assert.equal(r.title, `Daily ${r.key.replace(/\D/g, '')} | The Site`);
    assert.equal(r.headline, undefined);
  }
});

test('an archive cut short (a crawl stopped while writing it): the pages before the cut are read, the one it cuts is named', { timeout: 120_000 }, async (t) => {
  const dir = await tempDir(t);
  const whole = join(dir, 'site.warc.gz');
  const pages = await writeWarc(join(ROOT, 'examples', 'site'), whole, { baseUrl: 'https://shop.example/' });
  const bytes = await readFile(whole);
  await writeFile(join(dir, 'cut.warc.gz'), bytes.subarray(0, bytes.length - 200));
  const out = join(dir, 'out');
  // read by warcio, the cut page was left out without a word (43 pages done, none failed, stderr empty)
  const r = await gabarit(['template', join(dir, 'cut.warc.gz'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const named = r.stderr.split('\n').filter((l) => /ends inside its record \(the file is cut/.test(l));
  assert.equal(named.length, 1, r.stderr);
  assert.match(named[0]!, /https:\/\/shop\.example\/\S+\.html/);
  const summary = await summaryOf(out);
  assert.equal(summary['pagesDone'], pages - 1);
  assert.equal(summary['pagesFailed'], 1);
});

test('an archived response whose HTTP headers end in bare line feeds: the page is read whole (not from a CRLF CRLF inside it)', async (t) => {
  const dir = await tempDir(t);
  const page = (n: number): string =>
    `<html><head><title>Page ${n}</title></head>\r\n\r\n<body><h1>Heading ${n}</h1><p>${'A sentence of the page. '.repeat(20)}</p></body></html>`;
  const member = (n: number, eol: string): Buffer => {
    const http = Buffer.from(`HTTP/1.1 200 OK${eol}Content-Type: text/html; charset=utf-8${eol}${eol}${page(n)}`);
    const head = `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://lf.example/p${n}.html\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n` +
      `WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-00000000000${n}>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`;
    return gzipSync(Buffer.concat([Buffer.from(head), http, Buffer.from('\r\n\r\n')]));
  };
  const file = join(dir, 'lf.warc.gz');
  await writeFile(file, Buffer.concat([member(1, '\r\n'), member(2, '\n')]));
  const r = await gabarit(['content', file, '--format', 'jsonl', '--out', '-']);
  assert.equal(r.code, 0, r.stderr);
  const titles = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { title?: string }).title).sort();
  assert.deepEqual(titles, ['Page 1', 'Page 2']);
});
