/**
 * Wrappers made by example on record pages (eval/wrapper.eval.ts, part 3), the way a user makes one: the
 * values of ONE page given as examples (`--example title=… --example author=…`), the wrapper created on
 * that page and run on every other page of the source. Repeated from several training pages spread over
 * the source (RECORD_TRAINING), since one lucky page proves little: the figures are the mean and the
 * worst over them.
 *
 * Sources:
 *  - records/swde-book-booksamillion: SWDE's ground truth (400 book pages);
 *  - the demo shop's product pages (examples/site/shop/) and the stackoverflow question pages
 *    (clusters/stackoverflow/), built here as record sources for a check of generality: their gold is read
 *    by hand-written reference selectors (REFERENCES, one per field, checked on the pages), never by the
 *    wrapper under test.
 * A field a user knows can have several values (a book's authors, a question's tags) is given as a list.
 * Per page and field: right (the words of the value, or of each value of a list, are the gold's; nothing
 * found where the gold has nothing), wrong (a value that is not the gold's), or not found (null where the
 * gold has a value: the wrapper said it could not tell).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadRecords, readTree } from '../src/eval/corpus.ts';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { words } from '../src/eval/metrics.ts';
import type { Tree } from '../src/html/tree.ts';
import { createFromExamples, type ExampleChoice } from '../src/wrapper/create.ts';
import { runWrapper, selectPattern, type RunOptions } from '../src/wrapper/run.ts';
import { valueOf } from '../src/wrapper/value.ts';
import { REPO_ROOT } from './harness.ts';

/** Training pages per source, spread evenly over it (page k·n/RECORD_TRAINING). */
export const RECORD_TRAINING = 5;

/** A record source: pages with their gold values per field. */
export interface RecordSource {
  name: string;
  fields: readonly string[];
  /** Fields given as lists (a user knows they can have several values). */
  lists: readonly string[];
  pages: Array<{ id: string; tree: Tree; values: Record<string, readonly string[]> }>;
}

/** Per field over the pages a wrapper ran on. */
export interface FieldScore {
  pages: number;
  right: number;
  wrong: number;
  notFound: number;
  /** A few wrong values, for the reader. */
  examples: string[];
}

/** One training page's run. */
export interface TrainingRun {
  page: string;
  choices: ExampleChoice[];
  missing: string[];
  fields: Record<string, FieldScore>;
}

/** One source's by-example evaluation. */
export interface SourceResult {
  source: string;
  /** `lists`: the list fields given as lists; `single`: every field as one value. */
  variant: 'lists' | 'single';
  runs: TrainingRun[];
  /** Per field: mean and worst (lowest) accuracy, mean and worst (highest) wrong-value rate over the runs. */
  summary: Record<string, { accuracy: number; worstAccuracy: number; wrongRate: number; worstWrongRate: number }>;
}

function sameWordList(a: string, b: string): boolean {
  const x = words(a);
  const y = words(b);
  return x.length === y.length && x.every((w, k) => w === y[k]);
}

/** Scores one extracted value against the gold values of a field. */
export function judge(got: unknown, gold: readonly string[], list: boolean): 'right' | 'wrong' | 'notFound' {
  const goldWords = words(gold.join(' '));
  if (got === null || got === undefined) return goldWords.length === 0 ? 'right' : 'notFound';
  if (list) {
    const xs = Array.isArray(got) ? (got as unknown[]).map(String) : [String(got)];
    if (goldWords.length === 0) return xs.every((x) => words(x).length === 0) ? 'right' : 'wrong';
    return xs.length === gold.length && xs.every((x, k) => sameWordList(x, gold[k]!)) ? 'right' : 'wrong';
  }
  const text = Array.isArray(got) ? (got as unknown[]).map(String).join(' ') : String(got);
  if (goldWords.length === 0) return words(text).length === 0 ? 'right' : 'wrong';
  return sameWordList(text, gold.join(' ')) ? 'right' : 'wrong';
}

/** The training page indices of a source of n pages. */
export function trainingPages(n: number): number[] {
  return [...new Set(Array.from({ length: Math.min(RECORD_TRAINING, n) }, (_, k) => Math.floor((k * n) / Math.min(RECORD_TRAINING, n))))];
}

/** Evaluates one source by example from each training page (see the module comment). */
export function evaluateSource(src: RecordSource, variant: 'lists' | 'single', options: RunOptions = {}): SourceResult {
  const runs: TrainingRun[] = [];
  for (const t of trainingPages(src.pages.length)) {
    const train = src.pages[t]!;
    const values: Record<string, string | string[]> = {};
    for (const f of src.fields) {
      const v = train.values[f] ?? [];
      if (v.length === 0) continue; // a user cannot give a value the page does not have
      values[f] = variant === 'lists' && src.lists.includes(f) ? [...v] : v[0]!;
    }
    const { wrapper, missing, choices } = createFromExamples([{ tree: train.tree, values }], { source: `${src.name}/${train.id}` });
    const fields: Record<string, FieldScore> = {};
    for (const f of src.fields) fields[f] = { pages: 0, right: 0, wrong: 0, notFound: 0, examples: [] };
    for (let k = 0; k < src.pages.length; k++) {
      if (k === t) continue;
      const page = src.pages[k]!;
      const r = runWrapper(wrapper, page.tree, page.id, options);
      for (const f of src.fields) {
        const s = fields[f]!;
        s.pages++;
        const isList = wrapper.patterns.find((p) => p.name === f)?.multiple === true;
        const verdict = judge(r.record[f] ?? null, page.values[f] ?? [], isList);
        s[verdict]++;
        if (verdict === 'wrong' && s.examples.length < 3) s.examples.push(`${page.id}: ${JSON.stringify(r.record[f]).slice(0, 80)} (gold ${JSON.stringify((page.values[f] ?? []).join(' | ')).slice(0, 60)})`);
      }
    }
    runs.push({ page: train.id, choices, missing, fields });
  }
  const summary: SourceResult['summary'] = {};
  for (const f of src.fields) {
    const acc = runs.map((r) => r.fields[f]!.right / Math.max(1, r.fields[f]!.pages));
    const wrong = runs.map((r) => r.fields[f]!.wrong / Math.max(1, r.fields[f]!.pages));
    summary[f] = { accuracy: acc.reduce((a, b) => a + b, 0) / Math.max(1, acc.length), worstAccuracy: Math.min(...acc), wrongRate: wrong.reduce((a, b) => a + b, 0) / Math.max(1, wrong.length), worstWrongRate: Math.max(...wrong) };
  }
  return { source: src.name, variant, runs, summary };
}

/** SWDE booksamillion with its ground truth (null when the corpus lacks it). Authors are a list. */
export function swdeSource(): RecordSource | null {
  const set = loadRecords().find((r) => r.name === 'swde-book-booksamillion');
  if (!set) return null;
  return {
    name: set.name,
    fields: set.attributes,
    lists: ['author'],
    pages: set.pages.map((p) => ({ id: p.id, tree: readTree(p.path), values: Object.fromEntries(set.attributes.map((a) => [a, p.values[a] ?? []])) })),
  };
}

/**
 * Reference selectors of the built sources: the gold of a field is the value(s) these select (an empty
 * list when they select nothing). Written by hand for these pages, independent of what a wrapper chooses.
 */
const REFERENCES: Record<string, { dir: string; files: RegExp; lists: readonly string[]; fields: Record<string, { selector: string; value?: string }> }> = {
  'demo-shop-products': {
    dir: join(REPO_ROOT, 'examples', 'site', 'shop'),
    files: /^(?!index|page-).*\.html$/,
    lists: ['features'],
    fields: {
      name: { selector: 'article.product > h1' },
      price: { selector: 'article.product > p.price' },
      sku: { selector: 'article.product > p.sku' },
      weight: { selector: "//table[@class='specs']//th[normalize-space()='Weight']/following-sibling::td[1]" },
      material: { selector: "//table[@class='specs']//th[normalize-space()='Material']/following-sibling::td[1]" },
      category: { selector: "//table[@class='specs']//th[normalize-space()='Category']/following-sibling::td[1]" },
      features: { selector: 'article.product ul.features > li' },
    },
  },
  'stackoverflow-questions': {
    dir: join(CORPUS_DIR, 'clusters', 'stackoverflow'),
    files: /^question-\d+\.html$/,
    lists: ['tags'],
    fields: {
      title: { selector: '#question-header h1 a' },
      votes: { selector: '#question span[itemprop=upvoteCount]' },
      tags: { selector: '#question .post-taglist a.post-tag' },
      asker: { selector: '#question td.post-signature.owner .user-details > a' },
      viewed: { selector: "//table[@id='qinfo']//tr[td/p[normalize-space()='viewed']]/td[2]" },
    },
  },
};

/** A source built from pages and reference selectors (null when its folder is missing). */
export function builtSource(name: keyof typeof REFERENCES): RecordSource | null {
  const ref = REFERENCES[name]!;
  let files: string[];
  try {
    files = readdirSync(ref.dir).filter((f) => ref.files.test(f)).sort();
  } catch {
    return null;
  }
  const pages = files.map((f) => {
    const tree = readTree(join(ref.dir, f));
    const values: Record<string, string[]> = {};
    for (const [field, r] of Object.entries(ref.fields)) values[field] = selectPattern(tree, { selector: r.selector }, 0).map((n) => valueOf(tree, n, r.value ?? 'text'));
    return { id: f.replace(/\.html$/, ''), tree, values };
  });
  // Pages of another kind in the folder (no value for the first field) are not records of this source.
  const records = pages.filter((p) => (p.values[Object.keys(ref.fields)[0]!] ?? []).length > 0);
  return { name, fields: Object.keys(ref.fields), lists: ref.lists, pages: records };
}

/** The names of the built sources. */
export const BUILT_SOURCES = Object.keys(REFERENCES) as Array<keyof typeof REFERENCES>;

/** Right / wrong / not found over every field, page and training page of a result. */
export function totalsOf(r: SourceResult): { right: number; wrong: number; notFound: number } {
  const out = { right: 0, wrong: 0, notFound: 0 };
  for (const run of r.runs)
    for (const f of Object.values(run.fields)) {
      out.right += f.right;
      out.wrong += f.wrong;
      out.notFound += f.notFound;
    }
  return out;
}
