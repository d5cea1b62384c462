/**
 * Which namespace an element is in (HTML, SVG or MathML), from its parent's, as the WHATWG tree
 * construction decides it: `<svg>` and `<math>` open foreign content; inside it every element is foreign
 * (no raw text, no void element), except under an HTML integration point (SVG foreignObject, desc, title;
 * MathML annotation-xml with an HTML encoding) and a MathML text integration point (mi, mo, mn, ms, mtext),
 * where elements are HTML again. The Tree keeps tag names only; this is how the parsers and the serialiser
 * tell an HTML `<style>` (raw text) from an SVG one (markup).
 */
import type { Tree } from './tree.ts';

export const Namespace = { Html: 0, Svg: 1, MathMl: 2 } as const;
export type Namespace = (typeof Namespace)[keyof typeof Namespace];

const SVG_HTML_POINTS = new Set(['foreignobject', 'desc', 'title']);
const MATH_TEXT_POINTS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext']);

function asInHtml(tag: string): Namespace {
  return tag === 'svg' ? Namespace.Svg : tag === 'math' ? Namespace.MathMl : Namespace.Html;
}

/**
 * The namespace of an element named `tag` whose parent element is `parentTag` in `parent` (`encoding`:
 * the parent's encoding attribute, for annotation-xml). Tag names in any case.
 */
export function childNamespace(parent: Namespace, parentTag: string, encoding: string | undefined, tag: string): Namespace {
  const t = tag.toLowerCase();
  if (parent === Namespace.Html) return asInHtml(t);
  const p = parentTag.toLowerCase();
  if (parent === Namespace.Svg) return SVG_HTML_POINTS.has(p) ? asInHtml(t) : Namespace.Svg;
  if (MATH_TEXT_POINTS.has(p)) return t === 'mglyph' || t === 'malignmark' ? Namespace.MathMl : asInHtml(t);
  if (p === 'annotation-xml') {
    if (t === 'svg') return Namespace.Svg;
    const e = (encoding ?? '').toLowerCase();
    return e === 'text/html' || e === 'application/xhtml+xml' ? asInHtml(t) : Namespace.MathMl;
  }
  return Namespace.MathMl;
}

/** The namespace of element i of a tree (from its ancestors down). */
export function namespaceOf(tree: Tree, i: number): Namespace {
  const chain: number[] = [];
  for (let n = i; n > 0; n = tree.parent[n]!) chain.push(n);
  let ns: Namespace = Namespace.Html;
  let parent = 0;
  for (let k = chain.length - 1; k >= 0; k--) {
    const n = chain[k]!;
    ns = childNamespace(ns, parent > 0 ? tree.tag(parent) : '', parent > 0 ? tree.attr(parent, 'encoding') : undefined, tree.tag(n));
    parent = n;
  }
  return ns;
}
