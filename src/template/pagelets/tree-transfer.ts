/**
 * Moving a Tree between threads: its typed arrays are transferred (no copy), its strings cloned. Used by
 * the worker pool (workers.ts) for the marking pass, where the main thread needs the page's Tree.
 */
import { tagId, tagName, Tree } from '../../html/tree.ts';

/**
 * The plain parts of a Tree (what `new Tree(parts)` takes), plus the tag names of the ids used: tag ids
 * are interned per thread (tree.ts), so the receiving thread maps them onto its own ids. Element labels
 * stay those of the sending thread's label table (the pagelets engine does not use labels).
 */
export type TreeParts = ConstructorParameters<typeof Tree>[0] & { tagNames: Array<[number, string]> };

/** The parts of a tree, and the buffers to transfer. */
export function treeParts(tree: Tree): { parts: TreeParts; transfer: ArrayBuffer[] } {
  const used = new Set<number>();
  for (let i = 0; i < tree.size; i++) used.add(tree.name[i]!);
  const parts: TreeParts = {
    tagNames: Array.from(used, (id) => [id, tagName(id)] as [number, string]),
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
    attrNames: tree.attrNames,
    attrValues: tree.attrValues,
    text: tree.text,
  };
  const transfer = [tree.kind, tree.name, tree.label, tree.parent, tree.end, tree.depth, tree.textStart, tree.textEnd, tree.attrStart]
    .map((a) => a.buffer as ArrayBuffer)
    .filter((b, i, all) => all.indexOf(b) === i);
  return { parts, transfer };
}

/** Rebuilds a Tree from parts received from another thread, its tag ids mapped to this thread's. */
export function treeFromParts(parts: TreeParts): Tree {
  let max = 0;
  for (const [id] of parts.tagNames) max = Math.max(max, id);
  const map = new Uint16Array(max + 1);
  for (const [id, name] of parts.tagNames) map[id] = id === 0 ? 0 : tagId(name);
  const name = parts.name;
  for (let i = 0; i < name.length; i++) name[i] = map[name[i]!]!;
  const { tagNames: _names, ...rest } = parts;
  return new Tree(rest);
}
