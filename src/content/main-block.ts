/**
 * One file over 400 lines: the five steps below share one per-block table and read it in order; the names,
 * records and hints they use live in their own modules.
 *
 * The main block of a page once its template is removed. Paper 2 (Alarte et al., "Web Template Extraction
 * Based on Hyperlink Analysis", section 6, conclusion) leaves the choice of the main content among what the
 * template leaves to the signals of content-extraction work: text concentration (the main content is where
 * the text is, Kohlschütter's densitometry), few links (link density: menus and link lists are
 * boilerplate) and position; we add the page authors' own names for regions (class / id hints, as
 * Readability reads them), measured on the corpus. Here:
 *  1. every text node that is not template and holds page text is attributed to its block (nearest
 *     block-level ancestor); per block, its characters, the characters inside links, inside boilerplate-
 *     named elements (comments, sidebars, related… hints.ts) and inside content-named ones; a name is one
 *     signal, not a veto: an element holding more than `vetoShare` of the page's text is not boilerplate
 *     by its name (nameRegions: page builders wrap whole articles in "widget" elements);
 *  2. each block gets a value: its non-link characters minus `linkPenalty` × its link characters (times
 *     1 + `hintBonus` for content-named text, times `listWeight` for list items); a link-dense block
 *     (density above `maxLinkDensity`) or boilerplate-named text counts all its text against; blocks
 *     shorter than `minBlockChars` count zero (they neither make nor break a region);
 *  3. the main block is the element whose subtree has the greatest value, nested blocks counting `decay`
 *     less per level (text concentration: the element that holds the paragraphs, not a far ancestor);
 *     when it is one of a run of records (records.ts: posts, answers, sections), the records of its kind
 *     are the main content together; else siblings worth more than `siblingShare` of it join it (an
 *     article split in two containers);
 *  4. a listing page (most non-template text in links, and no region of running text worth
 *     `listingMaxMain`: tag pages, indexes) keeps all its non-template text: its links are its content;
 *     so does a page with less than `minPageChars` of non-template text (nothing to choose from);
 *  5. content = the non-template text inside the main block, less link-dense blocks, boilerplate-named
 *     text and subtrees of negative value (prune), and only the maximum-sum stretch of its text runs in
 *     document order (contiguity, Kadane; a run of negative value between them counts `gapPenalty` times,
 *     so that teasers after the story do not extend it), which ends at a comment-thread heading ("12
 *     comments", never a table's cell label) found after `threadAfter` of the block's value; plus the
 *     page's heading (`<h1>`, position: the title just before the main block) when it lies outside it.
 *     With `navigationOnly` (after a template engine that left little but the content), content = all the
 *     non-template text but the link-dense and boilerplate-named blocks outside the main block;
 *  6. head zone (position, headline.ts): the headline — the block whose words are the `<title>`'s, else
 *     an h1, else an h2, at the start of the main content or the nearest of the best kind within
 *     `headZone` characters before it — with what lies between it and the main content when it is not
 *     link-dense nor named boilerplate, and is a heading (a deck) or has at least `headZoneMin`
 *     characters (standfirst, video caption; not a byline). The headline is reported apart (extract.ts).
 * Elements hidden by their own markup (`hidden`, inline `display: none`) hold no content: hidden image
 * metadata and caption copies are not read.
 * A link-dense block with `proseChars` characters outside its links is a paragraph with inline links, and
 * counts as prose (steps 2 and 5). A `mailto:` / `tel:` link showing the address or number is not a link
 * (it leads to no page: a contact detail in the text, such as a list of news-desk addresses).
 * A section heading (h2–h6) inside the main block whose following text (the first non-template text
 * after it in its container, other headings passed over) was left out heads nothing and is left out too:
 * "Related stories" above a dropped link list, a photo caption in an h4 above dropped "Email / Print"
 * links; headings are passed over so that prose written in headings above a link stays. The figures of
 * these rules are in docs/content.md.
 * A short block (`noticeMaxChars`) holding © or the word "copyright" is a copyright notice, boilerplate.
 * Everything runs on the Tree's typed arrays in two linear passes.
 */
import { isBlock, isNonText, textOf } from '../html/text.ts';
import { NodeKind, tagId, type Tree } from '../html/tree.ts';
import { withDefaults } from '../filled.ts';
import { CONTENT_DEFAULTS } from './defaults.ts';
import { findHeadline, keepHeadline, keepHeadZone, visibleChars, type HeadPass } from './headline.ts';
import { elementHints, Hint, namesContent } from './hints.ts';
import { findRecords, recordsInside } from './records.ts';

/** Options of the main-block choice (defaults: CONTENT_DEFAULTS). */
export interface MainBlockOptions {
  maxLinkDensity?: number;
  linkPenalty?: number;
  minBlockChars?: number;
  listingLinkFraction?: number;
  /** A page with less non-template text than this (characters) keeps all of it: too little to choose from. */
  minPageChars?: number;
  /** A page mostly of links is a listing only when its best region is worth less than this (characters). */
  listingMaxMain?: number;
  /** Add the page heading outside the main block (default true). */
  heading?: boolean;
  /** Drop link-dense blocks inside the main block (default true). */
  dropLinkBlocks?: boolean;
  /** Read class / id name hints (hints.ts): boilerplate-named subtrees count against (default true). */
  hints?: boolean;
  /** Factor on the value of text inside a content-named element (default CONTENT_DEFAULTS.hintBonus). */
  hintBonus?: number;
  /** Inside the main block, leave out element subtrees whose total value is negative (default true). */
  prune?: boolean;
  /** Factor on the value of nested blocks per block level when choosing the main block (1 = plain sum). */
  decay?: number;
  /** Factor on the value of list items' text (li, dd, dt), lists being mostly teasers and link lists. */
  listWeight?: number;
  /** Siblings of the main block whose value is above this share of its value are content too (0 = none). */
  siblingShare?: number;
  /** A comment-thread heading after most of the text ends the main content (default true). */
  threadHeading?: boolean;
  /** …when at least this share of the main block's positive value comes before it. */
  threadAfter?: number;
  /** Keep only the maximum-value stretch of text runs inside the main block (default true). */
  contiguous?: boolean;
  /**
   * The site's main-block place (site-vote.ts): `keys` the path keys of this page's elements, `key` the
   * winning one. When the page's own choice has another key, the element with the key (and a positive
   * value) is the main block instead.
   */
  site?: { keys: Int32Array; key: number };
  /** Extra boilerplate marks (1 = boilerplate text node), e.g. text repeated on other pages of the site. */
  boilerplate?: Uint8Array;
  /**
   * A link-dense block with at least this many characters of text outside its links is a paragraph with
   * inline links, not a link list (default CONTENT_DEFAULTS.proseChars; 0 = never).
   */
  proseChars?: number;
  /**
   * Head zone: the headline found within this many characters of non-template text before the main
   * content, and what lies between them, are content (default CONTENT_DEFAULTS.headZone; 0 = off).
   */
  headZone?: number;
  /**
   * After a template engine that leaves little but the content (a site's link graph): keep every
   * non-template node but the per-page navigation — link-dense blocks and named boilerplate outside the
   * main block (prev / next bars, breadcrumbs, "on this page" lists); inside it, nothing is left out.
   */
  navigationOnly?: boolean;
  /** A listing page leaves out its regions named boilerplate (default true). */
  listingNamed?: boolean;
  /** Weight of a Han, kana or Hangul character against a letter (default CONTENT_DEFAULTS.cjkWeight). */
  cjkWeight?: number;
  /** …only when the main block holds at least this share of the page's value (default CONTENT_DEFAULTS.navigationHeld). */
  navigationHeld?: number;
  /** Leave out elements hidden by their own markup (`hidden`, inline `display: none`); default true. */
  hidden?: boolean;
  /**
   * In the contiguity step, runs of negative value (link lists, named boilerplate) count this many times
   * their value (default CONTENT_DEFAULTS.gapPenalty): teasers after the story do not extend it.
   */
  gapPenalty?: number;
  /** Blocks of the head zone shorter than this (characters) are left out, the headline excepted. */
  headZoneMin?: number;
  /** Text of `mailto:` and `tel:` links is not link text (they lead to no page); default true. */
  contactLinks?: boolean;
  /** Leave out a section heading whose following text was left out (it heads nothing); default true. */
  orphanHeadings?: boolean;
  /** A block of at most `noticeMaxChars` holding © or the word "copyright" is boilerplate (default true). */
  notices?: boolean;
  /** Longest block (characters) taken for a copyright notice (default CONTENT_DEFAULTS.noticeMaxChars). */
  noticeMaxChars?: number;
  /**
   * A boilerplate-named element holding more than this share of the page's text is not boilerplate by its
   * name (default CONTENT_DEFAULTS.vetoShare; 1 = names always veto).
   */
  vetoShare?: number;
  /** Comment-thread names veto whatever share of the text they hold (default CONTENT_DEFAULTS.vetoThreads). */
  vetoThreads?: boolean;
  /**
   * Records (records.ts): how many levels above the main block a run of same-kind siblings is looked for
   * (default CONTENT_DEFAULTS.recordLevels; -1 = no records).
   */
  recordLevels?: number;
  /** A record is worth at least this share of the main block's record (default CONTENT_DEFAULTS.recordShare). */
  recordShare?: number;
  /** Records of the main block's kind elsewhere hold at least this share of their common ancestor's value. */
  recordCover?: number;
  /** The main block holds records when children of one kind hold this share of its value (default CONTENT_DEFAULTS.recordInside). */
  recordInside?: number;
}

/** What was chosen on one page. */
export interface MainBlock {
  /** 1 where the node is main content (elements and text nodes); length tree.size. */
  content: Uint8Array;
  /** The element chosen as main block (-1 when the page has no non-template text). */
  root: number;
  /** True when the page was taken for a listing (all non-template text kept; also kept, without this flag, when the page has less than `minPageChars`). */
  listing: boolean;
  /** Non-template characters of the page, and those inside links. */
  chars: number;
  linkChars: number;
  /**
   * The headline's block (-1 when none was found): the block whose words are the document title's, else an
   * h1, else an h2, at the start of the main content or just before it (headline.ts). It is marked in
   * `content`; extract.ts reports it as the title, apart from the body.
   */
  headline: number;
}

/** Hints of the body's elements, once per tree (they depend on the page alone; the site vote chooses twice). */
const hintCache = new WeakMap<Tree, Int8Array>();
function hintsOf(tree: Tree, body: number, bodyEnd: number): Int8Array {
  let h = hintCache.get(tree);
  if (!h) hintCache.set(tree, (h = elementHints(tree, body, bodyEnd)));
  return h;
}

/** Tags of list items (li, dd, dt), by tag id: their text is worth `listWeight` of a paragraph's. */
let listTagIds: Uint8Array | null = null;
function listTags(): Uint8Array {
  if (!listTagIds) {
    const ids = ['li', 'dd', 'dt'].map((t) => tagId(t));
    listTagIds = new Uint8Array(Math.max(...ids) + 1);
    for (const id of ids) listTagIds[id] = 1;
  }
  return listTagIds;
}

/**
 * The heading of a reader-comment thread: a short block without links saying "Comments", "12 comments",
 * "Leave a reply", "Post a comment", "3 responses to …"… (English only; bare "Discussion" or "Responses"
 * are section titles of documents, e.g. PEPs, and do not count).
 */
const THREAD_HEADING = /^(\d+\s+)?(reader\s+)?comments?(\s*\(\d+\))?\s*:?$|^\d+\s+(comments?|responses?|replies)\b|^(post|leave|add|write)\s+(a|your)\s+(comment|reply|response)\b|^comments?\s+(are\s+)?closed\b|^(there\s+are\s+)?no\s+comments\b/i;
/** Tags whose text is a cell or an item, never a heading: a table's "Comment" column is not a comment thread. */
let cellTagIds: Uint8Array | null = null;
function cellTags(): Uint8Array {
  if (!cellTagIds) {
    const ids = ['td', 'th', 'li', 'dt', 'dd'].map((t) => tagId(t));
    cellTagIds = new Uint8Array(Math.max(...ids) + 1);
    for (const id of ids) cellTagIds[id] = 1;
  }
  return cellTagIds;
}
/** Longest text (visible characters) taken for a thread heading. */
const THREAD_HEADING_MAX = 60;

/** The thresholds a block's value depends on (from MainBlockOptions and CONTENT_DEFAULTS). */
interface ValueParams {
  prose: number;
  maxLd: number;
  penalty: number;
  minChars: number;
  bonus: number;
  listWeight: number;
}

/**
 * The value of a block (or of a run of its text) of `c` characters, `l` of them in links, `bc` in
 * boilerplate (named so, or marked), `nc` in content-named elements; `list` when it is a list item.
 */
function blockValue(v: ValueParams, c: number, l: number, bc: number, nc: number, list: boolean): number {
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

/**
 * Names of regions (class / id hints, hints.ts) as marks: `named[i]` is 1 inside a boilerplate-named
 * element, 2 inside a content-named one (a content name inside a boilerplate one stays boilerplate). A
 * boilerplate name is one signal, not a veto: an element holding more than `maxNamed` characters of the
 * page's text outside links (`vetoShare` of it) is not boilerplate by its name — a sidebar, a widget, an advert or a share
 * bar does not hold most of a page's text, while page builders and blog platforms wrap the whole article
 * in elements so named (`elementor-widget-container`, Blogger's `#Blog1.widget`, a sticky-sidebar wrapper,
 * an ad "pusher" around the page). A comment-thread name (`Hint.Thread`) is lifted so only when the
 * element's name also holds a content word and a content-named element inside holds most of its text (an
 * article whose name says it has comments, `article.post.commented`): a
 * reader-comment thread may well hold most of a page's text (`vetoThreads` false lifts it as the others).
 */
function nameRegions(tree: Tree, hints: Int8Array, sub: Int32Array, skip: Uint8Array, named: Uint8Array, body: number, bodyEnd: number, maxNamed: number, threads: boolean): void {
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

/**
 * Chooses the main content of a page whose template marks are `template` (1 = template). See the module
 * comment for the method.
 */
export function chooseMainBlock(tree: Tree, template: Uint8Array, options: MainBlockOptions = {}): MainBlock {
  const o = withDefaults(CONTENT_DEFAULTS, options);
  const maxLd = o.maxLinkDensity;
  const penalty = o.linkPenalty;
  const minChars = o.minBlockChars;
  const listingFrac = o.listingLinkFraction;
  const listingMaxMain = o.listingMaxMain;
  const minPage = o.minPageChars;
  const prose = o.proseChars;
  const skipHidden = options.hidden ?? true;
  const contactLinks = options.contactLinks ?? true;
  const cjk = o.cjkWeight;
  const n = tree.size;
  const body = tree.body();
  const bodyEnd = tree.end[body]!;
  const A = tagId('a');
  const H1 = tagId('h1');

  // Pass 1 (preorder): in-link and skipped flags, block of each node, chars per block.
  const useHints = options.hints ?? true;
  const bonus = o.hintBonus;
  let extra = options.boilerplate;
  const hints = useHints ? hintsOf(tree, body, bodyEnd) : null;
  /** 1 inside a boilerplate-named element, 2 inside a content-named one (the nearest hint wins). */
  const named = new Uint8Array(n);
  /** Boilerplate chars per block (named boilerplate, or marked by `boilerplate`). */
  const boilerChars = new Int32Array(n);
  /** Chars per block inside content-named elements. */
  const namedChars = new Int32Array(n);
  const inLink = new Uint8Array(n);
  const skip = new Uint8Array(n);
  const blockOf = new Int32Array(n).fill(-1);
  const chars = new Int32Array(n);
  const linkChars = new Int32Array(n);
  let total = 0;
  let totalLink = 0;
  /** Short text nodes holding a copyright mark (candidates for notices; 0 = the rule is off). */
  const noticeMax = (options.notices ?? true) ? o.noticeMaxChars : 0;
  const noticeNodes: number[] = [];
  /** Visible characters of each non-template text node (0 for other nodes). */
  const vis = new Int32Array(n);
  blockOf[body] = body;
  for (let i = body + 1; i < bodyEnd; i++) {
    const p = tree.parent[i]!;
    const kind = tree.kind[i]!;
    if (skip[p] === 1) {
      skip[i] = 1;
      continue;
    }
    if (kind === NodeKind.Element) {
      if (isNonText(tree, i) || (skipHidden && isHidden(tree, i))) {
        skip[i] = 1;
        continue;
      }
      inLink[i] = inLink[p]! | (tree.name[i] === A && (!contactLinks || !isContactLink(tree, i)) ? 1 : 0);
      blockOf[i] = isBlock(tree, i) ? i : blockOf[p]!;
    } else if (kind === NodeKind.Text) {
      if (template[i] === 1) continue;
      const b = blockOf[p]!;
      const c = visibleChars(tree, i, cjk);
      vis[i] = c;
      chars[b] = chars[b]! + c;
      total += c;
      if (noticeMax > 0 && c > 0 && c <= noticeMax && hasCopyright(tree, i)) noticeNodes.push(i);
      if (inLink[p] === 1) {
        linkChars[b] = linkChars[b]! + c;
        totalLink += c;
      }
    }
  }
  /**
   * Non-template characters outside links under each element, indexed from the body (reverse preorder:
   * children first): the text an element holds of its own, a menu's links not counted.
   */
  const sub = new Int32Array(bodyEnd - body);
  for (let i = bodyEnd - 1; i > body; i--) {
    const s = sub[i - body]! + (inLink[tree.parent[i]!] === 1 ? 0 : vis[i]!);
    if (s > 0) sub[tree.parent[i]! - body] = sub[tree.parent[i]! - body]! + s;
  }
  if (hints) nameRegions(tree, hints, sub, skip, named, body, bodyEnd, (total - totalLink) * o.vetoShare, o.vetoThreads);
  for (let i = body + 1; i < bodyEnd; i++) {
    if (vis[i] === 0) continue;
    const p = tree.parent[i]!;
    const b = blockOf[p]!;
    if (named[p] === 1 || (extra !== undefined && extra[i] === 1)) boilerChars[b] = boilerChars[b]! + vis[i]!;
    else if (named[p] === 2) namedChars[b] = namedChars[b]! + vis[i]!;
  }
  if (noticeNodes.length > 0) {
    // Copyright notices: a short block holding © or the word "copyright" is a legal notice, boilerplate.
    const blocks: number[] = [];
    for (const i of noticeNodes) {
      const b = blockOf[tree.parent[i]!]!;
      if (chars[b]! <= noticeMax && !blocks.includes(b)) blocks.push(b);
    }
    if (blocks.length > 0) {
      const marks = extra ? extra.slice() : new Uint8Array(n);
      for (const b of blocks) {
        for (let i = b; i < tree.end[b]!; i++) {
          if (tree.kind[i] !== NodeKind.Text || template[i] === 1 || skip[tree.parent[i]!] === 1) continue;
          const p = tree.parent[i]!;
          if (blockOf[p] !== b || marks[i] === 1) continue;
          marks[i] = 1;
          if (named[p] !== 1) {
            const c = visibleChars(tree, i, cjk);
            boilerChars[b] = boilerChars[b]! + c;
            if (named[p] === 2) namedChars[b] = namedChars[b]! - c;
          }
        }
      }
      extra = marks;
    }
  }
  const content = new Uint8Array(n);
  let pruned: Uint8Array | null = null;
  if (total === 0) return { content, root: -1, listing: false, chars: 0, linkChars: 0, headline: -1 };

  /** Marks the non-template nodes of [from, to) as content, less link-dense blocks (`dropDense`) and named boilerplate (`dropNamed`). */
  const markKept = (from: number, to: number, dropDense: boolean, dropNamed = dropDense): void => {
    for (let i = from; i < to; i++) {
      if (skip[i] === 1 || template[i] === 1) continue;
      const k = tree.kind[i];
      if (k === NodeKind.Element && dropDense && pruned !== null && pruned[i] === 1) {
        i = tree.end[i]! - 1;
        continue;
      }
      if (k === NodeKind.Text || k === NodeKind.Blank) {
        const b = blockOf[tree.parent[i]!]!;
        if (dropDense && chars[b]! > 0 && linkChars[b]! > maxLd * chars[b]! && !(prose > 0 && chars[b]! - linkChars[b]! >= prose)) continue;
        if (dropNamed && (named[tree.parent[i]!] === 1 || (extra !== undefined && extra[i] === 1))) continue;
        content[i] = 1;
      } else if (k === NodeKind.Element) {
        content[i] = 1;
      }
    }
  };


  // Pass 2 (reverse preorder): value of each block, summed up the tree.
  const score = new Float64Array(n);
  const listTag = listTags();
  const decay = o.decay;
  const vp: ValueParams = { prose, maxLd, penalty, minChars, bonus, listWeight: o.listWeight };
  /** Value with the contribution of nested blocks decayed by `decay` per block level (concentration). */
  const dscore = new Float64Array(n);
  /** The sum of the positive block values of each subtree (what records are worth, records.ts). */
  const positive = new Float64Array(n);
  for (let i = bodyEnd - 1; i >= body; i--) {
    if (tree.kind[i] !== NodeKind.Element || skip[i] === 1) continue;
    const own = blockValue(vp, chars[i]!, linkChars[i]!, boilerChars[i]!, namedChars[i]!, listTag[tree.name[i]!] === 1);
    score[i] = score[i]! + own;
    dscore[i] = dscore[i]! + own;
    if (own > 0) positive[i] = positive[i]! + own;
    if (i > body) {
      const p = tree.parent[i]!;
      score[p] = score[p]! + score[i]!;
      dscore[p] = dscore[p]! + (blockOf[i] === i ? decay : 1) * dscore[i]!;
      positive[p] = positive[p]! + positive[i]!;
    }
  }
  let best = body;
  for (let i = body; i < bodyEnd; i++) {
    if (tree.kind[i] === NodeKind.Element && skip[i] !== 1 && dscore[i]! >= dscore[best]!) best = i;
  }
  const site = options.site;
  if (site && site.keys[best] !== site.key) {
    // Where the other pages of the site have their main block, when this page has that element with text.
    let there = -1;
    for (let i = body; i < bodyEnd; i++) {
      if (site.keys[i] === site.key && skip[i] !== 1 && score[i]! > 0 && (there < 0 || dscore[i]! > dscore[there]!)) there = i;
    }
    if (there >= 0) best = there;
  }
  const listing = totalLink > listingFrac * total && score[best]! < listingMaxMain;
  if (listing || total < minPage) {
    // A listing (mostly links, no region of running text worth a main block): its links are its content,
    // but not the regions named boilerplate (the site's menu in a sidebar); too little text to choose from:
    // all of it.
    markKept(body, bodyEnd, false, listing && (options.listingNamed ?? true));
    return { content, root: body, listing, chars: total, linkChars: totalLink, headline: -1 };
  }
  /**
   * Contiguity: inside the main block, the text nodes in document order form runs (a run ends where the
   * block changes); each run is valued like a block. Only the runs of the maximum-sum stretch (Kadane) stay
   * content: far-away text separated from the main text by link lists and boilerplate is left out.
   */
  const useThread = options.threadHeading ?? true;
  const gap = o.gapPenalty;
  const threadAfter = o.threadAfter;
  const cellTag = cellTags();
  /**
   * Block b is a label in a table cell or list item: its nearest cell or item holds no more text than a
   * heading would (a data table's "Comment" column; a layout table's cell holding the story is no cell).
   */
  const inCell = (b: number): boolean => {
    for (let a = b; a > body; a = tree.parent[a]!) if (cellTag[tree.name[a]!] === 1) return sub[a - body]! <= THREAD_HEADING_MAX;
    return false;
  };
  const keepBestRun = (roots: readonly number[]): void => {
    const root = roots[0]!;
    const end = tree.end[roots[roots.length - 1]!]!;
    const segOf = new Int32Array(end - root).fill(-1);
    let r = 0;
    const vals: number[] = [];
    const heads: number[] = [];
    let short = '';
    let cur = -1;
    let c = 0;
    let l = 0;
    let bc = 0;
    let nc = 0;
    const close = (): void => {
      if (cur < 0) return;
      const v0 = blockValue(vp, c, l, bc, nc, listTag[tree.name[cur]!] === 1);
      const v = v0 < 0 ? v0 * gap : v0;
      if (useThread && l === 0 && short.length > 0 && c <= THREAD_HEADING_MAX && !inCell(cur) && THREAD_HEADING.test(short.trim())) heads.push(vals.length);
      vals.push(v);
      c = l = bc = nc = 0;
      short = '';
    };
    for (let i = root; i < end; i++) {
      while (r < roots.length && tree.end[roots[r]!]! <= i) r++;
      if (r >= roots.length) break;
      if (i < roots[r]!) {
        i = roots[r]! - 1;
        continue;
      }
      if (tree.kind[i] !== NodeKind.Text || skip[i] === 1 || template[i] === 1) continue;
      const p = tree.parent[i]!;
      if (skip[p] === 1) continue;
      const b = blockOf[p]!;
      if (b !== cur) {
        close();
        cur = b;
      }
      segOf[i - root] = vals.length;
      const k = visibleChars(tree, i, cjk);
      if (useThread && c + k <= THREAD_HEADING_MAX) short += tree.nodeText(i) + ' ';
      c += k;
      if (inLink[p] === 1) l += k;
      if (named[p] === 1 || (extra !== undefined && extra[i] === 1)) bc += k;
      else if (named[p] === 2) nc += k;
    }
    close();
    // A comment thread's heading ("Comments", "12 responses", "Leave a reply") after most of the text ends
    // the main content: the stretch is chosen before it.
    let stop = vals.length;
    if (heads.length > 0) {
      let positive = 0;
      for (const v of vals) if (v > 0) positive += v;
      let before = 0;
      let h = 0;
      for (let k = 0; k < vals.length && stop === vals.length; k++) {
        while (h < heads.length && heads[h]! < k) h++;
        if (heads[h] === k && before >= threadAfter * positive) stop = k;
        if (vals[k]! > 0) before += vals[k]!;
      }
    }
    let bestSum = -Infinity;
    let bestA = 0;
    let bestB = -1;
    let sum = 0;
    let a = 0;
    for (let k = 0; k < stop; k++) {
      if (sum <= 0) {
        sum = 0;
        a = k;
      }
      sum += vals[k]!;
      if (sum > bestSum) {
        bestSum = sum;
        bestA = a;
        bestB = k;
      }
    }
    for (let i = root; i < end; i++) {
      const sg = segOf[i - root]!;
      if (sg >= 0 && (sg < bestA || sg > bestB)) content[i] = 0;
    }
  };
  const levels = o.recordLevels;
  const records = levels >= 0 ? findRecords({ tree, positive, skip, sub, body }, best, levels, o.recordShare, o.recordCover) : null;
  const roots = records ?? [best];
  const share = o.siblingShare;
  if (roots.length === 1 && share > 0 && best > body && score[best]! > 0) {
    // Siblings of the main block holding text of comparable value (an article split in two containers).
    roots.length = 0;
    for (const c of tree.elementChildren(tree.parent[best]!)) if (c === best || (skip[c] !== 1 && score[c]! > share * score[best]!)) roots.push(c);
  }
  // The main block may hold the records (a thread's posts): then no post is cut for what surrounds its text.
  const inside = records === null && roots.length === 1 ? recordsInside({ tree, positive, skip, sub, body }, best, levels, o.recordInside) : null;
  if (options.prune ?? true) {
    // Element subtrees of negative value inside the main block (link lists, comment threads) are left out;
    // a post's (a one-line reply under its author's links) are not.
    pruned = new Uint8Array(n);
    const post = new Uint8Array(inside ? n : 0);
    if (inside) for (const r of inside) post.fill(1, r, tree.end[r]!);
    for (const r of roots) for (let i = r + 1; i < tree.end[r]!; i++) if (tree.kind[i] === NodeKind.Element && skip[i] !== 1 && score[i]! < 0 && post[i] !== 1) pruned[i] = 1;
  }
  if (options.navigationOnly) {
    // Only navigation leaves: outside the main block, link-dense blocks and named boilerplate; inside, nothing.
    // When the main block holds less than `navigationHeld` of the page's value (an index, a table of
    // contents whose entries are the page), nothing.
    let held = 0;
    for (const r of roots) held += positive[r]!;
    markKept(body, bodyEnd, held >= o.navigationHeld * positive[body]!);
    for (const r of roots) markKept(r, tree.end[r]!, false);
  } else for (const r of roots) markKept(r, tree.end[r]!, options.dropLinkBlocks ?? true);
  if (!options.navigationOnly && (options.contiguous ?? true)) {
    // Records are each a stretch of their own (what lies between two posts is not part of either).
    if (records) for (const r of records) keepBestRun([r]);
    else if (inside === null) keepBestRun(roots);
    // else the main block holds the records (a thread's posts): what lies between two posts (a profile's
    // links, a signature) must not cut the thread, so no stretch is chosen; link-dense blocks are gone.

  }
  // Ancestors of the main block hold it (so that serialisation shows it inside its containers).
  const headMax = o.headZone;
  const hp: HeadPass = { tree, template, skip, blockOf, chars, linkChars, named, maxLinkDensity: maxLd, body, bodyEnd };
  let headline = findHeadline(hp, content, best, headMax > 0 ? headMax : CONTENT_DEFAULTS.headZone);
  if (headline >= 0) {
    if (headMax > 0) keepHeadZone(hp, content, headline, o.headZoneMin);
    else keepHeadline(hp, content, headline);
  }
  if (options.heading ?? true) {
    // Position: the page's heading just before the main block, when the block does not hold it.
    let h = -1;
    for (let i = body; i < best; i++) if (tree.name[i] === H1 && skip[i] !== 1 && template[i] !== 1 && !tree.contains(i, best)) h = i;
    if (h >= 0) {
      markKept(h, tree.end[h]!, false);
      if (headline < 0) headline = h;
    }
  }
  if (options.orphanHeadings ?? true) dropOrphanHeadings(tree, template, content, skip, best, headline);
  return { content, root: best, listing: false, chars: total, linkChars: totalLink, headline };
}

/**
 * A section heading (h2–h6) inside the main block heads the text that follows it in its container; when
 * that text (the first non-template text after it, past any heading right after it) was left out —
 * "Related stories" above a dropped link list — the heading heads nothing, and is left out too. The
 * story's headline (`headline`, from the head zone) always stays.
 */
function dropOrphanHeadings(tree: Tree, template: Uint8Array, content: Uint8Array, skip: Uint8Array, root: number, headline: number): void {
  const heads = sectionHeadings();
  const H1 = tagId('h1');
  for (let h = root + 1; h < tree.end[root]!; h++) {
    if (tree.kind[h] !== NodeKind.Element || content[h] !== 1 || heads[tree.name[h]!] !== 1) continue;
    if (headline >= 0 && (tree.contains(h, headline) || tree.contains(headline, h))) continue;
    const end = tree.end[tree.parent[h]!]!;
    let next = -1;
    for (let i = tree.end[h]!; i < end; i++) {
      // A heading right after it opens a section of its own: what this one heads lies beyond.
      if (tree.kind[i] === NodeKind.Element && (heads[tree.name[i]!] === 1 || tree.name[i] === H1)) {
        i = tree.end[i]! - 1;
        continue;
      }
      if (tree.kind[i] === NodeKind.Text && template[i] !== 1 && skip[i] !== 1 && visibleChars(tree, i) > 0) {
        next = i;
        break;
      }
    }
    if (next >= 0 && content[next] !== 1) for (let i = h; i < tree.end[h]!; i++) content[i] = 0;
  }
}

let sectionHeadingIds: Uint8Array | null = null;
/** Tags of section headings (h2–h6), by tag id. */
function sectionHeadings(): Uint8Array {
  if (!sectionHeadingIds) {
    const ids = ['h2', 'h3', 'h4', 'h5', 'h6'].map((t) => tagId(t));
    sectionHeadingIds = new Uint8Array(Math.max(...ids) + 1);
    for (const id of ids) sectionHeadingIds[id] = 1;
  }
  return sectionHeadingIds;
}
