/**
 * Creating a wrapper (paper 5, Section 4, design time): from a page and named selectors, or from example
 * values to find on one or more pages. Each pattern gets its tree-gram: a snapshot of the subtrees it
 * matched and of their ancestors (tree-gram.ts), the input of any later adaptation.
 *
 * From selectors (`createWrapper`): a single pattern whose selector matches several elements is refused
 * (the wrapper would have to guess which one is meant, on this page and on every other): the error says
 * how many matched and proposes a list (`name[]=`) or a tighter selector. An invalid selector is an error.
 *
 * From examples (`createFromExamples`), for each name:
 *  - where the value is (`findValue`): the deepest elements whose text has the value's words, elements
 *    whose own text has them, labels the value follows (`<b>Date:</b> 2008<br>`: value mode `after`),
 *    and, when the text has it nowhere, attributes (a meta tag's content);
 *  - the patterns that locate each place (suggest.ts), most robust first: a label's words, then a CSS path
 *    without positions, then one with positions, then the absolute XPath;
 *  - a pattern extracts the examples on a page when it gives exactly them, or gives them once the other
 *    matches are left out by the label the examples carry there (label.ts: `By:` beside `More in`), a
 *    label every example page must then agree on;
 *  - the pattern that extracts the examples on the most example pages wins; ties go to a place that
 *    carries the name's words (its label `Publisher:`, its classes, id or itemprop `h3.author`, its link
 *    path `/author/` for `author`), then to the more robust form, then to the first place in the page;
 *  - a name given as a list (several values, or `name[]` on the command line) is a list pattern: the
 *    examples may be some of the list's items, and a list pattern extracts them and every item of their
 *    lists (their siblings of the same tag and classes, `listItems`), never a chosen position; a pattern
 *    that gives exactly the example values in order also fits, but one that gives every item is preferred;
 *  - the label the examples share and, where their blocks have siblings of their kind, the rank they share
 *    go into the pattern (`choose`), for a run to tell apart several matches (label.ts);
 *  - the data type is inferred: the strictest of integer, number, date, URL that every example value
 *    has, else non-empty (constraints.ts); a run checks every value against it.
 */
import { cssPath } from '../html/paths.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { hasType, occurrenceBounds } from './constraints.ts';
import { GRAM_INSTANCES } from './defaults.ts';
import { textWords } from './match/string.ts';
import { collapseRepeats, declaredUrl, selectPattern } from './run.ts';
import { MAX_LABEL_CHARS, suggestPatterns, type SuggestionForm, type ValueMode } from './suggest.ts';
import { learnChoose, tellApart } from './label.ts';
import { makeTreeGram } from './tree-gram.ts';
import { isLabelShape, sameWords, textAfter, valueOf } from './value.ts';
import { validateWrapper, WRAPPER_VERSION, WrapperError, type AdaptationSettings, type Constraints, type DataType, type Pattern, type Wrapper } from './wrapper.ts';

/** A pattern to create: its selector, and optionally children (evaluated inside each instance). */
export interface PatternSpec {
  name: string;
  selector: string;
  xpath?: boolean;
  multiple?: boolean;
  /** What a value is: 'text' (default), 'own', 'after' or '@attribute' (value.ts). */
  value?: string;
  constraints?: Constraints;
  children?: PatternSpec[];
}

/** Options of `createWrapper`. */
export interface CreateOptions {
  name?: string;
  source?: string;
  /** The page's address (URL); default: the page's canonical link or og:url, when it has one. */
  url?: string;
  adaptation?: AdaptationSettings;
}

/** The error for a single pattern whose selector matches several elements (see the module comment). */
function tooManyError(tree: Tree, s: PatternSpec, nodes: readonly number[], nested: boolean): WrapperError {
  const first = tree.kind[nodes[0]!] === NodeKind.Element ? cssPath(tree, nodes[0]!) : null;
  return new WrapperError(
    `pattern "${s.name}": selector ${JSON.stringify(s.selector)} matches ${nodes.length} elements${nested ? ' in one instance of its parent' : ' on the page'}, ` +
      `and a single value needs exactly one: write ${s.name}[]=${s.selector} for a list, or a tighter selector` +
      (first ? ` (the first match alone: ${JSON.stringify(first)})` : ''),
  );
}

/** A wrapper file with the given patterns and options. */
function wrapperOf(patterns: Pattern[], options: CreateOptions, tree: Tree | undefined): Wrapper {
  const w: Wrapper = { version: WRAPPER_VERSION, patterns };
  if (options.name !== undefined) w.name = options.name;
  if (options.source !== undefined) w.source = options.source;
  const url = options.url ?? (tree ? declaredUrl(tree) : undefined);
  if (url !== undefined) w.url = url;
  if (options.adaptation !== undefined) w.adaptation = options.adaptation;
  return validateWrapper(w);
}

/**
 * A wrapper for `tree` with the given patterns and a tree-gram for each. Throws a WrapperError naming the
 * pattern when its selector is invalid, matches nothing (a tree-gram needs an instance), or, for a single
 * pattern, matches several elements (in one parent instance).
 */
export function createWrapper(tree: Tree, specs: readonly PatternSpec[], options: CreateOptions = {}): Wrapper {
  const build = (s: PatternSpec, scopes: readonly number[], nested: boolean): Pattern => {
    const nodes: number[] = [];
    const max = occurrenceBounds(s.constraints, s.multiple ?? false).max;
    for (const scope of scopes) {
      const got = collapseRepeats(tree, s, selectPattern(tree, s, scope));
      if (got.length > max) throw tooManyError(tree, s, got, nested);
      nodes.push(...got);
    }
    if (nodes.length === 0) {
      const shown = s.selector.length > 200 ? `${s.selector.slice(0, 200)}… (${s.selector.length} characters)` : s.selector;
      throw new WrapperError(`pattern "${s.name}": selector ${JSON.stringify(shown)} matches nothing on the page`);
    }
    const p: Pattern = { name: s.name, selector: s.selector };
    if (s.xpath !== undefined) p.xpath = s.xpath;
    if (s.multiple !== undefined) p.multiple = s.multiple;
    if (s.value !== undefined) p.value = s.value;
    if (s.constraints !== undefined) p.constraints = s.constraints;
    if (s.children && s.children.length > 0) p.children = s.children.map((c) => build(c, nodes.slice(0, GRAM_INSTANCES), true));
    p.treeGram = makeTreeGram(tree, nodes, GRAM_INSTANCES);
    return p;
  };
  return wrapperOf(specs.map((s) => build(s, [0], false)), options, tree);
}

/** Where an example value is on a page: a node and the value mode that reads the value there. */
export interface Occurrence {
  node: number;
  mode: ValueMode;
}

/** Attributes an example value is looked for in when the page's text does not have it. */
const VALUE_ATTRIBUTES = ['content', 'title', 'alt', 'datetime', 'value', 'href', 'src'];

/**
 * Where an example value is on a page (see the module comment), in document order: the deepest elements
 * of the body whose text has the value's words (`text`), elements whose own text nodes have them (`own`),
 * short labels (MAX_LABEL_CHARS) the value follows (`after`); when none, elements of the document with an
 * attribute that has them (`@name`).
 */
export function findValue(tree: Tree, value: string): Occurrence[] {
  if (textWords(value).length === 0) return [];
  const out: Occurrence[] = [];
  const body = tree.body();
  for (let i = body; i < tree.end[body]!; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const text = valueOf(tree, i, 'text');
    if (sameWords(text, value)) {
      // Keep only the deepest: drop an ancestor found before.
      while (out.length > 0 && out[out.length - 1]!.mode === 'text' && tree.contains(out[out.length - 1]!.node, i)) out.pop();
      out.push({ node: i, mode: 'text' });
      continue;
    }
    if (sameWords(valueOf(tree, i, 'own'), value)) out.push({ node: i, mode: 'own' });
    if (text.length > 0 && text.length <= MAX_LABEL_CHARS && /[\p{L}\p{N}]/u.test(text) && isLabelShape(tree, i) && sameWords(textAfter(tree, i), value)) out.push({ node: i, mode: 'after' });
  }
  if (out.length > 0) return out;
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    for (const a of VALUE_ATTRIBUTES) {
      const v = tree.attr(i, a);
      if (v !== undefined && sameWords(v, value)) out.push({ node: i, mode: `@${a}` });
    }
  }
  return out;
}

/** Data types tried for inference, strictest first. */
const INFERRED_TYPES: readonly DataType[] = ['integer', 'number', 'date', 'url'];

/**
 * The strictest data type every example value has: integer, number (bare: a sign or currency at most,
 * no unit in words), date, URL; else `text` when every
 * value is words without a digit (a name, a publisher: a value with a percentage or a price in it is then
 * another field's); else non-empty.
 */
export function inferType(values: readonly string[]): DataType {
  if (values.length === 0) return 'non-empty';
  // A number with a unit in words ("4.1 kg") may be "310 g per shoe" on the next page: only a bare number
  // (with a currency sign or a percent at most) makes a number field.
  const bare = values.every((v) => !/\p{L}/u.test(v.replace(/\b\p{Lu}{3}\b/gu, '')));
  for (const t of INFERRED_TYPES) if ((bare || (t !== 'integer' && t !== 'number')) && values.every((v) => hasType(v, t))) return t;
  if (values.every((v) => hasType(v, 'text') && !/\p{N}/u.test(v))) return 'text';
  return 'non-empty';
}

/**
 * The constraints inferred from example values (what a run checks every value against): the data type
 * (`inferType`). Occurrences are the defaults (one instance for a single pattern, one or more for a list).
 */
export function inferConstraints(values: readonly string[]): Constraints {
  const type = inferType(values);
  return type === 'non-empty' ? {} : { type };
}

/**
 * One example page: its tree and, per pattern name, the value to find, or a list of values (an array,
 * even of one value, makes a list pattern).
 */
export interface ExamplePage {
  tree: Tree;
  values: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** What `createFromExamples` chose for a name. */
export interface ExampleChoice {
  name: string;
  selector: string;
  value: ValueMode;
  form: SuggestionForm;
  /** Example pages where the pattern extracts exactly the examples (its label telling them apart where needed). */
  pages: number;
  /** Example pages that give a value for the name. */
  examplePages: number;
  /** The fewest and the most values an example page gives for the name (a list when `multiple`). */
  values: [number, number];
  multiple: boolean;
  /** Of `pages`, those where the selector matched other elements too and the label kept the examples. */
  byLabel: number;
  /** The label the examples share, when they do (label.ts), and the rank of their block when it is evidence. */
  label?: string;
  rank?: number;
  /** Patterns that were tried for the name. */
  candidates: number;
  /**
   * When the chosen pattern picks its element by position among this many look-alike siblings (a single
   * value given for what the page shows as a list): the caller should say so (a list, `name[]`, is
   * likely meant).
   */
  lookAlikes?: number;
}

function asList(v: string | readonly string[] | undefined): string[] {
  return v === undefined ? [] : typeof v === 'string' ? (v.trim() ? [v] : []) : v.filter((x) => x.trim() !== '');
}

/**
 * Words of a name or of attribute values, singular (`publication_date` → publication, date; `authorName`
 * → author, name; `votes` → vote).
 */
function nameWords(name: string): string[] {
  return textWords(name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ')).map((w) => (w.length > 3 ? w.replace(/s$/, '') : w));
}

/**
 * True when the place of occurrence `occ` carries a word of `name`: the label it follows (`Publisher:`),
 * the link path of its selector (`[href*="/author/"]`), or the class, id or itemprop of its node or of
 * one of their two nearest ancestors (`h3.author`, `itemprop="author"`).
 */
function namedPlace(tree: Tree, occ: Occurrence, selector: string, name: string): boolean {
  const want = new Set(nameWords(name));
  const says = (text: string): boolean => nameWords(text).some((w) => want.has(w));
  if (occ.mode === 'after' && says(valueOf(tree, occ.node, 'text'))) return true;
  if (/\[href\*=/.test(selector) && says(selector.slice(selector.lastIndexOf('[href*=')))) return true;
  for (let n = occ.node, k = 0; n > 0 && k < 3; n = tree.parent[n]!, k++) {
    if (tree.kind[n] !== NodeKind.Element) continue;
    if (says(`${tree.attr(n, 'class') ?? ''} ${tree.attr(n, 'id') ?? ''} ${tree.attr(n, 'itemprop') ?? ''}`)) return true;
  }
  return false;
}

/** An element's shape among its siblings: its tag and its classes. */
function shapeOf(tree: Tree, n: number): string {
  return `${tree.name[n]} ${(tree.attr(n, 'class') ?? '').split(/\s+/).filter(Boolean).sort().join(' ')}`;
}

/**
 * The items of the lists that `nodes` are items of, in document order: each element's siblings of the
 * same tag and classes (itself included); a text node stands for itself.
 */
export function listItems(tree: Tree, nodes: readonly number[]): number[] {
  const out = new Set<number>();
  for (const n of nodes) {
    const p = tree.parent[n]!;
    if (tree.kind[n] !== NodeKind.Element || p < 0) {
      out.add(n);
      continue;
    }
    const shape = shapeOf(tree, n);
    for (let c = p + 1; c < tree.end[p]!; c = tree.end[c]!) if (tree.kind[c] === NodeKind.Element && shapeOf(tree, c) === shape) out.add(c);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * How the nodes a list pattern extracts on a page fit the example values: `hit` when they give exactly the
 * examples in order, or give every example and are exactly the items of the examples' lists (`listItems`:
 * a list given by some of its items); `covers` when they include every item of those lists.
 */
function listFit(tree: Tree, got: readonly number[], expected: readonly string[], mode: ValueMode): { hit: boolean; covers: boolean } {
  const values = got.map((g) => valueOf(tree, g, mode));
  const exact = got.length === expected.length && values.every((v, k) => sameWords(v, expected[k]!));
  const used = new Set<number>();
  const examples: number[] = [];
  for (const e of expected) {
    const k = values.findIndex((v, j) => !used.has(j) && sameWords(v, e));
    if (k < 0) return { hit: exact, covers: false };
    used.add(k);
    examples.push(got[k]!);
  }
  const items = listItems(tree, examples);
  const have = new Set(got);
  const covers = items.every((n) => have.has(n));
  return { hit: exact || (covers && items.length === got.length), covers };
}

/** Occurrences examined per example value (the first ones in the page). */
const MAX_OCCURRENCES = 12;

/**
 * A wrapper with one pattern per example name, learned from example pages (see the module comment). A
 * name whose value is found on no page is left out and listed in `missing`; a name whose values are found
 * but that no one pattern extracts (values of unrelated places, a list's items in several lists) is left
 * out and listed in `unextracted`; `choices` says what was chosen for the others.
 */
export function createFromExamples(
  pages: readonly ExamplePage[],
  options: CreateOptions = {},
): { wrapper: Wrapper; missing: string[]; unextracted: string[]; choices: ExampleChoice[] } {
  const names = [...new Set(pages.flatMap((p) => Object.keys(p.values)))];
  const patterns: Pattern[] = [];
  const missing: string[] = [];
  const unextracted: string[] = [];
  const choices: ExampleChoice[] = [];
  for (const name of names) {
    const multiple = pages.some((p) => Array.isArray(p.values[name]));
    interface Candidate {
      selector: string;
      value: ValueMode;
      form: SuggestionForm;
      robustness: number;
      named: boolean;
      order: number;
      lookAlikes: number | undefined;
      hits: number;
      /** Of the hits, those where the label had to leave other matches out. */
      byLabel: number;
      /** Pages where a list pattern extracts every item of the examples' lists (listFit). */
      covers: number;
      nodes: Array<{ tree: Tree; node: number }>;
    }
    const candidates = new Map<string, Candidate>();
    for (const page of pages) {
      const want = asList(page.values[name]);
      if (want.length === 0) continue;
      for (const occ of findValue(page.tree, want[0]!).slice(0, MAX_OCCURRENCES)) {
        for (const s of suggestPatterns(page.tree, occ.node, { value: occ.mode, multiple })) {
          const key = `${s.value}\u0000${s.selector}`;
          if (candidates.has(key)) continue;
          candidates.set(key, { selector: s.selector, value: s.value, form: s.form, robustness: s.robustness, named: namedPlace(page.tree, occ, s.selector, name), order: candidates.size, lookAlikes: s.lookAlikes, hits: 0, byLabel: 0, covers: 0, nodes: [] });
        }
      }
    }
    for (const c of candidates.values()) {
      for (const q of pages) {
        const expected = asList(q.values[name]);
        if (expected.length === 0) continue;
        let got = collapseRepeats(q.tree, { multiple, value: c.value }, selectPattern(q.tree, { selector: c.selector }, 0));
        const fitOf = (ns: readonly number[]): { hit: boolean; covers: boolean } =>
          multiple ? listFit(q.tree, ns, expected, c.value) : { hit: ns.length === 1 && sameWords(valueOf(q.tree, ns[0]!, c.value), expected[0]!), covers: false };
        let fit = fitOf(got);
        let byLabel = false;
        if (!fit.hit && got.length > 1) {
          // Other elements match too: the label the examples carry on this page may leave them out.
          const examples = got.filter((g) => expected.some((e) => sameWords(valueOf(q.tree, g, c.value), e)));
          const choose = learnChoose(examples.map((node) => ({ tree: q.tree, node })), multiple);
          const told = choose?.label !== undefined ? tellApart(q.tree, { label: choose.label, rule: '' }, got) : null;
          if (told && told.by === 'label' && fitOf(told.nodes).hit) {
            got = told.nodes;
            fit = { hit: true, covers: fit.covers };
            byLabel = true;
          }
        }
        if (fit.covers) c.covers++;
        if (fit.hit) {
          c.hits++;
          if (byLabel) c.byLabel++;
          for (const g of got) c.nodes.push({ tree: q.tree, node: g });
        }
      }
      // Pages held by the label count only when every example page agrees on that label.
      if (c.byLabel > 0 && learnChoose(c.nodes, multiple)?.label === undefined) {
        c.hits -= c.byLabel;
        c.byLabel = 0;
      }
    }
    const examplePages = pages.filter((q) => asList(q.values[name]).length > 0).length;
    const ranked = [...candidates.values()]
      .filter((c) => c.hits > 0)
      .sort((a, b) => b.hits - a.hits || b.covers - a.covers || Number(b.named) - Number(a.named) || b.robustness - a.robustness || a.byLabel - b.byLabel || a.order - b.order);
    const best = ranked[0];
    if (!best) {
      (candidates.size > 0 ? unextracted : missing).push(name);
      continue;
    }
    const p: Pattern = { name, selector: best.selector };
    if (multiple) p.multiple = true;
    if (best.value !== 'text') p.value = best.value;
    const constraints = inferConstraints(pages.flatMap((q) => asList(q.values[name])));
    if (Object.keys(constraints).length > 0) p.constraints = constraints;
    // A label pattern (`after`) is located by its label already.
    const choose = best.value === 'after' ? null : learnChoose(best.nodes, multiple);
    if (choose) p.choose = choose;
    p.treeGram = { instances: best.nodes.slice(0, GRAM_INSTANCES).map((n) => makeTreeGram(n.tree, [n.node], 1).instances[0]!) };
    patterns.push(p);
    const counts = pages.map((q) => asList(q.values[name]).length).filter((n) => n > 0);
    const choice: ExampleChoice = { name, selector: best.selector, value: best.value, form: best.form, pages: best.hits, examplePages, values: [Math.min(...counts), Math.max(...counts)], multiple, byLabel: best.byLabel, candidates: candidates.size };
    if (choose?.label !== undefined) choice.label = choose.label;
    if (choose?.rank !== undefined) choice.rank = choose.rank;
    if (!multiple && best.lookAlikes !== undefined) choice.lookAlikes = best.lookAlikes;
    choices.push(choice);
  }
  if (patterns.length === 0) {
    throw new WrapperError(
      unextracted.length > 0
        ? `no pattern extracts the example values of ${unextracted.map((n) => `"${n}"`).join(', ')}: they are on the page, but no one selector gives them (the values of one list are items of one list)`
        : 'no example value was found on the example pages',
    );
  }
  return { wrapper: wrapperOf(patterns, options, pages[0]?.tree), missing, unextracted, choices };
}
