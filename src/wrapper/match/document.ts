/**
 * The document view (this project's extension of paper 5, the coarsest of the three views adapt.ts
 * tries): a subtree read as one leaf, the multiset of its words. It is for a document that moved to
 * another page of its site and was rebuilt there (a new site builder, the text revised), so that neither
 * element labels nor text blocks survive: the old and new blocks share no paragraph above
 * BLOCK_SIM_FLOOR, and the old whole text can be as close to another site's document of the same genre as
 * to its own new version (docs/wrapper.md, "Thresholds of the content and document views").
 *
 * On this view, Algorithm 1 (clustered tree matching) compares two roots with one leaf child each, so its
 * value is the leaves' string similarity (Section 4: "for leaf nodes ... string similarity"): the Dice
 * coefficient of the word multisets, which is the corpus's word F1. The text alone cannot tell a document
 * from another of its genre (the case above), so the view only answers when two more facts hold, both
 * of which describe *which document* it is:
 *  - same site: the page is on the registrable domain the wrapper was built on (adapt.ts gets this from
 *    run.ts; a page whose address is unknown is not on the site);
 *  - same title: one of the first TITLE_HEADINGS headings (h1–h6) of the candidate has the words of the
 *    tree-gram's title (its first heading) with a Dice of at least TITLE_MIN_DICE.
 * Then the candidate (an element of the scope) with the highest similarity at or above the threshold is
 * the document; among equals, the innermost (an element wrapping the document adds nothing to it). Candidates are bounded by their word counts (Dice ≤ 2·min(n, G)/(n + G)) and visited by
 * decreasing bound, so only elements whose size is near the document's are counted exactly; each count
 * is a pass over the element's word ids against the tree-gram's counts (typed arrays, no table). The words
 * are the content view's page blocks (blocks.ts), built once per adaptation for both views.
 */
import { NodeKind, type Tree } from '../../html/tree.ts';
import { isNonText } from '../../html/text.ts';
import { TITLE_HEADINGS, TITLE_MIN_DICE } from '../defaults.ts';
import { keptNode } from './labelled-tree.ts';
import { textWords } from './string.ts';
import { lowerBoundInt, type Block } from './blocks.ts';

const HEADING = /^h[1-6]$/;

/** The words of a tree-gram instance's title: its first heading with words (null when it has none). */
export function gramTitle(inst: { tags: readonly string[]; parents: readonly number[]; texts: Readonly<Record<string, string>>; title?: string | undefined }): string[] | null {
  if (inst.title !== undefined) return inst.title === '' ? null : textWords(inst.title);
  const { tags, parents, texts } = inst;
  for (let k = 0; k < tags.length; k++) {
    if (!HEADING.test(tags[k]!)) continue;
    const ws: string[] = [];
    // Descendants of k follow it in preorder: a node is inside while its parent chain reaches k.
    const inside = new Set<number>([k]);
    for (let j = k + 1; j < tags.length && inside.has(parents[j]!); j++) {
      inside.add(j);
      if (tags[j] === '#text') ws.push(...textWords(texts[j] ?? ''));
    }
    if (ws.length > 0) return ws;
  }
  return null;
}

/** The text of the first heading with words inside the page subtree at `node` ('' when none). */
export function headingTitle(tree: Tree, node: number): string {
  return headings(tree, node, 1)[0] ?? '';
}

/** The texts of the first `max` headings with words inside the page subtree at `node`. */
function headings(tree: Tree, node: number, max: number): string[] {
  const out: string[] = [];
  for (let i = node, e = tree.end[node]!; i < e && out.length < max; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    if (i !== node && isNonText(tree, i)) {
      i = tree.end[i]! - 1;
      continue;
    }
    if (!HEADING.test(tree.tag(i))) continue;
    let s = '';
    for (let j = i + 1, f = tree.end[i]!; j < f; j++) if (tree.kind[j] === NodeKind.Text) s += tree.nodeText(j) + ' ';
    if (textWords(s).length > 0) out.push(s.replace(/\s+/g, ' ').trim());
    i = tree.end[i]! - 1;
  }
  return out;
}

/** Dice coefficient of two word sets. */
function setDice(a: readonly string[], b: readonly string[]): number {
  const x = new Set(a);
  const y = new Set(b);
  if (x.size + y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}

/** True when one of the first TITLE_HEADINGS headings under `node` carries the title's words. */
export function titleMatches(tree: Tree, node: number, title: readonly string[]): boolean {
  for (const h of headings(tree, node, TITLE_HEADINGS)) if (setDice(textWords(h), title) >= TITLE_MIN_DICE) return true;
  return false;
}

/** What the document-view search found. */
export interface DocumentFound {
  node: number;
  sim: number;
}

/**
 * The document-view search over the scope `root`, on the content view's page blocks (`blocks`, in preorder
 * of their elements `blockNode`; an element's words are those of the blocks inside it, so every text of the
 * scope is counted once): `gramWords` are the tree-gram instance's word ids, `title` its title's words,
 * `vocabulary` the number of word ids in use. Returns the best element at or above `threshold` whose
 * headings carry the title, and the best similarity seen (with or without the title).
 */
export function searchDocument(
  tree: Tree,
  root: number,
  blocks: readonly Block[],
  blockNode: Int32Array,
  gramWords: Int32Array,
  title: readonly string[],
  vocabulary: number,
  threshold: number,
  accept: ((node: number) => boolean) | undefined,
  exclude: ReadonlySet<number> | undefined,
): { found: DocumentFound | null; bestSim: number; compared: number; pruned: number } {
  const N = blocks.length;
  // The blocks' words end to end, and per block where its words start.
  const start = new Int32Array(N + 1);
  for (let j = 0; j < N; j++) start[j + 1] = start[j]! + blocks[j]!.words.length;
  const words = new Int32Array(start[N]!);
  for (let j = 0; j < N; j++) words.set(blocks[j]!.words, start[j]!);
  const gramCount = new Int32Array(vocabulary);
  for (const w of gramWords) gramCount[w]!++;
  const G = gramWords.length;
  // Candidates with their Dice bound from the word counts alone.
  const cands: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const bounds: number[] = [];
  let pruned = 0;
  for (let i = root, last = tree.end[root]!; i < last; i++) {
    if (tree.kind[i] !== NodeKind.Element || !keptNode(tree, i) || exclude?.has(i)) continue;
    const a = start[lowerBoundInt(blockNode, 0, N, i)]!;
    const b = start[lowerBoundInt(blockNode, 0, N, tree.end[i]!)]!;
    if (b === a) continue;
    const bound = (2 * Math.min(b - a, G)) / (b - a + G);
    if (bound < threshold) {
      pruned++;
      continue;
    }
    cands.push(i);
    from.push(a);
    to.push(b);
    bounds.push(bound);
  }
  const order = cands.map((_, k) => k).sort((x, y) => bounds[y]! - bounds[x]! || cands[x]! - cands[y]!);
  const used = new Int32Array(vocabulary);
  let best: DocumentFound | null = null;
  let bestSim = 0;
  let compared = 0;
  for (const k of order) {
    // Strictly below: an element whose bound equals the best may be the best's descendant with the same
    // words (a wrapper element around the document), which is preferred below.
    if (best && bounds[k]! < best.sim) {
      pruned++;
      continue;
    }
    const a = from[k]!;
    const b = to[k]!;
    let common = 0;
    for (let p = a; p < b; p++) {
      const w = words[p]!;
      if (used[w]! < gramCount[w]!) {
        used[w]!++;
        common++;
      }
    }
    for (let p = a; p < b; p++) used[words[p]!] = 0;
    compared++;
    const sim = (2 * common) / (b - a + G);
    if (sim > bestSim) bestSim = sim;
    const i = cands[k]!;
    // Equal similarity: the innermost element wins (the same words with fewer wrappers around them).
    if (sim < threshold || (best && (sim < best.sim || (sim === best.sim && !tree.contains(best.node, i))))) continue;
    if (!titleMatches(tree, i, title)) continue;
    if (accept && !accept(i)) continue;
    best = { node: i, sim };
  }
  return { found: best, bestSim, compared, pruned };
}
