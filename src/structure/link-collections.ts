/**
 * One file over 400 lines: the tag-list trie and the collections read through it share one interning of
 * paths, and both are on the per-page hot path.
 *
 * Link collections and tag-lists (paper 4, section 2, "Web page structure model"): "a web page is described
 * by considering only the paths of the corresponding DOM tree that start from the root and terminate into an
 * anchor node. We call link collection one of such DOM paths together with all the <url, anchor> pairs that
 * share that path. Also, we call tag-list the root-to-anchor path of each link collection." Footnote 1: the
 * nodes of a path carry "the name and value of HTML attributes" too.
 *
 * Tag-lists are interned per site in a trie of integers (`TagLists`): a tag-list id stands for the path
 * (parent tag-list, step), a step being an element's tag name with its attributes, so equal paths on
 * different pages of one site are equal integers, and a page's schema is a sorted set of them
 * (src/structure/page-schema.ts).
 *
 * Choices the paper leaves open, made here (each measured on the corpus, see defaults.ts):
 *  - links are those of site/links.ts `extractLinks` (`<a href>`, `<area href>`, resolved against
 *    `<base href>`, normalised, page schemes only), every occurrence kept;
 *  - in-page anchors (an href that is only a fragment, `#section`, as in a table of contents) are left
 *    out by default: they lead to no page, and they vary with the page's headings (`selfLinks: true`
 *    keeps them). A link to the page itself by its address (the active item of a menu) is kept: it is
 *    the template's navigation, and dropping it made the first page of each docs section (which the
 *    section's tab links to) unlike the others of its class (django-rest-framework-docs, requests);
 *  - a step keeps every attribute but those carrying one link's or one page's data (href, title, id…,
 *    COLLECT_DEFAULTS.ignoredAttributes), and runs of equal steps count once (`collapseRepeats`);
 *  - each collection says whether it holds links in running text (`inline`) and whether all its links
 *    leave the site (`offSite`); the schema leaves off-site collections out (src/structure/page-schema.ts);
 *  - the links under the page's text region (text-region.ts: the article, where most of its running text
 *    is) form one collection, tag-list `<region path> > #text`, present (possibly empty) whenever the page
 *    has a text region and never off-site; in a link-dense region (an index with some text), lists of
 *    links stay collections of their own (COLLECT_DEFAULTS.textRegion… , `textRegion: false` is the paper).
 */
import { NodeKind, tagId, tagName, type Tree } from '../html/tree.ts';
import { extractLinks, normalizeUrl } from '../site/links.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';
import { filled, withDefaults } from '../filled.ts';
import { linkDensity, PHRASING_TAGS, textRegion, wordCount } from './text-region.ts';

/** One `<url, anchor>` pair of a link collection. */
export interface LinkPair {
  /** Absolute URL, without fragment. */
  readonly url: string;
  /** The anchor's text, whitespace collapsed. */
  readonly anchor: string;
}

/** A tag-list together with the `<url, anchor>` pairs of one page that share it, in document order. */
export interface LinkCollection {
  /** Tag-list id (see `TagLists`). */
  readonly tagList: number;
  readonly links: readonly LinkPair[];
  /**
   * True when some link of the collection sits in running text (its parent element also holds text of
   * its own, as in a sentence): editorial content rather than navigation (see `schemaOf`).
   */
  readonly inline: boolean;
  /** True when every link of the collection leaves the site (`onSite` option of `linkCollections`). */
  readonly offSite: boolean;
  /**
   * The collection's feature in the page schema (src/structure/page-schema.ts): its tag-list, or for links in a list, the
   * list's (`TagLists.listFeature`).
   */
  readonly feature: number;
}

/** The steps (key, tag name; null: no element) and tag-lists (parent, step) a `TagLists` interned, in order. */
export interface TagListEntries {
  steps: Array<[string, string | null]>;
  parents: Int32Array;
  stepOf: Int32Array;
}

/** Which attributes, with the tag name, make up one step of a tag-list. */
export interface TagListOptions {
  /**
   * 'all' (every attribute but those in `ignoreAttributes`), 'none' (tag names only, as in the paper's
   * examples), or an explicit list. Default COLLECT_DEFAULTS.schemaAttributes.
   */
  attributes?: 'all' | 'none' | readonly string[];
  /** Collapse runs of equal consecutive steps (section > section > p becomes section > p). */
  collapseRepeats?: boolean;
  /** With attributes 'all': attributes left out. Default COLLECT_DEFAULTS.ignoredAttributes. */
  ignoreAttributes?: readonly string[];
}

/** `TagListOptions` defaults (COLLECT_DEFAULTS). */
const TAG_LIST_DEFAULTS: Required<TagListOptions> = {
  attributes: COLLECT_DEFAULTS.schemaAttributes,
  collapseRepeats: COLLECT_DEFAULTS.collapseRepeats,
  ignoreAttributes: COLLECT_DEFAULTS.ignoredAttributes,
};

/** The step that ends the tag-list of a text region's links (not a tag name: no element matches it). */
const TEXT_STEP = '#text';
/** The step that ends the feature of a list's links, at whatever depth they are (`TagLists.listFeature`). */
const ITEM_STEP = '#item';
/** Lists: their links, however deeply nested, are one feature of the page schema. */
const LIST_TAGS: ReadonlySet<number> = new Set(['ul', 'ol', 'menu', 'dl'].map(tagId));
/** The items of a list: left out of a list's feature, with the anchor itself. */
const ITEM_TAGS: ReadonlySet<number> = new Set(['li', 'dt', 'dd'].map(tagId));

/** Multiplier of the trie's composite key (parent * STEP_SPACE + step); steps stay below 2^24. */
const STEP_SPACE = 0x1000000;

/**
 * The tag-lists of one site, interned as a trie: id 0 is the empty path (the document); every other id
 * is (parent id, step id), a step being an element's tag and kept attributes, interned too. Ids are dense
 * and stable for the life of the table; share one table across all pages of a site.
 */
export class TagLists {
  private readonly ids = new Map<number, number>();
  private readonly parents: number[] = [-1];
  private readonly stepOf: number[] = [0];
  private readonly stepIds = new Map<string, number>();
  private readonly stepKeys: string[] = ['#document'];
  private readonly stepTags: number[] = [-1];
  private readonly features = new Map<number, number>();
  private readonly allow: ReadonlySet<string> | null;
  private readonly ignore: ReadonlySet<string>;
  private readonly none: boolean;
  private readonly collapse: boolean;

  constructor(options: TagListOptions = {}) {
    const { attributes, collapseRepeats, ignoreAttributes } = withDefaults(TAG_LIST_DEFAULTS, options);
    this.none = attributes === 'none';
    this.collapse = collapseRepeats;
    this.allow = typeof attributes === 'string' ? null : new Set(attributes);
    this.ignore = new Set(ignoreAttributes);
  }

  /** Number of tag-lists interned (ids are 0 .. size-1). */
  get size(): number {
    return this.parents.length;
  }

  /** The step id of element `node`: its tag and kept attributes (sorted by name, values whitespace-collapsed). */
  step(tree: Tree, node: number): number {
    let key = tree.tag(node);
    if (!this.none && !DOCUMENT_TAGS.has(tree.name[node]!)) {
      let picked: Array<[string, string]> | null = null;
      for (let a = tree.attrStart[node]!, e = tree.attrStart[node + 1]!; a < e; a++) {
        const n = tree.attrNames[a]!;
        if (this.allow ? !this.allow.has(n) : this.ignore.has(n) || n.startsWith('on') || n.startsWith('data-')) continue;
        (picked ??= []).push([n, tree.attrValues[a]!.replace(/[\s\u00a0]+/g, ' ').trim()]);
      }
      if (picked !== null) {
        picked.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
        for (const [n, v] of picked) key += ` ${n}="${v}"`;
      }
    }
    return this.stepOfKey(key, tree.name[node]!);
  }

  /** The id of the step `key` whose tag-name id is `tag` (-1: no element). */
  private stepOfKey(key: string, tag: number): number {
    let id = this.stepIds.get(key);
    if (id === undefined) {
      id = this.stepKeys.length;
      this.stepKeys.push(key);
      this.stepTags.push(tag);
      this.stepIds.set(key, id);
    }
    return id;
  }

  /** What was interned, in order, to be `merge`d into another table (across threads: no ids of this one's). */
  entries(): TagListEntries {
    return {
      steps: this.stepKeys.slice(1).map((key, i) => [key, this.stepTags[i + 1]! < 0 ? null : tagName(this.stepTags[i + 1]!)]),
      parents: Int32Array.from(this.parents.slice(1)),
      stepOf: Int32Array.from(this.stepOf.slice(1)),
    };
  }

  /**
   * Interns the `entries` of another table in their order, as if its pages had been read here: a fresh
   * table given one page gives the ids that page would have had here. Returns this table's id of each of its ids.
   */
  merge(e: TagListEntries): Int32Array {
    const steps = new Int32Array(e.steps.length + 1);
    e.steps.forEach(([key, tag], i) => (steps[i + 1] = this.stepOfKey(key, tag === null ? -1 : tagId(tag))));
    const ids = new Int32Array(e.parents.length + 1);
    for (let i = 0; i < e.parents.length; i++) ids[i + 1] = this.child(ids[e.parents[i]!]!, steps[e.stepOf[i]!]!);
    return ids;
  }

  /** The id of the tag-list `parent` extended by one step. */
  child(parent: number, step: number): number {
    if (step >= STEP_SPACE) throw new RangeError(`too many distinct tag-list steps (${step})`);
    const key = parent * STEP_SPACE + step;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.parents.length;
      this.parents.push(parent);
      this.stepOf.push(step);
      this.ids.set(key, id);
    }
    return id;
  }

  /** Number of steps of tag-list `id` (0 for the empty path). */
  depth(id: number): number {
    let d = 0;
    for (let t = id; t > 0; t = this.parents[t]!) d++;
    return d;
  }

  /** The prefix of tag-list `id` of `depth` steps (`id` itself when it is no deeper). */
  ancestorAt(id: number, depth: number): number {
    let t = id;
    for (let d = this.depth(id); d > depth && t > 0; d--) t = this.parents[t]!;
    return t;
  }

  /** The tag-list one step shorter than `id` (-1 for the empty path 0). */
  parentOf(id: number): number {
    return this.parents[id] ?? -1;
  }

  /** True when tag-list `id` is `prefix` or extends it (a parent's id is always below its children's). */
  hasPrefix(id: number, prefix: number): boolean {
    let t = id;
    while (t > prefix) t = this.parents[t]!;
    return t === prefix;
  }

  /**
   * The tag-list of the links in the running text under region `region` (text-region.ts): the region's
   * path followed by the step `#text`, which no element has.
   */
  textLinks(region: number): number {
    return this.child(region, this.namedStep(TEXT_STEP));
  }

  /**
   * The schema feature of the links of tag-list `id`: `id` itself, or when a step of it is a list (`ul`, `ol`,
   * `menu`, `dl`), the outermost such list's path followed by the step `#item`. The items of a menu differ from
   * page to page in how deep they are nested and in the classes that mark the open, current or collapsed ones;
   * the list is where the template put them.
   */
  listFeature(id: number): number {
    const known = this.features.get(id);
    if (known !== undefined) return known;
    const chain: number[] = [];
    for (let t = id; t > 0; t = this.parents[t]!) chain.push(t);
    chain.reverse();
    const root = chain.findIndex((t) => LIST_TAGS.has(this.stepTag(t)));
    let f = id;
    if (root >= 0) {
      f = chain[root]!;
      const kept = new Set<number>([this.stepOf[f]!]);
      for (let k = root + 1; k < chain.length - 1; k++) {
        const t = chain[k]!;
        const st = this.stepOf[t]!;
        if (ITEM_TAGS.has(this.stepTag(t)) || kept.has(st)) continue;
        kept.add(st);
        f = this.child(f, st);
      }
      f = this.child(f, this.namedStep(ITEM_STEP));
    }
    this.features.set(id, f);
    return f;
  }

  /** The id of a step that is no element (`#text`, `#item`). */
  private namedStep(name: string): number {
    return this.stepOfKey(name, -1);
  }

  /** The tag-name id of the last step of tag-list `id` (-1 for the empty path and the `#text` step). */
  stepTag(id: number): number {
    return this.stepTags[this.stepOf[id]!] ?? -1;
  }

  /** The step ids of a tag-list, from the root down to the anchor. */
  steps(id: number): number[] {
    const out: number[] = [];
    for (let t = id; t > 0; t = this.parents[t]!) out.push(this.stepOf[t]!);
    return out.reverse();
  }

  /** A tag-list as text, e.g. `html > body > ul class="nav" > li > a` (for reports, not for comparison). */
  describe(id: number): string {
    return this.steps(id)
      .map((s) => this.stepKeys[s]!)
      .join(' > ');
  }

  /**
   * The tag-list id of `node` (memoised in `memo`, one slot per tree node, -1 when not yet known).
   * Iterative: climbs to the first known ancestor, then fills the way back down.
   */
  pathOf(tree: Tree, node: number, memo: Int32Array): number {
    let top = node;
    const chain: number[] = [];
    while (top > 0 && memo[top]! < 0) {
      chain.push(top);
      top = tree.parent[top]!;
    }
    let id = top <= 0 ? 0 : memo[top]!;
    for (let k = chain.length - 1; k >= 0; k--) {
      const n = chain[k]!;
      const st = this.step(tree, n);
      id = this.collapse && id > 0 && this.stepOf[id] === st ? id : this.child(id, st);
      memo[n] = id;
    }
    return id;
  }
}

/** Options of `linkCollections`. */
export interface LinkCollectionOptions {
  /** Keep in-page anchors (`#section` links). Default false (see the module comment). */
  selfLinks?: boolean;
  /**
   * Tells whether a URL belongs to the site (PageSource.keyOf(url) !== undefined). With it, links to the
   * page itself are recognised by key too (`a/` and `a/index.html`), and collections whose links all
   * leave the site are flagged `offSite`. Without it every link counts as on-site.
   */
  keyOf?: (url: string) => string | undefined;
  /**
   * Make the links under the page's text region one collection (text-region.ts). Default
   * COLLECT_DEFAULTS.textRegion (true); false gives the paper's one collection per root-to-anchor path.
   */
  textRegion?: boolean;
  /** Running-text words a page needs to have a text region (default COLLECT_DEFAULTS.textRegionWords). */
  textRegionWords?: number;
  /** Make the links of a list one schema feature (`TagLists.listFeature`; default COLLECT_DEFAULTS.listRoots). */
  listRoots?: boolean;
}

/** A page's link collections with what was found on the way: its text region and the tag-list memo. */
export interface PageLinks {
  readonly collections: LinkCollection[];
  /** The text region's tag-list id, -1 when the page has none (text-region.ts). */
  readonly region: number;
  /** Tag-list id of each tree node computed so far (-1 where not computed), for `TagLists.pathOf`. */
  readonly memo: Int32Array;
}

const A = tagId('a');
/**
 * Elements whose attributes describe the document as a whole (its language, its type, its identity:
 * `<html class="docs-doc-id-intro/setup">`, `<body class="postid-123">`), not the place of a link in the
 * layout: they are on every tag-list of the page, so a page-specific value would make every tag-list of
 * the page unlike every other page's. Their steps are the tag name alone.
 */
const DOCUMENT_TAGS: ReadonlySet<number> = new Set([tagId('html'), tagId('body')]);
const AREA = tagId('area');

/**
 * The link collections of a page (section 2), in order of their first link. `pageUrl` is the page's
 * absolute URL; each pair's URL is absolute, fragment-free.
 */
export function linkCollections(tree: Tree, pageUrl: string, tagLists: TagLists, options: LinkCollectionOptions = {}): LinkCollection[] {
  return pageLinks(tree, pageUrl, tagLists, options).collections;
}

/** `linkCollections`, with the page's text region and tag-list memo (for its layout, layout.ts). */
export function pageLinks(tree: Tree, pageUrl: string, tagLists: TagLists, options: LinkCollectionOptions = {}): PageLinks {
  const keyOf = options.keyOf;
  const selfKey = keyOf?.(normalizeUrl(pageUrl) ?? pageUrl);
  const memo = new Int32Array(tree.size).fill(-1);
  const { textRegion: useRegion, listRoots } = filled(options, COLLECT_DEFAULTS, ['textRegion', 'listRoots']);
  const region = useRegion ? textRegion(tree, tagLists, memo, options.textRegionWords === undefined ? {} : { minWords: options.textRegionWords }) : -1;
  const regionLinks = region < 0 ? -1 : tagLists.textLinks(region);
  const byList = new Map<number, LinkPair[]>();
  const inlineLists = new Set<number>();
  const onSiteLists = new Set<number>();
  const self = normalizeUrl(pageUrl) ?? pageUrl;
  // First pass: each link with its path and whether it sits in running text; per path under the text
  // region, how many of its links are not in running text (a list of links when many).
  const found: Array<{ url: string; node: number; key: string | undefined; path: number; prose: boolean }> = [];
  // Whether an element holds running text, once per element: a list of 200,000 links under one parent
  // would otherwise count the parent's words once per link.
  const proseOf = new Map<number, boolean>();
  const listed = new Map<number, number>();
  for (const { url, node } of extractLinks(tree, pageUrl, { duplicates: true, selfLinks: true })) {
    const key = keyOf?.(url);
    if (!options.selfLinks && (url === self || (key !== undefined && key === selfKey)) && isInPageAnchor(tree, node)) continue;
    const path = tagLists.pathOf(tree, node, memo);
    const prose = inRunningText(tree, node, proseOf);
    found.push({ url, node, key, path, prose });
    if (region >= 0 && !prose && tagLists.hasPrefix(path, region)) listed.set(path, (listed.get(path) ?? 0) + 1);
  }
  // Lists keep their own collection only in a link-dense region (an index with some text); in an article
  // they are part of the text.
  const listLinks = region >= 0 && linkDensity(tree, tagLists, memo, region) > COLLECT_DEFAULTS.textRegionLinkDensity ? COLLECT_DEFAULTS.textRegionListLinks : Infinity;
  for (const { url, node, key, path, prose } of found) {
    // Under the text region, links join the region's collection, except those of a list (a path holding at
    // least `listLinks` links outside running text), which stays a collection of its own, as in the paper.
    const inRegion = region >= 0 && tagLists.hasPrefix(path, region) && (prose || (listed.get(path) ?? 0) < listLinks);
    const tagList = inRegion ? regionLinks : path;
    let links = byList.get(tagList);
    if (links === undefined) {
      links = [];
      byList.set(tagList, links);
    }
    links.push({ url, anchor: anchorText(tree, node) });
    if (inRegion || prose) inlineLists.add(tagList);
    if (keyOf === undefined || key !== undefined) onSiteLists.add(tagList);
  }
  const out: LinkCollection[] = [];
  for (const [tagList, links] of byList) {
    // The text region's collection is the page's article, wherever its links go (none may stay on site).
    const feature = tagList === regionLinks || !listRoots ? tagList : tagLists.listFeature(tagList);
    out.push({ tagList, links, inline: inlineLists.has(tagList), offSite: tagList !== regionLinks && !onSiteLists.has(tagList), feature });
  }
  // A text region without links is still part of the page's structure: its collection is there, empty.
  if (regionLinks >= 0 && !byList.has(regionLinks)) out.push({ tagList: regionLinks, links: [], inline: true, offSite: false, feature: regionLinks });
  return { collections: out, region, memo };
}


/** Text of an anchor's subtree, whitespace collapsed (alt text of an only image when there is no text). */
function anchorText(tree: Tree, a: number): string {
  let s = '';
  for (let j = a + 1, e = tree.end[a]!; j < e; j++) {
    if (tree.kind[j] === NodeKind.Text || tree.kind[j] === NodeKind.Blank) s += tree.nodeText(j);
  }
  s = s.replace(/[\s\u00a0]+/g, ' ').trim();
  if (s === '') {
    for (let j = a + 1, e = tree.end[a]!; j < e; j++) {
      const alt = tree.isElement(j) ? tree.attr(j, 'alt') : undefined;
      if (alt) return alt.trim();
    }
  }
  return s;
}

/**
 * True when the anchor sits in running text: its parent element holds, besides its links, at least
 * COLLECT_DEFAULTS.proseWords words of text of its own (a sentence), not a short label such as a date.
 * `memo` keeps the answer per parent.
 */
function inRunningText(tree: Tree, a: number, memo: Map<number, boolean>): boolean {
  const p = tree.parent[a]!;
  if (p <= 0) return false;
  let known = memo.get(p);
  if (known === undefined) {
    known = holdsProse(tree, p);
    memo.set(p, known);
  }
  return known;
}

/** True when element `p` holds at least COLLECT_DEFAULTS.proseWords words of text of its own. */
function holdsProse(tree: Tree, p: number): boolean {
  let words = 0;
  for (let c = p + 1, e = tree.end[p]!; c < e; c = tree.end[c]!) {
    if (tree.kind[c] !== NodeKind.Text) {
      if (tree.kind[c] === NodeKind.Element && PHRASING_TAGS.has(tree.name[c]!)) words += countWords(tree, c);
      continue;
    }
    words += wordCount(tree.nodeText(c));
    if (words >= COLLECT_DEFAULTS.proseWords) return true;
  }
  return words >= COLLECT_DEFAULTS.proseWords;
}

function countWords(tree: Tree, root: number): number {
  let n = 0;
  for (let j = root + 1, e = tree.end[root]!; j < e; j++) if (tree.kind[j] === NodeKind.Text) n += wordCount(tree.nodeText(j));
  return n;
}


/** True when the anchor's href is only a fragment (`#section`): a place in the page, not a page. */
export function isInPageAnchor(tree: Tree, a: number): boolean {
  const href = tree.attr(a, 'href');
  return href !== undefined && href.trim().startsWith('#');
}
