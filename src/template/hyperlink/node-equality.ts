/**
 * The node equality ≜ of paper 2 (Alarte et al., "Web Template Extraction Based on Hyperlink Analysis"),
 * Definition 3.2 and section 4.2. The paper leaves ≜ : N × N' → [0..1] open and describes its own as "a
 * ponderation that compares two nodes considering their classname, their number of children, their
 * relative position in the DOM tree, and their HTML attributes". Ours, for two nodes a (tree 1) and b
 * (tree 2):
 *  - different node kinds (element / text): 0;
 *  - elements with different tag names: 0 (the ETDM "can force all pairwise mapped nodes to have the same
 *    label", section 3);
 *  - the document skeleton, `<html>`, `<head>`, `<body>` (one each per document in HTML): 1 whatever their
 *    attributes (`documentSkeleton`, default on). The paper's ETDM starts at the root and only descends
 *    through equal pairs, so a page-type class on `<body>` (WordPress `<body class="single post-123">`)
 *    would otherwise leave the template empty; these elements correspond by the document's structure;
 *  - top wrappers (`topWrapperDepth` levels below `<body>`, default 2): an element that is the only one
 *    of its tag among the children of a body or top wrapper, on both pages, is compared without its class
 *    names (the weighted sum of the other three terms, renormalised): page-type classes sit there too
 *    (`<div id="page" class="layout-single">`), while attributes, children and position still count;
 *  - elements otherwise: wClass·J(classes) + wAttr·A + wChildren·C + wPosition·P, where J is the Jaccard
 *    similarity of the class token sets, A is 1 when the other attributes (minus `ignoreAttributes`, see
 *    defaults.ts) are equal name for name and value for value, 0.5 when only their names are, else 0;
 *    C = min(children)/max(children) over non-blank children; P = 1 − |relative position among non-blank
 *    siblings| difference;
 *  - text nodes: 1 when their text (white space collapsed) is the same, else 0 (`text: 'exact'`); with
 *    `text: 'kind'` any two text nodes are equal (structure only; then every text in a mapped region is
 *    template, which the paper's Figure 1 does but content extraction cannot afford).
 * Two nodes are *equal* (may be paired in an ETDM) when ≜ >= `threshold`.
 *
 * Everything the comparison needs is computed once per tree into typed arrays (`NodeFeatures`): hashes of
 * class tokens, of the attribute set, of the text; child counts and positions. The hot comparison reads
 * integers only.
 */
import { NodeKind, tagId, type Tree } from '../../html/tree.ts';
import { HYPERLINK_DEFAULTS } from './defaults.ts';

/** Options of ≜ (all optional; defaults.ts gives the values and why). */
export interface NodeEqualityOptions {
  weightClass?: number;
  weightAttributes?: number;
  weightChildren?: number;
  weightPosition?: number;
  /** Minimum ≜ for two nodes to be equal. */
  threshold?: number;
  /** Attributes left out of the attribute comparison. */
  ignoreAttributes?: readonly string[];
  /** How text nodes compare: 'exact' (same text) or 'kind' (any two texts). Default 'exact'. */
  text?: 'exact' | 'kind';
  /** `<html>`, `<head>`, `<body>` are equal whenever their tags are (see the file comment). */
  documentSkeleton?: boolean;
  /** Levels below `<body>` where a tag-unique wrapper is compared without its classes; 0: none. */
  topWrapperDepth?: number;
}

/** A fully resolved ≜ configuration. */
export interface NodeEquality {
  readonly weightClass: number;
  readonly weightAttributes: number;
  readonly weightChildren: number;
  readonly weightPosition: number;
  readonly threshold: number;
  readonly ignoreAttributes: ReadonlySet<string>;
  readonly text: 'exact' | 'kind';
  readonly documentSkeleton: boolean;
  readonly topWrapperDepth: number;
}

/** Resolves options against the defaults; weights are normalised to sum to 1. */
export function nodeEquality(options: NodeEqualityOptions = {}): NodeEquality {
  const d = HYPERLINK_DEFAULTS;
  let wc = options.weightClass ?? d.weightClass;
  let wa = options.weightAttributes ?? d.weightAttributes;
  let wn = options.weightChildren ?? d.weightChildren;
  let wp = options.weightPosition ?? d.weightPosition;
  for (const w of [wc, wa, wn, wp]) if (!(w >= 0) || !Number.isFinite(w)) throw new RangeError(`node equality weights must be finite and >= 0 (got ${w})`);
  const sum = wc + wa + wn + wp;
  if (sum <= 0) throw new RangeError('node equality weights must not all be 0');
  wc /= sum;
  wa /= sum;
  wn /= sum;
  wp /= sum;
  const threshold = options.threshold ?? d.threshold;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`node equality threshold must be in [0, 1] (got ${threshold})`);
  const topWrapperDepth = options.topWrapperDepth ?? d.topWrapperDepth;
  if (!Number.isInteger(topWrapperDepth) || topWrapperDepth < 0 || topWrapperDepth > 255) throw new RangeError(`top wrapper depth must be an integer in [0, 255] (got ${topWrapperDepth})`);
  return {
    weightClass: wc,
    weightAttributes: wa,
    weightChildren: wn,
    weightPosition: wp,
    threshold,
    ignoreAttributes: new Set(options.ignoreAttributes ?? d.ignoreAttributes),
    text: options.text ?? 'exact',
    documentSkeleton: options.documentSkeleton ?? d.documentSkeleton,
    topWrapperDepth,
  };
}

/**
 * Per-tree features read by ≜, one entry per node (typed arrays, computed once per page):
 * `classStart[i]..classStart[i+1]` index sorted class-token hashes in `classTokens`; `attrHash` /
 * `attrNameHash` hash the non-class, non-ignored attributes (with / without values); `textHash` and
 * `textLen` identify a text node's collapsed text; `childCount` counts non-blank, non-comment children;
 * `childIndex` is a node's index among its parent's counted children (-1 for blanks and comments);
 * `skeleton` is 1 on `<html>`, `<head>`, `<body>` (the document's own), `wrapperDepth` is d in 1..
 * `topWrapperDepth` on a top wrapper d levels below `<body>` (only one of its tag among its parent's
 * element children, its parent the body or a top wrapper), else 0.
 */
export class NodeFeatures {
  readonly tree: Tree;
  readonly classStart: Int32Array;
  readonly classTokens: Int32Array;
  readonly attrHash: Int32Array;
  readonly attrNameHash: Int32Array;
  readonly textHash: Int32Array;
  readonly textLen: Int32Array;
  readonly childCount: Int32Array;
  readonly childIndex: Int32Array;
  readonly skeleton: Uint8Array;
  readonly wrapperDepth: Uint8Array;

  constructor(tree: Tree, eq: NodeEquality) {
    this.tree = tree;
    const n = tree.size;
    this.classStart = new Int32Array(n + 1);
    this.attrHash = new Int32Array(n);
    this.attrNameHash = new Int32Array(n);
    this.textHash = new Int32Array(n);
    this.textLen = new Int32Array(n);
    this.childCount = new Int32Array(n);
    this.childIndex = new Int32Array(n).fill(-1);
    const tokens: number[] = [];
    const pairs: number[] = [];
    for (let i = 0; i < n; i++) {
      this.classStart[i] = tokens.length;
      const k = tree.kind[i]!;
      if (k === NodeKind.Element) {
        pairs.length = 0;
        let nameMix = 0;
        for (let a = tree.attrStart[i]!, e = tree.attrStart[i + 1]!; a < e; a++) {
          const name = tree.attrNames[a]!;
          if (name === 'class') {
            const start = tokens.length;
            for (const t of tree.attrValues[a]!.split(/[\s]+/)) if (t !== '') tokens.push(hashString(t, 0));
            sortAndDedupe(tokens, start);
            continue;
          }
          if (eq.ignoreAttributes.has(name)) continue;
          const hn = hashString(name, 0);
          pairs.push(hashString(tree.attrValues[a]!.trim(), hn));
          nameMix = (nameMix + hn) | 0;
        }
        let mix = 0;
        for (const p of pairs) mix = (mix + Math.imul(p, 0x9e3779b1)) | 0; // order-free
        this.attrHash[i] = mix;
        this.attrNameHash[i] = nameMix;
      } else if (k === NodeKind.Text) {
        const collapsed = tree.nodeText(i).replace(/[\s\u00a0]+/g, ' ').trim();
        this.textHash[i] = hashString(collapsed, 0);
        this.textLen[i] = collapsed.length;
      }
      const p = tree.parent[i]!;
      if (p >= 0 && (k === NodeKind.Element || k === NodeKind.Text)) this.childIndex[i] = this.childCount[p]!++;
    }
    this.classStart[n] = tokens.length;
    this.classTokens = Int32Array.from(tokens);
    this.skeleton = new Uint8Array(n);
    this.wrapperDepth = new Uint8Array(n);
    markTopLevels(tree, this.skeleton, this.wrapperDepth, eq.topWrapperDepth);
  }

  /** True when node i takes part in mappings (elements and non-blank text; not blanks, comments). */
  counted(i: number): boolean {
    return this.childIndex[i]! >= 0 || i === 0;
  }
}

const HTML = tagId('html');
const HEAD = tagId('head');
const BODY = tagId('body');

/** Fills `skeleton` and `wrapperDepth` (see NodeFeatures). Preorder: a parent is flagged before its children. */
function markTopLevels(tree: Tree, skeleton: Uint8Array, wrapperDepth: Uint8Array, maxDepth: number): void {
  const counts = new Map<number, number>();
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const nm = tree.name[i]!;
    const p = tree.parent[i]!;
    if (nm === HTML && p >= 0 && tree.kind[p] === NodeKind.Document) skeleton[i] = 1;
    else if ((nm === HEAD || nm === BODY) && p >= 0 && skeleton[p] === 1 && tree.name[p] === HTML) skeleton[i] = 1;
    const isBody = skeleton[i] === 1 && nm === BODY;
    const d = isBody ? 0 : wrapperDepth[i]!;
    if (!isBody && d === 0) continue;
    if (d >= maxDepth) continue;
    // Children of the body or of a top wrapper: the only one of their tag become top wrappers.
    counts.clear();
    for (let c = i + 1, e = tree.end[i]!; c < e; c = tree.end[c]!) {
      if (tree.kind[c] === NodeKind.Element) counts.set(tree.name[c]!, (counts.get(tree.name[c]!) ?? 0) + 1);
    }
    for (let c = i + 1, e = tree.end[i]!; c < e; c = tree.end[c]!) {
      if (tree.kind[c] === NodeKind.Element && counts.get(tree.name[c]!) === 1) wrapperDepth[c] = d + 1;
    }
  }
}

/** FNV-1a over UTF-16 code units, seeded; 32-bit. */
function hashString(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) | 0;
  for (let k = 0; k < s.length; k++) {
    h ^= s.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

function sortAndDedupe(xs: number[], start: number): void {
  const part = xs.splice(start).sort((a, b) => a - b);
  for (let k = 0; k < part.length; k++) if (k === 0 || part[k] !== part[k - 1]) xs.push(part[k]!);
}

/** Jaccard similarity of two sorted token ranges (1 when both are empty). */
function jaccard(ta: Int32Array, a0: number, a1: number, tb: Int32Array, b0: number, b1: number): number {
  const na = a1 - a0;
  const nb = b1 - b0;
  if (na === 0 && nb === 0) return 1;
  if (na === 0 || nb === 0) return 0;
  let common = 0;
  while (a0 < a1 && b0 < b1) {
    const x = ta[a0]!;
    const y = tb[b0]!;
    if (x === y) {
      common++;
      a0++;
      b0++;
    } else if (x < y) a0++;
    else b0++;
  }
  return common / (na + nb - common);
}

/** ≜(a, b) in [0, 1] for node a of `fa`'s tree and node b of `fb`'s tree (see the file comment). */
export function equality(eq: NodeEquality, fa: NodeFeatures, a: number, fb: NodeFeatures, b: number): number {
  const ta = fa.tree;
  const tb = fb.tree;
  const ka = ta.kind[a]!;
  if (ka !== tb.kind[b]!) return 0;
  if (ka === NodeKind.Text) {
    if (eq.text === 'kind') return 1;
    return fa.textHash[a] === fb.textHash[b] && fa.textLen[a] === fb.textLen[b] ? 1 : 0;
  }
  if (ka === NodeKind.Document) return 1;
  if (ka !== NodeKind.Element || ta.name[a] !== tb.name[b]) return 0;
  if (eq.documentSkeleton && fa.skeleton[a] === 1 && fb.skeleton[b] === 1) return 1;
  const cls = jaccard(fa.classTokens, fa.classStart[a]!, fa.classStart[a + 1]!, fb.classTokens, fb.classStart[b]!, fb.classStart[b + 1]!);
  const attrs = fa.attrHash[a] === fb.attrHash[b] ? 1 : fa.attrNameHash[a] === fb.attrNameHash[b] ? 0.5 : 0;
  const ca = fa.childCount[a]!;
  const cb = fb.childCount[b]!;
  const children = ca === cb ? 1 : Math.min(ca, cb) / Math.max(ca, cb);
  const pa = ta.parent[a]!;
  const pb = tb.parent[b]!;
  const ra = pa < 0 || fa.childCount[pa]! <= 1 ? 0 : fa.childIndex[a]! / (fa.childCount[pa]! - 1);
  const rb = pb < 0 || fb.childCount[pb]! <= 1 ? 0 : fb.childIndex[b]! / (fb.childCount[pb]! - 1);
  const position = 1 - Math.abs(ra - rb);
  if (fa.wrapperDepth[a]! > 0 && fb.wrapperDepth[b]! > 0) {
    const w = eq.weightAttributes + eq.weightChildren + eq.weightPosition;
    return w <= 0 ? 1 : (eq.weightAttributes * attrs + eq.weightChildren * children + eq.weightPosition * position) / w;
  }
  return eq.weightClass * cls + eq.weightAttributes * attrs + eq.weightChildren * children + eq.weightPosition * position;
}
