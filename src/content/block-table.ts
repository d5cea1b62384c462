/**
 * Step 1 of the main-block choice (main-block.ts): the per-block table. Every text node that is not
 * template and holds page text is attributed to its block (nearest block-level ancestor); per block, its
 * characters, those inside links, inside boilerplate-named elements (hints.ts) and inside content-named
 * ones. A name is one signal, not a veto (nameRegions). Short blocks holding a copyright mark are notices,
 * boilerplate. One preorder pass and one reverse pass over the Tree's typed arrays.
 */
import { isBlock, isNonText, textOf } from '../html/text.ts';
import { lazyTagSet, NodeKind, tagId, type Tree } from '../html/tree.ts';
import { visibleChars, type HeadPass } from './headline.ts';
import { elementHints, Hint, namesContent } from './hints.ts';

/** What step 1 reads of the options (resolved: defaults filled). */
export interface TableParams {
  /** Leave out elements hidden by their own markup. */
  hidden: boolean;
  /** `mailto:` / `tel:` links showing the address are not link text. */
  contactLinks: boolean;
  /** Read class / id name hints. */
  hints: boolean;
  /** Longest block taken for a copyright notice (0 = the rule is off). */
  noticeMax: number;
  cjkWeight: number;
  vetoShare: number;
  vetoThreads: boolean;
  /** Extra boilerplate marks given by the caller (1 = boilerplate text node). */
  boilerplate: Uint8Array | undefined;
}

/** The per-block table (HeadPass's fields, which headline.ts reads, and the rest of the steps' inputs). */
export interface BlockTable extends HeadPass {
  /** 1 inside a link (a contact link excepted). */
  inLink: Uint8Array;
  /** Visible characters of each non-template text node (0 for other nodes). */
  vis: Int32Array;
  /** Boilerplate chars per block (named boilerplate, or marked by `extra`). */
  boilerChars: Int32Array;
  /** Chars per block inside content-named elements. */
  namedChars: Int32Array;
  /** Non-template characters outside links under each element, indexed from the body. */
  sub: Int32Array;
  /** Boilerplate marks of text nodes (the caller's, plus copyright notices); undefined when none. */
  extra: Uint8Array | undefined;
  /** Non-template characters of the page, and those inside links. */
  total: number;
  totalLink: number;
  cjk: number;
}

/** Builds the per-block table of a page whose template marks are `template`. */
export function measureBlocks(tree: Tree, template: Uint8Array, p: TableParams, maxLinkDensity: number): BlockTable {
  const n = tree.size;
  const body = tree.body();
  const bodyEnd = tree.end[body]!;
  const t: BlockTable = {
    tree, template, body, bodyEnd, maxLinkDensity,
    named: new Uint8Array(n),
    skip: new Uint8Array(n),
    blockOf: new Int32Array(n).fill(-1),
    chars: new Int32Array(n),
    linkChars: new Int32Array(n),
    inLink: new Uint8Array(n),
    vis: new Int32Array(n),
    boilerChars: new Int32Array(n),
    namedChars: new Int32Array(n),
    sub: new Int32Array(bodyEnd - body),
    extra: p.boilerplate,
    total: 0,
    totalLink: 0,
    cjk: p.cjkWeight,
  };
  const noticeNodes = attributeText(t, p);
  sumOutsideLinks(t);
  if (p.hints) nameRegions(t, hintsOf(tree, body, bodyEnd), (t.total - t.totalLink) * p.vetoShare, p.vetoThreads);
  countNamed(t);
  if (noticeNodes.length > 0) markNotices(t, noticeNodes, p.noticeMax);
  return t;
}

/**
 * Preorder: skipped and in-link flags, the block of each node, characters per block; returns the short
 * text nodes holding a copyright mark (candidates for notices).
 */
function attributeText(t: BlockTable, p: TableParams): number[] {
  const { tree, template, skip, inLink, blockOf, chars, linkChars, vis, body, bodyEnd } = t;
  const A = tagId('a');
  const SELECT = tagId('select');
  const noticeNodes: number[] = [];
  blockOf[body] = body;
  for (let i = body + 1; i < bodyEnd; i++) {
    const par = tree.parent[i]!;
    const kind = tree.kind[i]!;
    if (skip[par] === 1) {
      skip[i] = 1;
      continue;
    }
    if (kind === NodeKind.Element) {
      if (isNonText(tree, i) || (p.hidden && isHidden(tree, i))) {
        skip[i] = 1;
        continue;
      }
      // A drop-down's options are a menu of places or choices ("Other blogs", a month list): its text counts as links.
      inLink[i] = inLink[par]! | ((tree.name[i] === A && (!p.contactLinks || !isContactLink(tree, i))) || tree.name[i] === SELECT ? 1 : 0);
      blockOf[i] = isBlock(tree, i) ? i : blockOf[par]!;
    } else if (kind === NodeKind.Text) {
      if (template[i] === 1) continue;
      const b = blockOf[par]!;
      const c = visibleChars(tree, i, t.cjk);
      vis[i] = c;
      chars[b] = chars[b]! + c;
      t.total += c;
      if (p.noticeMax > 0 && c > 0 && c <= p.noticeMax && hasCopyright(tree, i)) noticeNodes.push(i);
      if (inLink[par] === 1) {
        linkChars[b] = linkChars[b]! + c;
        t.totalLink += c;
      }
    }
  }
  return noticeNodes;
}

/** Reverse preorder (children first): the text an element holds of its own, a menu's links not counted. */
function sumOutsideLinks(t: BlockTable): void {
  const { tree, inLink, vis, sub, body, bodyEnd } = t;
  for (let i = bodyEnd - 1; i > body; i--) {
    const s = sub[i - body]! + (inLink[tree.parent[i]!] === 1 ? 0 : vis[i]!);
    if (s > 0) sub[tree.parent[i]! - body] = sub[tree.parent[i]! - body]! + s;
  }
}

/** Per block, the characters inside boilerplate-named (or marked) and inside content-named elements. */
function countNamed(t: BlockTable): void {
  const { tree, vis, blockOf, named, extra, boilerChars, namedChars, body, bodyEnd } = t;
  for (let i = body + 1; i < bodyEnd; i++) {
    if (vis[i] === 0) continue;
    const p = tree.parent[i]!;
    const b = blockOf[p]!;
    if (named[p] === 1 || (extra !== undefined && extra[i] === 1)) boilerChars[b] = boilerChars[b]! + vis[i]!;
    else if (named[p] === 2) namedChars[b] = namedChars[b]! + vis[i]!;
  }
}

/** Copyright notices: a short block holding © or the word "copyright" is a legal notice, boilerplate. */
function markNotices(t: BlockTable, noticeNodes: readonly number[], noticeMax: number): void {
  const { tree, template, skip, blockOf, chars, named, boilerChars, namedChars } = t;
  const blocks: number[] = [];
  for (const i of noticeNodes) {
    const b = blockOf[tree.parent[i]!]!;
    if (chars[b]! <= noticeMax && !blocks.includes(b)) blocks.push(b);
  }
  if (blocks.length === 0) return;
  const marks = t.extra ? t.extra.slice() : new Uint8Array(tree.size);
  for (const b of blocks) {
    for (let i = b; i < tree.end[b]!; i++) {
      if (tree.kind[i] !== NodeKind.Text || template[i] === 1 || skip[tree.parent[i]!] === 1) continue;
      const p = tree.parent[i]!;
      if (blockOf[p] !== b || marks[i] === 1) continue;
      marks[i] = 1;
      if (named[p] !== 1) {
        const c = visibleChars(tree, i, t.cjk);
        boilerChars[b] = boilerChars[b]! + c;
        if (named[p] === 2) namedChars[b] = namedChars[b]! - c;
      }
    }
  }
  t.extra = marks;
}

/** Hints of the body's elements, once per tree (they depend on the page alone; the site vote chooses twice). */
const hintCache = new WeakMap<Tree, Int8Array>();
function hintsOf(tree: Tree, body: number, bodyEnd: number): Int8Array {
  let h = hintCache.get(tree);
  if (!h) hintCache.set(tree, (h = elementHints(tree, body, bodyEnd)));
  return h;
}

/**
 * Names of regions (class / id hints, hints.ts) as marks: `named[i]` is 1 inside a boilerplate-named
 * element, 2 inside a content-named one (a content name inside a boilerplate one stays boilerplate). A
 * boilerplate name is one signal, not a veto: an element holding more than `maxNamed` characters of the
 * page's text outside links (`vetoShare` of it) is not boilerplate by its name — a sidebar, a widget, an
 * advert or a share bar does not hold most of a page's text, while page builders and blog platforms wrap
 * the whole article in elements so named (`elementor-widget-container`, Blogger's `#Blog1.widget`, a
 * sticky-sidebar wrapper, an ad "pusher" around the page). A comment-thread name (`Hint.Thread`) is lifted
 * so only when the element's name also holds a content word and a content-named element inside holds most
 * of its text (an article whose name says it has comments, `article.post.commented`): a reader-comment
 * thread may well hold most of a page's text (`vetoThreads` false lifts it as the others).
 */
function nameRegions(t: BlockTable, hints: Int8Array, maxNamed: number, threads: boolean): void {
  const { tree, sub, skip, named, body, bodyEnd } = t;
  for (let i = body + 1; i < bodyEnd; i++) {
    if (tree.kind[i] !== NodeKind.Element || skip[i] === 1) continue;
    const p = tree.parent[i]!;
    let h = hints[i]!;
    if (h < 0 && sub[i - body]! > maxNamed && (h === Hint.Boilerplate || !threads || (namesContent(tree, i) && contentInside(tree, hints, sub, body, i)))) h = Hint.None;
    named[i] = h < 0 ? 1 : h === Hint.Content && named[p] !== 1 ? 2 : named[p]!;
  }
}

/**
 * True when a content-named element inside element i (hints.ts) holds more than half of its text: an
 * article whose name also says it has comments (`article.post.commented`), not a comment thread.
 */
function contentInside(tree: Tree, hints: Int8Array, sub: Int32Array, body: number, i: number): boolean {
  const half = sub[i - body]! / 2;
  for (let j = i + 1; j < tree.end[i]!; j++) {
    if (sub[j - body]! <= half) {
      j = tree.end[j]! - 1;
      continue;
    }
    if (hints[j] === Hint.Content) return true;
  }
  return false;
}

/** The thresholds a block's value depends on (from MainBlockOptions and CONTENT_DEFAULTS). */
export interface ValueParams {
  prose: number;
  maxLd: number;
  penalty: number;
  minChars: number;
  bonus: number;
  listWeight: number;
}

/**
 * Step 2: the value of a block (or of a run of its text) of `c` characters, `l` of them in links, `bc` in
 * boilerplate (named so, or marked), `nc` in content-named elements; `list` when it is a list item.
 */
export function blockValue(v: ValueParams, c: number, l: number, bc: number, nc: number, list: boolean): number {
  if (c <= 0) return 0;
  if (l > v.maxLd * c) {
    if (v.prose <= 0 || c - l < v.prose) return -c;
    return bc > 0 ? -bc : Math.max(0, (c - l - v.penalty * l) * (1 + (v.bonus * nc) / c));
  }
  if (bc > 0) return -bc;
  if (c < v.minChars) return 0;
  const own = (c - l - v.penalty * l) * (1 + (v.bonus * nc) / c);
  return own > 0 && list ? own * v.listWeight : own;
}

/** Tags of list items (li, dd, dt), by tag id: their text is worth `listWeight` of a paragraph's. */
export const listTags = lazyTagSet(['li', 'dd', 'dt']);

/** An element hidden by its own markup: the `hidden` attribute, or an inline style `display: none` / `visibility: hidden`. */
function isHidden(tree: Tree, i: number): boolean {
  if (tree.attr(i, 'hidden') !== undefined) return true;
  const st = tree.attr(i, 'style');
  return st !== undefined && HIDDEN_STYLE.test(st);
}
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/**
 * A contact detail written as a link: a `mailto:` or `tel:` link that shows the address or number itself
 * (its text holds an `@` or a digit). It leads to no page, so it is not navigation; a `mailto:` button
 * ("Report this comment", "Email this story") stays a link.
 */
function isContactLink(tree: Tree, i: number): boolean {
  const h = tree.attr(i, 'href');
  return h !== undefined && CONTACT_HREF.test(h) && CONTACT_TEXT.test(textOf(tree, i));
}
const CONTACT_HREF = /^\s*(?:mailto|tel):/i;
const CONTACT_TEXT = /[@0-9]/;

/** True when text node i holds a copyright mark: ©, or the word "copyright" in any case (notices). */
function hasCopyright(tree: Tree, i: number): boolean {
  const t = tree.text;
  const e = tree.textEnd[i]!;
  for (let k = tree.textStart[i]!; k < e; k++) {
    const c = t.charCodeAt(k);
    if (c === 0xa9) return true;
    if ((c | 32) !== 99 || k + 9 > e || (k > 0 && isWordChar(t.charCodeAt(k - 1)))) continue;
    let m = 1;
    while (m < 9 && (t.charCodeAt(k + m) | 32) === COPYRIGHT_WORD.charCodeAt(m)) m++;
    if (m === 9 && (k + 9 === e || !isWordChar(t.charCodeAt(k + 9)))) return true;
  }
  return false;
}
const COPYRIGHT_WORD = 'copyright';
/** ASCII letter or digit. */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);
}
