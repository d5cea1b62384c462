/**
 * Page partitioning into pagelets: paper 3, section 3.1, Definition 2 (syntactic pagelet) and Figure 3.
 *
 * Definition 2: an HTML element is a pagelet if (1) none of its children contains at least k hyperlinks
 * and (2) none of its ancestors is a pagelet. Figure 3 walks the tree from the root with a queue: a node
 * that has a child holding at least k links is split (its children are queued), any other node is declared
 * a pagelet. The result is a flat partition of the page.
 *
 * Choices where the paper is silent:
 *  - The walk starts at `<body>` (the document when there is none): the head is never shown, and the
 *    output contract scores body text only.
 *  - A hyperlink is an `<a>` or `<area>` element with an `href` attribute (what a browser follows).
 *  - Children of a split node that are whitespace-only text or comments are not pagelets (they carry no
 *    content); non-blank text children are, as in Figure 3 which queues "all the children".
 *  - We walk depth-first with an explicit stack, so pagelets come out in document order; Figure 3's queue
 *    order does not change which nodes are pagelets.
 *  - Landmarks (`landmarks`, our extension, on by default): HTML names what surrounds a page's content
 *    (`<nav>`, `<header>`, `<footer>`, `<aside>`, ARIA roles navigation, banner, contentinfo,
 *    complementary). An element with a child that is or holds a landmark is split too, whatever its
 *    links: on a short page an `<article>` holding a breadcrumb `<nav>` (2 links), a heading and an
 *    "Edit this page" `<footer>` (1 link) has no child with k links, so Definition 2 makes it one pagelet
 *    whose text changes on every page; split at its landmarks, the breadcrumb and the footer repeat across
 *    pages like the rest of the template (navigation.ts) and the heading alone stays content.
 *  - Menu branches (with landmarks): inside a landmark, a list (`<ul>`, `<ol>`) inside a list item is a
 *    boundary too. A collapsible sidebar menu shows the branch of the current page's section open and the
 *    others closed; by links alone (Definition 2) the branch is split off only when it holds k links, so
 *    the menu of a section whose branch is short, or of any section with a larger k, is one pagelet whose
 *    shape depends on which branch is open, seen on that section's pages only. Split at its branches, the
 *    menu's items have the same shape on every page and each open branch is a pagelet of its own that
 *    repeats across its section's pages. Lists inside items outside landmarks (an API reference's member
 *    summaries, an article's nested lists) are content and stay whole.
 */
import { lazyTagSet, NodeKind, tagId, type Tree } from '../../html/tree.ts';

const A = tagId('a');
const AREA = tagId('area');
const sectioning = lazyTagSet(['nav', 'header', 'footer', 'aside']);
const LANDMARK_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);

/** What the pagelet steps ask of an element's attributes (`tagFacts`), as bits. */
export const HAS_HREF = 1;
export const ROLE_MAIN = 2;
export const ROLE_LANDMARK = 4;
/** Set on every computed entry (0: not computed). */
const KNOWN = 8;
/**
 * Facts by start tag (tree.ts `tagSource`: one integer, one tag text, the same attributes) under
 * `factsOwner`, so that the attributes of a tag met before are not read again.
 */
let facts = new Uint8Array(0);
let factsOwner: object | undefined;

/** Whether element i has an `href`, and whether its ARIA role is `main` or a landmark role (bits above). */
export function tagFacts(tree: Tree, i: number): number {
  const src = tree.tagSource !== undefined ? tree.tagSource[i]! : -1;
  if (src >= 0 && tree.tagSourceOwner === factsOwner && src < facts.length && facts[src] !== 0) return facts[src]!;
  let f = KNOWN;
  let role = false;
  for (let a = tree.attrStart[i]!, e = tree.attrStart[i + 1]!; a < e; a++) {
    const n = tree.attrNames[a]!;
    if (n === 'href') f |= HAS_HREF;
    else if (n === 'role' && !role) {
      // the first role attribute counts (what Tree.attr answers)
      role = true;
      const v = tree.attrValues[a]!;
      if (v === 'main') f |= ROLE_MAIN;
      else if (LANDMARK_ROLES.has(v)) f |= ROLE_LANDMARK;
    }
  }
  if (src >= 0) {
    if (tree.tagSourceOwner !== factsOwner) {
      factsOwner = tree.tagSourceOwner;
      facts.fill(0);
    }
    if (src >= facts.length) {
      const g = new Uint8Array(Math.max(src + 1, facts.length * 2, 1024));
      g.set(facts);
      facts = g;
    }
    facts[src] = f;
  }
  return f;
}

/**
 * True when node i is one of HTML's landmarks of what surrounds content: `<nav>`, `<header>`, `<footer>`,
 * `<aside>`, or an element whose ARIA role is navigation, banner, contentinfo or complementary.
 */
export function isLandmark(tree: Tree, i: number): boolean {
  if (tree.kind[i] !== NodeKind.Element) return false;
  const t = sectioning();
  const nm = tree.name[i]!;
  if (nm < t.length && t[nm] === 1) return true;
  return (tagFacts(tree, i) & ROLE_LANDMARK) !== 0;
}

const LI = tagId('li');
const UL = tagId('ul');
const OL = tagId('ol');

/**
 * Per node: 1 when its subtree (itself included) holds a boundary: a landmark (`isLandmark`), or a menu's
 * branch, a list (`<ul>`, `<ol>`) inside a list item inside a landmark (the open section of a collapsible
 * menu: see the module comment).
 */
export function landmarkMask(tree: Tree): Uint8Array {
  const n = tree.size;
  const mask = new Uint8Array(n);
  // Forward: 1 inside a landmark, 2 inside a list item inside a landmark.
  const state = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i]!;
    const up = p >= 0 ? state[p]! : 0;
    if (tree.kind[i] !== NodeKind.Element) continue;
    if (up === 2 && (tree.name[i] === UL || tree.name[i] === OL)) mask[i] = 1;
    if (isLandmark(tree, i)) mask[i] = 1;
    state[i] = up === 0 ? (mask[i] === 1 ? 1 : 0) : up === 1 && tree.name[i] === LI ? 2 : up;
  }
  for (let i = n - 1; i >= 0; i--) {
    const p = tree.parent[i]!;
    if (p >= 0 && mask[i] === 1) mask[p] = 1;
  }
  return mask;
}

/** True when node i is a hyperlink (`<a href>` or `<area href>`). */
export function isLink(tree: Tree, i: number): boolean {
  const n = tree.name[i];
  if (tree.kind[i] !== NodeKind.Element || (n !== A && n !== AREA)) return false;
  return (tagFacts(tree, i) & HAS_HREF) !== 0;
}

/**
 * Number of hyperlinks in each node's subtree (the node itself included), one pass from the last node
 * back: a subtree is a contiguous range and each node adds its count to its parent.
 */
export function linkCounts(tree: Tree): Int32Array {
  const n = tree.size;
  const count = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (isLink(tree, i)) count[i]! += 1;
    const p = tree.parent[i]!;
    if (p >= 0) count[p]! += count[i]!;
  }
  return count;
}

/** Options of `partition`. */
export interface PartitionOptions {
  /** k of Definition 2 (default 3, the paper's). */
  k?: number;
  /** Node to start from (default: the body). */
  root?: number;
  /** Link counts from `linkCounts`, when the caller already has them. */
  counts?: Int32Array;
  /**
   * Landmarks are pagelet boundaries too (default false): an element with a child that is or holds a
   * landmark (`isLandmark`) is split, whatever its links, so a breadcrumb `<nav>` or an article's
   * `<footer>` is a pagelet of its own.
   */
  landmarks?: boolean;
}

/**
 * The pagelets of a page (Figure 3): node indexes in document order. Every non-blank node of the root's
 * subtree lies inside exactly one pagelet or is an ancestor of pagelets (a split node).
 */
export function partition(tree: Tree, options: PartitionOptions = {}): Int32Array {
  const k = options.k ?? 3;
  const root = options.root ?? tree.body();
  const count = options.counts ?? linkCounts(tree);
  const landmark = options.landmarks === true ? landmarkMask(tree) : null;
  const out: number[] = [];
  const stack: number[] = [root];
  const kids: number[] = [];
  while (stack.length > 0) {
    const v = stack.pop()!;
    let split = false;
    for (let c = v + 1, e = tree.end[v]!; c < e; c = tree.end[c]!) {
      if (count[c]! >= k || (landmark !== null && landmark[c] === 1)) {
        split = true;
        break;
      }
    }
    if (!split) {
      out.push(v);
      continue;
    }
    kids.length = 0;
    for (let c = v + 1, e = tree.end[v]!; c < e; c = tree.end[c]!) {
      const kind = tree.kind[c];
      if (kind === NodeKind.Blank || kind === NodeKind.Comment) continue;
      kids.push(c);
    }
    for (let j = kids.length - 1; j >= 0; j--) stack.push(kids[j]!);
  }
  return Int32Array.from(out);
}

/**
 * For every node, the index (into `pagelets`) of the pagelet that holds it, or -1 for split nodes and
 * nodes outside the root. Used to attribute links to pagelets.
 */
export function pageletOf(tree: Tree, pagelets: Int32Array): Int32Array {
  const owner = new Int32Array(tree.size).fill(-1);
  for (let p = 0; p < pagelets.length; p++) {
    const v = pagelets[p]!;
    owner.fill(p, v, tree.end[v]!);
  }
  return owner;
}
