/**
 * XPath 1.0 on a Tree. The evaluation is the npm `xpath` package (a complete XPath 1.0 engine: every axis,
 * predicate and core function); it reaches the document only through the small DOM Level 2 surface it
 * reads (nodeType, parentNode, firstChild, nextSibling, attributes, compareDocumentPosition…), which a
 * light facade here provides over the Tree's arrays (STYLE.md 2: a narrow interface at the seam). Facade
 * objects are made on first visit and kept per tree (a WeakMap), so node identity holds within a tree.
 *
 * HTML rules: name tests are case-insensitive and unprefixed names match elements of any namespace (the
 * engine's `isHtml` mode). Results are node indices in document order, without duplicates; an expression
 * that ends on attributes (`//a/@href`) returns the elements that own them. An expression whose value is
 * not a node-set (`count(//p)`) is an error here (use `evaluateXPathValue` for those).
 */
import { createRequire } from 'node:module';
import { NodeKind, type Tree } from './tree.ts';
import { prevSiblings } from './select.ts';

/** The part of the `xpath` package we use (its own typings pull the DOM lib into the whole program). */
interface XPathEngine {
  parse(expr: string): ParsedXPath;
  XNodeSet: abstract new () => XValue;
  XNumber: abstract new () => XValue;
  XBoolean: abstract new () => XValue;
}
interface XValue {
  nodeset(): { toArray(): unknown[] };
  stringValue(): string;
  numberValue(): number;
  booleanValue(): boolean;
}
interface ParsedXPath {
  evaluate(options: { node: unknown; isHtml: boolean }): XValue;
}
const xpathEngine = createRequire(import.meta.url)('xpath') as XPathEngine;

/**
 * The engine's node sets check each added node against every node already in the set (a linear scan), so
 * `//a` on a page of 100,000 links took 11 s, growing with the square of the result. The same check with a
 * Set per node set: `nodes` is only ever changed by the constructor and `add` in the engine (0.0.34).
 */
interface NodeSetInternals {
  nodes: unknown[];
  size: number;
  tree: unknown;
  seenNodes?: Set<unknown>;
  /** The `nodes` array `seenNodes` was built for (the engine's `init` may replace it). */
  seenOf?: unknown[];
}
(xpathEngine.XNodeSet.prototype as unknown as { add(this: NodeSetInternals, n: unknown): void }).add = function add(this: NodeSetInternals, n: unknown): void {
  if (this.seenOf !== this.nodes || this.seenNodes === undefined) {
    this.seenNodes = new Set(this.nodes);
    this.seenOf = this.nodes;
  }
  const seen = this.seenNodes;
  if (seen.has(n)) return;
  seen.add(n);
  this.tree = null;
  this.nodes.push(n);
  this.size += 1;
};

const DOM_ELEMENT = 1;
const DOM_ATTRIBUTE = 2;
const DOM_TEXT = 3;
const DOM_COMMENT = 8;
const DOM_DOCUMENT = 9;
const FOLLOWING = 4;
const PRECEDING = 2;

/** Facade objects of one tree. */
class Facade {
  private readonly nodes: Array<XNode | undefined>;
  private prev: Int32Array | null = null;
  constructor(readonly tree: Tree) {
    this.nodes = new Array<XNode | undefined>(tree.size);
  }
  node(i: number): XNode {
    return (this.nodes[i] ??= new XNode(this, i));
  }
  orNull(i: number): XNode | null {
    return i < 0 ? null : this.node(i);
  }
  prevSibling(i: number): number {
    return (this.prev ??= prevSiblings(this.tree))[i]!;
  }
}

const facades = new WeakMap<Tree, Facade>();
function facadeOf(tree: Tree): Facade {
  let f = facades.get(tree);
  if (!f) facades.set(tree, (f = new Facade(tree)));
  return f;
}

/** Document-order key of a node or attribute facade: [element index, attribute rank (0 for the node)]. */
function orderOf(n: XNode | XAttr): [number, number] {
  return n instanceof XAttr ? [n.owner.i, n.rank + 1] : [n.i, 0];
}
function compare(a: XNode | XAttr, b: unknown): number {
  if (!(b instanceof XNode || b instanceof XAttr)) return 1; // not in the same document
  const [x, y] = orderOf(a);
  const [u, v] = orderOf(b);
  return u < x || (u === x && v < y) ? PRECEDING : FOLLOWING;
}

/** A Tree node seen as a DOM node (read-only). */
class XNode {
  private attrList: XAttr[] | null = null;
  constructor(
    readonly facade: Facade,
    readonly i: number,
  ) {}
  get nodeType(): number {
    const k = this.facade.tree.kind[this.i];
    return k === NodeKind.Element ? DOM_ELEMENT : k === NodeKind.Document ? DOM_DOCUMENT : k === NodeKind.Comment ? DOM_COMMENT : DOM_TEXT;
  }
  get nodeName(): string {
    const k = this.facade.tree.kind[this.i];
    return k === NodeKind.Element ? this.facade.tree.tag(this.i) : k === NodeKind.Document ? '#document' : k === NodeKind.Comment ? '#comment' : '#text';
  }
  get localName(): string | null {
    return this.facade.tree.kind[this.i] === NodeKind.Element ? this.facade.tree.tag(this.i) : null;
  }
  get tagName(): string {
    return this.nodeName;
  }
  get namespaceURI(): null {
    return null;
  }
  get prefix(): null {
    return null;
  }
  get nodeValue(): string | null {
    const k = this.facade.tree.kind[this.i];
    return k === NodeKind.Element || k === NodeKind.Document ? null : this.facade.tree.nodeText(this.i);
  }
  get data(): string | null {
    return this.nodeValue;
  }
  get parentNode(): XNode | null {
    return this.facade.orNull(this.facade.tree.parent[this.i]!);
  }
  get ownerDocument(): XNode | null {
    return this.i === 0 ? null : this.facade.node(0);
  }
  get documentElement(): XNode | null {
    const t = this.facade.tree;
    for (let c = 1; c < t.size; c = t.end[c]!) if (t.kind[c] === NodeKind.Element) return this.facade.node(c);
    return null;
  }
  get firstChild(): XNode | null {
    return this.facade.orNull(this.facade.tree.firstChild(this.i));
  }
  get lastChild(): XNode | null {
    const t = this.facade.tree;
    let last = -1;
    for (let c = this.i + 1, e = t.end[this.i]!; c < e; c = t.end[c]!) last = c;
    return this.facade.orNull(last);
  }
  get nextSibling(): XNode | null {
    return this.facade.orNull(this.facade.tree.nextSibling(this.i));
  }
  get previousSibling(): XNode | null {
    return this.facade.orNull(this.facade.prevSibling(this.i));
  }
  get childNodes(): XNode[] {
    return this.facade.tree.children(this.i).map((c) => this.facade.node(c));
  }
  get attributes(): { length: number; item(k: number): XAttr | null } {
    const list = (this.attrList ??= this.makeAttrs());
    return { length: list.length, item: (k: number) => list[k] ?? null };
  }
  private makeAttrs(): XAttr[] {
    const t = this.facade.tree;
    const out: XAttr[] = [];
    for (let a = t.attrStart[this.i]!, e = t.attrStart[this.i + 1]!, r = 0; a < e; a++, r++) out.push(new XAttr(this, r, t.attrNames[a]!, t.attrValues[a]!));
    return out;
  }
  getAttribute(name: string): string | null {
    return this.facade.tree.attr(this.i, name.toLowerCase()) ?? null;
  }
  getAttributeNS(_ns: string | null, name: string): string | null {
    return this.getAttribute(name);
  }
  compareDocumentPosition(other: unknown): number {
    return compare(this, other);
  }
}

/** An attribute of an element, seen as a DOM Attr. */
class XAttr {
  readonly nodeType = DOM_ATTRIBUTE;
  readonly namespaceURI = null;
  readonly prefix = null;
  readonly parentNode = null;
  constructor(
    readonly owner: XNode,
    readonly rank: number,
    readonly name: string,
    readonly value: string,
  ) {}
  get nodeName(): string {
    return this.name;
  }
  get localName(): string {
    return this.name;
  }
  get nodeValue(): string {
    return this.value;
  }
  get ownerElement(): XNode {
    return this.owner;
  }
  get ownerDocument(): XNode {
    return this.owner.facade.node(0);
  }
  compareDocumentPosition(other: unknown): number {
    return compare(this, other);
  }
}

const parsedCache = new Map<string, ParsedXPath>();
/** How many parsed expressions are kept (oldest dropped). */
export const XPATH_CACHE_SIZE = 512;

function parsed(expr: string): ParsedXPath {
  let p = parsedCache.get(expr);
  if (p) return p;
  try {
    p = xpathEngine.parse(expr);
  } catch (e) {
    throw new Error(`invalid XPath "${expr}": ${e instanceof Error ? e.message : String(e)}`);
  }
  if (parsedCache.size >= XPATH_CACHE_SIZE) parsedCache.delete(parsedCache.keys().next().value!);
  parsedCache.set(expr, p);
  return p;
}

function run(tree: Tree, expr: string, context: number): XValue {
  if (!Number.isInteger(context) || context < 0 || context >= tree.size) throw new RangeError(`node ${context} is not in this tree (size ${tree.size})`);
  const p = parsed(expr);
  try {
    return p.evaluate({ node: facadeOf(tree).node(context), isHtml: true });
  } catch (e) {
    throw new Error(`XPath "${expr}" failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The nodes selected by XPath `expr` evaluated at `context` (default: the document), as node indices in
 * document order. Attribute results are replaced by their owner elements. Throws an Error naming the
 * expression when it is invalid or does not evaluate to a node-set.
 */
export function evaluateXPath(tree: Tree, expr: string, context = 0): number[] {
  const result = run(tree, expr, context);
  if (!isA(result, xpathEngine.XNodeSet)) throw new Error(`XPath "${expr}" does not select nodes (it evaluates to a ${typeof valueOf(result)})`);
  const seen = new Uint8Array(tree.size);
  const out: number[] = [];
  for (const n of result.nodeset().toArray()) {
    const i = n instanceof XAttr ? n.owner.i : n instanceof XNode ? n.i : -1;
    if (i >= 0 && seen[i] === 0) {
      seen[i] = 1;
      out.push(i);
    }
  }
  return out.sort((a, b) => a - b);
}

/** `v instanceof ctor`, as a plain boolean (the engine's value classes are structurally identical). */
function isA(v: XValue, ctor: abstract new () => XValue): boolean {
  return v instanceof ctor;
}

function valueOf(result: XValue): string | number | boolean {
  if (isA(result, xpathEngine.XNumber)) return result.numberValue();
  if (isA(result, xpathEngine.XBoolean)) return result.booleanValue();
  return result.stringValue();
}

/**
 * The value of XPath `expr` at `context` (default: the document): a string for node-sets (the string value
 * of the first node, XPath's rule) and strings, a number or a boolean otherwise.
 */
export function evaluateXPathValue(tree: Tree, expr: string, context = 0): string | number | boolean {
  return valueOf(run(tree, expr, context));
}
