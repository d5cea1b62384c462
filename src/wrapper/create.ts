/**
 * Creating a wrapper (paper 5, Section 4, design time): from a page and named selectors, or from example
 * values to find on one or more pages. Each pattern gets its tree-gram: a snapshot of the subtrees it
 * matched and of their ancestors (tree-gram.ts), the input of any later adaptation.
 *
 * From examples, for each value: the page nodes whose text (or own text) has the same words as the value
 * are found (the deepest such element); candidate selectors are the node's CSS path, its absolute XPath
 * and, when the element starts with a short label element (`<li><b>ISBN</b>: 978…</li>`), an XPath anchored
 * on that label's text; the candidate that extracts the example values on the most example pages wins
 * (ties: the first, i.e. the label-anchored XPath, which survives fields that come and go in a list).
 * The tree-gram keeps the node of each example page (up to GRAM_INSTANCES), so it holds the pattern's
 * variation across pages. A name with several values on a page becomes a list pattern (`multiple`). The
 * data type constraint is inferred: the strictest of integer, number, date, URL that every example value
 * has, else non-empty.
 */
import { cssPath, xpathOf } from '../html/paths.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { GRAM_INSTANCES } from './defaults.ts';
import { textWords } from './match/string.ts';
import { declaredUrl, selectPattern, valueOf } from './run.ts';
import { makeTreeGram, snapshot } from './tree-gram.ts';
import { hasType } from './constraints.ts';
import { validateWrapper, WrapperError, type AdaptationSettings, type Constraints, type DataType, type Pattern, type Wrapper } from './wrapper.ts';

/** A pattern to create: its selector, and optionally children (evaluated inside each instance). */
export interface PatternSpec {
  name: string;
  selector: string;
  xpath?: boolean;
  multiple?: boolean;
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

/**
 * A wrapper for `tree` with the given patterns and a tree-gram for each. Throws a WrapperError naming the
 * pattern when its selector matches nothing (a tree-gram needs an instance).
 */
export function createWrapper(tree: Tree, specs: readonly PatternSpec[], options: CreateOptions = {}): Wrapper {
  const build = (s: PatternSpec, scopes: readonly number[]): Pattern => {
    const nodes: number[] = [];
    for (const scope of scopes) nodes.push(...selectPattern(tree, s, scope));
    if (nodes.length === 0) throw new WrapperError(`pattern "${s.name}": selector ${JSON.stringify(s.selector)} matches nothing on the page`);
    const p: Pattern = { name: s.name, selector: s.selector };
    if (s.xpath !== undefined) p.xpath = s.xpath;
    if (s.multiple !== undefined) p.multiple = s.multiple;
    if (s.value !== undefined) p.value = s.value;
    if (s.constraints !== undefined) p.constraints = s.constraints;
    if (s.children && s.children.length > 0) p.children = s.children.map((c) => build(c, nodes.slice(0, GRAM_INSTANCES)));
    p.treeGram = makeTreeGram(tree, nodes, GRAM_INSTANCES);
    return p;
  };
  const w: Wrapper = { version: 1, patterns: specs.map((s) => build(s, [0])) };
  if (options.name !== undefined) w.name = options.name;
  if (options.source !== undefined) w.source = options.source;
  const url = options.url ?? declaredUrl(tree);
  if (url !== undefined) w.url = url;
  if (options.adaptation !== undefined) w.adaptation = options.adaptation;
  return validateWrapper(w);
}

/** True when the words of `a` and `b` are the same sequence. */
function sameWords(a: string, b: string): boolean {
  const x = textWords(a);
  const y = textWords(b);
  return x.length > 0 && x.length === y.length && x.every((w, k) => w === y[k]);
}

/** Where an example value is on a page: the deepest elements whose text or own text is the value. */
export function findValue(tree: Tree, value: string): Array<{ node: number; mode: 'text' | 'own' }> {
  const out: Array<{ node: number; mode: 'text' | 'own' }> = [];
  const body = tree.body();
  for (let i = body; i < tree.end[body]!; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    if (sameWords(valueOf(tree, i, 'text'), value)) {
      // Keep only the deepest: drop an ancestor found before.
      while (out.length > 0 && tree.contains(out[out.length - 1]!.node, i) && out[out.length - 1]!.mode === 'text') out.pop();
      out.push({ node: i, mode: 'text' });
    } else if (sameWords(valueOf(tree, i, 'own'), value)) out.push({ node: i, mode: 'own' });
  }
  return out;
}

/** XPath string literal. */
function xpathLiteral(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!s.includes('"')) return `"${s}"`;
  return `concat('${s.split("'").join(`', "'", '`)}')`;
}

/** Candidate selectors for a found node (see the module comment). */
function candidateSelectors(tree: Tree, node: number): string[] {
  const out: string[] = [];
  const first = tree.elementChildren(node)[0];
  if (first !== undefined) {
    const label = valueOf(tree, first, 'text');
    if (label.length > 0 && label.length <= 40 && !/['"]/.test(label)) {
      out.push(`//${tree.tag(node)}[${tree.tag(first)}[1][normalize-space()=${xpathLiteral(label)}]]`);
    }
  }
  out.push(cssPath(tree, node), xpathOf(tree, node));
  return out;
}

/** Data types tried for inference, strictest first. */
const INFERRED_TYPES: readonly DataType[] = ['integer', 'number', 'date', 'url'];

/** The strictest data type every example value has ('non-empty' when none fits all). */
export function inferType(values: readonly string[]): DataType {
  for (const t of INFERRED_TYPES) if (values.length > 0 && values.every((v) => hasType(v, t))) return t;
  return 'non-empty';
}

/** One example page: its tree and, per pattern name, the value (or values, for a list) to find. */
export interface ExamplePage {
  tree: Tree;
  values: Readonly<Record<string, string | readonly string[] | undefined>>;
}

function asList(v: string | readonly string[] | undefined): string[] {
  return v === undefined ? [] : typeof v === 'string' ? (v.trim() ? [v] : []) : v.filter((x) => x.trim() !== '');
}

/**
 * A wrapper with one single-valued pattern per example name, learned from example pages (see the module
 * comment). A name whose value is found on no page is left out and listed in `missing`.
 */
export function createFromExamples(pages: readonly ExamplePage[], options: CreateOptions = {}): { wrapper: Wrapper; missing: string[] } {
  const names = [...new Set(pages.flatMap((p) => Object.keys(p.values)))];
  const patterns: Pattern[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const multiple = pages.some((p) => asList(p.values[name]).length > 1);
    let best: { selector: string; mode: 'text' | 'own'; hits: number; nodes: Array<{ tree: Tree; node: number }> } | null = null;
    const tried = new Set<string>();
    for (const page of pages) {
      const want = asList(page.values[name]);
      if (want.length === 0) continue;
      for (const { node, mode } of findValue(page.tree, want[0]!).slice(0, 5)) {
        for (const selector of candidateSelectors(page.tree, node)) {
          if (tried.has(mode + selector)) continue;
          tried.add(mode + selector);
          const nodes: Array<{ tree: Tree; node: number }> = [];
          let hits = 0;
          for (const q of pages) {
            const expected = asList(q.values[name]);
            if (expected.length === 0) continue;
            const got = selectPattern(q.tree, { selector }, 0);
            if (got.length === expected.length && got.every((g, k) => sameWords(valueOf(q.tree, g, mode), expected[k]!))) {
              hits++;
              nodes.push({ tree: q.tree, node: got[0]! });
            }
          }
          if (!best || hits > best.hits) best = { selector, mode, hits, nodes };
        }
      }
    }
    if (!best || best.hits === 0) {
      missing.push(name);
      continue;
    }
    const examples = pages.flatMap((p) => asList(p.values[name]));
    const p: Pattern = { name, selector: best.selector, treeGram: { instances: best.nodes.slice(0, GRAM_INSTANCES).map((n) => snapshot(n.tree, n.node)) } };
    if (multiple) p.multiple = true;
    if (best.mode === 'own') p.value = 'own';
    const type = inferType(examples);
    if (type !== 'non-empty') p.constraints = { type };
    patterns.push(p);
  }
  if (patterns.length === 0) throw new WrapperError('no example value was found on the example pages');
  const w: Wrapper = { version: 1, patterns };
  if (options.name !== undefined) w.name = options.name;
  if (options.source !== undefined) w.source = options.source;
  const url = options.url ?? (pages.length > 0 ? declaredUrl(pages[0]!.tree) : undefined);
  if (url !== undefined) w.url = url;
  if (options.adaptation !== undefined) w.adaptation = options.adaptation;
  return { wrapper: validateWrapper(w), missing };
}
