/**
 * Structural clustering (run: `npx tsx eval/cluster.eval.ts`): every corpus site with `classes` (sites/)
 * and every page set with known classes (clusters/, today stackoverflow) is clustered by page schema
 * (src/cluster/schema.ts: link features, frame and content, paper 4's threshold T, single linkage) and
 * scored over its labelled pages with purity and the adjusted Rand index (src/eval/metrics.ts); pages of
 * no class take part in the clustering but not in the scores. Target: purity >= 0.95 and ARI >= 0.9 on
 * every set.
 *
 * T, with the running-text words a text region needs (COLLECT_DEFAULTS.textRegionWords), the levels of
 * the frame below the content (COLLECT_DEFAULTS.layoutBelow) and the levels of the content area kept
 * (COLLECT_DEFAULTS.contentLevels), is chosen by leave-one-set-out cross-validation over GRID × WORDS ×
 * BELOW × CONTENT: for each set, the choice whose worst min(purity, ARI) over the other sets is
 * highest (then the highest mean); the set's figure at that choice is its held-out figure, printed first;
 * beside it the in-sample figure at the choice made on all sets (the defaults), and the paper's schema
 * (links only, `layout: false`) at its own held-out T.
 * Page shapes (src/structure/page-shape.ts) are chosen leaving one generator out over decay × template weight ×
 * cut × whether the content area's elements count by their own step (`flatContent`).
 * The synthetic sites (test/fixtures/synthetic-sites.ts) are clustered at the in-sample T, apart. Beside the
 * schema, the content method (src/cluster/content.ts) on clusters/. Writes eval/results/cluster.json.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterByContent } from '../src/cluster/content.ts';
import { cluster } from '../src/run/cluster.ts';
import { groupByShape, groupByStructure, groupSchemas, groupShapes, readStructures, schemasOf, splitBySections, type SchemaClustering, type SchemaSet, type StructureSet } from '../src/cluster/schema.ts';
import { SHAPE_DEFAULTS, type ShapeOptions } from '../src/structure/page-shape.ts';
import { COLLECT_DEFAULTS } from '../src/structure/defaults.ts';
import { classOf, listSites, loadClusters } from '../src/eval/corpus.ts';
import { adjustedRandIndex, mean, purity } from '../src/eval/metrics.ts';
import { MemorySource } from '../src/site/memory-source.ts';
import { openSource } from '../src/site/source.ts';
import { syntheticSites } from '../test/fixtures/synthetic-sites.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';
import { SITE_GENERATORS } from './cross-validation.ts';
import { leaveOneGroupOut, leaveOneOut } from './loso.ts';

/** Candidate thresholds T, the paper's first (preferred on ties). */
const GRID = [0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5];
/**
 * Candidate text region minimum words (the default first), levels of the frame below the content,
 * and levels of the content area's structure (0: no content part).
 */
const WORDS = [20, 50];
const BELOW = [0, 1];
const CONTENT = [1, 0];

/** One choice of options. */
interface Choice {
  T: number;
  words: number;
  below: number;
  content: number;
}

const CHOICES: Choice[] = WORDS.flatMap((words) => CONTENT.flatMap((content) => BELOW.flatMap((below) => GRID.map((T) => ({ T, words, below, content })))));
const label = (c: Choice): string => `T ${c.T}, words ${c.words}, below ${c.below}, content ${c.content}`;
const readKey = (words: number, below: number, content: number): string => `${words}/${below}/${content}`;

interface LabelledSet {
  name: string;
  /** key → class, labelled pages only. */
  gold: Map<string, string>;
  /** Schemas with layouts per `readKey(words, below, content)`, and the paper's (links only, words 50). */
  withLayout: Map<string, SchemaSet>;
  linksOnly: SchemaSet;
  /** The structures read with the default text region minimum (for page shapes). */
  structures: StructureSet;
  /** The same, the content area's elements in each shape by their own step (`flatContent`). */
  flatStructures: StructureSet;
  synthetic: boolean;
  /** Directory of a clusters/ set (for the content method). */
  dir?: string;
}

interface Score {
  purity: number;
  ari: number;
  clusters: number;
}

function score(set: SchemaSet, gold: ReadonlyMap<string, string>, T: number): Score {
  const r = groupSchemas(set, T);
  const pred = new Map<string, string>();
  for (const [k, c] of r.assignment) if (gold.has(k)) pred.set(k, c);
  return { purity: purity(pred, gold), ari: adjustedRandIndex(pred, gold), clusters: r.clusters.length };
}

/** Worst, then mean, of min(purity, ARI) over some sets. */
function objective(scores: ReadonlyArray<Score>): number[] {
  const v = scores.map((s) => Math.min(s.purity, s.ari));
  return v.length === 0 ? [0, 0] : [Math.min(...v), mean(v)];
}

/** Reads a set once per text region minimum, and makes its schemas for every (below, content). */
async function readAll(read: (words: number, flat?: boolean) => Promise<StructureSet>): Promise<{ withLayout: Map<string, SchemaSet>; linksOnly: SchemaSet; structures: StructureSet; flatStructures: StructureSet }> {
  const withLayout = new Map<string, SchemaSet>();
  let linksOnly: SchemaSet | undefined;
  let structures: StructureSet | undefined;
  for (const w of WORDS) {
    const set = await read(w);
    if (w === COLLECT_DEFAULTS.textRegionWords) structures = set;
    for (const b of BELOW) for (const c of CONTENT) withLayout.set(readKey(w, b, c), schemasOf(set, { layoutBelow: b, contentLevels: c }));
    if (w === 50) linksOnly = schemasOf(set, { layout: false });
  }
  return { withLayout, linksOnly: linksOnly!, structures: structures!, flatStructures: await read(COLLECT_DEFAULTS.textRegionWords, true) };
}

/** A page-shape choice: its options, and whether the content area's elements count by their own step. */
type ShapeChoice = ShapeOptions & { flat: boolean };
/** Candidate page-shape options (src/structure/page-shape.ts), the defaults first. */
const SHAPE_CHOICES: ShapeChoice[] = [false, true].flatMap((flat) =>
  [0.8, 0.7].flatMap((decay) => [0.1, 0.3].flatMap((template) => ['gap' as const, 0.4, 0.5, 0.6].map((threshold) => ({ decay, template, threshold, flat })))),
);
const shapeLabel = (o: ShapeChoice): string => `decay ${o.decay}, template ${o.template}, cut ${o.threshold}${o.flat ? ', flat content' : ''}`;
/** The structures a shape choice reads. */
const structuresOf = (s: LabelledSet, o: ShapeChoice): StructureSet => (o.flat ? s.flatStructures : s.structures);

function shapeScore(set: StructureSet, gold: ReadonlyMap<string, string>, options: ShapeOptions, fallback = false): Score & { cut: number } {
  const r = fallback ? groupByShape(set, options) : groupShapes(set, options);
  const pred = new Map<string, string>();
  for (const [k, c] of r.assignment) if (gold.has(k)) pred.set(k, c);
  return { purity: purity(pred, gold), ari: adjustedRandIndex(pred, gold), clusters: r.clusters.length, cut: r.cut };
}

/** The generator of a set: sites by cross-validation.ts, a clusters/ set its own. */
const generatorOf = (name: string): string => SITE_GENERATORS[name] ?? name;

/** Leave one generator out: for each set, the candidate best on the sets of other generators. */
function leaveOneGeneratorOut<C>(candidates: readonly C[], units: readonly string[], score: (c: C, us: readonly string[]) => number[]): { heldOut: Map<string, C>; inSample: C } {
  return leaveOneGroupOut(candidates, units, generatorOf, score);
}

/**
 * Per class of a set at one clustering: the share of the class's pages in its largest cluster (together)
 * and the share of that cluster's labelled pages that are of the class (apart).
 */
function classFigures(r: SchemaClustering, gold: ReadonlyMap<string, string>): string[][] {
  const byClass = new Map<string, Map<string, number>>();
  const clusterSize = new Map<string, number>();
  for (const [k, cls] of gold) {
    const c = r.assignment.get(k);
    if (c === undefined) continue;
    const m = byClass.get(cls) ?? new Map<string, number>();
    m.set(c, (m.get(c) ?? 0) + 1);
    byClass.set(cls, m);
    clusterSize.set(c, (clusterSize.get(c) ?? 0) + 1);
  }
  return [...byClass].map(([cls, m]) => {
    const n = [...m.values()].reduce((a, b) => a + b, 0);
    const [top, inTop] = [...m].sort((a, b) => b[1] - a[1])[0]!;
    return [cls, String(n), String(m.size), fmt(inTop / n), fmt(inTop / clusterSize.get(top)!)];
  });
}

/** `npx tsx eval/cluster.eval.ts [--defaults] [set…]`: some sets only; `--defaults`: the defaults only, per class, no choice. */
const args = process.argv.slice(2);
const ONLY = args.filter((a) => !a.startsWith('--'));
const DEFAULTS_ONLY = args.includes('--defaults');
const wanted = (name: string): boolean => ONLY.length === 0 || ONLY.includes(name);

/** The class of each labelled page of a site, by key. */
function goldClasses(site: Parameters<typeof classOf>[0]): Map<string, string> {
  const gold = new Map<string, string>();
  for (const k of site.files()) {
    const c = classOf(site, k);
    if (c !== undefined) gold.set(k, c);
  }
  return gold;
}

await runEval('cluster', async () => {
  if (DEFAULTS_ONLY) {
    const rows: string[][] = [];
    for (const site of listSites()) {
      if (!site.classes || !wanted(site.name)) continue;
      const gold = goldClasses(site);
      const source = await openSource(site.pagesDir);
      try {
        const structures = await readStructures(source);
        const set = schemasOf(structures);
        const s = score(set, gold, COLLECT_DEFAULTS.clusterSimilarity);
        rows.push([site.name, 'schema', '(all)', String(gold.size), String(s.clusters), fmt(s.purity), fmt(s.ari)]);
        for (const c of classFigures(groupSchemas(set, COLLECT_DEFAULTS.clusterSimilarity), gold)) rows.push([site.name, 'schema', c[0]!, c[1]!, c[2]!, c[3]!, c[4]!]);
        const sh = shapeScore(structures, gold, SHAPE_DEFAULTS);
        const covered = groupByShape(structures, SHAPE_DEFAULTS).grouped;
        rows.push([site.name, `shape (cut ${fmt(sh.cut, 2)}, in clusters >= 3: ${fmt(covered, 2)})`, '(all)', String(gold.size), String(sh.clusters), fmt(sh.purity), fmt(sh.ari)]);
        for (const c of classFigures(groupShapes(structures, SHAPE_DEFAULTS), gold)) rows.push([site.name, 'shape', c[0]!, c[1]!, c[2]!, c[3]!, c[4]!]);
      } finally {
        await source.close();
      }
    }
    process.stdout.write('Defaults, per set and class (class: clusters it spans, share in its largest cluster, share of that cluster that is the class)\n' + formatTable(['set', 'method', 'class', 'pages', 'clusters', 'purity | together', 'ARI | apart'], rows) + '\n');
    return;
  }
  const sets: LabelledSet[] = [];
  for (const site of listSites()) {
    if (!site.classes || !wanted(site.name)) continue;
    const gold = goldClasses(site);
    const read = async (words: number, flat = false): Promise<StructureSet> => {
      const source = await openSource(site.pagesDir);
      try {
        return await readStructures(source, { textRegionWords: words, flatContent: flat });
      } finally {
        await source.close();
      }
    };
    sets.push({ name: site.name, gold, ...(await readAll(read)), synthetic: false });
  }
  for (const c of loadClusters()) {
    const read = async (words: number, flat = false): Promise<StructureSet> => {
      const source = await openSource(c.dir);
      try {
        return await readStructures(source, { textRegionWords: words, flatContent: flat });
      } finally {
        await source.close();
      }
    };
    sets.push({ name: c.name, gold: new Map(c.gold), ...(await readAll(read)), synthetic: false, dir: c.dir });
  }
  for (const s of syntheticSites()) {
    const gold = new Map<string, string>();
    for (const k of s.files.keys()) for (const [cls, re] of Object.entries(s.classes)) if (re.test(k)) gold.set(k, cls);
    const read = async (words: number, flat = false): Promise<StructureSet> =>
      readStructures(new MemorySource([...s.files].map(([key, body]) => ({ key, body })), { entry: s.entry }), { textRegionWords: words, flatContent: flat });
    sets.push({ name: s.name, gold, ...(await readAll(read)), synthetic: true });
  }

  const corpus = sets.filter((s) => !s.synthetic);
  const units = corpus.map((s) => s.name);
  const withLayout = new Map(CHOICES.map((c) => [c, new Map(sets.map((s) => [s.name, score(s.withLayout.get(readKey(c.words, c.below, c.content))!, s.gold, c.T)]))]));
  const linksOnly = new Map(GRID.map((T) => [T, new Map(sets.map((s) => [s.name, score(s.linksOnly, s.gold, T)]))]));
  const layoutCv = leaveOneOut(CHOICES, units, (c, us) => objective(us.map((u) => withLayout.get(c)!.get(u)!)));
  const paperCv = leaveOneOut(GRID, units, (T, us) => objective(us.map((u) => linksOnly.get(T)!.get(u)!)));

  const rows = sets.map((s) => {
    const held = s.synthetic ? layoutCv.inSample : layoutCv.heldOut.get(s.name)!;
    const h = withLayout.get(held)!.get(s.name)!;
    const i = withLayout.get(layoutCv.inSample)!.get(s.name)!;
    const pT = s.synthetic ? paperCv.inSample : paperCv.heldOut.get(s.name)!;
    const p = linksOnly.get(pT)!.get(s.name)!;
    return [s.name + (s.synthetic ? ' (synthetic)' : ''), String(s.gold.size), String(new Set(s.gold.values()).size), label(held), fmt(h.purity), fmt(h.ari), String(h.clusters), fmt(i.purity), fmt(i.ari), String(pT), fmt(p.purity), fmt(p.ari)];
  });
  process.stdout.write(
    `Schema (links and layout): held-out choice per set; in sample ${label(layoutCv.inSample)}; the paper's schema (links only) at its own held-out T\n` +
      formatTable(['set', 'labelled', 'classes', 'held-out choice', 'purity', 'ARI', 'clusters', 'purity (in)', 'ARI (in)', 'T paper', 'purity paper', 'ARI paper'], rows) +
      '\n\n',
  );
  const gridRows = CHOICES.map((c) => [label(c), ...corpus.map((s) => { const x = withLayout.get(c)!.get(s.name)!; return `${fmt(x.purity, 2)}/${fmt(x.ari, 2)}`; })]);
  process.stdout.write('Every choice (purity/ARI, links and layout):\n' + formatTable(['choice', ...units], gridRows) + '\n\n');

  // The content method on clusters/ (paper 1's application, template removed): k by silhouette and k = classes.
  const contentRows: string[][] = [];
  const contentResults: Record<string, unknown>[] = [];
  for (const s of corpus) {
    if (s.dir === undefined) continue;
    const classes = new Set(s.gold.values()).size;
    for (const k of [undefined, classes]) {
      const src = await openSource(s.dir);
      try {
        const r = await clusterByContent(src, k !== undefined ? { k } : {});
        const assignment = new Map([...r.assignment].map(([key, v]) => [key, String(v)]));
        const method = k === undefined ? 'content, k by silhouette' : 'content, k = classes';
        const p = purity(assignment, s.gold);
        const a = adjustedRandIndex(assignment, s.gold);
        contentRows.push([s.name, method, String(r.clusters.length), fmt(p), fmt(a)]);
        contentResults.push({ set: s.name, method, purity: p, ari: a, k: r.k });
      } finally {
        await src.close();
      }
    }
  }
  if (contentRows.length > 0) process.stdout.write(formatTable(['set', 'method', 'clusters', 'purity', 'ARI'], contentRows) + '\n\n');

  // Page shapes (src/structure/page-shape.ts), options chosen leaving one generator out.
  // The choice scores the method as `--by shape` runs it (the schema where shapes scatter the pages): sets
  // meeting the target, then the mean of min(purity, ARI); a set no choice rescues does not decide it.
  const shapeScores = new Map(SHAPE_CHOICES.map((o) => [o, new Map(corpus.map((s) => [s.name, shapeScore(structuresOf(s, o), s.gold, o)]))]));
  const byShapeScores = new Map(SHAPE_CHOICES.map((o) => [o, new Map(corpus.map((s) => [s.name, shapeScore(structuresOf(s, o), s.gold, o, true)]))]));
  const metThenMean = (scores: Score[]): number[] => [scores.filter((x) => x.purity >= 0.95 && x.ari >= 0.9).length, mean(scores.map((x) => Math.min(x.purity, x.ari)))];
  const shapeCv = leaveOneGeneratorOut(SHAPE_CHOICES, units, (o, us) => metThenMean(us.map((u) => byShapeScores.get(o)!.get(u)!)));
  const schemaByGenerator = leaveOneGeneratorOut(CHOICES, units, (c, us) => objective(us.map((u) => withLayout.get(c)!.get(u)!)));
  const shapeRows: string[][] = [];
  const fallbackScores = new Map<string, Score>();
  const autoScores = new Map<string, Score>();
  const sectionScores = new Map<string, Score & { sections: number; split: number }>();
  for (const s of corpus) {
    const o = shapeCv.heldOut.get(s.name)!;
    const h = shapeScores.get(o)!.get(s.name)!;
    const c = schemaByGenerator.heldOut.get(s.name)!;
    const sc = withLayout.get(c)!.get(s.name)!;
    const fb = groupByShape(structuresOf(s, o), o);
    const f = byShapeScores.get(o)!.get(s.name)!;
    fallbackScores.set(s.name, f);
    // `--by auto` with both choices held out (the structures read with the default text region minimum,
    // the one every fold chose).
    const auto = groupByStructure(structuresOf(s, o), c.T, { layoutBelow: c.below, contentLevels: c.content }, o);
    const autoPred = new Map([...auto.assignment].filter(([k]) => s.gold.has(k)));
    const au = { purity: purity(autoPred, s.gold), ari: adjustedRandIndex(autoPred, s.gold), clusters: auto.clusters.length };
    autoScores.set(s.name, au);
    // The command's default: `--by auto`, then split by the site's sections (src/structure/sections.ts).
    const split = splitBySections(auto, structuresOf(s, o));
    const splitPred = new Map([...split.assignment].filter(([k]) => s.gold.has(k)));
    const sp = { purity: purity(splitPred, s.gold), ari: adjustedRandIndex(splitPred, s.gold), clusters: split.clusters.length };
    sectionScores.set(s.name, { ...sp, sections: split.sections?.length ?? 0, split: split.split ?? 0 });
    shapeRows.push([s.name, generatorOf(s.name), fmt(sc.purity), fmt(sc.ari), String(sc.clusters), shapeLabel(o), fmt(h.cut, 2), fmt(h.purity), fmt(h.ari), String(h.clusters), fmt(fb.grouped, 2), fb.fallback ? 'schema' : 'shape', fmt(f.purity), fmt(f.ari), auto.method, fmt(au.purity), fmt(au.ari), `${split.sections?.length ?? 0}/${split.split ?? 0}`, fmt(sp.purity), fmt(sp.ari), String(sp.clusters)]);
    for (const f of classFigures(groupShapes(structuresOf(s, o), o), s.gold)) shapeRows.push(['', `  ${f[0]}`, '', '', '', `${f[1]} pages`, '', fmt(Number(f[3])), fmt(Number(f[4])), f[2]!]);
  }
  // The command's default as a whole (`--by auto`, then split by sections): its schema options chosen
  // leaving one generator out on the pipeline's own figures (the shape options as held out above).
  const autoChoices = CHOICES.filter((c) => c.words === COLLECT_DEFAULTS.textRegionWords);
  const pipeline = new Map<Choice, Map<string, Score>>();
  for (const c of autoChoices) {
    const m = new Map<string, Score>();
    for (const s of corpus) {
      const o = shapeCv.heldOut.get(s.name)!;
      const split = splitBySections(groupByStructure(structuresOf(s, o), c.T, { layoutBelow: c.below, contentLevels: c.content }, o), structuresOf(s, o));
      const pred = new Map([...split.assignment].filter(([k]) => s.gold.has(k)));
      m.set(s.name, { purity: purity(pred, s.gold), ari: adjustedRandIndex(pred, s.gold), clusters: split.clusters.length });
    }
    pipeline.set(c, m);
  }
  const pipelineCv = leaveOneGeneratorOut(autoChoices, units, (c, us) => objective(us.map((u) => pipeline.get(c)!.get(u)!)));
  const pipelineRows = corpus.map((s) => {
    const c = pipelineCv.heldOut.get(s.name)!;
    const h = pipeline.get(c)!.get(s.name)!;
    const i = pipeline.get(pipelineCv.inSample)!.get(s.name)!;
    const off = autoScores.get(s.name)!;
    return [s.name, generatorOf(s.name), label(c), fmt(h.purity), fmt(h.ari), String(h.clusters), fmt(i.purity), fmt(i.ari), `${sectionScores.get(s.name)!.sections}`, fmt(off.purity), fmt(off.ari)];
  });
  process.stdout.write(
    `--by auto split by sections (the command's default), schema options held out by generator on the pipeline; in sample ${label(pipelineCv.inSample)}; beside it --by auto without sections (held out as above)\n` +
      formatTable(['set', 'generator', 'held-out choice', 'purity', 'ARI', 'clusters', 'purity (in)', 'ARI (in)', 'sections', 'purity no sections', 'ARI no sections'], pipelineRows) +
      '\n\n',
  );
  process.stdout.write(
    `Held out by generator: schema (links and layout) against page shape; per class: share in its largest cluster, share of that cluster that is the class, clusters it spans. Shape in sample: ${shapeLabel(shapeCv.inSample)}\n` +
      formatTable(['set', 'generator', 'purity schema', 'ARI schema', 'clusters', 'shape choice', 'cut', 'purity shape', 'ARI shape', 'clusters', 'grouped', '--by shape', 'purity', 'ARI', '--by auto', 'purity', 'ARI', 'sections/split', 'purity', 'ARI', 'clusters'], shapeRows) +
      '\n\n',
  );
  const shapeGrid = SHAPE_CHOICES.map((o) => [shapeLabel(o), ...corpus.map((s) => { const x = shapeScores.get(o)!.get(s.name)!; const y = byShapeScores.get(o)!.get(s.name)!; return `${fmt(x.purity, 2)}/${fmt(x.ari, 2)} → ${fmt(y.purity, 2)}/${fmt(y.ari, 2)}`; })]);
  process.stdout.write('Every shape choice (purity/ARI of the shapes alone → of --by shape, the schema where shapes scatter):\n' + formatTable(['choice', ...units], shapeGrid) + '\n\n');

  // Every corpus site with classes in one folder, a folder per site, as `gabarit cluster` takes it (its
  // defaults): each site's pages must be grouped as when the site is alone.
  const mixed = mkdtempSync(join(tmpdir(), 'gabarit-mixed-'));
  const mixedRows: string[][] = [];
  let mixedMet = 0;
  let mixedSites = 0;
  try {
    const named = listSites().filter((site) => site.classes && wanted(site.name));
    for (const site of named) cpSync(site.pagesDir, join(mixed, site.name), { recursive: true });
    const r = await cluster(mixed, { workers: 0 });
    const found = new Set((r.summary['sites'] as Array<{ site: string }> | undefined)?.map((x) => x.site) ?? []);
    for (const site of named) {
      const gold = new Map([...goldClasses(site)].map(([k, c]) => [`${site.name}/${k}`, c]));
      const pred = new Map([...r.assignment].filter(([k]) => gold.has(k)));
      const x = { purity: purity(pred, gold), ari: adjustedRandIndex(pred, gold) };
      const a = await cluster(site.pagesDir, { workers: 0, gold: goldClasses(site) });
      if (x.purity >= 0.95 && x.ari >= 0.9) mixedMet++;
      mixedSites++;
      mixedRows.push([site.name, found.has(site.name) ? 'yes' : 'no', fmt(x.purity), fmt(x.ari), `${fmt(a.scores.purity)}/${fmt(a.scores.adjustedRandIndex)}`]);
    }
  } finally {
    rmSync(mixed, { recursive: true, force: true });
  }
  process.stdout.write('Every site in one folder (a folder per site), `gabarit cluster` at its defaults; beside it the folder of the site alone, the same defaults\n' + formatTable(['site', 'found as a site', 'purity', 'ARI', 'alone purity/ARI'], mixedRows) + '\n\n');

  const heldScores = units.map((u) => withLayout.get(layoutCv.heldOut.get(u)!)!.get(u)!);
  const met = heldScores.filter((x) => x.purity >= 0.95 && x.ari >= 0.9).length;
  const so = units.includes('stackoverflow') ? withLayout.get(layoutCv.heldOut.get('stackoverflow')!)!.get('stackoverflow')! : undefined;
  const headline = {
    'choice on all sets': label(layoutCv.inSample),
    'choice held out per set': units.map((u) => `${u}: ${label(layoutCv.heldOut.get(u)!)}`).join('; '),
    'held-out sets with purity >= 0.95 and ARI >= 0.9': `${met}/${units.length}`,
    'held-out mean purity': mean(heldScores.map((x) => x.purity)),
    'page shape, held out by generator: sets with purity >= 0.95 and ARI >= 0.9': `${units.filter((u) => { const x = shapeScores.get(shapeCv.heldOut.get(u)!)!.get(u)!; return x.purity >= 0.95 && x.ari >= 0.9; }).length}/${units.length}`,
    '--by auto (the default: schema, shape where shapes split its largest cluster), held out by generator: sets with purity >= 0.95 and ARI >= 0.9': `${units.filter((u) => { const x = autoScores.get(u)!; return x.purity >= 0.95 && x.ari >= 0.9; }).length}/${units.length}`,
    '--by auto split by sections (the command\'s default), options held out by generator on the pipeline: sets with purity >= 0.95 and ARI >= 0.9': `${units.filter((u) => { const x = pipeline.get(pipelineCv.heldOut.get(u)!)!.get(u)!; return x.purity >= 0.95 && x.ari >= 0.9; }).length}/${units.length}`,
    '--by auto split by sections, in sample choice': label(pipelineCv.inSample),
    '--by shape (schema where shapes scatter), held out by generator: sets with purity >= 0.95 and ARI >= 0.9': `${units.filter((u) => { const x = fallbackScores.get(u)!; return x.purity >= 0.95 && x.ari >= 0.9; }).length}/${units.length}`,
    'schema, held out by generator: sets with purity >= 0.95 and ARI >= 0.9': `${units.filter((u) => { const x = withLayout.get(schemaByGenerator.heldOut.get(u)!)!.get(u)!; return x.purity >= 0.95 && x.ari >= 0.9; }).length}/${units.length}`,
    'held-out mean ARI': mean(heldScores.map((x) => x.ari)),
    'held-out worst ARI': Math.min(...heldScores.map((x) => x.ari)),
    'every site in one folder (a folder per site), the defaults: sites with purity >= 0.95 and ARI >= 0.9': `${mixedMet}/${mixedSites}`,
    'stackoverflow held-out purity': so?.purity ?? null,
    'stackoverflow held-out ARI': so?.ari ?? null,
  };
  for (const [k, v] of Object.entries(headline)) process.stdout.write(`${k}: ${typeof v === 'number' ? fmt(v) : v}\n`);
  if (ONLY.length > 0) return; // a partial run is printed, never written over the full figures
  const toObj = <K>(t: Map<K, Map<string, Score>>, key: (k: K) => string): Record<string, Record<string, Score>> => Object.fromEntries([...t].map(([k, m]) => [key(k), Object.fromEntries(m)]));
  process.stdout.write(
    `wrote ${writeResults('cluster', headline, {
      heldOut: Object.fromEntries([...layoutCv.heldOut].map(([u, c]) => [u, c])),
      inSample: layoutCv.inSample,
      paperHeldOutT: Object.fromEntries(paperCv.heldOut),
      withLayout: toObj(withLayout, label),
      linksOnly: toObj(linksOnly, String),
      content: contentResults,
      shapeHeldOutByGenerator: Object.fromEntries([...shapeCv.heldOut].map(([u, o]) => [u, { choice: shapeLabel(o), ...shapeScores.get(o)!.get(u)!, byShape: fallbackScores.get(u) }])),
      autoHeldOutByGenerator: Object.fromEntries(autoScores),
      autoSectionsHeldOutByGenerator: Object.fromEntries([...pipelineCv.heldOut].map(([u, c]) => [u, { choice: label(c), ...pipeline.get(c)!.get(u)! }])),
      schemaHeldOutByGenerator: Object.fromEntries([...schemaByGenerator.heldOut].map(([u, c]) => [u, { choice: label(c), ...withLayout.get(c)!.get(u)! }])),
    })}\n`,
  );
});
