/**
 * The command line as a user runs it, as a child process (from the sources; test/package/ checks the
 * installed package), on small sites written to a temporary directory by the test. Checks what users and
 * scripts rely on: the files of the output contract, the exit codes (0 done, 1 nothing done, 2 usage), one
 * message per failed page on stderr, valid JSON with --json, and `serve` answering on 127.0.0.1 until
 * interrupted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDirectory } from '../../src/site/serve.ts';
import { ENGINES } from '../../src/template/engines.ts';
import { gabarit, startGabarit } from './gabarit-process.ts';

/** A page of the fixture site: a shared menu (so the menu pages link each other) and some content. */
function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<nav><a href="index.html">Home</a> <a href="news.html">News</a> <a href="about.html">About</a></nav>
<main><h1>${title}</h1>${body}</main>
<footer><a href="https://elsewhere.example/">Elsewhere</a></footer>
</body></html>`;
}

/**
 * Writes a site: index, news, about (linked each other by the menu) plus story.html (linked from news
 * only; it has the menu too), and `broken` empty pages, which fail.
 */
async function writeSite(dir: string, broken: string[] = []): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.html'), page('Home', '<p>Welcome to the fixture site.</p>'));
  await writeFile(join(dir, 'news.html'), page('News', '<p>Read <a href="story.html">the story</a>.</p>'));
  await writeFile(join(dir, 'about.html'), page('About', '<p>About us, a short page.</p>'));
  await writeFile(join(dir, 'story.html'), page('Story', '<p>Once upon a time there was a page.</p>'));
  for (const b of broken) await writeFile(join(dir, b), '');
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

test('crawl on a directory writes summary.json, pages.json and graph.json with the right counts (exit 0)', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'));
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', join(dir, 'site'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /pages found: 4/);
  const summary = await readJson(join(out, 'summary.json'));
  assert.equal(summary['command'], 'crawl');
  assert.equal(summary['pagesDone'], 4);
  assert.equal(summary['pagesFailed'], 0);
  assert.equal(summary['pagesLoaded'], 0, 'nothing was loaded over the network');
  const graph = summary['graph'] as Record<string, unknown>;
  // Menu: each of the 4 pages links to the 3 menu pages (minus itself): 3·2 + 3 = 9, plus news → story.
  assert.equal(graph['links'], 10);
  // The 3 menu pages pairwise, and news ↔ story (story has the menu too).
  assert.equal(graph['mutualPairs'], 4);
  assert.equal(graph['offSiteLinks'], 4);
  assert.equal(graph['danglingLinks'], 0);
  const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as { key: string; linksIn: number; title: string }[];
  assert.deepEqual(pages.map((p) => p.key), ['about.html', 'index.html', 'news.html', 'story.html']);
  assert.equal(pages.find((p) => p.key === 'story.html')?.linksIn, 1);
  assert.equal(pages.find((p) => p.key === 'news.html')?.title, 'News');
  const g = await readJson(join(out, 'graph.json'));
  assert.equal((g['edges'] as unknown[]).length, 10);
});

test('--json prints the summary as valid JSON on stdout', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'));
  const out = join(dir, 'out');
  const r = await gabarit(['--json', 'crawl', join(dir, 'site'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const printed = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.deepEqual(printed, await readJson(join(out, 'summary.json')));
  // The global option also works after the command.
  const r2 = await gabarit(['crawl', join(dir, 'site'), '--out', out, '--json']);
  assert.equal((JSON.parse(r2.stdout) as { pagesDone: number }).pagesDone, 4);
});

test('some pages fail: exit 0, each failure in summary.json and named on stderr', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), ['empty.html']);
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', join(dir, 'site'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const summary = await readJson(join(out, 'summary.json'));
  assert.equal(summary['pagesDone'], 4);
  assert.equal(summary['pagesFailed'], 1);
  const failures = summary['failures'] as { key: string; code: string; url: string }[];
  assert.equal(failures[0]?.key, 'empty.html');
  assert.equal(failures[0]?.code, 'empty');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^gabarit: file:\/\/\S+empty\.html: /);
});

test('every page fails: exit 1, summary.json still written', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'site'));
  await writeFile(join(dir, 'site', 'a.html'), '');
  await writeFile(join(dir, 'site', 'b.html'), '   \n');
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', join(dir, 'site'), '--out', out]);
  assert.equal(r.code, 1);
  const summary = await readJson(join(out, 'summary.json'));
  assert.equal(summary['pagesDone'], 0);
  assert.equal(summary['pagesFailed'], 2);
  assert.match(r.stderr, /a\.html: /);
  assert.match(r.stderr, /b\.html: /);
  assert.match(r.stderr, /gabarit: no page could be loaded/);
});

test('a source that does not exist is a usage error (exit 2) with one clear message', async () => {
  const r = await gabarit(['crawl', '/nonexistent/gabarit-test-source', '--out', join(tmpdir(), 'gabarit-unused')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^gabarit: no such file or directory: \/nonexistent\/gabarit-test-source\n/);
  assert.equal(r.stdout, '');
});

test('usage errors exit 2: unknown method, bad option value, missing argument, unknown command', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'));
  const method = await gabarit(['template', join(dir, 'site'), '--method', 'no-such-method', '--out', join(dir, 'out')]);
  assert.equal(method.code, 2);
  assert.match(method.stderr, /unknown method "no-such-method" \(known: /);
  for (const name of Object.keys(ENGINES)) assert.ok(method.stderr.includes(name), `lists ${name}`);
  const value = await gabarit(['crawl', join(dir, 'site'), '--max-pages', 'many']);
  assert.equal(value.code, 2);
  assert.match(value.stderr, /^gabarit: .*--max-pages/);
  const missing = await gabarit(['crawl']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing required argument 'source'/);
  const unknown = await gabarit(['frobnicate']);
  assert.equal(unknown.code, 2);
});

test('serve answers on 127.0.0.1 and stops on SIGINT with exit 0', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'));
  const { child, url, stop } = await startGabarit(['serve', join(dir, 'site'), '--port', '0']);
  t.after(stop);
  const res = await fetch(url + 'news.html');
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<h1>News<\/h1>/);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  assert.equal(await exited, 0);
});

test('template writes the output contract for every page', { skip: ENGINES['align'] ? false : 'no align engine registered' }, async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), ['empty.html']);
  const out = join(dir, 'out');
  const r = await gabarit(['template', join(dir, 'site'), '--method', 'align', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const summary = await readJson(join(out, 'summary.json'));
  assert.equal(summary['command'], 'template');
  assert.equal(summary['method'], 'align');
  assert.equal(summary['pagesDone'], 4);
  assert.equal(summary['pagesFailed'], 1);
  assert.match(r.stderr, /empty\.html: /);
  for (const key of ['index', 'news', 'about', 'story']) {
    const txt = await readFile(join(out, key + '.txt'), 'utf8');
    const html = await readFile(join(out, key + '.html'), 'utf8');
    assert.ok(txt.length > 0);
    assert.match(html, /data-gabarit="template"/, `${key}.html has template marks`);
  }
  await readJson(join(out, 'template.json'));
});

test('engine flags that take no value turn their option on (--global) or off (--no-fold-digits)', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'));
  const run = async (flags: string[]): Promise<Record<string, unknown>> => {
    const out = join(dir, `out${flags.join('')}`);
    const r = await gabarit(['--quiet', 'template', join(dir, 'site'), '-m', 'pagelets', ...flags, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    return (await readJson(join(out, 'summary.json')))['options'] as Record<string, unknown>;
  };
  const [given, defaults] = [await run(['--global', '--no-fold-digits']), await run([])];
  assert.deepEqual([given['global'], given['foldDigits']], [true, false]);
  assert.deepEqual([defaults['global'], defaults['foldDigits']], [false, true]);
});

test('crawl over HTTP (a site served on 127.0.0.1): pages loaded counted, a broken link named as a failure', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'));
  await writeFile(join(dir, 'site', 'about.html'), page('About', '<p>See <a href="gone.html">the old page</a>.</p>'));
  const served = await serveDirectory(join(dir, 'site'), { port: 0 });
  t.after(() => served.close());
  const out = join(dir, 'out');
  const r = await gabarit(['crawl', served.url, '--delay', '0', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const summary = await readJson(join(out, 'summary.json'));
  assert.equal(summary['pagesDone'], 4);
  assert.equal(summary['pagesLoaded'], 4);
  assert.equal(summary['pagesFailed'], 1);
  assert.equal((summary['failures'] as { code: string }[])[0]?.code, 'not-found');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.ok(lines[0]!.startsWith(`gabarit: ${served.url}gone.html: `), lines[0]);
});
