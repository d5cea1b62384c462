/**
 * Name hints: what a page's authors called an element (its `class` and `id`) says what it holds. Main-
 * content extractors since Arc90's Readability read them; here they are one signal among the others of
 * main-block.ts, with two word lists:
 *  - boilerplate names (comments, sidebars, related links, sharing, footers, ads…): an element so named,
 *    and all it holds, is not main content — unless its name also says content (`post-body`, `article`);
 *  - content names (article, story, post, entry, content…): a bonus for the text inside.
 * The HTML tags `footer` and `nav` count as a boilerplate name where the element has no other hint (not
 * `aside`: Sphinx writes footnotes in asides).
 * The lists are measured on the corpus (eval/content.eval.ts; docs/content.md), not tuned per site. Hints are computed once per distinct `class id` string of a page.
 */
import { textOf } from '../html/text.ts';
import { NodeKind, tagId, type Tree } from '../html/tree.ts';

/**
 * Words of class / id names that mark boilerplate. A word matches at the start of a word of the name:
 * `comment` in `comments-list`, `post-comment` or `postComment`, not `print` in `prettyprinted` (measured:
 * matching anywhere in the name dropped the code blocks of sicp, `class="lisp prettyprinted"`).
 */
export const BOILERPLATE_NAMES: readonly string[] = [
  'comment', 'respond', 'reply', 'replies', 'discuss', 'disqus', 'trackback', 'pingback',
  'sidebar', 'side-bar', 'widget', 'related', 'recommend', 'popular', 'most-read', 'mostread', 'trending',
  'share', 'sharing', 'social', 'twitter', 'facebook', 'sponsor', 'advert', 'promo', 'banner', 'outbrain', 'taboola',
  'footer', 'masthead', 'breadcrumb', 'pagination', 'pager', 'subscribe', 'newsletter', 'signup', 'login',
  'tags', 'tagged', 'categories', 'rating', 'print', 'email', 'toolbar', 'tools',
];
/** Words of class / id names that mark the main content. */
export const CONTENT_NAMES: readonly string[] = [
  'article', 'story', 'post-body', 'postbody', 'entry-content', 'entry', 'content', 'main', 'text', 'body', 'blogpost', 'post',
];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A name word must start a word of the name (after a space, '-', '_', a digit or a lower-to-upper case change). */
const NEG = new RegExp(`(?:^|[^a-z])(?:${BOILERPLATE_NAMES.map(escape).join('|')})`, 'i');
const POS = new RegExp(`(?:^|[^a-z])(?:${CONTENT_NAMES.map(escape).join('|')})`, 'i');

/** Hint of one element: -2 a reader-comment thread, -1 other boilerplate, 1 content, 0 none. */
export const enum Hint {
  Thread = -2,
  Boilerplate = -1,
  None = 0,
  Content = 1,
}

/**
 * Boilerplate words that win over content words: a reader-comment thread is not the story, whatever else
 * its name says (`id="story-comments" class="content-panel"`), so a large comment panel is never chosen
 * as the main block (docs/content.md).
 */
export const COMMENT_NAMES: readonly string[] = ['comment', 'respond', 'reply', 'replies', 'disqus', 'trackback', 'pingback'];
const COMMENT = new RegExp(`(?:^|[^a-z])(?:${COMMENT_NAMES.map(escape).join('|')})`, 'i');

/**
 * The hint of a `class` + `id` string. `quote`: the element is a quotation (`blockquote`), whose only
 * boilerplate names are the comment ones: a blockquote named after a social network is a post quoted in
 * the story (`<blockquote class="twitter-tweet">`, the embed code of Twitter; Instagram's and Facebook's
 * are alike), while the network names mark share and follow buttons everywhere else (docs/content.md).
 */
export function hintOf(raw: string, quote = false): Hint {
  if (raw === '') return Hint.None;
  const names = raw.replace(/([a-z])([A-Z])/g, '$1 $2');
  const pos = POS.test(names);
  if (COMMENT.test(names)) return Hint.Thread;
  if (!quote && NEG.test(names)) return pos ? Hint.None : Hint.Boilerplate;
  return pos ? Hint.Content : Hint.None;
}

/** True when element i's class or id also holds a content word (`article class="post commented"`). */
export function namesContent(tree: Tree, i: number): boolean {
  const names = `${tree.attr(i, 'class') ?? ''} ${tree.attr(i, 'id') ?? ''}`.replace(/([a-z])([A-Z])/g, '$1 $2');
  return POS.test(names);
}

/** Hints of every element of a tree (0 for other nodes), cached per distinct name string. */
export function elementHints(tree: Tree, from = 0, to = tree.size): Int8Array {
  const out = new Int8Array(tree.size);
  const BLOCKQUOTE = tagId('blockquote');
  const cache = new Map<string, Hint>();
  const hint = (c: string | undefined, id: string | undefined, quote: boolean): Hint => {
    const names = `${c ?? ''} ${id ?? ''}`.trim();
    const key = quote ? '\u0000' + names : names;
    let h = cache.get(key);
    if (h === undefined) {
      h = hintOf(names, quote);
      cache.set(key, h);
    }
    return h;
  };
  for (let i = from; i < to; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const c = tree.attr(i, 'class');
    const id = tree.attr(i, 'id');
    if (c === undefined && id === undefined) {
      if (BESIDE_TAGS.has(tree.tag(i))) out[i] = Hint.Boilerplate;
      continue;
    }
    const quote = tree.name[i] === BLOCKQUOTE;
    let h = hint(c, id, quote);
    // An id made from the section's own heading ("sharing-with-a-single-developer") is its words, not a role.
    if (h !== Hint.None && id !== undefined && headingSlug(tree, i, id)) h = hint(c, undefined, quote);
    // A footer or nav element is boilerplate by its tag unless its names say otherwise.
    if (h === Hint.None && BESIDE_TAGS.has(tree.tag(i))) h = Hint.Boilerplate;
    out[i] = h;
  }
  return out;
}

/**
 * Tags that say what an element is beside the main content, as a name does: a page's or an article's
 * footer (an author's bio, tags, share links) or a navigation block. One signal like a name (a
 * content name on the element wins; more than `vetoShare` of the page's text lifts it).
 */
const BESIDE_TAGS: ReadonlySet<string> = new Set(['footer', 'nav']);

/** Elements looked at for the heading of a section (the element itself, then its first few nodes). */
const SLUG_LOOKAHEAD = 8;

/**
 * True when `id` is a slug of the heading that opens element i (the element itself, or a heading among
 * its first nodes): every word of the id (split on '-', '_', '.', ':') is a word of the heading's text.
 * Documentation generators (Sphinx, MkDocs, Docusaurus…) give sections and headings such ids.
 */
export function headingSlug(tree: Tree, i: number, id: string): boolean {
  const idWords = id.toLowerCase().split(/[-_.:]+/).filter((w) => w !== '');
  if (idWords.length < 2) return false;
  const end = Math.min(tree.end[i]!, i + SLUG_LOOKAHEAD);
  for (let j = i; j < end; j++) {
    if (tree.kind[j] !== NodeKind.Element || !HEADING_TAGS.has(tree.tag(j))) continue;
    const words = new Set(textOf(tree, j).toLowerCase().split(/[^\p{L}\p{N}]+/u));
    return idWords.every((w) => words.has(w));
  }
  return false;
}
const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
