/**
 * Near-duplicate pages among the align engine's sample (src/template/align/sample.ts `duplicateScore`):
 * the score of every pair of pages of every samesite group (all its pages taken as the sample) and of
 * the sample pages of every corpus site, against gold
 * duplicates (samesite pairs whose gold main texts share at least 90% of their words, Jaccard of word
 * sets), to choose ALIGN_DEFAULTS.duplicateScore at the gap between the two. Run:
 * `npx tsx eval/duplicates.eval.ts`; writes eval/results/duplicates.json.
 */
import { readFileSync } from 'node:fs';
import { listSamesite, listSites, samesiteGoldText } from '../src/eval/corpus.ts';
import { words } from '../src/eval/metrics.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { ALIGN_DEFAULTS } from '../src/template/align/defaults.ts';
import { chooseSample, duplicateScore, pageShingles, shingleCounts } from '../src/template/align/sample.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';

interface Pair {
  site: string;
  a: string;
  b: string;
  score: number;
  gold: boolean | null;
}

/** One table for every page: token ids are comparable across pages. */
const labels = new LabelTable();

function shinglesOf(path: string): Int32Array {
  const tree = parseHtml(decodeHtml(readFileSync(path)).text, { labels });
  return pageShingles(tree);
}

function wordJaccard(x: string, y: string): number {
  const A = new Set(words(x));
  const B = new Set(words(y));
  let both = 0;
  for (const w of A) if (B.has(w)) both++;
  const union = A.size + B.size - both;
  return union === 0 ? 0 : both / union;
}

runEval('duplicates', async () => {
  const pairs: Pair[] = [];
  const score = (site: string, keys: string[], paths: string[], gold: (a: number, b: number) => boolean | null): void => {
    const sets = paths.map(shinglesOf);
    const counts = shingleCounts(sets);
    for (let b = 1; b < sets.length; b++) for (let a = 0; a < b; a++) pairs.push({ site, a: keys[a]!, b: keys[b]!, score: duplicateScore(sets, a, b, counts), gold: gold(a, b) });
  };
  for (const g of listSamesite()) {
    const byId = new Map(g.pages.map((p) => [p.id, p]));
    const ids = [...byId.keys()];
    const texts = ids.map((id) => samesiteGoldText(byId.get(id)!));
    score(`${g.set}/${g.site}`, ids, ids.map((id) => byId.get(id)!.htmlPath), (a, b) => (words(texts[a]!).length > 0 && words(texts[b]!).length > 0 ? wordJaccard(texts[a]!, texts[b]!) >= 0.9 : null));
  }
  for (const s of listSites()) {
    const keys = chooseSample(s.files(), ALIGN_DEFAULTS.sample);
    score(`sites/${s.name}`, keys, keys.map((k) => `${s.pagesDir}/${k}`), () => false);
  }
  const dup = pairs.filter((p) => p.gold === true);
  const other = pairs.filter((p) => p.gold === false);
  const highestOther = [...other].sort((x, y) => y.score - x.score).slice(0, 8);
  const lowestDup = [...dup].sort((x, y) => x.score - y.score);
  const rows = [...lowestDup.map((p) => ['duplicate', p.site, `${p.a} ${p.b}`, fmt(p.score)]), ...highestOther.map((p) => ['different', p.site, `${p.a} ${p.b}`, fmt(p.score)])];
  console.log(formatTable(['gold', 'site', 'pair', 'score'], rows));
  const threshold = ALIGN_DEFAULTS.duplicateScore;
  const caught = dup.filter((p) => p.score >= threshold).length;
  const wrong = other.filter((p) => p.score >= threshold).length;
  console.log(`\n${pairs.length} pairs of sample pages; ${dup.length} gold duplicates, ${caught} at or above ${threshold}; ${other.length} different pages, ${wrong} at or above it`);
  writeResults('duplicates', { pairs: pairs.length, duplicates: dup.length, caught, differentPairs: other.length, wronglyCaught: wrong, threshold }, { lowestDuplicates: lowestDup, highestOthers: highestOther });
});
