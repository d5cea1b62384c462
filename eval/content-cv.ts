/**
 * Scoring and leave-one-site-out cross-validation of the main-block options (eval/content.eval.ts).
 * Every page of both modes (content-sets.ts) is scored under every candidate of a grid, once; then, for
 * each site, the candidate best on all the other sites is the one its pages are scored with (held out),
 * and the defaults (src/content/defaults.ts, chosen on everything) give the in-sample figure. The
 * training objective is the mean, over the cells (mode × set) that have training pages, of the mean page
 * F1 of the cell: each set counts alike whatever its size (single/readability's 130 pages do not outweigh
 * stackoverflow's 15).
 */
import { blockOptionsFor, chooseWithSite, siteVote, type MainBlockWhen } from '../src/content/engine.ts';
import { extractMainContent, placeHeadline } from '../src/content/extract.ts';
import type { MainBlock, MainBlockOptions } from '../src/content/main-block.ts';
import { CONTENT_DEFAULTS } from '../src/content/defaults.ts';
import { pathKeys } from '../src/content/site-vote.ts';
import { contentScore, type Score } from '../src/eval/metrics.ts';
import { textOf } from '../src/html/text.ts';
import type { Tree } from '../src/html/tree.ts';
import type { EvalPage } from './content-sets.ts';

export type { MainBlockWhen };

/** The cell of a page: its mode and set. */
export function cellOf(p: EvalPage): string {
  return `${p.template ? 'site' : 'single'}:${p.set}`;
}

const keyCache = new WeakMap<Tree, Int32Array>();
function keysOf(t: Tree): Int32Array {
  let k = keyCache.get(t);
  if (!k) keyCache.set(t, (k = pathKeys(t)));
  return k;
}

/** The text kept on a page under content marks. */
function textUnder(tree: Tree, marks: Uint8Array): string {
  return textOf(tree, tree.body(), (i) => marks[i] === 1);
}

/**
 * Scores of every page (P/R/F1; NaN scores for unscored pages) under `options`: single-page mode through
 * extractMainContent; site mode as the content engine does it (site vote over the first `voteSample` pages
 * of each site in emission order, then chooseWithSite, with the options engine.ts blockOptionsFor gives
 * after the site's method; with none, the non-template text).
 */
export function scorePages(pages: readonly EvalPage[], options: MainBlockOptions, when: MainBlockWhen = 'auto'): Score[] {
  const out: Score[] = new Array<Score>(pages.length);
  const none: Score = { precision: NaN, recall: NaN, f1: NaN };
  const groups = new Map<string, number[]>();
  pages.forEach((p, i) => {
    if (!p.template) {
      out[i] = p.scored ? contentScore(extractMainContent(p.tree, { ...options, headline: p.headline }).text, p.gold) : none;
      return;
    }
    const g = groups.get(p.group!) ?? [];
    g.push(i);
    groups.set(p.group!, g);
  });
  for (const idx of groups.values()) {
    idx.sort((a, b) => pages[a]!.order! - pages[b]!.order!);
    const first = pages[idx[0]!]!;
    const block = blockOptionsFor(when, first.method ?? '', options);
    if (block === null) {
      for (const i of idx) {
        const p = pages[i]!;
        out[i] = p.scored ? contentScore(textOf(p.tree, p.tree.body(), (n) => p.template![n] !== 1), p.gold) : none;
      }
      continue;
    }
    const held = idx.slice(0, CONTENT_DEFAULTS.voteSample).map((i) => pages[i]!);
    // The held pages' own choices, made for the vote, are not made again (as the content engine does).
    const own: MainBlock[] = [];
    const siteKey = siteVote(held.map((p) => ({ tree: p.tree, template: p.template! })), held.map((p) => keysOf(p.tree)), block, own);
    idx.forEach((i, k) => {
      const p = pages[i]!;
      if (!p.scored) {
        out[i] = none;
        return;
      }
      const mb = chooseWithSite(p.tree, p.template!, siteKey, block, keysOf(p.tree), own[k]).block;
      out[i] = contentScore(textUnder(p.tree, placeHeadline(p.tree, mb, p.headline).marks), p.gold);
    });
  }
  return out;
}

/**
 * The grid of candidates; the defaults are candidate 0 (ties go to them). Searched: the concentration
 * decay, list items' weight, the weight of gaps in the contiguity step, the head zone (off or 800
 * characters), the share of the page above which a boilerplate name does not veto (0.5, or never),
 * records (off, or up to 6 levels), and the position rules (off, or `titledShare` and `siblingProse` at their defaults). `proseChars` and `siblingShare` keep their defaults: every fold of
 * the earlier leave-one-set-out search over them chose them (docs/content.md).
 */
export function cvGrid(): MainBlockOptions[] {
  const D = CONTENT_DEFAULTS;
  const out: MainBlockOptions[] = [{}];
  const same = (o: MainBlockOptions): boolean =>
    o.decay === D.decay && o.listWeight === D.listWeight && o.gapPenalty === D.gapPenalty && o.headZone === D.headZone && o.vetoShare === D.vetoShare && o.recordLevels === D.recordLevels &&
    o.titledShare === D.titledShare && o.siblingProse === D.siblingProse;
  // Position rules, on or off together: the story under the page's own headline, and paragraphs beside the main block.
  const position = [{ titledShare: 0, siblingProse: 0 }, { titledShare: D.titledShare, siblingProse: D.siblingProse }];
  for (const decay of [1, 0.8, 0.7]) for (const listWeight of [1, 0.5]) for (const gapPenalty of [1, 3]) for (const headZone of [0, 800]) for (const vetoShare of [0.5, 1]) for (const recordLevels of [-1, 6]) for (const pos of position) {
    const o: MainBlockOptions = { decay, listWeight, gapPenalty, headZone, vetoShare, recordLevels, ...pos };
    if (!same(o)) out.push(o);
  }
  return out;
}

/** The result of the cross-validation. */
export interface CvResult {
  grid: MainBlockOptions[];
  /** Per grid candidate, per page: the page's scores. */
  scores: Score[][];
  /** Per site: the candidate chosen without it. */
  chosen: Map<string, number>;
  /** Per page: its held-out scores (the candidate chosen without its site). */
  heldOut: Score[];
}

/** Leave-one-site-out over `pages` with the candidates of `grid` (see the module comment). */
export function leaveOneSiteOut(pages: readonly EvalPage[], grid: readonly MainBlockOptions[], when: MainBlockWhen, progress?: (k: number) => void): CvResult {
  const scores = grid.map((o, k) => {
    progress?.(k);
    return scorePages(pages, o, when);
  });
  const cells = [...new Set(pages.filter((p) => p.scored).map(cellOf))];
  const cellIdx = pages.map((p) => cells.indexOf(cellOf(p)));
  // Sums of F1 per candidate and cell, and per site the same sums over its pages.
  const sum = grid.map(() => new Float64Array(cells.length));
  const count = new Float64Array(cells.length);
  const bySite = new Map<string, { sum: Float64Array[]; count: Float64Array }>();
  pages.forEach((p, i) => {
    if (!p.scored) return;
    const c = cellIdx[i]!;
    count[c]!++;
    let s = bySite.get(p.site);
    if (!s) bySite.set(p.site, (s = { sum: grid.map(() => new Float64Array(cells.length)), count: new Float64Array(cells.length) }));
    s.count[c]!++;
    for (let k = 0; k < grid.length; k++) {
      const f = scores[k]![i]!.f1;
      sum[k]![c]! += f;
      s.sum[k]![c]! += f;
    }
  });
  const chosen = new Map<string, number>();
  for (const [site, s] of bySite) {
    let best = 0;
    let bestValue = -Infinity;
    for (let k = 0; k < grid.length; k++) {
      let v = 0;
      let n = 0;
      for (let c = 0; c < cells.length; c++) {
        const m = count[c]! - s.count[c]!;
        if (m <= 0) continue;
        v += (sum[k]![c]! - s.sum[k]![c]!) / m;
        n++;
      }
      v /= Math.max(1, n);
      if (v > bestValue + 1e-12) {
        bestValue = v;
        best = k;
      }
    }
    chosen.set(site, best);
  }
  const heldOut = pages.map((p, i) => scores[chosen.get(p.site) ?? 0]![i]!);
  return { grid: [...grid], scores, chosen, heldOut };
}
