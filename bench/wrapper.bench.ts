/**
 * Wrapper adaptation time (issue 7: "the time of one adaptation on pages of 1k, 5k and 20k nodes, as a
 * ratio to parsing them"). Pages are generated here (deterministic; no corpus needed): a shop listing of
 * product cards with a header, navigation and footer, about N nodes. The wrapper is created on the original
 * page; the changed page renames every class and wraps the listing in two new elements, so every selector
 * fails and the pattern must be found by matching. Two patterns:
 *  - `card`: one product card in the middle of the listing (a tree-gram of ~40 nodes);
 *  - `listing`: the whole listing (a tree-gram of about 90% of the page, cut at MAX_GRAM_NODES nodes).
 * For each algorithm alone: the median time of one `adapt` call (labels built, candidates bounded and
 * compared) and its ratio to `parseHtml` of the same page, with the candidates compared and pruned by the
 * bounds. Run: `npx tsx bench/wrapper.bench.ts [--reps N]`.
 */
import { parseHtml } from '../src/html/parse.ts';
import { selectAll } from '../src/html/select.ts';
import type { Tree } from '../src/html/tree.ts';
import { adapt } from '../src/wrapper/adapt.ts';
import { WRAPPER_DEFAULTS, type AlgorithmName } from '../src/wrapper/defaults.ts';
import { makeTreeGram } from '../src/wrapper/tree-gram.ts';
import { fmt, peakRss, mb, table, time } from './common.ts';

const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 5;

/** A page of about `cards` product cards (each ~45 nodes); `changed` renames classes and adds two levels. */
function page(cards: number, changed: boolean): string {
  const c = (name: string): string => (changed ? `${name}-v2` : name);
  const items: string[] = [];
  for (let k = 0; k < cards; k++) {
    const specs = Array.from({ length: 2 + (k % 4) }, (_, s) => `<li><b>Spec ${s}</b>: value ${k * 7 + s}</li>`).join('');
    items.push(
      `<article class="${c('card')}"><h2 class="${c('title')}"><a href="/p/${k}">Product ${k}</a></h2>` +
        `<img src="/img/${k}.jpg" alt="p${k}"><p class="${c('price')}">${10 + (k % 90)}</p>` +
        `<ul class="${c('specs')}">${specs}</ul><p class="${c('desc')}">Item ${k} is ${k % 3 ? 'blue' : 'red'} and ships in ${1 + (k % 5)} days.</p>` +
        `<div class="${c('actions')}"><button>Buy</button><a href="/w/${k}">Wish list</a></div></article>`,
    );
  }
  const listing = `<section class="${c('listing')}">${items.join('')}</section>`;
  const nav = Array.from({ length: 12 }, (_, k) => `<li><a href="/c/${k}">Category ${k}</a></li>`).join('');
  return (
    `<!DOCTYPE html><html><head><title>Shop</title></head><body><header class="${c('top')}"><nav><ul>${nav}</ul></nav></header>` +
    `<main>${changed ? `<div class="layout"><div class="col">${listing}</div></div>` : listing}</main>` +
    `<footer class="${c('foot')}"><p>© shop</p><ul>${nav}</ul></footer></body></html>`
  );
}

/** Cards for a page of about `nodes` nodes (measured, then scaled). */
function cardsFor(nodes: number): number {
  const per = (parseHtml(page(100, false)).size - parseHtml(page(0, false)).size) / 100;
  return Math.max(1, Math.round((nodes - parseHtml(page(0, false)).size) / per));
}

const ALGORITHMS: readonly AlgorithmName[] = ['ctm', 'stm', 'bigram', 'jw'];
const rows: Array<Array<string | number>> = [['page nodes', 'pattern', 'gram nodes', 'algorithm', 'parse ms', 'adapt ms', 'ratio', 'found', 'similarity', 'compared', 'pruned']];
for (const target of [1000, 5000, 20000]) {
  const cards = cardsFor(target);
  const original = parseHtml(page(cards, false));
  const html = page(cards, true);
  const parsed = time(() => parseHtml(html), { reps: REPS });
  const changed: Tree = parseHtml(html);
  const patterns: Array<{ name: string; node: number; expect: number }> = [
    { name: 'card', node: selectAll(original, 'article.card')[cards >> 1]!, expect: selectAll(changed, 'article.card-v2')[cards >> 1]! },
    { name: 'listing', node: selectAll(original, 'section.listing')[0]!, expect: selectAll(changed, 'section.listing-v2')[0]! },
  ];
  for (const p of patterns) {
    const gram = makeTreeGram(original, [p.node], 1);
    for (const algorithm of ALGORITHMS) {
      const settings = { threshold: WRAPPER_DEFAULTS.threshold, algorithms: [algorithm], labels: WRAPPER_DEFAULTS.labels };
      const a = adapt(changed, 0, gram, settings);
      const t = time(() => adapt(changed, 0, gram, settings), { reps: REPS });
      rows.push([
        changed.size,
        p.name,
        gram.instances[0]!.tags.length,
        algorithm,
        fmt(parsed.median, 2),
        fmt(t.median, 2),
        fmt(t.median / parsed.median, 2),
        a.nodes.length === 1 && a.nodes[0] === p.expect ? 'yes' : a.step === 'not-found' ? 'no' : 'other',
        fmt(a.similarity, 3),
        a.compared,
        a.pruned,
      ]);
    }
  }
}
process.stdout.write(table(rows) + '\n');
process.stdout.write(`peak RSS ${fmt(mb(peakRss()), 0)} MB\n`);
