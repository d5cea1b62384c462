/**
 * One file over 400 lines: the four steps of Figure 5 call each other recursively (the index step solves a
 * new instance) over one crawl state; schemas, structure and link collections live in their own modules.
 *
 * INDESIT (paper 4, section 3.1 and Figure 5): given one sample page, crawl its site to collect the pages
 * structurally similar to it, downloading as few pages as possible. The four steps of Figure 5, restated
 * as in the paper for a target *cluster* (initially the sample's singleton cluster C0):
 *
 *  1. Neighbourhood cluster discovery (`discover`): the link collections of the target's initial pages are
 *     followed to meet as many neighbouring clusters as possible; once n links of one collection
 *     (COLLECT_DEFAULTS.sameClusterLinks, n = 3, footnote 3) have led to pages of one cluster, the rest of
 *     the collection is skipped (the homologous link conjecture).
 *  2. Neighbourhood clusters evaluation (`evaluate`): every class-link of every neighbouring cluster is
 *     scored by navigating its link collections and counting the *new* target pages they reach (pages
 *     not among the targets when the evaluation started, so the order of evaluation does not change the
 *     scores); as soon as the pages it led to that are not targets exceed a small share of all it led to
 *     (COLLECT_DEFAULTS.strayShare; in the paper, at the first one), the collection and its class-link
 *     score 0 and nothing more of it is downloaded. A class-link scores the mean of its collections;
 *     positive ones are back class-links; a cluster scores the sum of its back class-links.
 *  3. Recursion to catch index pages (`solve` on the best cluster): the best cluster becomes the target of
 *     a new instance of the problem; the index pages it returns are harvested by following their
 *     collections whose tag-lists are back class-links of the index cluster.
 *  4. Iteration: the remaining clusters are evaluated again (scores fall as targets are collected) until
 *     no score is positive.
 *
 * Choices the paper leaves open, made here and documented:
 *  - Clusters: pages of identical schema, and a page whose schema is similar (sim >= T) to a cluster's first
 *    joins the most similar such cluster (clusters.ts, leader clustering): with the richer schema
 *    (src/structure/page-schema.ts), pages of one class rarely have identical schemas, and singleton clusters would
 *    defeat the n rule of step 1 and multiply the candidates of step 2.
 *  - Target membership: a cluster is in the target when one of its distinct schemas is similar to one of
 *    the target's, starting from the sample's (`growTarget`, default true: "all the pages of clusters
 *    similar to a given cluster"); with `growTarget: false`, only similarity to the sample's cluster
 *    counts. Clusters that join later bring their already downloaded pages with them.
 *  - The site's content depth (src/structure/page-structure.ts, layout.ts `LayoutDepth`), which every schema depends on, is
 *    learnt after step 1 from the sample: the median depth of the text regions of the pages read whose
 *    region lies above or below the sample's content (`learnDepth`); the sample alone may have none (a
 *    documentation page holding only its title). Schemas and clusters are then computed again, once.
 *  - Step 1 runs from the sample, and in a recursion from one page of each of the target's clusters.
 *  - Links are followed in order of how much their address looks like the target's pages' (addresses.ts).
 *    In step 1, once a collection led to a page that is no target, its further links are not downloaded
 *    when their address shares a folder with a page read that is no target and looks more like it than like
 *    any target; in step 2, a link whose address looks more like a page read that is no target than like a
 *    target is not downloaded, nor a link from a page that is no target to its other language or version
 *    (variants.ts: it has the page's structure); pages read are tried first. Only pages read whose address
 *    names the link's kind (addresses.ts `AddressKinds`) count against it: an item page read says nothing of
 *    its folder's index page.
 *  - The target cluster is itself a candidate index ("self"): target pages that link to other target
 *    pages (related items, prev/next) are scored like any neighbour, without recursion (its index pages
 *    are the targets themselves).
 *  - Clusters that a target of an enclosing recursion accepts are never index candidates (no cycles), a
 *    cluster serves as index at most once per instance, and recursion stops at COLLECT_DEFAULTS.maxDepth
 *    (at the bound, the index cluster's downloaded pages are the index pages).
 *  - Widening (`rings`, default 1): when no candidate scores, step 1 runs once more from one page of each
 *    cluster not explored yet (neighbours, and clusters that joined the target), so that index pages two
 *    links away from the target become candidates, unless targets were found and every link of the
 *    targets that may lead to one was followed or lies in a collection given up after a run of dead links
 *    (`closed`); then, while nothing was found, from the entry page; the paper's neighbourhood is one link
 *    deep (`rings: 0`).
 *  - Sections (src/structure/sections.ts): when nothing was found and the sample's section is told from no
 *    other, a few pages of the other sections are read until one is (`probeSections`): a sample whose schema
 *    its class does not share gets its class through its section and shape only.
 *  - Links that leave the site (PageSource.keyOf undefined) and links back to their own page are not
 *    followed, nor a link to a page read under another spelling of its address (`docs/setup` once
 *    `docs/setup.html` was read); a link whose download fails (404, not HTML…) names no page of any structure: it is counted
 *    as a download and a failure but neither kills nor feeds a score.
 *  - Every download is counted here (`downloads`, each attempt once; pages are cached for the run) and the
 *    source's own `loaded` counter is reported beside it.
 */
import { createHash } from 'node:crypto';
import { PageError, UsageError } from '../errors.ts';
import { LabelTable } from '../html/labels.ts';
import { parsePage, type Page, type PageSource } from '../site/page.ts';
import { ClusterTable } from '../structure/schema-clusters.ts';
import { COLLECT_DEFAULTS } from '../structure/defaults.ts';
import { filled } from '../filled.ts';
import { type LinkCollection, type TagListOptions, TagLists } from '../structure/link-collections.ts';
import { type PageSchema, similar, similarity } from '../structure/page-schema.ts';
import { Addresses, AddressKinds } from './addresses.ts';
import { Sections, SECTIONS_APART, sectionsApart } from '../structure/sections.ts';
import { shapeSimilarity, shapeWeights } from '../structure/page-shape.ts';
import { LayoutDepth } from '../structure/layout.ts';
import { readStructure, schemaOfStructure, type Structure } from '../structure/page-structure.ts';
import { variantOf } from './variants.ts';
import { isSkippedResource } from '../site/defaults.ts';

const NO_SHAPE = new Int32Array(0);
const NO_SCHEMA: PageSchema = { links: new Int32Array(0), layout: new Int32Array(0), content: new Int32Array(0) };

/** Options of `indesit`; every threshold defaults to COLLECT_DEFAULTS. */
export interface IndesitOptions {
  /** T, the Jaccard threshold of similar schemas (0.85). */
  similarity?: number;
  /** Shape similarity at which a page of the sample's typed address kind joins (COLLECT_DEFAULTS.shapeSimilarity). */
  shapeSimilarity?: number;
  /** n of step 1 (3). */
  sameClusterLinks?: number;
  /** Bound on the recursion of step 3 (3). */
  maxDepth?: number;
  /** Stop after this many downloads (the result says `complete: false`). */
  maxDownloads?: number;
  /** Grow the target by single linkage over similar clusters (default true; see the module comment). */
  growTarget?: boolean;
  /** Rings of neighbourhood widening when no neighbour scores (default COLLECT_DEFAULTS.rings; 0 = the paper). */
  rings?: number;
  /** Share of a class-link's pages that may be unlike the target before it scores 0 (0 = the paper). */
  strayShare?: number;
  /** Pages of another section of the site than the sample's are no targets (src/structure/sections.ts; default true). */
  sections?: boolean;
  /** How tag-lists are built (attributes kept…). */
  tagLists?: TagListOptions;
  /** One collection for the links of a page's text region (default COLLECT_DEFAULTS.textRegion; false = the paper). */
  textRegion?: boolean;
  /** Compare page layouts beside link tag-lists (default COLLECT_DEFAULTS.layout; false = the paper). */
  layout?: boolean;
  /** Running-text words a page needs to have a text region (default COLLECT_DEFAULTS.textRegionWords). */
  textRegionWords?: number;
  /** Levels of the layout kept below the content depth (default COLLECT_DEFAULTS.layoutBelow). */
  layoutBelow?: number;
  /** Levels of the content area's structure kept (default COLLECT_DEFAULTS.contentLevels). */
  contentLevels?: number;
  /** Parse with the browser-exact parser. */
  exact?: boolean;
  /** Called after each download. */
  onDownload?: (downloads: number, url: string) => void;
  /** Called with every page loaded and parsed (e.g. to keep the bodies of the pages collected). */
  onPage?: (page: Page, key: string) => void;
  signal?: AbortSignal;
}

/** A page as INDESIT sees it: its link collections, schema and cluster (-1 when it could not be had). */
export interface CrawledPage {
  readonly key: string;
  readonly url: string;
  readonly collections: readonly LinkCollection[];
  readonly schema: PageSchema;
  readonly cluster: number;
  /** The tag-lists of all its elements (src/structure/page-shape.ts). */
  readonly shape: Int32Array;
}

/** A crawled page with its structure; its schema and cluster are set again when the site's content depth is. */
interface Crawled extends CrawledPage {
  readonly structure: Structure | undefined;
  schema: PageSchema;
  cluster: number;
}

/** One index cluster followed (step 3), in the order they were chosen. */
export interface IndexStep {
  /** 0 for the sample's problem, 1 for the recursion that looks for its index pages, … */
  depth: number;
  /** The index cluster (its id), or -1 when the target cluster served as its own index. */
  cluster: number;
  /** A page of the index cluster. */
  example: string;
  /** The cluster's score (sum of its back class-links' scores). */
  score: number;
  /** Its back class-links, as tag-lists. */
  backClassLinks: string[];
  /** Index pages whose back class-links were followed. */
  indexPages: number;
  /** Target pages gained by this step (evaluation and harvest). */
  newTargets: number;
}

/** A cluster met during the run. */
export interface ClusterReport {
  id: number;
  /** Pages of it downloaded. */
  size: number;
  /** True when it is part of the collected target. */
  target: boolean;
  /** Its first page. */
  example: string;
  /** Number of tag-lists in its schema. */
  schemaSize: number;
}

export interface CollectFailure {
  url: string;
  key: string;
  code: string;
  message: string;
}

/** A page read by a run, and why it was taken or left. */
export interface CollectedPage {
  key: string;
  url: string;
  /** Its cluster (`IndesitResult.clusters`). */
  cluster: number;
  /** sim(sample, page) of their schemas (src/structure/page-schema.ts `similarity`), to 3 decimals. */
  similarity: number;
  /** The weighted similarity of their shapes (src/structure/page-shape.ts, the site's template weighing little), to 3 decimals. */
  shapeSimilarity: number;
  /** The kind its address names (addresses.ts `AddressKinds`, '' for none). */
  kind: string;
  /** The section of the site it is in (src/structure/sections.ts, '' for none); absent with sections off. */
  section?: string;
  /**
   * Why it was taken or left: `schema` (its cluster is similar to the sample's, or not), `shape` (taken: its
   * address names the sample's kind and its shape is near the sample's), `kind` (left: its address names
   * another kind than the sample's), `section` (left: it is in another section of the site than the sample).
   */
  evidence: 'schema' | 'shape' | 'kind' | 'section';
}

export interface IndesitResult {
  sample: { key: string; url: string };
  /**
   * The collected pages: the sample's cluster and the clusters similar to it, in order of discovery; each
   * with why: its cluster and the similarity of its schema to the sample's (a page of a cluster joined by
   * single linkage may be below `threshold` to the sample itself).
   */
  pages: CollectedPage[];
  /** The pages read and left (not of the target), with the same why, cluster by cluster. */
  left: CollectedPage[];
  /** T, the threshold of similar schemas the run used. */
  threshold: number;
  /** The threshold of near shapes the run used (pages of the sample's address kind). */
  shapeThreshold: number;
  /** Why the result may be wrong, each in a sentence (empty when none). */
  doubts: string[];
  /** Downloads made by this run (each page at most once), dead links included. */
  downloads: number;
  /** Downloads that failed: dead links (missing, refused, not a page). */
  deadLinks: number;
  /**
   * Links not tried because they looked dead: into folders whose first n links were dead with no page of
   * them read (`folders`, `folderLinks`), and collections given up after COLLECT_DEFAULTS.deadRun dead links
   * in a row (`runs`).
   */
  deadSkipped: { folders: string[]; folderLinks: number; runs: number };
  /** The source's own counter (PageSource.loaded) at the end. */
  sourceLoaded: number;
  clusters: ClusterReport[];
  indexPath: IndexStep[];
  /** Keys of the pages whose back class-links were followed as index pages of another cluster (step 3). */
  indexPages: string[];
  failures: CollectFailure[];
  /** False when the download budget or the abort signal stopped the run early. */
  complete: boolean;
  /** Tag-lists of the sample's schema (for reports). */
  sampleSchema: string[];
  /** Tag-lists of the sample's layout (for reports). */
  sampleLayout: string[];
}

/** The score of a cluster as an index of a target (step 2). */
interface Evaluation {
  /** Sum of the scores of its back class-links. */
  score: number;
  /** Its back class-links (tag-lists). */
  back: number[];
  /**
   * Class-links that reached targets only, none new (the targets were found another way first): no score,
   * but links of an index whose other pages may list targets not found yet (`solve`, strays).
   */
  pure: number[];
  /**
   * True when the back class-links were followed from at least two pages and one page alone reached every
   * new target they reached: the same menu on every page of the cluster. More of its pages bring nothing
   * new, so step 3 need not look for them (our extension).
   */
  menu: boolean;
}

/**
 * True when, through the back class-links, at least two pages were followed and one page alone reached every
 * new target that all of them reached: a menu repeated on every page (`Evaluation.menu`).
 */
function isMenu(reachedFrom: ReadonlyArray<{ page: string; tagList: number; target: string }>, back: readonly number[]): boolean {
  const backs = new Set(back);
  const all = new Set<string>();
  const byPage = new Map<string, Set<string>>();
  for (const r of reachedFrom) {
    if (!backs.has(r.tagList)) continue;
    all.add(r.target);
    let s = byPage.get(r.page);
    if (s === undefined) byPage.set(r.page, (s = new Set()));
    s.add(r.target);
  }
  if (byPage.size < 2) return false;
  let most = 0;
  for (const s of byPage.values()) most = Math.max(most, s.size);
  return most === all.size;
}

/** `Target.byShape`: the page was taken. */
const TAKEN = -1;
/** Pages taken that later pages are compared with by shape (`Target.anchors`): a bound on the cost of a check. */
const MAX_ANCHORS = 64;

/** The index cluster of `solve` when the index pages are the target clusters' strays (`Target.strays`). */
const STRAYS = -2;

/** Marks the entry page as explored in `solve` (not a key: keys never start with a NUL). */
const ENTRY = '\0entry';

/** Thrown inside a run when the download budget is spent or the run is aborted. */
class Stop extends Error {}

/** The pages similar to one cluster, growing by single linkage over similar clusters. */
let targets = 0;

class Target {
  /** Distinguishes targets (the sample's, the recursions'). */
  readonly id = targets++;
  readonly members = new Set<number>();
  /** The addresses of the target's pages, to follow the links that look like them first. */
  readonly addresses = new Addresses();
  /** The distinct schemas of the target's clusters (of the first cluster only without `grow`). */
  private readonly schemas: PageSchema[] = [];
  /** Per member cluster, how many of its schemas are in `schemas`. */
  private readonly taken = new Map<number, number>();
  private readonly first: number;
  private version = -1;

  constructor(
    private readonly run: Run,
    first: number,
    /** The page the target grows from, when not the cluster's first (strays of another target's cluster). */
    private readonly from?: CrawledPage,
  ) {
    this.first = first;
    this.join(first);
    for (const p of run.table.clusters[first]!.pages) this.addresses.add(p.key);
  }

  /** The key of the page the target grew from (the sample, or an index cluster's first page). */
  get origin(): CrawledPage {
    return this.from ?? this.run.table.clusters[this.first]!.pages[0]!;
  }

  /**
   * True when a link to `key` may lead to a page of this target by its address: the kind its address names
   * (addresses.ts `AddressKinds`) is the origin's. Sites whose addresses name no kind pass every link.
   */
  kindOk(key: string): boolean {
    return this.run.kinds.kindOf(key).kind === this.run.kinds.kindOf(this.origin.key).kind;
  }

  /**
   * True when `key` is in the origin's section of the site (src/structure/sections.ts), or sections are off:
   * the library reference and the how-tos of a documentation share its template, menus and layouts.
   */
  sectionOk(key: string): boolean {
    if (!this.run.sectionsOn) return true;
    const a = this.run.sections.of(key);
    const b = this.run.sections.of(this.origin.key);
    return a === b || (this.run.sectionsApart(a, b) ?? this.run.sectionsAreClasses(b)) !== true;
  }

  /**
   * True when `key` is in the origin's section and that section is a class of its own (another section is
   * apart from it by shape: `Run.sectionsApart`): its address names the origin's place in the site, as a
   * typed file name names its kind, and its shape decides.
   */
  inNamedSection(key: string): boolean {
    if (!this.run.sectionsOn) return false;
    const s = this.run.sections.of(this.origin.key);
    if (s === '' || this.run.sections.of(key) !== s) return false;
    return this.run.sections.list().some((x) => x.section !== s && this.run.sectionsApart(s, x.section) === true);
  }

  /**
   * True when a link to `key` is worth following by its section: in the origin's, outside any, in one alike
   * (`Run.sectionsApart` false), or, while that is undecided, in one where fewer pages than it needs were read.
   */
  sectionLinkOk(key: string): boolean {
    if (!this.run.sectionsOn) return true;
    const a = this.run.sections.of(key);
    const b = this.run.sections.of(this.origin.key);
    if (a === b || a === '' || b === '') return true;
    const apart = this.run.sectionsApart(a, b) ?? this.run.sectionsAreClasses(b);
    return apart === undefined ? this.run.readIn(a) < SECTIONS_APART.minAlike : !apart;
  }

  /** `kindOk` and `sectionLinkOk`: a link to this address may lead to one of the target's pages. */
  placeOk(key: string): boolean {
    return this.kindOk(key) && this.sectionLinkOk(key);
  }

  /**
   * True when page `p` is one of this target's: of the origin's address kind, and of a member cluster (its
   * schema is similar to the target's), or, when the address names a typed kind (`struct.Vec.html`) or the
   * origin's section among several (`inNamedSection`), of a shape near the origin's (`Run.shapeNear`): pages
   * of one class whose item lists differ.
   */
  takes(p: CrawledPage): boolean {
    // Kinds are learnt as links are seen: a page clustered before its kind was known is checked again.
    if (p.cluster < 0 || !this.kindOk(p.key) || !this.sectionOk(p.key)) return false;
    if (this.accepts(p.cluster)) {
      this.anchor(p);
      return true;
    }
    if (!this.run.kinds.kindOf(p.key).dotted && !this.inNamedSection(p.key)) return false;
    // Single linkage over the shapes of the pages taken (a page near one of them), each page checked again
    // only once more pages were taken.
    const seen = this.byShape.get(p.key);
    if (seen === TAKEN) return true;
    if (seen === this.anchors.length) return false;
    const near = this.run.shapeNear(this.origin, p) || this.anchors.some((a) => this.run.shapeNear(a, p));
    this.byShape.set(p.key, near ? TAKEN : this.anchors.length);
    if (near) this.anchor(p);
    return near;
  }

  /** True when the origin's address names a kind (`struct.Vec.html`): its index pages name none or another. */
  typed(): boolean {
    return this.run.kinds.kindOf(this.origin.key).kind !== '';
  }

  /** Pages taken that a page of the target's kind may be near by shape (the first MAX_ANCHORS). */
  private readonly anchors: CrawledPage[] = [];
  private readonly anchorKeys = new Set<string>();
  /** Per page checked by shape: TAKEN, or how many anchors there were when it was found near none. */
  private readonly byShape = new Map<string, number>();

  private anchor(p: CrawledPage): void {
    if (this.anchors.length >= MAX_ANCHORS || this.anchorKeys.has(p.key)) return;
    this.anchorKeys.add(p.key);
    this.anchors.push(p);
  }

  /** True when cluster `c` belongs to this target (checked again whenever the clusters changed). */
  accepts(c: number): boolean {
    if (c < 0) return false;
    if (this.version !== this.run.table.version) this.refresh();
    return this.members.has(c);
  }

  private join(c: number): void {
    this.members.add(c);
    this.take(c);
  }

  /** Adds the schemas cluster `c` gained since last taken. */
  private take(c: number): void {
    if (!this.run.grow && c !== this.first) return;
    const schemas = this.run.table.clusters[c]!.schemas;
    for (let k = this.taken.get(c) ?? 0; k < schemas.length; k++) this.schemas.push(schemas[k]!);
    this.taken.set(c, schemas.length);
  }

  /**
   * Single linkage over schemas: a cluster joins when one of its schemas is similar to one of the target's
   * ("all the pages of clusters similar to a given cluster", section 3.1), until no more joins.
   */
  private refresh(): void {
    const clusters = this.run.table.clusters;
    for (const m of this.members) this.take(m);
    let changed = true;
    while (changed) {
      changed = false;
      for (const cl of clusters) {
        if (this.members.has(cl.id)) continue;
        if (cl.schemas.some((s) => this.schemas.some((t) => similar(s, t, this.run.threshold)))) {
          this.join(cl.id);
          changed = this.run.grow;
        }
      }
    }
    this.version = this.run.table.version;
  }

  /** The downloaded pages of the target's clusters that it does not take (their address names another kind). */
  strays(): Crawled[] {
    if (this.version !== this.run.table.version) this.refresh();
    return this.run.order.filter((p) => this.members.has(p.cluster) && !this.takes(p));
  }

  /** The downloaded pages of this target, in order of arrival. */
  pages(): Crawled[] {
    if (this.version !== this.run.table.version) this.refresh();
    const out: Crawled[] = [];
    for (const p of this.run.order) if (this.takes(p)) out.push(p);
    for (const p of out) this.addresses.add(p.key);
    return out;
  }
}

/** The state of one INDESIT run: the page cache, the clusters, the counters. */
class Run {
  table: ClusterTable<Crawled>;
  readonly pages = new Map<string, Crawled>();
  /** Successfully parsed pages in order of download. */
  readonly order: Crawled[] = [];
  readonly failures: CollectFailure[] = [];
  readonly indexPath: IndexStep[] = [];
  /** Pages that served as index pages of another cluster (step 3). */
  readonly indexKeys = new Set<string>();
  readonly tagLists: TagLists;
  /** The kinds page addresses name (addresses.ts), from every link seen. */
  readonly kinds = new AddressKinds();
  /** The site's sections, learnt from the addresses read and linked to (src/structure/sections.ts). */
  readonly sections = new Sections();
  /** Shape weights over the pages read (page-shape.ts), and how many pages they were computed on. */
  private weights: Float64Array = new Float64Array(0);
  private weighed = 0;
  readonly shapeThreshold: number;
  private readonly labels = new LabelTable({ attributes: 'none' });
  readonly threshold: number;
  readonly n: number;
  readonly maxDepth: number;
  readonly maxDownloads: number;
  readonly grow: boolean;
  /** Targets keep to the sample's section (`IndesitOptions.sections`). */
  readonly sectionsOn: boolean;
  readonly rings: number;
  readonly strayShare: number;
  /**
   * The depth of the site's content (layout.ts `LayoutDepth`), where layouts are cut and deeper text regions
   * lifted (src/structure/page-structure.ts): the sample's until `learnDepth`, then the median over the sample and its
   * neighbours.
   */
  private layoutDepth = -1;
  private samplePath = -1;
  /** Paths on the way to the sample's content that several of its elements have: no place of its layout. */
  private sampleShared = new Set<number>();
  private readonly depths = new LayoutDepth();
  /** Per variant (language, version: variants.ts), links tried that were dead, and whether one was alive. */
  private readonly variantDead = new Map<string, number>();
  private readonly variantAlive = new Set<string>();
  /**
   * Per folder (`a/b/`), dead links into it or below it and the entries directly under it they went through
   * (a file `a/b/c.html` or a subfolder `a/b/c/`), and the folders holding a page read.
   */
  private readonly folderDead = new Map<string, { links: number; entries: Set<string> }>();
  private readonly folderAlive = new Set<string>();
  /** Links not tried: into a dead folder, and left in collections given up after a run of dead links. */
  readonly skipped = { folders: new Set<string>(), folderLinks: 0, runs: 0 };
  readonly deadRun: number;
  /** The first address each key was linked by. */
  readonly addressOf = new Map<string, string>();
  /** Pages by a hash of their bytes: one page reached by two addresses is one page. */
  private readonly byContent = new Map<string, Crawled>();
  downloads = 0;
  /** Downloads that failed (dead links: missing, refused, not HTML…). */
  dead = 0;

  constructor(
    readonly source: PageSource,
    readonly options: IndesitOptions,
  ) {
    this.tagLists = new TagLists(options.tagLists);
    const o = filled(options, COLLECT_DEFAULTS, ['similarity', 'sameClusterLinks', 'maxDepth', 'maxDownloads', 'rings', 'strayShare', 'shapeSimilarity']);
    this.threshold = o.similarity;
    this.table = new ClusterTable<Crawled>(this.threshold);
    this.n = o.sameClusterLinks;
    this.maxDepth = o.maxDepth;
    this.maxDownloads = o.maxDownloads;
    this.grow = options.growTarget ?? true;
    this.sectionsOn = options.sections ?? COLLECT_DEFAULTS.sections;
    this.rings = o.rings;
    this.strayShare = o.strayShare;
    this.deadRun = COLLECT_DEFAULTS.deadRun;
    this.shapeThreshold = o.shapeSimilarity;
  }

  /** Pages read per section, counted again when pages were read or addresses seen since. */
  private sectionReads = { read: -1, seen: -1, counts: new Map<string, number>() };

  /** How many pages were read in section `s`. */
  readIn(s: string): number {
    const r = this.sectionReads;
    if (r.read !== this.order.length || r.seen !== this.sections.size) {
      r.counts.clear();
      for (const p of this.order) {
        const x = this.sections.of(p.key);
        r.counts.set(x, (r.counts.get(x) ?? 0) + 1);
      }
      r.read = this.order.length;
      r.seen = this.sections.size;
    }
    return r.counts.get(s) ?? 0;
  }

  /** Per pair of sections, whether apart (sections.ts `sectionsApart`) and how many pages were read when told. */
  private readonly apart = new Map<string, { read: number; apart: boolean | undefined }>();

  /**
   * Whether the pages read in sections `a` and `b` are of different classes (sections.ts `sectionsApart`):
   * undefined while either has too few pages read, or when either is outside any section ('': its address
   * says nothing, or its folder is not known as a section yet). Told again as the pages read grow by a
   * tenth (every page while undecided).
   */
  sectionsApart(a: string, b: string): boolean | undefined {
    if (a === b) return false;
    if (a === '' || b === '') return undefined;
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    const read = this.order.length;
    const c = this.apart.get(key);
    if (c !== undefined && (c.apart === undefined ? read === c.read : read <= c.read * 1.1)) return c.apart;
    const x: Int32Array[] = [];
    const y: Int32Array[] = [];
    for (const p of this.order) {
      const s = this.sections.of(p.key);
      if (s === a) x.push(p.shape);
      else if (s === b) y.push(p.shape);
    }
    const apart = sectionsApart(x, y, this.shapeWeights());
    this.apart.set(key, { read, apart });
    return apart;
  }

  /**
   * What the site's other sections say of section `s` while a pair is undecided: true when every section
   * told so far is apart from it (the site lays out its classes by section), false when one is alike
   * (sections are topics), undefined when none was told.
   */
  sectionsAreClasses(s: string): boolean | undefined {
    let told: boolean | undefined;
    for (const x of this.sections.list()) {
      if (x.section === s || s === '') continue;
      const apart = this.sectionsApart(s, x.section);
      if (apart === false) return false;
      if (apart === true) told = true;
    }
    return told;
  }

  /** The shape weights over the pages read (page-shape.ts `shapeWeights`), computed again as they grow by a tenth. */
  private shapeWeights(): Float64Array {
    if (this.order.length > this.weighed * 1.1 || this.weights.length < this.tagLists.size) {
      this.weights = shapeWeights(this.order.map((p) => p.shape), this.tagLists);
      this.weighed = this.order.length;
    }
    return this.weights;
  }

  /**
   * The weighted Jaccard similarity of two pages' shapes (page-shape.ts), the paths most pages read so far
   * have (the site's template) weighing little; the weights are computed again as the pages read grow by a tenth.
   */
  shapeOf(a: CrawledPage, b: CrawledPage): number {
    return shapeSimilarity(a.shape, b.shape, this.shapeWeights());
  }

  /** True when the shapes of two pages are similar (`shapeThreshold`). */
  shapeNear(a: CrawledPage, b: CrawledPage): boolean {
    return this.shapeOf(a, b) >= this.shapeThreshold;
  }

  keyOf = (url: string): string | undefined => this.source.keyOf(url);

  /** The page of `key`, downloaded once; failed downloads give a page of cluster -1. */
  async fetch(requested: string): Promise<Crawled> {
    let key = requested;
    const known = this.pages.get(key);
    if (known !== undefined) return known;
    if (this.options.signal?.aborted || this.downloads >= this.maxDownloads) throw new Stop();
    this.downloads++;
    // The address as linked (a directory `…/` served from its index.xhtml), else the key's spelled-out one.
    const url = this.addressOf.get(key) ?? this.source.urlOf(key);
    let page: Crawled;
    try {
      const got = await this.source.get(url);
      // A redirect (`a/b` → `a/b/`) names a page by another key: one page, cached under both keys.
      const finalKey = this.keyOf(got.url) ?? key;
      for (const f of [...foldersOf(key), ...foldersOf(finalKey)]) this.folderAlive.add(f);
      const same = finalKey === key ? undefined : this.pages.get(finalKey);
      if (same !== undefined) {
        this.pages.set(key, same);
        this.options.onDownload?.(this.downloads, url);
        return same;
      }
      // Two addresses of one page (`docs/setup` and `docs/setup.html` on a static host): the same bytes.
      const hash = createHash('sha1').update(got.body).digest('base64');
      const twin = this.byContent.get(hash);
      if (twin !== undefined) {
        this.pages.set(requested, twin);
        if (finalKey !== requested) this.pages.set(finalKey, twin);
        this.options.onDownload?.(this.downloads, url);
        return twin;
      }
      key = finalKey;
      this.options.onPage?.(got, key);
      const tree = parsePage(got, this.labels, this.options.exact ?? false);
      const o = this.options;
      const structure = readStructure(tree, got.url, this.tagLists, {
        keyOf: this.keyOf,
        ...(o.textRegion === undefined ? {} : { textRegion: o.textRegion }),
        ...(o.textRegionWords === undefined ? {} : { textRegionWords: o.textRegionWords }),
        ...(o.contentLevels === undefined ? {} : { contentLevels: o.contentLevels }),
        sharedPaths: this.layoutDepth < 0,
        shape: true,
      });
      // Every address a page links to tells which kinds the site's addresses name (addresses.ts).
      this.kinds.add(key);
      this.sections.add(key);
      for (const c of structure.collections) {
        const keys: string[] = [];
        for (const l of c.links) {
          const k = this.keyOf(l.url);
          if (k === undefined) continue;
          keys.push(k);
          this.kinds.add(k);
          this.sections.add(k);
        }
        this.kinds.addList(keys);
      }
      // The first page read is the sample: the depth of its content stands for the site's until `learnDepth`.
      if (this.layoutDepth < 0) {
        this.layoutDepth = structure.contentDepth >= 0 ? structure.contentDepth : COLLECT_DEFAULTS.layoutDepth;
        this.samplePath = structure.contentPath;
        this.sampleShared = new Set(structure.sharedPaths);
      }
      // The site's content depth is learnt from the pages whose text region lies where the sample's content
      // does (above or below it): the other classes of a site may put theirs elsewhere (a home page, a blog).
      const r = structure.layout.region;
      if (r >= 0 && this.samplePath >= 0 && (this.tagLists.hasPrefix(r, this.samplePath) || (this.tagLists.hasPrefix(this.samplePath, r) && !this.sampleShared.has(r)))) this.depths.add(structure.contentDepth, true);
      const schema = this.schemaOf(structure);
      const cluster = this.table.clusterOf(schema);
      page = { key, url: got.url, collections: structure.collections, structure, schema, cluster: cluster.id, shape: structure.shape };
      cluster.pages.push(page);
      this.order.push(page);
      this.byContent.set(hash, page);
    } catch (e) {
      if (!(e instanceof PageError)) throw e;
      this.dead++;
      for (const f of foldersOf(key)) {
        const d = this.folderDead.get(f) ?? { links: 0, entries: new Set<string>() };
        d.links++;
        d.entries.add(key.split(/[?#]/, 1)[0]!.slice(f.length).split('/', 1)[0]!);
        this.folderDead.set(f, d);
      }
      this.failures.push({ url, key, code: e.code, message: e.message });
      page = { key, url, collections: [], structure: undefined, schema: NO_SCHEMA, cluster: -1, shape: NO_SHAPE };
    }
    this.pages.set(key, page);
    if (key !== requested) this.pages.set(requested, page);
    this.options.onDownload?.(this.downloads, url);
    return page;
  }

  private schemaOf(s: Structure): PageSchema {
    const o = this.options;
    return schemaOfStructure(s, this.tagLists, this.layoutDepth, {
      ...(o.layout === undefined ? {} : { layout: o.layout }),
      ...(o.layoutBelow === undefined ? {} : { layoutBelow: o.layoutBelow }),
      ...(o.contentLevels === undefined ? {} : { contentLevels: o.contentLevels }),
    });
  }

  /**
   * Sets the site's content depth from the pages read so far (the sample and the pages its links led to:
   * one page alone, a short one especially, may put its content anywhere) and, when it changed, computes
   * every page's schema and cluster again, in the order they were read.
   */
  learnDepth(): void {
    if (this.depths.size === 0) return;
    const d = this.depths.value;
    if (d === this.layoutDepth) return;
    this.layoutDepth = d;
    this.table = new ClusterTable<Crawled>(this.threshold);
    for (const p of this.order) {
      p.schema = this.schemaOf(p.structure!);
      const c = this.table.clusterOf(p.schema);
      p.cluster = c.id;
      c.pages.push(p);
    }
  }

  /**
   * The page of link `key` found on page `from`. A link to another language or version of `from`
   * (variants.ts) is not tried once n links to that variant were dead and none was alive: undefined. A link
   * into a dead folder (`deadFolder`) is not tried either: a dead page, not downloaded nor kept.
   */
  async follow(from: string, key: string): Promise<Crawled | undefined> {
    // A link into a dead folder is not tried, and counts as dead where dead links count (a collection's
    // first n, its runs).
    const folder = this.deadFolder(key);
    if (folder !== undefined) {
      this.skipped.folders.add(folder);
      this.skipped.folderLinks++;
      return { key, url: this.addressOf.get(key) ?? this.source.urlOf(key), collections: [], structure: undefined, schema: NO_SCHEMA, cluster: -1, shape: NO_SHAPE };
    }
    const variant = variantOf(from, key);
    if (variant === undefined) return this.fetch(key);
    if (this.skipsVariant(from, key) && !this.pages.has(key)) return undefined;
    const q = await this.fetch(key);
    if (q.cluster >= 0) this.variantAlive.add(variant);
    else this.variantDead.set(variant, (this.variantDead.get(variant) ?? 0) + 1);
    return q;
  }

  /** On-site links of a collection as keys, without the page's own key and links to non-page files, first occurrence only. */
  keysOf(c: LinkCollection, own: string): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const l of c.links) {
      const raw = this.keyOf(l.url);
      if (raw === undefined || isSkippedResource(l.url)) continue;
      const k = this.known(raw);
      if (k === own || seen.has(k)) continue;
      this.kinds.add(k);
      this.sections.add(k);
      seen.add(k);
      if (!this.addressOf.has(k)) this.addressOf.set(k, l.url);
      out.push(k);
    }
    return out;
  }

  /**
   * True when every link of the target's pages was followed, but those whose address looks like no target
   * (`unlikely`) and those to a language or version found missing (variants.ts).
   */
  closed(target: Target): boolean {
    for (const p of target.pages()) {
      for (const c of p.collections) {
        // The rest of a collection given up after a run of dead links looks dead (`deadRun`).
        if (this.givenUp.has(p.key + '\0' + c.tagList)) continue;
        for (const k of this.keysOf(c, p.key)) {
          if (this.pages.has(k) || !target.placeOk(k) || this.unlikely(target, k) || this.skipsVariant(p.key, k) || this.deadFolder(k) !== undefined) continue;
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The folder of `key` (or one above it, the site's root apart) found dead: `n` links into it were dead,
   * through two entries of it or more (files or subfolders directly under it), and no page in it or below it
   * was read (a partial copy's missing module, `std/intrinsics/`); undefined when none is, or when `key` was
   * read. Dead links through one entry say nothing of its siblings: a missing submodule (`std/sync/mpsc/`)
   * is dead, not the module above it (`std/sync/`).
   */
  deadFolder(key: string): string | undefined {
    if (this.pages.has(key)) return undefined;
    return foldersOf(key).find((f) => {
      const d = this.folderDead.get(f);
      return d !== undefined && !this.folderAlive.has(f) && d.links >= this.n && d.entries.size >= 2;
    });
  }

  /**
   * True when a dead link `key` counts towards a collection's run of dead links (`deadRun`): its page's folder
   * (a directory's index page's parent: `pep-0393/` is in the root) is the root or holds a page read. Dead
   * links into a folder of no page read are the folder rule's (`deadFolder`): an index of every item of a
   * partial copy names whole modules that are missing between those that are not.
   */
  inRun(key: string): boolean {
    const segs = key.split(/[?#]/, 1)[0]!.replace(/(?:^|\/)index\.(?:html?|xhtml)$/i, '/').split('/');
    segs.pop();
    if (key.endsWith('/') || /(?:^|\/)index\.(?:html?|xhtml)$/i.test(key)) segs.pop();
    const folder = segs.filter((x) => x !== '').join('/');
    return folder === '' || this.folderAlive.has(folder + '/');
  }

  /** Collections given up after a run of dead links (`deadRun`), by page key and tag-list. */
  private readonly givenUp = new Set<string>();

  /** Gives up the collection of tag-list `tagList` on page `page` after a run of dead links (`deadRun`). */
  private giveUp(page: string, tagList: number): void {
    this.skipped.runs++;
    this.givenUp.add(page + '\0' + tagList);
  }

  /** True when link `key` of page `from` is to a variant found missing (`follow` does not try it). */
  private skipsVariant(from: string, key: string): boolean {
    const variant = variantOf(from, key);
    return variant !== undefined && !this.variantAlive.has(variant) && (this.variantDead.get(variant) ?? 0) >= this.n;
  }

  /**
   * True when the address of `key` looks more like a page read that is not a target, of the kind the
   * address of `key` names, than like any target (addresses.ts: the nearest known address decides, a tie is
   * not unlikely).
   */
  unlikely(target: Target, key: string, sameFolder = false): boolean {
    // An address that names the target's kind is likely wherever its folder (`m0/fn.open.html` for `m1/fn.read.html`).
    if (this.kinds.kindOf(key).kind !== '' && target.kindOk(key)) return false;
    if (this.othersVersion !== this.order.length + ':' + target.id) {
      this.others = new Map();
      for (const p of this.order) {
        if (target.takes(p)) continue;
        const kind = this.kinds.kindOf(p.key).kind;
        let a = this.others.get(kind);
        if (a === undefined) this.others.set(kind, (a = new Addresses()));
        a.add(p.key);
      }
      this.othersVersion = this.order.length + ':' + target.id;
    }
    // Only pages whose address names the same kind count: an item page read (`io/struct.Cursor.html`) says
    // nothing of its folder's index (`io/index.html`).
    const other = this.others.get(this.kinds.kindOf(key).kind)?.nearest(key) ?? -1;
    return other > target.addresses.nearest(key) && (!sameFolder || other >= 2);
  }

  /** Pages read whose address names the kind `key`'s names (0 for an address naming none). */
  readOfKind(key: string): number {
    const kind = this.kinds.kindOf(key).kind;
    if (kind === '') return 0;
    if (this.kindCounted !== this.order.length) {
      this.kindCounts = new Map();
      for (const p of this.order) {
        const c = this.kinds.kindOf(p.key).kind;
        this.kindCounts.set(c, (this.kindCounts.get(c) ?? 0) + 1);
      }
      this.kindCounted = this.order.length;
    }
    return this.kindCounts.get(kind) ?? 0;
  }

  private kindCounts = new Map<string, number>();
  private kindCounted = -1;

  /** The pages read that are no target, by the kind their address names. */
  private others = new Map<string, Addresses>();
  private othersVersion = '';

  /**
   * The key of a page read under another spelling of the same address, as a static host serves it
   * (`docs/setup` and `docs/setup.html`, `blog/` and `blog/index.html`), else `key` itself: a link to the
   * page read costs no download (two addresses with the same bytes would be one page anyway).
   */
  private known(key: string): string {
    if (this.pages.has(key)) return key;
    const bare = key.replace(/(?:index)?\.(?:html?|xhtml)$/i, '');
    for (const k of [bare, bare + '.html', bare + '.htm', bare.endsWith('/') ? bare + 'index.html' : bare + '/index.html']) if (k !== key && this.pages.has(k)) return k;
    return key;
  }

  /**
   * Step 1: follow the collections of `p`, each in order of likeness to the target's addresses, skipping the
   * rest of one once n links met the same cluster, or once n links were dead before any led to a page (dead
   * links are no page of any cluster: they neither count for a cluster nor against one, but a collection of
   * them is not worth more requests), and, once it led to a page that is no target, the links whose address
   * looks like such a page (module comment).
   */
  async discover(p: CrawledPage, target: Target, neighbours: Set<number>): Promise<void> {
    for (const c of p.collections) {
      const counts = new Map<number, number>();
      let dead = 0;
      // Dead links in a row (`deadRun` gives the collection up).
      let run = 0;
      let reached = 0;
      let nonTarget = false;
      for (const k of target.addresses.order(this.keysOf(c, p.key))) {
        // Once the collection led to a page that is no target, a link not read yet is followed only when its
        // address looks at least as much like a target as like a page that is none (addresses.ts).
        if (nonTarget && !this.pages.has(k) && this.unlikely(target, k, true)) continue;
        // A page whose address names another kind than the target's, once n pages of that kind were read: the
        // homologous link conjecture on addresses (the kind's pages are met already).
        if (!this.pages.has(k) && !target.kindOk(k) && this.readOfKind(k) >= this.n) continue;
        // The variant of a page that is no target has its structure: it is a cluster met already.
        if (!this.pages.has(k) && !target.takes(p) && variantOf(p.key, k) !== undefined) continue;
        const q = await this.follow(p.key, k);
        if (q === undefined) continue;
        if (q.cluster < 0) {
          if (++dead >= this.n && reached === 0) break;
          if (this.inRun(k) && ++run >= this.deadRun) {
            this.giveUp(p.key, c.tagList);
            break;
          }
          continue;
        }
        run = 0;
        reached++;
        if (!target.takes(q)) {
          neighbours.add(q.cluster);
          nonTarget = true;
        }
        const m = (counts.get(q.cluster) ?? 0) + 1;
        counts.set(q.cluster, m);
        if (m >= this.n) break;
      }
    }
  }

  /**
   * Step 2: the score of a set of pages (a cluster) as an index of `target`, and its back class-links.
   * `dead` remembers class-links already found to lead elsewhere (keyed by `owner` and tag-list). Dead links
   * neither feed nor kill a score; a page's collection whose first n links were dead, none reaching a page,
   * is given up, and the class-link once n of its collections were, before any of its links reached a page.
   */
  async evaluate(pages: readonly CrawledPage[], target: Target, before: ReadonlySet<string>, dead: Set<string>, owner: string): Promise<Evaluation> {
    const byList = new Map<number, CrawledPage[]>();
    for (const p of pages) {
      for (const c of p.collections) {
        let ps = byList.get(c.tagList);
        if (ps === undefined) byList.set(c.tagList, (ps = []));
        ps.push(p);
      }
    }
    let score = 0;
    const back: number[] = [];
    const pure: number[] = [];
    // New targets reached, per page and class-link, to tell a menu (below).
    const reachedFrom: Array<{ page: string; tagList: number; target: string }> = [];
    for (const [tagList, owners] of byList) {
      const id = owner + ':' + tagList;
      if (dead.has(id)) continue;
      let sum = 0;
      let zero = false;
      let collections = 0;
      let reached = 0;
      let strays = 0;
      // Collections of the class-link given up: their first n links dead, none reached.
      let abandoned = 0;

      outer: for (const p of owners) {
        for (const c of p.collections) {
          if (c.tagList !== tagList) continue;
          // Pages already read first (what they are costs nothing), then the links likeliest to be targets;
          // a link whose address looks more like a page read that is not a target than like a target is
          // not downloaded (addresses.ts).
          // Links whose address names another kind than the target's lead to none (a module's list of items
          // of every kind): a mixed collection gives the target's pages only.
          const all = target.addresses.order(this.keysOf(c, p.key).filter((k) => target.placeOk(k)));
          // A page's variant (its other language or version, variants.ts) has its structure: from a page that is
          // no target it leads to none.
          const other = !target.takes(p);
          const keys = [...all.filter((k) => this.pages.has(k)), ...all.filter((k) => !this.pages.has(k) && !this.unlikely(target, k) && !(other && variantOf(p.key, k) !== undefined))];
          if (keys.length === 0) continue;
          let counted = false;
          let missing = 0;
          let run = 0;
          for (const k of keys) {
            const q = await this.follow(p.key, k);
            if (q === undefined) continue;
            if (q.cluster < 0) {
              if (this.inRun(k) && ++run >= this.deadRun) {
                this.giveUp(p.key, c.tagList);
                break;
              }
              // One page's dead links (a home page's prose naming items outside the copy) say nothing of
              // another page's collection of the same tag-list: the collection is given up, and the
              // class-link once n of its collections were, none having reached a page.
              if (++missing >= this.n && !counted) {
                if (++abandoned >= this.n && reached === 0) {
                  zero = true;
                  break outer;
                }
                break;
              }
              continue;
            }
            run = 0;
            if (!counted) {
              collections++;
              counted = true;
            }
            reached++;
            if (!target.takes(q)) {
              // The paper scores the class-link 0 at its first page unlike the target; we tolerate a small
              // share of such pages (COLLECT_DEFAULTS.strayShare), so that one odd page of the class does
              // not hide an index of hundreds.
              strays++;
              if (strays > this.strayShare * reached) {
                zero = true;
                break outer;
              }
              continue;
            }
            if (!before.has(q.key)) {
              sum++;
              reachedFrom.push({ page: p.key, tagList, target: q.key });
            }
          }
        }
      }
      if (zero) {
        dead.add(id);
        continue;
      }
      if (collections === 0) continue;
      const s = sum / collections;
      if (s > 0) {
        back.push(tagList);
        score += s;
      } else if (strays === 0) pure.push(tagList);
    }
    return { score, back, pure, menu: isMenu(reachedFrom, back) };
  }

  /**
   * Step 3's harvest: the links of the index pages' back class-links that may lead to the target by their
   * address, but those into a dead folder; a collection is given up after `deadRun` dead links in a row.
   */
  private async harvest(indexPages: readonly CrawledPage[], back: ReadonlySet<number>, target: Target): Promise<void> {
    for (const q of indexPages) {
      for (const c of q.collections) {
        if (!back.has(c.tagList)) continue;
        let run = 0;
        for (const k of this.keysOf(c, q.key)) {
          if (!target.placeOk(k)) continue;
          const got = await this.follow(q.key, k);
          if (got === undefined) continue;
          if (got.cluster >= 0) run = 0;
          else if (this.inRun(k) && ++run >= this.deadRun) {
            this.giveUp(q.key, c.tagList);
            break;
          }
        }
      }
    }
  }

  /**
   * When the origin's section is told apart from no other section and alike to none (too few pages read
   * elsewhere), reads pages linked from the pages read into the other sections, the section with the most
   * pages known first, until one pair is told (SECTIONS_APART.minRead pages read in it) or its links run out
   * (2 × minRead tries a section). True when a page was read.
   */
  private async probeSections(target: Target): Promise<boolean> {
    if (!this.sectionsOn) return false;
    const s = this.sections.of(target.origin.key);
    if (s === '') return false;
    const others = this.sections.list().filter((x) => x.section !== s);
    if (others.some((x) => this.sectionsApart(s, x.section) !== undefined)) return false;
    let read = false;
    for (const { section } of others.sort((a, b) => b.pages - a.pages)) {
      const keys = new Set<string>();
      for (const p of this.order) for (const c of p.collections) for (const k of this.keysOf(c, p.key)) if (!this.pages.has(k) && this.sections.of(k) === section) keys.add(k);
      let tries = 0;
      for (const k of target.addresses.order([...keys])) {
        if (this.readIn(section) >= SECTIONS_APART.minRead || tries >= 2 * SECTIONS_APART.minRead) break;
        tries++;
        const q = await this.follow(target.origin.key, k);
        if (q !== undefined && q.cluster >= 0) read = true;
      }
      if (this.sectionsApart(s, section) !== undefined) break;
    }
    return read;
  }

  /** Steps 1–4 for one target; returns its pages. */
  async solve(target: Target, depth: number, ancestors: readonly Target[]): Promise<CrawledPage[]> {
    const neighbours = new Set<number>();
    const explored = new Set<string>();
    let ring = 0;
    // Step 1 from one page of each of the target's clusters: the pages of a cluster have the same
    // collections, which lead to the same clusters (the homologous link conjecture, section 2).
    // Not from a cluster an enclosing target holds (an index page's target that took the pages it indexes by
    // shape, their section being its own): the enclosing instance explores it.
    const seenClusters = new Set<number>();
    for (const p of target.pages()) {
      if (seenClusters.has(p.cluster) || ancestors.some((t) => t.accepts(p.cluster))) continue;
      seenClusters.add(p.cluster);
      explored.add(p.key);
      await this.discover(p, target, neighbours);
    }
    const used = new Set<number>();
    /** Clusters joined to an index target that gave it no index page: scored again, no index step when none scores. */
    const joined = new Set<number>();
    const dead = new Set<string>();
    /** Whether the strays of the target's clusters served as index pages (once per instance). */
    let strayed = false;
    /** Whether other sections were probed (`probeSections`, once). */
    let probed = false;
    let steps = 0;
    for (;;) {
      const before = new Set(target.pages().map((p) => p.key));
      // Step 2: the target itself first, then the neighbours in order of discovery.
      let best: ({ cluster: number } & Evaluation) | null = null;
      // The target's own class-links are judged again once it grew: a list that led to pages unlike the sample
      // alone (a chapter's table of contents) may lead to the grown target's pages.
      const self = await this.evaluate(target.pages(), target, before, dead, `self@${before.size}`);
      if (self.score > 0) best = { cluster: -1, ...self };
      // The pages of the target's clusters whose address names another kind (a module's index beside its
      // items, one schema): candidate index pages like a neighbour's, without recursion.
      const strays = strayed ? [] : target.strays();
      let strayPure: number[] = [];
      if (strays.length > 0) {
        const r = await this.evaluate(strays, target, before, dead, 'strays');
        if (r.score > 0 && (best === null || r.score > best.score)) best = { cluster: STRAYS, ...r };
        strayPure = r.pure;
      }
      // The first neighbour whose class-links reached targets only, none new (below).
      let pureNeighbour: { cluster: number; back: number[] } | undefined;
      for (const c of [...neighbours].sort((a, b) => a - b)) {
        if (used.has(c) || target.accepts(c) || ancestors.some((t) => t.accepts(c))) continue;
        const r = await this.evaluate(this.table.clusters[c]!.pages, target, before, dead, String(c));
        if (r.score > 0 && (best === null || r.score > best.score)) best = { cluster: c, ...r };
        if (r.score === 0 && r.pure.length > 0 && pureNeighbour === undefined && !joined.has(c)) pureNeighbour = { cluster: c, back: r.pure };
      }
      // Strays whose links reached targets only, all found another way first (a module's list of traits,
      // each trait reached from another's page): for a target whose addresses name a kind, they are index
      // pages all the same, and their cluster's other pages (the other modules) may list targets not found
      // yet; their index step runs once, as a best's.
      if (best === null && strayPure.length > 0 && target.typed()) best = { cluster: STRAYS, score: 0, back: strayPure, pure: [], menu: false };
      // So are a neighbour's (the module pages read beside the traits, one cluster of their own).
      if (best === null && pureNeighbour !== undefined && target.typed()) best = { cluster: pureNeighbour.cluster, score: 0, back: pureNeighbour.back, pure: [], menu: false };
      if (best === null) {
        // Widening (our extension, `rings`): when no neighbour leads back to the target, the neighbourhood
        // grows by one ring: step 1 runs on the pages of the neighbours not yet explored, so that index
        // pages two links away (a tag page reached through the list of tags) become candidates.
        const size = neighbours.size;
        // Not once a step found targets and every link of the targets that may lead to one was followed.
        if (ring < this.rings && (steps === 0 || !this.closed(target))) {
          ring++;
          // One page per cluster not explored yet, among the neighbours and the target's own clusters (pages
          // joined the target since step 1): the pages of a cluster have the same collections, which lead
          // to the same clusters (the homologous link conjecture, section 2).
          for (const c of [...target.members, ...neighbours]) {
            if (used.has(c) || (neighbours.has(c) && target.accepts(c)) || ancestors.some((t) => t.accepts(c))) continue;
            const p = this.table.clusters[c]!.pages.find((q) => !explored.has(q.key));
            if (p === undefined || this.table.clusters[c]!.pages.some((q) => explored.has(q.key))) continue;
            explored.add(p.key);
            await this.discover(p, target, neighbours);
          }
          if (neighbours.size > size) continue;
        }
        // The site's navigation (our extension): when the sample's own links lead to no index, step 1 runs
        // from the site's entry page (its home), whose menus reach the sections of the site.
        // Only while nothing was found: once an index step succeeded, no score left means the target is
        // complete (step 4: "usually in few iterations all the scores equal zero").
        if (depth === 0 && steps === 0 && !explored.has(ENTRY)) {
          explored.add(ENTRY);
          const home = this.keyOf(this.source.entry);
          if (home !== undefined && !this.addressOf.has(home)) this.addressOf.set(home, this.source.entry);
          const entry = home === undefined ? undefined : await this.fetch(home);
          if (entry !== undefined && entry.cluster >= 0 && !explored.has(entry.key)) {
            explored.add(entry.key);
            if (!target.accepts(entry.cluster)) neighbours.add(entry.cluster);
            await this.discover(entry, target, neighbours);
            if (neighbours.size > size) {
              ring = Math.max(0, this.rings - 1);
              continue;
            }
          }
        }
        // Sections (our extension): while nothing was found and the sample's section is told from no other,
        // pages of its class under another schema cannot join by shape; a few pages of other sections are read.
        // The class-links found dead were judged against a target without the pages that may join it now.
        if (depth === 0 && steps === 0 && !probed) {
          probed = true;
          if (await this.probeSections(target)) {
            dead.clear();
            continue;
          }
        }
        break;
      }
      // Step 3: recursion to catch index pages, then harvest their back class-links.
      let indexPages: CrawledPage[];
      if (best.cluster === STRAYS) {
        // The strays grow as a target of their own (their kind, their cluster), as an index cluster does.
        strayed = true;
        const first = target.strays()[0]!;
        const index = new Target(this, first.cluster, first);
        // Never taken for a menu: the strays are pages of another kind read by chance among the target's (a
        // crate root and one module index, one listing all the new targets); two of them cannot tell a menu
        // repeated on every page from index pages each listing their own items.
        indexPages = depth < this.maxDepth ? await this.solve(index, depth + 1, [...ancestors, target]) : index.pages();
        for (const q of indexPages) this.indexKeys.add(q.key);
        await this.harvest(indexPages, new Set(best.back), target);
      } else if (best.cluster < 0) {
        indexPages = target.pages();
      } else {
        const index = new Target(this, best.cluster);
        // Recursion, unless the index cluster's back class-links are one menu repeated on its every page.
        indexPages = depth < this.maxDepth && !best.menu ? await this.solve(index, depth + 1, [...ancestors, target]) : index.pages();
        // Used: the index cluster and the clusters of the index pages returned. The index target's other
        // clusters (pages of another kind joined by single linkage: module pages beside the traits) gave no
        // index page and may still serve as index pages of their own when they score; not by the index step
        // of a neighbour that scores nothing: the recursion grew them already.
        used.add(best.cluster);
        for (const q of indexPages) used.add(q.cluster);
        for (const m of index.members) if (!used.has(m)) joined.add(m);
        const back = new Set(best.back);
        for (const q of indexPages) this.indexKeys.add(q.key);
        await this.harvest(indexPages, back, target);
      }
      const after = target.pages().length;
      steps++;
      this.indexPath.push({
        depth,
        cluster: best.cluster,
        example: (best.cluster === STRAYS ? indexPages[0] : best.cluster < 0 ? target.pages()[0] : this.table.clusters[best.cluster]!.pages[0])?.key ?? '',
        score: round(best.score),
        backClassLinks: best.back.map((t) => this.tagLists.describe(t)),
        indexPages: indexPages.length,
        newTargets: after - before.size,
      });
      // Step 4: iterate (scores are computed again against the grown target).
    }
    return target.pages();
  }
}

/**
 * What makes a run doubtful: the budget stopped it; many pages taken that are unlike the sample itself
 * (joined through other pages, a chain); pages left whose schema is as similar to the sample as the
 * threshold (the site's classes share one structure and only their clusters or addresses set them apart).
 */
function doubtsOf(taken: readonly CollectedPage[], left: readonly CollectedPage[], threshold: number, complete: boolean, skipped: IndesitResult['deadSkipped']): string[] {
  const out: string[] = [];
  if (!complete) out.push('the download budget stopped the run: pages of the class may be missing');
  if (skipped.folderLinks > 0) {
    const shown = skipped.folders.slice(0, 5).join(', ') + (skipped.folders.length > 5 ? ', …' : '');
    out.push(`${skipped.folderLinks} links into ${skipped.folders.length} folders whose first links were dead (${shown}) were not tried: pages there may be missing`);
  }
  if (skipped.runs > 0) out.push(`${skipped.runs} link collections were given up after ${COLLECT_DEFAULTS.deadRun} dead links in a row: pages they list further may be missing`);
  const far = taken.filter((p) => p.similarity < threshold && p.evidence === 'schema').length;
  if (far > 0.2 * taken.length && far >= 3) out.push(`${far} of ${taken.length} pages collected have a schema below the threshold ${threshold} to the sample (joined through similar pages): the class may hold several`);
  const close = left.filter((p) => p.similarity >= threshold).length;
  if (close > 0) out.push(`${close} pages left have a schema as similar to the sample as the threshold ${threshold} (set apart by their cluster or the kind their address names): the site's classes share their structure`);
  return out;
}

/** The folders of a key, innermost first, the site's root apart: `a/b/c.html` → `a/b/`, `a/`. */
function foldersOf(key: string): string[] {
  const segs = key.split(/[?#]/, 1)[0]!.split('/');
  segs.pop();
  const out: string[] = [];
  for (let k = segs.length; k > 0; k--) if (segs[k - 1] !== '') out.push(segs.slice(0, k).join('/') + '/');
  return out;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Runs INDESIT from one sample page (an absolute URL or a key of `source`). Rejects with a UsageError
 * when the sample is not in the source and with the PageError when the sample cannot be loaded; later
 * failures are recorded in `failures` and the run goes on.
 */
export async function indesit(source: PageSource, sample: string, options: IndesitOptions = {}): Promise<IndesitResult> {
  const run = new Run(source, options);
  const sampleKey = /^[a-z][a-z0-9+.-]*:/i.test(sample) ? source.keyOf(sample) : sample;
  if (sampleKey === undefined) throw new UsageError(`${sample}: not a page of the source ${source.root}`);
  const first = await run.fetch(sampleKey);
  if (first.cluster < 0) {
    const f = run.failures[0];
    throw new PageError(first.url, (f?.code ?? 'read-error') as PageError['code'], `sample page could not be loaded: ${f?.message ?? 'unknown error'}`);
  }
  let target = new Target(run, first.cluster);
  let complete = true;
  try {
    // Step 1 from the sample first: its neighbours tell the depth of the site's content (`learnDepth`);
    // the pages are cached, step 1 of `solve` reads them again for free.
    await run.discover(first, target, new Set());
    run.learnDepth();
    target = new Target(run, first.cluster);
    await run.solve(target, 0, []);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    complete = false;
  }
  const pages = target.pages();
  const collected = new Set(pages.map((p) => p.key));
  const sampleKind = run.kinds.kindOf(first.key).kind;
  const why = (p: Crawled): CollectedPage => {
    const kind = run.kinds.kindOf(p.key).kind;
    const taken = collected.has(p.key);
    const evidence = kind !== sampleKind ? 'kind' : !target.sectionOk(p.key) ? 'section' : taken && !target.accepts(p.cluster) ? 'shape' : 'schema';
    return { key: p.key, url: p.url, cluster: p.cluster, similarity: round(similarity(first.schema, p.schema)), shapeSimilarity: round(run.shapeOf(first, p)), kind, ...(run.sectionsOn ? { section: run.sections.of(p.key) } : {}), evidence };
  };
  const taken = pages.map(why);
  const deadSkipped = { folders: [...run.skipped.folders], folderLinks: run.skipped.folderLinks, runs: run.skipped.runs };
  const left = run.table.clusters.flatMap((c) => c.pages.filter((p) => !collected.has(p.key)).map(why));
  return {
    sample: { key: first.key, url: first.url },
    pages: taken,
    left,
    threshold: run.threshold,
    shapeThreshold: run.shapeThreshold,
    doubts: doubtsOf(taken, left, run.threshold, complete, deadSkipped),
    downloads: run.downloads,
    deadLinks: run.dead,
    deadSkipped,
    sourceLoaded: source.loaded,
    clusters: run.table.clusters.map((c) => ({
      id: c.id,
      size: c.pages.length,
      target: target.accepts(c.id),
      example: c.pages[0]?.key ?? '',
      schemaSize: c.schema.links.length,
    })),
    indexPath: run.indexPath,
    indexPages: [...run.indexKeys].filter((k) => !collected.has(k)),
    failures: run.failures,
    complete,
    sampleSchema: [...first.schema.links].map((t) => run.tagLists.describe(t)),
    sampleLayout: [...first.schema.layout].map((t) => run.tagLists.describe(t)),
  };
}
