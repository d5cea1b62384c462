/**
 * What a pattern's value is on a page (paper 5, Section 4: a pattern extracts the data of the nodes its
 * selector locates). An instance is an element (or a text node); its value is, by the pattern's `value`:
 *  - `text` (default): its text, blocks on their own lines (html/text.ts);
 *  - `own`: its own text nodes only, joined (`<li><b>ISBN</b>: 978…</li>` gives ": 978…");
 *  - `after`: the instance is a label, and the value is the text that follows it (`textAfter`), the usual
 *    shape of record pages: `<b>Publication Date:</b> 2008<br>`, `<li><strong>Publisher</strong>: Zebra`,
 *    `<dt>Publisher</dt><dd>Zebra</dd>`, `<th>Publisher</th><td>Zebra</td>`;
 *  - `@name`: the value of its attribute `name` (a meta tag's `content`, a link's `href`).
 */
import { isBlock, isNonText } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { textWords } from './match/string.ts';
import { instanceText } from './tree-gram.ts';

/** The value modes a pattern can have (the file's `value`; `@name` for any attribute name). */
export const VALUE_MODES = ['text', 'own', 'after', '@attribute'] as const;

/** Separators between a label and its value, dropped from the start of a value read after a label. */
const LEADING_SEPARATORS = /^[\s:：\-–—|=>»·]+/u;

/** The value of an instance (see the module comment); '' when there is none (a missing attribute). */
export function valueOf(tree: Tree, node: number, mode = 'text'): string {
  if (mode.startsWith('@')) return tree.kind[node] === NodeKind.Element ? (tree.attr(node, mode.slice(1)) ?? '') : '';
  if (mode === 'after') return textAfter(tree, node);
  if (mode === 'own' && tree.kind[node] === NodeKind.Element) {
    let s = '';
    for (let c = node + 1, e = tree.end[node]!; c < e; c = tree.end[c]!) if (tree.kind[c] === NodeKind.Text) s += tree.nodeText(c) + ' ';
    return s.replace(/\s+/g, ' ').trim();
  }
  return instanceText(tree, node);
}

/** True when the words of `a` and `b` are the same sequence (and there is at least one). */
export function sameWords(a: string, b: string): boolean {
  const x = textWords(a);
  const y = textWords(b);
  return x.length > 0 && x.length === y.length && x.every((w, k) => w === y[k]);
}

/** True when node i is an element with the same tag and class attribute as element j. */
function sameShape(tree: Tree, i: number, j: number): boolean {
  return tree.kind[i] === NodeKind.Element && tree.name[i] === tree.name[j] && (tree.attr(i, 'class') ?? '') === (tree.attr(j, 'class') ?? '');
}

/** The first sibling after node i that holds something (not white space, not a comment), or -1. */
function nextContent(tree: Tree, i: number): number {
  const p = tree.parent[i]!;
  for (let c = tree.end[i]!, e = tree.end[p]!; c < e; c = tree.end[c]!) {
    const k = tree.kind[c];
    if (k === NodeKind.Text || (k === NodeKind.Element && !isNonText(tree, c))) return c;
  }
  return -1;
}

/**
 * The label element a value follows: `node` itself, or the ancestor that is nothing but the label
 * (`<dt><b>Publisher</b></dt>`: the dt), climbing while `node` has nothing after it in its parent and the
 * parent's words are the label's.
 */
export function labelElement(tree: Tree, node: number): number {
  let label = node;
  const words = instanceText(tree, node);
  for (let p = tree.parent[label]!; p > 0 && tree.tag(p) !== 'body' && nextContent(tree, label) < 0 && sameWords(instanceText(tree, p), words); p = tree.parent[p]!) {
    label = p;
  }
  return label;
}

/**
 * True when element `node` has the shape of a label whose value follows it (`textAfter`): the value
 * starts on the label's line (inline text or an inline element comes after it, as in `<b>Date:</b> 2008`
 * or `<strong>Publisher</strong>: Zebra`), or the label is a table header or a term (`th`, `dt`), or the
 * first cell of a table row. A heading followed by a paragraph, or a breadcrumb item followed by the next,
 * is not a label: its text is itself data.
 */
export function isLabelShape(tree: Tree, node: number): boolean {
  if (tree.kind[node] !== NodeKind.Element) return false;
  const label = labelElement(tree, node);
  const tag = tree.tag(label);
  if (tag === 'th' || tag === 'dt') return true;
  if (tag === 'td') {
    const row = tree.parent[label]!;
    return tree.elementChildren(row)[0] === label;
  }
  const next = nextContent(tree, label);
  if (next < 0) return false;
  if (tree.kind[next] === NodeKind.Text) return true;
  return !isBlock(tree, next) && !isBlock(tree, label);
}

/**
 * The text after a label (mode `after`): the siblings that follow the label element (`labelElement`), up
 * to the end of the line: a `<br>`/`<hr>`, a block-level element, or the next label (an element of the
 * label's tag and class) ends it once some text was read (before any, a line break or block is skipped
 * over and a block is read: `<dt>…</dt><dd>value</dd>`). Separators at the start (`: `, ` - `) are
 * dropped; the rest is white-space collapsed.
 */
export function textAfter(tree: Tree, node: number): string {
  if (tree.kind[node] !== NodeKind.Element) return '';
  const label = labelElement(tree, node);
  const p = tree.parent[label]!;
  let s = '';
  const started = (): boolean => /[\p{L}\p{N}]/u.test(s);
  for (let c = tree.end[label]!, e = tree.end[p]!; c < e; c = tree.end[c]!) {
    const k = tree.kind[c];
    if (k === NodeKind.Text || k === NodeKind.Blank) {
      s += tree.nodeText(c);
      continue;
    }
    if (k !== NodeKind.Element || isNonText(tree, c)) continue;
    const tag = tree.tag(c);
    if (tag === 'br' || tag === 'hr') {
      if (started()) break;
      continue;
    }
    if (started() && (isBlock(tree, c) || sameShape(tree, c, label))) break;
    s += ' ' + instanceText(tree, c).replace(/\n/g, ' ') + ' ';
    if (isBlock(tree, c) && started()) break;
  }
  return s.replace(/\s+/g, ' ').trim().replace(LEADING_SEPARATORS, '');
}

/** `//tag[normalize-space()='…']` (or `.//` inside an instance): the shape of a label selector (suggest.ts). */
const LABEL_XPATH = /^(\.?)\/\/([A-Za-z][\w.-]*)\[normalize-space\(\)\s*=\s*(?:'([^']*)'|"([^"]*)")\]$/;

/**
 * The elements a label selector of the shape `//tag[normalize-space()='words']` selects inside `scope`, in
 * one pass over the scope's elements (the XPath engine walks its own node objects and costs a parse or two
 * of the page per label); null for any other selector. Same result as the XPath: the element's string value
 * (all its descendant text) with XML white space collapsed and trimmed, equal to the literal; the tag
 * compared ignoring case (HTML).
 */
export function selectLabel(tree: Tree, selector: string, scope: number): number[] | null {
  const m = LABEL_XPATH.exec(selector.trim());
  if (!m) return null;
  const tag = m[2]!.toLowerCase();
  const want = m[3] ?? m[4]!;
  const out: number[] = [];
  const from = scope > 0 ? scope + 1 : 0;
  // Characters other than XML white space: an element with more of them cannot be equal (stop reading).
  const solid = (x: string): number => x.replace(/[\x20\t\r\n]/g, '').length;
  const wanted = solid(want);
  for (let i = from, e = tree.end[scope]!; i < e; i++) {
    if (tree.kind[i] !== NodeKind.Element || tree.tag(i).toLowerCase() !== tag) continue;
    let s = '';
    let n = 0;
    for (let j = i + 1, f = tree.end[i]!; j < f && n <= wanted; j++) {
      if (tree.kind[j] !== NodeKind.Text && tree.kind[j] !== NodeKind.Blank) continue;
      const t = tree.nodeText(j);
      s += t;
      n += solid(t);
    }
    if (n === wanted && s.replace(/[\x20\t\r\n]+/g, ' ').trim() === want) out.push(i);
  }
  return out;
}
