/**
 * A learning engine's run (align, hyperlink) with its per-page work on all cores: the site's template is
 * learned on the main thread (`engine.learn`), then every page of the source is marked with it in the page
 * pool (page-pool.ts), in the source's order, and handed to the run's `onPage` as `engine.run` hands them.
 * Used by `gabarit template` and `gabarit content` when worker threads are given and the source is read
 * again cheaply (local files, a WARC); a crawl of a URL keeps the engine's own single pass (reading its
 * pages again would fetch them again).
 */
import type { PageFailure } from '../output.ts';
import type { Page, PageSource } from '../site/page.ts';
import type { PageFinish } from '../content/engine.ts';
import type { ContentFormat } from '../content/format.ts';
import type { EngineContext, EngineRun, TemplateEngine } from '../template/engine.ts';
import { type Template, type TemplateSet, TemplateError } from '../template/learned.ts';
import { pageTitle } from '../content/format.ts';
import { pageFiles } from '../output.ts';
import type { PageMarks, RenderedPage } from '../template/result.ts';
import { treeFromParts, type TreeParts } from '../template/pagelets/tree-transfer.ts';
import { noContentOf } from './no-content.ts';
import { type AppliedPage, applyTemplate } from './learn.ts';
import type { ContentTask } from './page-content.ts';
import type { PageTask } from './page-worker.ts';
import { eachPage, type PageWork, SharedPages } from './page-pool.ts';

/**
 * A page rendered in a worker: its output files, its info, and after the content step the warnings to tell
 * and what the content engine counts (`stepped`).
 */
export interface RenderedInWorker {
  rendered: RenderedPage;
  info: Record<string, unknown>;
  warnings?: string[];
  stepped?: { listing: boolean; moved: boolean };
}

/** A page marked, or (`render`) its output files rendered from its marks in a worker. */
export type Marked = AppliedPage | RenderedInWorker;

/** A page marked with `template`, as the page pool's workers apply it. */
export function appliedPage(template: Template | TemplateSet, p: Page): AppliedPage {
  return applyTemplate(template, { bytes: p.body, ...(p.headers['content-type'] ? { contentType: p.headers['content-type'] } : {}), key: p.key, url: p.url }, { key: p.key, url: p.url });
}

/**
 * What the files of a marked page hold (output.ts `pageFiles`), its `<title>` and its no-content check: all
 * the writer needs, made where the page's tree is (a worker), so that the main thread only writes (`noContent`: the check when already made).
 */
export function renderedOf(m: PageMarks, noContent: PageFailure | null = noContentOf(m) ?? null): RenderedPage {
  return { key: m.key, url: m.url, ...pageFiles(m), title: pageTitle(m.tree), noContent };
}

/**
 * Pages marked with `template` (a Template or TemplateSet), on the main thread as in the workers; with
 * `render`, a worker renders the page's output files (`renderedOf`) and sends them instead of its tree.
 * With `content`, once `content()` gives the step (the site vote), the workers do the content step as well
 * (page-content.ts `contentRendered`) and render the result; before, they mark the pages and send their trees.
 */
export function applyWork(template: Template | TemplateSet, render: boolean, content?: () => ContentTask | undefined): Omit<PageWork<Marked>, 'workers' | 'signal'> {
  const plain: PageTask = { kind: 'apply', template, render: content ? false : render };
  /** The content task, made once the step is known (the same object after: the workers are told it once). */
  let finished: PageTask | undefined;
  return {
    task: content
      ? () => {
          if (finished) return finished;
          const step = content();
          if (step === undefined) return plain;
          finished = { kind: 'apply', template, render: true, content: step };
          return finished;
        }
      : plain,
    inline: (p: Page) => appliedPage(template, p),
    received: (a, p) =>
      a['rendered'] !== undefined
        ? {
            rendered: a['rendered'] as RenderedPage,
            info: a['info'] as Record<string, unknown>,
            ...(a['warnings'] !== undefined ? { warnings: a['warnings'] as string[] } : {}),
            ...(a['stepped'] !== undefined ? { stepped: a['stepped'] as { listing: boolean; moved: boolean } } : {}),
          }
        : { key: p.key, url: p.url, tree: treeFromParts(a['parts'] as TreeParts), template: a['template'] as Uint8Array, info: a['info'] as Record<string, unknown> },
    // A template that cannot be applied at all ends the run.
    fatal: { is: (err) => err instanceof TemplateError, rebuild: (message) => new TemplateError(message) },
  };
}

/** True when `engine` runs with its pages marked in the pool: it learns and applies, and `source` is local. */
export function poolable(engine: TemplateEngine, source: PageSource, workers: number): boolean {
  return workers > 0 && engine.learn !== undefined && engine.compile !== undefined && engine.name !== 'pagelets' && source.kind !== 'http';
}

/**
 * Runs `engine` on `ctx` as its `run` would, its pages marked by `workers` worker threads (see the module
 * comment); with `finish` (the content engine's, for a caller taking rendered pages), the workers finish
 * each page once its step is known, `format` giving its main content in that format too.
 */
export async function pooledRun(engine: TemplateEngine, ctx: EngineContext, workers: number, finish?: PageFinish, format?: ContentFormat, shared?: SharedPages): Promise<EngineRun> {
  // Pages learning could not read, named once: when reading them again fails too, that failure names them.
  const unread = new Map<string, PageFailure>();
  const { onPage: _onPage, ...learnCtx } = ctx;
  const learned = await engine.learn!({ ...learnCtx, onFailure: (f) => unread.set(f.key, f) });
  // What every worker is given is the template as template.json holds it; the main thread applies the same.
  const template = JSON.parse(JSON.stringify(learned.template)) as Template;
  const t0 = performance.now();
  let done = 0;
  // Pages the caller takes rendered (template) are rendered in the workers; others (content) come as trees.
  const onRendered = ctx.onRendered;
  const content = finish ? (): ContentTask | undefined => {
        const step = finish.step();
        return step && { ...step, ...(format !== undefined ? { format } : {}) };
      } : undefined;
  for await (const a of eachPage(ctx.source.pages(), { ...applyWork(template, onRendered !== undefined, content), workers, ...(shared ? { shared } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) })) {
    if (!a.ok) {
      unread.delete(a.failure.key);
      ctx.onFailure(a.failure);
      continue;
    }
    unread.delete(a.page.key);
    const v = a.value;
    if ('rendered' in v) {
      for (const w of v.warnings ?? []) ctx.onWarning?.(w);
      if (finish && v.stepped) await finish.done(v.rendered, v.info, v.stepped);
      else await onRendered!(v.rendered, v.info);
    } else {
      const { info, ...marks } = v;
      await ctx.onPage(marks, info);
    }
    ctx.onProgress?.('apply', ++done);
  }
  for (const f of unread.values()) ctx.onFailure(f);
  return { template: learned.template, summary: { ...learned.summary, pagesMarked: done }, timings: { ...learned.timings, apply: Math.round(performance.now() - t0) } };
}

/** Runs a learning engine on a context (see `engineRunner`); `close()` stops the workers of its runs. */
export interface EngineRunner {
  (engine: TemplateEngine, ctx: EngineContext, finish?: PageFinish): Promise<EngineRun>;
  close(): Promise<void>;
}

/**
 * How a run layer's caller runs a learning engine: in the pool when `poolable`, else the engine's own run
 * (`format`: the content format the workers make of each page they finish). The runs of one runner (the
 * sites of a run) share one pool of `workers` threads, started when a first page needs it and stopped by
 * `close()`.
 */
export function engineRunner(workers: number, how: { format?: ContentFormat } = {}): EngineRunner {
  const shared = workers > 0 ? new SharedPages(workers) : undefined;
  const run = (engine: TemplateEngine, ctx: EngineContext, finish?: PageFinish): Promise<EngineRun> =>
    poolable(engine, ctx.source, workers) ? pooledRun(engine, ctx, workers, finish, how.format, shared) : engine.run(ctx);
  return Object.assign(run, { close: async () => void (await shared?.close()) });
}
