/**
 * Main content made of records: a forum topic (its posts), a question page (the question and its
 * answers), a document in sections. The main block (main-block.ts) is the single element of greatest
 * value, so on such pages it is one record; the records of its kind are the main content together.
 * Records are found in two ways, both from the main block `best`:
 *  1. a run of siblings (Liu et al.'s data regions, "Mining data records in Web pages", KDD 2003, in
 *     their simplest form): for `best` and each of its ancestors up to `levels` above it, the adjacent
 *     element siblings of the same kind (kindOf: tag, first class name, id without digits), siblings without text passed over
 *     (a `<hr>` divider, an anchor), each of positive value and holding an element of the same kind at
 *     the same place as `best` in its own (the record's structure: a sidebar column beside the story's
 *     column does not hold the story's container); a run needs a second record worth at least `minShare`
 *     of `best`, and then takes its records of any size (every post of a thread, the one-line replies too);
 *  2. elsewhere on the page, the elements of the main block's own kind (tag and class names; a class is
 *     required, a bare tag says too little), each worth at least `minShare` of the main block, when they
 *     hold most of the value of their lowest common ancestor (question and answers, whose containers are
 *     not siblings).
 * Each record is returned as its element at the main block's place (its post body, its answer's text),
 * in document order: each a root of the main content. A record of the run's kind without text at that
 * element is passed over, not an end of the run. Everything runs on the
 * typed arrays of the main-block passes, over `best`'s ancestors and their children only, except way 2,
 * which reads the class of the elements with `best`'s tag.
 */
import { isBlock } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { headingSlug } from './hints.ts';

/** The arrays of the main-block passes that records read. */
export interface RecordPass {
  tree: Tree;
  /** Positive value of each element's subtree: the sum of its blocks' values above 0 (main-block.ts, pass 2). */
  positive: Float64Array;
  /** 1 for nodes that hold no page text (and their subtrees). */
  skip: Uint8Array;
  /** Non-template characters per subtree (elements). */
  sub: Int32Array;
  body: number;
}

/**
 * The kind of element i: its tag, first class name and id with its digits taken out (`p123` and `p124`,
 * `answer-17` and `answer-18` are of one kind; an id that spells the section's heading is no id,
 * hints.ts). '' when it has neither class nor id and is not a sectioning element (`section`, `article`):
 * a bare `div` or `td` says too little to make records of.
 */
function kindOf(tree: Tree, i: number): string {
  const c = tree.attr(i, 'class');
  const cls = c === undefined ? '' : (/\S+/.exec(c)?.[0] ?? '');
  const raw = tree.attr(i, 'id');
  const id = raw === undefined || headingSlug(tree, i, raw) ? '' : raw.replace(/\d+/g, '');
  const tag = tree.tag(i);
  if (cls === '' && id === '' && tag !== 'section' && tag !== 'article') return '';
  return `${tag}.${cls}#${id}`;
}

/** Same kind (kindOf), and not the empty kind. */
function sameKind(tree: Tree, a: number, b: number): boolean {
  if (tree.name[a] !== tree.name[b]) return false;
  const k = kindOf(tree, a);
  return k !== '' && k === kindOf(tree, b);
}

/**
 * The element at the same place in `other` as `target` is in `from`: the path from `from` down to
 * `target` as (kind, rank among same-kind element siblings) steps, followed in `other` by kind only.
 * -1 when `other` has no such element.
 */
function samePlace(tree: Tree, from: number, target: number, other: number): number {
  const path: number[] = [];
  for (let a = target; a !== from; a = tree.parent[a]!) path.push(a);
  let at = other;
  for (let k = path.length - 1; k >= 0; k--) {
    const want = path[k]!;
    let next = -1;
    for (let c = at + 1; c < tree.end[at]!; c = tree.end[c]!) {
      if (tree.kind[c] === NodeKind.Element && sameKind(tree, c, want)) {
        next = c;
        break;
      }
    }
    if (next < 0) return -1;
    at = next;
  }
  return at;
}

/**
 * Way 1: the run of same-kind siblings around `a` (see the module comment), as the element at `best`'s
 * place in each (`best` itself in `a`), or null when under two.
 */
function siblingRun(p: RecordPass, a: number, best: number, minShare: number): number[] | null {
  const { tree, positive, skip, sub, body } = p;
  const parent = tree.parent[a]!;
  const kids = tree.elementChildren(parent);
  const at = kids.indexOf(a);
  const floor = minShare * positive[best]!;
  /** The record's core (the element at best's place) when it has text, or -1 when c is no record of the run. */
  const core = (c: number): number => {
    if (!sameKind(tree, c, a) || skip[c] === 1) return -1;
    const e = samePlace(tree, a, best, c);
    return e >= 0 && skip[e] !== 1 && sub[e - body]! > 0 ? e : -1;
  };
  /** A sibling the run passes over: no text of its own. */
  const transparent = (c: number): boolean => skip[c] === 1 || sub[c - body]! === 0;
  const out = [best];
  let worth = 1;
  const take = (c: number, first: boolean): boolean => {
    const e = core(c);
    if (e >= 0) {
      if (first) out.unshift(e);
      else out.push(e);
      if (positive[e]! > 0 && positive[e]! >= floor) worth++;
    }
    return e >= 0 || transparent(c) || sameKind(tree, c, a);
  };
  for (let k = at - 1; k >= 0 && take(kids[k]!, true); k--);
  for (let k = at + 1; k < kids.length && take(kids[k]!, false); k++);
  // A run is one when a second record is worth minShare of the main block; then its small records (a
  // one-line reply) are records too: a thread keeps every post.
  return worth >= 2 ? out : null;
}

/** Way 2: elements of `best`'s kind elsewhere (module comment), or null. */
function sameKindElsewhere(p: RecordPass, best: number, minShare: number, cover: number): number[] | null {
  const { tree, positive, skip, body } = p;
  const cls = tree.attr(best, 'class')?.trim() ?? '';
  if (cls === '') return null;
  const out: number[] = [];
  const end = tree.end[body]!;
  for (let i = body + 1; i < end; i++) {
    if (skip[i] === 1) {
      i = tree.end[i]! - 1;
      continue;
    }
    if (tree.kind[i] !== NodeKind.Element || tree.name[i] !== tree.name[best] || tree.attr(i, 'class')?.trim() !== cls) continue;
    if (i === best || (positive[i]! > 0 && positive[i]! >= minShare * positive[best]!)) out.push(i);
    i = tree.end[i]! - 1;
  }
  if (out.length < 2 || !out.includes(best)) return null;
  let lca = tree.parent[out[0]!]!;
  while (lca > body && !tree.contains(lca, out[out.length - 1]!)) lca = tree.parent[lca]!;
  if (lca <= body) return null;
  let recs = 0;
  for (const r of out) recs += positive[r]!;
  return recs >= cover * positive[lca]! ? out : null;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Block-level elements in the subtree of r, r excluded (a post holds its author's block and its text's; a paragraph none). */
function blocksIn(tree: Tree, r: number): number {
  let n = 0;
  for (let i = r + 1; i < tree.end[r]!; i++) if (tree.kind[i] === NodeKind.Element && isBlock(tree, i)) n++;
  return n;
}

/**
 * Whether most of `records` open with a heading (their first text is in an h1–h6): sections of a
 * document, whose parts are all content, not posts whose furniture (author, date, signature) is not.
 */
function mostlySections(p: RecordPass, records: readonly number[]): boolean {
  const { tree, skip } = p;
  let opened = 0;
  for (const r of records) {
    let i = r + 1;
    while (i < tree.end[r]! && (tree.kind[i] !== NodeKind.Text || skip[i] === 1 || tree.nodeText(i).trim() === '')) i++;
    if (i >= tree.end[r]!) continue;
    for (let a = tree.parent[i]!; a > r; a = tree.parent[a]!) {
      if (HEADINGS.has(tree.tag(a))) {
        opened++;
        break;
      }
    }
  }
  return 2 * opened > records.length;
}

/** Fewest records a run inside the main block needs (a thread of a question and two replies). */
const MIN_INNER = 3;

/**
 * Whether the main block holds the records rather than being one of them (the container of a thread's
 * posts, which outweighs each post): going down from `best` through a child holding `cover` of its
 * parent's value, the first element whose children of one kind (kindOf), at least MIN_INNER of them with
 * text, each holding blocks of its own (a post, not a paragraph of a story and its comments) and most not
 * opening with a heading (mostlySections), hold `cover` of its value. Those children,
 * or null when there is no such element within `levels` levels. main-block.ts then keeps the thread whole
 * rather than its best stretch.
 */
export function recordsInside(p: RecordPass, best: number, levels: number, cover: number): number[] | null {
  const { tree, positive, skip, sub, body } = p;
  for (let at = best, k = 0; k <= levels && positive[at]! > 0; k++) {
    const kids = tree.elementChildren(at).filter((c) => skip[c] !== 1);
    const groups = new Map<string, number[]>();
    for (const c of kids) {
      const kind = kindOf(tree, c);
      if (kind === '' || sub[c - body]! === 0) continue;
      const g = groups.get(kind);
      if (g) g.push(c);
      else groups.set(kind, [c]);
    }
    for (const g of groups.values()) {
      let held = 0;
      for (const c of g) held += positive[c]!;
      if (g.length >= MIN_INNER && held >= cover * positive[at]! && g.every((r) => blocksIn(tree, r) >= 2) && !mostlySections(p, g)) return g;
    }
    const next = kids.find((c) => positive[c]! >= cover * positive[at]!);
    if (next === undefined) return null;
    at = next;
  }
  return null;
}

/**
 * The records of the main block `best` (module comment), in document order, or null when it is not one
 * of a run of records. `levels`: how far above `best` a run is looked for; `minShare`: the least a record
 * is worth against `best`; `cover`: way 2.
 */
export function findRecords(p: RecordPass, best: number, levels: number, minShare: number, cover: number): number[] | null {
  const { tree, body } = p;
  for (let a = best, k = 0; a > body && k <= levels; a = tree.parent[a]!, k++) {
    if (tree.parent[a]! < body) break;
    const run = siblingRun(p, a, best, minShare);
    if (run) return run;
  }
  return sameKindElsewhere(p, best, minShare, cover);
}
