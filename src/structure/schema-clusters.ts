/**
 * Clusters and class-links (paper 4, section 2): "Pages can be grouped by their schema into clusters. A
 * cluster of pages is a (possibly singleton) set of pages with identical schema", and "given a cluster of
 * pages, i.e. a set of pages with identical schema, each tag-list identifies a class-link", the set of the
 * link collections of its pages that share that tag-list.
 *
 * `ClusterTable` assigns pages to clusters of identical schema as they arrive (a hash of the sorted ids,
 * then an exact comparison), so cluster ids are dense integers in order of first appearance.
 * `clusterBySchema` groups a whole page set for structural clustering: clusters of identical schema are
 * joined when their schemas are similar (J >= T), transitively (single linkage over distinct schemas),
 * the grouping the paper's INDESIT uses when it restates its goal as "all the pages of clusters similar to
 * a given cluster" (section 3.1).
 */
import { COLLECT_DEFAULTS } from './defaults.ts';
import { type PageSchema, sameSchema, schemaHash, similar, similarity } from './page-schema.ts';
import { groupsOf, UnionFind } from './union-find.ts';

/** A cluster of pages with identical schema (or, with a threshold, similar to its first). */
export interface Cluster<P> {
  readonly id: number;
  /** The schema of its first page. */
  readonly schema: PageSchema;
  /** The distinct schemas of its pages, the first one's first. */
  readonly schemas: PageSchema[];
  /** Its pages, in order of arrival. */
  readonly pages: P[];
}

/**
 * Clusters of identical schema, built incrementally. With a `threshold`, a schema that is not identical to a
 * schema of a cluster joins the cluster whose first schema is the most similar to it (sim >= threshold), if
 * any (leader clustering): pages of one class whose schemas differ in details (an optional block of their
 * content, one more list) are one cluster, as pages of identical schema are in the paper.
 */
export class ClusterTable<P> {
  private readonly byHash = new Map<number, Array<{ cluster: number; schema: PageSchema }>>();
  readonly clusters: Cluster<P>[] = [];
  /** Incremented whenever a cluster is created or gains a distinct schema. */
  version = 0;

  constructor(private readonly threshold?: number) {}

  /** The cluster of `schema` (created when new), with `page` added to it. */
  add(schema: PageSchema, page: P): Cluster<P> {
    const c = this.clusterOf(schema);
    c.pages.push(page);
    return c;
  }

  /** The cluster of `schema`, created empty when new. */
  clusterOf(schema: PageSchema): Cluster<P> {
    const h = schemaHash(schema);
    let known = this.byHash.get(h);
    if (known === undefined) {
      known = [];
      this.byHash.set(h, known);
    }
    for (const k of known) if (sameSchema(k.schema, schema)) return this.clusters[k.cluster]!;
    let c: Cluster<P> | undefined;
    if (this.threshold !== undefined) {
      let bestSim = this.threshold;
      for (const d of this.clusters) {
        const s = similarity(d.schema, schema);
        if (s >= bestSim && (c === undefined || s > bestSim)) {
          c = d;
          bestSim = s;
        }
      }
    }
    if (c === undefined) {
      c = { id: this.clusters.length, schema, schemas: [], pages: [] };
      this.clusters.push(c);
    }
    c.schemas.push(schema);
    known.push({ cluster: c.id, schema });
    this.version++;
    return c;
  }

  get size(): number {
    return this.clusters.length;
  }
}

/**
 * Structural clustering of a page set: returns, for each input schema (same order), a group number.
 * Pages of identical schema share a group, and groups whose schemas are similar (J >= threshold) are
 * merged transitively. Groups are numbered by their first page. Distinct schemas are compared pairwise
 * (O(d²) Jaccard merges over d distinct schemas, integers only), so it suits page sets of a site, where d
 * is far below the number of pages.
 */
export function clusterBySchema(schemas: readonly PageSchema[], threshold: number = COLLECT_DEFAULTS.clusterSimilarity): number[] {
  const table = new ClusterTable<number>();
  const clusterOfPage = schemas.map((s, i) => table.add(s, i).id);
  const d = table.size;
  // Distinct schemas joined pair by pair.
  const sets = new UnionFind(d);
  for (let a = 0; a < d; a++) {
    const sa = table.clusters[a]!.schema;
    for (let b = a + 1; b < d; b++) {
      if (sets.find(a) !== sets.find(b) && similar(sa, table.clusters[b]!.schema, threshold)) sets.union(a, b);
    }
  }
  return groupsOf(sets, clusterOfPage);
}

