/**
 * One file over 400 lines: the Tree's arrays and the builder that fills them are one data contract, kept
 * where it can be read at once.
 *
 * The compact Tree (DESIGN.md, "The compact Tree"): an immutable, preorder, struct-of-arrays view of one
 * HTML document. Node 0 is the document. For node i:
 *  - `kind[i]`   NodeKind (element, text, blank text, comment, document);
 *  - `name[i]`   tag-name id (see `tagName`/`tagId`), 0 for non-elements;
 *  - `label[i]`  site-interned label of an element (tag + normalised attributes, see labels.ts);
 *                TEXT_LABEL / BLANK_LABEL / COMMENT_LABEL / DOCUMENT_LABEL for the others;
 *  - `parent[i]` parent node, -1 for the document;
 *  - `end[i]`    one past the last node of i's subtree: the subtree of i is the range [i, end[i]),
 *                its first child is i+1 when end[i] > i+1, its next sibling is end[i] (if < parent's end);
 *  - `depth[i]`  0 for the document;
 *  - text nodes and comments: `textStart[i]`, `textEnd[i]` offsets into `text` (decoded characters);
 *  - attributes: `attrStart[i]` .. `attrStart[i+1]` index into `attrNames` / `attrValues`.
 * Hot loops read only the typed arrays; strings (`text`, attributes) are for the edges.
 */
import { BLANK_LABEL, COMMENT_LABEL, DOCUMENT_LABEL, TEXT_LABEL } from './labels.ts';

/** What a node is. Plain numbers so hot loops compare integers. */
export const NodeKind = {
  Document: 0,
  Element: 1,
  /** Text with at least one non-whitespace character. */
  Text: 2,
  /** Text made of whitespace only (kept so that serialisation and text extraction stay faithful). */
  Blank: 3,
  Comment: 4,
} as const;
export type NodeKind = (typeof NodeKind)[keyof typeof NodeKind];

/** Tag names are interned process-wide: there are few of them and they never depend on the site. */
const tagIds = new Map<string, number>();
const tagNames: string[] = [''];
/** The id of a (lowercase) tag name, interned on first use. 0 is reserved for "not an element". */
export function tagId(name: string): number {
  let id = tagIds.get(name);
  if (id === undefined) {
    id = tagNames.length;
    tagNames.push(name);
    tagIds.set(name, id);
  }
  return id;
}
/**
 * A table by tag id (1 for each of `names`), built on first use so that importing a module interns no
 * tag: index it with a node's name id (an id beyond it is not in the set).
 */
export function lazyTagSet(names: readonly string[]): () => Uint8Array {
  let table: Uint8Array | null = null;
  return () => {
    if (!table) {
      const ids = names.map((t) => tagId(t));
      table = new Uint8Array(Math.max(...ids) + 1);
      for (const id of ids) table[id] = 1;
    }
    return table;
  };
}
/** The tag name of an id from `tagId`. */
export function tagName(id: number): string {
  return tagNames[id] ?? '';
}

/**
 * Elements whose text is not page text (scripts, styles, templates). Not `object`: its children are
 * fallback content, shown wherever the object is not (every Flash player today); news sites put video
 * captions there, and the corpus scoring excludes only scripts and styles.
 */
export const NON_TEXT_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'svg', 'math']);
/** HTML void elements: never have children, serialised without an end tag. */
export const VOID_TAGS: ReadonlySet<string> = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * Which parsing rules built a tree: `fast` (htmlparser2's, parseHtml) or `exact` (the WHATWG algorithm,
 * parseHtmlExact). They differ in which elements hold raw text (serialize.ts writes text so that the same
 * rules read it back).
 */
export type ParseRules = 'fast' | 'exact';

/** The per-node typed arrays of a Tree (see the module comment). */
export interface TreeArrays {
  kind: Uint8Array;
  name: Uint16Array;
  label: Int32Array;
  parent: Int32Array;
  end: Int32Array;
  depth: Uint16Array;
  textStart: Int32Array;
  textEnd: Int32Array;
  attrStart: Int32Array;
}

/** What a Tree is made of. */
export interface TreeParts extends TreeArrays {
  size: number;
  attrNames: readonly string[];
  attrValues: readonly string[];
  text: string;
  doctype?: string | undefined;
  rules?: ParseRules;
  /** Per node: its start tag's text as an integer (`Tree.tagSource`), -1 where not known. */
  tagSource?: Int32Array | undefined;
  /** What the `tagSource` integers are relative to. */
  tagSourceOwner?: object | undefined;
}

/** An immutable parsed document. Build one with `parseHtml` (parse.ts) or `TreeBuilder`. */
export class Tree {
  readonly size: number;
  readonly kind: Uint8Array;
  readonly name: Uint16Array;
  readonly label: Int32Array;
  readonly parent: Int32Array;
  readonly end: Int32Array;
  readonly depth: Uint16Array;
  readonly textStart: Int32Array;
  readonly textEnd: Int32Array;
  readonly attrStart: Int32Array;
  readonly attrNames: readonly string[];
  readonly attrValues: readonly string[];
  /** Decoded character data of all text and comment nodes, concatenated. */
  readonly text: string;
  /** The document's doctype declaration as written (`<!DOCTYPE html>`), when it has one. */
  readonly doctype: string | undefined;
  /** The rules the tree was parsed with (default `fast`). */
  readonly rules: ParseRules;
  /**
   * Per node, when the parser knows it (parse.ts): an integer for the start tag's source text, -1 for
   * other nodes. Two elements with the same integer under the same `tagSourceOwner` (of this tree or
   * another) were written with the same start tag, so they have the same tag name and attributes: what
   * a writer or a link resolver computed for one holds for the other.
   */
  readonly tagSource: Int32Array | undefined;
  readonly tagSourceOwner: object | undefined;

  constructor(parts: TreeParts) {
    this.size = parts.size;
    this.kind = parts.kind;
    this.name = parts.name;
    this.label = parts.label;
    this.parent = parts.parent;
    this.end = parts.end;
    this.depth = parts.depth;
    this.textStart = parts.textStart;
    this.textEnd = parts.textEnd;
    this.attrStart = parts.attrStart;
    this.attrNames = parts.attrNames;
    this.attrValues = parts.attrValues;
    this.text = parts.text;
    this.doctype = parts.doctype;
    this.rules = parts.rules ?? 'fast';
    this.tagSource = parts.tagSourceOwner ? parts.tagSource : undefined;
    this.tagSourceOwner = this.tagSource ? parts.tagSourceOwner : undefined;
  }

  /** Tag name of element i ('' for other nodes). */
  tag(i: number): string {
    return tagNames[this.name[i]!] ?? '';
  }
  isElement(i: number): boolean {
    return this.kind[i] === NodeKind.Element;
  }
  /** Character data of a text or comment node ('' for others). */
  nodeText(i: number): string {
    const s = this.textStart[i]!;
    return s < 0 ? '' : this.text.slice(s, this.textEnd[i]!);
  }
  /** Value of attribute `name` (lowercase) of element i, or undefined. */
  attr(i: number, name: string): string | undefined {
    for (let a = this.attrStart[i]!, e = this.attrStart[i + 1]!; a < e; a++) {
      if (this.attrNames[a] === name) return this.attrValues[a];
    }
    return undefined;
  }
  /** Attributes of element i as [name, value] pairs, in source order. */
  attrs(i: number): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (let a = this.attrStart[i]!, e = this.attrStart[i + 1]!; a < e; a++) out.push([this.attrNames[a]!, this.attrValues[a]!]);
    return out;
  }
  /** True when j is i or inside i's subtree. */
  contains(i: number, j: number): boolean {
    return j >= i && j < this.end[i]!;
  }
  firstChild(i: number): number {
    return this.end[i]! > i + 1 ? i + 1 : -1;
  }
  /** Next sibling of i, or -1. */
  nextSibling(i: number): number {
    const p = this.parent[i]!;
    if (p < 0) return -1;
    const n = this.end[i]!;
    return n < this.end[p]! ? n : -1;
  }
  /** Children of i (all kinds). */
  children(i: number): number[] {
    const out: number[] = [];
    for (let c = i + 1, e = this.end[i]!; c < e; c = this.end[c]!) out.push(c);
    return out;
  }
  /** Element children of i. */
  elementChildren(i: number): number[] {
    const out: number[] = [];
    for (let c = i + 1, e = this.end[i]!; c < e; c = this.end[c]!) if (this.kind[c] === NodeKind.Element) out.push(c);
    return out;
  }
  /** The first element with tag `name` in document order, or -1. */
  find(name: string): number {
    const id = tagIds.get(name);
    if (id === undefined) return -1;
    for (let i = 0; i < this.size; i++) if (this.name[i] === id) return i;
    return -1;
  }
  /** The `<body>` element, or the document when there is none. */
  body(): number {
    const b = this.find('body');
    return b < 0 ? 0 : b;
  }
  /** Number of element nodes. */
  elementCount(): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (this.kind[i] === NodeKind.Element) n++;
    return n;
  }
}

/**
 * Builds a Tree from open / text / close events in document order. Both parsers feed it, so both give
 * the same Tree type. Arrays grow by doubling; `finish()` trims them.
 */
export class TreeBuilder {
  private cap: number;
  private n = 0;
  /** Set by finish(): the builder must not be used again. */
  private done = false;
  private kind: Uint8Array;
  private name: Uint16Array;
  private label: Int32Array;
  private parent: Int32Array;
  private end: Int32Array;
  private depth: Uint16Array;
  private textStart: Int32Array;
  private textEnd: Int32Array;
  private attrStart: Int32Array;
  private tagSource: Int32Array;
  /** What the start-tag integers given to `open` are relative to; null once two owners were seen. */
  private sourceOwner: object | null | undefined;
  private readonly attrNames: string[] = [];
  private readonly attrValues: string[] = [];
  private readonly textParts: string[] = [];
  private textLen = 0;
  private readonly stack: number[] = [0];
  /** Index of the last node if it is a text node that a following text event may extend. */
  private openText = -1;

  constructor(expectedNodes = 256) {
    const spare = spareArrays;
    if (spare && spare.cap >= expectedNodes) {
      // Reuse the working arrays a finished builder left (finish() copies the Tree out of them): saves
      // allocating and zero-filling large buffers for every page. Every cell is written before it is read.
      spareArrays = null;
      this.cap = spare.cap;
      this.kind = spare.kind;
      this.name = spare.name;
      this.label = spare.label;
      this.parent = spare.parent;
      this.end = spare.end;
      this.depth = spare.depth;
      this.textStart = spare.textStart;
      this.textEnd = spare.textEnd;
      this.attrStart = spare.attrStart;
      this.tagSource = spare.tagSource;
    } else {
      this.cap = Math.max(16, expectedNodes);
      this.kind = new Uint8Array(this.cap);
      this.name = new Uint16Array(this.cap);
      this.label = new Int32Array(this.cap);
      this.parent = new Int32Array(this.cap);
      this.end = new Int32Array(this.cap);
      this.depth = new Uint16Array(this.cap);
      this.textStart = new Int32Array(this.cap);
      this.textEnd = new Int32Array(this.cap);
      this.attrStart = new Int32Array(this.cap + 1);
      this.tagSource = new Int32Array(this.cap);
    }
    this.push(NodeKind.Document, 0, DOCUMENT_LABEL);
  }

  /** Index of the next node to be added. */
  get count(): number {
    return this.n;
  }
  /** The innermost open element (0 for the document). */
  get current(): number {
    return this.stack[this.stack.length - 1]!;
  }
  /** Tag-name id of node i already added (0 for non-elements). */
  nameAt(i: number): number {
    return i < this.n ? this.name[i]! : 0;
  }
  /** Value of attribute `name` of element i already added, or undefined. */
  attrOf(i: number, name: string): string | undefined {
    if (i >= this.n) return undefined;
    for (let a = this.attrStart[i]!, e = this.attrStart[i + 1]!; a < e; a++) if (this.attrNames[a] === name) return this.attrValues[a];
    return undefined;
  }
  /** Parent of node i already added (-1 for the document). */
  parentOf(i: number): number {
    return i < this.n ? this.parent[i]! : -1;
  }
  /** True when element `node` is still open. */
  isOpen(node: number): boolean {
    // The stack holds increasing node indices: scan from the top down to `node`.
    for (let k = this.stack.length - 1; k > 0; k--) {
      const s = this.stack[k]!;
      if (s <= node) return s === node;
    }
    return false;
  }
  /** Number of open elements (0 when only the document is open). */
  get openDepth(): number {
    return this.stack.length - 1;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const g = <T extends Uint8Array | Uint16Array | Int32Array>(a: T, size = cap): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.kind = g(this.kind);
    this.name = g(this.name);
    this.label = g(this.label);
    this.parent = g(this.parent);
    this.end = g(this.end);
    this.depth = g(this.depth);
    this.textStart = g(this.textStart);
    this.textEnd = g(this.textEnd);
    this.attrStart = g(this.attrStart, cap + 1);
    this.tagSource = g(this.tagSource);
    this.cap = cap;
  }

  private push(kind: number, nameId: number, label: number): number {
    if (this.n >= this.cap) this.grow();
    if (this.done) throw new Error('TreeBuilder used after finish()');
    const i = this.n++;
    const p = this.n === 1 ? -1 : this.current;
    this.kind[i] = kind;
    this.name[i] = nameId;
    this.label[i] = label;
    this.parent[i] = p;
    this.end[i] = i + 1;
    this.depth[i] = p < 0 ? 0 : Math.min(65535, this.depth[p]! + 1);
    this.textStart[i] = -1;
    this.textEnd[i] = -1;
    this.attrStart[i] = this.attrNames.length;
    this.attrStart[i + 1] = this.attrNames.length;
    this.tagSource[i] = -1;
    return i;
  }

  /**
   * Opens an element. `attrs` are [name, value] pairs already lowercased by the parser; `label` is the
   * site label (labels.ts). `source`, with `owner`, is the start tag's text as an integer (labels.ts
   * `sourceEntry`; -1 when unknown). Returns the node index.
   */
  open(nameId: number, label: number, attrNames: readonly string[], attrValues: readonly string[], source = -1, owner?: object): number {
    this.openText = -1;
    const i = this.push(NodeKind.Element, nameId, label);
    if (source >= 0) {
      if (this.sourceOwner === undefined) this.sourceOwner = owner ?? null;
      else if (this.sourceOwner !== owner) this.sourceOwner = null;
      this.tagSource[i] = source;
    }
    for (let a = 0; a < attrNames.length; a++) {
      this.attrNames.push(attrNames[a]!);
      this.attrValues.push(attrValues[a]!);
    }
    this.attrStart[i + 1] = this.attrNames.length;
    this.stack.push(i);
    return i;
  }

  /** Closes the innermost open element. */
  close(): void {
    this.openText = -1;
    if (this.stack.length <= 1) return;
    const i = this.stack.pop()!;
    this.end[i] = this.n;
  }

  /** Closes open elements until `node` is closed (used when an end tag closes several at once). */
  closeTo(node: number): void {
    while (this.stack.length > 1) {
      const top = this.current;
      this.close();
      if (top === node) break;
    }
  }

  /** Appends character data; consecutive calls extend the same text node. */
  addText(data: string): void {
    if (data.length === 0) return;
    this.textParts.push(data);
    const start = this.textLen;
    this.textLen += data.length;
    if (this.openText >= 0 && this.openText === this.n - 1) {
      const i = this.openText;
      this.textEnd[i] = this.textLen;
      if (this.kind[i] === NodeKind.Blank && !isBlank(data)) {
        this.kind[i] = NodeKind.Text;
        this.label[i] = TEXT_LABEL;
      }
      return;
    }
    const blank = isBlank(data);
    const i = this.push(blank ? NodeKind.Blank : NodeKind.Text, 0, blank ? BLANK_LABEL : TEXT_LABEL);
    this.textStart[i] = start;
    this.textEnd[i] = this.textLen;
    this.openText = i;
  }

  addComment(data: string): void {
    this.openText = -1;
    const i = this.push(NodeKind.Comment, 0, COMMENT_LABEL);
    this.textParts.push(data);
    this.textStart[i] = this.textLen;
    this.textLen += data.length;
    this.textEnd[i] = this.textLen;
  }

  /** The document's doctype declaration as written, when it has one. */
  doctype: string | undefined;

  /**
   * Closes everything still open and returns the immutable Tree, parsed with `rules`. The builder cannot
   * be used afterwards.
   */
  finish(rules: ParseRules = 'fast'): Tree {
    if (this.done) throw new Error('TreeBuilder.finish() called twice');
    while (this.stack.length > 1) this.close();
    const n = this.n;
    this.end[0] = n;
    const tree = new Tree({
      size: n,
      kind: this.kind.slice(0, n),
      name: this.name.slice(0, n),
      label: this.label.slice(0, n),
      parent: this.parent.slice(0, n),
      end: this.end.slice(0, n),
      depth: this.depth.slice(0, n),
      textStart: this.textStart.slice(0, n),
      textEnd: this.textEnd.slice(0, n),
      attrStart: this.attrStart.slice(0, n + 1),
      attrNames: this.attrNames,
      attrValues: this.attrValues,
      text: this.textParts.join(''),
      doctype: this.doctype,
      rules,
      ...(this.sourceOwner ? { tagSource: this.tagSource.slice(0, n), tagSourceOwner: this.sourceOwner } : {}),
    });
    if (this.cap <= MAX_SPARE_NODES && (!spareArrays || spareArrays.cap < this.cap)) {
      const { cap, kind, name, label, parent, end, depth, textStart, textEnd, attrStart, tagSource } = this;
      spareArrays = { cap, kind, name, label, parent, end, depth, textStart, textEnd, attrStart, tagSource };
    }
    this.done = true; // its arrays may now serve another builder
    return tree;
  }
}

/** Working arrays of a finished TreeBuilder, kept for the next one (one set per thread). */
interface SpareArrays extends TreeArrays {
  cap: number;
  tagSource: Int32Array;
}
let spareArrays: SpareArrays | null = null;
/** Builders larger than this many nodes do not keep their arrays for reuse (bounds the memory held). */
const MAX_SPARE_NODES = 1 << 20;

/** True when s is made of HTML whitespace only. */
export function isBlank(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 160) return false;
  }
  return true;
}

/** The first element child of `r` for which `accept` holds, or -1. */
export function firstElementChild(tree: Tree, r: number, accept: (c: number) => boolean): number {
  for (let c = r + 1, e = tree.end[r]!; c < e; c = tree.end[c]!) if (tree.kind[c] === NodeKind.Element && accept(c)) return c;
  return -1;
}
