/**
 * `runWrapperFile`: what `gabarit wrapper run` does, for scripts too: a wrapper file run on every page of
 * its sources (run/wrapper.ts `runWrapperOn`), one record line per page (`{page, record, steps}`) in
 * `<dir>/records.jsonl` or on a stream, the summary in `<dir>/summary.json`, and with `update` the adapted
 * wrapper written back. A wrapper file that cannot be read or parsed, or one of its selectors that cannot
 * be run, is a UsageError.
 */
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.ts';
import type { RunsSummary } from '../wrapper/design.ts';
import type { PageRun, PatternReport, RunOptions } from '../wrapper/run.ts';
import type { Wrapper } from '../wrapper/wrapper.ts';
import type { WrapperFetchOptions } from './wrapper.ts';

/** Options of `runWrapperFile`. */
export interface WrapperFileOptions {
  fetch: WrapperFetchOptions;
  /** Settings overriding the wrapper's (threshold, algorithms, views). */
  settings?: RunOptions['settings'];
  /** The address of a single page. */
  url?: string;
  /** Where records.jsonl and summary.json go (absolute); without it the record lines go to `records`. */
  dir?: string;
  records?: NodeJS.WritableStream;
  /** Write the adapted wrapper to this file (the wrapper's own to write it back). */
  update?: string;
  /**
   * Worker threads running the wrapper on the pages of a source (default 0: the main thread; page-pool.ts);
   * with `update` the pages are run on the main thread, each with the wrapper adapted on the pages before.
   */
  workers?: number;
  /** Each page run, as it is done. */
  onPage?: (page: string, run: PageRun) => void;
  /** A page that could not be read. */
  onFailure?: (page: string, message: string) => void;
}

/** What `runWrapperFile` did. */
export interface WrapperFileResult {
  /** The wrapper after the run (adapted when `update` was given). */
  wrapper: Wrapper;
  summary: RunsSummary;
  /** Pages that could not be read. */
  unreadable: number;
}

/** The wrapper of a file, or a UsageError. */
export async function readWrapperFile(path: string): Promise<Wrapper> {
  const { parseWrapper, WrapperError } = await import('../wrapper/wrapper.ts');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the wrapper ${path}: ${(e as Error).message}`);
  }
  try {
    return parseWrapper(text, path);
  } catch (e) {
    if (e instanceof WrapperError) throw new UsageError(e.message);
    throw e;
  }
}

/** Runs the wrapper of `wrapperPath` on the pages of `pages` (see the module comment). */
export async function runWrapperFile(wrapperPath: string, pages: readonly string[], options: WrapperFileOptions): Promise<WrapperFileResult> {
  const start = performance.now();
  let w = await readWrapperFile(wrapperPath);
  const [{ runWrapperOn }, { updateWrapper }, { WrapperError }, { OutputWriter }, { summarizeRuns }] = await Promise.all([
    import('./wrapper.ts'),
    import('../wrapper/run.ts'),
    import('../wrapper/wrapper.ts'),
    import('../output.ts'),
    import('../wrapper/design.ts'),
  ]);
  const running = await runWrapperOn(() => w, pages, {
    fetch: options.fetch,
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.url !== undefined ? { url: options.url } : {}),
    workers: options.update === undefined ? (options.workers ?? 0) : 0,
  });
  const writer = options.dir !== undefined ? new OutputWriter(options.dir) : null;
  if (writer) await mkdir(writer.dir, { recursive: true });
  const out = writer ? createWriteStream(join(writer.dir, 'records.jsonl')) : (options.records ?? process.stdout);
  // Only what the summary needs of each run is kept (not the trees).
  const runs: Array<Pick<PageRun, 'page' | 'reports'>> = [];
  let unreadable = 0;
  try {
    for await (const loaded of running.pages) {
      const page = loaded.name;
      if (!loaded.ok) {
        writer?.fail(loaded.failure);
        unreadable++;
        options.onFailure?.(page, loaded.failure.message);
        continue;
      }
      const r = loaded.run;
      runs.push({ page: r.page, reports: r.reports });
      options.onPage?.(page, r);
      out.write(JSON.stringify({ page, record: r.record, steps: stepsOf(r.reports) }) + '\n');
      if (options.update !== undefined && r.adapted) w = updateWrapper(w, r, loaded.tree);
    }
  } catch (e) {
    // A selector of the wrapper that cannot be run fails on every page: the wrapper file is at fault.
    if (e instanceof WrapperError) throw new UsageError(`${wrapperPath}: ${e.message}`);
    throw e;
  }
  if (writer) await new Promise<void>((resolve) => (out as NodeJS.WritableStream).end(resolve));
  if (options.update !== undefined) writeFileSync(options.update, JSON.stringify(w, null, 1) + '\n');
  const summary = summarizeRuns(runs);
  if (writer) {
    await writer.writeJson('summary.json', {
      command: 'wrapper run',
      wrapper: wrapperPath,
      source: pages.length === 1 ? pages[0] : `${pages.length} pages`,
      pagesLoaded: running.fetched(),
      timings: { total: Math.round(performance.now() - start) },
      pagesDone: summary.pages,
      pagesFailed: writer.failed.length,
      failures: writer.failed,
      pagesComplete: summary.complete,
      pagesIncomplete: summary.incomplete.length,
      patterns: summary.patterns,
      incomplete: summary.incomplete,
    });
  }
  return { wrapper: w, summary, unreadable };
}

/** The `steps` of a record line: per pattern, how it was found (or why not). */
export function stepsOf(reports: readonly PatternReport[]): Record<string, Record<string, unknown>> {
  const round = (x: number): number => Math.round(x * 1e4) / 1e4;
  const steps: Record<string, Record<string, unknown>> = {};
  for (const rep of reports) {
    const s: Record<string, unknown> = { step: rep.step, similarity: rep.similarity === null ? null : round(rep.similarity) };
    if (rep.view && rep.step !== 'selector' && rep.step !== 'not-found') s['view'] = rep.view;
    if (rep.reason !== undefined) s['reason'] = rep.reason;
    if (rep.matched !== 1) s['matched'] = rep.matched;
    if (rep.rival) s['rival'] = { selector: rep.rival.selector, similarity: round(rep.rival.similarity) };
    if (rep.contentSimilarity !== undefined) s['contentSimilarity'] = round(rep.contentSimilarity);
    if (rep.documentSimilarity !== undefined) s['documentSimilarity'] = round(rep.documentSimilarity);
    if (rep.newSelector) s['selector'] = rep.newSelector;
    if (rep.step === 'not-found') s['violations'] = rep.violations;
    if (rep.cause) s['cause'] = rep.cause;
    if (rep.chosenBy) s['chosenBy'] = rep.chosenBy;
    steps[rep.pattern] = s;
  }
  return steps;
}
