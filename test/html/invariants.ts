/** Test helper: checks the structural invariants of a Tree (DESIGN.md, "The compact Tree"); throws on the first broken one. */
import { NodeKind, type Tree } from '../../src/html/tree.ts';

export function checkTree(t: Tree, where = 'tree'): void {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  if (t.size < 1 || t.kind[0] !== NodeKind.Document || t.parent[0] !== -1 || t.end[0] !== t.size || t.depth[0] !== 0) fail('bad document node');
  for (const a of [t.kind, t.name, t.label, t.parent, t.end, t.depth, t.textStart, t.textEnd]) if (a.length !== t.size) fail('array length differs from size');
  if (t.attrStart.length !== t.size + 1 || t.attrStart[t.size] !== t.attrNames.length || t.attrNames.length !== t.attrValues.length) fail('bad attribute arrays');
  for (let i = 1; i < t.size; i++) {
    const p = t.parent[i]!;
    if (p < 0 || p >= i) fail(`node ${i}: parent ${p} not before it`);
    if (t.kind[p] !== NodeKind.Element && t.kind[p] !== NodeKind.Document) fail(`node ${i}: parent ${p} is not an element`);
    if (t.end[i]! <= i || t.end[i]! > t.end[p]!) fail(`node ${i}: end ${t.end[i]} outside its parent's range`);
    if (t.depth[i] !== Math.min(65535, t.depth[p]! + 1)) fail(`node ${i}: depth ${t.depth[i]} vs parent's ${t.depth[p]}`);
    if (t.attrStart[i]! > t.attrStart[i + 1]!) fail(`node ${i}: attribute range reversed`);
    const k = t.kind[i]!;
    if (k === NodeKind.Element) {
      if (t.name[i] === 0) fail(`element ${i} has no name`);
    } else {
      if (t.end[i] !== i + 1) fail(`leaf ${i} has children`);
      if (t.attrStart[i] !== t.attrStart[i + 1]) fail(`leaf ${i} has attributes`);
      if (k === NodeKind.Text || k === NodeKind.Blank || k === NodeKind.Comment) {
        if (t.textStart[i]! < 0 || t.textStart[i]! > t.textEnd[i]! || t.textEnd[i]! > t.text.length) fail(`node ${i}: bad text range`);
        if (k !== NodeKind.Comment && t.textStart[i] === t.textEnd[i]) fail(`text node ${i} is empty`);
      } else fail(`node ${i}: unknown kind ${k}`);
    }
  }
  // Children chain: from i+1 by end[] steps, each child's parent is i, ending exactly at end[i].
  for (let i = 0; i < t.size; i++) {
    let c = i + 1;
    for (; c < t.end[i]!; c = t.end[c]!) if (t.parent[c] !== i) fail(`node ${c} in ${i}'s child chain has parent ${t.parent[c]}`);
    if (t.end[i]! > i + 1 && c !== t.end[i]) fail(`child chain of ${i} overruns its end`);
  }
}
