/**
 * Evaluation of the hyperlink engine (paper 2, Alarte et al., "Web Template Extraction Based on Hyperlink
 * Analysis"). For every corpus site (sites/):
 *  - the site's pages/ directory is served on 127.0.0.1 (src/site/serve.ts) and read through an
 *    HttpSource, as `gabarit template http://127.0.0.1:…/ --method hyperlink` would;
 *  - 10 key pages spread over the site: the site's pages that have gold (a content selector matches) and
 *    are not error pages (a `404` path segment: nobody picks a "not found" page as a key page), in sorted
 *    key order, the ones at positions ⌊i·N/10⌋ for i = 0..9;
 *  - from each key page, one run of the engine: pages loaded to learn the template (the key page included;
 *    from the engine's summary, checked against the fetcher's downloads during learning); content P/R/F1
 *    of the key page itself, the page whose template paper 2 computes ("a template of p0 with respect to
 *    P", Definition 3.3); and, beside it, content P/R/F1 and template node P/R/F1 of every page of the
 *    crawl with gold, each marked with the key page's template (eval/harness.ts, src/eval/metrics.ts),
 *    averaged over the pages of the run: the key page's template on pages of other layouts or languages
 *    (a Javadoc's frames, a site's other locale) is beyond what the paper claims, so this is the harder,
 *    secondary figure;
 *  - per site: means over its 10 key pages.
 * First, the options chosen out of sample (eval/cross-validation.ts): a grid of option sets, leave one
 * generator out; per site the held-out figures (the headline: the key page's content F1 and the pages
 * loaded; targets F1 >= 0.97 and at most 7 pages loaded on every site) and the in-sample ones. `--no-cv`
 * runs the defaults only; `--only <site>` one site (no cross-validation); `--options '<json>'` runs other
 * options than the defaults (engine option names). Writes eval/results/hyperlink.json.
 */
import { readTree } from '../src/eval/corpus.ts';
import { goldContentText, listSites, type CorpusSite } from '../src/eval/corpus.ts';
import { mean } from '../src/eval/metrics.ts';
import { HttpSource } from '../src/site/http-source.ts';
import { serveDirectory } from '../src/site/serve.ts';
import engine from '../src/template/hyperlink/engine.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crossValidate, crossValidationHeadline, foldTable, gridTable, type GridPoint, type SiteFigures } from './cross-validation.ts';
import { evaluateTarget, fmt, formatTable, runEval, writeResults, type EvalTarget } from './harness.ts';

/** Key pages per site. */
export const KEY_PAGES_PER_SITE = 10;

/** Targets on every site, held out: content F1 and the mean pages loaded to learn (the paper: about 7). */
const TARGET_F1 = 0.97;
const TARGET_LOADED = 7;

/** The key pages of a site (see the module comment). */
export function keyPages(site: CorpusSite, count = KEY_PAGES_PER_SITE): string[] {
  const candidates = site.files().filter((k) => !/(^|\/)404(\/|\.|$)/.test(k) && goldContentText(site, readTree(join(site.pagesDir, k))) !== null);
  if (candidates.length <= count) return candidates;
  return Array.from({ length: count }, (_, i) => candidates[Math.floor((i * candidates.length) / count)]!);
}

/**
 * The grid the options are chosen from (defaults first): each option varied alone, the defaults before
 * `agreeingPages` and `navigationBars`, and paper 2 as written (n = 4, its link order, no navigation
 * regions or bars, no page classes or same-word elements, a template from however many CS pages remain, no
 * sibling fallback, every attribute of
 * <html>/<body> and of the top wrapper compared).
 */
const HYPERLINK_GRID: readonly GridPoint[] = [
  { name: 'default', options: {} },
  { name: 'n 4', options: { n: 4 } },
  { name: 'n 5', options: { n: 5 } },
  { name: 'n 4, load budget 6', options: { n: 4, loadBudget: 6 } },
  { name: 'n 4, no load budget', options: { n: 4, loadBudget: 24 } },
  { name: 'threshold 0.55', options: { equalityThreshold: 0.55 } },
  { name: 'threshold 0.75', options: { equalityThreshold: 0.75 } },
  { name: 'link share 0.3', options: { navigationLinkShare: 0.3 } },
  { name: 'threshold 0.55, link share 0.3', options: { equalityThreshold: 0.55, navigationLinkShare: 0.3 } },
  { name: 'link order density', options: { linkOrder: 'density' } },
  { name: 'link order document', options: { linkOrder: 'document' } },
  { name: 'max load 12', options: { maxLoad: 12 } },
  { name: 'top wrapper 0', options: { topWrapperDepth: 0 } },
  { name: 'no navigation regions', options: { navigationRegions: false } },
  { name: 'regions by the key page', options: { regionsDecidedBy: 'key' } },
  { name: 'different template 0.7', options: { differentTemplateShare: 0.7 } },
  { name: 'agreeing pages 1', options: { agreeingPages: 1 } },
  { name: 'no page classes', options: { pageClasses: false } },
  { name: 'no same words', options: { sameWords: false } },
  { name: 'no navigation bars', options: { navigationBars: false } },
  { name: 'unmapped cells none', options: { unmappedCells: 'none' } },
  { name: 'unmapped cells anywhere', options: { unmappedCells: 'anywhere' } },
  { name: 'former defaults', options: { agreeingPages: 1, navigationBars: false } },
  { name: 'paper 2', options: { n: 4, loadBudget: 24, linkOrder: 'document', navigationRegions: false, navigationBars: false, agreeingPages: 1, pageClasses: false, sameWords: false, siblings: false, documentSkeleton: false, topWrapperDepth: 0 } },
];

/** Objective of a site's figures: content F1, less 0.02 per page loaded above the target on average. */
function objective(f: SiteFigures): number {
  return f.f1 - 0.02 * Math.max(0, f['loaded']! - TARGET_LOADED);
}

interface KeyRun {
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
  /** Content P/R/F1 of the key page itself. */
  key: string;
  own: { precision: number; recall: number; f1: number };
  error?: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Runs the engine from each key page of a site, over HTTP. */
async function siteRuns(site: CorpusSite, options: Record<string, unknown>, progress: boolean): Promise<KeyRun[]> {
  const served = await serveDirectory(site.pagesDir);
  const runs: KeyRun[] = [];
  try {
    for (const key of keyPages(site)) {
      const target: EvalTarget = { set: 'sites', name: site.name, dir: site.pagesDir, entry: site.entry, keys: site.files(), site };
      const g = await evaluateTarget(engine, target, {
        options: { ...options, key },
        // Our own server on 127.0.0.1: no delay needed between requests.
        sourceFor: async () => new HttpSource(served.url + site.entry, { delayMs: 0, concurrencyPerHost: 4 }),
      });
      const s = g.summary as Record<string, unknown>;
      // The crawl names pages by their URLs: an extensionless link's page has no `.html` in its key.
      const bare = (k: string): string => k.replace(/\.html?$/, '');
      const own = g.perPage.find((p) => bare(p.key) === bare(key));
      const run: KeyRun = {
        key,
        loaded: Number(s['pagesLoadedForLearning'] ?? NaN),
        networkLoads: Number(s['networkLoadsForLearning'] ?? NaN),
        cs: Number(s['csSize'] ?? NaN),
        complete: s['csComplete'] === true,
        fallback: String(s['fallback'] ?? ''),
        dropped: Array.isArray(s['droppedPages']) ? s['droppedPages'].length : 0,
        pages: g.pages,
        failed: g.failed,
        content: g.content,
        node: g.node,
        own: own?.content ?? { precision: NaN, recall: NaN, f1: NaN },
      };
      if (g.error !== undefined) run.error = g.error;
      runs.push(run);
      if (progress) {
        process.stderr.write(`${site.name} ${key}: loaded ${run.loaded} cs ${run.cs}${run.fallback !== 'none' ? ` (+${run.fallback})` : ''} key page F1 ${fmt(run.own.f1)}, crawl F1 ${fmt(run.content.f1)} R ${fmt(run.content.recall)}${run.error ? ' ERROR ' + run.error : ''}\n`);
      }
    }
  } finally {
    await served.close();
  }
  return runs;
}

/**
 * A site's figures: means over its key-page runs; `f1`, `precision`, `recall` are the key page's, `crawlF1`
 * the crawl's (runs that crashed count as 0).
 */
function siteFigures(runs: readonly KeyRun[]): SiteFigures {
  const m = (f: (x: KeyRun) => number): number => mean(runs.map(f));
  const ok = (x: KeyRun): boolean => x.error === undefined;
  return {
    f1: m((x) => (ok(x) ? x.own.f1 : 0)),
    precision: m((x) => (ok(x) ? x.own.precision : 0)),
    recall: m((x) => (ok(x) ? x.own.recall : 0)),
    loaded: m((x) => x.loaded),
    crawlF1: m((x) => (ok(x) ? x.content.f1 : 0)),
    nodeF1: mean(runs.filter((x) => ok(x) && x.node).map((x) => x.node!.f1)),
    errors: runs.filter((x) => !ok(x)).length,
  };
}

async function main(): Promise<void> {
  const only = arg('--only');
  const sites = listSites().filter((s) => !only || s.name.includes(only));
  const cv = !only && !process.argv.includes('--no-cv')
    ? await crossValidate({
      engine: 'hyperlink',
      grid: HYPERLINK_GRID,
      sites: sites.map((s) => s.name),
      objective,
      measure: async (point) => {
        const out = new Map<string, SiteFigures>();
        for (const site of sites) out.set(site.name, siteFigures(await siteRuns(site, point.options, false)));
        return out;
      },
    })
    : null;
  if (cv) {
    process.stdout.write(
      foldTable(cv, [['loaded', 'loaded'], ['crawlF1', 'crawl F1']], (f) => f.f1 >= TARGET_F1 && f['loaded']! <= TARGET_LOADED) +
        `\n(P/R/F1: content of the key page, mean over 10 key pages; crawl F1: every page of the site marked with the key page's template; targets: key page F1 >= ${TARGET_F1} and at most ${TARGET_LOADED} pages loaded on average, on every site, held out; objective of the choice: key page F1 less 0.02 per page loaded above ${TARGET_LOADED})\n\n` +
        gridTable(cv) + '\n\n' + gridTable(cv, 'loaded') + '\n\n' + gridTable(cv, 'crawlF1') + '\n\n',
    );
  }

  // The defaults, run by run.
  const perSite: Array<{ site: string; runs: KeyRun[] }> = [];
  const given = arg('--options');
  const options = given ? (JSON.parse(given) as Record<string, unknown>) : {};
  for (const site of sites) perSite.push({ site: site.name, runs: await siteRuns(site, options, true) });
  const row = (label: string, runs: KeyRun[]): string[] => {
    const r = runs.filter((x) => x.error === undefined);
    const m = (f: (x: KeyRun) => number): number => mean(r.map(f));
    const nodes = r.filter((x) => x.node);
    return [
      label,
      String(runs.length),
      String(runs.length - r.length),
      fmt(m((x) => x.loaded), 2),
      fmt(m((x) => x.cs), 2),
      String(r.filter((x) => x.fallback !== 'none').length),
      fmt(m((x) => x.own.precision)),
      fmt(m((x) => x.own.recall)),
      fmt(m((x) => x.own.f1)),
      fmt(m((x) => x.content.precision)),
      fmt(m((x) => x.content.recall)),
      fmt(m((x) => x.content.f1)),
      fmt(mean(nodes.map((x) => x.node!.f1))),
    ];
  };
  const all = perSite.flatMap((s) => s.runs);
  const table = formatTable(
    ['site', 'keys', 'errors', 'loaded', 'CS', 'fallback', 'key page P', 'key page R', 'key page F1', 'crawl P', 'crawl R', 'crawl F1', 'crawl node F1'],
    [...perSite.map((s) => row(s.site, s.runs)), null, row(`all (${all.length} key pages)`, all)],
  );
  process.stdout.write(`hyperlink — defaults, over HTTP (127.0.0.1), ${KEY_PAGES_PER_SITE} key pages per site; means over key pages of per-run page means\n${table}\n`);
  const overall = row('all', all);
  const headline: Record<string, number | string | null> = {
    ...(cv ? crossValidationHeadline(cv, ['f1', 'loaded', 'crawlF1']) : {}),
    'defaults: mean pages loaded': Number(overall[3]),
    'defaults: key page content F1': Number(overall[8]),
    'defaults: crawl content F1': Number(overall[11]),
    errors: all.filter((x) => x.error !== undefined).length,
  };
  const path = writeResults('hyperlink', headline, { crossValidation: cv, sites: perSite });
  process.stdout.write(`results: ${path}\n`);
}

// Run when executed (`npx tsx eval/hyperlink.eval.ts`), not when imported (bench/hyperlink.bench.ts uses keyPages).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runEval('hyperlink', main);
