/**
 * One file over 400 lines: css-select's adapter is one object of callbacks over the module's current tree,
 * and the compiled-selector cache wraps it.
 *
 * CSS selectors on a Tree (STYLE.md 2 and 5): css-select compiles a selector into a chain of small
 * functions, cheapest check first, and reaches the document only through its `Adapter`; we give it an
 * adapter over our preorder arrays, so no DOM is ever built.
 *
 * Node handles: css-select tests parents with `if (parent)`, and node 0 (the document) is falsy, so the
 * adapter sees handle `i + 1` for node i (the document is handle 1; "no node" is `null`). Handles are plain
 * numbers: no allocation per node, which is why css-select's result caches (WeakSet/WeakMap, which refuse
 * numbers) are turned off.
 *
 * Compile once, run many: a `CompiledSelector` is not bound to a tree. Each run sets the module's current
 * tree (evaluation is synchronous, and runs nest correctly: the previous tree is restored afterwards).
 *
 * Semantics follow `Element.querySelectorAll`: a selector is matched against the whole document and the
 * result is the matching elements *inside* `root` (root itself excluded), in document order. `:scope`
 * stands for `root` (for the document: its first element, as `:root`), so relative selectors such as
 * `> li` select the children of `root`. Tag and attribute names are matched lowercase (HTML rules); class
 * and id values are case-sensitive (no quirks mode).
 */
import { compile } from 'css-select';
import { parse as parseSelector, stringify as stringifySelector, type Selector } from 'css-what';
import nthCheck from 'nth-check';
import type { Options } from 'css-select';
import { NodeKind, Tree, tagName } from './tree.ts';

/** A node handle as css-select sees it: node index + 1 (see the module comment). */
type Handle = number;
/** css-select's Adapter interface (not exported by name from its entry point). */
type Adapter = NonNullable<Options<Handle, Handle>['adapter']>;

/** The tree of the run in progress; an empty document between runs (so compile-time probes are safe). */
const EMPTY = new Tree({
  size: 1,
  kind: new Uint8Array([NodeKind.Document]),
  name: new Uint16Array(1),
  label: new Int32Array(1),
  parent: new Int32Array([-1]),
  end: new Int32Array([1]),
  depth: new Uint16Array(1),
  textStart: new Int32Array([-1]),
  textEnd: new Int32Array([-1]),
  attrStart: new Int32Array(2),
  attrNames: [],
  attrValues: [],
  text: '',
});
let cur: Tree = EMPTY;
/** Previous-sibling array of `cur`, computed on first need (see `prevSiblings`). */
let curPrev: Int32Array | null = null;

const prevCache = new WeakMap<Tree, Int32Array>();
/** prev[i] = previous sibling of node i (any kind), or -1. One pass, cached per tree. */
export function prevSiblings(tree: Tree): Int32Array {
  let prev = prevCache.get(tree);
  if (prev) return prev;
  prev = new Int32Array(tree.size).fill(-1);
  const { end, size } = tree;
  for (let i = 0; i < size; i++) {
    const e = end[i]!;
    // The first child of i has no previous sibling; each child's successor sibling is at its end.
    for (let c = i + 1; c < e; ) {
      const n = end[c]!;
      if (n < e) prev[n] = c;
      c = n;
    }
  }
  prevCache.set(tree, prev);
  return prev;
}

/** Lowercased tag names by tag id (parse5 keeps SVG's camelCase names, e.g. `clipPath`; selectors are lowercased). */
const lowerNames: string[] = [];
function lowerTagName(id: number): string {
  return (lowerNames[id] ??= tagName(id).toLowerCase());
}

/**
 * Attribute `name` (lowercase, as css-select passes it) of node i. Names are compared ignoring case, since
 * parse5 keeps SVG's adjusted names (`viewBox`); the length test keeps the common miss cheap.
 */
function attrValue(i: number, name: string): string | undefined {
  const { attrStart, attrNames, attrValues } = cur;
  for (let a = attrStart[i]!, e = attrStart[i + 1]!; a < e; a++) {
    const n = attrNames[a]!;
    if (n === name || (n.length === name.length && n.toLowerCase() === name)) return attrValues[a];
  }
  return undefined;
}

/**
 * Positions of every element among its element siblings, computed in one pass per tree on first need, so
 * that `:nth-child`, `:nth-of-type`, `:last-child`… cost O(1) per test instead of a sibling scan (css-select's
 * own versions list all siblings on every test: quadratic on long lists and tables).
 * All positions are 0-based: `fromStart[i]` counts the element siblings before i, `fromEnd[i]` those after it,
 * and the `type` variants count only siblings with i's tag name.
 */
interface SiblingIndex {
  fromStart: Int32Array;
  fromEnd: Int32Array;
  typeFromStart: Int32Array;
  typeFromEnd: Int32Array;
}
const siblingCache = new WeakMap<Tree, SiblingIndex>();
function siblingIndex(tree: Tree): SiblingIndex {
  let x = siblingCache.get(tree);
  if (x) return x;
  const n = tree.size;
  x = { fromStart: new Int32Array(n), fromEnd: new Int32Array(n), typeFromStart: new Int32Array(n), typeFromEnd: new Int32Array(n) };
  const { kind, name, end } = tree;
  let maxName = 0;
  for (let i = 0; i < n; i++) if (name[i]! > maxName) maxName = name[i]!;
  const perName = new Int32Array(maxName + 1);
  const kids: number[] = [];
  for (let p = 0; p < n; p++) {
    if (end[p] === p + 1 || (kind[p] !== NodeKind.Element && kind[p] !== NodeKind.Document)) continue;
    kids.length = 0;
    for (let c = p + 1, e = end[p]!; c < e; c = end[c]!) if (kind[c] === NodeKind.Element) kids.push(c);
    for (let k = 0; k < kids.length; k++) {
      const c = kids[k]!;
      x.fromStart[c] = k;
      x.fromEnd[c] = kids.length - 1 - k;
      x.typeFromStart[c] = perName[name[c]!]!++;
    }
    for (let k = kids.length - 1; k >= 0; k--) {
      const c = kids[k]!;
      x.typeFromEnd[c] = --perName[name[c]!]!;
    }
  }
  siblingCache.set(tree, x);
  return x;
}
let curSiblings: SiblingIndex | null = null;
function sib(): SiblingIndex {
  return (curSiblings ??= siblingIndex(cur));
}

/** Compiled `an+b` formulas by text. */
const nthCache = new Map<string, (index: number) => boolean>();
function nth(formula: string | null | undefined): (index: number) => boolean {
  const f = formula ?? '';
  let check = nthCache.get(f);
  if (!check) nthCache.set(f, (check = nthCheck(f)));
  return check;
}

/** css-select pseudo-classes replaced by O(1) versions on the sibling index (same semantics). */
const structuralPseudos: Record<string, (h: Handle, data?: string | null) => boolean> = {
  'nth-child': (h, d) => nth(d)(sib().fromStart[h - 1]!),
  'nth-last-child': (h, d) => nth(d)(sib().fromEnd[h - 1]!),
  'nth-of-type': (h, d) => nth(d)(sib().typeFromStart[h - 1]!),
  'nth-last-of-type': (h, d) => nth(d)(sib().typeFromEnd[h - 1]!),
  'first-child': (h) => sib().fromStart[h - 1] === 0,
  'last-child': (h) => sib().fromEnd[h - 1] === 0,
  'only-child': (h) => sib().fromStart[h - 1] === 0 && sib().fromEnd[h - 1] === 0,
  'first-of-type': (h) => sib().typeFromStart[h - 1] === 0,
  'last-of-type': (h) => sib().typeFromEnd[h - 1] === 0,
  'only-of-type': (h) => sib().typeFromStart[h - 1] === 0 && sib().typeFromEnd[h - 1] === 0,
};

function isTag(h: unknown): h is Handle {
  return typeof h === 'number' && cur.kind[h - 1] === NodeKind.Element;
}

function childHandles(h: Handle): Handle[] {
  const i = h - 1;
  const out: Handle[] = [];
  const e = cur.end[i]!;
  for (let c = i + 1; c < e; c = cur.end[c]!) out.push(c + 1);
  return out;
}

/** Range scan over the subtrees of `nodes` (handles), calling `visit` on each element; stops on true. */
function scan(nodes: readonly Handle[], visit: (h: Handle) => boolean): void {
  const { kind, end } = cur;
  let done = -1; // skip nodes already scanned (a node inside an earlier node's subtree)
  for (const h of nodes) {
    const i = h - 1;
    if (i < done) continue;
    const e = end[i]!;
    for (let j = i; j < e; j++) if (kind[j] === NodeKind.Element && visit(j + 1)) return;
    done = e;
  }
}

const adapter: Adapter = {
  isTag,
  existsOne(test, elems) {
    let found = false;
    scan(elems, (h) => (found = test(h)));
    return found;
  },
  getAttributeValue(h, name) {
    return attrValue(h - 1, name);
  },
  getChildren: childHandles,
  getName(h) {
    return lowerTagName(cur.name[h - 1]!);
  },
  getParent(h) {
    const p = cur.parent[h - 1];
    return p === undefined || p < 0 ? null : p + 1;
  },
  getSiblings(h) {
    const p = cur.parent[h - 1];
    return p === undefined || p < 0 ? [h] : childHandles(p + 1);
  },
  prevElementSibling(h) {
    if (!curPrev) curPrev = prevSiblings(cur);
    for (let s = curPrev[h - 1]!; s >= 0; s = curPrev[s]!) if (cur.kind[s] === NodeKind.Element) return s + 1;
    return null;
  },
  getText(h) {
    const i = h - 1;
    const { kind, textStart, textEnd, text } = cur;
    let s = '';
    for (let j = i, e = cur.end[i]!; j < e; j++) {
      if (kind[j] === NodeKind.Text || kind[j] === NodeKind.Blank) s += text.slice(textStart[j]!, textEnd[j]!);
    }
    return s;
  },
  hasAttrib(h, name) {
    return attrValue(h - 1, name) !== undefined;
  },
  removeSubsets(nodes) {
    const sorted = [...new Set(nodes)].sort((a, b) => a - b);
    const out: Handle[] = [];
    let done = -1;
    for (const h of sorted) {
      if (h - 1 < done) continue;
      out.push(h);
      done = cur.end[h - 1]!;
    }
    return out;
  },
  findAll(test, nodes) {
    const out: Handle[] = [];
    scan(nodes, (h) => {
      if (test(h)) out.push(h);
      return false;
    });
    return out;
  },
  findOne(test, elems) {
    let found: Handle | null = null;
    scan(elems, (h) => (test(h) ? ((found = h), true) : false));
    return found;
  },
};

/** A selector compiled once, runnable on any number of trees. */
export interface CompiledSelector {
  /** The selector text it was compiled from. */
  readonly source: string;
  /** Elements inside `root` (default: the document; root itself excluded) that match, in document order. */
  selectAll(tree: Tree, root?: number): number[];
  /** The first such element in document order, or -1. */
  selectOne(tree: Tree, root?: number): number;
  /** True when element `node` matches (evaluated against the whole document). */
  matches(tree: Tree, node: number): boolean;
}

/** The handle `:scope` stands for during a run on `root`. */
function scopeHandle(tree: Tree, root: number): Handle {
  if (root !== 0) return root + 1;
  for (let c = 1; c < tree.size; c = tree.end[c]!) if (tree.kind[c] === NodeKind.Element) return c + 1;
  return 1;
}

/**
 * Above this many compound selectors in one selector, it is matched by `LongChains` rather than by
 * css-select, which nests one closure per step: the path of an element thousands of levels deep
 * (paths.ts `cssPath` on a deep page) would overflow the call stack.
 */
export const LONG_CHAIN = 64;

/** A selector split at its combinators: its compound selectors and the combinator before each (the first: none). */
function splitCompounds(tokens: readonly Selector[]): { compounds: Selector[][]; combinators: string[] } {
  const compounds: Selector[][] = [[]];
  const combinators: string[] = [''];
  for (const t of tokens) {
    if (t.type === 'child' || t.type === 'descendant' || t.type === 'adjacent' || t.type === 'sibling' || t.type === 'parent' || t.type === 'column-combinator') {
      compounds.push([]);
      combinators.push(t.type);
    } else compounds[compounds.length - 1]!.push(t);
  }
  return { compounds, combinators };
}

/** One selector of a long-chain list: a test per compound, and whether the combinator before each is `>`. */
interface Chain {
  tests: Array<(h: Handle) => boolean>;
  child: boolean[];
}

/**
 * A selector list of long chains (LONG_CHAIN), each a run of compound selectors joined by child and
 * descendant combinators; each compound is compiled alone by css-select and the chain is matched in loops,
 * never by recursion:
 *  - `matches` (one element) goes right to left: a run of compounds joined by `>` (a segment) must match a
 *    run of ancestors, and each earlier segment is matched at the nearest ancestor where it fits, which is
 *    optimal (a higher match leaves fewer ancestors to the segments before it);
 *  - `select` (all elements under a root) goes top-down in one preorder pass, keeping for each open
 *    element the compounds matched there (k: compounds 0..k match ending at it) and those matched at its
 *    ancestors, so a `cssPath` chain costs one compound test or two per element instead of a walk to the
 *    top from every element.
 */
class LongChains {
  private constructor(private readonly chains: readonly Chain[]) {}

  /** The chains of `source`, or null when css-select should compile it (no long chain, or another combinator). */
  static of(source: string, options: Options<Handle, Handle>, context: Handle[]): LongChains | null {
    let parsed: Selector[][];
    try {
      parsed = parseSelector(source);
    } catch {
      return null; // css-select reports the syntax error
    }
    const split = parsed.map(splitCompounds);
    if (!split.some((x) => x.compounds.length > LONG_CHAIN)) return null;
    if (split.some((x) => x.combinators.some((c, k) => k > 0 && c !== 'child' && c !== 'descendant'))) return null;
    return new LongChains(
      split.map(({ compounds, combinators }) => {
        // A relative selector (`> li > a …`) starts at :scope, as css-select would have it.
        if (compounds[0]!.length === 0 && compounds.length > 1) compounds[0] = [{ type: 'pseudo', name: 'scope', data: null } as Selector];
        return {
          tests: compounds.map((c) => (c.length === 0 ? isTag : compile<Handle, Handle>(stringifySelector([c]), options, context))),
          child: combinators.map((c) => c === 'child'),
        };
      }),
    );
  }

  /** True when element handle h matches (right to left, see the class comment). */
  matches(h: Handle): boolean {
    return this.chains.some((c) => LongChains.matchesChain(c, h));
  }

  private static matchesChain({ tests, child }: Chain, h: Handle): boolean {
    /** Matches compounds a..b with b on x and each step's parent for the one before; the handle of a's match. */
    const segment = (a: number, b: number, x: Handle | null): Handle | null => {
      for (let k = b; ; k--) {
        if (x === null || !isTag(x) || !tests[k]!(x)) return null;
        if (k === a) return x;
        x = adapter.getParent(x);
      }
    };
    let b = tests.length - 1;
    let a = b;
    while (a > 0 && child[a]) a--;
    let top = segment(a, b, h);
    while (top !== null && a > 0) {
      b = a - 1;
      a = b;
      while (a > 0 && child[a]) a--;
      let found: Handle | null = null;
      for (let x = adapter.getParent(top); x !== null && isTag(x) && found === null; x = adapter.getParent(x)) found = segment(a, b, x);
      top = found;
    }
    return top !== null;
  }

  /** The matching elements inside `root` of the current tree, in document order (the first only when `one`). */
  select(tree: Tree, root: number, one: boolean): number[] {
    const { kind, end, parent } = tree;
    const chains = this.chains;
    // Per open element (a stack along the current path), per chain: the compounds matched at it, and the
    // compounds followed by a descendant combinator matched at one of its proper ancestors.
    const stack: Array<{ node: number; here: number[][]; above: Array<Set<number>> }> = [];
    const none = chains.map(() => new Set<number>());
    const out: number[] = [];
    const lo = root + 1;
    const hi = end[root]!;
    for (let i = 1; i < hi; i++) {
      if (kind[i] !== NodeKind.Element) continue;
      if (i < root && end[i]! <= root) {
        i = end[i]! - 1; // not an ancestor of root: nothing under it matters
        continue;
      }
      while (stack.length > 0 && stack[stack.length - 1]!.node !== parent[i]) stack.pop();
      const up = stack[stack.length - 1];
      const here: number[][] = [];
      const above: Array<Set<number>> = [];
      let hit = false;
      for (let c = 0; c < chains.length; c++) {
        const { tests, child } = chains[c]!;
        const last = tests.length - 1;
        const parentHere = up ? up.here[c]! : [];
        const ancestors = up ? up.above[c]! : none[c]!;
        // Compounds k worth testing: 0, k after a compound matched at the parent (`>`) or an ancestor (` `).
        const tried = new Set<number>([0]);
        for (const k of parentHere) if (k < last && child[k + 1]) tried.add(k + 1);
        for (const k of ancestors) tried.add(k + 1);
        for (const k of parentHere) if (k < last && !child[k + 1]) tried.add(k + 1);
        const matched: number[] = [];
        for (const k of tried) if (tests[k]!(i + 1)) matched.push(k);
        here.push(matched);
        if (matched.includes(last) && i >= lo) hit = true;
        // Compounds followed by a descendant combinator matched above this element (at its parent or
        // higher), for the tests of its descendants; a chain of `>` only keeps this set empty.
        let a = ancestors;
        for (const k of parentHere) {
          if (k >= last || child[k + 1] || a.has(k)) continue;
          if (a === ancestors) a = new Set(ancestors);
          a.add(k);
        }
        above.push(a);
      }
      if (hit) {
        out.push(i);
        if (one) return out;
      }
      // Elements with no element child need no stack entry; the others are pushed for their children.
      if (end[i]! > i + 1) stack.push({ node: i, here, above });
    }
    return out;
  }
}

/**
 * Above this many selectors in a selector list (`a, b, …`), each distinct one is compiled alone and the
 * list is tested in a loop: css-select joins a list by nesting one closure per selector, and a list of
 * thousands would overflow the call stack when run.
 */
export const LONG_LIST = 64;

/** The test of a long selector list (LONG_LIST), or null when css-select should compile it whole. */
function longList(source: string, options: Options<Handle, Handle>, context: Handle[]): ((h: Handle) => boolean) | null {
  let parsed: Selector[][];
  try {
    parsed = parseSelector(source);
  } catch {
    return null; // css-select reports the syntax error
  }
  if (parsed.length <= LONG_LIST) return null;
  const tests = [...new Set(parsed.map((x) => stringifySelector([x])))].map((one) => compile<Handle, Handle>(one, options, context));
  return (h) => {
    for (const t of tests) if (t(h)) return true;
    return false;
  };
}

class Compiled implements CompiledSelector {
  /** css-select reads context[0] at match time for `:scope`; we set it before each run. */
  private readonly context: Handle[] = [0];
  private readonly query: (h: Handle) => boolean;
  private readonly chains: LongChains | null;

  constructor(readonly source: string) {
    const options: Options<Handle, Handle> = { adapter, cacheResults: false, xmlMode: false, pseudos: structuralPseudos };
    try {
      tooLongValue(source);
      // A context element whose parent is not an element keeps ordinary selectors absolute (css-select
      // would otherwise prefix them with `:scope `) while relative ones (`> li`) still start at :scope.
      this.chains = LongChains.of(source, options, this.context);
      this.query = this.chains ? (h) => this.chains!.matches(h) : (longList(source, options, this.context) ?? compile<Handle, Handle>(source, options, this.context));
    } catch (e) {
      throw new Error(`invalid CSS selector "${shortSource(source)}": ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private run<T>(tree: Tree, scope: Handle, body: (q: (h: Handle) => boolean) => T): T {
    const savedTree = cur;
    const savedPrev = curPrev;
    const savedSiblings = curSiblings;
    const savedScope = this.context[0]!;
    cur = tree;
    curPrev = null;
    curSiblings = null;
    this.context[0] = scope;
    try {
      return body(this.query);
    } catch (e) {
      // css-select builds some regular expressions on first use: a value too large for one is the selector's fault
      if (e instanceof SyntaxError) throw new Error(`CSS selector "${shortSource(this.source)}" cannot be run: ${e.message.slice(0, 80)}`);
      // A selector nested past what css-select's closures can run (thousands of alternatives inside `:is()`).
      if (e instanceof RangeError && /call stack/i.test(e.message)) throw new Error(`CSS selector "${shortSource(this.source)}" cannot be run: it is nested too deeply`);
      throw e;
    } finally {
      cur = savedTree;
      curPrev = savedPrev;
      curSiblings = savedSiblings;
      this.context[0] = savedScope;
    }
  }

  selectAll(tree: Tree, root = 0): number[] {
    checkNode(tree, root);
    if (this.chains) return this.run(tree, scopeHandle(tree, root), () => this.chains!.select(tree, root, false));
    return this.run(tree, scopeHandle(tree, root), (q) => {
      const out: number[] = [];
      const { kind } = tree;
      for (let i = root + 1, e = tree.end[root]!; i < e; i++) if (kind[i] === NodeKind.Element && q(i + 1)) out.push(i);
      return out;
    });
  }

  selectOne(tree: Tree, root = 0): number {
    checkNode(tree, root);
    if (this.chains) return this.run(tree, scopeHandle(tree, root), () => this.chains!.select(tree, root, true)[0] ?? -1);
    return this.run(tree, scopeHandle(tree, root), (q) => {
      const { kind } = tree;
      for (let i = root + 1, e = tree.end[root]!; i < e; i++) if (kind[i] === NodeKind.Element && q(i + 1)) return i;
      return -1;
    });
  }

  matches(tree: Tree, node: number): boolean {
    checkNode(tree, node);
    if (tree.kind[node] !== NodeKind.Element) return false;
    return this.run(tree, scopeHandle(tree, 0), (q) => q(node + 1));
  }
}

/**
 * Longest value a selector may test through a regular expression. css-select matches `.c`, `[a~=v]` and
 * `[a*=v i]` through regular expressions built from the value, which V8 cannot compile past some tens of
 * kilobytes; such a selector is refused when compiled rather than failing on the first element it is tried
 * on. Other tests (`#id`, `[a=v]`) compare strings and take values of any length.
 */
export const SELECTOR_VALUE_MAX = 8192;

function tooLongValue(source: string): void {
  if (source.length <= SELECTOR_VALUE_MAX) return;
  let parsed: Selector[][];
  try {
    parsed = parseSelector(source);
  } catch {
    return; // css-select reports the syntax error
  }
  for (const t of parsed.flat()) {
    const regex = t.type === 'attribute' && (t.action === 'element' || (t.action === 'any' && t.ignoreCase === true));
    if (regex && t.value.length > SELECTOR_VALUE_MAX) throw new Error(`a value of ${t.value.length} characters (at most ${SELECTOR_VALUE_MAX})`);
  }
}

/** A selector as messages quote it: at most 200 characters. */
function shortSource(source: string): string {
  return source.length > 200 ? `${source.slice(0, 200)}… (${source.length} characters)` : source;
}

function checkNode(tree: Tree, i: number): void {
  if (!Number.isInteger(i) || i < 0 || i >= tree.size) throw new RangeError(`node ${i} is not in this tree (size ${tree.size})`);
}

/** Compiled selectors by source text, so repeated string queries compile once. Bounded (oldest dropped). */
const compiledCache = new Map<string, CompiledSelector>();
/** How many compiled selectors the string-taking functions keep. */
export const SELECTOR_CACHE_SIZE = 512;

/** Compiles `selector` once for use on many trees. Throws an Error naming the selector when it is invalid. */
export function compileSelector(selector: string): CompiledSelector {
  let c = compiledCache.get(selector);
  if (c) return c;
  c = new Compiled(selector);
  if (compiledCache.size >= SELECTOR_CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value!);
  compiledCache.set(selector, c);
  return c;
}

/** Elements inside `root` (default: the document; root excluded) matching `selector`, in document order. */
export function selectAll(tree: Tree, selector: string | CompiledSelector, root = 0): number[] {
  return (typeof selector === 'string' ? compileSelector(selector) : selector).selectAll(tree, root);
}

/** The first element inside `root` matching `selector` in document order, or -1 when none. */
export function selectOne(tree: Tree, selector: string | CompiledSelector, root = 0): number {
  return (typeof selector === 'string' ? compileSelector(selector) : selector).selectOne(tree, root);
}

/** True when element `node` matches `selector` (false for non-element nodes). */
export function matches(tree: Tree, node: number, selector: string | CompiledSelector): boolean {
  return (typeof selector === 'string' ? compileSelector(selector) : selector).matches(tree, node);
}
