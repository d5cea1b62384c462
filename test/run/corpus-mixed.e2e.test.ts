/**
 * A mixed crawl from the corpus: every page of single/readability and one page of every samesite site in one
 * directory (copied to a temporary folder). `gabarit content` on it gives a non-empty main text for every
 * page whose gold has one. Skips without the corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { listSamesite } from '../../src/eval/corpus.ts';
import { gabarit } from '../cli/gabarit-process.ts';

test('content of a mixed directory (single/readability and a page of each samesite site): a main text for every page with one', { skip: corpusSkip() }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-mixed-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pages = join(dir, 'pages');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(pages);
  const gold = new Map<string, string>();
  const single = join(CORPUS_DIR, 'single', 'readability');
  for (const f of (await readdir(single)).filter((x) => x.endsWith('.html'))) {
    await copyFile(join(single, f), join(pages, f));
    gold.set(f.replace(/\.html$/, ''), await readFile(join(single, f.replace(/\.html$/, '.txt')), 'utf8'));
  }
  for (const g of listSamesite()) {
    const p = g.pages[0];
    if (!p) continue;
    const name = `${g.set}_${g.site}_${basename(p.htmlPath)}`;
    await copyFile(p.htmlPath, join(pages, name));
    gold.set(name.replace(/\.html$/, ''), await readFile(p.goldPath, 'utf8'));
  }
  const out = join(dir, 'out');
  const r = await gabarit(['-q', 'content', pages, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const empty: string[] = [];
  for (const [stem, g] of gold) {
    if (!/[\p{L}\p{N}]/u.test(g)) continue;
    const text = await readFile(join(out, stem + '.txt'), 'utf8');
    if (!/[\p{L}\p{N}]/u.test(text)) empty.push(stem);
  }
  assert.deepEqual(empty, [], `pages with a gold main text but an empty one: ${empty.join(', ')}`);
});
