/**
 * Moving a Tree between threads without cloning an object graph: its typed arrays are transferred (moved,
 * not copied), and its attribute names and values, hundreds of small strings per page, travel as one string
 * and an Int32Array of lengths, cut back into strings on arrival. Only the page text and that one string
 * are copied. Used by the worker pool (workers.ts) for the marking pass, where the main thread needs the
 * page's Tree.
 */
import { tagId, tagName, Tree } from '../../html/tree.ts';

type TreeFields = ConstructorParameters<typeof Tree>[0];

/**
 * The plain parts of a Tree, ready for `postMessage`: the typed arrays as they are, the attribute strings
 * packed, and the tag names of the ids used (tag ids are interned per thread, tree.ts, so the receiving
 * thread maps them onto its own ids). Element labels stay those of the sending thread's label table (the
 * pagelets engine does not use labels).
 */
export type TreeParts = Omit<TreeFields, 'attrNames' | 'attrValues'> & {
  tagNames: Array<[number, string]>;
  /** Every attribute name, then every attribute value, concatenated. */
  attrText: string;
  /** Length of each of those strings (names first, then values). */
  attrLengths: Int32Array;
  /** Number of attribute names (and of values). */
  attrCount: number;
};

/** Tag ids met in the tree being packed (reused; cleared after each tree). */
const seen = new Uint8Array(65536);

/** The parts of a tree, and the buffers to transfer. */
export function treeParts(tree: Tree): { parts: TreeParts; transfer: ArrayBuffer[] } {
  const tagNames: Array<[number, string]> = [];
  const name = tree.name;
  for (let i = 0; i < tree.size; i++) {
    const id = name[i]!;
    if (seen[id] === 0) {
      seen[id] = 1;
      tagNames.push([id, tagName(id)]);
    }
  }
  for (const [id] of tagNames) seen[id] = 0;
  const names = tree.attrNames;
  const values = tree.attrValues;
  const attrLengths = new Int32Array(names.length + values.length);
  for (let a = 0; a < names.length; a++) attrLengths[a] = names[a]!.length;
  for (let a = 0; a < values.length; a++) attrLengths[names.length + a] = values[a]!.length;
  const parts: TreeParts = {
    tagNames,
    doctype: tree.doctype,
    rules: tree.rules,
    size: tree.size,
    kind: tree.kind,
    name: tree.name,
    label: tree.label,
    parent: tree.parent,
    end: tree.end,
    depth: tree.depth,
    textStart: tree.textStart,
    textEnd: tree.textEnd,
    attrStart: tree.attrStart,
    attrText: names.join('') + values.join(''),
    attrLengths,
    attrCount: names.length,
    text: tree.text,
  };
  const transfer = [tree.kind, tree.name, tree.label, tree.parent, tree.end, tree.depth, tree.textStart, tree.textEnd, tree.attrStart, attrLengths]
    .map((a) => a.buffer as ArrayBuffer)
    .filter((b, i, all) => all.indexOf(b) === i);
  return { parts, transfer };
}

/** Rebuilds a Tree from parts received from another thread, its tag ids mapped to this thread's. */
export function treeFromParts(parts: TreeParts): Tree {
  let max = 0;
  for (const [id] of parts.tagNames) max = Math.max(max, id);
  const map = new Uint16Array(max + 1);
  for (const [id, n] of parts.tagNames) map[id] = id === 0 ? 0 : tagId(n);
  const name = parts.name;
  for (let i = 0; i < name.length; i++) name[i] = map[name[i]!]!;
  const { tagNames: _names, attrText, attrLengths, attrCount, ...rest } = parts;
  const attrNames: string[] = new Array<string>(attrCount);
  const attrValues: string[] = new Array<string>(attrLengths.length - attrCount);
  let at = 0;
  for (let a = 0; a < attrLengths.length; a++) {
    const e = at + attrLengths[a]!;
    if (a < attrCount) attrNames[a] = attrText.slice(at, e);
    else attrValues[a - attrCount] = attrText.slice(at, e);
    at = e;
  }
  return new Tree({ ...rest, attrNames, attrValues });
}
