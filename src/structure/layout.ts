/**
 * The layout of a page: the second half of its schema (src/structure/page-schema.ts), beside the paper's tag-lists of
 * link collections (paper 4, section 2).
 *
 * The paper describes a page by the paths to its anchors only. Two kinds of page escape that model:
 *  - pages whose links all lie in the template and in their text (an API reference page, a help page and a
 *    package summary of a Javadoc site have the same four collections: top bar, sub bar, bottom bar and the
 *    links of their text), yet are laid out differently (a header with a subtitle and a type name, or a
 *    package title; a description block, or a summary table);
 *  - pages of one class whose content has optional parts: what distinguishes classes is the frame the
 *    template puts around the content, not the content.
 * The layout is that frame: the tag-lists (same interned paths as link tag-lists) of the page's block
 * elements that lie outside its content area (structure.ts: its text region, lifted to the site's content
 * depth) and no deeper than the site's content: the header, the bars, the sidebars, the containers down to
 * the content area, and the area itself, but nothing inside it and nothing nested deeper than the content
 * of the site's pages (a menu's items at depth 12 of a site whose articles sit at depth 6). The depth is one
 * for all pages of a site (the median depth of their content, `LayoutDepth`), so that a page without a text
 * region (a list of links, a page with little text) is cut where the others are.
 *
 * What is inside the content area is the third part of the schema, `contentOf`: its blocks, one level
 * down (a description, a summary table, a list of answers). Pages of one class differ there by their
 * optional sections, so it is compared apart (src/structure/page-schema.ts).
 *
 * `layoutPaths` reads every block path of a page once; `layoutOf` and `contentOf` cut them once the site's
 * content depth is known. Like a schema, each is a sorted Int32Array of distinct ids.
 */
import { NodeKind, tagId, type Tree } from '../html/tree.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';
import type { TagLists } from './link-collections.ts';
import { PHRASING_TAGS, UNREAD_TAGS } from './text-region.ts';

/** Elements that are not blocks of the layout: inline ones, links (their paths are the other half), void ones. */
const NOT_LAYOUT: ReadonlySet<number> = new Set([
  ...PHRASING_TAGS,
  ...['a', 'html', 'body', 'head', 'meta', 'link', 'title', 'img', 'picture', 'source', 'input', 'br', 'hr', 'wbr', 'path'].map(tagId),
]);

/** The block elements of a page, as tag-list ids with their depths. */
export interface LayoutPaths {
  /** Distinct tag-list ids, ascending. */
  readonly ids: Int32Array;
  /** Depth (steps) of each id. */
  readonly depths: Uint16Array;
  /** The text region's id and depth (-1 when the page has none). */
  readonly region: number;
  readonly regionDepth: number;
}

/**
 * The layout paths of a page. `memo` is the tag-list memo of the page (link-collections.ts `pageLinks`),
 * `region` its text region (-1 when none), recorded with them. Inside the region only `levels` levels are
 * read: the region lies in the page's content area (page-structure.ts), whose structure is kept that deep
 * (`contentOf`), and the inside of an article is most of a long page.
 */
export function layoutPaths(tree: Tree, tagLists: TagLists, memo: Int32Array, region: number, levels: number = COLLECT_DEFAULTS.contentLevels): LayoutPaths {
  const seen = new Set<number>();
  const regionDepth = region < 0 ? -1 : tagLists.depth(region);
  let regionEnd = -1;
  // Skip the subtrees of unread elements (scripts, templates, svg…) and the depths of the region not read.
  for (let i = 0; i < tree.size; ) {
    if (tree.kind[i] !== NodeKind.Element) {
      i++;
      continue;
    }
    const name = tree.name[i]!;
    if (UNREAD_TAGS.has(name)) {
      i = tree.end[i]!;
      continue;
    }
    if (NOT_LAYOUT.has(name)) {
      i++;
      continue;
    }
    const id = tagLists.pathOf(tree, i, memo);
    if (i < regionEnd && tagLists.depth(id) > regionDepth + levels) {
      i = tree.end[i]!;
      continue;
    }
    if (id === region && i >= regionEnd) regionEnd = tree.end[i]!;
    seen.add(id);
    i++;
  }
  const ids = Int32Array.from(seen).sort();
  const depths = new Uint16Array(ids.length);
  for (let k = 0; k < ids.length; k++) depths[k] = tagLists.depth(ids[k]!);
  return { ids, depths, region, regionDepth };
}

/**
 * The frame of a page: its layout paths no deeper than `depth` (one depth for every page of a site, the
 * depth of its content plus a level: `LayoutDepth`), outside its content area `area` (-1: none; the area's
 * own path is kept).
 */
export function layoutOf(paths: LayoutPaths, depth: number, tagLists?: TagLists, area = -1): Int32Array {
  let n = 0;
  const out = new Int32Array(paths.ids.length);
  for (let k = 0; k < paths.ids.length; k++) {
    const id = paths.ids[k]!;
    if (paths.depths[k]! > depth || (area >= 0 && id !== area && tagLists !== undefined && tagLists.hasPrefix(id, area))) continue;
    out[n++] = id;
  }
  return out.slice(0, n);
}

/** The content of a page: its layout paths inside its content area `area`, at most `levels` below it. */
export function contentOf(paths: LayoutPaths, tagLists: TagLists, area: number, levels: number): Int32Array {
  if (area < 0 || levels <= 0) return new Int32Array(0);
  const limit = tagLists.depth(area) + levels;
  let n = 0;
  const out = new Int32Array(paths.ids.length);
  for (let k = 0; k < paths.ids.length; k++) {
    const id = paths.ids[k]!;
    if (id !== area && paths.depths[k]! <= limit && tagLists.hasPrefix(id, area)) out[n++] = id;
  }
  return out.slice(0, n);
}

/**
 * The depth of a site's content, where layouts are cut and deeper text regions lifted (page-structure.ts): the
 * median depth of the text regions of its pages; when no page read has one, the median of the other
 * content depths (page-structure.ts `contentDepth`: a page's text with no minimum of words, its `main`), or
 * COLLECT_DEFAULTS.layoutDepth before any. Pages with little text say little about where a site puts its
 * articles (a documentation site's category pages hold a list in `main`, its articles lie five levels
 * deeper).
 */
export class LayoutDepth {
  private readonly regions = new Median();
  private readonly others = new Median();

  /** Records a page's content depth (page-structure.ts `contentDepth`; -1: none), `region` when it is its text region's. */
  add(contentDepth: number, region: boolean): void {
    if (contentDepth >= 0) (region ? this.regions : this.others).add(contentDepth);
  }

  /** Depths recorded. */
  get size(): number {
    return this.regions.size + this.others.size;
  }

  /** The median depth of the text regions, else of the other content depths, else the default. */
  get value(): number {
    return this.regions.value ?? this.others.value ?? COLLECT_DEFAULTS.layoutDepth;
  }
}

/** The median of small integers (the lower one of two middles). */
class Median {
  private readonly counts = new Map<number, number>();
  private n = 0;

  get size(): number {
    return this.n;
  }

  add(x: number): void {
    this.counts.set(x, (this.counts.get(x) ?? 0) + 1);
    this.n++;
  }

  get value(): number | undefined {
    let seen = 0;
    for (const d of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(d)!;
      if (2 * seen >= this.n) return d;
    }
    return undefined;
  }
}
