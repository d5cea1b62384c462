/**
 * Worker thread body of the page pool (page-pool.ts): its first message is the template learned (or read
 * from template.json), each next one a page's bytes; it answers with the page marked by the template, its
 * Tree moved back as typed arrays (tree-transfer.ts), or the error that kept it from being marked.
 */
import { parentPort } from 'node:worker_threads';
import { treeParts } from '../template/pagelets/tree-transfer.ts';
import { applyTemplate } from './learn.ts';
import { type PageReply, type PageRequest, WORKER_FAULT } from './page-pool.ts';

let template: unknown;

/** The page marked with the template, ready to be sent back, and the buffers to move. */
function marked(req: PageRequest): { reply: PageReply; transfer: ArrayBuffer[] } {
  try {
    const a = applyTemplate(template, { bytes: req.bytes, ...(req.contentType ? { contentType: req.contentType } : {}), key: req.key, url: req.url }, { key: req.key, url: req.url });
    const t = treeParts(a.tree);
    return { reply: { parts: t.parts, template: a.template, info: a.info }, transfer: [...new Set([...t.transfer, a.template.buffer as ArrayBuffer])] };
  } catch (err) {
    return { reply: { error: err instanceof Error ? err.message : String(err) }, transfer: [] };
  }
}

parentPort?.on('message', (msg: { id: number; template?: unknown } & PageRequest) => {
  if (msg.id === -1) {
    template = msg.template;
    return;
  }
  // Fault injection for the tests: the worker stops on the page named, as a crash would stop it.
  if (process.env[WORKER_FAULT] !== undefined && process.env[WORKER_FAULT] === msg.key) process.exit(70);
  const { reply, transfer } = marked(msg);
  parentPort!.postMessage({ id: msg.id, ok: true, ...reply }, transfer);
});
