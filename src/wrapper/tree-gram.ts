/**
 * Tree-grams (paper 5, Section 1 and Section 4): the snapshot a wrapper stores at design time of the DOM
 * subtrees a pattern matched, so that adaptation can look for the most similar subtrees on a changed page.
 * A tree-gram keeps, per instance (up to GRAM_INSTANCES):
 *  - the subtree in preorder: tag, id, class and (for text leaves) the first GRAM_TEXT_CHARS characters,
 *    and the parent of each node; deeper levels are cut first beyond MAX_GRAM_NODES nodes;
 *  - the context: its ancestors nearest first (tag, id, class), GRAM_CONTEXT_DEPTH of them;
 *  - the instance's text, cut at GRAM_SUMMARY_CHARS (string similarity of leaves and evidence).
 *  - the content view: the instance's text blocks (match/blocks.ts), when there are at most
 *    GRAM_CONTENT_BLOCKS of them and GRAM_CONTENT_CHARS characters.
 *  - its title, the text of its first heading (the document view, match/document.ts).
 * Labels are not stored: they depend on the label flags in force when adapting (LabelSpace).
 */
import { NodeKind, type Tree } from '../html/tree.ts';
import { textOf } from '../html/text.ts';
import { GRAM_CONTENT_BLOCKS, GRAM_CONTENT_CHARS, GRAM_CONTEXT_DEPTH, GRAM_SUMMARY_CHARS, GRAM_TEXT_CHARS, MAX_GRAM_NODES } from './defaults.ts';
import { blockTexts } from './match/blocks.ts';
import { headingTitle } from './match/document.ts';
import { fromParents, fromTree, LabelSpace, type LabelledTree } from './match/labelled-tree.ts';

/** One ancestor step of the context. */
export interface ContextStep {
  tag: string;
  id?: string | undefined;
  class?: string | undefined;
}

/** One stored instance (see the module comment). */
export interface GramInstance {
  /** Per node: the tag name, or '#text' for a text leaf. */
  tags: string[];
  /** Per node: parent index (-1 for the root). */
  parents: number[];
  /** Sparse: node index → id / class / text. */
  ids: Record<string, string>;
  classes: Record<string, string>;
  texts: Record<string, string>;
  context: ContextStep[];
  /** Text of the instance, cut at GRAM_SUMMARY_CHARS characters. */
  text: string;
  /** When deeper levels were cut (MAX_GRAM_NODES): the deepest relative depth kept. */
  cut?: number | undefined;
  /**
   * The content view (match/blocks.ts): the instance's text blocks in order, complete whatever the node
   * cut; absent when the text is longer than GRAM_CONTENT_CHARS (no content view for that instance).
   */
  blocks?: string[] | undefined;
  /** The text of the instance's first heading, when it has one: the document view's title. */
  title?: string | undefined;
}

/** The tree-gram of a pattern. */
export interface TreeGram {
  instances: GramInstance[];
}

/** Snapshot of the page subtree at `node` (an element or a text node). */
export function snapshot(tree: Tree, node: number, maxNodes = MAX_GRAM_NODES): GramInstance {
  // Labels with every flag on give the preorder and parents; the strings are read back from the page.
  const lt = fromTree(tree, node, new LabelSpace({ tag: true, id: false, class: false }), maxNodes);
  const inst: GramInstance = { tags: [], parents: Array.from(lt.parent), ids: {}, classes: {}, texts: {}, context: contextOf(tree, node), text: '' };
  if (lt.cut >= 0) inst.cut = lt.cut;
  for (let k = 0; k < lt.size; k++) {
    const i = lt.node[k]!;
    if (tree.kind[i] === NodeKind.Text) {
      inst.tags.push('#text');
      inst.texts[k] = tree.nodeText(i).replace(/\s+/g, ' ').trim().slice(0, GRAM_TEXT_CHARS);
      continue;
    }
    inst.tags.push(tree.tag(i));
    const id = tree.attr(i, 'id');
    if (id) inst.ids[k] = id;
    const cls = tree.attr(i, 'class');
    if (cls && cls.trim()) inst.classes[k] = cls.trim();
  }
  inst.text = instanceText(tree, node).slice(0, GRAM_SUMMARY_CHARS);
  if (tree.kind[node] === NodeKind.Element) {
    const { texts } = blockTexts(tree, node);
    const blocks = texts.filter((t) => t !== '');
    if (blocks.length <= GRAM_CONTENT_BLOCKS && blocks.reduce((s, t) => s + t.length, 0) <= GRAM_CONTENT_CHARS) inst.blocks = blocks;
    const title = headingTitle(tree, node);
    if (title !== '') inst.title = title;
  }
  return inst;
}

/** The text a node stands for (a text node's data, an element's block text). */
export function instanceText(tree: Tree, node: number): string {
  return tree.kind[node] === NodeKind.Text ? tree.nodeText(node).replace(/\s+/g, ' ').trim() : textOf(tree, node);
}

/** The ancestors of `node`, nearest first, up to GRAM_CONTEXT_DEPTH (the document excluded). */
export function contextOf(tree: Tree, node: number): ContextStep[] {
  const out: ContextStep[] = [];
  for (let p = tree.parent[node]!; p > 0 && out.length < GRAM_CONTEXT_DEPTH; p = tree.parent[p]!) {
    const step: ContextStep = { tag: tree.tag(p) };
    const id = tree.attr(p, 'id');
    if (id) step.id = id;
    const cls = tree.attr(p, 'class');
    if (cls && cls.trim()) step.class = cls.trim();
    out.push(step);
  }
  return out;
}

/** The LabelledTree of a stored instance under `space`'s flags. */
export function gramTree(inst: GramInstance, space: LabelSpace): LabelledTree {
  const labels = inst.tags.map((t, k) => (t === '#text' ? space.text() : space.element(t, inst.ids[k], inst.classes[k])));
  return fromParents(labels, inst.parents, inst.cut ?? -1);
}

/** A tree-gram of the given page nodes (the first GRAM_INSTANCES of them). */
export function makeTreeGram(tree: Tree, nodes: readonly number[], instances: number): TreeGram {
  return { instances: nodes.slice(0, instances).map((n) => snapshot(tree, n)) };
}
