/**
 * Running a wrapper on a page (paper 5, Section 4 and Figure 2, execution time): each pattern's selector
 * is evaluated inside its parent's instance (the page for top-level patterns); values are extracted and
 * the integrity constraints checked; where one fails, the pattern is adapted (adapt.ts) and the result
 * checked again. Triggers:
 *  - top-down: once a pattern was adapted, its child patterns are adapted inside the new instances too
 *    (their selectors may still match inside the new instance, but the tree-grams decide); when that
 *    finds nothing above the threshold, a child's selector result is kept if it satisfies its constraints;
 *  - bottom-up: when a child pattern can be found neither by selector nor by adaptation, the parent
 *    pattern is adapted (excluding its current instances) and the children are tried again inside the
 *    new instances; kept only when it fixes the children.
 * Every pattern gets a report per page: which step found its data (selector / ctm / stm / bigram / jw /
 * string / document / not-found), with what similarity, how many elements the selector matched, the
 * constraints that failed, the new selector, and when not found why (NotFoundReason). A pattern that could
 * not be adapted is `not-found` with its value null (never a silent wrong answer); several matches of a
 * pattern are told apart by its label, then its block's rank (`choose`, label.ts), then adaptation among
 * those left; a single pattern whose selector matches several elements with different values is
 * `ambiguous` unless these tell them apart (adapt.ts: the ambiguity rule); a value labelled otherwise
 * than the examples is a violation; several matches with one value are that value (`collapseRepeats`).
 * `updateWrapper` applies successful adaptations to a wrapper (selectors, tree-grams, history).
 */
import { selectAll } from '../html/select.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { evaluateXPath } from '../html/xpath.ts';
import { registrableDomain } from '../site/links.ts';
import { adapt, type Step, type View } from './adapt.ts';
import { childViolations, occurrenceBounds, occurrenceViolations, valueViolations } from './constraints.ts';
import { GRAM_INSTANCES, MAX_HISTORY } from './defaults.ts';
import { otherLabel, tellApart } from './label.ts';
import { instanceText, makeTreeGram } from './tree-gram.ts';
import { sameWords, selectLabel, valueOf } from './value.ts';
import { isXPath, looksLikeXPath, resolveSettings, thresholdsFor, WrapperError, type Pattern, type ResolvedSettings, type Wrapper } from './wrapper.ts';

/**
 * Why a pattern was not found on a page (a reason code, for reports and tools; `violations` says it in words):
 *  - `ambiguous`: candidates about equally similar to the tree-gram (AMBIGUITY_MARGIN), or several
 *    instances of a single pattern that nothing tells apart: the wrapper does not guess between them;
 *  - `not-similar`: no candidate reached the threshold (the data is not on the page, or changed beyond it);
 *  - `wrong-value`: candidates reached the threshold but their values break the constraints (data type,
 *    regular expression, the label of an `after` pattern);
 *  - `not-adapted`: the constraints failed and adaptation was off or impossible (no tree-gram).
 */
export type NotFoundReason = 'ambiguous' | 'not-similar' | 'wrong-value' | 'not-adapted';

/** The report of one pattern on one page (for a nested pattern: over all its parent's instances). */
export interface PatternReport {
  pattern: string;
  step: Step;
  /** When not found: why (see NotFoundReason). */
  reason?: NotFoundReason;
  /** Elements the wrapper's selector matched on the page (inside the parent's instances), before any adaptation. */
  matched: number;
  /** When ambiguous by adaptation: the selector and similarity of the runner-up it could not be told from. */
  rival?: { selector: string; similarity: number };
  /** Similarity of what adaptation found (null when the selector did); when not found, the best seen. */
  similarity: number | null;
  /** The view adaptation compared on (element labels, or the content view; absent for the selector). */
  view?: View;
  /** When not found and the content view was tried: the best similarity it saw. */
  contentSimilarity?: number;
  /** When not found and the document view was tried: the best similarity it saw. */
  documentSimilarity?: number;
  /** The selector in the wrapper. */
  selector: string;
  /** The selector generated for what adaptation found (absent when the selector did). */
  newSelector?: string;
  /** When not found: the constraint violations that remain (the selector's, adaptation found nothing better); else []. */
  violations: string[];
  /**
   * When adapted: the constraint violations of the selector's result that started the adaptation (what
   * adaptation found breaks none of them); absent when a trigger alone started it.
   */
  cause?: string[];
  instances: number;
  /**
   * When the selector matched several elements and the pattern's evidence (`choose`, label.ts) kept
   * the instance(s): what decided, its label or its block's rank.
   */
  chosenBy?: 'label' | 'rank';
  /** Set when a trigger caused this adaptation. */
  trigger?: 'top-down' | 'bottom-up';
}

/** A record: pattern name → value (string), list of values, nested record(s), or null when not found. */
export type RecordValue = string | null | string[] | WrapperRecord | WrapperRecord[];
export interface WrapperRecord {
  [pattern: string]: RecordValue;
}

/** The result of a wrapper on one page. */
export interface PageRun {
  page: string;
  record: WrapperRecord;
  reports: PatternReport[];
  /** True when every pattern was found (by selector or adaptation). */
  ok: boolean;
  /** True when some pattern needed adaptation. */
  adapted: boolean;
  /** Per adapted pattern: the page nodes found (for `updateWrapper`). */
  found: Map<string, number[]>;
  /** The page is on the wrapper's site (the document view may run there). */
  sameSite: boolean;
}

/** Options of a run. */
export interface RunOptions {
  /** Settings overriding the wrapper's (e.g. the evaluation forces one algorithm). */
  settings?: Partial<ResolvedSettings>;
  /** Never adapt (plain selector extraction). */
  noAdapt?: boolean;
  /**
   * The page's address (URL). Default: `page` when it is an http(s) URL, else the page's own canonical
   * link or og:url. Compared with the wrapper's `url` to tell whether the page is on the wrapper's site
   * (the document view only looks there).
   */
  url?: string;
}

/**
 * Evaluates a pattern's selector inside `scope` (0: the page). Throws a WrapperError naming the pattern
 * (when it has a name) and the selector when the selector is not valid: an invalid selector is an error,
 * never "no instance".
 */
export function selectPattern(tree: Tree, p: Pick<Pattern, 'selector' | 'xpath'> & { name?: string }, scope: number): number[] {
  try {
    if (isXPath(p)) {
      const label = selectLabel(tree, p.selector, scope);
      if (label) return label;
      const got = evaluateXPath(tree, p.selector, scope);
      return scope > 0 ? got.filter((n) => n > scope && n < tree.end[scope]!) : got;
    }
    return selectAll(tree, p.selector, scope);
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new WrapperError(`${p.name !== undefined ? `pattern "${p.name}": ` : ''}${(e as Error).message}`);
  }
}

interface Ctx {
  tree: Tree;
  settings: ResolvedSettings;
  noAdapt: boolean;
  reports: Map<string, PatternReport>;
  /** Pattern names in the order they were first evaluated (parents before children). */
  order: string[];
  found: Map<string, number[]>;
  sameSite: boolean;
}

/** The address a page gives itself: its canonical link, else its og:url (absolute http(s) only). */
export function declaredUrl(tree: Tree): string | undefined {
  let og: string | undefined;
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] !== NodeKind.Element) continue;
    const tag = tree.tag(i);
    if (tag === 'body') break;
    if (tag === 'link' && /(^|\s)canonical(\s|$)/i.test(tree.attr(i, 'rel') ?? '')) {
      const href = webUrl(tree.attr(i, 'href'));
      if (href) return href;
    } else if (tag === 'meta' && og === undefined && tree.attr(i, 'property') === 'og:url') og = webUrl(tree.attr(i, 'content'));
  }
  return og;
}

/** `s` as an absolute http(s) URL (normalised by URL), or undefined. */
function webUrl(s: string | undefined): string | undefined {
  if (!s || !/^\s*https?:\/\//i.test(s)) return undefined;
  try {
    return new URL(s.trim()).href;
  } catch {
    return undefined;
  }
}

/** True when the page (its address, see RunOptions.url) is on the registrable domain of the wrapper's `url`. */
export function onWrapperSite(wrapper: Pick<Wrapper, 'url'>, tree: Tree, page: string, url?: string): boolean {
  if (!wrapper.url) return false;
  const address = url ?? (/^https?:\/\//i.test(page) ? page : declaredUrl(tree));
  if (!address) return false;
  const a = registrableDomain(wrapper.url);
  return a !== null && a === registrableDomain(address);
}

/** Runs a wrapper on one parsed page. */
export function runWrapper(wrapper: Wrapper, tree: Tree, page: string, options: RunOptions = {}): PageRun {
  const settings = { ...resolveSettings(wrapper), ...(options.settings ?? {}) };
  // A threshold given for the run without per-algorithm ones applies to every algorithm.
  if (options.settings?.threshold !== undefined && options.settings.thresholds === undefined) settings.thresholds = thresholdsFor(options.settings.threshold);
  const sameSite = onWrapperSite(wrapper, tree, page, options.url);
  const ctx: Ctx = { tree, settings, noAdapt: options.noAdapt ?? false, reports: new Map(), order: [], found: new Map(), sameSite };
  const record: WrapperRecord = {};
  for (const p of wrapper.patterns) record[p.name] = evalPattern(ctx, p, 0, false, null).value;
  const reports = ctx.order.map((n) => ctx.reports.get(n)).filter((r): r is PatternReport => r !== undefined);
  return {
    page,
    record,
    reports,
    ok: reports.every((r) => r.step !== 'not-found'),
    adapted: reports.some((r) => r.step !== 'selector'),
    found: ctx.found,
    sameSite,
  };
}

interface Eval {
  value: RecordValue;
  nodes: number[];
  /** True when this pattern or a descendant ended not-found. */
  failed: boolean;
}

function report(ctx: Ctx, p: Pattern, r: Omit<PatternReport, 'pattern' | 'selector'>): void {
  const prev = ctx.reports.get(p.name);
  // Over several parent instances, keep the worst outcome (not-found beats adapted beats selector).
  const rank = (s: Step): number => (s === 'not-found' ? 2 : s === 'selector' ? 0 : 1);
  if (prev) {
    prev.instances += r.instances;
    if (rank(r.step) < rank(prev.step)) return;
    if (rank(r.step) === rank(prev.step) && (prev.similarity ?? 1) <= (r.similarity ?? 1)) return;
    const instances = prev.instances;
    Object.assign(prev, r, { instances });
    return;
  }
  ctx.reports.set(p.name, { pattern: p.name, selector: p.selector, ...r });
}

/** Violations of a candidate instance set (occurrences and values; children are checked after). */
function violations(ctx: Ctx, p: Pattern, nodes: readonly number[]): string[] {
  const v = occurrenceViolations(nodes.length, p.constraints, p.multiple ?? false);
  if (v.length > 0) return v;
  if (p.children && p.children.length > 0) return []; // a record's value is its children's
  const out = valueViolations(nodes.map((n) => valueOf(ctx.tree, n, p.value)), p.constraints);
  // A value labelled otherwise than the examples is another field's (label.ts).
  for (const n of nodes) {
    const other = otherLabel(ctx.tree, p.choose, n);
    if (other !== null) {
      out.push(`its label is ${JSON.stringify(other)}, not ${JSON.stringify(p.choose!.label)}`);
      break;
    }
  }
  return out;
}

/**
 * Whether adaptation may return `nodes` for `p`: their values hold the constraints and, for a label
 * pattern (`after`), each is the same label (its words are a stored instance's): a label is known by its
 * words, and any other label of the same shape would give another field's value.
 */
function acceptable(ctx: Ctx, p: Pattern, nodes: readonly number[]): boolean {
  if (violations(ctx, p, nodes).length > 0) return false;
  if (p.value !== 'after') return true;
  const labels = (p.treeGram?.instances ?? []).map((g) => g.text);
  return nodes.every((n) => labels.some((l) => sameWords(instanceText(ctx.tree, n), l)));
}

/**
 * The instances of a single field pattern (no children) that matched more often than it may, when they
 * all give the same value (a block the page repeats, such as the same details under each of its tabs):
 * the first one stands for them, since there is one value and nothing to choose. Otherwise `nodes`.
 */
export function collapseRepeats(tree: Tree, p: Pick<Pattern, 'multiple' | 'children' | 'constraints' | 'value'>, nodes: number[]): number[] {
  if (nodes.length < 2 || (p.children && p.children.length > 0) || nodes.length <= occurrenceBounds(p.constraints, p.multiple ?? false).max) return nodes;
  const norm = (n: number): string => valueOf(tree, n, p.value).replace(/\s+/g, ' ').trim();
  const first = norm(nodes[0]!);
  return nodes.every((n) => norm(n) === first) ? [nodes[0]!] : nodes;
}

/** True when a single pattern's selector matched several instances (nothing tells them apart). */
function tooMany(p: Pattern, nodes: readonly number[]): boolean {
  return occurrenceBounds(p.constraints, p.multiple ?? false).max < nodes.length;
}

function evalPattern(ctx: Ctx, p: Pattern, scope: number, forced: boolean, exclude: ReadonlySet<number> | null): Eval {
  const multiple = p.multiple ?? false;
  const leaf = !p.children || p.children.length === 0;
  if (!ctx.order.includes(p.name)) ctx.order.push(p.name);
  const matched = selectPattern(ctx.tree, p, scope).filter((n) => !exclude?.has(n));
  let selected = collapseRepeats(ctx.tree, p, matched);
  // Several matches: the pattern's label, then its block's rank, tell them apart (label.ts); when they
  // leave several, adaptation (the tree-gram) chooses among those only.
  let chosenBy: PatternReport['chosenBy'];
  let among: Set<number> | null = null;
  if (leaf && p.choose && selected.length > 1) {
    const told = tellApart(ctx.tree, p.choose, selected);
    if (told.by !== null && (told.by === 'label' || !multiple)) {
      selected = told.nodes;
      chosenBy = told.by;
      if (!multiple && told.nodes.length > 1) among = new Set(told.nodes);
    }
  }
  const selViolations = violations(ctx, p, selected);
  let nodes = selected;
  let step: Step = 'selector';
  let similarity: number | null = null;
  let reason: NotFoundReason | undefined;
  let rival: PatternReport['rival'];
  let view: View | undefined;
  let contentSimilarity: number | undefined;
  let documentSimilarity: number | undefined;
  let newSelector: string | undefined;
  let trigger: PatternReport['trigger'];
  const canAdapt = !ctx.noAdapt && p.treeGram !== undefined && p.treeGram.instances.length > 0;
  if ((selViolations.length > 0 || (forced && canAdapt)) && canAdapt) {
    const a = adapt(ctx.tree, scope, p.treeGram!, ctx.settings, {
      multiple,
      accept: (ns) => (among === null || ns.every((n) => among!.has(n))) && acceptable(ctx, p, ns),
      identityText: p.value === 'after',
      ...(leaf ? { sameData: (x: number, y: number) => collapseRepeats(ctx.tree, p, [x, y]).length === 1 } : {}),
      sameSite: ctx.sameSite,
      ...(exclude ? { exclude } : {}),
    });
    if (a.step !== 'not-found') {
      nodes = a.nodes;
      step = a.step;
      similarity = a.similarity;
      view = a.view;
      if (!sameNodes(a.nodes, selected)) newSelector = a.selector;
      if (forced) trigger = 'top-down';
    } else if (selViolations.length > 0) {
      nodes = [];
      step = 'not-found';
      similarity = a.similarity;
      reason = a.reason ?? 'not-similar';
      if (a.rival) rival = a.rival;
      contentSimilarity = a.contentSimilarity;
      documentSimilarity = a.documentSimilarity;
    } // forced but nothing above the threshold: the selector's (valid) result stands
  } else if (selViolations.length > 0) {
    nodes = [];
    step = 'not-found';
    reason = tooMany(p, selected) ? 'ambiguous' : 'not-adapted';
  }
  const adapted = step !== 'selector' && step !== 'not-found';
  // Children inside each instance (top-down trigger when this pattern was adapted).
  let value: RecordValue;
  let failed = step === 'not-found';
  const finish = (): Eval => {
    const r: Omit<PatternReport, 'pattern' | 'selector'> = { step, similarity, violations: step === 'not-found' ? selViolations : [], instances: nodes.length, matched: matched.length };
    if (adapted && selViolations.length > 0) r.cause = selViolations;
    if (chosenBy !== undefined && step === 'selector') r.chosenBy = chosenBy;
    if (reason !== undefined) r.reason = reason;
    if (rival !== undefined) r.rival = rival;
    if (newSelector !== undefined) r.newSelector = newSelector;
    if (trigger !== undefined) r.trigger = trigger;
    if (view !== undefined) r.view = view;
    if (contentSimilarity !== undefined) r.contentSimilarity = contentSimilarity;
    if (documentSimilarity !== undefined) r.documentSimilarity = documentSimilarity;
    report(ctx, p, r);
    if (adapted) ctx.found.set(p.name, nodes);
    return { value, nodes, failed };
  };
  if (!p.children || p.children.length === 0) {
    const values = nodes.map((n) => valueOf(ctx.tree, n, p.value));
    value = step === 'not-found' ? null : multiple ? values : (values[0] ?? null);
    return finish();
  }
  const topDown = adapted && ctx.settings.triggers.topDown;
  let records = nodes.map((n) => evalChildren(ctx, p, n, topDown));
  if (records.some((r) => r.failed) && !adapted && ctx.settings.triggers.bottomUp && canAdapt) {
    // Bottom-up: the parent's instances may be wrong although its constraints hold; adapt it, retry.
    const a = adapt(ctx.tree, scope, p.treeGram!, ctx.settings, { multiple, exclude: new Set(nodes), accept: (ns) => acceptable(ctx, p, ns), sameSite: ctx.sameSite });
    if (a.step !== 'not-found') {
      const retry = a.nodes.map((n) => evalChildren(ctx, p, n, ctx.settings.triggers.topDown));
      if (!retry.some((r) => r.failed)) {
        records = retry;
        nodes = a.nodes;
        step = a.step;
        similarity = a.similarity;
        view = a.view;
        newSelector = a.selector;
        trigger = 'bottom-up';
        ctx.found.set(p.name, nodes);
      }
    }
  }
  failed = failed || records.some((r) => r.failed);
  value = step === 'not-found' ? null : multiple ? records.map((r) => r.record) : (records[0]?.record ?? null);
  return finish();
}

function evalChildren(ctx: Ctx, p: Pattern, instance: number, forced: boolean): { record: WrapperRecord; failed: boolean } {
  const record: WrapperRecord = {};
  let failed = false;
  let count = 0;
  for (const c of p.children ?? []) {
    const e = evalPattern(ctx, c, instance, forced, null);
    record[c.name] = e.value;
    failed ||= e.failed;
    count += e.nodes.length;
  }
  if (childViolations(count, p.constraints).length > 0) failed = true;
  return { record, failed };
}

function sameNodes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/**
 * Applies a run's successful adaptations to the wrapper (Section 4: "whether stored tree-grams and XPath
 * statements are updated"): each adapted pattern gets its new selector and, when `settings.update`, a
 * tree-gram of what was found; every change is appended to the history. Returns a new wrapper.
 */
export function updateWrapper(wrapper: Wrapper, run: PageRun, tree: Tree, date = new Date().toISOString()): Wrapper {
  const w = structuredClone(wrapper);
  const settings = resolveSettings(w);
  const history = w.history ?? [];
  const byName = new Map(run.reports.map((r) => [r.pattern, r]));
  const visit = (ps: Pattern[]): void => {
    for (const p of ps) {
      const r = byName.get(p.name);
      const nodes = run.found.get(p.name);
      if (r && r.newSelector && nodes && r.step !== 'selector' && r.step !== 'not-found') {
        history.push({ date, page: run.page, pattern: p.name, from: p.selector, to: r.newSelector, step: r.step, similarity: r.similarity ?? 0 });
        p.selector = r.newSelector;
        if (looksLikeXPath(r.newSelector)) p.xpath = true;
        else delete p.xpath;
        if (settings.update) p.treeGram = makeTreeGram(tree, nodes, GRAM_INSTANCES);
      }
      if (p.children) visit(p.children);
    }
  };
  visit(w.patterns);
  w.history = history.slice(-MAX_HISTORY);
  return w;
}
