/**
 * The layout of a page: the second half of its schema (page-schema.ts), beside the paper's tag-lists of
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
 * elements that lie outside its text region (text-region.ts) and no deeper than the site's content: the
 * header, the bars, the sidebars, the containers down to the text region, and the text region itself, but
 * nothing inside it and nothing nested deeper than the content of the site's pages (a menu's items at
 * depth 12 of a site whose articles sit at depth 6). The depth is one for all pages of a site (the median
 * depth of their content, `LayoutDepth`), so that a page without a text region (a list of links, a page
 * with little text) is cut where the others are.
 *
 * Like a schema, a layout is a sorted Int32Array of distinct ids; pages compare by the Jaccard coefficient.
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

/** The block elements of a page outside its text region, as tag-list ids with their depths. */
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
 * `region` its text region (-1 when none).
 */
export function layoutPaths(tree: Tree, tagLists: TagLists, memo: Int32Array, region: number): LayoutPaths {
  const seen = new Set<number>();
  // Skip the subtrees of unread elements (scripts, templates, svg…) and of the text region.
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
    seen.add(id);
    i = id === region ? tree.end[i]! : i + 1;
  }
  const ids = Int32Array.from(seen).sort();
  const depths = new Uint16Array(ids.length);
  for (let k = 0; k < ids.length; k++) depths[k] = tagLists.depth(ids[k]!);
  return { ids, depths, region, regionDepth: region < 0 ? -1 : tagLists.depth(region) };
}

/**
 * The layout of a page: its layout paths no deeper than `depth` (one depth for every page of a site, the
 * depth of its content: `LayoutDepth`). Paths inside the text region (under each element of its path) were
 * left out by `layoutPaths`.
 */
export function layoutOf(paths: LayoutPaths, depth: number): Int32Array {
  let n = 0;
  const out = new Int32Array(paths.ids.length);
  for (let k = 0; k < paths.ids.length; k++) if (paths.depths[k]! <= depth) out[n++] = paths.ids[k]!;
  return out.slice(0, n);
}

/**
 * The depth at which layouts are cut: the median depth of the content of the site's pages (structure.ts
 * `contentDepth`), or COLLECT_DEFAULTS.layoutDepth before any.
 */
export class LayoutDepth {
  private readonly counts = new Map<number, number>();
  private n = 0;

  /** Records the content depth of a page (structure.ts `contentDepth`; -1: none). */
  add(contentDepth: number): void {
    if (contentDepth < 0) return;
    this.counts.set(contentDepth, (this.counts.get(contentDepth) ?? 0) + 1);
    this.n++;
  }

  /** The median recorded depth (the lower one of two middles), or the default when none. */
  get value(): number {
    if (this.n === 0) return COLLECT_DEFAULTS.layoutDepth;
    let seen = 0;
    for (const d of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(d)!;
      if (2 * seen >= this.n) return d;
    }
    return COLLECT_DEFAULTS.layoutDepth;
  }
}
