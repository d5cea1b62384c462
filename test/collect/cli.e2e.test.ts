import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serveDirectory } from '../../src/site/serve.ts';
import { productKey, shopSite, writeSite } from './fixture-site.ts';
import { CLI } from '../cli/gabarit-process.ts';

const run = promisify(execFile);

test('gabarit collect over HTTP (127.0.0.1) writes pages.json and summary.json, each page with why it was taken or left; cluster groups by schema', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-collect-'));
  const { files, products } = shopSite();
  await writeSite(join(dir, 'site'), files);
  const served = await serveDirectory(join(dir, 'site'));
  try {
    const out = join(dir, 'out');
    await run(process.execPath, [...CLI, '-q', 'collect', served.url + productKey('lamps', 3), '--out', out, '--delay', '0', '--save-pages']);
    type Why = { key: string; cluster: number; similarity: number };
    const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as Why[];
    assert.deepEqual(pages.map((p) => p.key).sort(), [...products].sort());
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(summary['command'], 'collect');
    // Why each page was taken or left: its cluster and the similarity of its schema to the sample's.
    const threshold = (summary['options'] as { similarity: number }).similarity;
    const left = summary['pagesLeft'] as Why[];
    assert.equal(pages[0]!.similarity, 1, 'the sample is itself');
    for (const p of pages) assert.ok(p.similarity >= threshold, `${p.key} taken at ${p.similarity}`);
    assert.ok(left.length > 0, 'listing pages were read and left');
    for (const p of left) {
      assert.ok(!products.includes(p.key));
      assert.ok(p.similarity < threshold, `${p.key} left at ${p.similarity}`);
      assert.ok(!pages.some((q) => q.cluster === p.cluster), `${p.key} left in a collected cluster`);
    }
    assert.equal(summary['pagesDone'], products.length);
    assert.ok((summary['downloads'] as number) > 0 && (summary['downloads'] as number) <= files.size);
    assert.ok(Array.isArray(summary['indexPath']) && (summary['indexPath'] as unknown[]).length > 0);
    assert.match(await readFile(join(out, 'pages', 'lamps', 'item-3.html'), 'utf8'), /lamps 3/);

    const out2 = join(dir, 'out2');
    const gold = Object.fromEntries([...files.keys()].map((k) => [k, /item-/.test(k) ? 'product' : /\/\d\.html$/.test(k) ? 'listing' : 'other']));
    await writeFile(join(dir, 'gold.json'), JSON.stringify(gold));
    await run(process.execPath, [...CLI, '-q', 'cluster', join(dir, 'site'), '--out', out2, '--gold', join(dir, 'gold.json')]);
    const s2 = JSON.parse(await readFile(join(out2, 'summary.json'), 'utf8')) as Record<string, number>;
    assert.equal(s2['purity'], 1);
    assert.equal(s2['pagesDone'], files.size);
  } finally {
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('gabarit collect given a directory takes its index page as the sample; a directory without one is a usage error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-collect-dir-'));
  const { files, listings } = shopSite();
  await writeSite(join(dir, 'site'), files);
  // A category's first listing page as the index page of a folder of its own.
  await mkdir(join(dir, 'site', 'featured'));
  await writeFile(join(dir, 'site', 'featured', 'index.html'), files.get('tables/1.html')!.replace('<title>tables</title>', '<title>featured</title>'));
  await mkdir(join(dir, 'site', 'empty'));
  try {
    const out = join(dir, 'out');
    await run(process.execPath, [...CLI, '-q', 'collect', join(dir, 'site', 'featured'), '--root', join(dir, 'site'), '--out', out]);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sample: { key: string }; pages: Array<{ key: string }> };
    assert.equal(summary.sample.key, 'featured/index.html');
    for (const l of listings) assert.ok(summary.pages.some((p) => p.key === l), `${l} collected`);
    const failed = await run(process.execPath, [...CLI, '-q', 'collect', join(dir, 'site', 'empty'), '--root', join(dir, 'site'), '--out', out]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    assert.ok(failed, 'a directory without an index page fails');
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, /is a directory without an index page/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

