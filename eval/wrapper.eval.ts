/**
 * Evaluation of the self-healing wrappers (paper 5; issue 7), three parts, each for CTM, STM and the
 * tree bigram and Jaro–Winkler variants (one algorithm at a time):
 *
 * 1. Real changes (versions/ota-*): for each document, a wrapper is built with its oldest selector on the
 *    first snapshot where that selector matches, then run on every later snapshot without updating it.
 *    Gold per snapshot: the text under the old selector while it matches; where it fails, the text under
 *    the newest declaration's selector that matches; no gold when none matches (counted apart). Scores:
 *    word F1 per snapshot, and the paper's tp / fp / fn over the changed snapshots (old selector fails,
 *    gold exists): tp = found with word F1 >= OTA_TP_F1, fp = found with lower F1, fn = not found.
 *    GitHub is the control: its selector never broke, so any adaptation there is counted as a failure.
 *    Range selections (Open Terms Archive `startBefore`/`endBefore` between siblings) become an XPath
 *    list pattern: the start element and its following siblings before the end element.
 * 2. Synthetic mutations over corpus site pages (see mutations in this file's second half).
 * 3. Records (records/swde-book-booksamillion): a wrapper is created from the gold values of the first
 *    RECORD_EXAMPLES pages (create.ts, from examples) and run on the others; an attribute of a page is
 *    right when the extracted value's words equal the gold values' words (no value for a <NULL> gold).
 */
import { goldContainers, listSites, listVersions, loadRecords, readTree, type OtaDocument, type OtaSelect } from '../src/eval/corpus.ts';
import { contentScore, mean, words } from '../src/eval/metrics.ts';
import { parseHtml } from '../src/html/parse.ts';
import { NodeKind, VOID_TAGS, type Tree } from '../src/html/tree.ts';
import { escapeAttr, escapeText } from '../src/html/serialize.ts';
import { adapt } from '../src/wrapper/adapt.ts';
import { createFromExamples, createWrapper, type PatternSpec } from '../src/wrapper/create.ts';
import type { AlgorithmName } from '../src/wrapper/defaults.ts';
import { WRAPPER_DEFAULTS } from '../src/wrapper/defaults.ts';
import { runWrapper, selectPattern, valueOf } from '../src/wrapper/run.ts';
import { instanceText, makeTreeGram } from '../src/wrapper/tree-gram.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';

const ALGORITHMS: readonly AlgorithmName[] = ['ctm', 'stm', 'bigram', 'jw'];
/** Configurations of the real-change evaluation: each algorithm alone, then the default ladder. */
const OTA_CONFIGS: ReadonlyArray<readonly AlgorithmName[]> = [...ALGORITHMS.map((a) => [a]), WRAPPER_DEFAULTS.algorithms];
/** Word F1 above which an adapted extraction counts as a true positive. */
const OTA_TP_F1 = 0.9;
/** Example pages a records wrapper is created from (the issue: 3). */
const RECORD_EXAMPLES = 3;
/** Thresholds of the sweep over the real changes (the paper's scenarios use 40%–90%, Table 1). */
const SWEEP = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

// ---------------------------------------------------------------------------------------------------------
// 1. Real changes

/** An OTA select as a wrapper pattern spec (null when it cannot be one). */
function otaPattern(select: OtaSelect): PatternSpec | null {
  const items = Array.isArray(select) ? select : [select];
  const parts: string[] = [];
  let xpath = false;
  for (const it of items as ReadonlyArray<string | Record<string, string>>) {
    if (typeof it === 'string') parts.push(it);
    else if (it['startBefore']?.startsWith('#') && it['endBefore']?.startsWith('#')) {
      const a = it['startBefore'].slice(1);
      const b = it['endBefore'].slice(1);
      parts.push(`//*[@id='${a}'] | //*[@id='${a}']/following-sibling::*[following-sibling::*[@id='${b}']]`);
      xpath = true;
    } else return null;
  }
  if (xpath && parts.length > 1) return null;
  // A range is a list of siblings; a CSS selection is one container (a list when it matches several).
  return { name: 'content', selector: parts.join(', '), ...(xpath ? { xpath: true, multiple: true } : {}) };
}

function textUnder(tree: Tree, p: PatternSpec): string | null {
  const nodes = selectPattern(tree, p, 0);
  return nodes.length === 0 ? null : nodes.map((n) => instanceText(tree, n)).join('\n');
}

interface SnapshotScore {
  date: string;
  changed: boolean;
  gold: boolean;
  step: string;
  similarity: number | null;
  f1: number | null;
}

interface OtaRow {
  doc: string;
  /** The algorithm, or the ladder 'ctm>stm>bigram>jw'. */
  algorithm: string;
  control: boolean;
  snapshots: number;
  unchanged: number;
  changed: number;
  noGold: number;
  adaptedNoGold: number;
  tp: number;
  fp: number;
  fn: number;
  adaptationsOnControl: number;
  meanF1: number;
  perSnapshot: SnapshotScore[];
  /** tp / fp / fn over the changed snapshots at each threshold of SWEEP. */
  sweep: Record<string, { tp: number; fp: number; fn: number }>;
}

function evaluateOta(doc: OtaDocument, trees: Map<string, Tree>, algorithms: readonly AlgorithmName[]): OtaRow | null {
  const algorithm = algorithms.join('>');
  const old = otaPattern(doc.declarations[0]!.select);
  if (!old) return null;
  const newer = doc.declarations.slice(1).map((d) => otaPattern(d.select)).filter((p): p is PatternSpec => p !== null).reverse();
  const tree = (path: string): Tree => {
    let t = trees.get(path);
    if (!t) trees.set(path, (t = readTree(path)));
    return t;
  };
  const start = doc.snapshots.findIndex((s) => selectPattern(tree(s.path), old, 0).length > 0);
  if (start < 0) return null;
  const startTree = tree(doc.snapshots[start]!.path);
  if (selectPattern(startTree, old, 0).length > 1) old.multiple = true;
  const wrapper = createWrapper(startTree, [old], { adaptation: { algorithms: [...algorithms] } });
  const control = doc.service === 'GitHub';
  const row: OtaRow = { doc: doc.name, algorithm, control, snapshots: 0, unchanged: 0, changed: 0, noGold: 0, adaptedNoGold: 0, tp: 0, fp: 0, fn: 0, adaptationsOnControl: 0, meanF1: 0, perSnapshot: [], sweep: Object.fromEntries(SWEEP.map((x) => [String(x), { tp: 0, fp: 0, fn: 0 }])) };
  const f1s: number[] = [];
  for (const s of doc.snapshots.slice(start + 1)) {
    const t = tree(s.path);
    row.snapshots++;
    const oldText = textUnder(t, old);
    let gold = oldText;
    if (gold === null) for (const p of newer) if ((gold = textUnder(t, p)) !== null) break;
    const r = runWrapper(wrapper, t, s.path);
    const rep = r.reports[0]!;
    const v = r.record['content'];
    const extracted = Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
    const changed = oldText === null;
    if (control && rep.step !== 'selector') row.adaptationsOnControl++;
    const score: SnapshotScore = { date: s.date, changed, gold: gold !== null, step: rep.step, similarity: rep.similarity, f1: null };
    if (gold === null) {
      row.noGold++;
      if (rep.step !== 'not-found') row.adaptedNoGold++;
    } else {
      const f1 = rep.step === 'not-found' ? 0 : contentScore(extracted.join('\n'), gold).f1;
      score.f1 = f1;
      f1s.push(f1);
      if (changed) {
        for (const threshold of SWEEP) {
          const rt = runWrapper(wrapper, t, s.path, { settings: { threshold } });
          const vt = rt.record['content'];
          const et = Array.isArray(vt) ? (vt as string[]) : typeof vt === 'string' ? [vt] : [];
          const cell = row.sweep[String(threshold)]!;
          if (rt.reports[0]!.step === 'not-found') cell.fn++;
          else if (contentScore(et.join('\n'), gold).f1 >= OTA_TP_F1) cell.tp++;
          else cell.fp++;
        }
        row.changed++;
        if (rep.step === 'not-found') row.fn++;
        else if (f1 >= OTA_TP_F1) row.tp++;
        else row.fp++;
      } else row.unchanged++;
    }
    row.perSnapshot.push(score);
  }
  row.meanF1 = mean(f1s);
  return row;
}

function prfOf(tp: number, fp: number, fn: number): { precision: number; recall: number; f: number } {
  const precision = tp + fp > 0 ? tp / (tp + fp) : 1;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 1;
  return { precision, recall, f: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

// ---------------------------------------------------------------------------------------------------------
// 3. Records

interface RecordRow {
  algorithm: AlgorithmName;
  attribute: string;
  pages: number;
  right: number;
  accuracy: number;
  meanF1: number;
  adapted: number;
}

function sameWordList(a: string, b: string): boolean {
  const x = words(a);
  const y = words(b);
  return x.length === y.length && x.every((w, k) => w === y[k]);
}

function evaluateRecords(): { rows: RecordRow[]; missing: string[]; selectors: Record<string, string> } {
  const set = loadRecords().find((r) => r.name === 'swde-book-booksamillion');
  if (!set) return { rows: [], missing: [], selectors: {} };
  const trees = set.pages.map((p) => readTree(p.path));
  const examples = set.pages.slice(0, RECORD_EXAMPLES).map((p, k) => ({
    tree: trees[k]!,
    values: Object.fromEntries(set.attributes.map((a) => [a, p.values[a] ?? []])),
  }));
  const created = createFromExamples(examples, { source: set.name });
  const selectors = Object.fromEntries(created.wrapper.patterns.map((p) => [p.name, p.selector]));
  const rows: RecordRow[] = [];
  for (const algorithm of ALGORITHMS) {
    const w = { ...created.wrapper, adaptation: { algorithms: [algorithm] } };
    const stats = new Map<string, { right: number; f1: number[]; adapted: number; pages: number }>();
    for (const a of set.attributes) stats.set(a, { right: 0, f1: [], adapted: 0, pages: 0 });
    for (let k = RECORD_EXAMPLES; k < set.pages.length; k++) {
      const page = set.pages[k]!;
      const r = runWrapper(w, trees[k]!, page.id);
      for (const a of set.attributes) {
        const st = stats.get(a)!;
        st.pages++;
        const v = r.record[a];
        const got = Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : '';
        const gold = (page.values[a] ?? []).join(' ');
        const rep = r.reports.find((x) => x.pattern === a);
        if (rep && rep.step !== 'selector') st.adapted++;
        if (sameWordList(got, gold) || (words(gold).length === 0 && words(got).length === 0)) st.right++;
        st.f1.push(contentScore(got, gold).f1);
      }
    }
    for (const [attribute, st] of stats) rows.push({ algorithm, attribute, pages: st.pages, right: st.right, accuracy: st.right / Math.max(1, st.pages), meanF1: mean(st.f1), adapted: st.adapted });
  }
  return { rows, missing: created.missing, selectors };
}

// ---------------------------------------------------------------------------------------------------------
// 2. Synthetic mutations

/** The mutation kinds (issue 7): each is applied alone to a page around its gold content container. */
const MUTATIONS = ['wrap', 'rename-classes', 'reorder', 'insert', 'remove-level', 'change-text'] as const;
type Mutation = (typeof MUTATIONS)[number];
/** Pages per corpus site used for the mutation benchmark (first pages with exactly one gold container). */
const MUTATION_PAGES_PER_SITE = 4;
/** Attribute marking the target element in a mutated page (not a label: labels use tag / id / class). */
const TARGET_ATTR = 'data-eval-target';

/**
 * Writes `tree` back to HTML with one mutation applied around `target` (the gold content container):
 *  - wrap: two new elements around the target; rename-classes: every class token gets a `-v2` suffix;
 *  - reorder: the element children of the target and of its parent in reverse order;
 *  - insert: an ad block before the target and a promotion block as its first child;
 *  - remove-level: the target's parent and the target's first element child with element children are
 *    replaced by their children;
 *  - change-text: every third word of the target's text replaced.
 * The target gets TARGET_ATTR so the scorer knows where it went.
 */
function mutate(tree: Tree, target: number, kind: Mutation): string {
  const parent = tree.parent[target]!;
  const unwrap = new Set<number>();
  if (kind === 'remove-level') {
    if (parent > 0 && tree.tag(parent) !== 'body' && tree.tag(parent) !== 'html') unwrap.add(parent);
    const inner = tree.elementChildren(target).find((c) => tree.elementChildren(c).length > 0);
    if (inner !== undefined) unwrap.add(inner);
  }
  const out: string[] = [];
  const write = (i: number): void => {
    const k = tree.kind[i];
    if (k === NodeKind.Text || k === NodeKind.Blank) {
      let text = tree.nodeText(i);
      if (kind === 'change-text' && tree.contains(target, i)) {
        let n = 0;
        text = text.replace(/[\p{L}\p{N}]+/gu, (w) => (++n % 3 === 0 ? 'changed' : w));
      }
      out.push(escapeText(text));
      return;
    }
    if (k === NodeKind.Comment) return;
    const kids = k === NodeKind.Document ? tree.children(i) : tree.children(i);
    if (kind === 'reorder' && (i === target || i === parent)) kids.reverse();
    if (k === NodeKind.Document) {
      for (const c of kids) write(c);
      return;
    }
    if (i === target && kind === 'insert') out.push('<div class="ad-banner"><a href="/ad"><img src="/ad.png"></a><p>Sponsored: buy the best offers of the week</p></div>');
    if (i === target && kind === 'wrap') out.push('<div class="layout-outer"><div class="layout-inner">');
    const tag = tree.tag(i);
    if (!unwrap.has(i)) {
      let attrs = '';
      for (const [n, v] of tree.attrs(i)) {
        const value = kind === 'rename-classes' && n === 'class' ? v.split(/\s+/).filter(Boolean).map((c) => c + '-v2').join(' ') : v;
        attrs += ` ${n}="${escapeAttr(value)}"`;
      }
      if (i === target) attrs += ` ${TARGET_ATTR}="1"`;
      out.push(`<${tag}${attrs}>`);
    }
    if (i === target && kind === 'insert') out.push('<section class="promo"><h3>Offer</h3><p>Subscribe to our newsletter today</p></section>');
    if (!VOID_TAGS.has(tag)) {
      for (const c of kids) write(c);
      if (!unwrap.has(i)) out.push(`</${tag}>`);
    }
    if (i === target && kind === 'wrap') out.push('</div></div>');
  };
  write(0);
  return out.join('');
}

interface MutationRow {
  mutation: Mutation;
  algorithm: AlgorithmName;
  cases: number;
  exact: number;
  found: number;
  meanF1: number;
  ms: number;
}

function evaluateMutations(): { rows: MutationRow[]; pages: number } {
  const cases: Array<{ original: Tree; target: number }> = [];
  for (const site of listSites()) {
    let taken = 0;
    for (const key of site.files()) {
      if (taken >= MUTATION_PAGES_PER_SITE) break;
      const tree = readTree(`${site.pagesDir}/${key}`);
      const gold = goldContainers(site, tree);
      if (!gold || gold.length !== 1 || tree.kind[gold[0]!] !== NodeKind.Element) continue;
      if (words(instanceText(tree, gold[0]!)).length < 20) continue;
      cases.push({ original: tree, target: gold[0]! });
      taken++;
    }
  }
  const rows: MutationRow[] = [];
  for (const kind of MUTATIONS) {
    const mutated = cases.map((c) => {
      const t = parseHtml(mutate(c.original, c.target, kind));
      let target = -1;
      for (let i = 0; i < t.size && target < 0; i++) if (t.attr(i, TARGET_ATTR) === '1') target = i;
      return { gram: makeTreeGram(c.original, [c.target], 1), tree: t, target };
    });
    for (const algorithm of ALGORITHMS) {
      let exact = 0;
      let found = 0;
      const f1s: number[] = [];
      const t0 = performance.now();
      for (const m of mutated) {
        const a = adapt(m.tree, 0, m.gram, { threshold: WRAPPER_DEFAULTS.threshold, algorithms: [algorithm], labels: WRAPPER_DEFAULTS.labels });
        if (a.step !== 'not-found') found++;
        if (a.nodes.length === 1 && a.nodes[0] === m.target) exact++;
        const got = a.nodes.map((n) => valueOf(m.tree, n)).join('\n');
        f1s.push(a.step === 'not-found' ? 0 : contentScore(got, instanceText(m.tree, m.target)).f1);
      }
      rows.push({ mutation: kind, algorithm, cases: mutated.length, exact, found, meanF1: mean(f1s), ms: (performance.now() - t0) / Math.max(1, mutated.length) });
    }
  }
  return { rows, pages: cases.length };
}

// ---------------------------------------------------------------------------------------------------------

await runEval('wrapper', async () => {
  const t0 = performance.now();
  // 1. Real changes.
  const trees = new Map<string, Tree>();
  const ota: OtaRow[] = [];
  for (const v of listVersions()) {
    if (v.kind !== 'ota') continue;
    for (const config of OTA_CONFIGS) {
      const row = evaluateOta(v, trees, config);
      if (row) ota.push(row);
    }
  }
  const otaTable: string[][] = ota.map((r) => [
    r.doc.replace(/^ota-/, ''),
    r.algorithm,
    String(r.snapshots),
    String(r.unchanged),
    String(r.changed),
    String(r.noGold),
    String(r.tp),
    String(r.fp),
    String(r.fn),
    r.control ? String(r.adaptationsOnControl) : '—',
    fmt(r.meanF1),
  ]);
  process.stdout.write('Real changes (Open Terms Archive snapshots; tp/fp/fn over snapshots where the old selector fails)\n');
  process.stdout.write(formatTable(['document', 'alg', 'snaps', 'unchanged', 'changed', 'no gold', 'tp', 'fp', 'fn', 'ctrl adapt', 'mean F1'], otaTable) + '\n\n');
  const totals: Record<string, { tp: number; fp: number; fn: number; precision: number; recall: number; f: number; controlAdaptations: number; meanF1: number }> = {};
  const totalRows: string[][] = [];
  for (const algorithm of OTA_CONFIGS.map((c) => c.join('>'))) {
    const rs = ota.filter((r) => r.algorithm === algorithm);
    const tp = rs.reduce((s, r) => s + r.tp, 0);
    const fp = rs.reduce((s, r) => s + r.fp, 0);
    const fn = rs.reduce((s, r) => s + r.fn, 0);
    const ctrl = rs.reduce((s, r) => s + r.adaptationsOnControl, 0);
    const q = prfOf(tp, fp, fn);
    totals[algorithm] = { tp, fp, fn, ...q, controlAdaptations: ctrl, meanF1: mean(rs.flatMap((r) => r.perSnapshot.filter((x) => x.f1 !== null).map((x) => x.f1!))) };
    totalRows.push([algorithm, String(tp), String(fp), String(fn), fmt(q.precision), fmt(q.recall), fmt(q.f), String(ctrl), fmt(totals[algorithm]!.meanF1)]);
  }
  process.stdout.write(formatTable(['algorithm', 'tp', 'fp', 'fn', 'precision', 'recall', 'F-measure', 'control adaptations', 'mean word F1'], totalRows) + '\n\n');
  const sweep: Record<string, Record<string, { tp: number; fp: number; fn: number; f: number }>> = {};
  const sweepRows: string[][] = [];
  for (const algorithm of OTA_CONFIGS.map((c) => c.join('>'))) {
    sweep[algorithm] = {};
    const cells: string[] = [algorithm];
    for (const th of SWEEP) {
      const rs = ota.filter((r) => r.algorithm === algorithm).map((r) => r.sweep[String(th)]!);
      const tp = rs.reduce((x, r) => x + r.tp, 0);
      const fp = rs.reduce((x, r) => x + r.fp, 0);
      const fn = rs.reduce((x, r) => x + r.fn, 0);
      const f = prfOf(tp, fp, fn).f;
      sweep[algorithm]![String(th)] = { tp, fp, fn, f };
      cells.push(`${fmt(f, 2)} (${tp}/${fp}/${fn})`);
    }
    sweepRows.push(cells);
  }
  process.stdout.write('F-measure (tp/fp/fn) on the real changes by threshold\n');
  process.stdout.write(formatTable(['algorithm', ...SWEEP.map(String)], sweepRows) + '\n\n');

  // 2. Mutations.
  const mut = evaluateMutations();
  process.stdout.write(`Synthetic mutations (${mut.pages} corpus site pages; the gold content container is the pattern)\n`);
  process.stdout.write(
    formatTable(
      ['mutation', 'alg', 'cases', 'exact', 'found', 'mean F1', 'ms/adapt'],
      mut.rows.map((r) => [r.mutation, r.algorithm, String(r.cases), fmt(r.exact / Math.max(1, r.cases)), fmt(r.found / Math.max(1, r.cases)), fmt(r.meanF1), r.ms.toFixed(1)]),
    ) + '\n\n',
  );

  // 3. Records.
  const rec = evaluateRecords();
  process.stdout.write(`Records (swde-book-booksamillion; wrapper from the gold values of ${RECORD_EXAMPLES} pages)\n`);
  if (rec.missing.length) process.stdout.write(`attributes not found on the example pages: ${rec.missing.join(', ')}\n`);
  process.stdout.write(Object.entries(rec.selectors).map(([a, s]) => `  ${a}: ${s}`).join('\n') + '\n');
  process.stdout.write(
    formatTable(
      ['algorithm', 'attribute', 'pages', 'right', 'accuracy', 'mean F1', 'adapted'],
      rec.rows.map((r) => [r.algorithm, r.attribute, String(r.pages), String(r.right), fmt(r.accuracy), fmt(r.meanF1), String(r.adapted)]),
    ) + '\n',
  );
  const recordAccuracy: Record<string, number> = {};
  for (const algorithm of ALGORITHMS) {
    const rs = rec.rows.filter((r) => r.algorithm === algorithm);
    recordAccuracy[algorithm] = rs.reduce((s, r) => s + r.right, 0) / Math.max(1, rs.reduce((s, r) => s + r.pages, 0));
  }
  process.stdout.write(`attribute accuracy: ${ALGORITHMS.map((a) => `${a} ${fmt(recordAccuracy[a])}`).join(', ')}\n`);

  const headline: Record<string, number | null> = {};
  for (const a of Object.keys(totals)) headline[`ota ${a} F`] = totals[a]!.f;
  headline['ota control adaptations'] = totals['ctm']!.controlAdaptations;
  headline['swde ctm accuracy'] = recordAccuracy['ctm']!;
  for (const a of ALGORITHMS) headline[`mutations ${a} exact`] = mean(mut.rows.filter((r) => r.algorithm === a).map((r) => r.exact / Math.max(1, r.cases)));
  const path = writeResults('wrapper', headline, { ota: { totals, sweep, rows: ota }, mutations: mut, records: rec, seconds: (performance.now() - t0) / 1000 });
  process.stdout.write(`results: ${path}\n`);
});
