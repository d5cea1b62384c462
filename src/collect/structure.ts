/**
 * A page's structure as INDESIT (indesit.ts) and structural clustering (src/cluster/schema.ts) see it: its
 * link collections (link-collections.ts, paper 4 section 2) and its layout paths (layout.ts), read in one
 * walk of the page, and its schema (page-schema.ts) once the depth that cuts pages without a text region is
 * known (layout.ts `LayoutDepth`).
 */
import { tagId, type Tree } from '../html/tree.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';
import { layoutOf, layoutPaths, type LayoutPaths } from './layout.ts';
import { type LinkCollection, pageLinks, type TagLists } from './link-collections.ts';
import { type PageSchema, schemaOf, type SchemaOptions } from './page-schema.ts';
import { textRegion } from './text-region.ts';

/** Options of `readStructure`. */
export interface StructureOptions {
  /** PageSource.keyOf: which URLs are on the site (link-collections.ts). */
  keyOf?: (url: string) => string | undefined;
  /** One collection for the links of a page's text region (default COLLECT_DEFAULTS.textRegion; false = the paper). */
  textRegion?: boolean;
  /** Running-text words a page needs to have a text region (default COLLECT_DEFAULTS.textRegionWords). */
  textRegionWords?: number;
  /** A text region known from another page, for a page with too little text (link-collections.ts). */
  knownRegion?: number;
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
}

/** Reads the link collections and layout paths of a parsed page. */
export function readStructure(tree: Tree, pageUrl: string, tagLists: TagLists, options: StructureOptions = {}): Structure {
  const { collections, region, memo } = pageLinks(tree, pageUrl, tagLists, options);
  const layout = layoutPaths(tree, tagLists, memo, region);
  const weak = region >= 0 ? region : textRegion(tree, tagLists, memo, { minWords: 1 });
  if (weak >= 0) return { collections, layout, contentDepth: tagLists.depth(weak) };
  const main = mainElement(tree);
  return { collections, layout, contentDepth: main < 0 ? -1 : tagLists.depth(tagLists.pathOf(tree, main, memo)) };
}

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
  /** Levels of the layout kept below the content depth (default COLLECT_DEFAULTS.layoutBelow). */
  layoutBelow?: number;
}

/**
 * The schema of a page's structure; its layout is cut `layoutBelow` levels below `contentDepth`, the depth
 * of the content of the site's pages (layout.ts `LayoutDepth`).
 */
export function schemaOfStructure(s: Structure, contentDepth: number, options: StructureSchemaOptions = {}): PageSchema {
  const withLayout = options.layout ?? COLLECT_DEFAULTS.layout;
  const below = options.layoutBelow ?? COLLECT_DEFAULTS.layoutBelow;
  return schemaOf(s.collections, options, withLayout ? layoutOf(s.layout, contentDepth + below) : undefined);
}
