/**
 * From the learned template to the template marks of one page (the output contract's per-node marks,
 * src/template/result.ts), for the hyperlink engine (paper 2, Alarte et al., section 4.2 and
 * Definition 3.3):
 *  1. the ETDM from the key page restricted to its template onto the page (template-extraction.ts): the
 *     page's nodes paired with template nodes;
 *  2. plus the subtrees of the images of same-word elements holding the key page's words there
 *     (template-extraction.ts `sameWordElements`); when learned so, the words of navigation bars' plain-text cells, and the images of the
 *     navigation regions (navigation-regions.ts);
 *  3. the page's content slot (navigation-regions.ts `contentSlot`: the deepest template element holding at
 *     least `slotShare` of the page's changing prose) and its ancestors are not template: they are the
 *     containers of the page's own content, mapped by the ETDM because every page has one, not parts of
 *     the template around the content (the corpus's gold says so too: an ancestor of the content is not
 *     template). Elements inside the slot keep their marks (a navigation bar in the content container);
 *  4. element marks follow the text they hold. Definition 3.3's template also holds the skeleton of the
 *     main content (the ETDM pairs one article's paragraphs with another's, since ≜ compares elements by
 *     tag, class, attributes, children and position, not by text), while those elements' texts differ and
 *     stay content. An element all of whose text is content is therefore reported as not template, and an
 *     element with no text (`<hr>`, `<img>`, an empty `<div>`) takes the mark of its parent. Elements
 *     that hold both template and content text (the page's layout containers) stay template, as the
 *     output contract allows.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import { HYPERLINK_DEFAULTS, type UnmappedCells } from './defaults.ts';
import type { AlignmentScratch } from './equal-top-down-mapping.ts';
import { contentSlot, hasWord, markNavigationCells, markNavigationRegions, VariableText } from './navigation-regions.ts';
import type { NodeEquality, NodeFeatures } from './node-equality.ts';
import { markSameWords, markWithTemplate } from './template-extraction.ts';

/** What the engine learned, as needed to mark any page. */
export interface LearnedTemplate {
  eq: NodeEquality;
  key: NodeFeatures;
  template: Uint8Array;
  regions: readonly number[];
  linkShare: number;
  /** Which pages decided the regions (navigation-regions.ts): with 'key', a page's images are tested against its content slot. */
  regionsDecidedBy: 'all' | 'key';
  /** Share of a page's changing prose that its content slot holds (step 3); 0 turns step 3 off. */
  slotShare: number;
  /** Plain-text cells of navigation bars are template (navigation-regions.ts `markNavigationCells`). */
  cells: boolean;
  /** Where a bar's unmapped cells are changing cells (defaults.ts `unmappedCells`). */
  unmappedCells: UnmappedCells;
  /** Same-word elements of the key page (template-extraction.ts `sameWordElements`). */
  sameWords: readonly number[];
}

/** Template marks of `page` (features of its tree), steps 1–4 above. */
export function markPage(learned: LearnedTemplate, page: NodeFeatures, scratch?: AlignmentScratch): Uint8Array {
  const { marks, map } = markWithTemplate(learned.eq, learned.key, learned.template, page, scratch);
  if (page !== learned.key) markSameWords(learned.key.tree, learned.sameWords, page.tree, map, marks);
  if (learned.cells) markNavigationCells(page.tree, marks, learned.unmappedCells);
  markNavigationRegions(page.tree, marks, map, learned.regions, learned.linkShare, learned.regionsDecidedBy, learned.slotShare || HYPERLINK_DEFAULTS.contentSlotShare);
  if (learned.slotShare > 0) unmarkContentPath(page.tree, marks, learned.slotShare);
  followText(page.tree, marks);
  for (let i = 0; i < marks.length; i++) if (marks[i] === CONTAINER) marks[i] = 0;
  return marks;
}

/**
 * Transient mark of step 3 for the ancestors of the content slot: not template, but an element without
 * text directly inside one keeps its own mark in step 4 (a layout `<div>` beside the content is template).
 * `markPage` turns it into 0.
 */
export const CONTAINER = 2;

/**
 * Step 3: unmarks the content slot of a marked page (0) and its ancestors (`CONTAINER`). Returns the slot
 * (-1 when the page has no changing prose).
 */
export function unmarkContentPath(tree: Tree, marks: Uint8Array, slotShare: number): number {
  const slot = contentSlot(tree, marks, new VariableText(tree, marks), slotShare);
  if (slot < 0) return slot;
  marks[slot] = 0;
  for (let a = tree.parent[slot]!; a >= 0; a = tree.parent[a]!) if (tree.kind[a] === NodeKind.Element) marks[a] = CONTAINER;
  return slot;
}


/**
 * Step 4: an element whose subtree text is all unmarked is unmarked; an element with no text takes its
 * parent's (already final) mark, unless the parent is a `CONTAINER` (then it keeps its own). Only texts
 * with a letter or a digit count: a lone "(" or "," is the same on many pages without being template (the
 * ETDM pairs the brackets of two code listings), and carries no words for the content either. Blank text nodes take their parent's mark. Preorder, O(n), prefix sums.
 */
export function followText(tree: Tree, marks: Uint8Array): void {
  const n = tree.size;
  const tpl = new Int32Array(n + 1);
  const content = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const text = tree.kind[i] === NodeKind.Text && hasWord(tree, i);
    tpl[i + 1] = tpl[i]! + (text && marks[i] === 1 ? 1 : 0);
    content[i + 1] = content[i]! + (text && marks[i] !== 1 ? 1 : 0);
  }
  for (let i = 0; i < n; i++) {
    const k = tree.kind[i];
    const p = tree.parent[i]!;
    if (k === NodeKind.Blank) {
      marks[i] = p >= 0 && marks[p] === 1 ? 1 : 0;
      continue;
    }
    if (k !== NodeKind.Element || marks[i] !== 1) continue;
    const e = tree.end[i]!;
    const t = tpl[e]! - tpl[i]!;
    const c = content[e]! - content[i]!;
    if (t === 0 && c > 0) marks[i] = 0;
    else if (t === 0 && c === 0 && p >= 0 && marks[p] !== CONTAINER) marks[i] = marks[p]!;
  }
}
