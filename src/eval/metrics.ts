/**
 * The scoring method of the evaluation corpus (../shared/corpus/README.md, "How to score"), written once so
 * that every figure the project reports means the same thing:
 *  - words: lowercase, split on Unicode non-letters/non-digits, compared as multisets;
 *  - content P/R/F1 of a page: the words a method keeps against the words of the gold main text;
 *  - template node P/R/F1 (sites/ only): the elements a method marks as template against the gold-template
 *    elements (inside `<body>`, outside every gold content container and not an ancestor of one);
 *  - clustering: purity and the adjusted Rand index (Hubert & Arabie 1985);
 *  - sets (collected pages) and extracted values (wrappers): P/R/F1.
 *
 * Empty sides (one convention for every P/R/F1 here): precision is |hit| / |predicted| and recall is
 * |hit| / |gold|; when a denominator is 0 the ratio is 1 if the other side is empty too (nothing to find
 * and nothing found is perfect) and 0 otherwise (keeping nothing when there was something to keep, or
 * keeping something when there was nothing, earns nothing). F1 is the harmonic mean, 0 when P + R = 0.
 * So: both empty → 1/1/1; exactly one empty → 0/0/0.
 */
import { selectAll } from '../html/select.ts';
import { words } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';

/** Precision, recall and their harmonic mean, each in [0, 1]. */
export interface Score {
  precision: number;
  recall: number;
  f1: number;
}

/** The gold of a site (site.json `gold`): content selectors (the first that matches wins) and exclusions. */
export interface GoldSelectors {
  /** CSS selectors; on a page the first one that matches marks the main-content container(s). */
  readonly content: readonly string[];
  /** CSS selectors removed from inside the containers (they count as template). */
  readonly exclude: readonly string[];
}

// Defined with the other text helpers (content clustering uses it too); re-exported for the scorers.
export { words } from '../html/text.ts';

/** A multiset of words: word → count. */
export function wordCounts(ws: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Size of the multiset intersection Σ min(a[w], b[w]). */
function overlap(a: Map<string, number>, b: Map<string, number>): number {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const [w, c] of small) {
    const d = big.get(w);
    if (d !== undefined) n += Math.min(c, d);
  }
  return n;
}

/**
 * P/R/F1 from counts: `hit` items right out of `predicted` predicted and `actual` gold ones, with the
 * empty-side convention of the module comment.
 */
export function prf(hit: number, predicted: number, actual: number): Score {
  const precision = predicted > 0 ? hit / predicted : actual === 0 ? 1 : 0;
  const recall = actual > 0 ? hit / actual : predicted === 0 ? 1 : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/**
 * Content P/R/F1 of a page (corpus README): the words of the kept text against the words of the gold main
 * text, as multisets: P = |kept ∩ gold| / |kept|, R = |kept ∩ gold| / |gold|. Empty sides: see the module
 * comment (empty kept with non-empty gold → 0/0/0; both empty → 1/1/1).
 */
export function contentScore(keptText: string, goldText: string): Score {
  const k = words(keptText);
  const g = words(goldText);
  return prf(overlap(wordCounts(k), wordCounts(g)), k.length, g.length);
}

/**
 * The gold regions of a page: the main-content containers (elements matched by the first content
 * selector that matches anything; only the outermost ones when matches nest) and a mask of the nodes
 * excluded from them (the subtrees of `exclude` matches inside a container). Null when no content
 * selector matches (the page has no gold and is left out of scores).
 */
export function goldRegions(tree: Tree, gold: GoldSelectors): { containers: number[]; excluded: Uint8Array } | null {
  let found: number[] = [];
  for (const sel of gold.content) {
    found = selectAll(tree, sel);
    if (found.length > 0) break;
  }
  if (found.length === 0) return null;
  // Outermost only: document order means a nested match follows its container within its range.
  const containers: number[] = [];
  let until = -1;
  for (const c of found) {
    if (c < until) continue;
    containers.push(c);
    until = tree.end[c]!;
  }
  const excluded = new Uint8Array(tree.size);
  for (const c of containers) {
    for (const sel of gold.exclude) {
      for (const x of selectAll(tree, sel, c)) excluded.fill(1, x, tree.end[x]!);
    }
  }
  return { containers, excluded };
}

/**
 * The gold-template mask of a page (corpus README, "Template node P/R"): 1 for every node inside `<body>`
 * that is outside every gold content container and not an ancestor of one, and for every node inside an
 * `exclude` match within a container (those are removed from the content, so they are template too).
 * Covers all node kinds (text nodes included); `templateNodeScore` counts the elements. Null when no
 * content selector matches.
 */
export function goldTemplateMask(tree: Tree, gold: GoldSelectors): Uint8Array | null {
  const regions = goldRegions(tree, gold);
  if (!regions) return null;
  const mask = new Uint8Array(tree.size);
  const body = tree.body();
  const bodyEnd = tree.end[body]!;
  mask.fill(1, body + 1, bodyEnd);
  for (const c of regions.containers) {
    mask.fill(0, c, tree.end[c]!);
    for (let a = tree.parent[c]!; a >= 0 && mask[a] === 1; a = tree.parent[a]!) mask[a] = 0;
  }
  const ex = regions.excluded;
  for (let i = body + 1; i < bodyEnd; i++) if (ex[i] === 1) mask[i] = 1;
  return mask;
}

/**
 * Template node P/R/F1 of a page (sites/ only): the elements inside `<body>` (the body itself included,
 * it is never gold-template) that `templateMarks` marks 1, against the gold-template elements (see
 * `goldTemplateMask`). Only elements count, not text nodes. Null when no gold content selector matches.
 */
export function templateNodeScore(tree: Tree, templateMarks: Uint8Array, gold: GoldSelectors): Score | null {
  const mask = goldTemplateMask(tree, gold);
  if (!mask) return null;
  const body = tree.body();
  const bodyEnd = tree.end[body]!;
  let hit = 0;
  let predicted = 0;
  let actual = 0;
  for (let i = body; i < bodyEnd; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const p = templateMarks[i] === 1;
    const g = mask[i] === 1;
    if (p) predicted++;
    if (g) actual++;
    if (p && g) hit++;
  }
  return prf(hit, predicted, actual);
}

/**
 * Purity of a clustering (Manning et al., Introduction to IR, 16.3): each predicted cluster is credited
 * with its most frequent gold class; purity = Σ_clusters max_class |cluster ∩ class| / N. Maps are item →
 * cluster id and item → class; only items present in both count (items without a gold class are
 * unlabelled). Returns 1 when no item counts.
 */
export function purity(pred: ReadonlyMap<string, string>, gold: ReadonlyMap<string, string>): number {
  const table = contingency(pred, gold);
  if (table.n === 0) return 1;
  let sum = 0;
  for (const row of table.cells.values()) {
    let best = 0;
    for (const c of row.values()) if (c > best) best = c;
    sum += best;
  }
  return sum / table.n;
}

/**
 * Adjusted Rand index (Hubert & Arabie 1985) of a predicted partition against the gold one, over the items
 * present in both maps: (Σ_ij C(n_ij,2) − E) / (½(Σ_i C(a_i,2) + Σ_j C(b_j,2)) − E), with
 * E = Σ_i C(a_i,2) · Σ_j C(b_j,2) / C(n,2). 1 for identical partitions, about 0 for random ones, may be
 * negative. The denominator is 0 only when both partitions are all-singletons or both one cluster (or
 * n < 2), i.e. identical: then 1.
 */
export function adjustedRandIndex(pred: ReadonlyMap<string, string>, gold: ReadonlyMap<string, string>): number {
  const { cells, n } = contingency(pred, gold);
  const c2 = (x: number): number => (x * (x - 1)) / 2;
  let sumCells = 0;
  const colTotals = new Map<string, number>();
  let sumRows = 0;
  for (const row of cells.values()) {
    let a = 0;
    for (const [cls, c] of row) {
      sumCells += c2(c);
      a += c;
      colTotals.set(cls, (colTotals.get(cls) ?? 0) + c);
    }
    sumRows += c2(a);
  }
  let sumCols = 0;
  for (const b of colTotals.values()) sumCols += c2(b);
  const total = c2(n);
  if (total === 0) return 1;
  const expected = (sumRows * sumCols) / total;
  const max = (sumRows + sumCols) / 2;
  if (max === expected) return 1;
  return (sumCells - expected) / (max - expected);
}

/** cluster → class → count, over the items in both maps. */
function contingency(pred: ReadonlyMap<string, string>, gold: ReadonlyMap<string, string>): { cells: Map<string, Map<string, number>>; n: number } {
  const cells = new Map<string, Map<string, number>>();
  let n = 0;
  for (const [item, cluster] of pred) {
    const cls = gold.get(item);
    if (cls === undefined) continue;
    let row = cells.get(cluster);
    if (!row) cells.set(cluster, (row = new Map()));
    row.set(cls, (row.get(cls) ?? 0) + 1);
    n++;
  }
  return { cells, n };
}

/** Arithmetic mean; NaN for an empty list (printed as "—", written as null in JSON). */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Mean precision, recall and F1 of page scores (each averaged separately); NaN fields when empty. */
export function meanScore(scores: readonly Score[]): Score {
  return {
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
    f1: mean(scores.map((s) => s.f1)),
  };
}

/**
 * P/R/F1 of a predicted set of items (e.g. the pages a collector gathered) against the gold set (e.g. the
 * pages of the sample's class). Duplicates count once. Empty sides: see the module comment.
 */
export function setScore(pred: Iterable<string>, gold: Iterable<string>): Score {
  const p = new Set(pred);
  const g = new Set(gold);
  let hit = 0;
  for (const x of p) if (g.has(x)) hit++;
  return prf(hit, p.size, g.size);
}

/**
 * Word P/R/F1 of the values a wrapper extracted for one attribute of one page against the gold values: the
 * words of all extracted values against the words of all gold values, as multisets (so value order and
 * splitting into several values do not matter). No value on either side counts as empty text.
 */
export function valueScore(extracted: readonly string[], gold: readonly string[]): Score {
  return contentScore(extracted.join('\n'), gold.join('\n'));
}

/**
 * Records (corpus README): a gold value counts as kept when its words all survive template removal, i.e.
 * its word multiset is contained in the kept text's word multiset. A value with no words counts as kept.
 * Pass `keptCounts` (from `wordCounts(words(kept))`) to check many values against one page cheaply.
 */
export function valueKept(value: string, kept: string | ReadonlyMap<string, number>): boolean {
  const counts = typeof kept === 'string' ? wordCounts(words(kept)) : kept;
  for (const [w, c] of wordCounts(words(value))) if ((counts.get(w) ?? 0) < c) return false;
  return true;
}
