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
import { cssPath, xpathOf } from '../html/paths.ts';
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
export function labelXPath(tree: Tree, node: number): string | null {
  if (tree.kind[node] !== NodeKind.Element) return null;
  const label = xpathNormalizedText(tree, node);
  if (label === '' || label.length > MAX_LABEL_CHARS || !/[\p{L}\p{N}]/u.test(label)) return null;
  const step = `${tree.tag(node)}[normalize-space()=${xpathLiteral(label)}]`;
  const unique = (xp: string): boolean => {
    const got = selectPattern(tree, { selector: xp }, 0);
    return got.length === 1 && got[0] === node;
  };
  const plain = `//${step}`;
  if (unique(plain)) return plain;
  for (let a = tree.parent[node]!; a > 0; a = tree.parent[a]!) {
    const id = tree.attr(a, 'id');
    if (id) {
      const xp = `//*[@id=${xpathLiteral(id)}]//${step}`;
      if (unique(xp)) return xp;
    }
    for (const c of (tree.attr(a, 'class') ?? '').split(/\s+/).filter(Boolean)) {
      const xp = `//${tree.tag(a)}[${hasClass(c)}]//${step}`;
      if (unique(xp)) return xp;
    }
  }
  return null;
}

/** The form of a CSS path from paths.ts `cssPath`: positional when it needs a position or `:root`. */
function pathForm(selector: string): SuggestionForm {
  return /:nth-of-type\(|:root/.test(selector) ? 'positional' : 'path';
}

/** The path of a list: the last step's position dropped, so that its siblings of the same step match too. */
export function listSelector(selector: string): string {
  return selector.replace(/:nth-of-type\(\d+\)$/, '');
}

/** Options of `suggestPatterns`. */
export interface SuggestOptions {
  /** The value mode wanted; default: the one that fits the node (see `suggestPatterns`). */
  value?: ValueMode;
  /** A list pattern (`name[]`): the selector should match the node's siblings of the same kind too. */
  multiple?: boolean;
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
  const out: PatternSuggestion[] = [];
  const add = (selector: string, form: SuggestionForm, v: ValueMode): void => {
    if (out.some((s) => s.selector === selector && s.value === v)) return;
    const got = selectPattern(tree, { selector }, 0);
    const target = v === 'after' ? label : element;
    if (!got.includes(target)) return;
    out.push({ selector, value: v, form, robustness: FORM_ROBUSTNESS[form], matches: got.length, values: got.slice(0, SHOWN_VALUES).map((n) => valueOf(tree, n, v)) });
  };
  if (value === 'after') {
    const xp = labelXPath(tree, label);
    if (xp) add(xp, 'label', 'after');
    // The label by its path, when its words do not make it unique.
    const css = cssPath(tree, label);
    add(css, pathForm(css), 'after');
    add(xpathOf(tree, label), 'absolute', 'after');
  } else {
    let css = cssPath(tree, element);
    if (options.multiple) css = listSelector(css);
    add(css, pathForm(css), value);
    // A link to an entity's page (`/author/…`) among links to others (`/series/…`): its path says which.
    const href = hrefStep(tree, element);
    if (href) {
      const linked = listSelector(css) + href;
      add(linked, pathForm(linked), value);
    }
    add(xpathOf(tree, element), 'absolute', value);
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
