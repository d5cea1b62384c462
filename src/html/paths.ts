/**
 * Paths to a node: a CSS selector (`cssPath`) and an absolute XPath (`xpathOf`) that select exactly that
 * node on its page. Wrappers (paper 5) record them when a user points at a field, and evaluate them on
 * other pages (select.ts, xpath.ts).
 *
 * `cssPath` prefers what survives page edits: the element's own id when it is unique on the page;
 * otherwise a chain of child steps (`tag.class1.class2`, with `:nth-of-type(k)` only where siblings would
 * also match) that starts at the nearest *stable ancestor*: one with a unique id, or whose `tag.classes`
 * step matches no other element of the page (`body`, `main`, `article.md-content__inner`); failing both,
 * the top-level element (with `:root`). Every step is checked
 * with CSS semantics (a class step also matches elements that have more classes), so the result matches
 * exactly the node, which the tests verify on real pages with `selectAll`.
 */
import { NodeKind, type Tree } from './tree.ts';

/**
 * Escapes a string for use as a CSS identifier: the CSSOM `CSS.escape` rules, plus a hex escape for
 * U+0080–U+00AF, which CSSOM leaves as they are but the selector parser (css-what) does not accept in a
 * name (its name characters are `\w`, `-` and U+00B0 upwards).
 */
export function cssEscape(s: string): string {
  let out = '';
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 0) out += '\uFFFD';
    else if (
      (c >= 1 && c <= 0x1f) ||
      (c >= 0x7f && c <= 0xaf) ||
      (k === 0 && c >= 48 && c <= 57) ||
      (k === 1 && c >= 48 && c <= 57 && s.charCodeAt(0) === 45)
    ) {
      out += '\\' + c.toString(16) + ' ';
    } else if (k === 0 && c === 45 && s.length === 1) out += '\\-';
    else if (c >= 0x80 || c === 45 || c === 95 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) out += s[k];
    else out += '\\' + s[k];
  }
  return out;
}

/**
 * The class names of an element, without duplicates. Split on any white space (JavaScript's `\s`), as
 * css-select's class matching does, so that the paths built here mean the same to it.
 */
export function classesOf(tree: Tree, i: number): string[] {
  const v = tree.attr(i, 'class');
  if (!v) return [];
  return [...new Set(v.split(/\s+/).filter((c) => c.length > 0))];
}

/** Longest class name a path step uses (`PathIndex.classes`). */
export const PATH_CLASS_MAX = 200;

/** Per-tree facts that path building reuses across nodes. */
class PathIndex {
  /** Element indices by tag-name id. */
  private readonly byName = new Map<number, number[]>();
  /** How many elements carry each id value. */
  private readonly idCount = new Map<string, number>();
  private readonly classCache = new Map<number, string[]>();
  /** Memoised: does element i's `tag.classes` step match it alone in the document? */
  private readonly uniqueStep = new Map<number, boolean>();

  constructor(readonly tree: Tree) {
    for (let i = 0; i < tree.size; i++) {
      if (tree.kind[i] !== NodeKind.Element) continue;
      const nm = tree.name[i]!;
      let list = this.byName.get(nm);
      if (!list) this.byName.set(nm, (list = []));
      list.push(i);
      const id = tree.attr(i, 'id');
      if (id !== undefined && id !== '') this.idCount.set(id, (this.idCount.get(id) ?? 0) + 1);
    }
  }

  /**
   * The class names a step uses: those of at most `PATH_CLASS_MAX` characters. A longer one names nothing
   * a person would select by, and the selector engine matches a class through a regular expression that
   * cannot be compiled past tens of kilobytes; a step without it still matches its element (class steps
   * match supersets), and uniqueness is judged on the same names.
   */
  classes(i: number): string[] {
    let c = this.classCache.get(i);
    if (!c) this.classCache.set(i, (c = classesOf(this.tree, i).filter((x) => x.length <= PATH_CLASS_MAX)));
    return c;
  }

  /** The id of i when it is set and unique on the page. */
  uniqueId(i: number): string | undefined {
    const id = this.tree.attr(i, 'id');
    return id !== undefined && id !== '' && this.idCount.get(id) === 1 ? id : undefined;
  }

  /** True when element j would match element i's `tag.classes` step (same tag, a superset of classes). */
  stepMatches(i: number, j: number): boolean {
    if (this.tree.name[j] !== this.tree.name[i]) return false;
    const want = this.classes(i);
    if (want.length === 0) return true;
    const have = this.classes(j);
    return want.every((c) => have.includes(c));
  }

  isUniqueStep(i: number): boolean {
    let u = this.uniqueStep.get(i);
    if (u === undefined) {
      u = true;
      for (const j of this.byName.get(this.tree.name[i]!) ?? []) {
        if (j !== i && this.stepMatches(i, j)) {
          u = false;
          break;
        }
      }
      this.uniqueStep.set(i, u);
    }
    return u;
  }

  /** `tag.class…`. */
  plainStep(i: number): string {
    let s = cssEscape(this.tree.tag(i));
    for (const c of this.classes(i)) s += '.' + cssEscape(c);
    return s;
  }

  /** `tag.class…`, plus `:nth-of-type(k)` when another sibling would match the same step. */
  step(i: number): string {
    const t = this.tree;
    const s = this.plainStep(i);
    const p = t.parent[i]!;
    let ambiguous = false;
    let k = 0;
    for (let c = p + 1, e = t.end[p]!; c < e; c = t.end[c]!) {
      if (t.kind[c] !== NodeKind.Element || t.name[c] !== t.name[i]) continue;
      if (c <= i) k++;
      if (c !== i && this.stepMatches(i, c)) ambiguous = true;
    }
    return ambiguous ? `${s}:nth-of-type(${k})` : s;
  }
}

const indexes = new WeakMap<Tree, PathIndex>();
function indexOf(tree: Tree): PathIndex {
  let x = indexes.get(tree);
  if (!x) indexes.set(tree, (x = new PathIndex(tree)));
  return x;
}

function checkElement(tree: Tree, i: number): void {
  if (!Number.isInteger(i) || i < 0 || i >= tree.size || tree.kind[i] !== NodeKind.Element) {
    throw new RangeError(`node ${i} is not an element of this tree`);
  }
}

/**
 * A CSS selector that matches exactly element i on its page (see the module comment for the shape).
 * Throws a RangeError when i is not an element.
 */
export function cssPath(tree: Tree, i: number): string {
  checkElement(tree, i);
  const x = indexOf(tree);
  const steps: string[] = [];
  for (let n = i; n > 0; n = tree.parent[n]!) {
    const id = x.uniqueId(n);
    if (id !== undefined) {
      steps.push('#' + cssEscape(id));
      break;
    }
    if (x.isUniqueStep(n)) {
      // A stable ancestor (or the node itself): its `tag.classes` step matches nothing else on the page.
      steps.push(x.plainStep(n));
      break;
    }
    if (tree.parent[n] === 0) {
      // A top-level element whose step is not unique: `:root` keeps it from matching deeper elements.
      steps.push(x.step(n) + ':root');
      break;
    }
    steps.push(x.step(n));
  }
  return steps.reverse().join(' > ');
}

/**
 * A relative CSS selector that matches exactly element i among the elements inside element `scope` (an
 * ancestor of i): `:scope > div.card > h3:nth-of-type(2)`, one child step per level, each `tag.classes`
 * with `:nth-of-type(k)` only where a sibling would also match. For a field inside each instance of a
 * record (a nested wrapper pattern), whose absolute path would name one record. Throws a RangeError when
 * i is not an element inside `scope`.
 */
export function cssPathWithin(tree: Tree, i: number, scope: number): string {
  checkElement(tree, i);
  if (!(scope < i && i < tree.end[scope]!)) throw new RangeError(`node ${i} is not inside node ${scope}`);
  const x = indexOf(tree);
  const steps: string[] = [];
  for (let n = i; n !== scope; n = tree.parent[n]!) steps.push(x.step(n));
  return ':scope > ' + steps.reverse().join(' > ');
}

/**
 * The absolute XPath of node i: `/html[1]/body[1]/div[3]`, each step the node's name and its position
 * among same-named siblings; text and comment nodes end in `text()[k]` / `comment()[k]`; the document is
 * `/`. `evaluateXPath(tree, xpathOf(tree, i))` is `[i]` (tested on real pages).
 */
export function xpathOf(tree: Tree, i: number): string {
  if (!Number.isInteger(i) || i < 0 || i >= tree.size) throw new RangeError(`node ${i} is not in this tree (size ${tree.size})`);
  if (i === 0) return '/';
  const steps: string[] = [];
  for (let n = i; n > 0; n = tree.parent[n]!) {
    const p = tree.parent[n]!;
    const kind = tree.kind[n]!;
    const textLike = kind === NodeKind.Text || kind === NodeKind.Blank;
    let k = 0;
    for (let c = p + 1; c <= n; c = tree.end[c]!) {
      const ck = tree.kind[c]!;
      if (kind === NodeKind.Element ? ck === NodeKind.Element && tree.name[c] === tree.name[n] : textLike ? ck === NodeKind.Text || ck === NodeKind.Blank : ck === kind) k++;
    }
    const test = kind === NodeKind.Element ? tree.tag(n) : textLike ? 'text()' : 'comment()';
    steps.push(`${test}[${k}]`);
  }
  return '/' + steps.reverse().join('/');
}
