/**
 * The text region of a page: where a link collection's identity comes from when its links sit in the page's
 * running text. Paper 4 (section 2) describes a page by "the paths of the corresponding DOM tree that start
 * from the root and terminate into an anchor node", each path with its links being one link collection; on
 * the database-driven sites of its experiments (section 4.1) every such path is laid down by the template
 * (the "table on the left", the "itemized list ... in the central part", Figure 2). In an authored article
 * (a PEP, a documentation page, a blog post) the links of the text are not laid down by the template: each
 * paragraph, list, note or footnote that happens to hold a link adds a root-to-anchor path of its own, so
 * two pages of one class share only their few template paths and their schemas fall apart (figures in
 * docs/collect.md, `textRegion`).
 *
 * Here the article is one place of the page structure, as in the paper's figures ("the links located in
 * the central part of the page"): the text region is the tag-list under which most of the page's running
 * text lies, found by descending the page's tag-list trie from the root, at each step into the child
 * holding the most running-text words, as long as that child holds at least
 * COLLECT_DEFAULTS.textRegionShare of them and is not itself the path of a text block (a paragraph), and
 * not below an element that holds a heading (an article whose text lies in one of its sections is the
 * article, not that section: a short reference page's region is the same as a long one's). A region of
 * `html > body` is none (the text is spread over the page's template). Running
 * text is the text of blocks holding at least COLLECT_DEFAULTS.proseWords words of their own, not counting
 * the text of links (the test link-collections.ts uses for links "in running text"). Pages with less than
 * COLLECT_DEFAULTS.textRegionWords such words (index pages, lists, tables of links) have no text region:
 * their collections are the paper's, one per path. Because tag-lists collapse runs of equal steps, nested
 * sections of an article share one path, so the region does not depend on which chapter is longest.
 *
 * link-collections.ts maps every link whose tag-list extends the region to one collection, the region's
 * "text links" (tag-list: the region's path followed by the `#text` step).
 */
import { NodeKind, tagId, type Tree } from '../html/tree.ts';
import { COLLECT_DEFAULTS } from './defaults.ts';
import { withDefaults } from '../filled.ts';
import type { TagLists } from './link-collections.ts';

/** Phrasing elements whose text is part of the sentence of the block around them. */
export const PHRASING_TAGS: ReadonlySet<number> = new Set(
  ['b', 'i', 'em', 'strong', 'code', 'span', 'abbr', 'cite', 'kbd', 'small', 'sup', 'sub', 'q', 'mark', 'var', 'time', 'u', 's', 'samp', 'dfn', 'br', 'wbr'].map(tagId),
);
/** Elements whose text is not read (scripts, styles, the head…). */
export const UNREAD_TAGS: ReadonlySet<number> = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'object', 'svg', 'math', 'textarea', 'select', 'option', 'button'].map(tagId));
const A = tagId('a');
/** Lists and tables: content inside a text region, never a region themselves. */
const LIST_TAGS: ReadonlySet<number> = new Set(['ul', 'ol', 'dl', 'menu', 'li', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th'].map(tagId));
/** Headings: the element holding one titles its own content (an article and its sections). */
const HEADING_TAGS: ReadonlySet<number> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(tagId));
/** Blocks whose text is not running text: preformatted code and listings. */
const CODE_TAGS: ReadonlySet<number> = new Set(['pre', 'listing', 'xmp'].map(tagId));

/** Options of `textRegion`; each defaults to COLLECT_DEFAULTS. */
export interface TextRegionOptions {
  /** Own words that make a block running text (COLLECT_DEFAULTS.proseWords). */
  proseWords?: number;
  /** Share of running-text words a child path must hold to descend into it (COLLECT_DEFAULTS.textRegionShare). */
  share?: number;
  /** Running-text words a page needs to have a text region (COLLECT_DEFAULTS.textRegionWords). */
  minWords?: number;
}

/** `TextRegionOptions` defaults (COLLECT_DEFAULTS). */
const TEXT_REGION_DEFAULTS = { proseWords: COLLECT_DEFAULTS.proseWords, share: COLLECT_DEFAULTS.textRegionShare, minWords: COLLECT_DEFAULTS.textRegionWords };

/**
 * The tag-list id of the page's text region, or -1 when the page has none (see the module comment).
 * `memo` is the per-node tag-list memo of `TagLists.pathOf` (one slot per tree node, -1 when unknown).
 */
export function textRegion(tree: Tree, tagLists: TagLists, memo: Int32Array, options: TextRegionOptions = {}): number {
  const { proseWords, share, minWords } = withDefaults(TEXT_REGION_DEFAULTS, options);
  // Own words of each block: text nodes credited to their nearest non-phrasing ancestor, link text left out.
  const own = new Int32Array(tree.size);
  const blocks: number[] = [];
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Text) continue;
    let b = tree.parent[i]!;
    let inLink = false;
    while (b > 0 && PHRASING_TAGS.has(tree.name[b]!)) b = tree.parent[b]!;
    // Text anywhere inside a link (a card whose heading and summary are one link) is link text.
    for (let x = tree.parent[i]!; x > 0 && !inLink; x = tree.parent[x]!) if (tree.name[x] === A) inLink = true;
    if (b <= 0 || inLink || UNREAD_TAGS.has(tree.name[b]!)) continue;
    const w = wordCount(tree.nodeText(i));
    if (w === 0) continue;
    if (own[b] === 0) blocks.push(b);
    own[b] = own[b]! + w;
  }
  // Words per tag-list (the block's own path) and per trie prefix.
  let total = 0;
  const ownWords = new Map<number, number>();
  const under = new Map<number, number>();
  for (const b of blocks) {
    const w = own[b]!;
    if (w < proseWords || hasAncestorIn(tree, b, UNREAD_TAGS) || hasAncestorIn(tree, b, CODE_TAGS)) continue;
    const id = tagLists.pathOf(tree, b, memo);
    total += w;
    ownWords.set(id, (ownWords.get(id) ?? 0) + w);
    for (let t = id; t > 0; t = tagLists.parentOf(t)) under.set(t, (under.get(t) ?? 0) + w);
  }
  if (total < minWords) return -1;
  const children = new Map<number, number[]>();
  for (const t of under.keys()) {
    const p = tagLists.parentOf(t);
    let cs = children.get(p);
    if (cs === undefined) children.set(p, (cs = []));
    cs.push(t);
  }
  // Paths of the elements holding a heading: an element that titles its own content is the article, the
  // region does not descend below it into one of its sections.
  const headed = new Set<number>();
  for (let i = 0; i < tree.size; i++) {
    if (!tree.isElement(i) || !HEADING_TAGS.has(tree.name[i]!)) continue;
    const p = tree.parent[i]!;
    if (p > 0) headed.add(tagLists.pathOf(tree, p, memo));
  }
  let cur = 0;
  for (;;) {
    if (cur > 0 && tagLists.depth(cur) > 2 && headed.has(cur)) break;
    let best = -1;
    let bestWords = 0;
    for (const c of children.get(cur) ?? []) {
      if (LIST_TAGS.has(tagLists.stepTag(c))) continue;
      const w = under.get(c)!;
      if (w > bestWords || (w === bestWords && c < best)) {
        best = c;
        bestWords = w;
      }
    }
    if (best < 0 || bestWords < share * total || (ownWords.get(best) ?? 0) >= share * total) break;
    cur = best;
  }
  // A region of `html > body` is no article: the page's text is spread over its template (a page of short
  // texts in several places); the paper's collections describe it better.
  return cur > 0 && tagLists.depth(cur) > 2 ? cur : -1;
}

/**
 * The share of the words under tag-list `region` that are the text of links (text of scripts and the like
 * left out): low in an article, high in a list of links.
 */
export function linkDensity(tree: Tree, tagLists: TagLists, memo: Int32Array, region: number): number {
  let words = 0;
  let linkWords = 0;
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Text) continue;
    const p = tree.parent[i]!;
    if (p <= 0 || !tagLists.hasPrefix(tagLists.pathOf(tree, p, memo), region)) continue;
    let inLink = false;
    let unread = false;
    for (let x = p; x > 0; x = tree.parent[x]!) {
      if (tree.name[x] === A) inLink = true;
      else if (UNREAD_TAGS.has(tree.name[x]!)) unread = true;
    }
    if (unread) continue;
    const w = wordCount(tree.nodeText(i));
    words += w;
    if (inLink) linkWords += w;
  }
  return words === 0 ? 0 : linkWords / words;
}

function hasAncestorIn(tree: Tree, b: number, tags: ReadonlySet<number>): boolean {
  for (let x = b; x > 0; x = tree.parent[x]!) if (tags.has(tree.name[x]!)) return true;
  return false;
}

/** Characters of scripts written without spaces between words (Chinese, Japanese): each counts as a word. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;

/**
 * Words in a string: runs of letters and digits, and each character of a script written without spaces
 * between words (a Chinese sentence is one run of letters, yet many words: counted as one run, every
 * Chinese paragraph would be too short to be running text).
 */
export function wordCount(s: string): number {
  const unspaced = s.match(UNSPACED);
  const rest = unspaced === null ? s : s.replace(UNSPACED, ' ');
  const m = rest.match(/[\p{L}\p{N}]+/gu);
  return (m === null ? 0 : m.length) + (unspaced === null ? 0 : unspaced.length);
}
