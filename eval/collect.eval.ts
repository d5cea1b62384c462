/**
 * INDESIT on the corpus sites (paper 4, section 4; run: `npx tsx eval/collect.eval.ts [site…]`). Each site
 * of sites/ with `classes` in its site.json is served on 127.0.0.1 and crawled over HTTP; for every class,
 * INDESIT starts from 3 different sample pages (the first, middle and last page of the class in key
 * order, as the paper ran "the algorithm three times, each starting with a different sample page") and
 * the collected set is scored against the class: recall, precision (src/eval/metrics.ts `setScore`) and
 * downloads as a multiple of the class size, printed next to the paper's Figure 7 figures. Target: recall
 * and precision >= 0.95 on every class of at least 20 pages. Writes eval/results/collect.json.
 */
import { indesit, type IndesitResult } from '../src/collect/indesit.ts';
import { classOf, listSites } from '../src/eval/corpus.ts';
import { mean, setScore } from '../src/eval/metrics.ts';
import { serveDirectory } from '../src/site/serve.ts';
import { openSource } from '../src/site/source.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';

/** Figure 7 of the paper: class size and, per sample, recall, precision, downloads. */
const PAPER: ReadonlyArray<{ cls: string; size: number; runs: ReadonlyArray<[number, number, number]> }> = [
  { cls: 'FIFA player', size: 736, runs: [[1, 1, 1046], [1, 1, 1079], [1, 1, 1104]] },
  { cls: 'FIFA team', size: 32, runs: [[1, 1, 249], [1, 1, 248], [1, 1, 265]] },
  { cls: 'Supercars car', size: 294, runs: [[1, 0.9932, 351], [1, 0.9898, 352], [1, 0.9898, 350]] },
  { cls: 'SendIt dvd', size: 1011, runs: [[0.8595, 1, 3377], [0.8437, 1, 3333], [0.7438, 1, 3209]] },
  { cls: 'Olympics sport', size: 36, runs: [[1, 1, 125], [1, 1, 140], [1, 1, 128]] },
  { cls: 'Olympics hero', size: 292, runs: [[1, 1, 489], [1, 1, 465], [1, 1, 458]] },
  { cls: 'Guitar tabs song', size: 29032, runs: [[0.8729, 1, 29099], [0.873, 1, 29110], [0.8704, 1, 29037]] },
  { cls: 'Guitar tabs group', size: 3608, runs: [[1, 0.9598, 3809], [1, 0.9598, 3811], [0.9722, 0.9356, 3583]] },
  { cls: 'AXL company', size: 3744, runs: [[0.9989, 0.9809, 3835], [0.9989, 0.9809, 3835], [0.9989, 0.9809, 3835]] },
  { cls: 'UEFA2004 team', size: 16, runs: [[1, 1, 163], [1, 1, 157], [1, 1, 152]] },
];

interface Run {
  site: string;
  cls: string;
  size: number;
  sample: string;
  recall: number;
  precision: number;
  downloads: number;
  perClass: number;
  collected: number;
  indexSteps: number;
  complete: boolean;
  ms: number;
  missed: string[];
  extra: string[];
  indexPath: IndesitResult['indexPath'];
}

await runEval('collect', async () => {
  const only = process.argv.slice(2);
  const runs: Run[] = [];
  for (const site of listSites()) {
    if (!site.classes || (only.length > 0 && !only.includes(site.name))) continue;
    const served = await serveDirectory(site.pagesDir);
    try {
      const keys = site.files();
      for (const cls of Object.keys(site.classes)) {
        const gold = keys.filter((k) => classOf(site, k) === cls);
        if (gold.length === 0) continue;
        const picks = [...new Set([0, Math.floor(gold.length / 2), gold.length - 1])].map((i) => gold[i]!);
        for (const sample of picks) {
          // A fresh source per run, so that no page is cached from an earlier run; no delay: our own mirror on 127.0.0.1.
          const source = await openSource(served.url, { delayMs: 0, concurrencyPerHost: 4 });
          const t0 = performance.now();
          try {
            const r = await indesit(source, source.urlOf(sample));
            const got = r.pages.map((p) => p.key);
            const s = setScore(got, gold);
            const g = new Set(gold);
            const c = new Set(got);
            runs.push({
              site: site.name,
              cls,
              size: gold.length,
              sample,
              recall: s.recall,
              precision: s.precision,
              downloads: r.downloads,
              perClass: r.downloads / gold.length,
              collected: got.length,
              indexSteps: r.indexPath.length,
              complete: r.complete,
              ms: Math.round(performance.now() - t0),
              missed: gold.filter((k) => !c.has(k)),
              extra: got.filter((k) => !g.has(k)),
              indexPath: r.indexPath,
            });
          } finally {
            await source.close();
          }
        }
      }
    } finally {
      await served.close();
    }
  }

  const rows = runs.map((r) => [r.site, r.cls, String(r.size), r.sample, fmt(r.recall), fmt(r.precision), String(r.downloads), r.perClass.toFixed(2), String(r.indexSteps), r.complete ? '' : 'budget']);
  process.stdout.write(formatTable(['site', 'class', '|class|', 'sample', 'R', 'P', '#dwnl', 'dwnl/|class|', 'index steps', ''], rows) + '\n\n');
  const paperRows = PAPER.map((p) => [p.cls, String(p.size), fmt(mean(p.runs.map((r) => r[0]))), fmt(mean(p.runs.map((r) => r[1]))), fmt(mean(p.runs.map((r) => r[2]))), (mean(p.runs.map((r) => r[2])) / p.size).toFixed(2)]);
  process.stdout.write('Paper, Figure 7 (mean of its 3 samples):\n' + formatTable(['class', '|class|', 'R', 'P', '#dwnl', 'dwnl/|class|'], paperRows) + '\n\n');

  const big = runs.filter((r) => r.size >= 20);
  const met = big.filter((r) => r.recall >= 0.95 && r.precision >= 0.95);
  const byClass = new Map<string, Run[]>();
  for (const r of runs) byClass.set(`${r.site}/${r.cls}`, [...(byClass.get(`${r.site}/${r.cls}`) ?? []), r]);
  const stable = [...byClass.values()].filter((rs) => new Set(rs.map((r) => r.recall.toFixed(6) + r.precision.toFixed(6))).size === 1).length;
  const headline = {
    runs: String(runs.length),
    'classes>=20 runs meeting R,P>=0.95': `${met.length}/${big.length}`,
    'mean recall (classes>=20)': mean(big.map((r) => r.recall)),
    'mean precision (classes>=20)': mean(big.map((r) => r.precision)),
    'mean downloads/|class| (classes>=20)': mean(big.map((r) => r.perClass)),
    'classes with the same R,P from every sample': `${stable}/${byClass.size}`,
  };
  for (const [k, v] of Object.entries(headline)) process.stdout.write(`${k}: ${typeof v === 'number' ? fmt(v) : v}\n`);
  const path = writeResults('collect', headline, { runs, paper: PAPER });
  process.stdout.write(`\nwrote ${path}\n`);
});
