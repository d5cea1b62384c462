/**
 * What a tool that builds wrappers interactively needs besides creating and running them (paper 5,
 * Section 4, design time): a user points at an element, and the tool proposes patterns
 * (suggest.ts `suggestPatterns`: single value, list, nested inside another pattern's instance, attribute,
 * own text or the text after a label, each with its match count on the page and a look-alike warning),
 * shows how a selector does on every page (`previewSelector`), the constraints inferred from the values
 * (create.ts `inferConstraints`), and, once the wrapper runs, per pattern how it was found on each page or
 * why not (`summarizeRuns` over run.ts `PageRun`s, whose reports carry reason codes).
 * Plain functions over parsed pages; nothing here keeps state.
 */
import type { Tree } from '../html/tree.ts';
import type { NotFoundReason, PageRun } from './run.ts';
import { collapseRepeats, selectPattern } from './run.ts';
import { valueOf } from './value.ts';
import { selectorProblem, WrapperError, type Pattern } from './wrapper.ts';

/** One page of a preview. */
export interface PreviewPage {
  /** The page's name (a path or URL), for display. */
  page: string;
  tree: Tree;
}

/** How a selector does on one page, without adaptation. */
export interface SelectorPreview {
  page: string;
  /** Elements the selector matches (inside `scope` when given). */
  matches: number;
  /** Their values (value mode of the pattern), in document order. */
  values: string[];
  /**
   * For a single pattern: `ok` (one value), `none` (no match), `ambiguous` (several matches with different
   * values: a run would refuse them, and `create` refuses such a selector).
   */
  verdict: 'ok' | 'none' | 'ambiguous' | 'list';
}

/**
 * The selector of `pattern` on each page, as a designer shows it while the user edits it: how many
 * elements it matches and their values. No tree-gram, no adaptation: the selector alone. Throws a
 * WrapperError when the selector is not valid. `scope` (per page) evaluates it inside an element, as a
 * nested pattern is.
 */
export function previewSelector(
  pages: readonly PreviewPage[],
  pattern: Pick<Pattern, 'selector' | 'xpath' | 'value' | 'multiple' | 'constraints'>,
  scope: (page: PreviewPage) => number = () => 0,
): SelectorPreview[] {
  const problem = selectorProblem(pattern);
  if (problem !== null) throw new WrapperError(problem);
  return pages.map((p) => {
    const nodes = selectPattern(p.tree, pattern, scope(p));
    const values = nodes.map((n) => valueOf(p.tree, n, pattern.value));
    let verdict: SelectorPreview['verdict'] = 'list';
    if (!pattern.multiple) verdict = nodes.length === 0 ? 'none' : collapseRepeats(p.tree, pattern, nodes).length === 1 ? 'ok' : 'ambiguous';
    return { page: p.page, matches: nodes.length, values, verdict };
  });
}

/** Per pattern over several runs: how each page found it, and why not where it did not. */
export interface PatternTally {
  /** Pages per step (`selector`, `ctm`, …, `not-found`). */
  steps: Record<string, number>;
  /** Pages per reason, where the pattern was not found. */
  notFound: Partial<Record<NotFoundReason, number>>;
}

/** What a set of runs says, pattern by pattern and page by page (a designer's table, summary.json of the CLI). */
export interface RunsSummary {
  pages: number;
  /** Pages where every pattern was found. */
  complete: number;
  patterns: Record<string, PatternTally>;
  /** Pages where some pattern was not found, with the patterns and their reasons. */
  incomplete: Array<{ page: string; notFound: Array<{ pattern: string; reason: NotFoundReason }> }>;
}

/** Tallies the reports of runs (run.ts `runWrapper`, one per page) per pattern and per page. */
export function summarizeRuns(runs: Iterable<Pick<PageRun, 'page' | 'reports'>>): RunsSummary {
  const out: RunsSummary = { pages: 0, complete: 0, patterns: {}, incomplete: [] };
  for (const r of runs) {
    out.pages++;
    for (const rep of r.reports) {
      const t = (out.patterns[rep.pattern] ??= { steps: {}, notFound: {} });
      t.steps[rep.step] = (t.steps[rep.step] ?? 0) + 1;
      if (rep.step === 'not-found') {
        const reason = rep.reason ?? 'not-similar';
        t.notFound[reason] = (t.notFound[reason] ?? 0) + 1;
      }
    }
    const missed = r.reports.filter((x) => x.step === 'not-found');
    if (missed.length === 0) out.complete++;
    else out.incomplete.push({ page: r.page, notFound: missed.map((x) => ({ pattern: x.pattern, reason: x.reason ?? 'not-similar' })) });
  }
  return out;
}
