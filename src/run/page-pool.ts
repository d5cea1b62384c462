/**
 * A learned template applied to every page of a source on all cores: the pages are read on the main
 * thread, in order; each is marked by a worker thread of a pool (../template/pool.ts, page-worker.ts) that
 * was given the template once, and comes back as its Tree and marks; the outcomes are handed on in the
 * source's order, so the output is the one a run on the main thread writes. The first `INLINE_FIRST` pages,
 * and every page with `workers: 0`, are marked on the main thread (a pool costs more than it saves on a
 * small run). A page whose worker stops (a crash) is a failure naming it (`worker-stopped`); the others go on.
 */
import type { PageFailure } from '../output.ts';
import type { Page, PageResult } from '../site/page.ts';
import type { Template, TemplateSet } from '../template/learned.ts';
import { treeFromParts, type TreeParts } from '../template/pagelets/tree-transfer.ts';
import { INLINE_FIRST, WorkerPool, WorkerStopped, workerStart } from '../template/pool.ts';

export { defaultWorkers } from '../template/pool.ts';
import type { AppliedPage } from './learn.ts';

/** Environment variable naming a page key on which a page worker stops (the tests' crash). */
export const WORKER_FAULT = 'GABARIT_TEST_WORKER_STOP';

/** A page sent to a worker (its bytes copied, so that it can be sent again to another worker). */
export interface PageRequest {
  key: string;
  url: string;
  bytes: Uint8Array;
  contentType?: string;
}

/** What a worker answers for a page. */
export type PageReply = { parts: TreeParts; template: Uint8Array; info: Record<string, unknown> } | { error: string };

/** A page marked, or why it was not. */
export type Applied = { ok: true; page: AppliedPage } | { ok: false; failure: PageFailure };

/** Requests held by each worker at most: one running, one waiting (so no worker idles between pages). */
const PER_WORKER = 2;

/** How each page is marked on the main thread, and what the pool's workers are given. */
export interface ApplyEach {
  /** The template (a value template.json can hold) the workers are given. */
  template: Template | TemplateSet;
  /** Marks one page on the main thread (throws for a page that cannot be marked). */
  inline(page: Page): AppliedPage;
  /** Worker threads (0: the main thread only). */
  workers: number;
  signal?: AbortSignal;
}

/** The failure of a page that could not be marked (`parse-error`) or whose worker stopped. */
function failureOf(page: Pick<Page, 'url' | 'key'>, err: unknown): PageFailure {
  const message = err instanceof Error ? err.message : String(err);
  return { url: page.url, key: page.key, code: err instanceof WorkerStopped ? 'worker-stopped' : 'parse-error', message: `${page.url}: ${message}` };
}

/** Marks a page in the pool. */
async function inPool(pool: WorkerPool, page: Page): Promise<Applied> {
  const contentType = page.headers['content-type'];
  const req: PageRequest = { key: page.key, url: page.url, bytes: page.body, ...(contentType ? { contentType } : {}) };
  try {
    const r = await pool.request<PageReply>(req as unknown as Record<string, unknown>);
    if ('error' in r) return { ok: false, failure: failureOf(page, r.error) };
    return { ok: true, page: { key: page.key, url: page.url, tree: treeFromParts(r.parts), template: r.template, info: r.info } };
  } catch (err) {
    return { ok: false, failure: failureOf(page, err) };
  }
}

/**
 * The outcome of every page of `pages` marked as `how` says, in their order (see the module comment). An
 * error thrown by `how.inline` that is not about the page (a template that cannot be compiled) ends the run:
 * `fatal` says which.
 */
export async function* applyEach(pages: AsyncIterable<PageResult>, how: ApplyEach, fatal: (err: unknown) => boolean = () => false): AsyncGenerator<Applied> {
  let pool: WorkerPool | null = null;
  const queue: Array<Promise<Applied>> = [];
  let seen = 0;
  try {
    for await (const r of pages) {
      how.signal?.throwIfAborted();
      if (!r.ok) {
        queue.push(Promise.resolve({ ok: false, failure: { url: r.url, key: r.key, code: r.error.code, message: r.error.message } }));
      } else if (how.workers <= 0 || ++seen <= INLINE_FIRST) {
        let a: Applied;
        try {
          a = { ok: true, page: how.inline(r.page) };
        } catch (err) {
          if (fatal(err)) throw err;
          a = { ok: false, failure: failureOf(r.page, err) };
        }
        queue.push(Promise.resolve(a));
      } else {
        pool ??= new WorkerPool(how.workers, workerStart(import.meta.url, 'page-worker'), 'page', { template: how.template });
        queue.push(inPool(pool, r.page));
      }
      const window = pool ? pool.size * PER_WORKER : 0;
      while (queue.length > window) yield await queue.shift()!;
    }
    while (queue.length > 0) yield await queue.shift()!;
  } finally {
    await pool?.close();
  }
}
