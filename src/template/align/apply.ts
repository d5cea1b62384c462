/**
 * Applying a learned template to a page (paper 1, section 2 and 3: the template sequence "available in the
 * tree root" is compared with a page's token sequence; the page's tokens that align with template tokens
 * are the template part of the page). Any page of the site is marked this way, not only the sample.
 *
 * The page's token sequence is aligned globally with the template sequence (align.ts); a page token is
 * *matched* when its alignment column pairs it with an equal template token (a mismatch column does not
 * count). Marks on nodes follow, as decided here (the paper marks tags, DESIGN.md marks nodes):
 *  - a text node is template when its text token is matched (the same text at the same place of the
 *    template: menu entries, footer lines), unless it shares its line of text with kept text: a line is
 *    the run of text between two block-level boundaries (html/text.ts, the lines of the kept text), and
 *    a line that holds unmatched text outside links is kept whole (a line whose only changing text is
 *    link text, "Next: <a>…</a>", is navigation and stays template). A byline "by <a>Author</a> on <date>", or a
 *    linked name inside a sentence of the article, is matched on every page written alike, but it is
 *    part of the text around it (the gold keeps it); text that is template on its own line (menu
 *    entries, headings of boxes) is not affected. The same holds for an inline element in such a line
 *    (an icon, an anchor, the spans of a code listing): it is content (`lineRule`; figures in
 *    docs/engines.md);
 *  - an element is template when its start tag is matched, its end tag is matched too (void elements have
 *    none), and no text inside it is kept (unmatched). An element that holds content is therefore never
 *    template, even when its tags are shared by every page (the `<main>` around the article, `<body>`):
 *    this is also the gold's rule (corpus README: ancestors of content are not template);
 *  - the whole subtree of a template element is template: what it holds is either matched or holds no
 *    text (an icon, a script, a changing attribute on a menu link).
 * Nodes that give no token (comments, blank text, script and style text) are template only through such a
 * subtree.
 */
import type { TokenSequence } from '../../html/tokens.ts';
import { TokenType } from '../../html/tokens.ts';
import { NodeKind, tagId, type Tree } from '../../html/tree.ts';
import { isBlock } from '../../html/text.ts';
import { type AlignOptions, alignSequences } from './align.ts';
import { ALIGN_DEFAULTS } from './defaults.ts';
import { withDefaults } from '../../filled.ts';
import { markRegions, type Navigation } from './navigation.ts';

/** Marks of one page and what the alignment said. */
export interface AppliedTemplate {
  /** 1 where the node is template (length tree.size). */
  readonly template: Uint8Array;
  /** Page tokens matched to template tokens. */
  readonly matched: number;
  /** Alignment score, and whether it is proved optimal (always but for align.ts's explicit fallback). */
  readonly score: number;
  readonly exact: boolean;
  /** Per node, the template index of the start tag its own start tag matched, or -1. */
  readonly openMatch: Int32Array;
}

/** Options of applyTemplate. */
export interface ApplyOptions extends AlignOptions {
  /** Keep matched text that shares its line with kept text (default ALIGN_DEFAULTS.lineRule). */
  lineRule?: boolean;
  /** Navigation regions and content slot (navigation.ts): matching subtrees outside the content are template. */
  navigation?: Navigation;
  /** Content slot share of the region test (default ALIGN_DEFAULTS.contentSlotShare). */
  slotShare?: number;
}

/** `ApplyOptions` defaults (ALIGN_DEFAULTS). */
const APPLY_DEFAULTS = { lineRule: ALIGN_DEFAULTS.lineRule, slotShare: ALIGN_DEFAULTS.contentSlotShare };

/** Aligns a page's token sequence with the template's and marks the page's template nodes. */
export function applyTemplate(tree: Tree, seq: TokenSequence, template: Int32Array, options: ApplyOptions = {}): AppliedTemplate {
  const { lineRule, slotShare } = withDefaults(APPLY_DEFAULTS, options);
  const aln = alignSequences(seq.ids, template, options);
  const size = tree.size;
  // Per node: bit 1 start tag (or text) matched, bit 2 end tag matched.
  const hit = new Uint8Array(size);
  const openMatch = new Int32Array(size).fill(-1);
  let matched = 0;
  for (let k = 0; k < aln.length; k++) {
    const i = aln.colA[k]!;
    const j = aln.colB[k]!;
    if (i < 0 || j < 0 || seq.ids[i] !== template[j]) continue;
    matched++;
    const t = seq.type[i];
    hit[seq.node[i]!]! |= t === TokenType.Close ? 2 : 1;
    if (t === TokenType.Open) openMatch[seq.node[i]!] = j;
  }
  // Which elements had an end-tag token at all (void elements and unclosed ones did not).
  const hasEnd = new Uint8Array(size);
  for (let k = 0; k < seq.length; k++) if (seq.type[k] === TokenType.Close) hasEnd[seq.node[k]!] = 1;
  const hasToken = new Uint8Array(size);
  for (let k = 0; k < seq.length; k++) hasToken[seq.node[k]!] = 1;
  if (lineRule) keepLinesWithContent(tree, hasToken, hit);
  // Bottom-up (reverse preorder): does the subtree hold kept text?
  const keptInside = new Uint8Array(size);
  const marks = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    const k = tree.kind[i];
    if (k === NodeKind.Text) {
      if (hasToken[i] === 1 && (hit[i]! & 1) === 0) keptInside[i] = 1;
      else if (hasToken[i] === 1) marks[i] = 1;
    } else if (k === NodeKind.Element) {
      const tagsMatched = (hit[i]! & 1) !== 0 && (hasEnd[i] === 0 || (hit[i]! & 2) !== 0);
      if (tagsMatched && keptInside[i] === 0) marks[i] = 2; // subtree, filled below
    }
    const p = tree.parent[i]!;
    if (p >= 0 && keptInside[i] === 1) keptInside[p] = 1;
  }
  // Whole subtrees of template elements (preorder: a subtree is a range).
  for (let i = 0; i < size; i++) {
    if (marks[i] === 2) {
      marks.fill(1, i, tree.end[i]!);
      i = tree.end[i]! - 1;
    }
  }
  if (options.navigation) markRegions(tree, marks, openMatch, options.navigation, slotShare);
  return { template: marks, matched, score: aln.score, exact: aln.exact, openMatch };
}

/**
 * The line rule (see the module comment): clears the match bit of every matched text node, and of every
 * inline element (an icon, an anchor, a span of a code listing), whose line (text between two block-level
 * boundaries, in document order) also holds unmatched text outside links.
 */
function keepLinesWithContent(tree: Tree, hasToken: Uint8Array, hit: Uint8Array): void {
  const size = tree.size;
  const lineOf = new Int32Array(size);
  const closers: number[] = [];
  let line = 0;
  for (let i = 0; i < size; i++) {
    while (closers.length > 0 && closers[closers.length - 1]! <= i) {
      closers.pop();
      line++;
    }
    const k = tree.kind[i];
    if (k === NodeKind.Text) lineOf[i] = line;
    else if (k === NodeKind.Element) {
      if (isBlock(tree, i)) {
        line++;
        closers.push(tree.end[i]!);
        lineOf[i] = -1;
      } else lineOf[i] = line;
    }
  }
  // Only kept text outside links makes a line content: a navigation line ("Next: <a>…</a> Up: <a>…</a>")
  // whose links change from page to page stays template.
  const a = tagId('a');
  const inLink = new Uint8Array(size);
  for (let i = 1; i < size; i++) {
    const p = tree.parent[i]!;
    if (p >= 0 && (inLink[p] === 1 || (tree.kind[p] === NodeKind.Element && tree.name[p] === a))) inLink[i] = 1;
  }
  const kept = new Uint8Array(line + 1);
  for (let i = 0; i < size; i++) if (tree.kind[i] === NodeKind.Text && hasToken[i] === 1 && (hit[i]! & 1) === 0 && inLink[i] === 0) kept[lineOf[i]!] = 1;
  for (let i = 0; i < size; i++) {
    const k = tree.kind[i];
    if (k === NodeKind.Text ? hasToken[i] === 1 && kept[lineOf[i]!] === 1 : k === NodeKind.Element && lineOf[i]! >= 0 && kept[lineOf[i]!] === 1) hit[i] = hit[i]! & ~1;
  }
}
