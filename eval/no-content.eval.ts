/**
 * The no-content rule (src/run/no-content.ts) measured on the corpus: a marked page is named `no-content`
 * when it keeps no word, or less than `RUN_DEFAULTS.noContentShare` of its text. For each engine and
 * `extractContent`, on every corpus site and samesite group (the library's pipelines, as the commands run
 * them): the pages named, those of them whose gold holds content and how much of it they kept (a named
 * page with its gold kept would be a false alarm), and among pages with a gold, the smallest shares of
 * text left outside the template (what the threshold decides on).
 *
 *     npx tsx eval/no-content.eval.ts
 */
import { listSamesite, listSites, goldContentText, samesiteGoldText } from '../src/eval/corpus.ts';
import { contentScore } from '../src/eval/metrics.ts';
import { extractContent } from '../src/run/content.ts';
import { keptShare } from '../src/run/no-content.ts';
import { detectTemplate } from '../src/run/template.ts';
import type { PipelineRun } from '../src/run/drive.ts';
import { keptText, type PageMarks } from '../src/template/result.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';

interface Dir {
  name: string;
  dir: string;
  gold(key: string, m: PageMarks): string | null;
}

function dirs(): Dir[] {
  const out: Dir[] = [];
  for (const s of listSites()) out.push({ name: `sites/${s.name}`, dir: s.pagesDir, gold: (_k, m) => goldContentText(s, m.tree) });
  for (const g of listSamesite()) {
    const byKey = new Map(g.pages.map((p) => [`${p.id}.html`, p]));
    out.push({ name: `samesite/${g.set}/${g.site}`, dir: g.dir, gold: (k) => (byKey.has(k) ? samesiteGoldText(byKey.get(k)!) : null) });
  }
  return out;
}

const RUNS: Array<{ name: string; run: (dir: string) => PipelineRun }> = [
  { name: 'align', run: (d) => detectTemplate(d, { method: 'align', onWarning: () => undefined }) },
  { name: 'pagelets', run: (d) => detectTemplate(d, { method: 'pagelets', workers: 0, onWarning: () => undefined }) },
  { name: 'content', run: (d) => extractContent(d, { onWarning: () => undefined }) },
];

async function main(): Promise<void> {
  const rows: string[][] = [];
  const headline: Record<string, number> = {};
  const detail: Record<string, unknown> = {};
  for (const r of RUNS) {
    let pages = 0;
    let named = 0;
    let namedWithGold = 0;
    let namedGoldRecall = 0;
    const shares: Array<{ page: string; share: number }> = [];
    const alarms: string[] = [];
    for (const d of dirs()) {
      for await (const o of r.run(d.dir)) {
        if (!o.ok) continue;
        pages++;
        const gold = d.gold(o.key, o.marks);
        const hasGold = gold !== null && gold.trim() !== '';
        const s = keptShare(o.marks);
        if (hasGold && s.all > 0) shares.push({ page: `${d.name}/${o.key}`, share: s.free / s.all });
        if (!o.noContent) continue;
        named++;
        if (hasGold) {
          namedWithGold++;
          namedGoldRecall += contentScore(keptText(o.marks), gold).recall;
          alarms.push(`${d.name}/${o.key}`);
        }
      }
    }
    shares.sort((a, b) => a.share - b.share);
    rows.push([r.name, String(pages), String(named), String(namedWithGold), fmt(namedWithGold ? namedGoldRecall / namedWithGold : NaN), shares.slice(0, 5).map((x) => `${(100 * x.share).toFixed(1)}%`).join(' ')]);
    headline[`${r.name} named`] = named;
    headline[`${r.name} named with gold`] = namedWithGold;
    detail[r.name] = { named, namedWithGold, withGold: alarms, smallestShares: shares.slice(0, 10) };
  }
  process.stdout.write(
    'Pages named no-content (kept text with no word, or under 2% of the page text), corpus sites and samesite groups\n' +
      formatTable(['run', 'pages', 'named', 'named, gold not empty', 'their gold recall', 'smallest shares outside the template (pages with gold)'], rows) +
      '\n',
  );
  writeResults('no-content', headline, detail);
}

await runEval('no-content', main);
