/**
 * `--workers`: the per-page work of template (align, hyperlink), content, apply, wrapper run and cluster (by structure and by content) in
 * worker threads. Runs with 1 and 3 workers write what a run on the main thread alone writes (every page
 * file, the pages in summary.json, the jsonl records in the source's order, the wrapper's records.jsonl;
 * cluster's clusters.json): for content, pages finished in the workers (main block, metadata, files and
 * formatted content made there) as on the main thread. A page whose worker stops is named on stderr and
 * counted, the other pages written. The site has more pages than the main thread handles alone before a
 * pool starts (48, and for content the 64 of its site vote).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { lonePage, writeSite } from '../run/fixtures.ts';
import { gabarit, ROOT, runProcess, CLI } from './gabarit-process.ts';

/** Pages of the site: more than the 64 the main thread handles before a pool starts (content's site vote). */
const PAGES = 80;

/** The site of the tests: its page 70 with metadata (JSON-LD, OpenGraph), 71 with a JSON-LD block that is not JSON. */
async function writeTestSite(dir: string): Promise<void> {
  await writeSite(dir, PAGES);
  const meta = (ld: string): string =>
    `<head><script type="application/ld+json">${ld}</script><meta property="og:site_name" content="Alpha Fixture"><meta name="author" content="Ada Lovelace">`;
  const page = (i: number): Promise<string> => readFile(join(dir, `p${i}.html`), 'utf8');
  await writeFile(join(dir, 'p70.html'), (await page(70)).replace('<head>', meta('{"@type":"Article","headline":"Title 70","datePublished":"2026-01-02T03:04:05Z"}')));
  await writeFile(join(dir, 'p71.html'), (await page(71)).replace('<head>', meta('{"@type": "Article", broken')));
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-workers-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file under `dir` but summary.json, by path, with its text. */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || e.name === 'summary.json') continue;
    const path = join(e.parentPath, e.name);
    out.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return out;
}

/** A wrapper made on the site's first page (the page's title, its footer). */
async function makeWrapper(site: string, path: string): Promise<void> {
  const r = await gabarit(['wrapper', 'create', join(site, 'p0.html'), '--pattern', 'title=main h1', '--pattern', 'footer=footer p', '-o', path]);
  assert.equal(r.code, 0, r.stderr);
}

/** summary.json's pages, in the order written, and its counts. */
async function summary(dir: string): Promise<{ pages: Array<Record<string, unknown>>; pagesDone: number; pagesFailed: number }> {
  return JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as { pages: Array<Record<string, unknown>>; pagesDone: number; pagesFailed: number };
}

/** The commands compared: their arguments before `--workers`, given the site and the template.json to apply. */
const COMMANDS: ReadonlyArray<{ name: string; args: (site: string, template: string) => string[]; jsonl?: true }> = [
  { name: 'template -m align', args: (site) => ['template', site, '-m', 'align'] },
  { name: 'template -m hyperlink', args: (site) => ['template', site, '-m', 'hyperlink', '--key', 'p0.html'], jsonl: true },
  { name: 'content', args: (site) => ['content', site, '-m', 'align', '--format', 'markdown'] },
  { name: 'content (jsonl)', args: (site) => ['content', site], jsonl: true },
  { name: 'apply', args: (site, template) => ['apply', template, site], jsonl: true },
];

test('--workers 1 and --workers 3 write the same files, summary pages and jsonl records as --workers 0, in the source order', async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await writeTestSite(site);
  const learned = join(dir, 'learned');
  const l = await gabarit(['template', site, '-m', 'align', '--workers', '0', '-q', '--out', learned]);
  assert.equal(l.code, 0, l.stderr);
  const template = join(learned, 'template.json');
  for (const c of COMMANDS) {
    const outs: string[] = [];
    const warnings: string[] = [];
    for (const workers of ['0', '1', '3']) {
      const out = join(dir, `${c.name.replace(/\W+/g, '-')}-${workers}`);
      const r = await gabarit([...c.args(site, template), '--workers', workers, ...(c.jsonl ? ['--format', 'jsonl'] : []), '--out', out]);
      assert.equal(r.code, 0, `${c.name} --workers ${workers}: ${r.stderr}`);
      warnings.push(r.stderr.split('\n').filter((l) => l.includes('p71.html')).join('\n'));
      outs.push(out);
    }
    // The warnings about a page are told as on the main thread (content: p71's JSON-LD, read in a worker).
    assert.equal(warnings[1], warnings[0], `${c.name}: the warnings of --workers 1`);
    assert.equal(warnings[2], warnings[0], `${c.name}: the warnings of --workers 3`);
    if (c.name.startsWith('content')) assert.match(warnings[0]!, /p71\.html: .*JSON-LD/, `${c.name}: p71's JSON-LD named`);
    const [zero, one, three] = await Promise.all(outs.map(files));
    for (const [other, name] of [[one!, '1'], [three!, '3']] as const) {
      assert.deepEqual([...other.keys()].sort(), [...zero!.keys()].sort(), `${c.name} --workers ${name}: the same files`);
      for (const [path, text] of zero!) assert.equal(other.get(path), text, `${c.name} --workers ${name}: ${path}`);
    }
    const [s0, s1, s3] = await Promise.all(outs.map(summary));
    for (const s of [s0!, s1!, s3!]) assert.equal(s.pagesDone, PAGES, c.name);
    if (c.jsonl) {
      // pages.jsonl: the records in the source's order, the same bytes (compared above)
      const records = one!.get('pages.jsonl')!.trim().split('\n').map((x) => JSON.parse(x) as { key: string });
      assert.deepEqual(records.map((r) => r.key), Array.from({ length: PAGES }, (_, i) => `p${i}.html`).sort(), `${c.name}: the records in the source's order`);
    } else {
      assert.ok(one!.size >= 2 * PAGES, `${c.name}: the page files are written (${one!.size})`);
      assert.deepEqual(s1!.pages, s0!.pages, `${c.name}: summary.json's pages, in the same order`);
      assert.deepEqual(s3!.pages, s0!.pages, `${c.name}: summary.json's pages, in the same order`);
    }
    if (c.name === 'content (jsonl)') {
      const p70 = zero!.get('pages.jsonl')!.split('\n').find((l) => l.includes('"p70.html"'))!;
      const m = (JSON.parse(p70) as { metadata: Record<string, { value: unknown }> }).metadata;
      assert.equal(m['author']?.value, 'Ada Lovelace', 'content: p70 metadata read (in a worker with --workers 1 and 3)');
      assert.equal(m['siteName']?.value, 'Alpha Fixture');
    }
  }
  const wrapper = join(dir, 'wrapper.json');
  await makeWrapper(site, wrapper);
  const records: string[] = [];
  for (const workers of ['1', '3']) {
    const out = join(dir, `wrapper-${workers}`);
    const r = await gabarit(['wrapper', 'run', wrapper, site, '--workers', workers, '-q', '-o', out]);
    assert.equal(r.code, 0, `wrapper run --workers ${workers}: ${r.stderr}`);
    records.push(await readFile(join(out, 'records.jsonl'), 'utf8'));
    const s = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { pagesDone: number };
    assert.equal(s.pagesDone, PAGES);
  }
  const pages = records[0]!.trim().split('\n').map((l) => (JSON.parse(l) as { page: string; record: { title: string } }));
  assert.equal(pages.length, PAGES);
  assert.deepEqual(pages.map((p) => p.record.title), [...Array.from({ length: PAGES }, (_, i) => i)].sort((a, b) => String(a).localeCompare(String(b))).map((i) => `Title ${i} on alpha`), 'wrapper run: each page its record, in the source order');
  assert.equal(records[1], records[0], 'wrapper run: the same records.jsonl');
  // cluster: pages of a layout only the workers read (p56… come after the first 48 in the source's order),
  // one with an in-page link under another base (read on the main thread); compared with a run on the main
  // thread alone, as the workers' tag-lists are merged into the main thread's.
  const mixed = join(dir, 'mixed');
  await writeSite(mixed, PAGES);
  for (const i of [56, 57, 59]) await writeFile(join(mixed, `p${i}.html`), lonePage('beta', i));
  await writeFile(join(mixed, 'p58.html'), lonePage('beta', 58).replace('<head>', '<head><base href="https://beta.example/">').replace('</article>', '<a href="#top">top</a></article>'));
  const clusters: string[] = [];
  for (const workers of ['0', '3']) {
    const out = join(dir, `cluster-${workers}`);
    const r = await gabarit(['cluster', mixed, '--workers', workers, '-q', '-o', out]);
    assert.equal(r.code, 0, `cluster --workers ${workers}: ${r.stderr}`);
    clusters.push(await readFile(join(out, 'clusters.json'), 'utf8'));
    assert.equal((await summary(out)).pagesDone, PAGES);
  }
  assert.ok((JSON.parse(clusters[0]!) as unknown[]).length >= 2, 'cluster: the layouts are told apart');
  assert.equal(clusters[1], clusters[0], 'cluster: the same clusters.json');
  // cluster --by content: the template learnt, then every page's kept text read on the workers.
  const byContent: string[] = [];
  for (const workers of ['0', '3']) {
    const out = join(dir, `content-cluster-${workers}`);
    const r = await gabarit(['cluster', mixed, '--by', 'content', '--workers', workers, '-q', '-o', out]);
    assert.equal(r.code, 0, `cluster --by content --workers ${workers}: ${r.stderr}`);
    byContent.push(await readFile(join(out, 'clusters.json'), 'utf8'));
    assert.equal((await summary(out)).pagesDone, PAGES);
  }
  assert.equal(byContent[1], byContent[0], 'cluster --by content: the same clusters.json');
});

test('a page whose worker stops is named on stderr and counted as failed; the other pages are written', async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await writeSite(site, PAGES);
  const learned = join(dir, 'learned');
  assert.equal((await gabarit(['template', site, '-m', 'align', '--workers', '0', '-q', '--out', learned])).code, 0);
  // The test's fault: a worker thread given p75.html stops (the main thread, which marks the first pages, never does).
  const env = { ...process.env, GABARIT_TEST_WORKER_STOP: 'p75.html' };
  const runs: ReadonlyArray<{ name: string; args: string[] }> = [
    { name: 'template', args: ['template', site, '-m', 'align'] },
    { name: 'content', args: ['content', site, '-m', 'align'] },
    { name: 'apply', args: ['apply', join(learned, 'template.json'), site] },
    { name: 'wrapper', args: ['wrapper', 'run', join(dir, 'wrapper.json'), site] },
    { name: 'cluster', args: ['cluster', site] },
  ];
  await makeWrapper(site, join(dir, 'wrapper.json'));
  for (const c of runs) {
    const out = join(dir, c.name);
    const r = await runProcess(process.execPath, [...CLI, ...c.args, '--workers', '2', '-q', '-o', out], { cwd: ROOT, env });
    assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
    assert.match(r.stderr, /^gabarit: \S*p75\.html: .*worker.*stopped/m, `${c.name}: the page is named`);
    const s = await summary(out);
    assert.equal(s.pagesFailed, 1, c.name);
    assert.equal(s.pagesDone, PAGES - 1, c.name);
    if (c.name === 'wrapper') {
      const titles = (await readFile(join(out, 'records.jsonl'), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { record: { title: string } }).record.title);
      assert.ok(!titles.includes('Title 75 on alpha') && titles.includes('Title 76 on alpha'), 'wrapper: the other records are written');
    } else if (c.name === 'cluster') {
      const keys = (JSON.parse(await readFile(join(out, 'clusters.json'), 'utf8')) as Array<{ keys: string[] }>).flatMap((x) => x.keys);
      assert.ok(!keys.includes('p75.html') && keys.includes('p76.html'), 'cluster: the other pages are grouped');
    } else {
      const written = await files(out);
      assert.ok(!written.has('p75.txt'), c.name);
      for (const k of [0, 74, 76, 79]) assert.ok(written.has(`p${k}.txt`), `${c.name}: p${k}.txt`);
    }
    // Without worker threads no page stops.
    const inline = await runProcess(process.execPath, [...CLI, ...c.args, '--workers', '0', '-q', '-o', join(dir, `${c.name}-0`)], { cwd: ROOT, env });
    assert.equal(inline.code, 0, inline.stderr);
    assert.equal((await summary(join(dir, `${c.name}-0`))).pagesFailed, 0, `${c.name} --workers 0`);
  }
});

test('a folder of small sites shares one pool: pages past the run’s first 48 go to the workers, the files those of --workers 0', async (t) => {
  const dir = await tempDir(t);
  const crawl = join(dir, 'crawl');
  // Three sites of 30 pages: none has the 48 pages after which a pool of its own would start.
  for (const s of ['alpha', 'beta', 'gamma']) await writeSite(join(crawl, s), 30, s);
  for (const c of [['template', crawl], ['content', crawl, '--format', 'markdown']]) {
    const outs: string[] = [];
    for (const workers of ['0', '2']) {
      const out = join(dir, `${c[0]}-${workers}`);
      const r = await gabarit([...c, '--workers', workers, '-q', '--out', out]);
      assert.equal(r.code, 0, `${c[0]} --workers ${workers}: ${r.stderr}`);
      outs.push(out);
    }
    const [zero, two] = await Promise.all(outs.map(files));
    assert.ok(zero!.size >= 180, `${c[0]}: the page files are written`);
    assert.deepEqual([...two!.keys()].sort(), [...zero!.keys()].sort(), `${c[0]}: the same files`);
    for (const [path, text] of zero!) assert.equal(two!.get(path), text, `${c[0]}: ${path}`);
    // The third site's page is handled by a worker (the test's fault stops it there): named, counted, the others written.
    const env = { ...process.env, GABARIT_TEST_WORKER_STOP: 'gamma/p20.html' };
    const out = join(dir, `${c[0]}-fault`);
    const r = await runProcess(process.execPath, [...CLI, ...c, '--workers', '2', '-q', '-o', out], { cwd: ROOT, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /gamma\/p20\.html: .*worker.*stopped/, `${c[0]}: the page went to a worker`);
    assert.equal((await summary(out)).pagesDone, 89, c[0]);
  }
});
