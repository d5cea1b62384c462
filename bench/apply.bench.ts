/**
 * The cost of applying a learned template to a page, as a ratio to parsing the same page (target: at most
 * 2x). For every corpus site (sites/) and every engine (align; hyperlink; pagelets local and global), the
 * template is learned once on the site (`learnTemplate`) and compiled (`compileTemplate`); then, over every
 * page of the site (text decoded beforehand):
 *  - parse: `parseHtml` of each page (the site's own label table, as the engines parse);
 *  - apply: `applier.apply` of each page, which parses it too (with the template's frozen table) and marks
 *    it: the whole cost of marking a page as it arrives.
 * Times are CPU times (user + system of this process), medians of `--reps` runs after one warm-up, each
 * method after a full GC (common.ts). The ratio per engine is over all sites' pages together (total apply
 * time over total parse time), and the worst site's is shown too.
 * Run: `npx tsx bench/apply.bench.ts [--reps N] [--only site]` (skips when the corpus is absent).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { listSites } from '../src/eval/corpus.ts';
import { compileTemplate, learnTemplate } from '../src/run/learn.ts';
import { openSource } from '../src/site/source.ts';
import type { Template } from '../src/template/learned.ts';
import { CORPUS_MISSING, corpusAvailable, fmt, fullGc, loadCorpusSites, table, time } from './common.ts';

/** The target: applying costs at most this many times parsing. */
const TARGET_RATIO = 2;

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const REPS = Number(arg('--reps') ?? 5);
const ONLY = arg('--only');

const ENGINES = [
  { name: 'align', options: { method: 'align' } },
  { name: 'hyperlink', options: { method: 'hyperlink' } },
  { name: 'pagelets local', options: { method: 'pagelets', workers: 0 } },
  { name: 'pagelets global', options: { method: 'pagelets', global: true, backend: 'memory', workers: 0 } },
] as const;

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    console.log(`${CORPUS_MISSING}: apply benchmark skipped`);
    return;
  }
  const entries = new Map(listSites().map((s) => [s.name, s.entry]));
  const sites = loadCorpusSites().filter((s) => !ONLY || s.name.includes(ONLY));
  const rows: Array<Array<string | number>> = [['site', 'pages', 'MB', 'parse ms', ...ENGINES.map((e) => `${e.name} x`)]];
  const total = { parse: 0, apply: ENGINES.map(() => 0) };
  const worst = ENGINES.map(() => 0);
  for (const site of sites) {
    fullGc();
    const parse = time(() => {
      const labels = new LabelTable();
      for (const p of site.pages) parseHtml(p.html, { labels, selfClosing: p.xhtml });
    }, { reps: REPS });
    total.parse += parse.cpu;
    const row: Array<string | number> = [site.name, site.pages.length, fmt(site.bytes / 1e6, 2), fmt(parse.cpu, 0)];
    for (const [k, e] of ENGINES.entries()) {
      const source = await openSource(join(CORPUS_DIR, 'sites', site.name, 'pages'), { entry: entries.get(site.name) ?? 'index.html' });
      let template: Template;
      try {
        const { template: t } = await learnTemplate(source, { ...e.options, onWarning: () => undefined } as never);
        // A directory of one site and a few odd pages gives a set: its largest site's template.
        template = 'sites' in t ? t.sites.reduce((a, b) => (b.pages > a.pages ? b : a)) : t;
      } catch (err) {
        row.push(`(${(err as Error).message.slice(0, 30)})`);
        continue;
      } finally {
        await source.close();
      }
      const applier = compileTemplate(template);
      fullGc();
      const apply = time(() => {
        for (const p of site.pages) applier.apply({ html: p.html, xhtml: p.xhtml });
      }, { reps: REPS });
      total.apply[k]! += apply.cpu;
      const ratio = apply.cpu / parse.cpu;
      worst[k] = Math.max(worst[k]!, ratio);
      row.push(fmt(ratio, 2));
    }
    rows.push(row);
  }
  rows.push(['all sites', '', '', fmt(total.parse, 0), ...total.apply.map((a) => fmt(a / total.parse, 2))]);
  rows.push(['worst site', '', '', '', ...worst.map((w) => fmt(w, 2))]);
  console.log(`Applying a learned template, CPU time as a ratio to parsing the same pages (target <= ${TARGET_RATIO}); median of ${REPS} runs; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(table(rows));
  const over = ENGINES.filter((_, k) => total.apply[k]! / total.parse > TARGET_RATIO).map((e) => e.name);
  console.log(over.length === 0 ? `every engine within ${TARGET_RATIO}x parse over all sites` : `above ${TARGET_RATIO}x parse: ${over.join(', ')}`);
}

await main();
