/**
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
 *     page's heading (`<h1>`, position: the title just before the main block) when it lies outside it;
 *     plus the notes the kept text cites (footnotes and references it links to that link back to it:
 *     `keepFootnotes`), wherever they lie. With `navigationOnly` (after a template engine that left little but the content), content = all the
 *     non-template text but the link-dense and boilerplate-named blocks outside the main block, link-dense
 *     ones kept in the element that holds the main block and the page's own headline (`navigationArticle`:
 *     a chapter's table of contents under its title);
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
import { lazyTagSet, NodeKind, tagId, type Tree } from '../html/tree.ts';
import { withDefaults } from '../filled.ts';
import { blockValue, listTags, measureBlocks, type BlockTable, type TableParams, type ValueParams } from './block-table.ts';
import { CONTENT_DEFAULTS } from './defaults.ts';
import { dropOrphanHeadings, findHeadline, keepHeadline, keepHeadZone, regionsAfter, titledHeading, titledRegion, titleHeadline } from './headline.ts';
import { findRecords, recordsInside } from './records.ts';
import { keepBestStretch, type StretchParams } from './stretch.ts';

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
  /**
   * Paragraphs (`p`) of at least this many characters, few of them in links, beside the main block (or
   * beside its highest ancestor holding no other text of value) join it (default CONTENT_DEFAULTS.siblingProse; 0 = none).
   */
  siblingProse?: number;
  /**
   * A main block not under the page's own headline gives way to the best element right under it when that
   * one is worth at least this share of it (default CONTENT_DEFAULTS.titledShare; 0 = never).
   */
  titledShare?: number;
  /** A comment-thread heading after most of the text ends the main content (default true). */
  threadHeading?: boolean;
  /** …when at least this share of the main block's positive value comes before it. */
  threadAfter?: number;
  /** Keep only the maximum-value stretch of text runs inside the main block (default true). */
  contiguous?: boolean;
  /**
   * Keep the notes the kept text cites (keepFootnotes: a footnote or reference list item that an in-page
   * link of the text points to and that links back to it), wherever they lie in the main block (default true).
   */
  footnotes?: boolean;
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
  /**
   * With `navigationOnly`: link-dense blocks are kept in the element that holds both the main block and the
   * page's own headline (a chapter's intro and its table of contents under its title), named boilerplate
   * is not; default true.
   */
  navigationArticle?: boolean;
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

/** The options of one run, resolved (defaults filled). */
type Resolved = ReturnType<typeof resolve>;
function resolve(options: MainBlockOptions) {
  const o = withDefaults(CONTENT_DEFAULTS, options);
  const table: TableParams = {
    hidden: options.hidden ?? true,
    contactLinks: options.contactLinks ?? true,
    hints: options.hints ?? true,
    noticeMax: (options.notices ?? true) ? o.noticeMaxChars : 0,
    cjkWeight: o.cjkWeight,
    vetoShare: o.vetoShare,
    vetoThreads: o.vetoThreads,
    boilerplate: options.boilerplate,
  };
  const value: ValueParams = { prose: o.proseChars, maxLd: o.maxLinkDensity, penalty: o.linkPenalty, minChars: o.minBlockChars, bonus: o.hintBonus, listWeight: o.listWeight };
  const stretch: StretchParams = { value, gapPenalty: o.gapPenalty, threadHeading: options.threadHeading ?? true, threadAfter: o.threadAfter };
  return { o, table, value, stretch };
}

/** Step 2's result: per element, the value of its subtree (plain, decayed per block level, and its positive part). */
interface Values {
  score: Float64Array;
  /** Value with the contribution of nested blocks decayed by `decay` per block level (concentration). */
  dscore: Float64Array;
  /** The sum of the positive block values of each subtree (what records are worth, records.ts). */
  positive: Float64Array;
}

/**
 * Chooses the main content of a page whose template marks are `template` (1 = template). See the module
 * comment for the method; each step is a function below.
 */
export function chooseMainBlock(tree: Tree, template: Uint8Array, options: MainBlockOptions = {}): MainBlock {
  const r = resolve(options);
  const { o } = r;
  const t = measureBlocks(tree, template, r.table, o.maxLinkDensity);
  const content = new Uint8Array(tree.size);
  if (t.total === 0) return { content, root: -1, listing: false, chars: 0, linkChars: 0, headline: -1 };
  const v = valueBlocks(t, r.value, o.decay);
  let best = pickMainBlock(t, v, options.site);
  if (!options.site && o.titledShare > 0) best = underHeadline(t, v, best, o);
  const listing = t.totalLink > o.listingLinkFraction * t.total && v.score[best]! < o.listingMaxMain && (options.navigationOnly === true || !titledStory(t, v, best, o));
  if (listing || t.total < o.minPageChars) {
    // A listing (mostly links, no region of running text worth a main block): its links are its content,
    // but not the regions named boilerplate (the site's menu in a sidebar); too little text to choose from:
    // all of it.
    markKept(t, r, content, null, t.body, t.bodyEnd, false, listing && (options.listingNamed ?? true));
    return { content, root: t.body, listing, chars: t.total, linkChars: t.totalLink, headline: -1 };
  }
  const { records, roots, inside } = mainRoots(t, v, best, o);
  const pruned = options.prune ?? true ? pruneNegative(t, v, roots, inside) : null;
  if (options.navigationOnly) {
    // Only navigation leaves: outside the main block, link-dense blocks and named boilerplate; inside, nothing.
    // When the main block holds less than `navigationHeld` of the page's value (an index, a table of
    // contents whose entries are the page), nothing.
    let held = 0;
    for (const x of roots) held += v.positive[x]!;
    markKept(t, r, content, pruned, t.body, t.bodyEnd, held >= o.navigationHeld * v.positive[t.body]!);
    // Under the page's own headline (the element holding it and the main block), link lists stay too (a
    // chapter's table of contents), but not named boilerplate (a pager, a sidebar).
    const article = options.navigationArticle ?? true ? headedArticle(t, roots) : -1;
    if (article >= 0) markKept(t, r, content, pruned, article, tree.end[article]!, false, true);
    for (const x of roots) markKept(t, r, content, pruned, x, tree.end[x]!, false);
  } else {
    for (const x of roots) markKept(t, r, content, pruned, x, tree.end[x]!, options.dropLinkBlocks ?? true);
    if (options.contiguous ?? true) {
      // Records are each a stretch of their own (what lies between two posts is not part of either). When
      // the main block holds the records (a thread's posts), what lies between two posts (a profile's
      // links, a signature) must not cut the thread: no stretch is chosen; link-dense blocks are gone.
      if (records) for (const x of records) keepBestStretch(t, content, [x], r.stretch);
      else if (inside === null) keepBestStretch(t, content, roots, r.stretch);
    }
    if (options.footnotes ?? true) keepFootnotes(t, r, content);
  }
  const headline = keepHead(t, r, content, pruned, best, options.heading ?? true);
  if (options.orphanHeadings ?? true) dropOrphanHeadings(tree, template, content, t.skip, best, headline);
  return { content, root: best, listing: false, chars: t.total, linkChars: t.totalLink, headline };
}

/**
 * The lowest element holding the main block (`roots`) and the page's own headline (an h1–h3 with the
 * `<title>`'s words outside the template, else its first h1 outside the template), or -1 when there is no
 * such headline or that element is the body.
 */
function headedArticle(t: BlockTable, roots: readonly number[]): number {
  const { tree, skip, template } = t;
  let head = titledHeading(t);
  if (head < 0) {
    // a title of other words than the `<title>`'s ("Trait std::iter::IntoIterator" under "IntoIterator in std::iter")
    const H1 = tagId('h1');
    for (let i = t.body; i < t.bodyEnd && head < 0; i++) if (tree.name[i] === H1 && skip[i] !== 1 && template[i] !== 1) head = i;
  }
  if (head < 0 || roots.length === 0) return -1;
  let at = head;
  for (const x of roots) while (at >= 0 && !tree.contains(at, x)) at = tree.parent[at]!;
  return at > t.body ? at : -1;
}

/** Step 2 (reverse preorder): the value of each block, summed up the tree. */
function valueBlocks(t: BlockTable, vp: ValueParams, decay: number): Values {
  const { tree, skip, chars, linkChars, boilerChars, namedChars, blockOf, body, bodyEnd } = t;
  const n = tree.size;
  const listTag = listTags();
  const score = new Float64Array(n);
  const dscore = new Float64Array(n);
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
  return { score, dscore, positive };
}

/**
 * Step 3: the element of greatest decayed value (the last of equals in document order); where the site's
 * other pages have their main block elsewhere (site-vote.ts) and this page has that element with text, it.
 */
function pickMainBlock(t: BlockTable, v: Values, site: MainBlockOptions['site']): number {
  const { tree, skip, body, bodyEnd } = t;
  let best = body;
  for (let i = body; i < bodyEnd; i++) {
    if (tree.kind[i] === NodeKind.Element && skip[i] !== 1 && v.dscore[i]! >= v.dscore[best]!) best = i;
  }
  if (site && site.keys[best] !== site.key) {
    let there = -1;
    for (let i = body; i < bodyEnd; i++) {
      if (site.keys[i] === site.key && skip[i] !== 1 && v.score[i]! > 0 && (there < 0 || v.dscore[i]! > v.dscore[there]!)) there = i;
    }
    if (there >= 0) best = there;
  }
  return best;
}

/**
 * Step 4's exception: a page mostly of links whose best region is headed by the page's own headline, the two
 * in an element that is not itself mostly links, is an article with a short story (a video's or a photo's
 * few lines among the site's menus), not a listing; an index page whose headline and intro head its list of
 * links stays a listing. After a site's link graph, where only navigation leaves, the listing rule stands.
 */
function titledStory(t: BlockTable, v: Values, best: number, o: Resolved['o']): boolean {
  if (v.score[best]! <= 0) return false;
  const { tree, vis, inLink, template } = t;
  const head = titleHeadline(t, best, o.headZone > 0 ? o.headZone : CONTENT_DEFAULTS.headZone);
  if (head < 0) return false;
  let at = best;
  while (!tree.contains(at, head)) at = tree.parent[at]!;
  let chars = 0;
  let links = 0;
  for (let i = at; i < tree.end[at]!; i++) {
    if (vis[i] === 0 || template[i] === 1) continue;
    chars += vis[i]!;
    if (inLink[tree.parent[i]!] === 1) links += vis[i]!;
  }
  return links <= o.listingLinkFraction * chars;
}

/**
 * Step 3, position: when the page prints its own headline (an h1–h3 with the `<title>`'s words) and the main
 * block is not under it, the element of greatest value whose text starts right after the headline (within
 * the head zone) is the main block instead, when it is worth at least `titledShare` of the other: a short
 * story under its headline, not a longer notice in the footer or a teaser list elsewhere.
 */
function underHeadline(t: BlockTable, v: Values, best: number, o: Resolved['o']): number {
  const zone = o.headZone > 0 ? o.headZone : CONTENT_DEFAULTS.headZone;
  const head = titledHeading(t);
  if (head < 0 || t.tree.contains(best, head) || titledRegion(t, best, zone)) return best;
  let there = -1;
  for (const a of regionsAfter(t, head, zone)) if (v.dscore[a]! > 0 && (there < 0 || v.dscore[a]! > v.dscore[there]!)) there = a;
  return there >= 0 && v.dscore[there]! >= o.titledShare * v.dscore[best]! ? there : best;
}

/**
 * Step 3, continued: the subtrees that are the main content. A run of records the main block belongs to
 * (records.ts); else the main block and its siblings of comparable value (an article split in two
 * containers). `inside`: the records the main block holds (a thread's posts), when it is alone.
 */
function mainRoots(t: BlockTable, v: Values, best: number, o: Resolved['o']): { records: number[] | null; roots: number[]; inside: readonly number[] | null } {
  const { tree, skip, sub, body } = t;
  const levels = o.recordLevels;
  const ctx = { tree, positive: v.positive, skip, sub, body };
  const records = levels >= 0 ? findRecords(ctx, best, levels, o.recordShare, o.recordCover) : null;
  const roots = records ?? [best];
  if (roots.length === 1 && o.siblingShare > 0 && best > body && v.score[best]! > 0) {
    // Siblings worth a share of the main block join it; so do the paragraphs of running text next to it, or
    // next to its highest ancestor holding no other text of value (a story's first paragraphs beside the
    // "read more" wrapper of the rest).
    let at = best;
    while (tree.parent[at]! > body && v.positive[tree.parent[at]!]! <= v.positive[best]!) at = tree.parent[at]!;
    const kids = tree.elementChildren(tree.parent[at]!);
    const k = kids.indexOf(at);
    const join = new Uint8Array(kids.length);
    join[k] = 1;
    if (at === best) kids.forEach((c, j) => { if (skip[c] !== 1 && v.score[c]! > o.siblingShare * v.score[best]!) join[j] = 1; });
    if (o.siblingProse > 0) {
      const prose = (j: number): boolean => proseParagraph(t, kids[j]!, o.siblingProse);
      const blank = (j: number): boolean => skip[kids[j]!] === 1 || t.sub[kids[j]! - body] === 0;
      for (let j = k - 1; j >= 0 && (prose(j) || blank(j)); j--) if (prose(j)) join[j] = 1;
      for (let j = k + 1; j < kids.length && (prose(j) || blank(j)); j++) if (prose(j)) join[j] = 1;
    }
    roots.length = 0;
    kids.forEach((c, j) => { if (join[j] === 1) roots.push(c === at ? best : c); });
  }
  const inside = records === null && roots.length === 1 ? recordsInside(ctx, best, levels, o.recordInside) : null;
  return { records, roots, inside };
}

/** Paragraphs of the tags a story is written in. */
const paragraphTags = lazyTagSet(['p', 'blockquote', 'pre']);

/**
 * A paragraph of running text beside the main block: a `p` (or quotation, preformatted block) of at least
 * `min` characters, under a quarter of them in links (as Readability joins a story's sibling paragraphs).
 */
function proseParagraph(t: BlockTable, c: number, min: number): boolean {
  const { tree, chars, linkChars, named, blockOf } = t;
  return paragraphTags()[tree.name[c]!] === 1 && blockOf[c] === c && named[c] !== 1 && chars[c]! >= min && linkChars[c]! < 0.25 * chars[c]!;
}

/**
 * Step 5's prune: element subtrees of negative value inside the main content (link lists, comment
 * threads) are left out; a post's (a one-line reply under its author's links) are not.
 */
function pruneNegative(t: BlockTable, v: Values, roots: readonly number[], inside: readonly number[] | null): Uint8Array {
  const { tree, skip } = t;
  const n = tree.size;
  const pruned = new Uint8Array(n);
  const post = new Uint8Array(inside ? n : 0);
  if (inside) for (const x of inside) post.fill(1, x, tree.end[x]!);
  for (const x of roots) for (let i = x + 1; i < tree.end[x]!; i++) if (tree.kind[i] === NodeKind.Element && skip[i] !== 1 && v.score[i]! < 0 && post[i] !== 1) pruned[i] = 1;
  return pruned;
}

/**
 * Marks the non-template nodes of [from, to) as content, less pruned subtrees and link-dense blocks
 * (`dropDense`) and named boilerplate (`dropNamed`).
 */
function markKept(t: BlockTable, r: Resolved, content: Uint8Array, pruned: Uint8Array | null, from: number, to: number, dropDense: boolean, dropNamed = dropDense): void {
  const { tree, template, skip, blockOf, chars, linkChars, named, extra } = t;
  const maxLd = r.value.maxLd;
  const prose = r.value.prose;
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
}

/**
 * The id a link points to in a page (`href="#id"`, or an address with `#id`: saved pages often hold their
 * own address in full), percent-decoded; undefined without a fragment. Whether it is this page's is for the
 * caller to check (keepFootnotes: the element must exist here and link back).
 */
function fragmentOf(tree: Tree, a: number): string | undefined {
  const href = tree.attr(a, 'href');
  const hash = href === undefined ? -1 : href.indexOf('#');
  if (hash < 0 || hash === href!.length - 1) return undefined;
  const id = href!.slice(hash + 1);
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/** How many ancestors of a citing link may carry the id its note links back to (MediaWiki's `<sup id>`). */
const CITE_LEVELS = 2;

/**
 * Step 5b, footnotes: a note the kept text cites belongs to it, wherever it lies on the page and whatever
 * its link density (a citation's title is a link) or the stretch that left it out (a reference list after
 * a "See also" list, a notes section after the related posts). A note is the element an in-page link of
 * the kept text points to, after that link and not template, that links back to the link or one of its
 * nearest ancestors: the mutual links every footnote and reference generator writes (MediaWiki's
 * `cite_note` / `cite_ref`, Pandoc's `fn` / `fnref`, kramdown, Sphinx). A link to a comment thread or to a
 * section has no link back.
 */
function keepFootnotes(t: BlockTable, r: Resolved, content: Uint8Array): void {
  const { tree, template, body, bodyEnd } = t;
  const A = tagId('a');
  const citing: number[] = [];
  for (let i = body; i < bodyEnd; i++) if (tree.name[i] === A && content[i] === 1 && fragmentOf(tree, i) !== undefined) citing.push(i);
  if (citing.length === 0) return;
  const byId = new Map<string, number>();
  for (let i = body; i < bodyEnd; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const id = tree.attr(i, 'id');
    if (id !== undefined && id !== '' && !byId.has(id)) byId.set(id, i);
  }
  for (const a of citing) {
    const note = byId.get(fragmentOf(tree, a)!);
    if (note === undefined || note <= a || template[note] === 1 || tree.contains(note, a)) continue;
    // The citing link and its nearest ancestors, one of which the note's back link names.
    const back = new Set<number>();
    for (let e = a, k = 0; e >= 0 && k <= CITE_LEVELS; e = tree.parent[e]!, k++) back.add(e);
    let linked = false;
    for (let i = note; i < tree.end[note]! && !linked; i++) {
      if (tree.name[i] !== A) continue;
      const f = fragmentOf(tree, i);
      const to = f === undefined ? undefined : byId.get(f);
      linked = to !== undefined && back.has(to);
    }
    if (linked) markKept(t, r, content, null, note, tree.end[note]!, false);
  }
}

/**
 * Step 6: the head zone (headline.ts) and, when the main block does not hold it, the page's heading just
 * before it (`<h1>`, position). Returns the headline's block (-1 when none).
 */
function keepHead(t: BlockTable, r: Resolved, content: Uint8Array, pruned: Uint8Array | null, best: number, heading: boolean): number {
  const { tree, template, skip, body } = t;
  const headMax = r.o.headZone;
  let headline = findHeadline(t, content, best, headMax > 0 ? headMax : CONTENT_DEFAULTS.headZone);
  if (headline >= 0) {
    if (headMax > 0) keepHeadZone(t, content, headline, r.o.headZoneMin);
    else keepHeadline(t, content, headline);
  }
  if (heading) {
    const H1 = tagId('h1');
    let h = -1;
    for (let i = body; i < best; i++) if (tree.name[i] === H1 && skip[i] !== 1 && template[i] !== 1 && !tree.contains(i, best)) h = i;
    if (h >= 0) {
      markKept(t, r, content, pruned, h, tree.end[h]!, false);
      if (headline < 0) headline = h;
    }
  }
  return headline;
}
