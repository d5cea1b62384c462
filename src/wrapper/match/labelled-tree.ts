/**
 * The trees the matching algorithms compare (paper 5, Section 3.1 "comparable elements"): the elements
 * and non-blank text nodes of a page (comments, white space, scripts and styles dropped), each with an
 * integer label chosen by the wrapper's node-label flags (Section 4: element name, id/class attributes).
 * Preorder typed arrays like the page Tree: the subtree of i is [i, end[i]), children follow i+1 by `end`.
 * A LabelledTree is built from a page subtree (`fromTree`) or from a stored tree-gram (tree-gram.ts);
 * both share one `LabelSpace` so equal labels are equal integers.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import { isNonText } from '../../html/text.ts';

/** Which parts of an element make its label (Section 4, "flags of the chosen algorithm"). */
export interface LabelFlags {
  tag: boolean;
  id: boolean;
  class: boolean;
}

/** Interns label keys for one adaptation (tree-gram and page side alike). */
export class LabelSpace {
  private readonly ids = new Map<string, number>();
  constructor(readonly flags: LabelFlags) {}
  /** The label of an element (tag name, id, class list) under the flags; text nodes use `'#text'`. */
  element(tag: string, id: string | undefined, cls: string | undefined): number {
    let key = this.flags.tag ? tag : '*';
    if (this.flags.id && id) key += '#' + id;
    if (this.flags.class && cls) key += '.' + cls.split(/\s+/).filter(Boolean).sort().join('.');
    return this.intern(key);
  }
  text(): number {
    return this.intern('#text');
  }
  intern(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return id;
  }
  get size(): number {
    return this.ids.size;
  }
}

/** A labelled preorder tree (see the module comment). */
export interface LabelledTree {
  readonly size: number;
  readonly label: Int32Array;
  readonly end: Int32Array;
  readonly parent: Int32Array;
  /** Number of children. */
  readonly degree: Int32Array;
  /** The page node each node stands for (-1 for a tree-gram). */
  readonly node: Int32Array;
  /** Depth below the root (root 0). */
  readonly depth: Int32Array;
  /** Deepest relative depth kept when deeper levels were cut (tree-grams), else -1. */
  readonly cut: number;
}

/** True for the page nodes a LabelledTree keeps. */
export function keptNode(tree: Tree, i: number): boolean {
  const k = tree.kind[i];
  return (k === NodeKind.Element && !isNonText(tree, i)) || k === NodeKind.Text || k === NodeKind.Document;
}

/**
 * The LabelledTree of the subtree of page node `root` (which must be kept). `maxNodes` cuts the deepest
 * levels first when the subtree is larger (tree-grams); default: no limit.
 */
export function fromTree(tree: Tree, root: number, space: LabelSpace, maxNodes = Infinity): LabelledTree {
  let maxDepth = Infinity;
  if (Number.isFinite(maxNodes)) {
    // Count kept nodes per relative depth and keep the deepest level that fits.
    const perDepth: number[] = [];
    walk(tree, root, Infinity, (i, d) => {
      perDepth[d] = (perDepth[d] ?? 0) + 1;
    });
    let total = 0;
    for (let d = 0; d < perDepth.length; d++) {
      total += perDepth[d] ?? 0;
      if (total > maxNodes) {
        maxDepth = Math.max(0, d - 1);
        break;
      }
    }
  }
  const nodes: number[] = [];
  const depths: number[] = [];
  walk(tree, root, maxDepth, (i, d) => {
    nodes.push(i);
    depths.push(d);
  });
  const n = nodes.length;
  const depth = Int32Array.from(depths);
  const label = new Int32Array(n);
  const end = new Int32Array(n);
  const parent = new Int32Array(n);
  const degree = new Int32Array(n);
  const node = Int32Array.from(nodes);
  const stack: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = nodes[k]!;
    const d = depths[k]!;
    while (stack.length > d) end[stack.pop()!] = k;
    parent[k] = stack.length > 0 ? stack[stack.length - 1]! : -1;
    if (parent[k]! >= 0) degree[parent[k]!]!++;
    const kind = tree.kind[i];
    label[k] = kind === NodeKind.Text ? space.text() : kind === NodeKind.Document ? space.intern('#document') : space.element(tree.tag(i), tree.attr(i, 'id'), tree.attr(i, 'class'));
    stack.push(k);
  }
  while (stack.length > 0) end[stack.pop()!] = n;
  return { size: n, label, end, parent, degree, node, depth, cut: Number.isFinite(maxDepth) ? maxDepth : -1 };
}

/**
 * Preorder walk of the kept nodes under `root` down to relative depth `maxDepth`. The root itself is
 * always visited, so that a pattern on an element that holds no page text (`title`, `meta`) has a
 * tree-gram.
 */
function walk(tree: Tree, root: number, maxDepth: number, visit: (i: number, depth: number) => void): void {
  const base = tree.depth[root]!;
  const last = tree.end[root]!;
  for (let i = root; i < last; ) {
    if (i !== root && !keptNode(tree, i)) {
      i = tree.end[i]!;
      continue;
    }
    const d = tree.depth[i]! - base;
    if (d > maxDepth) {
      i = tree.end[i]!;
      continue;
    }
    visit(i, d);
    i++;
  }
}

/**
 * Builds a LabelledTree from preorder labels and parent indices (tree-grams and hand-made test trees).
 * `parents[k] < k` for k > 0; `parents[0] = -1`.
 */
export function fromParents(labels: ArrayLike<number>, parents: ArrayLike<number>, cut = -1): LabelledTree {
  const n = labels.length;
  const label = Int32Array.from(labels as ArrayLike<number>);
  const parent = Int32Array.from(parents as ArrayLike<number>);
  const end = new Int32Array(n);
  const degree = new Int32Array(n);
  for (let k = 0; k < n; k++) end[k] = k + 1;
  for (let k = n - 1; k > 0; k--) {
    const p = parent[k]!;
    if (p < 0 || p >= k) throw new Error(`labelled tree: node ${k} has parent ${p}, expected one before it`);
    if (end[k]! > end[p]!) end[p] = end[k]!;
    degree[p]!++;
  }
  const depth = new Int32Array(n);
  for (let k = 1; k < n; k++) depth[k] = depth[parent[k]!]! + 1;
  return { size: n, label, end, parent, degree, node: new Int32Array(n).fill(-1), depth, cut };
}

/** Number of nodes of the subtree of t at k down to `cut` levels below k. */
export function restrictedSize(t: LabelledTree, k: number, cut: number): number {
  const limit = t.depth[k]! + cut;
  let n = 0;
  for (let j = k, e = t.end[k]!; j < e; j++) if (t.depth[j]! <= limit) n++;
  return n;
}

/**
 * The subtree of t at k cut `cut` levels below k, as its own LabelledTree: what a depth-cut tree-gram is
 * compared with, so that levels the tree-gram does not have do not count against the candidate.
 */
export function restrict(t: LabelledTree, k: number, cut: number): LabelledTree {
  const limit = t.depth[k]! + cut;
  const base = t.depth[k]!;
  const keep: number[] = [];
  for (let j = k, e = t.end[k]!; j < e; ) {
    if (t.depth[j]! <= limit) {
      keep.push(j);
      j++;
    } else j = t.end[j]!;
  }
  const n = keep.length;
  const index = new Map<number, number>();
  const label = new Int32Array(n);
  const parent = new Int32Array(n);
  const node = new Int32Array(n);
  const depth = new Int32Array(n);
  for (let q = 0; q < n; q++) {
    const j = keep[q]!;
    index.set(j, q);
    label[q] = t.label[j]!;
    parent[q] = q === 0 ? -1 : index.get(t.parent[j]!)!;
    node[q] = t.node[j]!;
    depth[q] = t.depth[j]! - base;
  }
  const end = new Int32Array(n);
  const degree = new Int32Array(n);
  for (let q = 0; q < n; q++) end[q] = q + 1;
  for (let q = n - 1; q > 0; q--) {
    const p = parent[q]!;
    if (end[q]! > end[p]!) end[p] = end[q]!;
    degree[p]!++;
  }
  return { size: n, label, end, parent, degree, node, depth, cut: -1 };
}
