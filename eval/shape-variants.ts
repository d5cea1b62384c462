/**
 * Variants of the page shape measured and left (run: `npx tsx eval/shape-variants.ts [set…]`; docs/collect.md,
 * "Page classes across generators"). Each corpus set with classes (sites/ and clusters/) is read once; for
 * each variant, the similarity of every two pages is computed, pages are grouped by average linkage
 * (src/structure/page-shape.ts `averageLinkageGroups`) cut at 0.3 … 0.7, and scored over the labelled pages:
 * purity/ARI/clusters at each cut, and the mean similarity of two pages of one class and of two classes.
 * The variants:
 *  - features: `page` (the tag-lists of all elements, as `--by shape`), `content` (those under the page's
 *    content area), `below<L>` (those at most L levels below the site's content depth), `gram<k>` (the last
 *    k steps of each tag-list, wherever it lies);
 *  - weights: decay^depth (1 for step grams), times `template` for paths 90% of the pages have, times
 *    `rare` for paths fewer than max(2, 3% of the pages) have;
 *  - combined with the page schema (src/structure/page-schema.ts): the mean of both similarities; the shape
 *    similarity times min(1, J(link features) / 0.9); 0 when J(link features) < 0.6; or the link features'
 *    Jaccard coefficient alone.
 */
import { readStructures, schemasOf, type StructureSet } from '../src/cluster/schema.ts';
import { contentArea } from '../src/structure/page-structure.ts';
import { classOf, listSites, loadClusters } from '../src/eval/corpus.ts';
import { adjustedRandIndex, mean, purity } from '../src/eval/metrics.ts';
import { openSource } from '../src/site/source.ts';
import { jaccard, similarity as schemaSimilarity, type PageSchema } from '../src/structure/page-schema.ts';
import { averageLinkageGroups, shapeSimilarity } from '../src/structure/page-shape.ts';
import { fmt, formatTable, runEval } from './harness.ts';

interface Variant {
  name: string;
  features: string;
  decay: number;
  template: number;
  rare: number;
  combine?: 'mean' | 'scale' | 'veto' | 'links';
}

const VARIANTS: Variant[] = [
  { name: 'page, decay 0.8, template 0.1 (--by shape)', features: 'page', decay: 0.8, template: 0.1, rare: 1 },
  { name: 'content area, decay 0.8', features: 'content', decay: 0.8, template: 1, rare: 1 },
  ...[1, 2, 3].map((l) => ({ name: `${l} below content, template 0.1`, features: `below${l}`, decay: 1, template: 0.1, rare: 1 })),
  ...[2, 3].map((k) => ({ name: `step ${k}-grams, template 0.1`, features: `gram${k}`, decay: 1, template: 0.1, rare: 1 })),
  { name: 'page, rare paths 0.1', features: 'page', decay: 0.8, template: 0.1, rare: 0.1 },
  { name: 'mean of schema and shape (template 0.3)', features: 'page', decay: 1, template: 0.3, rare: 1, combine: 'mean' },
  { name: 'shape × link features / 0.9', features: 'page', decay: 0.8, template: 0.1, rare: 1, combine: 'scale' },
  { name: 'shape, link features < 0.6 veto', features: 'page', decay: 0.8, template: 0.1, rare: 1, combine: 'veto' },
  { name: 'link features alone', features: 'page', decay: 0.8, template: 0.1, rare: 1, combine: 'links' },
];
const CUTS = [0.3, 0.4, 0.5, 0.6, 0.7];

/** The features of every page of a set under a variant, as sorted ids (step grams hashed to ids). */
function featuresOf(set: StructureSet, features: string): Int32Array[] {
  const tl = set.tagLists;
  return set.structures.map((s) => {
    if (features === 'content') {
      const a = contentArea(s, tl, set.contentDepth);
      return a < 0 ? s.shape : s.shape.filter((id) => tl.hasPrefix(id, a));
    }
    if (features.startsWith('below')) return s.shape.filter((id) => tl.depth(id) <= set.contentDepth + Number(features.slice(5)));
    if (features.startsWith('gram')) {
      const k = Number(features.slice(4));
      const grams = new Set<number>();
      for (const id of s.shape) {
        const steps = tl.steps(id).slice(-k);
        let h = 0x811c9dc5;
        for (const st of steps) h = Math.imul(h ^ st, 0x01000193);
        grams.add(h | 0);
      }
      return Int32Array.from(grams).sort();
    }
    return s.shape;
  });
}

/** Weight of each feature id of a set under a variant (a Map: step grams are hashed ids). */
function weightsOf(set: StructureSet, feats: Int32Array[], v: Variant): Map<number, number> {
  const df = new Map<number, number>();
  for (const f of feats) for (const id of f) df.set(id, (df.get(id) ?? 0) + 1);
  const n = feats.length;
  const w = new Map<number, number>();
  for (const [id, c] of df) {
    const depth = v.features.startsWith('gram') ? 0 : set.tagLists.depth(id);
    w.set(id, Math.pow(v.decay, depth) * (c >= 0.9 * n ? v.template : c < Math.max(2, 0.03 * n) ? v.rare : 1));
  }
  return w;
}

function similarityOf(v: Variant, a: Int32Array, b: Int32Array, w: Float64Array, sa: PageSchema, sb: PageSchema): number {
  const shape = shapeSimilarity(a, b, w);
  const links = (): number => jaccard(sa.links, sb.links);
  switch (v.combine) {
    case 'mean':
      return (shape + schemaSimilarity(sa, sb)) / 2;
    case 'scale':
      return shape * Math.min(1, links() / 0.9);
    case 'veto':
      return links() < 0.6 ? 0 : shape;
    case 'links':
      return links();
    default:
      return shape;
  }
}

await runEval('shape-variants', async () => {
  const only = process.argv.slice(2);
  const sets: Array<{ name: string; dir: string; cls: (key: string) => string | undefined }> = [
    ...listSites()
      .filter((s) => s.classes)
      .map((s) => ({ name: s.name, dir: s.pagesDir, cls: (k: string) => classOf(s, k) })),
    ...loadClusters().map((c) => ({ name: c.name, dir: c.dir, cls: (k: string) => c.gold.get(k) })),
  ].filter((s) => only.length === 0 || only.includes(s.name));
  const rows: string[][] = [];
  for (const spec of sets) {
    const source = await openSource(spec.dir);
    let set: StructureSet;
    try {
      set = await readStructures(source);
    } finally {
      await source.close();
    }
    const schemas = schemasOf(set).schemas;
    const n = set.keys.length;
    const gold = new Map<string, string>();
    for (const k of set.keys) {
      const c = spec.cls(k);
      if (c !== undefined) gold.set(k, c);
    }
    for (const v of VARIANTS) {
      const feats = featuresOf(set, v.features);
      // Dense ids for the weights' array.
      const dense = new Map<number, number>();
      const ids = feats.map((f) => Int32Array.from(f, (id) => dense.get(id) ?? (dense.set(id, dense.size), dense.size - 1)).sort());
      const wm = weightsOf(set, feats, v);
      const w = new Float64Array(dense.size);
      for (const [id, k] of dense) w[k] = wm.get(id)!;
      const sim = new Float32Array(n * n);
      const within: number[] = [];
      const across: number[] = [];
      for (let i = 0; i < n; i++) {
        sim[i * n + i] = 1;
        for (let j = i + 1; j < n; j++) {
          const s = similarityOf(v, ids[i]!, ids[j]!, w, schemas[i]!, schemas[j]!);
          sim[i * n + j] = sim[j * n + i] = s;
          const ci = gold.get(set.keys[i]!);
          const cj = gold.get(set.keys[j]!);
          if (ci !== undefined && cj !== undefined) (ci === cj ? within : across).push(s);
        }
      }
      const cells = CUTS.map((cut) => {
        const r = averageLinkageGroups(Float32Array.from(sim), n, new Int32Array(n).fill(1), { threshold: cut });
        const pred = new Map<string, string>();
        set.keys.forEach((k, i) => gold.has(k) && pred.set(k, String(r.groups[i])));
        return `${fmt(purity(pred, gold), 2)}/${fmt(adjustedRandIndex(pred, gold), 2)}/${new Set(r.groups).size}`;
      });
      rows.push([spec.name, v.name, fmt(mean(within), 2), fmt(mean(across), 2), ...cells]);
    }
  }
  process.stdout.write(formatTable(['set', 'variant', 'within', 'across', ...CUTS.map((c) => `cut ${c}: P/ARI/k`)], rows) + '\n');
});
