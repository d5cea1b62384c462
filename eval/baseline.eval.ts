/**
 * Baselines every template engine is compared with (run: `npx tsx eval/baseline.eval.ts`):
 *  1. "keep the whole body" (no template removal): content P/R/F1 per site and per samesite group, and
 *     template node P/R/F1 on sites (it marks nothing, so node P/R/F1 are 0 wherever the page has
 *     gold template elements). Its recall is the ceiling of recall, its precision the floor of precision.
 *  2. the gold oracle on sites (marks exactly the gold template): content F1 must be 1.0 on every page
 *     with gold. Pages where it is not are listed with the words that differ: that would be a defect of
 *     the scoring (gold text vs kept text), not of an engine.
 *  3. a parser check on samesite/: the whole-body recall with the fast parser (what engines see, via
 *     parsePage) against the browser-exact parser (parse5). Pages where they differ lose gold text to the
 *     fast parser's tree (e.g. a page without <body> whose content stays inside an unclosed <head>), for
 *     every engine alike.
 *  4. "keep the whole body" on records/ (SWDE): the share of gold values whose words are all in the
 *     body text: the ceiling of the records measure (a value below 1 means gold written differently
 *     from the page, or outside <body>).
 * Writes eval/results/baseline.json.
 */
import { evaluateRecords, evaluateTemplateEngine, fmt, formatTable, recordsTable, runEval, templateHeadline, templateTable, writeResults } from './harness.ts';
import { goldOracleEngine, wholeBodyEngine } from '../src/eval/reference-engines.ts';
import type { GroupResult } from './harness.ts';
import { readFileSync } from 'node:fs';
import { listSamesite, samesiteGoldText } from '../src/eval/corpus.ts';
import { contentScore } from '../src/eval/metrics.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml, parseHtmlExact } from '../src/html/parse.ts';
import { textOf } from '../src/html/text.ts';

/** Samesite pages whose whole-body recall is lower with the fast parser than with the exact one. */
function parserCheck(only: readonly string[]): Array<{ page: string; fast: number; exact: number; hasBody: boolean }> {
  const out: Array<{ page: string; fast: number; exact: number; hasBody: boolean }> = [];
  for (const g of listSamesite()) {
    if (only.length > 0 && !only.some((o) => `${g.set}/${g.site}`.includes(o))) continue;
    for (const p of g.pages) {
      const gold = samesiteGoldText(p);
      if (gold.trim() === '') continue;
      const { text } = decodeHtml(readFileSync(p.htmlPath));
      const fastTree = parseHtml(text);
      const fast = contentScore(textOf(fastTree), gold).recall;
      const exact = contentScore(textOf(parseHtmlExact(text)), gold).recall;
      if (fast < exact - 0.01) out.push({ page: `${g.set}/${g.site}/${p.id}`, fast, exact, hasBody: fastTree.find('body') >= 0 });
    }
  }
  return out;
}

await runEval('baseline', async () => {
  const only = process.argv.slice(2);
  const whole = await evaluateTemplateEngine(wholeBodyEngine, { name: 'baseline: keep the whole body', sets: 'both', only, report: false });
  process.stdout.write(templateTable(whole) + '\n\n');

  const oracle = await evaluateTemplateEngine(
    (target) => {
      if (!target.site) throw new Error('the gold oracle needs a site');
      return goldOracleEngine(target.site.gold);
    },
    { name: 'baseline: gold oracle (sites)', sets: 'sites', only, report: false },
  );
  process.stdout.write(templateTable(oracle) + '\n');
  const imperfect = oracle.groups.flatMap((g: GroupResult) =>
    g.perPage.filter((p) => p.content.f1 < 1 - 1e-12 || (p.node !== undefined && p.node.f1 < 1 - 1e-12)).map((p) => ({ site: g.name, ...p })),
  );
  const crashed = oracle.groups.filter((g) => g.error !== undefined || g.failed > 0);
  if (imperfect.length === 0 && crashed.length === 0) {
    process.stdout.write(`gold oracle check: OK, content F1 = node F1 = 1.000 on all ${oracle.overall.pages} pages with gold\n`);
  } else {
    process.stdout.write(`gold oracle check: FAILED on ${imperfect.length} page(s), ${crashed.length} site(s) with failures\n`);
    for (const p of imperfect.slice(0, 20)) {
      process.stdout.write(`  ${p.site} ${p.key}: content P ${fmt(p.content.precision)} R ${fmt(p.content.recall)}; node F1 ${fmt(p.node?.f1)}\n`);
    }
    for (const g of crashed) process.stdout.write(`  ${g.name}: ${g.error ?? ''} ${g.failures.slice(0, 3).map((f) => `${f.key} ${f.code}`).join('; ')}\n`);
    process.exitCode = 1;
  }

  const parser = parserCheck(only);
  process.stdout.write(`\nparser check (samesite): ${parser.length} page(s) where the fast parser's body text has lower gold recall than parse5's\n`);
  if (parser.length > 0) {
    process.stdout.write(
      formatTable(['page', 'recall fast', 'recall exact', '<body> in fast tree'], parser.map((x) => [x.page, fmt(x.fast), fmt(x.exact), x.hasBody ? 'yes' : 'no'])) + '\n',
    );
  }

  const records = only.length > 0 ? [] : await evaluateRecords(wholeBodyEngine, { name: 'baseline: keep the whole body (records)', report: false });
  if (records.length > 0) process.stdout.write('\n' + recordsTable(records) + '\n');

  const headline: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(templateHeadline(whole))) headline[`whole body: ${k}`] = v;
  headline['oracle: sites content F1'] = oracle.sets[0]?.content.f1 ?? null;
  headline['oracle: imperfect pages'] = imperfect.length;
  headline['parser check: samesite pages losing text to the fast parser'] = parser.length;
  for (const r of records) headline[`whole body: ${r.set} values kept rate`] = r.overall.rate;
  const path = writeResults('baseline', headline, {
    wholeBody: { overall: whole.overall, sets: whole.sets, groups: whole.groups },
    records,
    parserCheck: parser,
    oracle: { overall: oracle.overall, sets: oracle.sets, groups: oracle.groups.map((g) => ({ ...g, perPage: undefined })), imperfect },
  });
  process.stdout.write(`results: ${path}\n`);
});
