/**
 * The library's `collect`, `cluster`, `hits` and `cocited` (src/run/) give what their commands write: the
 * same summary (timings aside), the same results and the same failures, a failure also being named on the
 * command's stderr. Each fixture holds a page refused by `maxBytes` (`--max-bytes`), so there is one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cluster, cocited, collect, collectSample, hits } from '../../src/index.ts';
import { gabarit } from '../cli/gabarit-process.ts';
import { productKey, shopSite } from '../collect/fixture-site.ts';

/** Bytes a page may have in these runs; the padded page is over it. */
const MAX_BYTES = 20_000;

/** Writes `files` under a new temporary directory (removed after the test), plus one page over MAX_BYTES. */
async function siteDir(t: { after(fn: () => Promise<void>): void }, files: ReadonlyMap<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-run-commands-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const [key, html] of files) {
    await mkdir(dirname(join(dir, 'site', key)), { recursive: true });
    await writeFile(join(dir, 'site', key), html);
  }
  await writeFile(join(dir, 'site', 'huge.html'), `<html><body><p>${'padding '.repeat(MAX_BYTES / 4)}</p></body></html>`);
  return dir;
}

async function json(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}

/** A summary without what differs from run to run (timings) or is the command's alone (interruption). */
function comparable(summary: Record<string, unknown>): Record<string, unknown> {
  const { timings: _t, interrupted: _i, ...rest } = summary;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

/** Each failure of the library's result is named on the command's stderr. */
function namedOnStderr(stderr: string, failures: ReadonlyArray<{ url: string }>): void {
  assert.ok(failures.length > 0, 'the fixture has a failure');
  for (const f of failures) assert.ok(stderr.includes(`gabarit: ${f.url}: `), `${f.url} named on stderr:\n${stderr}`);
}

/** Six pages citing t.html beside r.html in their article, under a shared menu. */
function citingPages(): Map<string, string> {
  const menu = '<ul><li><a href="t.html">T</a></li><li><a href="m1.html">M1</a></li><li><a href="m2.html">M2</a></li></ul>';
  const w = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig'];
  const pages = new Map<string, string>();
  for (let i = 0; i < 6; i++) {
    const article = i < 3 ? `<p>Text ${w[i]} <a href="t.html">t</a> <a href="r.html">r</a> <a href="x${i}.html">x</a></p>` : `<p>Unique text number ${i * 7} words</p>`;
    pages.set(`p${i}.html`, `<html><body><nav>${menu}</nav><main><h1>Page ${w[i]}</h1>${article}</main></body></html>`);
  }
  return pages;
}

test('collect as a library call gives the pages, the failures and the summary that gabarit collect writes', async (t) => {
  const { files, products } = shopSite();
  // The home page links to the page over the size limit: the collector meets it and names it.
  files.set('index.html', files.get('index.html')!.replace('</body>', '<a href="huge.html">all</a></body>'));
  const dir = await siteDir(t, files);
  const sampleFile = join(dir, 'site', productKey('lamps', 3));
  const out = join(dir, 'out');
  const ran = await gabarit(['-q', 'collect', sampleFile, '--out', out, '--max-bytes', String(MAX_BYTES)]);
  assert.equal(ran.code, 0, ran.stderr);
  const { root, sample } = await collectSample(sampleFile);
  const r = await collect(root, sample, { sourceOptions: { maxBytes: MAX_BYTES } });
  assert.deepEqual(r.pages.map((p) => p.key).sort(), [...products].sort());
  assert.deepEqual(JSON.parse(JSON.stringify(r.pages)), await json(join(out, 'pages.json')));
  assert.deepEqual(comparable({ ...r.summary }), comparable(await json(join(out, 'summary.json'))));
  assert.ok(r.failures.some((f) => f.key === 'huge.html'), 'the page over the limit is a failure');
  namedOnStderr(ran.stderr, r.failures);
});

test('cluster as a library call gives the clusters, the failures and the summary that gabarit cluster writes', async (t) => {
  const dir = await siteDir(t, shopSite().files);
  for (const by of ['auto', 'schema', 'shape'] as const) {
    const out = join(dir, `out-${by}`);
    const ran = await gabarit(['-q', 'cluster', join(dir, 'site'), '--by', by, '--out', out, '--max-bytes', String(MAX_BYTES)]);
    assert.equal(ran.code, 0, ran.stderr);
    const r = await cluster(join(dir, 'site'), { by, sourceOptions: { maxBytes: MAX_BYTES } });
    assert.ok(r.clusters.length > 1, `${by}: pages of several classes`);
    assert.deepEqual(JSON.parse(JSON.stringify(r.clusters)), await json(join(out, 'clusters.json')), by);
    assert.deepEqual(comparable(r.summary), comparable(await json(join(out, 'summary.json'))), by);
    assert.deepEqual(r.failures.map((f) => f.key), ['huge.html'], by);
    namedOnStderr(ran.stderr, r.failures);
  }
});

test('hits and cocited as library calls give the scores, the failures and the summaries that their commands write', async (t) => {
  const dir = await siteDir(t, citingPages());
  const src = join(dir, 'site');
  const limit = ['--max-bytes', String(MAX_BYTES), '--local'];
  const ranHits = await gabarit(['-q', 'hits', src, '--out', join(dir, 'hits'), ...limit]);
  assert.equal(ranHits.code, 0, ranHits.stderr);
  const h = await hits(src, { local: true, sourceOptions: { maxBytes: MAX_BYTES } });
  assert.ok(h.authorities.length > 0);
  assert.deepEqual(JSON.parse(JSON.stringify({ hubs: h.hubs, authorities: h.authorities, iterations: h.iterations })), await json(join(dir, 'hits', 'hits.json')));
  assert.deepEqual(comparable({ ...h.summary }), comparable(await json(join(dir, 'hits', 'summary.json'))));
  namedOnStderr(ranHits.stderr, h.failures);

  const ranCocited = await gabarit(['-q', 'cocited', src, '--url', 't.html', '--out', join(dir, 'cocited'), ...limit]);
  assert.equal(ranCocited.code, 0, ranCocited.stderr);
  const c = await cocited(src, { url: 't.html', local: true, sourceOptions: { maxBytes: MAX_BYTES } });
  assert.deepEqual(c.related[0], { url: 'http://local.invalid/r.html', key: 'r.html', score: 3 });
  assert.deepEqual(JSON.parse(JSON.stringify({ target: c.target, related: c.related })), await json(join(dir, 'cocited', 'cocited.json')));
  assert.deepEqual(comparable({ ...c.summary }), comparable(await json(join(dir, 'cocited', 'summary.json'))));
  namedOnStderr(ranCocited.stderr, c.failures);

  // A page nothing mentions: the library says so in its summary; the command, a usage error.
  const unknown = await cocited(src, { url: 'nowhere.html', local: true });
  assert.equal(unknown.summary.error?.code, 'unknown-page');
  assert.deepEqual(unknown.related, []);
  const ranUnknown = await gabarit(['-q', 'cocited', src, '--url', 'nowhere.html', '--out', join(dir, 'unknown')]);
  assert.equal(ranUnknown.code, 2);
  assert.ok(ranUnknown.stderr.includes(`--url ${unknown.summary.error!.message}`), ranUnknown.stderr);
});
