/**
 * Structural clustering by page schema (paper 4, section 2: "Pages can be grouped by their schema into
 * clusters"; pages are similar when the Jaccard coefficient of their schemas is at least T). Every page of
 * a source is reduced to its schema (the set of its link collections' tag-lists, src/collect/), pages of
 * identical schema form a cluster, and clusters whose schemas are similar are joined transitively
 * (src/structure/schema-clusters.ts `clusterBySchema`). The paper's conclusion names this "download everything and
 * cluster it" approach as the alternative INDESIT avoids on large sites; on a page set already at hand it
 * is the direct way to group pages by structure. A schema is the page's link tag-lists and its layout
 * (src/structure/page-schema.ts; or their shapes, src/structure/page-shape.ts); figures per site in docs/collect.md (eval/cluster.eval.ts).
 */
import { clusterBySchema } from '../structure/schema-clusters.ts';
import { COLLECT_DEFAULTS } from '../structure/defaults.ts';
import { LayoutDepth } from '../structure/layout.ts';
import { isInPageAnchor, type TagListEntries, type TagListOptions, TagLists } from '../structure/link-collections.ts';
import type { PageSchema, SchemaOptions } from '../structure/page-schema.ts';
import { readStructure, remapStructure, schemaOfStructure, type Structure, type StructureOptions, type StructureSchemaOptions } from '../structure/page-structure.ts';
import { LabelTable } from '../html/labels.ts';
import type { PageFailure } from '../errors.ts';
import { extractLinks, normalizeUrl } from '../site/links.ts';
import { type Page, parsePage, type PageSource } from '../site/page.ts';
import { withDefaults } from '../filled.ts';
import { firstFolder, type SectionOptions, Sections, sectionsApart, sitesOf } from '../structure/sections.ts';
import { UnionFind } from '../structure/union-find.ts';
import { clusterShapes, explainShapes, groupedShare, SHAPE_DEFAULTS, type ShapeOptions, shapeWeights, TooManyShapes } from '../structure/page-shape.ts';

/** Options of `clusterSourceBySchema`. */
export interface SchemaClusterOptions {
  /** T (default COLLECT_DEFAULTS.clusterSimilarity). */
  similarity?: number;
  tagLists?: TagListOptions;
  /** One collection for the links of a page's text region (default COLLECT_DEFAULTS.textRegion; false = the paper). */
  textRegion?: boolean;
  /** Compare page layouts too (default COLLECT_DEFAULTS.layout; false = the paper's schema of links). */
  layout?: boolean;
  /** Running-text words a page needs to have a text region (default COLLECT_DEFAULTS.textRegionWords). */
  textRegionWords?: number;
  /** Levels of the layout kept below the content depth (default COLLECT_DEFAULTS.layoutBelow). */
  layoutBelow?: number;
  /** The links of a list make one schema feature (default COLLECT_DEFAULTS.listRoots). */
  listRoots?: boolean;
  /** Levels of the content area's structure kept (default COLLECT_DEFAULTS.contentLevels). */
  contentLevels?: number;
  /** Read each page's shape too (src/structure/page-shape.ts; default true). */
  shape?: boolean;
  /** Split the clusters by the site's sections (`splitBySections`; default COLLECT_DEFAULTS.sections; needs the shapes). */
  sections?: boolean;
  /** In each page's shape, the content area's elements by their own step (page-structure.ts `flatContent`). */
  flatContent?: boolean;
  /** Which collections make the schema (default: all of them, off-site ones included). */
  schema?: SchemaOptions;
  /** Called per page loaded (progress). */
  onPage?: (done: number, key: string) => void;
  /** Reads the structures instead of `readStructures`' one pass (on several threads: src/run/cluster.ts). */
  reader?: (source: PageSource, options: SchemaClusterOptions) => Promise<StructureSet>;
}

/** One group of pages of similar structure. */
export interface SchemaCluster {
  /** 'c0', 'c1', … numbered by first page in source order. */
  id: string;
  keys: string[];
  /** Distinct schemas joined in this group. */
  schemas: number;
  /** The tag-lists of its first page's schema (links). */
  schema: string[];
  /** By page shape: its nearest cluster and what sets it apart (src/structure/page-shape.ts `explainShapes`). */
  why?: { nearest: string | null; similarity: number; apart: string[]; lacks: string[] };
  /** Its group of the site's sections (`splitBySections`), when the site has sections. */
  section?: string;
}

/** The result of a structural clustering. */
export interface SchemaClustering {
  /** Page key → cluster id. */
  assignment: Map<string, string>;
  clusters: SchemaCluster[];
  failures: PageFailure[];
  /** What makes the grouping doubtful (`layoutDoubt`); absent or empty when nothing does. */
  doubts?: string[];
  /** The sections it was split by (`splitBySections`), when the site has some. */
  sections?: SectionSplit['sections'];
  /** Clusters split by section. */
  split?: number;
  /** The sites of a folder holding several, each grouped on its own (`perSite`). */
  sites?: SiteGrouping[];
}

/** A site of a folder holding several (`sitesOf`; '' for the pages outside any), grouped on its own. */
export interface SiteGrouping {
  site: string;
  pages: number;
  clusters: number;
  /** By auto: what the site's pages were grouped by. */
  groupedBy?: 'schema' | 'shape';
}

/** The structures of a page set, read once (to make schemas with several options). */
export interface StructureSet {
  readonly keys: string[];
  /** Per page, its structure (link collections without their links: only their tag-lists are needed). */
  readonly structures: Structure[];
  readonly tagLists: TagLists;
  /** The depth of the site's content: the median over its pages (layout.ts `LayoutDepth`). */
  readonly contentDepth: number;
  readonly failures: PageFailure[];
  /** Per page, the first folders of the source's pages it links to (`sitesOf`: a folder of several sites). */
  readonly linked?: ReadonlyArray<readonly string[]>;
}

/** The schemas of a page set. */
export interface SchemaSet {
  readonly keys: string[];
  readonly schemas: PageSchema[];
  readonly tagLists: TagLists;
  readonly failures: PageFailure[];
}

/** How `readStructure` reads each page for the options of a clustering (the source's `keyOf` aside). */
export function structureOptions(options: SchemaClusterOptions): StructureOptions {
  return {
    ...(options.textRegion === undefined ? {} : { textRegion: options.textRegion }),
    ...(options.textRegionWords === undefined ? {} : { textRegionWords: options.textRegionWords }),
    ...(options.listRoots === undefined ? {} : { listRoots: options.listRoots }),
    ...(options.contentLevels === undefined ? {} : { contentLevels: options.contentLevels }),
    shape: options.shape !== false,
    ...(options.flatContent === undefined ? {} : { flatContent: options.flatContent }),
  };
}

/**
 * A page's structure read on another thread (`structureElsewhere`): its own tag-lists, to be merged in
 * order; per collection, its links' URLs and whether it may leave the site (not the text region's), for
 * the source's `keyOf` to tell.
 */
export interface ForeignStructure {
  structure: Structure;
  tagLists: TagListEntries;
  urls: string[][];
  mayLeave: boolean[];
}

/**
 * Reads a page's structure with a table of its own and no `keyOf` (a worker thread's part of
 * `StructureCollector`); null when a link of the page is a fragment of another URL, whose `keyOf` could
 * make it a link to the page itself: that page is read where the source is.
 */
export function structureElsewhere(page: Page, options: StructureOptions, tagListOptions?: TagListOptions): ForeignStructure | null {
  const tree = parsePage(page, new LabelTable({ attributes: 'none' }));
  const self = normalizeUrl(page.url) ?? page.url;
  for (const { url, node } of extractLinks(tree, page.url, { duplicates: true, selfLinks: true })) if (url !== self && isInPageAnchor(tree, node)) return null;
  const tagLists = new TagLists(tagListOptions);
  // Every URL a key of its own: a link is to the page itself by its URL only, as checked above.
  const s = readStructure(tree, page.url, tagLists, { ...options, keyOf: (url) => url });
  const regionLinks = s.layout.region >= 0 ? tagLists.textLinks(s.layout.region) : -1;
  return {
    structure: { ...s, collections: s.collections.map((c) => ({ ...c, links: [] })) },
    tagLists: tagLists.entries(),
    urls: s.collections.map((c) => [...new Set(c.links.map((l) => l.url))]),
    mayLeave: s.collections.map((c) => c.tagList !== regionLinks),
  };
}

/**
 * The structures of a source's pages gathered in source order, each read here (`read`) or on another
 * thread (`foreign`), with the ids a one-pass read gives (`readStructures`).
 */
export class StructureCollector {
  private readonly labels = new LabelTable({ attributes: 'none' });
  private readonly tagLists: TagLists;
  private readonly keys: string[] = [];
  private readonly structures: Structure[] = [];
  private readonly depth = new LayoutDepth();
  private readonly failures: PageFailure[] = [];
  private readonly read: StructureOptions;
  private readonly linked: string[][] = [];
  /** A link's folder → the first folder of the pages there, null off the source (`keyOf` once per folder). */
  private readonly folderOf = new Map<string, string | null>();

  constructor(
    private readonly source: PageSource,
    private readonly options: SchemaClusterOptions,
  ) {
    this.tagLists = new TagLists(options.tagLists);
    this.read = structureOptions(options);
  }

  /** A page's structure read here (added by `add`, in order). */
  here(page: Page): Structure {
    const tree = parsePage(page, this.labels);
    return readStructure(tree, page.url, this.tagLists, { keyOf: (url) => this.source.keyOf(url), ...this.read });
  }

  /** A page's structure read elsewhere, made this set's (added by `add`, in order). */
  foreign(f: ForeignStructure): Structure {
    const s = remapStructure(f.structure, this.tagLists.merge(f.tagLists), this.tagLists);
    const onSite = (urls: string[]): boolean => urls.some((u) => this.source.keyOf(u) !== undefined);
    return { ...s, collections: s.collections.map((c, i) => ({ ...c, links: f.urls[i]!.map((url) => ({ url, anchor: '' })), offSite: f.mayLeave[i]! && !onSite(f.urls[i]!) })) };
  }

  /** The first folders of the source's pages that a structure's links lead to. */
  private foldersLinked(s: Structure): string[] {
    const out = new Set<string>();
    for (const c of s.collections) {
      for (const l of c.links) {
        const url = l.url.split('?')[0]!;
        const dir = url.slice(0, url.lastIndexOf('/') + 1);
        let f = this.folderOf.get(dir);
        if (f === undefined) {
          const k = this.source.keyOf(l.url);
          f = k === undefined ? null : firstFolder(k);
          // A name without a dot may be a folder (`../library`, served as `library/index.html`): not its folder's.
          if (url.slice(dir.length).includes('.')) this.folderOf.set(dir, f);
        }
        if (f !== null) out.add(f);
      }
    }
    return [...out];
  }

  /** The next page of the source, in order. */
  add(key: string, s: Structure): void {
    this.linked.push(this.foldersLinked(s));
    this.structures.push({ ...s, collections: s.collections.map((c) => ({ ...c, links: [] })) });
    this.depth.add(s.contentDepth, s.layout.region >= 0);
    this.keys.push(key);
    this.options.onPage?.(this.keys.length, key);
  }

  fail(f: PageFailure): void {
    this.failures.push(f);
  }

  result(): StructureSet {
    return { keys: this.keys, structures: this.structures, tagLists: this.tagLists, contentDepth: this.depth.value, failures: this.failures, linked: this.linked };
  }
}

/**
 * Reads the structures of the pages of a source, in one pass: each page's link collections (their tag-lists
 * and schema features), text region and layout paths (integers only), and the median depth of the content
 * of the site's pages once every page has been read (layout.ts). `options.reader`, when given, reads them.
 */
export async function readStructures(source: PageSource, options: SchemaClusterOptions = {}): Promise<StructureSet> {
  if (options.reader) return options.reader(source, options);
  const c = new StructureCollector(source, options);
  for await (const r of source.pages()) {
    if (!r.ok) c.fail({ url: r.url, key: r.key, code: r.error.code, message: r.error.message });
    else c.add(r.page.key, c.here(r.page));
  }
  return c.result();
}

/** The schemas of a structure set (structure.ts `schemaOfStructure`, cut at the site's content depth). */
export function schemasOf(set: StructureSet, options: SchemaClusterOptions = {}): SchemaSet {
  // A page set at hand need not hold its site's graph (saved pages link to their live site): every
  // collection counts, as in the paper, unless told otherwise.
  const schemaOptions: StructureSchemaOptions = {
    offSiteLinks: true,
    ...options.schema,
    ...(options.layout === undefined ? {} : { layout: options.layout }),
    ...(options.layoutBelow === undefined ? {} : { layoutBelow: options.layoutBelow }),
    ...(options.contentLevels === undefined ? {} : { contentLevels: options.contentLevels }),
  };
  const schemas = set.structures.map((s) => schemaOfStructure(s, set.tagLists, set.contentDepth, schemaOptions));
  return { keys: set.keys, schemas, tagLists: set.tagLists, failures: set.failures };
}

/** Reads the schemas of the pages of a source (`readStructures`, then `schemasOf`). */
export async function readSchemas(source: PageSource, options: SchemaClusterOptions = {}): Promise<SchemaSet> {
  return schemasOf(await readStructures(source, options), options);
}

/** Groups a schema set at threshold T (src/structure/schema-clusters.ts `clusterBySchema`). */
export function groupSchemas(set: SchemaSet, threshold: number = COLLECT_DEFAULTS.clusterSimilarity): SchemaClustering {
  const { keys, schemas, tagLists } = set;
  const groups = clusterBySchema(schemas, threshold);
  const assignment = new Map<string, string>();
  const clusters: SchemaCluster[] = [];
  const distinct: Array<Set<string>> = [];
  for (let i = 0; i < keys.length; i++) {
    const g = groups[i]!;
    if (clusters[g] === undefined) {
      clusters[g] = { id: `c${g}`, keys: [], schemas: 0, schema: [...schemas[i]!.links].map((t) => tagLists.describe(t)) };
      distinct[g] = new Set();
    }
    clusters[g]!.keys.push(keys[i]!);
    distinct[g]!.add(schemas[i]!.links.join(',') + '|' + schemas[i]!.layout.join(',') + '|' + schemas[i]!.content.join(','));
    assignment.set(keys[i]!, `c${g}`);
  }
  clusters.forEach((c, g) => (c.schemas = distinct[g]!.size));
  return { assignment, clusters, failures: set.failures };
}

/** `SchemaClusterOptions` defaults (COLLECT_DEFAULTS). */
const SCHEMA_CLUSTER_DEFAULTS = { similarity: COLLECT_DEFAULTS.clusterSimilarity };

/** Groups the pages of a source by the similarity of their schemas (`readSchemas`, then `groupSchemas`). */
export async function clusterSourceBySchema(source: PageSource, options: SchemaClusterOptions = {}): Promise<SchemaClustering> {
  const { similarity } = withDefaults(SCHEMA_CLUSTER_DEFAULTS, options);
  const set = await readStructures(source, options);
  return perSite(set, (part, base) => {
    const r = groupSchemas(schemasOf(part, options), similarity);
    if (options.shape === false) return r;
    const c = layoutDoubt(part, r);
    return bySections({ ...r, doubts: c === null ? [] : [c.layouts ? `${c.message}: see --by shape` : c.message] }, part, options, base);
  });
}

/** The pages `at` of a structure set as a set of their own, its content depth theirs. */
function partOf(set: StructureSet, at: readonly number[]): StructureSet {
  const depth = new LayoutDepth();
  for (const i of at) depth.add(set.structures[i]!.contentDepth, set.structures[i]!.layout.region >= 0);
  return { keys: at.map((i) => set.keys[i]!), structures: at.map((i) => set.structures[i]!), tagLists: set.tagLists, contentDepth: depth.value, failures: [] };
}

/**
 * `group` run on each site of a folder holding several side by side (`sitesOf`), each site's sections
 * found in its own folder (`base`), as if each site were clustered alone: what a set decides from all its
 * pages (the depth of the content, the weights of shapes, whether one cluster holds several layouts) is
 * then each site's. The clusters are numbered again by first page in source order, doubts prefixed by
 * their site. On the whole set when it is one site.
 */
function perSite<R extends SchemaClustering>(set: StructureSet, group: (part: StructureSet, base: string) => R): R {
  const sites = set.linked === undefined ? null : sitesOf(set.keys, set.linked);
  if (sites === null) return group(set, '');
  const parts = [...sites].map(([site, at]) => ({ site, r: group(partOf(set, at), site === '' ? '' : `${site}/`) }));
  const position = new Map(set.keys.map((k, i) => [k, i]));
  const all = parts.flatMap(({ site, r }) => r.clusters.map((c) => ({ site, c })));
  all.sort((a, b) => position.get(a.c.keys[0]!)! - position.get(b.c.keys[0]!)!);
  const idOf = new Map(all.map((x, i) => [`${x.site}\u0000${x.c.id}`, `c${i}`]));
  const clusters = all.map(({ site, c }) => {
    const renamed: SchemaCluster = { ...c, id: idOf.get(`${site}\u0000${c.id}`)! };
    if (c.why !== undefined) renamed.why = { ...c.why, nearest: c.why.nearest === null ? null : (idOf.get(`${site}\u0000${c.why.nearest}`) ?? null) };
    return renamed;
  });
  const of = new Map<string, string>();
  for (const c of clusters) for (const k of c.keys) of.set(k, c.id);
  const sections = parts.flatMap(({ r }) => r.sections ?? []);
  const largest = parts.reduce((a, b) => (b.r.assignment.size > a.r.assignment.size ? b : a)).r;
  return {
    ...largest,
    clusters,
    assignment: new Map(set.keys.filter((k) => of.has(k)).map((k) => [k, of.get(k)!])),
    failures: set.failures,
    doubts: parts.flatMap(({ site, r }) => (r.doubts ?? []).map((d) => (site === '' ? d : `${site}/: ${d}`))),
    ...(sections.length > 0 ? { sections, split: parts.reduce((n, { r }) => n + (r.split ?? 0), 0) } : { sections: undefined, split: undefined }),
    sites: parts.map(({ site, r }) => ({ site, pages: r.assignment.size, clusters: r.clusters.length, ...('method' in r ? { groupedBy: r.method as 'schema' | 'shape' } : {}) })),
  };
}

/**
 * A grouping split by the site's sections unless `options.sections` is false (`splitBySections`), each
 * cluster with why (`explainClusters`).
 */
function bySections<R extends SchemaClustering>(r: R, set: StructureSet, options: Pick<SchemaClusterOptions, 'sections'>, base = ''): R {
  return explainClusters(options.sections ?? COLLECT_DEFAULTS.sections ? { ...r, ...splitBySections(r, set, { base }) } : r, set);
}

/**
 * Each cluster of a grouping with what sets it apart from its nearest cluster (page-shape.ts
 * `explainShapes`: their pages' mean shape similarity, the paths one has on nearly every page and the other
 * on nearly none), however the pages were grouped. Left as is past `SHAPE_DEFAULTS.maxDistinct` distinct
 * shapes (the comparison costs their square).
 */
export function explainClusters<R extends SchemaClustering>(r: R, set: StructureSet): R {
  const shapes = set.structures.map((x) => x.shape);
  if (r.clusters.length < 2 || shapes.some((x) => x.length === 0) || new Set(shapes.map((x) => x.join(','))).size > SHAPE_DEFAULTS.maxDistinct) return r;
  const index = new Map(r.clusters.map((c, g) => [c.id, g]));
  const groups = set.keys.map((k) => index.get(r.assignment.get(k)!)!);
  const why = explainShapes(shapes, groups, set.tagLists);
  const clusters = r.clusters.map((c, g) => {
    const y = why[g]!;
    return { ...c, why: { nearest: y.nearest < 0 ? null : r.clusters[y.nearest]!.id, similarity: Math.round(y.similarity * 1000) / 1000, apart: y.apart, lacks: y.lacks } };
  });
  return { ...r, clusters };
}

/** A grouping by `clusterSourceByStructure`: by page schema, or by page shape where the schema's doubtful. */
export type StructureClustering = SchemaClustering & { method: 'schema' | 'shape'; cut?: number };

/**
 * Groups the pages of a source by page schema, unless the page shapes show that its largest cluster holds
 * several layouts (`layoutDoubt`): then by page shape (`groupByShape`), the doubt kept as the reason.
 */
export async function clusterSourceByStructure(source: PageSource, options: SchemaClusterOptions & { shapeOptions?: ShapeOptions } = {}): Promise<StructureClustering> {
  const { similarity } = withDefaults(SCHEMA_CLUSTER_DEFAULTS, options);
  const set = await readStructures(source, { ...options, shape: true });
  return perSite(set, (part, base) => bySections(groupByStructure(part, similarity, options, options.shapeOptions), part, options, base));
}

/** `clusterSourceByStructure` on structures already read, the schema grouped at `threshold`. */
export function groupByStructure(set: StructureSet, threshold: number, schemaOptions: SchemaClusterOptions = {}, shapeOptions: ShapeOptions = {}): StructureClustering {
  const r = groupSchemas(schemasOf(set, schemaOptions), threshold);
  const c = layoutDoubt(set, r, shapeOptions);
  if (c === null || !c.layouts) return { ...r, doubts: c === null ? [] : [c.message], method: 'schema' };
  const s = groupByShape(set, shapeOptions);
  return { ...s, doubts: [`${c.message}: grouped by page shape`], method: 'shape', cut: s.cut };
}

/**
 * Whether the largest cluster of a grouping by schema holds several layouts: it holds at least 20 pages and
 * half of the set, and the page shapes (when they group the set: `groupedShare`) split its pages into two
 * groups or more of at least 5 pages and a tenth of it each (rustdoc-std: function, macro, keyword and
 * module pages in one cluster of 299 by schema). Null when not; `layouts` false when the check was refused
 * (too many distinct shapes).
 */
export function layoutDoubt(set: StructureSet, r: SchemaClustering, options: ShapeOptions = {}): { layouts: boolean; message: string } | null {
  const { minGrouped } = withDefaults(SHAPE_DEFAULTS, options);
  const largest = r.clusters.reduce<SchemaCluster | undefined>((a, c) => (a === undefined || c.keys.length > a.keys.length ? c : a), undefined);
  if (largest === undefined || largest.keys.length < 20 || largest.keys.length < 0.5 * set.keys.length) return null;
  const holds = `cluster ${largest.id} holds ${largest.keys.length} of ${set.keys.length} pages`;
  let shapes: ReturnType<typeof clusterShapes>;
  try {
    shapes = clusterShapes(set.structures.map((x) => x.shape), set.tagLists, options);
  } catch (e) {
    if (e instanceof TooManyShapes) return { layouts: false, message: `${holds}; whether it holds several layouts was not checked: ${e.message}` };
    throw e;
  }
  if (groupedShare(shapes.groups) < minGrouped) return null;
  const index = new Map(set.keys.map((k, i) => [k, i]));
  const sizes = new Map<number, number>();
  for (const k of largest.keys) {
    const g = shapes.groups[index.get(k)!]!;
    sizes.set(g, (sizes.get(g) ?? 0) + 1);
  }
  const layouts = [...sizes.values()].filter((n) => n >= 5 && n >= 0.1 * largest.keys.length).sort((a, b) => b - a);
  if (layouts.length < 2) return null;
  return { layouts: true, message: `${holds}, which page shapes split into ${layouts.length} layouts (${layouts.join(', ')} pages)` };
}

/** A grouping by page shape, or by page schema where the shapes scatter the pages. */
export type ShapeClusteringResult = SchemaClustering & {
  /** The similarity the shapes were cut at. */
  cut: number;
  /** Share of pages in shape groups of 3 pages or more (page-shape.ts `groupedShare`). */
  grouped: number;
  /** True when the shapes scattered the pages (or were too many) and the page schema grouped them instead. */
  fallback: boolean;
  /** Why the shapes were not grouped at all (page-shape.ts `TooManyShapes`). */
  capped?: string;
};

/**
 * Groups the pages of a source by page shape (`readStructures`, then `groupShapes`); where the shapes
 * scatter the pages (fewer than `minGrouped` of them in groups of 3 or more), by page schema
 * (`groupSchemas` at its defaults), and says so (`fallback`).
 */
export async function clusterSourceByShape(source: PageSource, options: SchemaClusterOptions & { shapeOptions?: ShapeOptions } = {}): Promise<ShapeClusteringResult> {
  const set = await readStructures(source, { ...options, shape: true });
  return perSite(set, (part, base) => bySections(groupByShape(part, options.shapeOptions), part, options, base));
}

/** `clusterSourceByShape` on structures already read. */
export function groupByShape(set: StructureSet, options: ShapeOptions = {}): ShapeClusteringResult {
  const { minGrouped } = withDefaults(SHAPE_DEFAULTS, options);
  let r: ReturnType<typeof groupShapes>;
  try {
    r = groupShapes(set, options);
  } catch (e) {
    if (!(e instanceof TooManyShapes)) throw e;
    return { ...groupSchemas(schemasOf(set)), cut: Number.NaN, grouped: 0, fallback: true, capped: e.message };
  }
  const grouped = groupedShare(set.keys.map((k) => Number(r.assignment.get(k)!.slice(1))));
  if (grouped >= minGrouped) return { ...r, grouped, fallback: false };
  return { ...groupSchemas(schemasOf(set)), cut: r.cut, grouped, fallback: true };
}

/**
 * Groups a structure set by page shape (src/structure/page-shape.ts: the weighted tag paths of every
 * element, average linkage, a threshold fixed or from the set's own gap), as `groupSchemas` does by schema.
 */
export function groupShapes(set: StructureSet, options: ShapeOptions = {}): SchemaClustering & { cut: number } {
  const r = clusterShapes(set.structures.map((s) => s.shape), set.tagLists, options);
  const assignment = new Map<string, string>();
  const clusters: SchemaCluster[] = [];
  const distinct: Array<Set<string>> = [];
  set.keys.forEach((key, i) => {
    const g = r.groups[i]!;
    if (clusters[g] === undefined) {
      clusters[g] = { id: `c${g}`, keys: [], schemas: 0, schema: [] };
      distinct[g] = new Set();
    }
    clusters[g]!.keys.push(key);
    distinct[g]!.add(set.structures[i]!.shape.join(','));
    assignment.set(key, `c${g}`);
  });
  const why = explainShapes(set.structures.map((s) => s.shape), r.groups, set.tagLists, options);
  clusters.forEach((c, g) => {
    c.schemas = distinct[g]!.size;
    const y = why[g]!;
    c.why = { nearest: y.nearest < 0 ? null : `c${y.nearest}`, similarity: Math.round(y.similarity * 1000) / 1000, apart: y.apart, lacks: y.lacks };
  });
  return { assignment, clusters, failures: set.failures, cut: r.cut };
}

/**
 * What makes a grouping of `pages` pages into `clusters` doubtful: nearly every page its own cluster (at
 * least 10 pages, at least 90% as many clusters as pages), a sign that pages of one class were told apart
 * by what is theirs alone (their own items, ids, data in attributes). Empty when none.
 */
export function clusteringDoubts(pages: number, clusters: number): string[] {
  return pages >= 10 && clusters >= 0.9 * pages ? [`${clusters} clusters for ${pages} pages: nearly every page is its own cluster`] : [];
}

/** The sections a grouping was split by (summary.json `sections`): each with its pages and the sections it was found one class with. */
export interface SectionSplit {
  sections: Array<{ section: string; pages: number; with: string[] }>;
  /** Clusters that were split. */
  split: number;
}

/**
 * A grouping split by the site's sections (src/structure/sections.ts): sections whose pages are apart by
 * shape (`sectionsApart`: of different classes) are kept apart, those alike (topics of one class) are one;
 * pages of one cluster in two groups of sections are two clusters, numbered again by first page in source
 * order. Each cluster says its group of sections (`section`, '' outside any, `a+b` for two sections alike),
 * without the why of the grouping before (`explainClusters` tells it again). Unchanged, with no `sections`,
 * when the site has none.
 */
export function splitBySections<C extends { id: string; keys: string[]; why?: unknown }>(
  r: { clusters: C[]; assignment: Map<string, string> },
  set: Pick<StructureSet, 'keys' | 'structures' | 'tagLists'>,
  options: SectionOptions = {},
): { clusters: Array<C & { section?: string }>; assignment: Map<string, string> } & Partial<SectionSplit> {
  const sections = new Sections(set.keys, options);
  const listed = sections.list();
  if (listed.length === 0) return { clusters: r.clusters, assignment: r.assignment };
  // Sections alike are one group (union-find over the pairs not apart).
  const names = listed.map((x) => x.section);
  const shapes = new Map<string, Int32Array[]>(names.map((n) => [n, []]));
  set.keys.forEach((k, i) => shapes.get(sections.of(k))?.push(set.structures[i]!.shape));
  const weights = shapeWeights(set.structures.map((x) => x.shape), set.tagLists);
  const uf = new UnionFind(names.length);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) if (sectionsApart(shapes.get(names[i]!)!, shapes.get(names[j]!)!, weights) !== true) uf.union(i, j);
  }
  const members = new Map<number, string[]>();
  names.forEach((n, i) => members.set(uf.find(i), [...(members.get(uf.find(i)) ?? []), n]));
  const groupOf = new Map(names.map((n, i) => [n, members.get(uf.find(i))!.join('+')]));
  const parts = new Map<string, { cluster: C; section: string; keys: string[] }>();
  const seen = new Map<string, Set<string>>();
  for (const c of r.clusters) {
    for (const k of c.keys) {
      const g = groupOf.get(sections.of(k)) ?? '';
      const key = `${c.id}\u0000${g}`;
      let p = parts.get(key);
      if (p === undefined) parts.set(key, (p = { cluster: c, section: g, keys: [] }));
      p.keys.push(k);
      const groups = seen.get(c.id) ?? new Set<string>();
      groups.add(g);
      seen.set(c.id, groups);
    }
  }
  const order = new Map([...r.assignment.keys()].map((k, i) => [k, i]));
  const ordered = [...parts.values()].sort((a, b) => order.get(a.keys[0]!)! - order.get(b.keys[0]!)!);
  const assignment = new Map<string, string>();
  // A cluster's why names clusters of the grouping before the split: dropped (`explainClusters` tells it again).
  const clusters = ordered.map((p, i) => {
    const id = `c${i}`;
    for (const k of p.keys) assignment.set(k, id);
    const { why: _stale, ...cluster } = p.cluster;
    return { ...cluster, id, keys: p.keys, section: p.section } as C & { section: string };
  });
  return {
    clusters,
    assignment: new Map([...r.assignment.keys()].map((k) => [k, assignment.get(k)!])),
    sections: listed.map((x) => ({ ...x, with: groupOf.get(x.section)!.split('+').filter((n) => n !== x.section) })),
    split: [...seen.values()].filter((g) => g.size > 1).length,
  };
}
