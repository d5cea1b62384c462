/**
 * The options of `gabarit collect` through the command line, on the demo site's shop: --root, the
 * INDESIT thresholds (recorded in summary.json), --max-downloads, --save-pages and --out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit, ROOT } from './gabarit-process.ts';
import { COLLECT_DEFAULTS } from '../../src/structure/defaults.ts';

const SHOP = join(ROOT, 'examples', 'site', 'shop');

test('collect: --root makes a subdirectory the site (links leaving it are off-site, not failures); --max-downloads stops; --save-pages writes each page; the thresholds are recorded', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-options-collect-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, 'out');
  const r = await gabarit([
    'collect', join(SHOP, 'cairn-45-backpack.html'), '--root', SHOP, '--similarity', '0.6', '--same-cluster-links', '1', '--max-depth', '1',
    '--rings', '0', '--max-downloads', '5', '--no-layout', '--save-pages', '-q', '--out', out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(summary['source'], SHOP, 'the site is --root');
  assert.deepEqual(summary['sample'], { key: 'cairn-45-backpack.html', url: `file://${SHOP}/cairn-45-backpack.html` }, 'keys are relative to --root');
  // The shop's pages link the site above it (../index.html): outside --root, so not pages to load.
  assert.equal(summary['pagesFailed'], 0, JSON.stringify(summary['failures']));
  // The cap is the one thing named on stderr, as a doubt (summary.json `doubts`).
  assert.deepEqual(r.stderr.trim().split('\n'), ['gabarit: warning: cairn-45-backpack.html: the download budget stopped the run: pages of the class may be missing']);
  assert.deepEqual(summary['doubts'], ['the download budget stopped the run: pages of the class may be missing']);
  assert.ok((summary['downloads'] as number) <= 5, '--max-downloads 5');
  assert.equal(summary['complete'], false, 'the run stopped at --max-downloads');
  assert.match(r.stdout, /stopped at --max-downloads/);
  assert.deepEqual(summary['options'], { similarity: 0.6, shapeSimilarity: COLLECT_DEFAULTS.shapeSimilarity, sameClusterLinks: 1, maxDepth: 1, rings: 0, maxDownloads: 5, layout: false, sections: true });
  const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as { key: string }[];
  assert.ok(pages.length >= 2, 'pages like the sample were collected');
  for (const p of pages) {
    const saved = join(out, 'pages', p.key);
    assert.ok(existsSync(saved), `--save-pages wrote ${p.key}`);
    assert.equal(await readFile(saved, 'utf8'), await readFile(join(SHOP, p.key), 'utf8'));
  }
});
