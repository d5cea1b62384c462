/**
 * Applying a learned template to a page (paper 1, section 2 and 3: the template sequence "available in the
 * tree root" is compared with a page's token sequence; the page's tokens that align with template tokens
 * are the template part of the page). Any page of the site is marked this way, not only the sample.
 *
 * The page's token sequence is aligned globally with the template sequence (align.ts); a page token is
 * *matched* when its alignment column pairs it with an equal template token (a mismatch column does not
 * count). Marks on nodes follow, as decided here (the paper marks tags, DESIGN.md marks nodes):
 *  - a text node is template when its text token is matched (the same text at the same place of the
 *    template: menu entries, footer lines);
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
import { NodeKind, type Tree } from '../../html/tree.ts';
import { type AlignOptions, alignSequences } from './align.ts';

/** Marks of one page and what the alignment said. */
export interface AppliedTemplate {
  /** 1 where the node is template (length tree.size). */
  readonly template: Uint8Array;
  /** Page tokens matched to template tokens. */
  readonly matched: number;
  /** Alignment score (optimal, align.ts). */
  readonly score: number;
}

/** Aligns a page's token sequence with the template's and marks the page's template nodes. */
export function applyTemplate(tree: Tree, seq: TokenSequence, template: Int32Array, options: AlignOptions = {}): AppliedTemplate {
  const aln = alignSequences(seq.ids, template, options);
  const size = tree.size;
  // Per node: bit 1 start tag (or text) matched, bit 2 end tag matched.
  const hit = new Uint8Array(size);
  let matched = 0;
  for (let k = 0; k < aln.length; k++) {
    const i = aln.colA[k]!;
    const j = aln.colB[k]!;
    if (i < 0 || j < 0 || seq.ids[i] !== template[j]) continue;
    matched++;
    hit[seq.node[i]!]! |= seq.type[i] === TokenType.Close ? 2 : 1;
  }
  // Which elements had an end-tag token at all (void elements and unclosed ones did not).
  const hasEnd = new Uint8Array(size);
  for (let k = 0; k < seq.length; k++) if (seq.type[k] === TokenType.Close) hasEnd[seq.node[k]!] = 1;
  const hasToken = new Uint8Array(size);
  for (let k = 0; k < seq.length; k++) hasToken[seq.node[k]!] = 1;
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
  return { template: marks, matched, score: aln.score };
}
