/**
 * The shape of a page: the set of the tag-lists (root-to-element paths, src/structure/link-collections.ts) of
 * all its elements. A set counts a run of repeated sibling structures once (a list of 3 methods and one of
 * 30 give the same paths), the text of headings is no part of it (an API page's headings named after its
 * own items), and attributes that carry one page's data (`id`, `href`…) are left out of the steps.
 */
import { withDefaults } from '../filled.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import type { TagLists } from './link-collections.ts';
import { UNREAD_TAGS } from './text-region.ts';
import { groupsOf, UnionFind } from './union-find.ts';

/**
 * The distinct tag-list ids of a page's elements, ascending (scripts, styles, svg… left out). With `area`
 * (the tag-list of the page's content area, >= 0), an element below it counts as the area's path followed
 * by its own step only (`area > dl class="py function"`): the kinds of blocks an article is made of, not
 * how deep its sections nest them.
 */
export function pageShape(tree: Tree, tagLists: TagLists, memo: Int32Array, area = -1): Int32Array {
  const seen = new Set<number>();
  for (let i = 0; i < tree.size; ) {
    if (tree.kind[i] !== NodeKind.Element) {
      i++;
      continue;
    }
    if (UNREAD_TAGS.has(tree.name[i]!)) {
      i = tree.end[i]!;
      continue;
    }
    const path = tagLists.pathOf(tree, i, memo);
    seen.add(area > 0 && path !== area && tagLists.hasPrefix(path, area) ? tagLists.child(area, tagLists.step(tree, i)) : path);
    i++;
  }
  return Int32Array.from(seen).sort();
}

/** How shapes are weighed and grouped (`clusterShapes`). */
export interface ShapeOptions {
  /** A path of depth d weighs decay^d: the outer blocks of a page say more about its layout than its leaves. */
  decay?: number;
  /** Weight factor of a path most pages of the set have (`templateShare`): the site's template. */
  template?: number;
  /** Share of the set's pages above which a path is template. */
  templateShare?: number;
  /**
   * Similarity at which two groups join (average linkage), or 'gap': the widest gap between consecutive
   * merge similarities of the set's own dendrogram, within [`gapLow`, `gapHigh`].
   */
  threshold?: number | 'gap';
  gapLow?: number;
  gapHigh?: number;
  /** Share of pages in groups of 3 or more below which a grouping is doubtful (`groupedShare`). */
  minGrouped?: number;
  /** Most distinct shapes grouped: the similarities take 4 bytes per pair (4000: 64 MB). */
  maxDistinct?: number;
}

/** Thrown by `clusterShapes` when a set has more distinct shapes than `ShapeOptions.maxDistinct`. */
export class TooManyShapes extends Error {
  constructor(
    readonly distinct: number,
    readonly cap: number,
  ) {
    super(`${distinct} distinct page shapes, over the cap of ${cap}`);
  }
}

/**
 * Defaults, chosen leaving one generator out over the corpus sets with classes (eval/cluster.eval.ts: decay
 * {0.8, 0.7} × template {0.1, 0.3} × cut {gap, 0.4, 0.5, 0.6}): every fold chose decay 0.8, template 0.1,
 * cut 0.5; the widest gap of the set's own merge similarities was never chosen (docs/collect.md).
 */
export const SHAPE_DEFAULTS = { decay: 0.8, template: 0.1, templateShare: 0.9, threshold: 0.5 as number | 'gap', gapLow: 0.3, gapHigh: 0.8, minGrouped: 0.7, maxDistinct: 4000 };

/**
 * The share of pages in groups of at least 3 pages. Below `ShapeOptions.minGrouped` the shapes scatter the
 * pages (prose whose markup differs from page to page: PEPs, a language's library reference) and the
 * grouping is doubtful. On the corpus sets the share is 0.91 or more where shapes group classes well, 0.63 or
 * less where they scatter them (eval/cluster.eval.ts); 0.7 lies between.
 */
export function groupedShare(groups: readonly number[]): number {
  const size = new Map<number, number>();
  for (const g of groups) size.set(g, (size.get(g) ?? 0) + 1);
  let grouped = 0;
  for (const g of groups) if (size.get(g)! >= 3) grouped++;
  return groups.length === 0 ? 1 : grouped / groups.length;
}

/** Weight of every tag-list id (indexed by id) for a set of shapes: decay^depth, template paths scaled down. */
export function shapeWeights(shapes: readonly Int32Array[], tagLists: TagLists, options: ShapeOptions = {}): Float64Array {
  const { decay, template, templateShare: share } = withDefaults(SHAPE_DEFAULTS, options);
  const df = new Int32Array(tagLists.size);
  for (const s of shapes) for (let k = 0; k < s.length; k++) df[s[k]!]!++;
  const w = new Float64Array(tagLists.size);
  const depth = new Int32Array(tagLists.size);
  for (let id = 1; id < tagLists.size; id++) {
    // A parent's id is below its children's, so its depth is known.
    depth[id] = depth[tagLists.parentOf(id)]! + 1;
    if (df[id] === 0) continue;
    w[id] = Math.pow(decay, depth[id]!) * (df[id]! >= share * shapes.length ? template : 1);
  }
  return w;
}

/** The weighted Jaccard coefficient of two shapes: the weight of the paths both have over that of either's. */
export function shapeSimilarity(a: Int32Array, b: Int32Array, w: Float64Array): number {
  let i = 0;
  let j = 0;
  let both = 0;
  let either = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      both += w[x]!;
      either += w[x]!;
      i++;
      j++;
    } else if (x < y) {
      either += w[x]!;
      i++;
    } else {
      either += w[y]!;
      j++;
    }
  }
  while (i < a.length) either += w[a[i++]!]!;
  while (j < b.length) either += w[b[j++]!]!;
  return either === 0 ? 1 : both / either;
}

/** One merge of the dendrogram: two groups (by a member item) joined at a similarity. */
interface Merge {
  a: number;
  b: number;
  sim: number;
}

/**
 * Average-linkage merges of `n` items (nearest-neighbour chain: O(n²) time, an n×n Float32Array), items
 * weighing `counts` (identical shapes counted once, weighing how many pages have them).
 */
function averageLinkage(sim: Float32Array, n: number, counts: Int32Array): Merge[] {
  const size = Float64Array.from(counts);
  const alive = new Uint8Array(n).fill(1);
  const merges: Merge[] = [];
  const chain: number[] = [];
  let remaining = n;
  while (remaining > 1) {
    if (chain.length === 0) for (let k = 0; k < n; k++) if (alive[k]) { chain.push(k); break; }
    const top = chain[chain.length - 1]!;
    const prev = chain.length > 1 ? chain[chain.length - 2]! : -1;
    let best = -1;
    let bestSim = -Infinity;
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === top) continue;
      const s = sim[top * n + k]!;
      if (s > bestSim || (s === bestSim && k === prev)) {
        best = k;
        bestSim = s;
      }
    }
    if (best === prev) {
      chain.pop();
      chain.pop();
      // Join `best` into `top`: Lance-Williams update for average linkage.
      const st = size[top]!;
      const sb = size[best]!;
      for (let k = 0; k < n; k++) {
        if (!alive[k] || k === top || k === best) continue;
        const v = (sim[top * n + k]! * st + sim[best * n + k]! * sb) / (st + sb);
        sim[top * n + k] = v;
        sim[k * n + top] = v;
      }
      size[top] = st + sb;
      alive[best] = 0;
      merges.push({ a: top, b: best, sim: bestSim });
      remaining--;
    } else chain.push(best);
  }
  return merges.sort((x, y) => y.sim - x.sim);
}

/** The cut of sorted merge similarities: a fixed threshold, or the middle of the widest gap within the bounds. */
export function cutOf(sims: readonly number[], options: ShapeOptions = {}): number {
  const { threshold, gapLow: lo, gapHigh: hi } = withDefaults(SHAPE_DEFAULTS, options);
  if (threshold !== 'gap') return threshold;
  // Candidate cuts: between consecutive merges, and at the bounds (all joined above lo, none below hi).
  const points = [hi, ...sims.filter((s) => s > lo && s < hi), lo];
  let cut = hi;
  let widest = -1;
  for (let k = 0; k + 1 < points.length; k++) {
    const gap = points[k]! - points[k + 1]!;
    if (gap > widest) {
      widest = gap;
      cut = (points[k]! + points[k + 1]!) / 2;
    }
  }
  return cut;
}

/** The result of `clusterShapes`. */
export interface ShapeClustering {
  /** Group of each input shape (same order), numbered by first page. */
  groups: number[];
  /** The similarity at which groups were cut. */
  cut: number;
  /** Similarities of the dendrogram's merges, highest first. */
  merges: number[];
}

/**
 * Groups pages by the weighted Jaccard similarity of their shapes: identical shapes are one item, items
 * are joined by average linkage (a group joins another when its pages are on average similar to the
 * other's, so that a chain of pages each a little different does not join two layouts), and the
 * dendrogram is cut at the threshold, fixed or the widest gap of the set's own merge similarities.
 */
export function clusterShapes(shapes: readonly Int32Array[], tagLists: TagLists, options: ShapeOptions = {}): ShapeClustering {
  const { maxDistinct: cap } = withDefaults(SHAPE_DEFAULTS, options);
  const w = shapeWeights(shapes, tagLists, options);
  const itemOf = new Int32Array(shapes.length);
  const items: Int32Array[] = [];
  const counts: number[] = [];
  const byKey = new Map<string, number>();
  shapes.forEach((s, i) => {
    const key = s.join(',');
    let it = byKey.get(key);
    if (it === undefined) {
      it = items.length;
      byKey.set(key, it);
      items.push(s);
      counts.push(0);
    }
    counts[it]!++;
    itemOf[i] = it;
  });
  const d = items.length;
  if (d > cap) throw new TooManyShapes(d, cap);
  const sim = new Float32Array(d * d);
  for (let a = 0; a < d; a++) {
    sim[a * d + a] = 1;
    for (let b = a + 1; b < d; b++) {
      const s = shapeSimilarity(items[a]!, items[b]!, w);
      sim[a * d + b] = s;
      sim[b * d + a] = s;
    }
  }
  const r = averageLinkageGroups(sim, d, Int32Array.from(counts), options);
  return { groups: Array.from(itemOf, (it) => r.groups[it]!), cut: r.cut, merges: r.merges };
}

/**
 * Average-linkage groups of `d` items from their similarities (`sim`, d×d, overwritten), items weighing
 * `counts`, cut at `options.threshold` (`cutOf`): the group of each item, numbered by first item.
 */
export function averageLinkageGroups(sim: Float32Array, d: number, counts: Int32Array, options: ShapeOptions = {}): ShapeClustering {
  const merges = averageLinkage(sim, d, counts);
  const cut = cutOf(merges.map((m) => m.sim), options);
  const sets = new UnionFind(d);
  for (const m of merges) if (m.sim >= cut) sets.union(m.a, m.b);
  const groups = groupsOf(sets, Array.from({ length: d }, (_, k) => k));
  return { groups, cut, merges: merges.map((m) => m.sim) };
}

/** Why a group of pages is a group (`explainShapes`). */
export interface ShapeGroupWhy {
  /** The group whose pages are on average the most similar to this one's (-1 when alone), and that similarity. */
  nearest: number;
  similarity: number;
  /** Paths that at least 90% of the group's pages have and at most 10% of the nearest group's, heaviest first. */
  apart: string[];
  /** Paths that at least 90% of the nearest group's pages have and at most 10% of this one's. */
  lacks: string[];
}

/** A path as its last steps (`… > table class="summary" > tr > td`), for reports. */
function tail(tagLists: TagLists, id: number, steps = 3): string {
  const parts = tagLists.describe(id).split(' > ');
  return (parts.length > steps ? '… > ' : '') + parts.slice(-steps).join(' > ');
}

/**
 * For each group of a grouping (`groups[i]`: the group of shape i), what sets it apart from its nearest
 * group: the average similarity of their pages, and the paths one has on (nearly) every page and the other
 * on (nearly) none. At most `limit` paths each, heaviest (outermost, not template) first.
 */
export function explainShapes(shapes: readonly Int32Array[], groups: readonly number[], tagLists: TagLists, options: ShapeOptions = {}, limit = 5): ShapeGroupWhy[] {
  const w = shapeWeights(shapes, tagLists, options);
  const n = groups.reduce((a, g) => Math.max(a, g + 1), 0);
  const members: number[][] = Array.from({ length: n }, () => []);
  groups.forEach((g, i) => members[g]!.push(i));
  const counts = members.map((ms) => {
    const c = new Map<number, number>();
    for (const i of ms) for (const id of shapes[i]!) c.set(id, (c.get(id) ?? 0) + 1);
    return c;
  });
  // Average similarity of every two groups over pairs of pages: identical shapes of a group are one item
  // weighing how many pages have it, so the cost is the square of the distinct shapes, not of the pages.
  const itemIds = new Map<string, number>();
  const itemShapes: Int32Array[] = [];
  const items = members.map((ms) => {
    const c = new Map<number, number>();
    for (const i of ms) {
      const key = shapes[i]!.join(',');
      let it = itemIds.get(key);
      if (it === undefined) {
        it = itemShapes.length;
        itemIds.set(key, it);
        itemShapes.push(shapes[i]!);
      }
      c.set(it, (c.get(it) ?? 0) + 1);
    }
    return [...c];
  });
  const nearest = new Int32Array(n).fill(-1);
  const best = new Float64Array(n).fill(-1);
  for (let g = 0; g < n; g++)
    for (let h = g + 1; h < n; h++) {
      let sum = 0;
      for (const [a, ca] of items[g]!) for (const [b, cb] of items[h]!) sum += ca * cb * (a === b ? 1 : shapeSimilarity(itemShapes[a]!, itemShapes[b]!, w));
      const avg = sum / (members[g]!.length * members[h]!.length);
      if (avg > best[g]!) [best[g], nearest[g]] = [avg, h];
      if (avg > best[h]!) [best[h], nearest[h]] = [avg, g];
    }
  const only = (g: number, h: number): string[] => {
    const out: Array<[number, number]> = [];
    for (const [id, c] of counts[g]!) {
      if (c < 0.9 * members[g]!.length) continue;
      if ((counts[h]!.get(id) ?? 0) > 0.1 * members[h]!.length) continue;
      // Only the outermost such path: its descendants are implied.
      if (tagLists.parentOf(id) > 0 && (counts[g]!.get(tagLists.parentOf(id)) ?? 0) >= 0.9 * members[g]!.length && (counts[h]!.get(tagLists.parentOf(id)) ?? 0) <= 0.1 * members[h]!.length) continue;
      out.push([id, w[id]!]);
    }
    return out.sort((x, y) => y[1] - x[1]).slice(0, limit).map(([id]) => tail(tagLists, id));
  };
  return members.map((_, g) => {
    const h = nearest[g]!;
    return h < 0 ? { nearest: -1, similarity: 0, apart: [], lacks: [] } : { nearest: h, similarity: best[g]!, apart: only(g, h), lacks: only(h, g) };
  });
}
