/**
 * The per-page work of a command on all cores, what was learned given once: the pages are read on the
 * main thread, in order; each is handed to a worker thread of a pool (../template/pool.ts, page-worker.ts)
 * that was told the work's model once (a template to mark pages with, a wrapper to extract records
 * with), and its answer comes back (the page's Tree moved as typed arrays, tree-transfer.ts, or its output
 * rendered); the outcomes are handed on in the source's order, so the output is the one a run on the main
 * thread writes. The first `INLINE_FIRST` pages (of the run, when the sites of a run share a pool:
 * `SharedPages`), and every page with `workers: 0`, are handled on the main thread (a pool costs more than
 * it saves on a small run). A page whose worker stops (a crash) is a failure naming it
 * (`worker-stopped`); the others go on.
 */
import type { PageFailure } from '../output.ts';
import type { Page, PageResult } from '../site/page.ts';
import { INLINE_FIRST, WorkerPool, WorkerStopped, workerStart } from '../template/pool.ts';
import type { PageTask } from './page-worker.ts';

export { defaultWorkers } from '../template/pool.ts';

/** Environment variable naming a page key on which a page worker stops (the tests' crash). */
export const WORKER_FAULT = 'GABARIT_TEST_WORKER_STOP';

/** A page's outcome: its value, or why there is none. */
export type Handled<T> = { ok: true; page: Page; value: T } | { ok: false; failure: PageFailure };

/**
 * Pages held by each worker at most: enough waiting that a worker never idles while its answers and the
 * next pages cross between threads, which on a loaded machine each wait for the scheduler.
 */
const PER_WORKER = 8;

/**
 * One pool of page workers for a whole run over several sites (template and content on a mixed crawl,
 * site by site): each site's work tells the workers its task once, under an id of its own, and drops it
 * when done; the first INLINE_FIRST pages of the run, not of each site, are handled on the main thread, so
 * a crawl of many small sites is spread over the cores too. Whoever makes it closes it when the run ends.
 */
export class SharedPages {
  private pool: WorkerPool | null = null;
  private nextTask = 1;
  /** Pages of the run handled so far, on the main thread or given to the pool. */
  seen = 0;

  constructor(readonly workers: number) {}

  /** The pool, started on first use. */
  get started(): WorkerPool {
    this.pool ??= new WorkerPool(this.workers, workerStart(import.meta.url, 'page-worker'), 'page');
    return this.pool;
  }

  /** Tells the workers `task`; returns its id. */
  add(task: PageTask): number {
    const id = this.nextTask++;
    this.started.tell(id, { task, taskId: id });
    return id;
  }

  /** The workers forget task `id` (a site done). */
  drop(id: number): void {
    this.pool?.forget(id, { drop: id });
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}

/** A command's per-page work, on the main thread and in the workers. */
export interface PageWork<T> {
  /**
   * What every worker is given once (page-worker.ts), or how to make it, asked for each page given to the
   * pool: when it gives another object, the workers are told it and the next pages are handled with it
   * (content: pages marked only until the site vote, then finished in the workers).
   */
  task: PageTask | (() => PageTask);
  /** Handles one page on the main thread (throws for a page that cannot be handled). */
  inline(page: Page): T;
  /** The value of a worker's answer for `page`. */
  received(answer: Record<string, unknown>, page: Page): T;
  /** What a worker is told of a page besides the page itself. */
  about?(page: Page): Record<string, unknown>;
  /** The warnings of a page read (problems it survives). */
  warn?(warning: string): void;
  /** Worker threads (0: the main thread only). */
  workers: number;
  /** The run's pool, shared with the other sites' work (else the work starts a pool of its own and closes it). */
  shared?: SharedPages;
  signal?: AbortSignal;
  /**
   * Errors that are not about the page (a template that cannot be compiled, a wrapper's selector that
   * cannot be run): thrown by `inline`, or told by a worker (`fatal` in its answer, the error rebuilt by
   * `rebuild`), they end the run.
   */
  fatal?: { is(err: unknown): boolean; rebuild(message: string): Error };
}

/** The failure of a page that could not be handled (`parse-error`), or whose worker stopped. */
export function failureOf(page: Pick<Page, 'url' | 'key'>, err: unknown): PageFailure {
  const message = err instanceof Error ? err.message : String(err);
  return { url: page.url, key: page.key, code: err instanceof WorkerStopped ? 'worker-stopped' : 'parse-error', message: `${page.url}: ${message}` };
}

async function inPool<T>(pool: WorkerPool, page: Page, work: PageWork<T>, taskId: number): Promise<Handled<T>> {
  let answer: Record<string, unknown>;
  try {
    answer = await pool.request<Record<string, unknown>>({ ...work.about?.(page), page, taskId });
  } catch (err) {
    return { ok: false, failure: failureOf(page, err) };
  }
  if (typeof answer['error'] !== 'string') return { ok: true, page, value: work.received(answer, page) };
  if (answer['fatal'] === true && work.fatal) throw work.fatal.rebuild(answer['error']);
  return { ok: false, failure: failureOf(page, answer['error']) };
}

/** The outcome of every page of `pages` handled as `work` says, in their order (see the module comment). */
export async function* eachPage<T>(pages: AsyncIterable<PageResult>, work: PageWork<T>): AsyncGenerator<Handled<T>> {
  // Without the run's pool, a pool of this work's own, closed at its end.
  const shared = work.shared ?? new SharedPages(work.workers);
  let pool: WorkerPool | null = null;
  /** The task the workers were last told for this work, its id, and every id told (dropped at the end). */
  let told: PageTask | undefined;
  let taskId = 0;
  const ids: number[] = [];
  const queue: Array<Promise<Handled<T>>> = [];
  try {
    for await (const r of pages) {
      work.signal?.throwIfAborted();
      if (!r.ok) {
        queue.push(Promise.resolve({ ok: false, failure: { url: r.url, key: r.key, code: r.error.code, message: r.error.message } }));
      } else if (work.workers <= 0 || ++shared.seen <= INLINE_FIRST) {
        for (const w of r.warnings ?? []) work.warn?.(w);
        let h: Handled<T>;
        try {
          h = { ok: true, page: r.page, value: work.inline(r.page) };
        } catch (err) {
          if (work.fatal?.is(err)) throw err;
          h = { ok: false, failure: failureOf(r.page, err) };
        }
        queue.push(Promise.resolve(h));
      } else {
        for (const w of r.warnings ?? []) work.warn?.(w);
        pool ??= shared.started;
        const task = typeof work.task === 'function' ? work.task() : work.task;
        if (task !== told) {
          told = task;
          taskId = shared.add(task);
          ids.push(taskId);
        }
        queue.push(inPool(pool, r.page, work, taskId));
      }
      const window = pool ? pool.size * PER_WORKER : 0;
      while (queue.length > window) yield await queue.shift()!;
    }
    while (queue.length > 0) yield await queue.shift()!;
  } finally {
    if (work.shared) for (const id of ids) work.shared.drop(id);
    else await shared.close();
  }
}
