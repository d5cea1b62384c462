/**
 * The main content of one page, as a library call: `extractMainContent(tree, options)`. With no template
 * (a page alone: a single file, or a site of which only one page is at hand) the main block is chosen on
 * the page by its own signals (main-block.ts: text concentration, link density, class / id names,
 * position); with the marks of a template engine (`options.template`), among the nodes it left. The
 * headline is reported apart from the body (`headline`; `title` is always the document's `<title>`);
 * `headline: 'first'` puts it at the start of the text too, as some gold standards and readers want it.
 */
import { textOf } from '../html/text.ts';
import type { Tree } from '../html/tree.ts';
import { pageTitle } from './format.ts';
import { chooseMainBlock, type MainBlock, type MainBlockOptions } from './main-block.ts';

/** Where the headline goes (see MainContentOptions.headline). */
export type HeadlinePlacement = 'field' | 'first';

/** Options of extractMainContent: the main-block options, and two of its own. */
export interface MainContentOptions extends MainBlockOptions {
  /**
   * Template marks of the page (1 = template; length tree.size) from a template engine; absent for a
   * page alone (nothing is template).
   */
  template?: Uint8Array;
  /**
   * 'field' (default): the headline is reported as `headline` and left out of `text` and `marks` (the text
   * is the body); 'first': the headline is also the first line of `text`, and marked.
   */
  headline?: HeadlinePlacement;
}

/**
 * Why a page has no main content (`reason` of an empty result): 'no-text', the body holds no text;
 * 'all-template', the template holds all of it; 'no-main-block', text is left outside the template but none
 * of it was taken for main content (a headline alone, or only link lists and named boilerplate).
 */
export type NoContentReason = 'no-text' | 'all-template' | 'no-main-block';

/** The main content of a page. */
export interface MainContent {
  /** The document's `<title>`, white space collapsed and trimmed ('' when it has none). */
  title: string;
  /** The main content's headline (its heading's text, white space collapsed), '' when none was found. */
  headline: string;
  /** The main content's text, blocks on their own lines (the body; the headline first with `headline: 'first'`). */
  text: string;
  /** 1 where the node is main content (elements and text nodes), as `text` is made; length tree.size. */
  marks: Uint8Array;
  /** The element chosen as main block, -1 when the page has no text outside the template. */
  root: number;
  /** The headline's element, -1 when none. */
  headlineNode: number;
  /** True when the page was taken for a listing (its non-template text kept whole). */
  listing: boolean;
  /** Characters (non-space) of the page outside the template, and of them in links. */
  chars: number;
  linkChars: number;
  /** Set when `text` is empty: why (see NoContentReason). */
  reason?: NoContentReason;
}

/**
 * The main content of a page: the main block (main-block.ts) of the nodes the template leaves (all of
 * them when `options.template` is absent), its headline apart. Pure: the tree is not changed.
 */
export function extractMainContent(tree: Tree, options: MainContentOptions = {}): MainContent {
  const { template: given, headline: placement = 'field', ...block } = options;
  const template = given ?? new Uint8Array(tree.size);
  const mb = chooseMainBlock(tree, template, block);
  const { marks, headline } = placeHeadline(tree, mb, placement);
  const text = textOf(tree, tree.body(), (i) => marks[i] === 1);
  const out: MainContent = { title: pageTitle(tree), headline, text, marks, root: mb.root, headlineNode: headline !== '' ? mb.headline : -1, listing: mb.listing, chars: mb.chars, linkChars: mb.linkChars };
  if (text === '') out.reason = mb.chars > 0 ? 'no-main-block' : given !== undefined && textOf(tree, tree.body()) !== '' ? 'all-template' : 'no-text';
  return out;
}

/**
 * The content marks of a main block with its headline placed (`'field'`: left out of the marks; `'first'`:
 * kept), and the headline's text ('' when the block has none).
 */
export function placeHeadline(tree: Tree, mb: MainBlock, placement: HeadlinePlacement): Pick<MainContent, 'marks' | 'headline'> {
  const h = mb.headline;
  const headline = h >= 0 ? textOf(tree, h).replace(/\s+/g, ' ').trim() : '';
  if (headline === '') return { marks: mb.content, headline };
  return { marks: placement === 'field' ? mb.content.slice().fill(0, h, tree.end[h]!) : mb.content, headline };
}

/**
 * A page's `title` and `headline` as every result and output format gives them (docs/output.md): the
 * document's `<title>`, and the main content's headline when one was found (no `headline` field otherwise).
 */
export function titleFields(tree: Tree, headline: string): { title: string; headline?: string } {
  return headline !== '' ? { title: pageTitle(tree), headline } : { title: pageTitle(tree) };
}
