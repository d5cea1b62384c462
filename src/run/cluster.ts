/**
 * `cluster(source, { by })`: the pages of a source grouped by structure or by content, as a library call:
 * what `gabarit cluster` runs (src/cluster/).
 *  - `by: 'auto'` (default): by page schema, unless the page shapes show that its largest cluster holds
 *    several layouts, then by page shape (`clusterSourceByStructure`); given `similarity` or `layout`, by
 *    page schema;
 *  - `'schema'`: paper 4's page schemas joined at `similarity`; `'shape'`: page shapes (by page schema
 *    where the shapes scatter the pages); `'content'`: the similarity of their content once the template
 *    is removed.
 * The result has the clusters, each page's cluster, the failures, the doubts and warnings (unprefixed:
 * the command names the source before each), the scores against `gold`, and `summary` (summary.json);
 * `writeCluster` writes `clusters.json` and `summary.json`; `clusterCommand` is the command's run from its flags.
 * By schema or shape, the pages' structures are read on `workers` threads (`structuresOn`).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { withDefaults } from '../filled.ts';
import type { PageFailure } from '../output.ts';
import { type CommandHooks, interruptionOf, overSource } from './command.ts';
import type { ClusterFlags, OutFlags, SourceFlags } from './options.ts';
import { cutFields, networkLoads, openInput } from './source.ts';
import type { CommandSummary, RunControls, SourceInput } from './types.ts';
import type { ForeignStructure, SchemaClusterOptions } from '../cluster/schema.ts';
import type { Structure } from '../structure/page-structure.ts';
import { defaultWorkers } from '../template/pool.ts';

export type ClusterBy = 'auto' | 'schema' | 'shape' | 'content';

/** Options of `cluster`. */
export interface ClusterOptions extends Pick<RunControls, 'sourceOptions' | 'onProgress'> {
  by?: ClusterBy;
  /** Threshold of similar schemas (by schema; default COLLECT_DEFAULTS.clusterSimilarity). */
  similarity?: number;
  /** Compare page layouts beside link tag-lists (by schema; default COLLECT_DEFAULTS.layout). */
  layout?: boolean;
  /** Pages of one structure in different sections of the site are different clusters (by auto, schema, shape; default true). */
  sections?: boolean;
  /** Number of clusters by content (default: chosen by silhouette). */
  k?: number;
  /** Page key → class: the result then has the purity and adjusted Rand index. */
  gold?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /** The source's name in the summary (default: the path or URL given, or the source's root). */
  name?: string;
  /** Worker threads reading the pages' structures (by schema or shape; 0: the main thread; default: one per core). */
  workers?: number;
}

/** A cluster as clusters.json has it: its id, its pages and what the grouping says of it. */
export interface ClusterEntry {
  id: string;
  keys: string[];
  [extra: string]: unknown;
}

/** What `cluster` gives. */
export interface ClusterResult {
  clusters: ClusterEntry[];
  /** Page key → cluster id. */
  assignment: Map<string, string>;
  failures: PageFailure[];
  /** What makes the grouping doubtful (summary.json `doubts`). */
  doubts: string[];
  /** Diagnostics that are not doubts of the grouping (the shapes scattered the pages). */
  warnings: string[];
  /** Purity and adjusted Rand index, with `gold`. */
  scores: { purity?: number; adjustedRandIndex?: number };
  summary: CommandSummary & Record<string, unknown> & { command: 'cluster'; method: ClusterBy };
}

/** Groups the pages of `source` (see the module comment). */
export async function cluster(source: SourceInput, options: ClusterOptions = {}): Promise<ClusterResult> {
  const start = performance.now();
  const [{ COLLECT_DEFAULTS: D }, schema] = await Promise.all([import('../structure/defaults.ts'), import('../cluster/schema.ts')]);
  const by = options.by ?? 'auto';
  const { similarity, layout, sections } = withDefaults({ similarity: D.clusterSimilarity, layout: D.layout, sections: D.sections }, options);
  // Given a similarity or a layout choice, the schema is what was asked for: auto groups by it.
  const schemaAsked = options.similarity !== undefined || options.layout !== undefined;
  const progress = options.onProgress;
  const reader = structuresOn(options.workers ?? defaultWorkers());
  const opened = await openInput(source, options.sourceOptions ? { sourceOptions: options.sourceOptions } : {});
  let clusters: ClusterEntry[];
  let assignment: Map<string, string>;
  let failures: PageFailure[];
  let extra: Record<string, unknown> = {};
  const doubts: string[] = [];
  const warnings: string[] = [];
  try {
    const src = opened.source;
    if (by === 'auto' && !schemaAsked) {
      const r = await schema.clusterSourceByStructure(src, { similarity, layout, reader, sections, ...(progress ? { onPage: (n: number) => progress('structure', n) } : {}) });
      clusters = r.clusters.map((c) => ({ id: c.id, keys: c.keys, schemas: c.schemas, ...(c.schema.length === 0 ? {} : { schema: c.schema }), why: c.why, ...sectionOf(c) }));
      ({ assignment, failures } = r);
      const methods = new Set((r.sites ?? []).map((x) => x.groupedBy));
      extra = { groupedBy: methods.size > 1 ? 'per site' : r.method, similarity, layout, ...(r.cut === undefined || methods.size > 1 ? {} : { cut: r.cut }), ...sectionsOf(r) };
      doubts.push(...(r.doubts ?? []));
    } else if (by === 'schema' || by === 'auto') {
      const r = await schema.clusterSourceBySchema(src, { similarity, layout, reader, sections, ...(progress ? { onPage: (n: number) => progress('schema', n) } : {}) });
      clusters = r.clusters.map((c) => ({ id: c.id, keys: c.keys, schemas: c.schemas, schema: c.schema, why: c.why, ...sectionOf(c) }));
      ({ assignment, failures } = r);
      extra = { ...(by === 'auto' ? { groupedBy: 'schema' } : {}), similarity, layout, ...sectionsOf(r) };
      doubts.push(...(r.doubts ?? []));
    } else if (by === 'shape') {
      const r = await schema.clusterSourceByShape(src, { reader, sections, ...(progress ? { onPage: (n: number) => progress('shape', n) } : {}) });
      clusters = r.clusters.map((c) => ({ id: c.id, keys: c.keys, ...(r.fallback ? { schemas: c.schemas, schema: c.schema } : { shapes: c.schemas }), why: c.why, ...sectionOf(c) }));
      ({ assignment, failures } = r);
      extra = { cut: r.cut, grouped: r.grouped, fallback: r.fallback ? 'schema' : null, ...sectionsOf(r) };
      if (r.capped !== undefined) doubts.push(`${r.capped}: grouped by page schema instead`);
      else if (r.fallback) warnings.push(`page shapes left ${((1 - r.grouped) * 100).toFixed(0)}% of the pages in groups of 1 or 2: grouped by page schema instead`);
    } else {
      const { clusterByContent } = await import('../cluster/content.ts');
      const { engineRunner } = await import('./pooled.ts');
      const runner = engineRunner(options.workers ?? defaultWorkers());
      let r: Awaited<ReturnType<typeof clusterByContent>>;
      try {
        r = await clusterByContent(src, { runner, ...(options.k !== undefined ? { k: options.k } : {}), ...(progress ? { onProgress: progress } : {}) });
      } finally {
        await runner.close();
      }
      clusters = r.clusters.map((c) => ({ id: `c${c.id}`, keys: c.keys, terms: c.terms }));
      assignment = new Map([...r.assignment].map(([k, v]) => [k, `c${v}`]));
      failures = r.failures;
      extra = { k: r.k, silhouette: r.silhouette, templateRemoved: r.templateRemoved };
    }
  } finally {
    await opened.close();
  }
  if (by !== 'content') doubts.push(...schema.clusteringDoubts(assignment.size, clusters.length));
  const scores: ClusterResult['scores'] = {};
  if (options.gold !== undefined) {
    const gold = options.gold instanceof Map ? options.gold : new Map(Object.entries(options.gold));
    const { purity, adjustedRandIndex } = await import('../eval/metrics.ts');
    scores.purity = purity(assignment, gold);
    scores.adjustedRandIndex = adjustedRandIndex(assignment, gold);
  }
  const summary: ClusterResult['summary'] = {
    command: 'cluster',
    method: by,
    source: options.name ?? opened.spec,
    pagesLoaded: networkLoads(opened.source),
    ...cutFields(opened.source.cut),
    timings: { total: Math.round(performance.now() - start) },
    pagesDone: assignment.size,
    pagesFailed: failures.length,
    failures,
    clusters: clusters.length,
    doubts,
    sizes: clusters.map((c) => c.keys.length),
    ...extra,
    ...scores,
  };
  return { clusters, assignment, failures, doubts, warnings, scores, summary };
}

/** A cluster's group of sections (schema.ts `splitBySections`), when the site has sections. */
const sectionOf = (c: { section?: string }): { section?: string } => (c.section === undefined ? {} : { section: c.section });
/** summary.json's `sites` (a folder of several sites, each grouped alone), `sections` and `splitBySection`, when there are some. */
const sectionsOf = (r: { sections?: unknown; split?: number; sites?: unknown }): Record<string, unknown> => ({
  ...(r.sites === undefined ? {} : { sites: r.sites }),
  ...(r.sections === undefined ? {} : { sections: r.sections, splitBySection: r.split }),
});

/**
 * Reads the structures of a source's pages on `workers` threads (page-pool.ts `eachPage`, the `structure`
 * task): each page read on a worker is merged in source order (schema.ts `StructureCollector`), so the
 * set, and the clustering, are those of a read on the main thread.
 */
function structuresOn(workers: number): NonNullable<SchemaClusterOptions['reader']> {
  return async (source, options) => {
    const [{ eachPage, failureOf }, { StructureCollector, structureOptions }] = await Promise.all([import('./page-pool.ts'), import('../cluster/schema.ts')]);
    const c = new StructureCollector(source, options);
    const task = { kind: 'structure' as const, options: structureOptions(options), ...(options.tagLists ? { tagLists: options.tagLists } : {}) };
    type Read = { here: Structure } | { foreign: ForeignStructure | null };
    const pages = eachPage<Read>(source.pages(), { task, workers, inline: (page) => ({ here: c.here(page) }), received: (a) => ({ foreign: a['structure'] as ForeignStructure | null }) });
    for await (const h of pages) {
      if (!h.ok) {
        c.fail(h.failure);
        continue;
      }
      const { page, value } = h;
      try {
        // A page whose links only the source's keyOf can tell (`foreign` null) is read here, in its turn.
        c.add(page.key, 'here' in value ? value.here : value.foreign !== null ? c.foreign(value.foreign) : c.here(page));
      } catch (err) {
        c.fail(failureOf(page, err));
      }
    }
    return c.result();
  };
}

/** Writes a clustering in `dir`: `clusters.json` and `summary.json` (with `extra` fields). */
export async function writeCluster(result: ClusterResult, dir: string, extra: Record<string, unknown> = {}): Promise<void> {
  const { OutputWriter } = await import('../output.ts');
  const writer = new OutputWriter(dir);
  await writer.writeJson('clusters.json', result.clusters);
  await writer.writeJson('summary.json', { ...result.summary, ...extra });
}

/** The gold classes of a JSON file (an object page key → class), for `cluster`'s scores; a UsageError when it cannot be read. */
export function readGold(file: string): Map<string, string> {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
  } catch (e) {
    throw new UsageError(`cannot read the gold classes ${file}: ${(e as Error).message}`);
  }
}

/**
 * `gabarit cluster` without printing: reads `flags.gold`, opens `spec` with the source options, runs
 * `cluster` and writes its files in `flags.out`; warnings, failed pages and doubts go to the hooks.
 * `similarity` and `layout` left out are not given (`by: 'auto'` then chooses by itself).
 */
export async function clusterCommand(
  spec: string,
  flags: Omit<ClusterFlags, 'similarity' | 'layout'> & Partial<Pick<ClusterFlags, 'similarity' | 'layout'>> & SourceFlags & OutFlags,
  hooks: CommandHooks = {},
): Promise<ClusterResult & { dir: string }> {
  const gold = flags.gold !== undefined ? readGold(flags.gold) : undefined;
  const dir = resolve(flags.out);
  const r = await overSource(spec, flags, hooks, (source) =>
    cluster(source, {
      by: flags.by,
      name: spec,
      ...(flags.similarity !== undefined ? { similarity: flags.similarity } : {}),
      ...(flags.layout !== undefined ? { layout: flags.layout } : {}),
      sections: flags.sections,
      ...(flags.k !== undefined ? { k: flags.k } : {}),
      ...(gold !== undefined ? { gold } : {}),
      workers: flags.workers,
      ...(hooks.progress ? { onProgress: hooks.progress } : {}),
    }),
  );
  for (const w of r.warnings) hooks.warn?.(`${spec}: ${w}`);
  for (const f of r.failures) hooks.failure?.(f);
  for (const d of r.doubts) hooks.warn?.(`${spec}: ${d}`);
  await writeCluster(r, dir, interruptionOf(hooks));
  hooks.onSummary?.(join(dir, 'summary.json'), r.summary.pagesDone);
  return { ...r, dir };
}
