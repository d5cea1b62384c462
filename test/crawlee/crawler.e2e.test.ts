/**
 * The Crawlee example (examples/crawlee-crawler.ts, `gabarit/crawlee`) against the demo site and the corpus
 * site jekyll-blog, each served on 127.0.0.1:
 *  - the content it writes to the Dataset equals `gabarit content --method align` on the same pages within
 *    the engine's own tolerance: word F1 ≥ 0.95 on every page marked with the learned template (a template
 *    learned on the crawl's first 8 pages, where the one-shot run samples 8 pages spread over the site, and
 *    without the site vote; docs/library.md measures applied against one-shot agreement at 0.997 on the
 *    corpus sites, with single pages lower), and a mean ≥ 0.9 on the pages before learning (their main
 *    block alone, the single-page answer);
 *  - paper 3's priority reaches every content page in fewer requests than breadth-first;
 *  - paper 4's class of a sample page finds the pages of its class;
 *  - in an HttpCrawler run in this process, with a store given, the site is learned at its eighth distinct page;
 *  - a crawl resumed on the same storage reads the template kept in the key-value store and does not learn
 *    again.
 */
import { after, before, test } from 'node:test';
import { Configuration, HttpCrawler, log } from '@crawlee/http';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { contentScore } from '../../src/eval/metrics.ts';
import { serveDirectory, type Served } from '../../src/site/serve.ts';
import { ROOT } from '../cli/gabarit-process.ts';
import { type GabaritPage, SiteModels } from '../../src/crawlee/index.ts';
import { type ExampleRun, gabaritContent, requestsToReach, runExample } from './crawl.ts';

const SITES = {
  demo: { dir: join(ROOT, 'examples', 'site'), content: /^\/(journal|guides|shop)\/(?!index|page-)[^/]+\.html$/ },
  'jekyll-blog': { dir: join(CORPUS_DIR, 'sites', 'jekyll-blog', 'pages'), content: /^\/(hack-the-box|binary-exploitation|wizard-labs|pwn)\/[^/]+\/$/ },
};

let work: string;
const servers: Served[] = [];
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'gabarit-crawlee-'));
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(work, { recursive: true, force: true });
});

/** A fresh storage folder. */
async function storage(): Promise<string> {
  return mkdtemp(join(work, 'storage-'));
}

async function serve(dir: string): Promise<string> {
  const s = await serveDirectory(dir);
  servers.push(s);
  return s.url;
}

/** Word F1 of each record against `gabarit content` on the same URL, split by whether the template marked it. */
function agreement(run: ExampleRun, reference: ReadonlyMap<string, string>): { learned: Array<{ url: string; f1: number }>; alone: number[]; compared: number } {
  const learned: Array<{ url: string; f1: number }> = [];
  const alone: number[] = [];
  for (const r of run.records) {
    const ref = reference.get(r.url);
    if (ref === undefined) continue;
    const f1 = contentScore(r.text ?? '', ref).f1;
    if (r.learned) learned.push({ url: r.url, f1 });
    else alone.push(f1);
  }
  return { learned, alone, compared: learned.length + alone.length };
}

for (const [name, site] of Object.entries(SITES)) {
  const skip = name === 'demo' ? false : corpusSkip();

  test(`${name}: the Dataset's content equals gabarit content on the same pages (word F1 ≥ 0.95 after learning), the template kept in the key-value store`, { skip }, async (t) => {
    const url = await serve(site.dir);
    const dir = await storage();
    const [run, reference] = await Promise.all([runExample(url, 'priority', dir), gabaritContent(url)]);
    const a = agreement(run, reference);
    assert.ok(a.compared >= 0.9 * run.records.length, `${a.compared} of ${run.records.length} pages found in gabarit content's output`);
    assert.ok(a.learned.length >= run.records.length - 8, `${a.learned.length} pages marked with the learned template of ${run.records.length}`);
    const low = a.learned.filter((p) => p.f1 < 0.95);
    assert.deepEqual(low, [], 'pages after learning whose content differs from gabarit content');
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(mean(a.alone) >= 0.9, `mean F1 before learning ${mean(a.alone)}`);
    t.diagnostic(`pages ${run.records.length}; after learning ${a.learned.length}, mean F1 ${mean(a.learned.map((p) => p.f1)).toFixed(4)}, min ${Math.min(...a.learned.map((p) => p.f1)).toFixed(4)}; before ${a.alone.length}, mean F1 ${mean(a.alone).toFixed(4)}`);
    assert.equal(run.records.find((r) => r.learned)?.method, 'align');
    const kept = await readdir(join(dir, 'key_value_stores', 'gabarit-templates'));
    assert.deepEqual(kept.filter((f) => f.startsWith('gabarit-template-127.0.0.1-')).length, 1, kept.join(', '));
  });

  test(`${name}: paper 3's crawl priority reaches every content page in fewer requests than breadth-first`, { skip }, async (t) => {
    const url = await serve(site.dir);
    const [priority, bfs] = await Promise.all([runExample(url, 'priority', await storage()), runExample(url, 'bfs', await storage())]);
    const all = new Set(bfs.records.map((r) => new URL(r.url).pathname));
    const isContent = (path: string): boolean => site.content.test(path);
    const byPriority = requestsToReach(priority.records, isContent, all);
    const byBfs = requestsToReach(bfs.records, isContent, all);
    t.diagnostic(`${[...all].filter(isContent).length} content pages of ${all.size}: priority ${byPriority} requests, breadth-first ${byBfs}`);
    assert.ok(byBfs < Infinity && byPriority < byBfs, `priority ${byPriority}, breadth-first ${byBfs}`);
  });
}

test("demo: paper 4's class of a sample article finds the journal's articles and no other page, before breadth-first does", async (t) => {
  const url = await serve(SITES.demo.dir);
  const sample = `${url}journal/storm-pitching-practice.html`;
  const [like, bfs] = await Promise.all([runExample(sample, 'class', await storage()), runExample(sample, 'bfs', await storage())]);
  const articles = new Set(bfs.records.map((r) => new URL(r.url).pathname).filter((p) => /^\/journal\/(?!index|page-)/.test(p)));
  const found = like.records.filter((r) => r.inClass).map((r) => new URL(r.url).pathname);
  assert.deepEqual(found.sort(), [...articles].sort());
  const isArticle = (p: string): boolean => articles.has(p);
  const byClass = requestsToReach(like.records, isArticle, articles);
  const byBfs = requestsToReach(bfs.records, isArticle, articles);
  t.diagnostic(`${articles.size} articles: class ${byClass} requests (${like.records.length} in all), breadth-first ${byBfs} (${bfs.records.length})`);
  assert.ok(byClass < byBfs && like.records.length < bfs.records.length, `class ${byClass}/${like.records.length}, breadth-first ${byBfs}/${bfs.records.length}`);
});

test('demo: a crawl resumed on the same storage reads the kept template and does not learn again', async () => {
  const url = await serve(SITES.demo.dir);
  const dir = await storage();
  const first = await runExample(url, 'priority', dir);
  assert.ok(first.records.some((r) => r.learned) && !first.records[0]!.learned, 'the first crawl learns after its first pages');
  const resumed = await runExample(url, 'priority', dir, 5);
  // Five pages, fewer than the eight align learns from: each is marked with the template kept.
  assert.deepEqual(resumed.records.map((r) => r.learned), [true, true, true, true, true]);
  const fresh = await runExample(url, 'priority', await storage(), 5);
  assert.deepEqual(fresh.records.map((r) => r.learned), [false, false, false, false, false]);
});

test('demo: inside an HttpCrawler, with a store given, every page gets content and the site is learned at its eighth distinct page', async () => {
  const url = await serve(SITES.demo.dir);
  const saved = new Map<string, unknown>();
  const models = new SiteModels({ store: { getValue: async (k) => saved.get(k) ?? null, setValue: async (k, v) => void saved.set(k, v) } });
  const pages: GabaritPage[] = [];
  log.setLevel(log.LEVELS.WARNING);
  const config = new Configuration({ persistStorage: false, storageClientOptions: { localDataDirectory: await storage() } });
  const crawler = new HttpCrawler(
    {
      maxConcurrency: 1,
      maxRequestsPerCrawl: 12,
      async requestHandler(context) {
        const page = await models.fromContext(context);
        pages.push(page);
        await context.enqueueLinks({ urls: page.links });
      },
    },
    config,
  );
  await crawler.run([url]);
  assert.equal(pages.length, 12);
  // Eight distinct pages are held before learning (`/` and `/index.html` are one page of the site).
  const first = pages.findIndex((p) => p.learned);
  const held = new Set(pages.slice(0, first + 1).map((p) => new URL(p.url).pathname.replace(/\/$/, '/index.html')));
  assert.equal(held.size, 8, pages.map((p) => `${p.url} ${p.learned}`).join('\n'));
  assert.ok(pages.slice(first).every((p) => p.learned));
  assert.deepEqual([...saved.keys()], [`gabarit-template-127.0.0.1-${new URL(url).port}`]);
  assert.ok(pages.every((p) => p.text.length > 0 && p.metadata.title !== undefined), 'every page has content and a title');
});
