/**
 * Reading a source from the command line: every page of a local source (no default cap), a cap that cuts a
 * source named on stderr and counted in summary.json, distinct output files for every page, the engine
 * options of `template` and `content`, and one meaning of a page's `title`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

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
