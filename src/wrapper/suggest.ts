/**
 * Patterns for a node (paper 5, Section 4, design time: "the user marks the data, the system proposes the
 * pattern"): given an element (or a text node) a user pointed at, or where an example value was found,
 * the selectors that locate it, ranked by how well they should survive on the site's other pages:
 *  - `label` (3): the text after a label, located by the label's words (`//b[normalize-space()='Date:']`
 *    with value `after`), the shape of record pages where fields come and go: positions shift, labels stay;
 *  - `path` (2): a CSS path anchored on an id or on classes, with no position in it (paths.ts `cssPath`);
 *  - `positional` (1): a CSS path that needs `:nth-of-type` or `:root`: it breaks when a sibling is
 *    added before it (a badge, a series line) and may then select another field;
 *  - `absolute` (0): the absolute XPath, the last resort.
 * Each suggestion says how many elements its selector matches on the page and the value it extracts
 * there, so that a caller (createFromExamples, a visual designer) can refuse or warn.
 */
import { cssEscape, cssPath, cssPathWithin, xpathOf } from '../html/paths.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { selectPattern } from './run.ts';
import { textAfter, valueOf } from './value.ts';

/** How a suggested selector locates its node, most robust first (see the module comment). */
export type SuggestionForm = 'label' | 'path' | 'positional' | 'absolute';

/** Robustness of each form (higher survives more page changes). */
export const FORM_ROBUSTNESS: Readonly<Record<SuggestionForm, number>> = { label: 3, path: 2, positional: 1, absolute: 0 };

/** A value mode (wrapper.ts `Pattern.value`). */
export type ValueMode = 'text' | 'own' | 'after' | `@${string}`;

/** A pattern proposed for a node. */
export interface PatternSuggestion {
  /** A CSS selector, or an XPath (starting with '/'). */
  selector: string;
  /** What the value is (value.ts). */
  value: ValueMode;
  form: SuggestionForm;
  /** FORM_ROBUSTNESS of the form. */
  robustness: number;
  /** Elements the selector matches on the page. */
  matches: number;
  /** The values it extracts on the page, one per match (the first few). */
  values: string[];
  /**
   * When the selector picks the node among look-alike siblings by its position (`li:nth-of-type(1)`):
   * how many elements the same selector without that position matches. The node is then one of a list,
   * and another page may put another item first: a list pattern is likely what is meant.
   */
  lookAlikes?: number;
}

/** Longest label text (characters) a value can be read after. */
export const MAX_LABEL_CHARS = 40;
/** Values shown per suggestion. */
const SHOWN_VALUES = 5;

/** XPath string literal for `s`. */
export function xpathLiteral(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!s.includes('"')) return `"${s}"`;
  return `concat('${s.split("'").join(`', "'", '`)}')`;
}

/** The XPath string value of node i (its descendant text, as is), normalised as `normalize-space()` does. */
function xpathNormalizedText(tree: Tree, i: number): string {
  let s = '';
  for (let j = i, e = tree.end[i]!; j < e; j++) if (tree.kind[j] === NodeKind.Text || tree.kind[j] === NodeKind.Blank) s += tree.nodeText(j);
  return s.replace(/[\x20\t\r\n]+/g, ' ').trim();
}

/** An XPath test that an element has class `c` (XPath 1.0 has no class selector). */
function hasClass(c: string): string {
  return `contains(concat(' ', normalize-space(@class), ' '), ${xpathLiteral(' ' + c + ' ')})`;
}

/**
 * An XPath that selects label element `node` by its tag and words, alone on the page: `//b[…='Date:']`,
 * or, when those words label other elements too, under its nearest ancestor with a unique id or a class
 * that makes it unique. Null when nothing makes it unique, or the label is not short text.
 */
export function labelXPath(tree: Tree, node: number, scope = 0): string | null {
  if (tree.kind[node] !== NodeKind.Element) return null;
  const label = xpathNormalizedText(tree, node);
  if (label === '' || label.length > MAX_LABEL_CHARS || !/[\p{L}\p{N}]/u.test(label)) return null;
  const step = `${tree.tag(node)}[normalize-space()=${xpathLiteral(label)}]`;
  const unique = (xp: string): boolean => {
    const got = selectPattern(tree, { selector: xp }, scope);
    return got.length === 1 && got[0] === node;
  };
  // Inside a scope (a record), relative to it: `.//b[…]`.
  const root = scope > 0 ? './/' : '//';
  const plain = `${root}${step}`;
  if (unique(plain)) return plain;
  for (let a = tree.parent[node]!; a > scope; a = tree.parent[a]!) {
    const id = tree.attr(a, 'id');
    if (id) {
      const xp = `${root}*[@id=${xpathLiteral(id)}]//${step}`;
      if (unique(xp)) return xp;
    }
    for (const c of (tree.attr(a, 'class') ?? '').split(/\s+/).filter(Boolean)) {
      const xp = `${root}${tree.tag(a)}[${hasClass(c)}]//${step}`;
      if (unique(xp)) return xp;
    }
  }
  return null;
}

/**
 * The form of a CSS path from paths.ts `cssPath`: positional when it needs a position or `:root`, or
 * stands on an id with a digit in it (`#answer-37565502`, `#post-12`: the id of one record, which the
 * next page does not have).
 */
function pathForm(selector: string): SuggestionForm {
  return /:nth-of-type\(|:root|#[^\s>.[:]*\d/.test(selector) ? 'positional' : 'path';
}

/**
 * The CSS path of element i under its nearest ancestor with a unique id that names a part of the page
 * rather than a record (no digit: `#question`, `#content`), when the plain path does not start there:
 * `#question div.user-details > a`. More specific than the plain path: it keeps to that part on pages
 * that repeat the structure elsewhere (answers below a question). Null when there is no such ancestor.
 */
function idAnchoredPath(tree: Tree, i: number, path: string): string | null {
  if (path.startsWith('#')) return null;
  for (let a = tree.parent[i]!; a > 0; a = tree.parent[a]!) {
    const id = tree.attr(a, 'id');
    if (!id || /\d/.test(id)) continue;
    const sel = `#${cssEscape(id)} ${path}`;
    const got = selectPattern(tree, { selector: sel }, 0);
    if (got.includes(i)) return sel;
  }
  return null;
}

/**
 * Paths of a list from the path of one item: each position dropped alone (the deepest first: the item's
 * own position among its siblings, then its record's among the records…), then all of them, so that the
 * item's look-alikes match too. The path itself when it has no position.
 */
export function listSelectors(selector: string): string[] {
  const positions = [...selector.matchAll(/:nth-of-type\(\d+\)/g)];
  if (positions.length === 0) return [selector];
  const out = positions.reverse().map((m) => selector.slice(0, m.index) + selector.slice(m.index + m[0].length));
  out.push(selector.replace(/:nth-of-type\(\d+\)/g, ''));
  return [...new Set(out)];
}

/** The path with every position dropped: what the item's look-alikes match too. */
function withoutPositions(selector: string): string {
  return selector.replace(/:nth-of-type\(\d+\)/g, '');
}

/** Options of `suggestPatterns`. */
export interface SuggestOptions {
  /** The value mode wanted; default: the one that fits the node (see `suggestPatterns`). */
  value?: ValueMode;
  /** A list pattern (`name[]`): the selector should match the node's siblings of the same kind too. */
  multiple?: boolean;
  /**
   * The element the pattern is evaluated inside (a parent pattern's instance, for a nested pattern);
   * default 0, the page. Selectors are then relative to it (`:scope > h3`, `.//b[…]`), so that they hold
   * in every instance of the parent, and there is no absolute XPath.
   */
  scope?: number;
}

/**
 * The patterns that locate `node` (an element, or a text node a user pointed at), most robust first (see
 * the module comment); each selector matches the node on this page (a list selector: among others).
 * Without `options.value`, the value is the element's text; for a text node, its element's text when the
 * element holds nothing else, else the text after the label it follows (`after`), else the element's own
 * text (`own`).
 */
export function suggestPatterns(tree: Tree, node: number, options: SuggestOptions = {}): PatternSuggestion[] {
  if (!Number.isInteger(node) || node <= 0 || node >= tree.size) throw new RangeError(`node ${node} is not in this tree (size ${tree.size})`);
  let element = node;
  let value: ValueMode = options.value ?? 'text';
  let label = -1;
  if (tree.kind[node] !== NodeKind.Element) {
    element = tree.parent[node]!;
    if (element <= 0 || tree.kind[element] !== NodeKind.Element) return [];
    if (options.value === undefined) {
      const text = tree.nodeText(node).replace(/\s+/g, ' ').trim();
      const before = previousElement(tree, node);
      if (valueOf(tree, element, 'text') === text) value = 'text';
      else if (before >= 0 && textAfter(tree, before).startsWith(text.replace(/^[\s:：\-–—|=>»·]+/u, ''))) {
        value = 'after';
        label = before;
      } else value = 'own';
    }
  }
  if (value === 'after' && label < 0) label = element;
  const scope = options.scope ?? 0;
  if (scope > 0 && !(scope < element && element < tree.end[scope]!)) throw new RangeError(`node ${node} is not inside the scope ${scope}`);
  const out: PatternSuggestion[] = [];
  const add = (selector: string, form: SuggestionForm, v: ValueMode): void => {
    if (out.some((s) => s.selector === selector && s.value === v)) return;
    const got = selectPattern(tree, { selector }, scope);
    const target = v === 'after' ? label : element;
    if (!got.includes(target)) return;
    const suggestion: PatternSuggestion = { selector, value: v, form, robustness: FORM_ROBUSTNESS[form], matches: got.length, values: got.slice(0, SHOWN_VALUES).map((n) => valueOf(tree, n, v)) };
    const loose = withoutPositions(selector);
    if (loose !== selector) {
      const siblings = selectPattern(tree, { selector: loose }, scope).length;
      if (siblings > got.length) suggestion.lookAlikes = siblings;
    }
    out.push(suggestion);
  };
  const pathOf = (i: number): string => (scope > 0 ? cssPathWithin(tree, i, scope) : cssPath(tree, i));
  if (value === 'after') {
    const xp = labelXPath(tree, label, scope);
    if (xp) add(xp, 'label', 'after');
    // The label by its path, when its words do not make it unique.
    const css = pathOf(label);
    add(css, pathForm(css), 'after');
    if (scope === 0) add(xpathOf(tree, label), 'absolute', 'after');
  } else {
    const path = pathOf(element);
    for (const css of options.multiple ? listSelectors(path) : [path]) {
      const anchored = scope === 0 ? idAnchoredPath(tree, element, css) : null;
      if (anchored) add(anchored, pathForm(anchored), value);
      add(css, pathForm(css), value);
    }
    // A link to an entity's page (`/author/…`) among links to others (`/series/…`): its path says which.
    const href = hrefStep(tree, element);
    if (href) {
      const linked = path.replace(/:nth-of-type\(\d+\)$/, '') + href;
      add(linked, pathForm(linked), value);
    }
    // A list's absolute XPath leaves out the item's own position, so that every item of its list matches.
    if (scope === 0) add(options.multiple ? xpathOf(tree, element).replace(/\[\d+\]$/, '') : xpathOf(tree, element), 'absolute', value);
  }
  return out.sort((a, b) => b.robustness - a.robustness);
}

/** The most robust pattern for `node` (see `suggestPatterns`), or null when none locates it. */
export function suggestPattern(tree: Tree, node: number, options: SuggestOptions = {}): PatternSuggestion | null {
  return suggestPatterns(tree, node, options)[0] ?? null;
}

/**
 * For a link, a selector step on its URL's first path segment when that is a word: `[href*="/author/"]`
 * (the segment with the character after it, `/` or `?`). Null for other elements and other URLs.
 */
export function hrefStep(tree: Tree, i: number): string | null {
  if (tree.tag(i) !== 'a') return null;
  const href = tree.attr(i, 'href');
  if (!href) return null;
  const m = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/[^/?#]*)?\/([\p{L}_-]{3,})([/?])/iu.exec(href.trim());
  if (!m) return null;
  return `[href*=${JSON.stringify(`/${m[1]}${m[2]}`)}]`;
}

/** The element before node i among its siblings (skipping text), or -1. */
function previousElement(tree: Tree, i: number): number {
  const p = tree.parent[i]!;
  let prev = -1;
  for (let c = p + 1; c < i; c = tree.end[c]!) if (tree.kind[c] === NodeKind.Element) prev = c;
  return prev;
}
