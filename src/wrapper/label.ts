/**
 * Labels and places: the evidence that tells apart elements a pattern's selector matches alike (two
 * blocks of one class, `By: <a>Ann</a>` and `More in <a>Shetland</a>`), in the order a run uses it:
 *  1. the label (`labelOf`): the words that say what the value is, where a record page puts them:
 *     - `row`: the header of the value's table row (`<th>Publisher:</th><td>…`) or the term of its
 *       definition (`<dt>Publisher</dt><dd>…`);
 *     - `block`: the text that starts the value's block before any element (`<div>By: <a>…</a></div>`),
 *       or the short element that starts it (`<p><b>By:</b> <a>…</a></p>`);
 *     - `before`: the short element just before the value's block when it ends with a colon or is a
 *       `label` (`<h4>Author:</h4><div>…</div>`);
 *  2. the place (`placeOf`): the rank of the value's block among its siblings of the same tag and class;
 *  3. the tree-gram (adapt.ts), among the candidates still equal.
 * A label is kept in a pattern only when the example pages agree on it; a place only when they show
 * siblings of the kind and agree on the rank (otherwise it says nothing).
 */
import { isBlock, isNonText } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { MAX_LABEL_CHARS } from './suggest.ts';
import { instanceText } from './tree-gram.ts';
import { sameWords } from './value.ts';

/** Where a label was found (see the module comment). */
export type LabelPlace = 'row' | 'block' | 'before';

/** A value's label: its text and where it was found. */
export interface Label {
  text: string;
  where: LabelPlace;
}

/** A short text with a letter in it: what a label may be. */
function labelText(s: string): string | null {
  const t = s.replace(/\s+/g, ' ').trim();
  return t !== '' && t.length <= MAX_LABEL_CHARS && /\p{L}/u.test(t) ? t : null;
}

/** Separators between a label and a value, or between values: the label is the text after the last one. */
const SEPARATOR = /[,;|•·/]/u;
/** Words that join a list's items (`A and B`): no label, the list's first item's is theirs. */
const JOINERS = new Set(['and', 'or', '&', 'with', 'et', 'und', 'y']);

/** Items of one list visited when looking for their label (the first item's). */
const MAX_ITEMS_BACK = 50;

/**
 * The label of `node` inside its block: the words just before it on its line (back to the previous element
 * that holds text, or a line break), after the last separator (`Sookie Stackhouse series, by <a>` gives
 * `by`); when there are none, the previous element's words when it is short and of another kind
 * (`<b>By:</b> <a>`), or the label of the previous element when it is of the same kind (an item of the same
 * list: `By: <a>A</a>, <a>B</a>`, `by <a>A</a> and <a>B</a>`). Null when there is none.
 */
function blockLabel(tree: Tree, block: number, node: number, depth: number): string | null {
  let text = '';
  let stop = -1;
  for (let i = node - 1; i > block; i--) {
    const parent = tree.parent[i]!;
    if (tree.contains(i, node) || !(parent === node || tree.contains(parent, node))) continue;
    const k = tree.kind[i];
    if (k === NodeKind.Text || k === NodeKind.Blank) {
      text = tree.nodeText(i) + text;
      continue;
    }
    if (k !== NodeKind.Element || isNonText(tree, i)) continue;
    const tag = tree.tag(i);
    if (tag === 'br' || tag === 'hr' || isBlock(tree, i)) break;
    if (instanceText(tree, i) === '') continue;
    stop = i;
    break;
  }
  const parts = text.split(SEPARATOR);
  const last = parts[parts.length - 1]!.replace(/\s+/g, ' ').trim();
  const joiner = JOINERS.has(last.toLowerCase());
  if (!joiner) {
    const own = labelText(last);
    if (own) return own;
    // A separator with nothing after it (`A, <a>B</a>`) joins items too.
    if (parts.length === 1 && stop >= 0 && shape(tree, stop) !== shape(tree, node)) return labelText(instanceText(tree, stop));
  }
  if (stop >= 0 && shape(tree, stop) === shape(tree, node) && depth < MAX_ITEMS_BACK) return blockLabel(tree, block, stop, depth + 1);
  return null;
}

/** Elements that are labels whatever their words. */
const LABEL_TAGS = new Set(['label', 'th', 'dt']);

/** The nearest ancestor-or-self of `node` that is a block element below the body, or -1. */
export function blockOf(tree: Tree, node: number): number {
  for (let n = tree.kind[node] === NodeKind.Element ? node : tree.parent[node]!; n > 0; n = tree.parent[n]!) {
    const tag = tree.tag(n);
    if (tag === 'body' || tag === 'html') return -1;
    if (isBlock(tree, n)) return n;
  }
  return -1;
}

/** The previous sibling element of `n` that holds text (not a script or a style), or -1. */
function previousElement(tree: Tree, n: number): number {
  const p = tree.parent[n]!;
  let prev = -1;
  for (let c = p + 1; c < n; c = tree.end[c]!) if (tree.kind[c] === NodeKind.Element && !isNonText(tree, c)) prev = c;
  return prev;
}

/** The label of the value at `node` (see the module comment), or null when it has none. */
export function labelOf(tree: Tree, node: number): Label | null {
  // A table row's header, a definition's term.
  for (let n = node; n > 0; n = tree.parent[n]!) {
    const tag = tree.kind[n] === NodeKind.Element ? tree.tag(n) : '';
    if (tag === 'td') {
      const row = tree.parent[n]!;
      const th = tree.elementChildren(row).find((c) => tree.tag(c) === 'th' && c < n);
      const text = th !== undefined ? labelText(instanceText(tree, th)) : null;
      if (text) return { text, where: 'row' };
      break;
    }
    if (tag === 'dd') {
      for (let c = previousElement(tree, n); c >= 0; c = previousElement(tree, c)) {
        if (tree.tag(c) !== 'dt') continue;
        const text = labelText(instanceText(tree, c));
        if (text) return { text, where: 'row' };
        break;
      }
      break;
    }
    if (tag === 'tr' || tag === 'dl' || tag === 'body') break;
  }
  const block = blockOf(tree, node);
  if (block < 0) return null;
  if (block !== node) {
    const inBlock = blockLabel(tree, block, node, 0);
    if (inBlock) return { text: inBlock, where: 'block' };
  }
  // Only what has a label's shape: words ending with a colon, or a label element (a heading or a
  // breadcrumb before the block is data of its own, and changes from page to page).
  const prev = previousElement(tree, block);
  if (prev >= 0) {
    const text = labelText(instanceText(tree, prev));
    if (text && (/[:：]$/u.test(text) || LABEL_TAGS.has(tree.tag(prev)))) return { text, where: 'before' };
  }
  return null;
}

/** The shape of an element among its siblings: tag and classes. */
function shape(tree: Tree, n: number): string {
  return `${tree.name[n]} ${(tree.attr(n, 'class') ?? '').split(/\s+/).filter(Boolean).sort().join(' ')}`;
}

/** Levels above a value's block where its siblings of the same kind are looked for. */
const PLACE_LEVELS = 3;

/**
 * The rank (1-based) of the value's block among its siblings of the same tag and class, and their number:
 * at the block, or the nearest of its ancestors (PLACE_LEVELS) that has such siblings (`<div class="box">
 * <p>value</p></div>` beside another `div.box`). Null when the value is in no block.
 */
export function placeOf(tree: Tree, node: number): { rank: number; of: number } | null {
  const block = blockOf(tree, node);
  if (block < 0) return null;
  let first: { rank: number; of: number } | null = null;
  for (let n = block, k = 0; n > 0 && k <= PLACE_LEVELS && tree.tag(n) !== 'body'; n = tree.parent[n]!, k++) {
    const p = tree.parent[n]!;
    const s = shape(tree, n);
    let rank = 0;
    let of = 0;
    for (let c = p + 1; c < tree.end[p]!; c = tree.end[c]!) {
      if (tree.kind[c] !== NodeKind.Element || shape(tree, c) !== s) continue;
      of++;
      if (c <= n) rank = of;
    }
    first ??= { rank, of };
    if (of > 1) return { rank, of };
  }
  return first;
}

/** True when the value at `node` has the label `text`. */
export function hasLabel(tree: Tree, node: number, text: string): boolean {
  const l = labelOf(tree, node);
  return l !== null && sameWords(l.text, text);
}

/** How a pattern tells apart the elements its selector matches (the wrapper file's `choose`). */
export interface Choose {
  label?: string | undefined;
  where?: LabelPlace | undefined;
  rank?: number | undefined;
  rule: string;
}

const WHERE_WORDS: Record<LabelPlace, string> = {
  row: 'the header of its row',
  block: 'the words that start its block',
  before: 'the element just before its block',
};

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

/** The sentence a wrapper file carries to say how a pattern's matches are told apart. */
export function ruleText(c: Omit<Choose, 'rule'>, multiple: boolean): string {
  const steps: string[] = [];
  if (c.label !== undefined) steps.push(`${multiple ? 'the items' : 'the one'} labelled ${JSON.stringify(c.label)} (${WHERE_WORDS[c.where ?? 'block']})`);
  if (c.rank !== undefined) steps.push(`the ${ordinal(c.rank)} block of its kind`);
  steps.push('the one most similar to the tree-gram');
  return multiple
    ? `items whose label is another are left out; keep ${steps[0]}`
    : `when the selector matches several elements, take ${steps.join(', then ')}; when still equal, not found (ambiguous)`;
}

/**
 * The evidence the example nodes agree on (see the module comment): their common label, and the common
 * rank of their blocks when each has siblings of its kind. Null when they agree on nothing.
 */
export function learnChoose(examples: ReadonlyArray<{ tree: Tree; node: number }>, multiple: boolean): Choose | null {
  if (examples.length === 0) return null;
  const labels = examples.map((e) => labelOf(e.tree, e.node));
  const first = labels[0];
  const out: Omit<Choose, 'rule'> = {};
  if (first && labels.every((l) => l !== null && sameWords(l.text, first.text))) {
    out.label = first.text;
    out.where = first.where;
  }
  if (!multiple) {
    const places = examples.map((e) => placeOf(e.tree, e.node));
    const r = places[0];
    if (r && places.every((p) => p !== null && p.of > 1 && p.rank === r.rank)) out.rank = r.rank;
  }
  if (out.label === undefined && out.rank === undefined) return null;
  return { ...out, rule: ruleText(out, multiple) };
}

/**
 * The nodes among `nodes` that the evidence keeps, and what decided: the label first (the nodes that have
 * it, when some have it and some do not), then the rank (the node whose block has it). `by` is null when
 * neither told them apart (the nodes are returned as they are).
 */
export function tellApart(tree: Tree, choose: Choose | undefined, nodes: readonly number[]): { nodes: number[]; by: 'label' | 'rank' | null } {
  let out = [...nodes];
  let by: 'label' | 'rank' | null = null;
  if (!choose || nodes.length < 2) return { nodes: out, by };
  if (choose.label !== undefined) {
    const kept = out.filter((n) => hasLabel(tree, n, choose.label!));
    if (kept.length > 0 && kept.length < out.length) {
      out = kept;
      by = 'label';
    }
  }
  if (out.length > 1 && choose.rank !== undefined) {
    const kept = out.filter((n) => placeOf(tree, n)?.rank === choose.rank);
    if (kept.length > 0 && kept.length < out.length) {
      out = kept;
      by = 'rank';
    }
  }
  return { nodes: out, by };
}

/** True when the value at `node` has a label and it is not the pattern's (a value of another field). */
export function otherLabel(tree: Tree, choose: Choose | undefined, node: number): string | null {
  if (choose?.label === undefined) return null;
  const l = labelOf(tree, node);
  return l !== null && !sameWords(l.text, choose.label) ? l.text : null;
}
