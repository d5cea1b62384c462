/**
 * Scale benchmark of the pagelets engine (issue 5, "Scale"): a synthetic crawl made by perturbing corpus
 * site pages (new paragraph text, shuffled lists, extra blocks) and linking them (each page links to the
 * next and previous copies of the same site page, to a few random pages, and to its site's home copy),
 * run end to end through the global algorithm in DuckDB (pass 1 in worker threads, relational steps,
 * pass 2 marking in worker threads; marked pages are counted, not written).
 * Reports pages/s end to end, its ratio to raw `parseHtml` throughput on the same pages (one thread), the
 * time of each SQL step, and peak memory (RSS, sampled every 100 ms).
 *
 * Sizes: `PAGELETS_BENCH_PAGES=50000,200000 npx tsx bench/pagelets-scale.bench.ts` (or the sizes as the
 * first argument); default 3000 so `npm run bench` stays short. Without the corpus, synthetic base pages.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { CORPUS_DIR, corpusAvailable } from '../src/eval/corpus-path.ts';
import type { Page, PageResult, PageSource } from '../src/site/page.ts';
import { runPagelets } from '../src/template/pagelets/engine.ts';
import { syntheticSite } from '../test/template/pagelets/fixtures.ts';

const sizes = (process.argv[2] ?? process.env['PAGELETS_BENCH_PAGES'] ?? '3000').split(',').map(Number);
const ROOT = 'http://crawl.bench/';

/** Base pages: every corpus site page (HTML), grouped by site, else a synthetic site. */
function basePages(): Array<{ site: number; html: string }> {
  const out: Array<{ site: number; html: string }> = [];
  if (corpusAvailable()) {
    const sites = readdirSync(join(CORPUS_DIR, 'sites')).sort();
    sites.forEach((s, si) => {
      const walk = (d: string): void => {
        for (const f of readdirSync(d).sort()) {
          const p = join(d, f);
          if (statSync(p).isDirectory()) walk(p);
          else if (/\.(html?|xhtml)$/.test(f)) out.push({ site: si, html: readFileSync(p, 'utf8') });
        }
      };
      const dir = join(CORPUS_DIR, 'sites', s, 'pages');
      if (existsSync(dir)) walk(dir);
    });
  } else {
    for (const html of Object.values(syntheticSite(200))) out.push({ site: 0, html });
  }
  return out;
}

const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat'.split(' ');

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let x = (seed * 2654435761) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}
function words(r: () => number, n: number): string {
  const w: string[] = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(r() * WORDS.length)]! + (r() < 0.1 ? String(Math.floor(r() * 1000)) : ''));
  return w.join(' ');
}

/** Page i of a crawl of n pages over `bases`: a perturbed copy of base page i mod |bases| with crawl links. */
function makePage(i: number, n: number, bases: Array<{ site: number; html: string }>, homes: number[]): string {
  const B = bases.length;
  const base = bases[i % B]!;
  const r = rng(i + 1);
  let html = base.html;
  // new text: about a third of the paragraphs get new words
  html = html.replace(/<p>([^<]{20,})<\/p>/g, (m) => (r() < 0.35 ? `<p>${words(r, 12 + Math.floor(r() * 30))}</p>` : m));
  // shuffled list: the items of one list change order
  const ul = html.indexOf('<ul');
  if (ul >= 0) {
    const end = html.indexOf('</ul>', ul);
    const open = html.indexOf('>', ul) + 1;
    if (end > open) {
      const items = html.slice(open, end).split('</li>');
      const tail = items.pop() ?? '';
      for (let k = items.length - 1; k > 0; k--) {
        const j = Math.floor(r() * (k + 1));
        [items[k], items[j]] = [items[j]!, items[k]!];
      }
      html = html.slice(0, open) + items.map((x) => x + '</li>').join('') + tail + html.slice(end);
    }
  }
  // extra block and crawl links (same base page's neighbours keep each site connected)
  const link = (j: number): string => `<a href="${ROOT}p/${((j % n) + n) % n}.html">page ${((j % n) + n) % n}</a>`;
  const extra =
    `<div class="bench-extra"><h4>${words(r, 3)}</h4><p>${words(r, 20)}</p></div>` +
    `<div class="bench-links">${link(i + B)} ${link(i - B)} ${link(homes[base.site]!)} ${link(Math.floor(r() * n))} ${link(Math.floor(r() * n))}</div>`;
  const b = html.lastIndexOf('</body>');
  return b >= 0 ? html.slice(0, b) + extra + html.slice(b) : html + extra;
}

/** A PageSource generating the crawl on the fly (the same pages on every pass). */
function crawlSource(n: number, bases: Array<{ site: number; html: string }>, homes: number[]): PageSource & { genMs: number } {
  const enc = new TextEncoder();
  const src = {
    kind: 'memory' as const,
    root: ROOT,
    entry: ROOT + 'p/0.html',
    loaded: 0,
    genMs: 0,
    async *pages(): AsyncIterable<PageResult> {
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const page: Page = { url: `${ROOT}p/${i}.html`, key: `p/${i}.html`, status: 200, headers: { 'content-type': 'text/html' }, body: enc.encode(makePage(i, n, bases, homes)), origin: 'memory' };
        src.genMs += performance.now() - t;
        yield { ok: true, page };
      }
    },
    async get(): Promise<Page> {
      throw new Error('not used');
    },
    keyOf: (url: string) => (url.startsWith(ROOT) ? url.slice(ROOT.length) : undefined),
    urlOf: (key: string) => ROOT + key,
    close: async () => undefined,
  };
  return src;
}

async function main(): Promise<void> {
  const bases = basePages();
  const homes: number[] = [];
  bases.forEach((b, i) => {
    if (homes[b.site] === undefined) homes[b.site] = i;
  });
  // raw parse throughput on the same kind of pages (one thread, the baseline)
  const sample = Math.min(1500, Math.max(...sizes));
  // flat strings, as the engine sees them after decoding bytes (generated strings are ropes, slower to scan)
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const htmls = Array.from({ length: sample }, (_, i) => dec.decode(enc.encode(makePage(i, Math.max(...sizes), bases, homes))));
  const bytes = htmls.reduce((a, h) => a + h.length, 0);
  const labels = new LabelTable();
  for (const h of htmls.slice(0, 200)) parseHtml(h, { labels }); // warm-up
  let t = performance.now();
  for (const h of htmls) parseHtml(h, { labels });
  const parseRate = sample / ((performance.now() - t) / 1000);
  console.log(`base pages: ${bases.length} (${corpusAvailable() ? 'corpus sites' : 'synthetic'}); mean page ${(bytes / sample / 1024).toFixed(1)} KiB`);
  console.log(`raw parseHtml (1 thread): ${parseRate.toFixed(0)} pages/s`);
  const rows: Record<string, string | number>[] = [];
  for (const n of sizes) {
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const source = crawlSource(n, bases, homes);
    let marked = 0;
    t = performance.now();
    const r = await runPagelets({
      source,
      labels: new LabelTable({ attributes: 'none' }),
      options: { global: true, backend: 'sql', workers: 2, keepTreesUpTo: 0 },
      onPage: async () => {
        marked++;
      },
      onFailure: (f) => console.error(f.message),
    });
    const ms = performance.now() - t;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    const s = r.summary['pagelets'] as Record<string, number>;
    const rate = n / (ms / 1000);
    const tm = r.timings;
    rows.push({
      pages: n,
      'pages/s': Math.round(rate),
      'ratio to parse': +(rate / parseRate).toFixed(2),
      'generation s': +(source.genMs / 1000).toFixed(1),
      'pass 1 s': +((tm['pages'] ?? 0) / 1000).toFixed(1),
      'SQL s': +((tm['detect'] ?? 0) / 1000).toFixed(1),
      'pass 2 s': +((tm['marks'] ?? 0) / 1000).toFixed(1),
      'peak RSS MiB': Math.round(peak / 1048576),
      marked,
      pagelets: s['pagelets']!,
      'template links': s['templateLinks']!,
      'template pagelets': s['templatePagelets']!,
    });
    const steps = Object.entries(tm).filter(([k]) => k.startsWith('detect.')).map(([k, v]) => `${k.slice(7)} ${(v / 1000).toFixed(2)}s`);
    console.log(`n=${n}: SQL steps: ${steps.join(', ')}`);
  }
  console.table(rows);
}

await main();
