/**
 * INDESIT on the corpus sites (paper 4, section 4; run: `npx tsx eval/collect.eval.ts [site…]`). Each site
 * of sites/ with `classes` in its site.json is served on 127.0.0.1 (src/site/serve.ts, as a static host
 * serves it) and crawled over HTTP; for every class, INDESIT starts from 3 different sample pages (the
 * first, middle and last page of the class in key order, as the paper ran "the algorithm three times, each
 * starting with a different sample page") and the collected set is scored against the class: recall,
 * precision (src/eval/metrics.ts `setScore`), and downloads. Keys of pages crawled over HTTP are mapped to
 * the files the host served them from (`docs/setup` → `docs/setup.html`) before scoring.
 *
 * Downloads are counted two ways: every request (`requests`), and pages fetched (requests that gave a page:
 * `fetched`); a dead link (a page missing from the copy, as most of the PEP index's links in the corpus
 * subset) costs a request but is no page. The target is fetched <= 1.5 × |class| + the index pages used
 * (`IndesitResult.indexPages`), recall and precision >= 0.95, on every class of at least 20 pages.
 *
 * The Jaccard threshold T (COLLECT_DEFAULTS.similarity) and the shape threshold of pages of the sample's address
 * kind (COLLECT_DEFAULTS.shapeSimilarity) are chosen together, with the stray share of step 2 (COLLECT_DEFAULTS.strayShare)
 * and sections, as `T/shape[/nosections][/s<share>]` over GRID, by leave-one-generator-out
 * cross-validation (eval/cross-validation.ts SITE_GENERATORS: peps and python-docs are both Sphinx): for each
 * site, the candidate that meets the target on the most runs of the sites of other generators (then the highest
 * mean of min(R, P), then the fewest fetched pages per class page); the site's figure at that candidate is its
 * held-out figure, printed first; beside it the in-sample figure, at the candidate chosen on all sites (the
 * default). The synthetic sites of test/fixtures/synthetic-sites.ts (generated, never tuned on) are run at
 * the in-sample T and printed apart. Writes eval/results/collect.json.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { COLLECT_DEFAULTS } from '../src/structure/defaults.ts';
import { indesit } from '../src/collect/indesit.ts';
import { classOf, listSites } from '../src/eval/corpus.ts';
import { mean, setScore } from '../src/eval/metrics.ts';
import { staticKey } from '../src/site/dir-source.ts';
import { serveDirectory } from '../src/site/serve.ts';
import { openSource } from '../src/site/source.ts';
import { syntheticSites } from '../test/fixtures/synthetic-sites.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';
import { leaveOneGroupOut } from './loso.ts';
import { generatorOf } from './cross-validation.ts';

/** `--defaults`: the default T only (no choice; the figures are in sample). */
const DEFAULTS_ONLY = process.argv.includes('--defaults');
/** The default candidate (COLLECT_DEFAULTS); GRID keeps the order of earlier runs, the first preferred on ties. */
const D = `${COLLECT_DEFAULTS.similarity}/${COLLECT_DEFAULTS.shapeSimilarity}`;
/** `--runs`: print every run (sample, R, P, fetched, allowed) besides the rows per class. */
const RUNS = process.argv.includes('--runs');
/**
 * `--every=<site>/<class>`: every page of that class as sample, at the default candidate (or `--grid`'s), each
 * run printed and the runs meeting the target counted; no choice of T, nothing written (not part of the CV).
 */
const EVERY = process.argv.find((a) => a.startsWith('--every='))?.slice('--every='.length);
/** `--grid=a,b`: these candidates only (a partial run). */
const GRID_ARG = process.argv.find((a) => a.startsWith('--grid='))?.slice('--grid='.length).split(',');
const GRID =
  GRID_ARG ??
  (DEFAULTS_ONLY || EVERY !== undefined
    ? [D]
    : [...new Set(['0.8/0.3/s0.05', '0.8/0.2/s0.05', '0.8/0.4/s0.05', '0.75/0.3/s0.05', '0.7/0.3/s0.05', '0.8/0.3/nosections/s0.05', '0.75/0.3/nosections/s0.05', '0.8/0.2', '0.8/0.3', D])]);
/**
 * A candidate `T/shape[/nosections][/s<share>]`: the schema threshold T, the shape threshold of pages of the
 * sample's address kind, `nosections` for a target that does not keep to the sample's section (sections.ts),
 * and `s0.05` for the share of a class-link's pages that may be unlike the target (`strayShare`; default
 * COLLECT_DEFAULTS.strayShare).
 */
const parse = (c: string): { T: number; shape: number; sections: boolean; strayShare: number } => {
  const [T, shape, ...flags] = c.split('/');
  const stray = flags.find((f) => /^s\d/.test(f));
  return { T: Number(T), shape: Number(shape), sections: !flags.includes('nosections'), strayShare: stray === undefined ? COLLECT_DEFAULTS.strayShare : Number(stray.slice(1)) };
};
/** Classes this small are run and printed, but not part of the target nor of the choice of T. */
const MIN_CLASS = 20;
/** Allowed fetched pages per class page, beside the index pages. */
const ALLOWANCE = 1.5;

interface Run {
  site: string;
  cls: string;
  size: number;
  sample: string;
  T: number;
  /** The candidate run (`T/shape[/nosections][/s<share>]`). */
  candidate: string;
  /** Shape threshold (pages of the sample's address kind). */
  shape: number;
  recall: number;
  precision: number;
  requests: number;
  /** Pages of the site: no run should request more. */
  sitePages: number;
  fetched: number;
  dead: number;
  indexPages: number;
  /** fetched / |class| */
  ratio: number;
  /** (1.5 × |class| + index pages) / |class| */
  allowed: number;
  met: boolean;
  indexSteps: number;
  complete: boolean;
  ms: number;
  missed: string[];
  extra: string[];
}

interface SiteSpec {
  name: string;
  dir: string;
  classes: Record<string, string[]>;
  synthetic: boolean;
  /** Pages of the site (its files). */
  pages: number;
}

/** Runs INDESIT from 3 samples of every class of a served site (every page with `every`), at threshold T. */
async function runSite(spec: SiteSpec, url: string, candidate: string, every = false): Promise<Run[]> {
  const { T, shape, sections, strayShare } = parse(candidate);
  const runs: Run[] = [];
  for (const [cls, gold] of Object.entries(spec.classes)) {
    const picks = every ? gold : [...new Set([0, Math.floor(gold.length / 2), gold.length - 1])].map((i) => gold[i]!);
    for (const sample of picks) {
      // A fresh source per run, so that no page is cached from an earlier run; no delay: our own mirror.
      const source = await openSource(url, { delayMs: 0, concurrencyPerHost: 4 });
      const t0 = performance.now();
      try {
        const r = await indesit(source, source.urlOf(sample), { similarity: T, shapeSimilarity: shape, sections, strayShare });
        const got = [...new Set(r.pages.map((p) => staticKey(spec.dir, p.key)))];
        const s = setScore(got, gold);
        const g = new Set(gold);
        const c = new Set(got);
        const fetched = r.downloads - r.deadLinks;
        const allowed = (ALLOWANCE * gold.length + r.indexPages.length) / gold.length;
        runs.push({
          site: spec.name,
          cls,
          size: gold.length,
          sample,
          T,
          candidate,
          shape,
          recall: s.recall,
          precision: s.precision,
          requests: r.downloads,
          sitePages: spec.pages,
          fetched,
          dead: r.deadLinks,
          indexPages: r.indexPages.length,
          ratio: fetched / gold.length,
          allowed,
          met: s.recall >= 0.95 && s.precision >= 0.95 && fetched / gold.length <= allowed + 1e-9,
          indexSteps: r.indexPath.length,
          complete: r.complete,
          ms: Math.round(performance.now() - t0),
          missed: gold.filter((k) => !c.has(k)),
          extra: got.filter((k) => !g.has(k)),
        });
      } finally {
        await source.close();
      }
    }
  }
  return runs;
}

/** The score of T on some sites: runs meeting the target, mean min(R, P), fewer fetched per class page. */
function scoreOf(runs: readonly Run[]): number[] {
  const big = runs.filter((r) => r.size >= MIN_CLASS);
  if (big.length === 0) return [0, 0, 0];
  return [big.filter((r) => r.met).length / big.length, mean(big.map((r) => Math.min(r.recall, r.precision))), -mean(big.map((r) => r.ratio))];
}

/** One row per class: mean R, P, fetched/|class| over its samples, the lowest R and P, runs meeting the target. */
function classRows(runs: readonly Run[]): string[][] {
  const byClass = new Map<string, Run[]>();
  for (const r of runs) byClass.set(`${r.site}\t${r.cls}`, [...(byClass.get(`${r.site}\t${r.cls}`) ?? []), r]);
  return [...byClass.values()].map((rs) => {
    const r0 = rs[0]!;
    return [
      r0.site,
      r0.cls,
      String(r0.size),
      r0.candidate,
      fmt(mean(rs.map((r) => r.recall))),
      fmt(mean(rs.map((r) => r.precision))),
      fmt(Math.min(...rs.map((r) => Math.min(r.recall, r.precision)))),
      mean(rs.map((r) => r.ratio)).toFixed(2),
      mean(rs.map((r) => r.allowed)).toFixed(2),
      mean(rs.map((r) => r.requests / r.size)).toFixed(2),
      r0.size >= MIN_CLASS ? `${rs.filter((r) => r.met).length}/${rs.length}` : '(small)',
    ];
  });
}

/** One row per run: its sample, R, P, fetched, allowed, requests, whether it met the target. */
const runRows = (runs: readonly Run[]): string[][] =>
  runs.map((r) => [r.site, r.cls, r.sample, r.candidate, fmt(r.recall), fmt(r.precision), String(r.fetched), String(Math.round(r.allowed * r.size * 10) / 10), String(r.requests), r.met ? 'yes' : 'no']);
const RUN_HEADER = ['site', 'class', 'sample', 'T/shape', 'R', 'P', 'fetched', 'allowed', 'requests', 'met'];

/** `--every`: every page of one class as sample, at each candidate of GRID; prints the runs and how many met. */
async function runEvery(siteName: string, cls: string): Promise<void> {
  const site = listSites().find((s) => s.name === siteName);
  if (site?.classes?.[cls] === undefined) throw new Error(`--every=${siteName}/${cls}: no such site or class in the corpus`);
  const keys = site.files();
  const gold = keys.filter((k) => classOf(site, k) === cls);
  const spec: SiteSpec = { name: site.name, dir: site.pagesDir, classes: { [cls]: gold }, synthetic: false, pages: keys.length };
  const served = await serveDirectory(spec.dir);
  try {
    for (const c of GRID) {
      const runs = await runSite(spec, served.url, c, true);
      process.stdout.write(`Every page of ${siteName} ${cls} as sample, T/shape ${c}:\n` + formatTable(RUN_HEADER, runRows(runs)) + '\n');
      process.stdout.write(`${siteName} ${cls} at ${c}: ${runs.filter((r) => r.met).length}/${runs.length} samples meet the target\n\n`);
    }
  } finally {
    await served.close();
  }
}

const HEADER = ['site', 'class', '|class|', 'T/shape', 'R', 'P', 'min R,P', 'fetched/|class|', 'allowed', 'requests/|class|', 'met'];

await runEval('collect', async () => {
  if (EVERY !== undefined) {
    const [site, cls] = EVERY.split('/');
    return runEvery(site ?? '', cls ?? '');
  }
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const specs: SiteSpec[] = [];
  for (const site of listSites()) {
    if (!site.classes || (only.length > 0 && !only.includes(site.name))) continue;
    const keys = site.files();
    const classes: Record<string, string[]> = {};
    for (const cls of Object.keys(site.classes)) {
      const gold = keys.filter((k) => classOf(site, k) === cls);
      if (gold.length > 0) classes[cls] = gold;
    }
    specs.push({ name: site.name, dir: site.pagesDir, classes, synthetic: false, pages: keys.length });
  }
  const tmp = mkdtempSync(join(tmpdir(), 'gabarit-synthetic-'));
  try {
    for (const s of syntheticSites()) {
      if (only.length > 0 && !only.includes(s.name)) continue;
      const dir = join(tmp, s.name);
      for (const [key, html] of s.files) {
        mkdirSync(dirname(join(dir, key)), { recursive: true });
        writeFileSync(join(dir, key), html);
      }
      const keys = [...s.files.keys()].sort();
      const classes: Record<string, string[]> = {};
      for (const [cls, re] of Object.entries(s.classes)) classes[cls] = keys.filter((k) => re.test(k));
      specs.push({ name: s.name, dir, classes, synthetic: true, pages: keys.length });
    }

    // Every corpus site at every T; the synthetic sites once T is chosen.
    const byT = new Map<string, Run[]>();
    const corpus = specs.filter((s) => !s.synthetic);
    for (const spec of corpus) {
      const served = await serveDirectory(spec.dir);
      try {
        for (const T of GRID) byT.set(T, [...(byT.get(T) ?? []), ...(await runSite(spec, served.url, T))]);
      } finally {
        await served.close();
      }
      process.stderr.write(`collect: ${spec.name} done\n`);
    }
    const units = corpus.map((s) => s.name);
    // Leave one generator out: a site's candidate is chosen on the sites of other generators (peps and
    // python-docs are both Sphinx).
    const { heldOut, inSample } = leaveOneGroupOut(GRID, units, generatorOf, (T, sites) => scoreOf((byT.get(T) ?? []).filter((r) => sites.includes(r.site))));
    const runsAt = (T: string, site: string): Run[] => (byT.get(T) ?? []).filter((r) => r.site === site);
    const held = units.flatMap((u) => runsAt(heldOut.get(u)!, u));
    const inS = units.flatMap((u) => runsAt(inSample, u));
    const synthetic: Run[] = [];
    for (const spec of specs.filter((s) => s.synthetic)) {
      const served = await serveDirectory(spec.dir);
      try {
        synthetic.push(...(await runSite(spec, served.url, inSample)));
      } finally {
        await served.close();
      }
    }

    process.stdout.write('Held out (T/shape chosen on the sites of other generators):\n' + formatTable(HEADER, classRows(held)) + '\n\n');
    process.stdout.write(`In sample (T = ${inSample}, chosen on all sites; the default):\n` + formatTable(HEADER, classRows(inS)) + '\n\n');
    if (synthetic.length > 0) process.stdout.write(`Synthetic sites (test/fixtures/synthetic-sites.ts), T = ${inSample}:\n` + formatTable(HEADER, classRows(synthetic)) + '\n\n');
    if (RUNS) {
      process.stdout.write('Every run:\n' + formatTable(RUN_HEADER, runRows(GRID.flatMap((T) => byT.get(T) ?? []))) + '\n\n');
    }
    const gridRows = GRID.map((T) => {
      const rs = (byT.get(T) ?? []).filter((r) => r.size >= MIN_CLASS);
      const [met, minRP, ratio] = scoreOf(rs);
      return [String(T), fmt(met), fmt(minRP), (-ratio!).toFixed(2)];
    });
    process.stdout.write('Every T on every corpus site (classes >= 20 pages):\n' + formatTable(['T/shape', 'share of runs met', 'mean min(R,P)', 'fetched/|class|'], gridRows) + '\n\n');

    const big = (rs: Run[]): Run[] => rs.filter((r) => r.size >= MIN_CLASS);
    const headline = {
      'T/shape chosen on all sites': String(inSample),
      'T/shape held out per site': units.map((u) => `${u} ${heldOut.get(u)}`).join(', '),
      'held-out runs meeting R,P >= 0.95 and fetched <= allowed (classes >= 20)': `${big(held).filter((r) => r.met).length}/${big(held).length}`,
      'held-out mean recall (classes >= 20)': mean(big(held).map((r) => r.recall)),
      'held-out mean precision (classes >= 20)': mean(big(held).map((r) => r.precision)),
      'held-out mean fetched/|class| (classes >= 20)': mean(big(held).map((r) => r.ratio)),
      'held-out mean requests/|class| (classes >= 20)': mean(big(held).map((r) => r.requests / r.size)),
      'held-out runs requesting more pages than their site has (every class)': `${held.filter((r) => r.requests > r.sitePages).length}/${held.length}`,
      'in-sample runs meeting the target (classes >= 20)': `${big(inS).filter((r) => r.met).length}/${big(inS).length}`,
      'synthetic runs meeting the target (classes >= 20)': `${big(synthetic).filter((r) => r.met).length}/${big(synthetic).length}`,
    };
    for (const [k, v] of Object.entries(headline)) process.stdout.write(`${k}: ${typeof v === 'number' ? fmt(v) : v}\n`);
    if (DEFAULTS_ONLY || only.length > 0 || GRID_ARG !== undefined) return; // a partial run is printed, never written over the full figures
    const path = writeResults('collect', headline, { grid: GRID, heldOutT: Object.fromEntries(heldOut), inSampleT: inSample, heldOut: held, inSample: inS, synthetic, all: [...byT.values()].flat() });
    process.stdout.write(`\nwrote ${path}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
