/**
 * A page's structure as INDESIT (indesit.ts) and structural clustering (src/cluster/schema.ts) see it: its
 * link collections (link-collections.ts, paper 4 section 2) and its layout paths (layout.ts), read in one
 * walk of the page, and its schema (src/structure/page-schema.ts) once the depth that cuts pages without a text region is
 * known (layout.ts `LayoutDepth`).
 */
import { tagId, type Tree } from '../html/tree.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';
import { filled } from '../filled.ts';
import { contentOf, layoutOf, layoutPaths, type LayoutPaths } from './layout.ts';
import { type LinkCollection, pageLinks, type TagLists } from './link-collections.ts';
import { distinctSorted, type PageSchema, type SchemaOptions } from './page-schema.ts';
import { textRegion } from './text-region.ts';
import { pageShape } from './page-shape.ts';

/** Options of `readStructure`. */
export interface StructureOptions {
  /** PageSource.keyOf: which URLs are on the site (link-collections.ts). */
  keyOf?: (url: string) => string | undefined;
  /** One collection for the links of a page's text region (default COLLECT_DEFAULTS.textRegion; false = the paper). */
  textRegion?: boolean;
  /** Running-text words a page needs to have a text region (default COLLECT_DEFAULTS.textRegionWords). */
  textRegionWords?: number;
  /** The links of a list make one schema feature (default COLLECT_DEFAULTS.listRoots; link-collections.ts). */
  listRoots?: boolean;
  /** Levels of the text region's structure read (default COLLECT_DEFAULTS.contentLevels; layout.ts). */
  contentLevels?: number;
  /** Find `Structure.sharedPaths` (a walk of the whole page; INDESIT needs it for its sample only). */
  sharedPaths?: boolean;
  /** Read `Structure.shape` (a walk of the whole page; grouping by page shape needs it). */
  shape?: boolean;
  /** In the shape, elements of the content area count by their own step under the area (page-shape.ts `pageShape`). */
  flatContent?: boolean;
}

/** What a page's structure is made of. */
export interface Structure {
  readonly collections: LinkCollection[];
  readonly layout: LayoutPaths;
  /**
   * Depth of the page's content: its text region's, or for a page without one (too little text), the depth
   * of the region its text would have with no minimum of words, or for a page without running text, of its
   * `main` element (or `[role=main]`, or first `article`); -1 when none of these is found.
   */
  readonly contentDepth: number;
  /** The tag-list of that content (-1 when none). */
  readonly contentPath: number;
  /** The text region with no minimum of words, for a page without a text region (-1: none, or it has one). */
  readonly weakRegion: number;
  /** The tag-lists on the way to `contentPath` (itself included) that more than one element has (with `sharedPaths`). */
  readonly sharedPaths: readonly number[];
  /** The tag-lists of all its elements (src/structure/page-shape.ts; with `shape`, else empty). */
  readonly shape: Int32Array;
}

/** Reads the link collections and layout paths of a parsed page. */
export function readStructure(tree: Tree, pageUrl: string, tagLists: TagLists, options: StructureOptions = {}): Structure {
  const { collections, region, memo } = pageLinks(tree, pageUrl, tagLists, options);
  const layout = layoutPaths(tree, tagLists, memo, region, options.contentLevels);
  const weak = region >= 0 ? region : textRegion(tree, tagLists, memo, { minWords: 1 });
  const weakRegion = region >= 0 ? -1 : weak;
  const main = weak >= 0 ? -1 : mainElement(tree);
  const contentPath = weak >= 0 ? weak : main < 0 ? -1 : tagLists.pathOf(tree, main, memo);
  const sharedPaths = options.sharedPaths ? sharedAncestors(tree, tagLists, memo, contentPath) : [];
  return { collections, layout, contentPath, contentDepth: contentPath < 0 ? -1 : tagLists.depth(contentPath), weakRegion, sharedPaths, shape: options.shape ? pageShape(tree, tagLists, memo, options.flatContent ? contentPath : -1) : NO_SHAPE };
}

/**
 * A structure read with another table (`TagLists.merge` gave `ids`, its ids here): the same structure with
 * this table's ids, its sorted id lists sorted again.
 */
export function remapStructure(s: Structure, ids: Int32Array, tagLists: TagLists): Structure {
  const at = (t: number): number => (t < 0 ? t : ids[t]!);
  const layoutIds = s.layout.ids.map(at).sort();
  return {
    collections: s.collections.map((c) => ({ ...c, tagList: at(c.tagList), feature: at(c.feature) })),
    layout: { ids: layoutIds, depths: Uint16Array.from(layoutIds, (id) => tagLists.depth(id)), region: at(s.layout.region), regionDepth: s.layout.regionDepth },
    contentDepth: s.contentDepth,
    contentPath: at(s.contentPath),
    weakRegion: at(s.weakRegion),
    sharedPaths: s.sharedPaths.map(at),
    shape: s.shape.map(at).sort(),
  };
}

/**
 * The tag-lists on the way to `path` (itself included) that more than one element of the page has (three
 * sibling `div`s for a header, a page and a footer whose only difference is their `id`).
 */
function sharedAncestors(tree: Tree, tagLists: TagLists, memo: Int32Array, path: number): number[] {
  if (path < 0) return [];
  const counts = new Map<number, number>();
  for (let t = path; t > 0; t = tagLists.parentOf(t)) counts.set(t, 0);
  for (let i = 0; i < tree.size; i++) {
    if (!tree.isElement(i)) continue;
    const id = memo[i]! >= 0 ? memo[i]! : tagLists.pathOf(tree, i, memo);
    const n = counts.get(id);
    if (n !== undefined) counts.set(id, n + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([t]) => t);
}

const NO_SHAPE = new Int32Array(0);
const MAIN = tagId('main');
const ARTICLE = tagId('article');

/** The page's `main` element (or `[role=main]`, or its first `article`): -1 when none. */
function mainElement(tree: Tree): number {
  let article = -1;
  for (let i = 0; i < tree.size; i++) {
    if (!tree.isElement(i)) continue;
    if (tree.name[i] === MAIN || tree.attr(i, 'role') === 'main') return i;
    if (article < 0 && tree.name[i] === ARTICLE) article = i;
  }
  return article;
}

/** Options of `schemaOfStructure`. */
export interface StructureSchemaOptions extends SchemaOptions {
  /** Compare layouts too (default COLLECT_DEFAULTS.layout; false: links only, the paper's schema). */
  layout?: boolean;
  /** Levels of the frame kept below the content depth (default COLLECT_DEFAULTS.layoutBelow). */
  layoutBelow?: number;
  /** Levels of the content area's structure kept (default COLLECT_DEFAULTS.contentLevels; 0: none). */
  contentLevels?: number;
}

/**
 * The tag-list of a page's content area at a site's content depth: its text region, lifted to that depth
 * when deeper; for a page without one, its text region with no minimum of words when that lies at the
 * depth or deeper, lifted likewise; -1 otherwise.
 */
export function contentArea(s: Structure, tagLists: TagLists, contentDepth: number): number {
  const region = s.layout.region;
  const weak = region < 0 && s.weakRegion >= 0 && tagLists.depth(s.weakRegion) >= contentDepth ? s.weakRegion : -1;
  return region < 0 ? (weak < 0 ? -1 : tagLists.ancestorAt(weak, contentDepth)) : tagLists.ancestorAt(region, Math.max(contentDepth, 1));
}

/**
 * The schema of a page's structure, for a site whose content lies at depth `contentDepth` (layout.ts
 * `LayoutDepth`). The page's content area is its text region, or when the region is deeper than the site's
 * content, the region's ancestor at that depth (a short article's region is its description block, a long
 * one's the whole content container): the links under it are one collection, its own structure (`levels`
 * below it) is the schema's content, and the frame is the layout around it.
 */
export function schemaOfStructure(s: Structure, tagLists: TagLists, contentDepth: number, options: StructureSchemaOptions = {}): PageSchema {
  const o = filled(options, COLLECT_DEFAULTS, ['layout', 'layoutBelow', 'contentLevels', 'offSiteLinks']);
  const withLayout = o.layout;
  const below = o.layoutBelow;
  const levels = withLayout ? o.contentLevels : 0;
  const keepInline = options.inlineLinks ?? true;
  const keepOff = o.offSiteLinks;
  const region = s.layout.region;
  const area = contentArea(s, tagLists, contentDepth);
  const regionLinks = region < 0 ? -1 : tagLists.textLinks(region);
  const areaLinks = area < 0 ? -1 : tagLists.textLinks(area);
  const ids = new Int32Array(s.collections.length + 1);
  let n = 0;
  // The content area's collection is part of the structure even without links.
  if (areaLinks >= 0) ids[n++] = areaLinks;
  for (const c of s.collections) {
    if ((!keepInline && c.inline) || (!keepOff && c.offSite)) continue;
    const inArea = area >= 0 && (c.tagList === regionLinks || (tagLists.hasPrefix(c.tagList, area) && (region < 0 || !tagLists.hasPrefix(c.tagList, region))));
    ids[n++] = inArea ? areaLinks : c.feature;
  }
  const none = new Int32Array(0);
  return {
    links: distinctSorted(ids.subarray(0, n)),
    layout: withLayout ? layoutOf(s.layout, contentDepth + below, tagLists, area) : none,
    content: withLayout ? contentOf(s.layout, tagLists, area, levels) : none,
  };
}
