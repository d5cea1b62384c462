/**
 * Evaluation of the self-healing wrappers (paper 5), three parts, each for CTM, STM and the
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
 * 3. Records by example (eval/wrapper-records.ts): the values of one page given as examples, the wrapper
 *    run on every other page of the source, from several training pages: SWDE booksamillion (its ground
 *    truth), the demo shop's product pages and the stackoverflow question pages (gold by reference
 *    selectors). Per field: right, wrong value, not found; the mean and the worst over training pages.
 * The ambiguity rule (defaults.ts ambiguityMargin) is measured on the real changes: how many outcomes it
 * made ambiguous, and the tally with the rule off.
 */
import { declarationAt, goldContainers, listSites, listVersions, readTree, type OtaDocument, type OtaSelect } from '../src/eval/corpus.ts';
import { contentScore, mean, words } from '../src/eval/metrics.ts';
import { parseHtml } from '../src/html/parse.ts';
import { NodeKind, VOID_TAGS, type Tree } from '../src/html/tree.ts';
import { escapeAttr, escapeText } from '../src/html/serialize.ts';
import { adapt } from '../src/wrapper/adapt.ts';
import { createWrapper, type PatternSpec } from '../src/wrapper/create.ts';
import type { AlgorithmName } from '../src/wrapper/defaults.ts';
import { DOCUMENT_MIN_WORDS, WRAPPER_DEFAULTS } from '../src/wrapper/defaults.ts';
import { runWrapper, selectPattern } from '../src/wrapper/run.ts';
import { valueOf } from '../src/wrapper/value.ts';
import { resolveSettings, type Wrapper } from '../src/wrapper/wrapper.ts';
import { textOf } from '../src/html/text.ts';
import { existsSync, readFileSync } from 'node:fs';
import { gramTree, instanceText, makeTreeGram } from '../src/wrapper/tree-gram.ts';
import { clusteredTreeMatching } from '../src/wrapper/match/clustered.ts';
import { stmSimilarity } from '../src/wrapper/match/simple.ts';
import { blockCtm, gramBlocks, pageBlocks, WordSpace } from '../src/wrapper/match/blocks.ts';
import { fromTree, LabelSpace } from '../src/wrapper/match/labelled-tree.ts';
import { fmt, formatTable, runEval, writeResults } from './harness.ts';
import { BUILT_SOURCES, builtSource, evaluateSource, swdeSource, totalsOf, type RecordSource, type SourceResult } from './wrapper-records.ts';

const ALGORITHMS: readonly AlgorithmName[] = ['ctm', 'stm', 'bigram', 'jw'];
/** One configuration of the real-change evaluation: the algorithms in order, and whether the content view follows. */
interface OtaConfig {
  label: string;
  algorithms: readonly AlgorithmName[];
  content: boolean;
  /** Node-label flags (paper 5, Section 4); default: the wrapper defaults (tag only). */
  labels?: { tag: boolean; id: boolean; class: boolean };
  /** Whether the document view (match/document.ts) follows the content view; default false. */
  document?: boolean;
}
/** CTM on element labels under each node-label flag setting (Section 4, "flags of the chosen algorithm"). */
const LABEL_CONFIGS: readonly OtaConfig[] = [
  { label: 'ctm/tags tag+id', algorithms: ['ctm'], content: false, labels: { tag: true, id: true, class: false } },
  { label: 'ctm/tags tag+class', algorithms: ['ctm'], content: false, labels: { tag: true, id: false, class: true } },
  { label: 'ctm/tags tag+id+class', algorithms: ['ctm'], content: false, labels: { tag: true, id: true, class: true } },
  { label: 'ctm tag+id+class', algorithms: ['ctm'], content: true, labels: { tag: true, id: true, class: true } },
];
/**
 * Each algorithm on element labels only (the paper's setting: 'ctm/tags' is Algorithm 1 as published),
 * each algorithm with the content view after it, and the default ladder.
 */
/** The label of the default configuration (the algorithms in order, then the content and document views). */
const DEFAULT_LADDER = WRAPPER_DEFAULTS.algorithms.join('>');
const OTA_CONFIGS: readonly OtaConfig[] = [
  ...ALGORITHMS.map((a) => ({ label: `${a}/tags`, algorithms: [a], content: false })),
  ...ALGORITHMS.map((a) => ({ label: a, algorithms: [a], content: true })),
  { label: 'ctm+document', algorithms: ['ctm'], content: true, document: true },
  { label: WRAPPER_DEFAULTS.algorithms.join('>'), algorithms: WRAPPER_DEFAULTS.algorithms, content: true, document: true },
];
/** Ambiguity margins swept (defaults.ts ambiguityMargin); -1 turns the rule off. */
const MARGIN_SWEEP = [-1, 0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3];
/** Word F1 above which an adapted extraction counts as a true positive. */
const OTA_TP_F1 = 0.9;
/** Thresholds of the sweep over the real changes (the paper's scenarios use 40%–90%, Table 1). */
const SWEEP = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
/** Content-view thresholds swept (changed snapshots and impostors; defaults.ts contentThreshold). */
const CONTENT_SWEEP = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5];
/** Document-view thresholds swept (changed snapshots, same-site other documents, impostors as if on the site). */
const DOCUMENT_SWEEP = [0.4, 0.45, 0.5, 0.55, 0.57, 0.6, 0.65, 0.7];
/**
 * A snapshot without a selector gold whose OTA version text (versions/*.md in force at its date) has at
 * most this share of its words on the page: the document is not on this page (a placeholder, a page the
 * browser never rendered), and the only right answer is "could not adapt".
 */
const CONTENT_ABSENT_RECALL = 0.5;

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
  // A range is an XPath over siblings. Either kind is one container, or a list when it matches several
  // elements on the snapshot the wrapper is built on (evaluateOta).
  return { name: 'content', selector: parts.join(', '), ...(xpath ? { xpath: true } : {}) };
}

function textUnder(tree: Tree, p: PatternSpec): string | null {
  const nodes = selectPattern(tree, p, 0);
  return nodes.length === 0 ? null : nodes.map((n) => instanceText(tree, n)).join('\n');
}

interface SnapshotScore {
  date: string;
  changed: boolean;
  /**
   * The document had moved: OTA fetched it from another URL at this date than when the wrapper was built
   * (declarations' `fetch`). A wrapper is bound to a page; such snapshots are another page.
   */
  moved: boolean;
  gold: boolean;
  step: string;
  view: string | null;
  similarity: number | null;
  contentSimilarity: number | null;
  f1: number | null;
  /** No selector gold: word F1 against the OTA version text in force (null when not adapted or gold exists). */
  versionF1: number | null;
  /** No selector gold: true when the document's text is not on the page (CONTENT_ABSENT_RECALL). */
  contentAbsent: boolean | null;
}

interface OtaRow {
  doc: string;
  /** The configuration's label. */
  algorithm: string;
  control: boolean;
  snapshots: number;
  unchanged: number;
  changed: number;
  noGold: number;
  adaptedNoGold: number;
  /** No-gold snapshots where the content is on the page / absent, and how many of each were adapted. */
  noGoldPresent: number;
  noGoldPresentAdapted: number;
  noGoldAbsent: number;
  noGoldAbsentAdapted: number;
  tp: number;
  fp: number;
  fn: number;
  adaptationsOnControl: number;
  meanF1: number;
  /** Mean word F1 over the changed snapshots alone (0 for a miss). */
  changedF1: number;
  perSnapshot: SnapshotScore[];
  /** tp / fp / fn over the changed snapshots at each threshold of SWEEP. */
  sweep: Record<string, { tp: number; fp: number; fn: number }>;
  /** tp / fp / fn over the changed snapshots at each content threshold of CONTENT_SWEEP. */
  contentSweep: Record<string, { tp: number; fp: number; fn: number }>;
  /** At each document threshold of DOCUMENT_SWEEP (configurations with the document view). */
  documentSweep: Record<string, { tp: number; fp: number; fn: number }>;
  /** Snapshots with a gold where the pattern was not found as ambiguous (defaults.ts ambiguityMargin). */
  ambiguous: number;
  /** tp / fp / fn over the changed snapshots with the ambiguity rule off (what the rule costs or saves). */
  ruleOff: { tp: number; fp: number; fn: number };
  /** The default ladder only: tp / fp / fn over the changed snapshots at each margin of MARGIN_SWEEP. */
  marginSweep: Record<string, { tp: number; fp: number; fn: number }>;
}

function extractedOf(r: ReturnType<typeof runWrapper>): string {
  const v = r.record['content'];
  const extracted = Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
  return extracted.join('\n');
}

/** The wrapper of an OTA document: its oldest selector on the first snapshot where it matches. */
function otaWrapper(doc: OtaDocument, tree: (path: string) => Tree, config: OtaConfig): { wrapper: Wrapper; old: PatternSpec; start: number } | null {
  const old = otaPattern(doc.declarations[0]!.select);
  if (!old) return null;
  const start = doc.snapshots.findIndex((s) => selectPattern(tree(s.path), old, 0).length > 0);
  if (start < 0) return null;
  const startTree = tree(doc.snapshots[start]!.path);
  if (selectPattern(startTree, old, 0).length > 1) old.multiple = true;
  const wrapper = createWrapper(startTree, [old], {
    url: fetchAt(doc, doc.snapshots[start]!.date),
    adaptation: { algorithms: [...config.algorithms], content: config.content, document: config.document ?? false, ...(config.labels ? { labels: config.labels } : {}) },
  });
  return { wrapper, old, start };
}

/**
 * The address OTA fetched a snapshot from (the declaration in force at its date): the page's URL, which a
 * run is given (the document view only looks on the wrapper's own site).
 */
function fetchAt(doc: OtaDocument, date: string): string {
  return declarationAt(doc, date)?.fetch ?? doc.declarations[doc.declarations.length - 1]!.fetch;
}

function versionTextAt(doc: OtaDocument, date: string): string | null {
  let v: string | null = null;
  for (const x of doc.versions) if (x.date <= date) v = x.path;
  return v === null ? null : readFileSync(v, 'utf8');
}

function evaluateOta(doc: OtaDocument, tree: (path: string) => Tree, config: OtaConfig): OtaRow | null {
  const built = otaWrapper(doc, tree, config);
  if (!built) return null;
  const { wrapper, old, start } = built;
  const newer = doc.declarations.slice(1).map((d) => otaPattern(d.select)).filter((p): p is PatternSpec => p !== null).reverse();
  const control = doc.service === 'GitHub';
  const row: OtaRow = {
    doc: doc.name, algorithm: config.label, control, snapshots: 0, unchanged: 0, changed: 0, noGold: 0, adaptedNoGold: 0,
    noGoldPresent: 0, noGoldPresentAdapted: 0, noGoldAbsent: 0, noGoldAbsentAdapted: 0,
    tp: 0, fp: 0, fn: 0, adaptationsOnControl: 0, meanF1: 0, changedF1: 0, perSnapshot: [],
    sweep: Object.fromEntries(SWEEP.map((x) => [String(x), { tp: 0, fp: 0, fn: 0 }])),
    contentSweep: Object.fromEntries(CONTENT_SWEEP.map((x) => [String(x), { tp: 0, fp: 0, fn: 0 }])),
    documentSweep: Object.fromEntries(DOCUMENT_SWEEP.map((x) => [String(x), { tp: 0, fp: 0, fn: 0 }])),
    ambiguous: 0,
    ruleOff: { tp: 0, fp: 0, fn: 0 },
    marginSweep: Object.fromEntries(MARGIN_SWEEP.map((x) => [String(x), { tp: 0, fp: 0, fn: 0 }])),
  };
  const f1s: number[] = [];
  const changedF1s: number[] = [];
  const builtFrom = declarationAt(doc, doc.snapshots[start]!.date)?.fetch;
  for (const s of doc.snapshots.slice(start + 1)) {
    const t = tree(s.path);
    row.snapshots++;
    const oldText = textUnder(t, old);
    let gold = oldText;
    if (gold === null) for (const p of newer) if ((gold = textUnder(t, p)) !== null) break;
    const url = fetchAt(doc, s.date);
    const r = runWrapper(wrapper, t, s.path, { url });
    const rep = r.reports[0]!;
    const extracted = extractedOf(r);
    const changed = oldText === null;
    if (control && rep.step !== 'selector') row.adaptationsOnControl++;
    const score: SnapshotScore = {
      date: s.date, changed, moved: declarationAt(doc, s.date)?.fetch !== builtFrom, gold: gold !== null, step: rep.step, view: rep.view ?? null, similarity: rep.similarity,
      contentSimilarity: rep.contentSimilarity ?? null, f1: null, versionF1: null, contentAbsent: null,
    };
    if (gold === null) {
      row.noGold++;
      const adapted = rep.step !== 'not-found';
      if (adapted) row.adaptedNoGold++;
      const version = versionTextAt(doc, s.date);
      const absent = version === null || contentScore(textOf(t, 0), version).recall <= CONTENT_ABSENT_RECALL;
      score.contentAbsent = absent;
      if (absent) {
        row.noGoldAbsent++;
        if (adapted) row.noGoldAbsentAdapted++;
      } else {
        row.noGoldPresent++;
        if (adapted) row.noGoldPresentAdapted++;
      }
      if (adapted && version !== null) score.versionF1 = contentScore(extracted, version).f1;
    } else {
      if (rep.reason === 'ambiguous') row.ambiguous++;
      const f1 = rep.step === 'not-found' ? 0 : contentScore(extracted, gold).f1;
      score.f1 = f1;
      f1s.push(f1);
      if (changed) {
        changedF1s.push(f1);
        const tally = (cell: { tp: number; fp: number; fn: number }, rt: ReturnType<typeof runWrapper>): void => {
          if (rt.reports[0]!.step === 'not-found') cell.fn++;
          else if (contentScore(extractedOf(rt), gold).f1 >= OTA_TP_F1) cell.tp++;
          else cell.fp++;
        };
        for (const threshold of SWEEP) tally(row.sweep[String(threshold)]!, runWrapper(wrapper, t, s.path, { url, settings: { threshold } }));
        // The ambiguity rule off: no runner-up can come within a margin of -1.
        tally(row.ruleOff, runWrapper(wrapper, t, s.path, { url, settings: { ambiguityMargin: -1 } }));
        if (config.label === DEFAULT_LADDER) for (const m of MARGIN_SWEEP) tally(row.marginSweep[String(m)]!, runWrapper(wrapper, t, s.path, { url, settings: { ambiguityMargin: m } }));
        if (config.content) for (const contentThreshold of CONTENT_SWEEP) tally(row.contentSweep[String(contentThreshold)]!, runWrapper(wrapper, t, s.path, { url, settings: { contentThreshold } }));
        if (config.document) for (const documentThreshold of DOCUMENT_SWEEP) tally(row.documentSweep[String(documentThreshold)]!, runWrapper(wrapper, t, s.path, { url, settings: { documentThreshold } }));
        row.changed++;
        if (rep.step === 'not-found') row.fn++;
        else if (f1 >= OTA_TP_F1) row.tp++;
        else row.fp++;
      } else row.unchanged++;
    }
    row.perSnapshot.push(score);
  }
  row.meanF1 = mean(f1s);
  row.changedF1 = mean(changedF1s);
  return row;
}

/**
 * Impostors: each document's wrapper run on snapshots of the other documents (first, middle and last),
 * where its selector fails and its document is not on the page. Any adaptation there is a false positive;
 * the best similarity each view saw is what the thresholds must stay above.
 */
interface ImpostorResult {
  runs: number;
  adapted: number;
  /**
   * Document-view configurations: adaptations when the same runs are told the page is on the wrapper's
   * own site (what the site check alone prevents; not a failure, a measurement of the guard).
   */
  adaptedAsSameSite: number;
  asSameSiteCases: Array<{ wrapper: string; page: string; similarity: number }>;
  asSameSiteSweep: Record<string, number>;
  /** Adaptations at each (element-label) threshold of SWEEP, the same for every algorithm. */
  sweep: Record<string, number>;
  cases: Array<{ wrapper: string; page: string; step: string; view: string | null; similarity: number | null; contentSimilarity: number | null }>;
  /** Adaptations at each content threshold of CONTENT_SWEEP (ctm with the content view). */
  contentSweep: Record<string, number>;
}

function evaluateImpostors(docs: readonly OtaDocument[], tree: (path: string) => Tree, config: OtaConfig): ImpostorResult {
  const out: ImpostorResult = { runs: 0, adapted: 0, adaptedAsSameSite: 0, asSameSiteCases: [], asSameSiteSweep: Object.fromEntries(DOCUMENT_SWEEP.map((x) => [String(x), 0])), sweep: Object.fromEntries(SWEEP.map((x) => [String(x), 0])), cases: [], contentSweep: Object.fromEntries(CONTENT_SWEEP.map((x) => [String(x), 0])) };
  for (const d of docs) {
    const built = otaWrapper(d, tree, config);
    if (!built) continue;
    for (const e of docs) {
      if (e === d) continue;
      const picks = [...new Set([0, Math.floor(e.snapshots.length / 2), e.snapshots.length - 1])].map((k) => e.snapshots[k]!);
      for (const s of picks) {
        const t = tree(s.path);
        if (selectPattern(t, built.old, 0).length > 0) continue;
        const url = fetchAt(e, s.date);
        const r = runWrapper(built.wrapper, t, s.path, { url });
        const rep = r.reports[0]!;
        out.runs++;
        // What the site check guards: the same run as if the page were on the wrapper's own site.
        if (config.document) {
          const as = runWrapper(built.wrapper, t, s.path, { url: built.wrapper.url! }).reports[0]!;
          if (as.step !== 'not-found') {
            out.adaptedAsSameSite++;
            out.asSameSiteCases.push({ wrapper: d.name, page: `${e.name}/${s.date}`, similarity: as.similarity ?? 0 });
          }
          for (const documentThreshold of DOCUMENT_SWEEP)
            if (runWrapper(built.wrapper, t, s.path, { url: built.wrapper.url!, settings: { documentThreshold } }).reports[0]!.step !== 'not-found') out.asSameSiteSweep[String(documentThreshold)]!++;
        }
        if (rep.step !== 'not-found') out.adapted++;
        out.cases.push({ wrapper: d.name, page: `${e.name}/${s.date}`, step: rep.step, view: rep.view ?? null, similarity: rep.similarity, contentSimilarity: rep.contentSimilarity ?? null });
        for (const threshold of SWEEP) if (runWrapper(built.wrapper, t, s.path, { url, settings: { threshold } }).reports[0]!.step !== 'not-found') out.sweep[String(threshold)]!++;
        if (config.content)
          for (const contentThreshold of CONTENT_SWEEP)
            if (runWrapper(built.wrapper, t, s.path, { url, settings: { contentThreshold } }).reports[0]!.step !== 'not-found') out.contentSweep[String(contentThreshold)]!++;
      }
    }
  }
  return out;
}

/**
 * Same site, another document (the document view's hard negatives): for each OTA document, the service's
 * other documents (declaration.json and its history) that were on the page the wrapper was built on get a
 * wrapper of their own there (same configuration and site), and it is run on every later snapshot of the
 * document where its own selector fails: the page is on its site, often with a document of the same genre,
 * but not its document, so any adaptation is a false positive. On this corpus that is Coffee Meets Bagel,
 * whose old page held its terms, privacy and copyright policies, run on the moved terms page.
 */
interface SameSiteResult {
  rows: Array<{ doc: string; other: string; runs: number; adapted: number; bestDocumentSimilarity: number; title: string; sweep: Record<string, number> }>;
}

function evaluateSameSiteOthers(docs: readonly OtaDocument[], tree: (path: string) => Tree, config: OtaConfig): SameSiteResult {
  const rows: SameSiteResult['rows'] = [];
  for (const d of docs) {
    const built = otaWrapper(d, tree, config);
    if (!built) continue;
    const buildTree = tree(d.snapshots[built.start]!.path);
    const own = selectPattern(buildTree, built.old, 0);
    const current = JSON.parse(readFileSync(`${d.dir}/declaration.json`, 'utf8')) as { terms: Record<string, { select: OtaSelect }> };
    const historyFile = `${d.dir}/declaration.history.json`;
    const history = (existsSync(historyFile) ? JSON.parse(readFileSync(historyFile, 'utf8')) : {}) as Record<string, Array<{ select: OtaSelect }>>;
    for (const name of new Set([...Object.keys(current.terms), ...Object.keys(history)])) {
      if (name === d.document) continue;
      const selects = [current.terms[name]?.select, ...(history[name] ?? []).map((h) => h.select)].filter((x): x is OtaSelect => x !== undefined);
      for (const select of selects) {
        const p = otaPattern(select);
        if (!p || selectPattern(buildTree, p, 0).length === 0) continue;
        // Not the document's own element (Parship's documents all select `.main`), nor one around or inside it.
        const nodes = selectPattern(buildTree, p, 0);
        if (nodes.some((n) => own.some((o) => n === o || buildTree.contains(n, o) || buildTree.contains(o, n)))) continue;
        if (selectPattern(buildTree, p, 0).length > 1) p.multiple = true;
        const w = createWrapper(buildTree, [p], { url: built.wrapper.url!, adaptation: built.wrapper.adaptation! });
        const row = { doc: d.name, other: name, runs: 0, adapted: 0, bestDocumentSimilarity: 0, title: w.patterns[0]!.treeGram!.instances[0]!.title ?? '', sweep: Object.fromEntries(DOCUMENT_SWEEP.map((x) => [String(x), 0])) };
        for (const s of d.snapshots.slice(built.start + 1)) {
          const t = tree(s.path);
          if (selectPattern(t, p, 0).length > 0) continue;
          const rep = runWrapper(w, t, s.path, { url: fetchAt(d, s.date) }).reports[0]!;
          row.runs++;
          for (const documentThreshold of DOCUMENT_SWEEP)
            if (runWrapper(w, t, s.path, { url: fetchAt(d, s.date), settings: { documentThreshold } }).reports[0]!.step !== 'not-found') row.sweep[String(documentThreshold)]!++;
          if (rep.step !== 'not-found') row.adapted++;
          row.bestDocumentSimilarity = Math.max(row.bestDocumentSimilarity, rep.documentSimilarity ?? (rep.view === 'document' ? rep.similarity ?? 0 : 0));
        }
        rows.push(row);
        break;
      }
    }
  }
  return { rows };
}

/**
 * The document view alone on other pages of the same site (sites/): on each site, the gold content of up
 * to DOCUMENT_PAGES_PER_SITE pages that are documents (one container of at least DOCUMENT_MIN_WORDS words
 * with a heading) becomes a tree-gram, and the document view (no other step) looks for it on every other
 * such page of the site, told that the page is on the wrapper's site. Each is another document of the same
 * site, mostly of the same kind (another PEP, another article): any adaptation is a wrong answer.
 */
const DOCUMENT_PAGES_PER_SITE = 12;

interface OtherPagesResult {
  runs: number;
  adapted: number;
  sites: number;
  bestSimilarity: number;
  /** Runs whose words reached the threshold, so that only the title check refused them, per site. */
  aboveThreshold: Record<string, number>;
  cases: Array<{ site: string; from: string; to: string; similarity: number }>;
}

function evaluateDocumentOtherPages(): OtherPagesResult {
  const out: OtherPagesResult = { runs: 0, adapted: 0, sites: 0, bestSimilarity: 0, aboveThreshold: {}, cases: [] };
  const settings = { ...resolveSettings({}), algorithms: [] as AlgorithmName[], content: false, document: true };
  for (const site of listSites()) {
    const docs: Array<{ key: string; tree: Tree; gram: ReturnType<typeof makeTreeGram> }> = [];
    for (const key of site.files()) {
      if (docs.length >= DOCUMENT_PAGES_PER_SITE) break;
      const tree = readTree(`${site.pagesDir}/${key}`);
      const gold = goldContainers(site, tree);
      if (!gold || gold.length !== 1 || tree.kind[gold[0]!] !== NodeKind.Element) continue;
      if (words(instanceText(tree, gold[0]!)).length < DOCUMENT_MIN_WORDS) continue;
      const gram = makeTreeGram(tree, [gold[0]!], 1);
      if (gram.instances[0]!.title === undefined) continue;
      docs.push({ key, tree, gram });
    }
    if (docs.length < 2) continue;
    out.sites++;
    for (const a of docs)
      for (const b of docs) {
        if (a === b) continue;
        const r = adapt(b.tree, 0, a.gram, settings, { sameSite: true });
        out.runs++;
        const sim = r.step === 'document' ? r.similarity : (r.documentSimilarity ?? 0);
        out.bestSimilarity = Math.max(out.bestSimilarity, sim);
        if (sim >= settings.documentThreshold) out.aboveThreshold[site.name] = (out.aboveThreshold[site.name] ?? 0) + 1;
        if (r.step !== 'not-found') {
          out.adapted++;
          out.cases.push({ site: site.name, from: a.key, to: b.key, similarity: r.similarity });
        }
      }
  }
  return out;
}

/**
 * Evidence for the misses: per document, on its first changed snapshot with a gold, the similarity of the
 * tree-gram to the gold container on element labels (CTM, STM) and on the content view (CTM), and the best
 * content-view CTM any element of the page reaches; then the word F1 of each document's old text against
 * every document's newest gold text (the whole texts as bags of words, no structure at all).
 */
interface MissEvidence {
  rows: Array<{ doc: string; date: string; ctmTags: number; stmTags: number; ctmContent: number; bestContentOnPage: number | null }>;
  names: string[];
  /** wordF1[i][k]: document i's old text against document k's newest gold text. */
  wordF1: number[][];
}

function missEvidence(docs: readonly OtaDocument[], tree: (path: string) => Tree): MissEvidence {
  const rows: MissEvidence['rows'] = [];
  const olds: string[] = [];
  const newest: string[] = [];
  const names: string[] = [];
  for (const d of docs) {
    const built = otaWrapper(d, tree, { label: 'ctm', algorithms: ['ctm'], content: true });
    if (!built) continue;
    names.push(d.service);
    const startTree = tree(d.snapshots[built.start]!.path);
    olds.push(textUnder(startTree, built.old) ?? '');
    const pats = d.declarations.map((x) => otaPattern(x.select)).filter((p): p is PatternSpec => p !== null);
    let last = '';
    for (const s of [...d.snapshots].reverse()) {
      const g = textUnder(tree(s.path), pats[pats.length - 1]!);
      if (g !== null) {
        last = g;
        break;
      }
    }
    newest.push(last);
    const gram = built.wrapper.patterns[0]!.treeGram!;
    for (const s of d.snapshots.slice(built.start + 1)) {
      const t = tree(s.path);
      if (selectPattern(t, built.old, 0).length > 0) continue;
      let gold: number[] = [];
      for (const p of [...pats.slice(1)].reverse()) if ((gold = selectPattern(t, p, 0)).length > 0) break;
      if (gold.length === 0) continue;
      const space = new LabelSpace(WRAPPER_DEFAULTS.labels);
      const g = gramTree(gram.instances[0]!, space);
      const target = fromTree(t, gold[0]!, space);
      const words = new WordSpace();
      const keys = new WordSpace();
      const gb = gramBlocks(gram.instances[0]!, words, keys) ?? [];
      const all = adapt(t, 0, gram, { ...resolveSettings({}), algorithms: ['ctm'], contentThreshold: 1e-9 });
      rows.push({
        doc: d.name,
        date: s.date,
        ctmTags: clusteredTreeMatching(g, target),
        stmTags: stmSimilarity(g, target),
        ctmContent: blockCtm(gb, pageBlocks(t, gold[0]!, words, keys)),
        // null when element labels already find it (the content view is not tried then).
        bestContentOnPage: all.view === 'content' ? all.similarity : all.view === 'tags' ? null : (all.contentSimilarity ?? 0),
      });
      break;
    }
  }
  return { rows, names, wordF1: olds.map((o) => newest.map((n) => contentScore(o, n).f1)) };
}

function prfOf(tp: number, fp: number, fn: number): { precision: number; recall: number; f: number } {
  const precision = tp + fp > 0 ? tp / (tp + fp) : 1;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 1;
  return { precision, recall, f: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

// ---------------------------------------------------------------------------------------------------------
// 2. Synthetic mutations

/** The mutation kinds: each is applied alone to a page around its gold content container. */
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
  /** The configuration's label (OTA_CONFIGS: an algorithm on element labels, or with the content view). */
  algorithm: string;
  cases: number;
  exact: number;
  found: number;
  meanF1: number;
  ms: number;
}

function evaluateMutations(): { rows: MutationRow[]; pages: number; marginSweep: Record<string, { right: number; wrong: number; notFound: number }> } {
  const marginSweep = Object.fromEntries(MARGIN_SWEEP.map((x) => [String(x), { right: 0, wrong: 0, notFound: 0 }]));
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
    for (const config of OTA_CONFIGS.filter((c) => c.algorithms.length === 1)) {
      let exact = 0;
      let found = 0;
      const f1s: number[] = [];
      const t0 = performance.now();
      for (const m of mutated) {
        // A mutated page is the same page (the same address): on its site, so the document view may run.
        const settings = { ...resolveSettings({}), algorithms: [...config.algorithms], content: config.content, document: config.document ?? false };
        const a = adapt(m.tree, 0, m.gram, settings, { sameSite: true });
        if (a.step !== 'not-found') found++;
        if (a.nodes.length === 1 && a.nodes[0] === m.target) exact++;
        const got = a.nodes.map((n) => valueOf(m.tree, n)).join('\n');
        f1s.push(a.step === 'not-found' ? 0 : contentScore(got, instanceText(m.tree, m.target)).f1);
      }
      rows.push({ mutation: kind, algorithm: config.label, cases: mutated.length, exact, found, meanF1: mean(f1s), ms: (performance.now() - t0) / Math.max(1, mutated.length) });
    }
    // The default settings at each ambiguity margin: exact is right, another element wrong.
    for (const margin of MARGIN_SWEEP) {
      const cell = marginSweep[String(margin)]!;
      for (const m of mutated) {
        const a = adapt(m.tree, 0, m.gram, { ...resolveSettings({}), ambiguityMargin: margin }, { sameSite: true });
        if (a.step === 'not-found') cell.notFound++;
        else if (a.nodes.length === 1 && a.nodes[0] === m.target) cell.right++;
        else cell.wrong++;
      }
    }
  }
  return { rows, pages: cases.length, marginSweep };
}

// ---------------------------------------------------------------------------------------------------------

await runEval('wrapper', async () => {
  const t0 = performance.now();
  // 1. Real changes.
  const trees = new Map<string, Tree>();
  const tree = (path: string): Tree => {
    let t = trees.get(path);
    if (!t) trees.set(path, (t = readTree(path)));
    return t;
  };
  const docs = listVersions().filter((v): v is OtaDocument => v.kind === 'ota');
  const ota: OtaRow[] = [];
  for (const v of docs) {
    for (const config of OTA_CONFIGS) {
      const row = evaluateOta(v, tree, config);
      if (row) ota.push(row);
    }
  }
  const labelRows: OtaRow[] = [];
  for (const v of docs)
    for (const config of LABEL_CONFIGS) {
      const row = evaluateOta(v, tree, config);
      if (row) labelRows.push(row);
    }
  const otaTable: string[][] = ota.map((r) => [
    r.doc.replace(/^ota-/, ''),
    r.algorithm,
    String(r.snapshots),
    String(r.unchanged),
    String(r.changed),
    String(r.tp),
    String(r.fp),
    String(r.fn),
    fmt(r.changedF1),
    `${r.noGoldPresentAdapted}/${r.noGoldPresent}`,
    `${r.noGoldAbsentAdapted}/${r.noGoldAbsent}`,
    r.control ? String(r.adaptationsOnControl) : '—',
    fmt(r.meanF1),
  ]);
  process.stdout.write('Real changes (Open Terms Archive snapshots; tp/fp/fn over snapshots where the old selector fails and a newer one matches)\n');
  process.stdout.write('  no gold: no selector matches; "present" when the OTA version text is on the page, "absent" when not (adapted/snapshots)\n');
  process.stdout.write(formatTable(['document', 'config', 'snaps', 'unchanged', 'changed', 'tp', 'fp', 'fn', 'changed F1', 'no gold present', 'no gold absent', 'ctrl adapt', 'mean F1'], otaTable) + '\n\n');
  const totals: Record<string, { tp: number; fp: number; fn: number; precision: number; recall: number; f: number; controlAdaptations: number; meanF1: number; changedF1: number; absentAdapted: number; presentAdapted: number; presentVersionF1: number }> = {};
  const totalRows: string[][] = [];
  for (const config of OTA_CONFIGS) {
    const rs = ota.filter((r) => r.algorithm === config.label);
    const tp = rs.reduce((s, r) => s + r.tp, 0);
    const fp = rs.reduce((s, r) => s + r.fp, 0);
    const fn = rs.reduce((s, r) => s + r.fn, 0);
    const ctrl = rs.reduce((s, r) => s + r.adaptationsOnControl, 0);
    const q = prfOf(tp, fp, fn);
    const snaps = rs.flatMap((r) => r.perSnapshot);
    totals[config.label] = {
      tp, fp, fn, ...q, controlAdaptations: ctrl,
      meanF1: mean(snaps.filter((x) => x.f1 !== null).map((x) => x.f1!)),
      changedF1: mean(snaps.filter((x) => x.changed && x.f1 !== null).map((x) => x.f1!)),
      absentAdapted: rs.reduce((s, r) => s + r.noGoldAbsentAdapted, 0),
      presentAdapted: rs.reduce((s, r) => s + r.noGoldPresentAdapted, 0),
      presentVersionF1: mean(snaps.filter((x) => x.contentAbsent === false && x.versionF1 !== null).map((x) => x.versionF1!)),
    };
    const t = totals[config.label]!;
    const present = rs.reduce((s, r) => s + r.noGoldPresent, 0);
    const absent = rs.reduce((s, r) => s + r.noGoldAbsent, 0);
    totalRows.push([config.label, String(tp), String(fp), String(fn), fmt(q.precision), fmt(q.recall), fmt(q.f), fmt(t.changedF1), String(ctrl), `${t.presentAdapted}/${present} (F1 ${fmt(t.presentVersionF1)})`, `${t.absentAdapted}/${absent}`]);
  }
  process.stdout.write(formatTable(['config', 'tp', 'fp', 'fn', 'precision', 'recall', 'F-measure', 'changed F1', 'control adaptations', 'no gold, present: adapted (F1 vs version)', 'no gold, absent: adapted'], totalRows) + '\n\n');
  // The same tally split by whether the document was still fetched from the URL the wrapper was built on.
  const byPage: Record<string, { same: { tp: number; fp: number; fn: number; f: number }; moved: { tp: number; fp: number; fn: number; f: number; docs: string[] } }> = {};
  const byPageRows: string[][] = [];
  for (const config of OTA_CONFIGS) {
    const cells = { same: { tp: 0, fp: 0, fn: 0 }, moved: { tp: 0, fp: 0, fn: 0 } };
    const movedDocs = new Set<string>();
    for (const r of ota.filter((x) => x.algorithm === config.label)) {
      for (const x of r.perSnapshot) {
        if (!x.changed || x.f1 === null) continue;
        const cell = x.moved ? cells.moved : cells.same;
        if (x.moved) movedDocs.add(r.doc);
        if (x.step === 'not-found') cell.fn++;
        else if (x.f1 >= OTA_TP_F1) cell.tp++;
        else cell.fp++;
      }
    }
    const same = { ...cells.same, f: prfOf(cells.same.tp, cells.same.fp, cells.same.fn).f };
    const moved = { ...cells.moved, f: prfOf(cells.moved.tp, cells.moved.fp, cells.moved.fn).f, docs: [...movedDocs] };
    byPage[config.label] = { same, moved };
    byPageRows.push([config.label, `${same.tp}/${same.fp}/${same.fn}`, fmt(same.f), `${moved.tp}/${moved.fp}/${moved.fn}`, fmt(moved.f), moved.docs.join(', ')]);
  }
  // The ambiguity rule on the real changes: outcomes it made "ambiguous", and the tally without it.
  const ambiguity: Record<string, { ambiguous: number; withRule: { tp: number; fp: number; fn: number }; ruleOff: { tp: number; fp: number; fn: number } }> = {};
  for (const config of OTA_CONFIGS) {
    const rs = ota.filter((r) => r.algorithm === config.label);
    ambiguity[config.label] = {
      ambiguous: rs.reduce((x, r) => x + r.ambiguous, 0),
      withRule: { tp: totals[config.label]!.tp, fp: totals[config.label]!.fp, fn: totals[config.label]!.fn },
      ruleOff: rs.reduce((x, r) => ({ tp: x.tp + r.ruleOff.tp, fp: x.fp + r.ruleOff.fp, fn: x.fn + r.ruleOff.fn }), { tp: 0, fp: 0, fn: 0 }),
    };
  }
  process.stdout.write(`The ambiguity rule on the real changes (margin ${WRAPPER_DEFAULTS.ambiguityMargin}): snapshots with a gold found "ambiguous", tp/fp/fn with the rule and without it\n`);
  process.stdout.write(
    formatTable(
      ['config', 'ambiguous', 'with the rule', 'without'],
      OTA_CONFIGS.map((c) => {
        const a = ambiguity[c.label]!;
        return [c.label, String(a.ambiguous), `${a.withRule.tp}/${a.withRule.fp}/${a.withRule.fn}`, `${a.ruleOff.tp}/${a.ruleOff.fp}/${a.ruleOff.fn}`];
      }),
    ) + '\n\n',
  );
  process.stdout.write('Real changes by page: the URL the wrapper was built on (same page) or another URL OTA moved the document to (moved)\n');
  process.stdout.write(formatTable(['config', 'same page tp/fp/fn', 'same page F', 'moved tp/fp/fn', 'moved F', 'moved documents'], byPageRows) + '\n\n');
  const labelTotals: Record<string, { tp: number; fp: number; fn: number; f: number; controlAdaptations: number }> = {};
  process.stdout.write('Node-label flags (CTM; tag only is the default above)\n');
  process.stdout.write(
    formatTable(
      ['config', 'tp', 'fp', 'fn', 'F-measure', 'control adaptations'],
      LABEL_CONFIGS.map((config) => {
        const rs = labelRows.filter((r) => r.algorithm === config.label);
        const tp = rs.reduce((x, r) => x + r.tp, 0);
        const fp = rs.reduce((x, r) => x + r.fp, 0);
        const fn = rs.reduce((x, r) => x + r.fn, 0);
        const ctrl = rs.reduce((x, r) => x + r.adaptationsOnControl, 0);
        labelTotals[config.label] = { tp, fp, fn, f: prfOf(tp, fp, fn).f, controlAdaptations: ctrl };
        return [config.label, String(tp), String(fp), String(fn), fmt(prfOf(tp, fp, fn).f), String(ctrl)];
      }),
    ) + '\n\n',
  );
  const sweep: Record<string, Record<string, { tp: number; fp: number; fn: number; f: number }>> = {};
  const sum = (cells: Array<{ tp: number; fp: number; fn: number }>): { tp: number; fp: number; fn: number; f: number } => {
    const tp = cells.reduce((x, r) => x + r.tp, 0);
    const fp = cells.reduce((x, r) => x + r.fp, 0);
    const fn = cells.reduce((x, r) => x + r.fn, 0);
    return { tp, fp, fn, f: prfOf(tp, fp, fn).f };
  };
  const sweepRows: string[][] = [];
  for (const config of OTA_CONFIGS) {
    sweep[config.label] = {};
    const cells: string[] = [config.label];
    for (const th of SWEEP) {
      const c = sum(ota.filter((r) => r.algorithm === config.label).map((r) => r.sweep[String(th)]!));
      sweep[config.label]![String(th)] = c;
      cells.push(`${fmt(c.f, 2)} (${c.tp}/${c.fp}/${c.fn})`);
    }
    sweepRows.push(cells);
  }
  // Impostors and the thresholds.
  const impostors: Record<string, ImpostorResult> = {};
  for (const config of OTA_CONFIGS) impostors[config.label] = evaluateImpostors(docs, tree, config);
  OTA_CONFIGS.forEach((config, k) => {
    for (const th of SWEEP) {
      const imp = impostors[config.label]!.sweep[String(th)]!;
      (sweep[config.label]![String(th)] as { impostors?: number }).impostors = imp;
      sweepRows[k]![SWEEP.indexOf(th) + 1] += ` imp ${imp}`;
    }
  });
  process.stdout.write('F-measure (tp/fp/fn) on the real changes and impostor adaptations by threshold (one threshold for every algorithm; the content threshold at its default)\n');
  process.stdout.write(formatTable(['config', ...SWEEP.map(String)], sweepRows) + '\n\n');
  process.stdout.write('Impostors (each wrapper on 3 snapshots of every other document: any adaptation is a false positive;\n  for the content view see its threshold sweep below, the bounds skip every element below the threshold)\n');
  process.stdout.write(
    formatTable(
      ['config', 'runs', 'adapted', 'best similarity on element labels', 'adapted if told "same site" (document view)'],
      OTA_CONFIGS.map((c) => {
        const r = impostors[c.label]!;
        return [c.label, String(r.runs), String(r.adapted), fmt(Math.max(0, ...r.cases.map((x) => x.similarity ?? 0))), c.document ? String(r.adaptedAsSameSite) : '-'];
      }),
    ) + '\n\n',
  );
  // Same site, another document (the document view's hard negatives).
  const sameSite: Record<string, SameSiteResult> = {};
  for (const config of OTA_CONFIGS.filter((c) => c.document)) sameSite[config.label] = evaluateSameSiteOthers(docs, tree, config);
  process.stdout.write('Same site, another document: the service\'s other documents on the page a wrapper was built on, each as its own wrapper,\n  run on the later snapshots where its selector fails (the page is on its site, the document is not its own): any adaptation is a false positive\n');
  process.stdout.write(
    formatTable(
      ['config', 'document', 'other document (title)', 'runs', 'adapted', 'best document-view similarity'],
      Object.entries(sameSite).flatMap(([label, r]) => r.rows.map((x) => [label, x.doc.replace(/^ota-/, ''), `${x.other} (${x.title})`, String(x.runs), String(x.adapted), fmt(x.bestDocumentSimilarity)])),
    ) + '\n\n',
  );
  const otherPages = evaluateDocumentOtherPages();
  process.stdout.write(
    `Document view alone, other documents of the same site (sites/: up to ${DOCUMENT_PAGES_PER_SITE} document pages per site, each page's gold content as a tree-gram looked for on every other one, told "same site"):\n` +
      `  ${otherPages.adapted} of ${otherPages.runs} runs adapted on ${otherPages.sites} sites; best similarity ${fmt(otherPages.bestSimilarity)}; ` +
      `words at or above the threshold, refused by the title alone: ${Object.entries(otherPages.aboveThreshold).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}` +
      (otherPages.cases.length ? `; adapted: ${otherPages.cases.slice(0, 8).map((c) => `${c.site} ${c.from} → ${c.to} ${fmt(c.similarity)}`).join('; ')}` : '') +
      '\n\n',
  );
  const documentSweep: Record<string, Record<string, { tp: number; fp: number; fn: number; f: number; sameSite: number; impostorsAsSameSite: number }>> = {};
  const documentRows: string[][] = [];
  for (const config of OTA_CONFIGS.filter((c) => c.document)) {
    documentSweep[config.label] = {};
    const cells: string[] = [config.label];
    for (const th of DOCUMENT_SWEEP) {
      const c = sum(ota.filter((r) => r.algorithm === config.label).map((r) => r.documentSweep[String(th)]!));
      const same = sameSite[config.label]!.rows.reduce((x, r) => x + r.sweep[String(th)]!, 0);
      const imp = impostors[config.label]!.asSameSiteSweep[String(th)]!;
      documentSweep[config.label]![String(th)] = { ...c, sameSite: same, impostorsAsSameSite: imp };
      cells.push(`${fmt(c.f, 2)} (${c.tp}/${c.fp}/${c.fn}) ss ${same} imp* ${imp}`);
    }
    documentRows.push(cells);
  }
  process.stdout.write(`F-measure (tp/fp/fn) on the real changes by document threshold (default ${WRAPPER_DEFAULTS.documentThreshold}); ss: same-site other-document adaptations;\n  imp*: impostor runs adapted when told the page is on the wrapper's site (the site check refuses them all): ${impostors['ctm+document']!.asSameSiteCases.map((x) => `${x.wrapper.replace(/^ota-/, '')} on ${x.page.replace(/^ota-/, '')} ${fmt(x.similarity)}`).join('; ') || 'none'}\n`);
  process.stdout.write(formatTable(['config', ...DOCUMENT_SWEEP.map(String)], documentRows) + '\n\n');
  const contentSweep: Record<string, Record<string, { tp: number; fp: number; fn: number; f: number; impostors: number }>> = {};
  const contentRows: string[][] = [];
  for (const config of OTA_CONFIGS.filter((c) => c.content)) {
    contentSweep[config.label] = {};
    const cells: string[] = [config.label];
    for (const th of CONTENT_SWEEP) {
      const c = sum(ota.filter((r) => r.algorithm === config.label).map((r) => r.contentSweep[String(th)]!));
      const imp = impostors[config.label]!.contentSweep[String(th)]!;
      contentSweep[config.label]![String(th)] = { ...c, impostors: imp };
      cells.push(`${fmt(c.f, 2)} (${c.tp}/${c.fp}/${c.fn}) imp ${imp}`);
    }
    contentRows.push(cells);
  }
  process.stdout.write(`F-measure (tp/fp/fn) on the real changes and impostor adaptations by content threshold (default ${WRAPPER_DEFAULTS.contentThreshold})\n`);
  process.stdout.write(formatTable(['config', ...CONTENT_SWEEP.map(String)], contentRows) + '\n\n');

  const evidence = missEvidence(docs, tree);
  process.stdout.write('Why a change is missed: the tree-gram against the gold container of the first changed snapshot\n');
  process.stdout.write(
    formatTable(
      ['document', 'snapshot', 'CTM tags', 'STM tags', 'CTM content', 'best CTM content on the page'],
      evidence.rows.map((r) => [r.doc.replace(/^ota-/, ''), r.date, fmt(r.ctmTags), fmt(r.stmTags), fmt(r.ctmContent), r.bestContentOnPage === null ? 'found on tags' : fmt(r.bestContentOnPage)]),
    ) + '\n',
  );
  process.stdout.write('Word F1 of each document\'s old text (rows) against each document\'s newest gold text (columns)\n');
  process.stdout.write(formatTable(['old \\ newest', ...evidence.names], evidence.wordF1.map((r, k) => [evidence.names[k]!, ...r.map((x) => fmt(x))])) + '\n\n');

  // 2. Mutations.
  const mut = evaluateMutations();
  process.stdout.write(`Synthetic mutations (${mut.pages} corpus site pages; the gold content container is the pattern)\n`);
  process.stdout.write(
    formatTable(
      ['mutation', 'alg', 'cases', 'exact', 'found', 'mean F1', 'ms/adapt'],
      mut.rows.map((r) => [r.mutation, r.algorithm, String(r.cases), fmt(r.exact / Math.max(1, r.cases)), fmt(r.found / Math.max(1, r.cases)), fmt(r.meanF1), r.ms.toFixed(1)]),
    ) + '\n\n',
  );

  // 3. Records, by example.
  const sources = [swdeSource(), ...BUILT_SOURCES.map((n) => builtSource(n))].filter((x): x is RecordSource => x !== null);
  const records: SourceResult[] = [];
  for (const src of sources) {
    // The issue's reproduction gives every field as one value too: only SWDE, whose authors are a list.
    for (const variant of src.name === 'swde-book-booksamillion' ? (['lists', 'single'] as const) : (['lists'] as const)) {
      const r = evaluateSource(src, variant);
      records.push(r);
      process.stdout.write(
        `Records by example: ${src.name} (${src.pages.length} pages; the values of one page as examples, run on the ${src.pages.length - 1} others; ` +
          `${variant === 'lists' ? `${src.lists.join(', ') || 'no field'} given as a list` : 'every field given as one value'}; right/wrong/not found per training page)\n`,
      );
      process.stdout.write(
        formatTable(
          ['training page', ...src.fields],
          r.runs.map((run) => [run.page, ...src.fields.map((f) => `${run.fields[f]!.right}/${run.fields[f]!.wrong}/${run.fields[f]!.notFound}`)]),
        ) + '\n',
      );
      process.stdout.write(
        formatTable(
          ['field', 'accuracy (mean)', 'accuracy (worst)', 'wrong (mean)', 'wrong (worst)', 'pattern (first training page)'],
          src.fields.map((f) => {
            const x = r.summary[f]!;
            const c = r.runs[0]?.choices.find((y) => y.name === f);
            return [f, fmt(x.accuracy), fmt(x.worstAccuracy), fmt(x.wrongRate), fmt(x.worstWrongRate), c ? `${c.selector}${c.value === 'text' ? '' : ` (${c.value})`}${c.lookAlikes ? ` [1 of ${c.lookAlikes}]` : ''}` : 'not found on the page'];
          }),
        ) + '\n',
      );
      for (const run of r.runs) for (const [f, x] of Object.entries(run.fields)) if (x.examples.length) process.stdout.write(`  wrong, trained on ${run.page}, ${f}: ${x.examples.join('; ')}\n`);
      process.stdout.write('\n');
    }
  }

  // The ambiguity margin: right / wrong / not found per source at each margin, and the margin each source
  // would get if chosen on the others (fewest wrong values, then fewest not found).
  const sweepBySource: Record<string, Record<string, { right: number; wrong: number; notFound: number }>> = {};
  sweepBySource['ota (changed snapshots)'] = Object.fromEntries(
    MARGIN_SWEEP.map((m) => {
      const c = ota.filter((r) => r.algorithm === DEFAULT_LADDER).reduce((x, r) => ({ tp: x.tp + r.marginSweep[String(m)]!.tp, fp: x.fp + r.marginSweep[String(m)]!.fp, fn: x.fn + r.marginSweep[String(m)]!.fn }), { tp: 0, fp: 0, fn: 0 });
      return [String(m), { right: c.tp, wrong: c.fp, notFound: c.fn }];
    }),
  );
  sweepBySource['mutations'] = mut.marginSweep;
  for (const src of sources) sweepBySource[src.name] = Object.fromEntries(MARGIN_SWEEP.map((m) => [String(m), totalsOf(evaluateSource(src, 'lists', { settings: { ambiguityMargin: m } }))]));
  const marginRows: string[][] = [];
  const heldOut: Record<string, { margin: number; right: number; wrong: number; notFound: number }> = {};
  for (const [name, bySweep] of Object.entries(sweepBySource)) {
    const others = Object.entries(sweepBySource).filter(([n]) => n !== name);
    const cost = (m: number): [number, number] => others.reduce(([w, n], [, x]) => [w + x[String(m)]!.wrong, n + x[String(m)]!.notFound], [0, 0]);
    const chosen = MARGIN_SWEEP.filter((m) => m >= 0).reduce((best, m) => {
      const [w, n] = cost(m);
      const [bw, bn] = cost(best);
      return w < bw || (w === bw && n < bn) ? m : best;
    }, 0);
    heldOut[name] = { margin: chosen, ...bySweep[String(chosen)]! };
    marginRows.push([name, ...MARGIN_SWEEP.map((m) => `${bySweep[String(m)]!.right}/${bySweep[String(m)]!.wrong}/${bySweep[String(m)]!.notFound}`), `${chosen}: ${bySweep[String(chosen)]!.right}/${bySweep[String(chosen)]!.wrong}/${bySweep[String(chosen)]!.notFound}`]);
  }
  process.stdout.write(`The ambiguity margin (default ${WRAPPER_DEFAULTS.ambiguityMargin}): right/wrong/not found per source at each margin (-1: the rule off), and held out: the margin chosen on the other sources (fewest wrong values, then fewest not found) and its figures on this one\n`);
  process.stdout.write(formatTable(['source', ...MARGIN_SWEEP.map((m) => (m < 0 ? 'off' : String(m))), 'held out'], marginRows) + '\n\n');

  const headline: Record<string, number | null> = {};
  for (const a of Object.keys(totals)) headline[`ota ${a} F`] = totals[a]!.f;
  headline['ota ctm F, same page'] = byPage['ctm']!.same.f;
  headline['ota ctm F, moved page'] = byPage['ctm']!.moved.f;
  headline['ota control adaptations'] = totals['ctm']!.controlAdaptations;
  headline['ota impostor adaptations (ctm)'] = impostors['ctm']!.adapted;
  headline['ota content-absent adaptations (ctm)'] = totals['ctm']!.absentAdapted;
  for (const r of records) {
    const fields = Object.values(r.summary);
    headline[`records ${r.source} (${r.variant}): worst accuracy`] = Math.min(...fields.map((x) => x.worstAccuracy));
    headline[`records ${r.source} (${r.variant}): worst wrong rate`] = Math.max(...fields.map((x) => x.worstWrongRate));
  }
  headline[`ota ambiguous outcomes (${DEFAULT_LADDER})`] = ambiguity[DEFAULT_LADDER]!.ambiguous;
  const withDocument = 'ctm+document';
  headline[`ota ${withDocument} F, same page`] = byPage[withDocument]!.same.f;
  headline[`ota ${withDocument} F, moved page`] = byPage[withDocument]!.moved.f;
  headline[`ota control adaptations (${withDocument})`] = totals[withDocument]!.controlAdaptations;
  headline[`ota impostor adaptations (${withDocument})`] = impostors[withDocument]!.adapted;
  headline[`ota content-absent adaptations (${withDocument})`] = totals[withDocument]!.absentAdapted;
  headline['document view, other pages of the same site: adaptations'] = otherPages.adapted;
  headline['document view, other pages of the same site: runs'] = otherPages.runs;
  headline[`ota same-site other-document adaptations (${withDocument})`] = sameSite[withDocument]!.rows.reduce((x, r) => x + r.adapted, 0);
  for (const c of OTA_CONFIGS.filter((x) => x.algorithms.length === 1)) headline[`mutations ${c.label} exact`] = mean(mut.rows.filter((r) => r.algorithm === c.label).map((r) => r.exact / Math.max(1, r.cases)));
  // Kept small: per snapshot only where the old selector failed; per impostor run only the adaptations.
  const rows = ota.map((r) => ({ ...r, perSnapshot: r.perSnapshot.filter((x) => x.changed || !x.gold) }));
  const impostorSummary = Object.fromEntries(
    Object.entries(impostors).map(([k, v]) => [
      k,
      {
        runs: v.runs,
        adapted: v.adapted,
        sweep: v.sweep,
        contentSweep: v.contentSweep,
        adaptedAsSameSite: v.adaptedAsSameSite,
        bestSimilarity: Math.max(0, ...v.cases.map((x) => x.similarity ?? 0)),
        adaptations: v.cases.filter((x) => x.step !== 'not-found'),
      },
    ]),
  );
  const path = writeResults('wrapper', headline, { ota: { totals, byPage, labelTotals, sweep, contentSweep, impostors: impostorSummary, sameSite, documentSweep, otherPages, evidence, ambiguity, rows }, mutations: mut, records, margins: { sweep: sweepBySource, heldOut }, seconds: (performance.now() - t0) / 1000 });
  process.stdout.write(`results: ${path}\n`);
});
