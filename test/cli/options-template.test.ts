/**
 * The options of each template engine through `gabarit template --method <engine> …`: every flag given at
 * a value other than its default reaches the engine (summary.json's `options`, printed with --json) and
 * changes what the engine did (summary.json's `engine` figures) the way its help says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { gabarit, ROOT, type Ran } from './gabarit-process.ts';

const SITE = join(ROOT, 'examples', 'site');

interface Summary {
  method: string;
  pagesDone: number;
  options: Record<string, unknown>;
  engine: Record<string, unknown>;
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-options-template-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The summary a `gabarit --json template …` run printed. */
function summaryOf(r: Ran): Summary {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Summary;
}

test('template --method align: --sample, --min-evidence, --mismatch, --no-line-rule, --no-languages, --no-navigation-regions', async (t) => {
  const out = await tempDir(t);
  const s = summaryOf(await gabarit(['--json', 'template', SITE, '--sample', '4', '--min-evidence', '0.7', '--mismatch', '0', '--no-line-rule', '--no-languages', '--no-navigation-regions', '-q', '--out', out]));
  assert.equal(s.method, 'align', 'align is the default engine');
  assert.deepEqual(s.options, { sample: 4, minEvidence: 0.7, duplicateScore: 0.72, mismatch: 0, lineRule: false, languages: false, navigationRegions: false });
  assert.equal(s.engine['sample'], 4, 'the template is learned from 4 pages');
  assert.equal(s.engine['navigationRegions'], 0, 'no navigation region is taken for template');
  assert.equal(s.pagesDone, 44);
});

test('template --method hyperlink: every option reaches the engine; --key, --n, --link-order and the --no- flags change what it did', async (t) => {
  const out = await tempDir(t);
  const s = summaryOf(await gabarit([
    '--json', 'template', SITE, '--method', 'hyperlink', '--key', 'shop/index.html', '--n', '4', '--max-load', '30', '--load-budget', '8', '--link-order', 'document',
    '--equality-threshold', '0.7', '--weight-class', '0.3', '--weight-attributes', '0.3', '--weight-children', '0.2', '--weight-position', '0.2',
    '--text-equality', 'kind', '--no-document-skeleton', '--top-wrapper-depth', '0', '--no-navigation-regions', '--navigation-link-share', '0.6',
    '--regions-decided-by', 'key', '--no-navigation-bars', '--unmapped-cells', 'none', '--agreeing-pages', '3', '--different-template-share', '0.4',
    '--no-page-classes', '--no-same-words', '--no-siblings', '-q', '--out', out,
  ]));
  assert.deepEqual(s.options, {
    key: 'shop/index.html', n: 4, maxLoad: 30, loadBudget: 8, linkOrder: 'document', equalityThreshold: 0.7, weightClass: 0.3, weightAttributes: 0.3,
    weightChildren: 0.2, weightPosition: 0.2, textEquality: 'kind', documentSkeleton: false, topWrapperDepth: 0, navigationRegions: false,
    navigationLinkShare: 0.6, regionsDecidedBy: 'key', navigationBars: false, unmappedCells: 'none', agreeingPages: 3, differentTemplateShare: 0.4,
    pageClasses: false, sameWords: false, siblings: false,
  });
  assert.equal((s.engine['keyPage'] as { key: string }).key, 'shop/index.html', '--key is the key page');
  assert.equal(s.engine['n'], 4);
  assert.equal(s.engine['csSize'], 4, 'a complete subdigraph of --n 4 pages');
  assert.equal(s.engine['linkOrder'], 'document');
  assert.equal(s.engine['navigationRegions'], 0);
  assert.equal(s.engine['sameWordElements'], 0);
  assert.ok((s.engine['pagesLoadedForLearning'] as number) <= 30, 'no more than --max-load pages loaded');
});

test('template --method pagelets: every option reaches the engine; --global --db pagelets.duckdb keeps its tables in the file (a file named like their schema), --workers runs worker threads, --backend memory', async (t) => {
  const dir = await tempDir(t);
  // More pages than the engine analyses inline before it starts its workers (48).
  const site = join(dir, 'site');
  await mkdir(site);
  const menu = ['Home', 'Tents', 'Boots', 'Maps', 'Help'].map((w) => `<li><a href="${w.toLowerCase()}.html">${w}</a></li>`).join('');
  for (let i = 0; i < 60; i++) {
    await writeFile(join(site, `p${i}.html`), `<!DOCTYPE html><html><head><title>Page ${i}</title></head><body><nav><ul>${menu}</ul></nav>
<main><h1>Item ${i}</h1><p>Item ${i} costs ${10 + i} euros and weighs ${i * 7} grams; see <a href="p${(i + 1) % 60}.html">the next</a>.</p></main>
<footer><a href="about.html">About</a> <a href="legal.html">Legal</a> <a href="contact.html">Contact</a></footer></body></html>`);
  }
  // A database file named like the tables' schema: DuckDB names its catalog after the file.
  const db = join(dir, 'pagelets.duckdb');
  const s = summaryOf(await gabarit([
    '--json', 'template', site, '-m', 'pagelets', '--global', '--k', '4', '--shingle-width', '5', '--minhashes', '3', '--min-pages', '3', '--min-support', '0.2',
    '--support-cap', '20', '--link-targets', '--no-fold-digits', '--content-share', '0.7', '--no-landmarks', '--no-navigation-items',
    '--no-navigation-pagelets', '--backend', 'sql', '--db', db, '--workers', '1', '-q', '--out', join(dir, 'sql'),
  ]));
  const { keepTreesUpTo: _k, workerRecycle: _w, ...given } = s.options;
  assert.deepEqual(given, {
    global: true, k: 4, shingleWidth: 5, minhashes: 3, minPages: 3, minSupport: 0.2, supportCap: 20, linkTargets: true, foldDigits: false,
    contentShare: 0.7, landmarks: false, navigationItems: false, navigationPagelets: false, backend: 'sql', db, workers: 1,
  });
  const engine = s.engine['pagelets'] as Record<string, number | string>;
  assert.equal(engine['algorithm'], 'global');
  assert.equal(engine['workers'], 1, 'one worker thread analysed the pages');
  assert.ok(existsSync(db));
  const instance = await DuckDBInstance.create(db);
  const c = await instance.connect();
  const tables = (await c.runAndReadAll(`select table_name from information_schema.tables where table_schema = 'pagelets'`)).getRows().map((r) => String(r[0]));
  c.closeSync();
  instance.closeSync();
  assert.ok(tables.length > 0, `the --global tables are in --db, schema "pagelets" (${tables.join(', ')})`);

  const m = summaryOf(await gabarit(['--json', 'template', site, '-m', 'pagelets', '--global', '--backend', 'memory', '--workers', '0', '-q', '--out', join(dir, 'memory')]));
  assert.equal(m.options['backend'], 'memory');
  assert.equal((m.engine['pagelets'] as Record<string, unknown>)['workers'], 0, '--workers 0: the main thread only');
  assert.notDeepEqual(m.engine['pagelets'], engine, 'the options above changed what was found');
});
