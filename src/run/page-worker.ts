/**
 * Worker thread body of the page pool (page-pool.ts). It is told each task once: a template to mark pages
 * with (`apply`: template, content, apply), a wrapper to extract records with (`wrapper`: wrapper run), or
 * how to read pages' structures (`structure`: cluster), under an id (a pool shared by the sites of a run
 * holds one per site, dropped when the site is done); each other message is a page (its bytes and headers)
 * and the id of its task. It answers with the page's Tree (moved back as typed arrays,
 * tree-transfer.ts) and what the task gave, or (`render`) the page's output files already rendered, or
 * (`structure`) the page's structure alone, or the error that kept the page from being handled.
 */
import { parentPort } from 'node:worker_threads';
import type { Page } from '../site/page.ts';
import type { Tree } from '../html/tree.ts';
import type { Template, TemplateSet } from '../template/learned.ts';
import { treeParts, type TreeParts } from '../template/pagelets/tree-transfer.ts';
import type { TagListOptions } from '../structure/link-collections.ts';
import type { StructureOptions } from '../structure/page-structure.ts';
import type { RunOptions } from '../wrapper/run.ts';
import type { Wrapper } from '../wrapper/wrapper.ts';
import type { ContentTask } from './page-content.ts';
import { WORKER_FAULT } from './page-pool.ts';

/** What a worker of the page pool does to every page it is given. */
export type PageTask =
  | { kind: 'apply'; template: Template | TemplateSet; render?: boolean; content?: ContentTask }
  | { kind: 'wrapper'; wrapper: Wrapper; settings?: RunOptions['settings']; url?: string }
  | { kind: 'structure'; options: StructureOptions; tagLists?: TagListOptions };

/**
 * A task's work on one page (with what the worker is told of it): the page's Tree and what else the answer
 * holds; and which errors are not about the page but the task's (they end the run: page-pool.ts).
 */
interface Handler {
  handle(page: Page, about: Record<string, unknown>): { answer: Record<string, unknown>; transfer: ArrayBuffer[] };
  fatal(err: unknown): boolean;
}

async function handlerOf(task: PageTask): Promise<Handler> {
  if (task.kind === 'apply') {
    const [{ appliedPage, renderedOf }, { TemplateError }, { contentRendered }] = await Promise.all([import('./pooled.ts'), import('../template/learned.ts'), import('./page-content.ts')]);
    return {
      handle: (page) => {
        const a = appliedPage(task.template, page);
        if (task.content) {
          const c = contentRendered(a, task.content);
          return { answer: { rendered: c.rendered, info: c.info, warnings: c.warnings, stepped: { listing: c.listing, moved: c.moved } }, transfer: [] };
        }
        if (task.render) return { answer: { rendered: renderedOf(a), info: a.info }, transfer: [] };
        const t = withTree(a.tree);
        return { answer: { ...t.answer, template: a.template, info: a.info }, transfer: [...new Set([...t.transfer, a.template.buffer as ArrayBuffer])] };
      },
      fatal: (err) => err instanceof TemplateError,
    };
  }
  if (task.kind === 'structure') {
    const { structureElsewhere } = await import('../cluster/schema.ts');
    return { handle: (page) => ({ answer: { structure: structureElsewhere(page, task.options, task.tagLists) }, transfer: [] }), fatal: () => false };
  }
  const [{ wrapperPage }, { WrapperError }] = await Promise.all([import('./wrapper.ts'), import('../wrapper/wrapper.ts')]);
  return {
    handle: (page, about) => {
      const { tree, run } = wrapperPage(task.wrapper, page, String(about['name'] ?? page.url), task);
      const t = withTree(tree);
      return { answer: { ...t.answer, run }, transfer: t.transfer };
    },
    fatal: (err) => err instanceof WrapperError,
  };
}

/** A page's Tree in an answer (`parts`), its buffers moved. */
function withTree(tree: Tree): { answer: { parts: TreeParts }; transfer: ArrayBuffer[] } {
  const t = treeParts(tree);
  return { answer: { parts: t.parts }, transfer: t.transfer };
}

/** The tasks this worker was told, by id. */
const handlers = new Map<number, Promise<Handler>>();

/** Fault injection for the tests: the page on which this worker stops, as a crash would stop it (read once). */
const stopOn = process.env[WORKER_FAULT];

parentPort?.on('message', (msg: { id: number; task?: PageTask; taskId?: number; drop?: number; page?: Page } & Record<string, unknown>) => {
  if (msg.task) {
    handlers.set(msg.taskId!, handlerOf(msg.task));
    return;
  }
  if (msg.drop !== undefined) {
    handlers.delete(msg.drop);
    return;
  }
  const page = msg.page!;
  const handler = handlers.get(msg.taskId!) ?? Promise.reject(new Error(`no task ${String(msg.taskId)} in this worker`));
  // Pages are handled in the order they came (each task's promise resolves once; callbacks run in turn).
  void handler.then(
    (h) => {
      if (stopOn !== undefined && stopOn === page.key) process.exit(70);
      try {
        const { answer, transfer } = h.handle(page, msg);
        parentPort!.postMessage({ id: msg.id, ok: true, ...answer }, transfer);
      } catch (err) {
        parentPort!.postMessage({ id: msg.id, ok: true, error: err instanceof Error ? err.message : String(err), fatal: h.fatal(err) });
      }
    },
    (err: unknown) => parentPort!.postMessage({ id: msg.id, ok: false, message: err instanceof Error ? err.message : String(err) }),
  );
});
