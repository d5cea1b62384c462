/**
 * From the learned template to the template marks of one page (the output contract's per-node marks,
 * src/template/result.ts), for the hyperlink engine (paper 2, Alarte et al., section 4.2 and
 * Definition 3.3):
 *  1. the ETDM from the key page restricted to its template onto the page (template-extraction.ts): the
 *     page's nodes paired with template nodes;
 *  2. plus the images of the navigation regions (navigation-regions.ts);
 *  3. element marks follow the text they hold. Definition 3.3's template also holds the skeleton of the
 *     main content (the ETDM pairs one article's paragraphs with another's, since ≜ compares elements by
 *     tag, class, attributes, children and position, not by text), while those elements' texts differ and
 *     stay content. An element all of whose text is content is therefore reported as not template, and an
 *     element with no text (`<hr>`, `<img>`, an empty `<div>`) takes the mark of its parent. Elements
 *     that hold both template and content text (the page's layout containers) stay template, as the
 *     output contract allows.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import type { AlignmentScratch } from './equal-top-down-mapping.ts';
import { markNavigationRegions } from './navigation-regions.ts';
import type { NodeEquality, NodeFeatures } from './node-equality.ts';
import { markWithTemplate } from './template-extraction.ts';

/** What the engine learned, as needed to mark any page. */
export interface LearnedTemplate {
  eq: NodeEquality;
  key: NodeFeatures;
  template: Uint8Array;
  regions: readonly number[];
  linkShare: number;
}

/** Template marks of `page` (features of its tree), steps 1–3 above. */
export function markPage(learned: LearnedTemplate, page: NodeFeatures, scratch?: AlignmentScratch): Uint8Array {
  const { marks, map } = markWithTemplate(learned.eq, learned.key, learned.template, page, scratch);
  markNavigationRegions(page.tree, marks, map, learned.regions, learned.linkShare);
  followText(page.tree, marks);
  return marks;
}

/**
 * Step 3: an element whose subtree text is all unmarked is unmarked; an element with no text takes its
 * parent's (already final) mark. Blank text nodes take their parent's mark. Preorder, O(n), prefix sums.
 */
export function followText(tree: Tree, marks: Uint8Array): void {
  const n = tree.size;
  const tpl = new Int32Array(n + 1);
  const content = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const text = tree.kind[i] === NodeKind.Text;
    tpl[i + 1] = tpl[i]! + (text && marks[i] === 1 ? 1 : 0);
    content[i + 1] = content[i]! + (text && marks[i] !== 1 ? 1 : 0);
  }
  for (let i = 0; i < n; i++) {
    const k = tree.kind[i];
    const p = tree.parent[i]!;
    if (k === NodeKind.Blank) {
      marks[i] = p >= 0 ? marks[p]! : 0;
      continue;
    }
    if (k !== NodeKind.Element || marks[i] !== 1) continue;
    const e = tree.end[i]!;
    const t = tpl[e]! - tpl[i]!;
    const c = content[e]! - content[i]!;
    if (t === 0 && c > 0) marks[i] = 0;
    else if (t === 0 && c === 0 && p >= 0) marks[i] = marks[p]!;
  }
}
