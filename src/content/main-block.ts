/**
 * The main block of a page once its template is removed. Paper 2 (Alarte et al., "Web Template Extraction
 * Based on Hyperlink Analysis", section 6, conclusion) leaves the choice of the main content among what the
 * template leaves to the signals of content-extraction work: text concentration (the main content is where
 * the text is, Kohlschütter's densitometry), few links (link density: menus and link lists are
 * boilerplate) and position. Here:
 *  1. every text node that is not template and holds page text is attributed to its block (nearest
 *     block-level ancestor); per block, its characters and the characters inside links;
 *  2. each block gets a value: its non-link characters minus `linkPenalty` × its link characters, and a
 *     link-dense block (density above `maxLinkDensity`) counts all its text against; blocks shorter than
 *     `minBlockChars` count zero (they neither make nor break a region);
 *  3. the main block is the element whose subtree has the greatest total value (a maximum-weight subtree:
 *     the region with the most concentrated, least linked text);
 *  4. content = the non-template text inside it, less its link-dense blocks; plus the page's heading
 *     (`<h1>`, position: the title just before the main block) when it lies outside it;
 *  5. a listing page (most non-template text in links: tag pages, indexes) keeps all its non-template
 *     text: its links are its content.
 * Everything runs on the Tree's typed arrays in two linear passes.
 */
import { isBlock, isNonText } from '../html/text.ts';
import { NodeKind, tagId, type Tree } from '../html/tree.ts';
import { CONTENT_DEFAULTS } from './defaults.ts';

/** Options of the main-block choice (defaults: CONTENT_DEFAULTS). */
export interface MainBlockOptions {
  maxLinkDensity?: number;
  linkPenalty?: number;
  minBlockChars?: number;
  listingLinkFraction?: number;
  /** Add the page heading outside the main block (default true). */
  heading?: boolean;
  /** Drop link-dense blocks inside the main block (default true). */
  dropLinkBlocks?: boolean;
}

/** What was chosen on one page. */
export interface MainBlock {
  /** 1 where the node is main content (elements and text nodes); length tree.size. */
  content: Uint8Array;
  /** The element chosen as main block (-1 when the page has no non-template text). */
  root: number;
  /** True when the page was taken for a listing (all non-template text kept). */
  listing: boolean;
  /** Non-template characters of the page, and those inside links. */
  chars: number;
  linkChars: number;
}

/** Number of non-space characters of a text node. */
function visibleChars(tree: Tree, i: number): number {
  let n = 0;
  const t = tree.text;
  for (let k = tree.textStart[i]!, e = tree.textEnd[i]!; k < e; k++) {
    const c = t.charCodeAt(k);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 160) n++;
  }
  return n;
}

/**
 * Chooses the main content of a page whose template marks are `template` (1 = template). See the module
 * comment for the method.
 */
export function chooseMainBlock(tree: Tree, template: Uint8Array, options: MainBlockOptions = {}): MainBlock {
  const D = CONTENT_DEFAULTS;
  const maxLd = options.maxLinkDensity ?? D.maxLinkDensity;
  const penalty = options.linkPenalty ?? D.linkPenalty;
  const minChars = options.minBlockChars ?? D.minBlockChars;
  const listingFrac = options.listingLinkFraction ?? D.listingLinkFraction;
  const n = tree.size;
  const body = tree.body();
  const bodyEnd = tree.end[body]!;
  const A = tagId('a');
  const H1 = tagId('h1');

  // Pass 1 (preorder): in-link and skipped flags, block of each node, chars per block.
  const inLink = new Uint8Array(n);
  const skip = new Uint8Array(n);
  const blockOf = new Int32Array(n).fill(-1);
  const chars = new Int32Array(n);
  const linkChars = new Int32Array(n);
  let total = 0;
  let totalLink = 0;
  blockOf[body] = body;
  for (let i = body + 1; i < bodyEnd; i++) {
    const p = tree.parent[i]!;
    const kind = tree.kind[i]!;
    if (skip[p] === 1) {
      skip[i] = 1;
      continue;
    }
    if (kind === NodeKind.Element) {
      if (isNonText(tree, i)) {
        skip[i] = 1;
        continue;
      }
      inLink[i] = inLink[p]! | (tree.name[i] === A ? 1 : 0);
      blockOf[i] = isBlock(tree, i) ? i : blockOf[p]!;
    } else if (kind === NodeKind.Text) {
      if (template[i] === 1) continue;
      const b = blockOf[p]!;
      const c = visibleChars(tree, i);
      chars[b] = chars[b]! + c;
      total += c;
      if (inLink[p] === 1) {
        linkChars[b] = linkChars[b]! + c;
        totalLink += c;
      }
    }
  }
  const content = new Uint8Array(n);
  if (total === 0) return { content, root: -1, listing: false, chars: 0, linkChars: 0 };

  const markKept = (from: number, to: number, dropDense: boolean): void => {
    for (let i = from; i < to; i++) {
      if (skip[i] === 1 || template[i] === 1) continue;
      const k = tree.kind[i];
      if (k === NodeKind.Text || k === NodeKind.Blank) {
        const b = blockOf[tree.parent[i]!]!;
        if (dropDense && chars[b]! > 0 && linkChars[b]! > maxLd * chars[b]!) continue;
        content[i] = 1;
      } else if (k === NodeKind.Element) {
        content[i] = 1;
      }
    }
  };

  if (totalLink > listingFrac * total) {
    markKept(body, bodyEnd, false);
    return { content, root: body, listing: true, chars: total, linkChars: totalLink };
  }

  // Pass 2 (reverse preorder): value of each block, summed up the tree.
  const score = new Float64Array(n);
  for (let i = bodyEnd - 1; i >= body; i--) {
    if (tree.kind[i] !== NodeKind.Element || skip[i] === 1) continue;
    const c = chars[i]!;
    if (c > 0) {
      const l = linkChars[i]!;
      if (l > maxLd * c) score[i] = score[i]! - c;
      else if (c >= minChars) score[i] = score[i]! + c - l - penalty * l;
    }
    if (i > body) {
      const p = tree.parent[i]!;
      score[p] = score[p]! + score[i]!;
    }
  }
  let best = body;
  for (let i = body; i < bodyEnd; i++) {
    if (tree.kind[i] === NodeKind.Element && skip[i] !== 1 && score[i]! >= score[best]!) best = i;
  }
  markKept(best, tree.end[best]!, options.dropLinkBlocks ?? true);
  // Ancestors of the main block hold it (so that serialisation shows it inside its containers).
  if (options.heading ?? true) {
    // Position: the page's heading just before the main block, when the block does not hold it.
    let h = -1;
    for (let i = body; i < best; i++) if (tree.name[i] === H1 && skip[i] !== 1 && template[i] !== 1 && !tree.contains(i, best)) h = i;
    if (h >= 0) markKept(h, tree.end[h]!, false);
  }
  return { content, root: best, listing: false, chars: total, linkChars: totalLink };
}
