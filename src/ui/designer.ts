/**
 * The wrapper designer's and the adaptation view's requests, over the wrapper library (src/wrapper/):
 * the designer's flat pattern drafts become the nested PatternSpecs of `createWrapper`; a preview is the
 * wrapper run without adaptation (`runWrapper` with `noAdapt`) on every page of the source, plus each
 * selector's match count (`selectPattern`), and where the run found no value, why (ambiguous, absent, a
 * wrong value); the constraints shown are those the wrapper file gets (the data type inferred from the
 * values, create.ts `inferType`). A field given by examples (elements picked on one or more pages) is
 * learned by `createFromExamples`, the learner of `gabarit wrapper create --example`, again from all its
 * examples whenever it is previewed or saved, so that its wrapper pattern (selector, label or rank,
 * tree-grams of the example pages) is the one the command line makes from the same values. An adaptation
 * is `runWrapper` and `updateWrapper`, each adapted pattern's stored subtree paired node by node with the
 * one found (match/mapping.ts `gramMapping`).
 */
import type { Tree } from '../html/tree.ts';
import { cssPath, cssPathWithin } from '../html/paths.ts';
import { createFromExamples, createWrapper, inferType, type ExampleChoice, type ExamplePage, type PatternSpec } from '../wrapper/create.ts';
import { gramMapping } from '../wrapper/match/mapping.ts';
import { declaredUrl, runWrapper, selectPattern, updateWrapper, type PatternReport, type RecordValue, type WrapperRecord } from '../wrapper/run.ts';
import { suggestPattern } from '../wrapper/suggest.ts';
import { valueOf } from '../wrapper/value.ts';
import type { GramInstance } from '../wrapper/tree-gram.ts';
import { allPatterns, parseWrapper, resolveSettings, validateWrapper, WRAPPER_VERSION, type Constraints, type Pattern, type Wrapper } from '../wrapper/wrapper.ts';
import { NodeKind } from '../html/tree.ts';
import { GabaritError } from '../errors.ts';
import type { AdaptReport, ExampleDraft, LearnRequest, LearnResponse, NotFoundFlag, OutlineNode, PatternDraft, PatternPreview, PreviewResponse, Suggestion, WrapperText } from './api.ts';

/** A request the designer cannot do (a pattern nested under a missing one, a node that is no element). */
export class DesignError extends GabaritError {}

/** Characters of an outline node's text, of a suggestion's text. */
const TEXT_CHARS = 80;
/** Nodes of a found subtree shown in the adaptation view. */
const OUTLINE_NODES = 400;

/** The pages of the source: their keys and trees. */
type Pages = ReadonlyArray<{ key: string; tree: Tree }>;

function treeOf(pages: Pages, key: string): Tree {
  const p = pages.find((q) => q.key === key);
  if (!p) throw new DesignError(`no page ${key}`);
  return p.tree;
}

/** A field's pattern learned from its examples, and what the learner says of it. */
interface Learned {
  pattern: Pattern;
  choice: ExampleChoice;
}

/**
 * The pattern of field `name` learned from the elements picked as its examples (their text is the example
 * value: one per page, or some items of a list), by `createFromExamples` as `gabarit wrapper create
 * --example page:name=value` does. Throws a DesignError for a page or a node that is not one, an element
 * without text, several elements for a single value; a WrapperError when no pattern extracts the examples.
 */
export function learnField(pages: Pages, name: string, multiple: boolean, examples: readonly ExampleDraft[]): Learned {
  if (examples.length === 0) throw new DesignError(`field "${name}": no example`);
  const seen = new Set<string>();
  const given = examples.map((e): ExamplePage => {
    if (seen.has(e.key)) throw new DesignError(`field "${name}": page ${e.key} is given twice`);
    seen.add(e.key);
    const tree = treeOf(pages, e.key);
    if (!multiple && e.nodes.length !== 1) throw new DesignError(`field "${name}": a single value has one example per page, not ${e.nodes.length} (on ${e.key}); a list is named ${name}[]`);
    const values = e.nodes.map((n) => {
      if (n >= tree.size || tree.kind[n] !== NodeKind.Element) throw new DesignError(`node ${n} is not an element of ${e.key}`);
      const v = valueOf(tree, n, 'text');
      if (v.trim() === '') throw new DesignError(`the element picked on ${e.key} has no text: pick the element that shows the value`);
      return v;
    });
    return { tree, values: { [name]: multiple ? values : values[0]! } };
  });
  const r = createFromExamples(given);
  const pattern = r.wrapper.patterns.find((p) => p.name === name);
  const choice = r.choices.find((c) => c.name === name);
  if (!pattern || !choice) throw new DesignError(`field "${name}": no pattern extracts the examples`);
  return { pattern, choice };
}

/** `POST /api/learn`: the field learned from its examples, as a draft. */
export function learn(pages: Pages, req: LearnRequest): LearnResponse {
  const { pattern, choice } = learnField(pages, req.name, req.multiple, req.examples);
  return {
    pattern: { name: req.name, selector: pattern.selector, multiple: req.multiple, value: pattern.value ?? 'text', parent: null, examples: req.examples },
    pages: choice.pages,
    examplePages: choice.examplePages,
    label: choice.label ?? null,
    rank: choice.rank ?? null,
  };
}

/**
 * The drafts with the fields given by examples learned again (their selector and value as learned), and
 * the learned patterns by name. Such a field is top level and has no nested patterns.
 */
function learnDrafts(pages: Pages, drafts: readonly PatternDraft[]): { drafts: PatternDraft[]; learned: Map<string, Learned> } {
  const learned = new Map<string, Learned>();
  const out = drafts.map((d) => {
    if (d.examples === undefined) return d;
    if (d.parent !== null) throw new DesignError(`pattern "${d.name}": a field given by examples is not nested`);
    const l = learnField(pages, d.name, d.multiple, d.examples);
    learned.set(d.name, l);
    return { ...d, selector: l.pattern.selector, value: l.pattern.value ?? 'text' };
  });
  for (const d of out) if (d.parent !== null && learned.has(d.parent)) throw new DesignError(`pattern "${d.name}": "${d.parent}" is given by examples and has no nested patterns`);
  return { drafts: out, learned };
}

/** The drafts as nested PatternSpecs (children under their parent, in order). Throws on a missing parent or a cycle. */
export function specsOf(drafts: readonly PatternDraft[], constraints: ReadonlyMap<string, Constraints> = new Map()): PatternSpec[] {
  const byName = new Map(drafts.map((d) => [d.name, d]));
  for (const d of drafts) {
    if (d.parent !== null && !byName.has(d.parent)) throw new DesignError(`pattern "${d.name}": its parent "${d.parent}" is not a pattern`);
    for (let p = d.parent, steps = 0; p !== null; p = byName.get(p)?.parent ?? null) {
      if (p === d.name || ++steps > drafts.length) throw new DesignError(`pattern "${d.name}" is nested under itself`);
    }
  }
  const build = (d: PatternDraft): PatternSpec => {
    const s: PatternSpec = { name: d.name, selector: d.selector };
    if (d.multiple) s.multiple = true;
    if (d.value !== 'text') s.value = d.value;
    const c = constraints.get(d.name);
    if (c) s.constraints = c;
    const children = drafts.filter((c) => c.parent === d.name).map(build);
    if (children.length > 0) s.children = children;
    return s;
  };
  return drafts.filter((d) => d.parent === null).map(build);
}

/** The drafts of a wrapper's patterns (flat, parents first). */
export function draftsOf(w: Wrapper): PatternDraft[] {
  return allPatterns(w).map(({ pattern: p, parent }) => ({ name: p.name, selector: p.selector, multiple: p.multiple ?? false, value: p.value ?? 'text', parent: parent?.name ?? null }));
}

/** The instances of a draft on a page: its selector inside each instance of its parent (the page at the top). */
function instances(tree: Tree, d: PatternDraft, byName: ReadonlyMap<string, PatternDraft>): number[][] {
  const scopes = d.parent === null ? [0] : instances(tree, byName.get(d.parent)!, byName).flat();
  return scopes.map((s) => selectPattern(tree, d, s));
}

/** A pattern's values in a record (under list parents: one per parent instance). */
function valuesIn(record: RecordValue | undefined, path: readonly string[]): string[] {
  if (record === null || record === undefined) return [];
  if (typeof record === 'string') return path.length === 0 ? [record] : [];
  if (Array.isArray(record)) return (record as Array<string | WrapperRecord>).flatMap((r) => valuesIn(r, path));
  if (path.length === 0) return [];
  return valuesIn(record[path[0]!], path.slice(1));
}

/** The names from the top pattern down to `d`. */
function pathOf(d: PatternDraft, byName: ReadonlyMap<string, PatternDraft>): string[] {
  const out = [d.name];
  for (let p = d.parent; p !== null; p = byName.get(p)!.parent) out.unshift(p);
  return out;
}

/** The constraints the wrapper file gets for each leaf pattern: its values' data type, when stricter than non-empty. */
export function inferredConstraints(tree: Tree, drafts: readonly PatternDraft[]): Map<string, Constraints> {
  const byName = new Map(drafts.map((d) => [d.name, d]));
  const out = new Map<string, Constraints>();
  for (const d of drafts) {
    if (drafts.some((c) => c.parent === d.name)) continue;
    const values = instances(tree, d, byName).flat().map((n) => valueOf(tree, n, d.value));
    const type = inferType(values);
    if (type !== 'non-empty') out.set(d.name, { type });
  }
  return out;
}

/** The constraints of the drafts: inferred on the page designed on, those learned for fields given by examples. */
function draftConstraints(tree: Tree, drafts: readonly PatternDraft[], learned: ReadonlyMap<string, Learned>): Map<string, Constraints> {
  const out = inferredConstraints(tree, drafts.filter((d) => !learned.has(d.name)));
  for (const [name, l] of learned) if (l.pattern.constraints) out.set(name, l.pattern.constraints);
  return out;
}

/**
 * A wrapper for previews (validated: bad names and the like are reported): the drafts without tree-grams,
 * the fields given by examples as learned.
 */
function draftWrapper(drafts: readonly PatternDraft[], constraints: ReadonlyMap<string, Constraints>, learned: ReadonlyMap<string, Learned>): Wrapper {
  const toPattern = (s: PatternSpec): Pattern => learned.get(s.name)?.pattern ?? { ...s, children: s.children?.map(toPattern) };
  return validateWrapper({ version: WRAPPER_VERSION, patterns: specsOf(drafts, constraints).map(toPattern) }, 'patterns');
}

/** Why a run found no value for a pattern (see PatternOnPage.notFound), or null when it found one. */
function notFoundFlag(rep: PatternReport | undefined): NotFoundFlag | null {
  if (rep?.step !== 'not-found') return null;
  if (rep.reason === 'ambiguous') return 'ambiguous';
  return rep.matched === 0 ? 'absent' : 'wrong-value';
}

/** The drafts on every page (see the module comment); `key` is the page designed on. */
export function preview(pages: Pages, key: string, given: readonly PatternDraft[]): PreviewResponse {
  const home = treeOf(pages, key);
  if (given.length === 0) return { patterns: [], problem: null };
  let drafts: PatternDraft[];
  let learned: Map<string, Learned>;
  let constraints: Map<string, Constraints>;
  let wrapper: Wrapper;
  try {
    ({ drafts, learned } = learnDrafts(pages, given));
    constraints = draftConstraints(home, drafts, learned);
    wrapper = draftWrapper(drafts, constraints, learned);
  } catch (err) {
    if (!(err instanceof GabaritError)) throw err;
    return { patterns: [], problem: err.message };
  }
  const byName = new Map(drafts.map((d) => [d.name, d]));
  const out: PatternPreview[] = drafts.map((d) => ({ name: d.name, selector: d.selector, thisPage: 0, nodes: [], otherPages: { matched: 0, total: pages.length - 1, elements: 0 }, constraints: { ...(d.multiple ? {} : { maxOccurs: 1 }), minOccurs: 1, type: constraints.get(d.name)?.type ?? 'non-empty' }, perPage: [], warnings: [] }));
  for (const page of pages) {
    const run = runWrapper(wrapper, page.tree, page.key, { noAdapt: true });
    const reports = new Map(run.reports.map((r) => [r.pattern, r]));
    drafts.forEach((d, k) => {
      const per = instances(page.tree, d, byName);
      const matches = per.reduce((a, s) => a + s.length, 0);
      const o = out[k]!;
      if (page.key === key) {
        o.thisPage = matches;
        o.nodes = per.flat();
      } else if (matches > 0) {
        o.otherPages.matched++;
        o.otherPages.elements += matches;
      }
      const rep = reports.get(d.name);
      o.perPage.push({
        key: page.key,
        matches,
        values: valuesIn(run.record as RecordValue, pathOf(d, byName)),
        problem: rep && rep.step === 'not-found' ? rep.violations.join('; ') || 'not found' : '',
        notFound: notFoundFlag(rep),
        example: d.examples?.some((e) => e.key === page.key) ?? false,
      });
    });
  }
  for (const o of out) {
    const where = o.perPage.filter((p) => p.notFound === 'ambiguous').map((p) => p.key);
    const fix = learned.has(o.name) ? 'add an example on one of them' : `make it a list (${o.name}[]) or pick a more specific element`;
    if (where.length > 0) o.warnings.push(`ambiguous: a single-value pattern matches several elements that nothing tells apart on ${where.length} page(s) (${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''}); ${fix}`);
    const missing = o.perPage.filter((p) => p.matches === 0).length;
    if (missing > 0) o.warnings.push(`matches nothing on ${missing} of ${pages.length} pages`);
    const choice = learned.get(o.name)?.choice;
    if (choice && choice.pages < choice.examplePages) o.warnings.push(`extracts the examples on ${choice.pages} of its ${choice.examplePages} example pages`);
  }
  return { patterns: out, problem: null };
}

/**
 * A selector for the element at `node` (or the element holding a clicked text): the most robust one the
 * wrapper library proposes (suggest.ts: anchored on ids and classes before positions), relative to the
 * parent pattern's instance holding it when nested.
 */
export function suggest(tree: Tree, node: number, parent: string | null, drafts: readonly PatternDraft[]): Suggestion {
  let el = node;
  while (el > 0 && tree.kind[el] !== NodeKind.Element) el = tree.parent[el]!;
  if (el <= 0) throw new DesignError(`node ${node} is not in an element`);
  const byName = new Map(drafts.map((d) => [d.name, d]));
  let scope = 0;
  if (parent !== null) {
    const p = byName.get(parent);
    if (!p) throw new DesignError(`no pattern "${parent}" to nest under`);
    scope = instances(tree, p, byName).flat().find((i) => i < el && el < tree.end[i]!) ?? -1;
    if (scope < 0) throw new DesignError(`the element is not inside an instance of "${parent}"`);
  }
  const best = suggestPattern(tree, el, { value: 'text', ...(scope > 0 ? { scope } : {}) });
  const selector = best?.selector ?? (scope > 0 ? cssPathWithin(tree, el, scope) : cssPath(tree, el));
  const draft: PatternDraft = { name: '_', selector, multiple: false, value: 'text', parent };
  const matches = instances(tree, draft, byName).reduce((a, s) => a + s.length, 0);
  const text = valueOf(tree, el, 'text');
  return { selector, matches, text: text.length > TEXT_CHARS ? text.slice(0, TEXT_CHARS) + '…' : text, attributes: Object.fromEntries(tree.attrs(el)) };
}

/**
 * The wrapper file for the drafts (the JSON `gabarit wrapper create` writes): the patterns given by selector
 * built on page `key`, the fields given by examples learned from their example pages.
 */
export function create(pages: Pages, key: string, name: string, given: readonly PatternDraft[]): WrapperText {
  const tree = treeOf(pages, key);
  const { drafts, learned } = learnDrafts(pages, given);
  const plain = drafts.filter((d) => !learned.has(d.name));
  const options = { source: key, ...(name ? { name } : {}) };
  const built = plain.length > 0 ? createWrapper(tree, specsOf(plain, inferredConstraints(tree, plain)), options) : null;
  const url = built ? undefined : declaredUrl(tree);
  const base = built ?? { version: WRAPPER_VERSION, ...options, ...(url !== undefined ? { url } : {}) };
  const patterns = drafts.filter((d) => d.parent === null).map((d) => learned.get(d.name)?.pattern ?? built!.patterns.find((p) => p.name === d.name)!);
  const w = validateWrapper({ ...base, patterns });
  return { text: wrapperText(w), patterns: draftsOf(w), name: w.name ?? '' };
}

/** A wrapper file's text as `gabarit wrapper create` writes it. */
export function wrapperText(w: Wrapper): string {
  return JSON.stringify(w, null, 1) + '\n';
}

/** A wrapper file read back (validated), with its drafts. */
export function load(text: string, file: string): WrapperText & { wrapper: Wrapper } {
  const w = parseWrapper(text, file);
  return { wrapper: w, text: wrapperText(w), patterns: draftsOf(w), name: w.name ?? '' };
}

/** A stored instance as an outline. */
function gramOutline(inst: GramInstance): OutlineNode[] {
  const depth: number[] = [];
  return inst.tags.map((tag, k) => {
    const p = inst.parents[k]!;
    depth[k] = p < 0 ? 0 : depth[p]! + 1;
    const n: OutlineNode = { depth: depth[k]!, tag };
    if (inst.ids[k]) n.id = inst.ids[k];
    if (inst.classes[k]) n.cls = inst.classes[k];
    if (inst.texts[k]) n.text = inst.texts[k]!.slice(0, TEXT_CHARS);
    return n;
  });
}

/** The page nodes of a compared subtree as an outline (`nodes[k]`: the page node of index k). */
function pageOutline(tree: Tree, nodes: ArrayLike<number>, depths: ArrayLike<number>): OutlineNode[] {
  const out: OutlineNode[] = [];
  for (let k = 0; k < Math.min(nodes.length, OUTLINE_NODES); k++) {
    const i = nodes[k]!;
    if (tree.kind[i] === NodeKind.Text) {
      out.push({ depth: depths[k]!, tag: '#text', text: tree.nodeText(i).replace(/\s+/g, ' ').trim().slice(0, TEXT_CHARS) });
      continue;
    }
    const n: OutlineNode = { depth: depths[k]!, tag: tree.tag(i) };
    const id = tree.attr(i, 'id');
    if (id) n.id = id;
    const cls = tree.attr(i, 'class')?.trim();
    if (cls) n.cls = cls;
    out.push(n);
  }
  return out;
}

/** Runs a wrapper on a page and explains each pattern (see the module comment). */
export function adaptPage(wrapper: Wrapper, tree: Tree, page: string): { ok: boolean; adapted: boolean; reports: AdaptReport[]; updated: string | null } {
  const run = runWrapper(wrapper, tree, page);
  const patterns = new Map(allPatterns(wrapper).map(({ pattern }) => [pattern.name, pattern]));
  const drafts = draftsOf(wrapper);
  const byName = new Map(drafts.map((d) => [d.name, d]));
  const flags = resolveSettings(wrapper).labels;
  const reports = run.reports.map((r): AdaptReport => {
    const p = patterns.get(r.pattern);
    const d = byName.get(r.pattern);
    const nodes = run.found.get(r.pattern) ?? (d && r.step === 'selector' ? instances(tree, d, byName).flat() : []);
    let old: OutlineNode[] | null = null;
    let found: OutlineNode[] | null = null;
    let links: Array<[number, number]> = [];
    const first = nodes[0];
    if (p?.treeGram && p.treeGram.instances.length > 0) {
      const m = first !== undefined ? gramMapping(p.treeGram, tree, first, flags) : null;
      old = gramOutline(p.treeGram.instances[m?.instance ?? 0]!);
      if (m) {
        found = pageOutline(tree, m.found.node, m.found.depth);
        links = m.pairs.filter(([, j]) => j < OUTLINE_NODES);
      }
    }
    const value = d ? valuesIn(run.record as RecordValue, pathOf(d, byName)) : [];
    return {
      pattern: r.pattern,
      step: r.step,
      view: r.view ?? null,
      similarity: r.similarity,
      selector: r.selector,
      newSelector: r.newSelector ?? null,
      violations: r.violations,
      cause: r.cause ?? [],
      instances: r.instances,
      trigger: r.trigger ?? null,
      value: d && drafts.some((c) => c.parent === d.name) ? null : d?.multiple ? value : (value[0] ?? null),
      nodes,
      old,
      found,
      links,
    };
  });
  return { ok: run.ok, adapted: run.adapted, reports, updated: run.adapted ? wrapperText(updateWrapper(wrapper, run, tree)) : null };
}
