/**
 * Evaluation of the hyperlink engine (paper 2, Alarte et al., "Web Template Extraction Based on Hyperlink
 * Analysis"; issue 4, "Done when"). For every corpus site (sites/):
 *  - the site's pages/ directory is served on 127.0.0.1 (src/site/serve.ts) and read through an
 *    HttpSource, as `gabarit template http://127.0.0.1:…/ --method hyperlink` would;
 *  - 10 key pages spread over the site: the site's pages that have gold (a content selector matches) and
 *    are not error pages (a `404` path segment: nobody picks a "not found" page as a key page), in sorted
 *    key order, the ones at positions ⌊i·N/10⌋ for i = 0..9;
 *  - from each key page, one run of the engine (default options: n = 4, density link order): pages loaded
 *    to learn the template (the key page included; from the engine's summary, checked against the
 *    fetcher's downloads during learning), content P/R/F1 and template node P/R/F1 of every page of the
 *    crawl with gold (eval/harness.ts, src/eval/metrics.ts), averaged over the pages of the run;
 *  - per site: means over its 10 key pages; overall: means over the 50 key pages.
 * `--order document` runs the paper's link order instead (to compare pages loaded). `--only <site>`.
 * Writes eval/results/hyperlink.json (eval/results/hyperlink-document.json for --order document).
 */
import { readTree } from '../src/eval/corpus.ts';
import { goldContentText, listSites, type CorpusSite } from '../src/eval/corpus.ts';
import { mean } from '../src/eval/metrics.ts';
import { HttpSource } from '../src/site/http-source.ts';
import { serveDirectory } from '../src/site/serve.ts';
import engine from '../src/template/hyperlink/engine.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evaluateTarget, fmt, formatTable, runEval, writeResults, type EvalTarget, type GroupResult } from './harness.ts';

/** Key pages per site (issue 4). */
export const KEY_PAGES_PER_SITE = 10;

/** The key pages of a site (see the module comment). */
export function keyPages(site: CorpusSite, count = KEY_PAGES_PER_SITE): string[] {
  const candidates = site.files().filter((k) => !/(^|\/)404(\/|\.|$)/.test(k) && goldContentText(site, readTree(join(site.pagesDir, k))) !== null);
  if (candidates.length <= count) return candidates;
  return Array.from({ length: count }, (_, i) => candidates[Math.floor((i * candidates.length) / count)]!);
}

interface KeyRun {
  key: string;
  loaded: number;
  networkLoads: number;
  cs: number;
  complete: boolean;
  fallback: string;
  dropped: number;
  pages: number;
  failed: number;
  content: { precision: number; recall: number; f1: number };
  node: { precision: number; recall: number; f1: number } | null;
  error?: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const order = arg('--order') ?? 'density';
  const only = arg('--only');
  const name = order === 'density' ? 'hyperlink' : `hyperlink-${order}`;
  const sites = listSites().filter((s) => !only || s.name.includes(only));
  const perSite: Array<{ site: string; runs: KeyRun[] }> = [];
  for (const site of sites) {
    const served = await serveDirectory(site.pagesDir);
    const runs: KeyRun[] = [];
    try {
      for (const key of keyPages(site)) {
        const target: EvalTarget = { set: 'sites', name: site.name, dir: site.pagesDir, entry: site.entry, keys: site.files(), site };
        let fetcherDownloads = 0;
        const g: GroupResult = await evaluateTarget(engine, target, {
          options: { key, linkOrder: order },
          sourceFor: async () => {
            // Our own server on 127.0.0.1: no delay needed between requests.
            const src = new HttpSource(served.url + site.entry, { delayMs: 0, concurrencyPerHost: 4 });
            return src;
          },
        });
        const s = g.summary as Record<string, unknown>;
        fetcherDownloads = Number(s['networkLoadsForLearning'] ?? NaN);
        const run: KeyRun = {
          key,
          loaded: Number(s['pagesLoadedForLearning'] ?? NaN),
          networkLoads: fetcherDownloads,
          cs: Number(s['csSize'] ?? NaN),
          complete: s['csComplete'] === true,
          fallback: String(s['fallback'] ?? ''),
          dropped: Array.isArray(s['droppedPages']) ? s['droppedPages'].length : 0,
          pages: g.pages,
          failed: g.failed,
          content: g.content,
          node: g.node,
        };
        if (g.error !== undefined) run.error = g.error;
        runs.push(run);
        process.stderr.write(`${site.name} ${key}: loaded ${run.loaded} cs ${run.cs}${run.fallback !== 'none' ? ` (+${run.fallback})` : ''} F1 ${fmt(run.content.f1)} R ${fmt(run.content.recall)}${run.error ? ' ERROR ' + run.error : ''}\n`);
      }
    } finally {
      await served.close();
    }
    perSite.push({ site: site.name, runs });
  }

  const ok = (runs: KeyRun[]): KeyRun[] => runs.filter((r) => r.error === undefined);
  const row = (label: string, runs: KeyRun[]): string[] => {
    const r = ok(runs);
    const m = (f: (x: KeyRun) => number): number => mean(r.map(f));
    const nodes = r.filter((x) => x.node);
    return [
      label,
      String(runs.length),
      String(runs.length - r.length),
      fmt(m((x) => x.loaded), 2),
      fmt(m((x) => x.cs), 2),
      String(r.filter((x) => x.fallback !== 'none').length),
      fmt(m((x) => x.content.precision)),
      fmt(m((x) => x.content.recall)),
      fmt(m((x) => x.content.f1)),
      fmt(mean(nodes.map((x) => x.node!.precision))),
      fmt(mean(nodes.map((x) => x.node!.recall))),
      fmt(mean(nodes.map((x) => x.node!.f1))),
    ];
  };
  const all = perSite.flatMap((s) => s.runs);
  const table = formatTable(
    ['site', 'keys', 'errors', 'loaded', 'CS', 'fallback', 'content P', 'content R', 'content F1', 'node P', 'node R', 'node F1'],
    [...perSite.map((s) => row(s.site, s.runs)), null, row(`all (${all.length} key pages)`, all)],
  );
  process.stdout.write(`hyperlink — paper 2 over HTTP (127.0.0.1), ${KEY_PAGES_PER_SITE} key pages per site, link order ${order}; means over key pages of per-run page means\n${table}\n`);
  const overall = row('all', all);
  const path = writeResults(name, {
    'mean pages loaded': Number(overall[3]),
    'content recall': Number(overall[7]),
    'content F1': Number(overall[8]),
    'node F1': Number(overall[11]),
    errors: all.length - ok(all).length,
  }, { linkOrder: order, sites: perSite });
  process.stdout.write(`results: ${path}\n`);
}

// Run when executed (`npx tsx eval/hyperlink.eval.ts`), not when imported (bench/hyperlink.bench.ts uses keyPages).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runEval('hyperlink', main);
