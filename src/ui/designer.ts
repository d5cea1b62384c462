/**
 * The wrapper designer's and the adaptation view's requests, over the wrapper library (src/wrapper/):
 * the designer's flat pattern drafts become the nested PatternSpecs of `createWrapper`; a preview is the
 * wrapper run without adaptation (`runWrapper` with `noAdapt`) on every page of the source, plus each
 * selector's match count (`selectPattern`); the constraints shown are those the wrapper file gets (the data
 * type inferred from the values, create.ts `inferType`); an adaptation is `runWrapper` and
 * `updateWrapper`, each adapted pattern's stored subtree paired node by node with the one found
 * (match/mapping.ts `gramMapping`).
 */
import type { Tree } from '../html/tree.ts';
import { cssPath, cssPathWithin } from '../html/paths.ts';
import { createWrapper, inferType, type PatternSpec } from '../wrapper/create.ts';
import { gramMapping } from '../wrapper/match/mapping.ts';
import { runWrapper, selectPattern, updateWrapper, type RecordValue, type WrapperRecord } from '../wrapper/run.ts';
import { suggestPattern } from '../wrapper/suggest.ts';
import { valueOf } from '../wrapper/value.ts';
import type { GramInstance } from '../wrapper/tree-gram.ts';
import { allPatterns, parseWrapper, resolveSettings, validateWrapper, type Constraints, type Pattern, type Wrapper } from '../wrapper/wrapper.ts';
import { NodeKind } from '../html/tree.ts';
import { GabaritError } from '../errors.ts';
import type { AdaptReport, OutlineNode, PatternDraft, PatternPreview, PreviewResponse, Suggestion, WrapperText } from './api.ts';

/** A request the designer cannot do (a pattern nested under a missing one, a node that is no element). */
export class DesignError extends GabaritError {}

/** Characters of an outline node's text, of a suggestion's text. */
const TEXT_CHARS = 80;
/** Nodes of a found subtree shown in the adaptation view. */
const OUTLINE_NODES = 400;

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

/** A wrapper without tree-grams, for previews (validated: bad names and the like are reported). */
function draftWrapper(drafts: readonly PatternDraft[], constraints: ReadonlyMap<string, Constraints>): Wrapper {
  const toPattern = (s: PatternSpec): Pattern => ({ ...s, children: s.children?.map(toPattern) });
  return validateWrapper({ version: 1, patterns: specsOf(drafts, constraints).map(toPattern) }, 'patterns');
}

/** The drafts on every page (see the module comment); `key` is the page designed on. */
export function preview(pages: ReadonlyArray<{ key: string; tree: Tree }>, key: string, drafts: readonly PatternDraft[]): PreviewResponse {
  const home = pages.find((p) => p.key === key);
  if (!home) throw new DesignError(`no page ${key}`);
  if (drafts.length === 0) return { patterns: [], problem: null };
  const constraints = inferredConstraints(home.tree, drafts);
  let wrapper: Wrapper;
  try {
    wrapper = draftWrapper(drafts, constraints);
  } catch (err) {
    return { patterns: [], problem: (err as Error).message };
  }
  const byName = new Map(drafts.map((d) => [d.name, d]));
  const out: PatternPreview[] = drafts.map((d) => ({ name: d.name, selector: d.selector, thisPage: 0, nodes: [], otherPages: { matched: 0, total: pages.length - 1, elements: 0 }, constraints: { ...(d.multiple ? {} : { maxOccurs: 1 }), minOccurs: 1, type: constraints.get(d.name)?.type ?? 'non-empty' }, perPage: [], warnings: [] }));
  const ambiguous = new Map<string, string[]>();
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
      if (!d.multiple && per.some((s) => s.length > 1)) ambiguous.set(d.name, [...(ambiguous.get(d.name) ?? []), page.key]);
      const rep = reports.get(d.name);
      o.perPage.push({ key: page.key, matches, values: valuesIn(run.record as RecordValue, pathOf(d, byName)), problem: rep && rep.step === 'not-found' ? rep.violations.join('; ') || 'not found' : '' });
    });
  }
  for (const o of out) {
    const where = ambiguous.get(o.name);
    if (where) o.warnings.push(`ambiguous: a single-value pattern matches several elements on ${where.length} page(s) (${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''}); make it a list (${o.name}[]) or pick a more specific element`);
    const missing = o.perPage.filter((p) => p.matches === 0).length;
    if (missing > 0) o.warnings.push(`matches nothing on ${missing} of ${pages.length} pages`);
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

/** The wrapper file for the drafts, built on page `tree` (the JSON `gabarit wrapper create` writes). */
export function create(tree: Tree, page: string, name: string, drafts: readonly PatternDraft[]): WrapperText {
  const specs = specsOf(drafts, inferredConstraints(tree, drafts));
  const w = createWrapper(tree, specs, { source: page, ...(name ? { name } : {}) });
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
