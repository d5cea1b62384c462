/**
 * Worker thread body for the per-page work of the pagelets engine (workers.ts starts it). Each message is
 * one page: `analyse` (pass 1: parse, partition, shingle, links → a PageRecord) or `mark` (pass 2: parse,
 * partition, mark the given template pagelets → the Tree and its marks). Pure functions of the page.
 */
import { parentPort } from 'node:worker_threads';
import { analyseTree, type AnalysisOptions, marksFromPagelets, pageletLabels, parseBytes } from './page-analysis.ts';
import { partition } from './partition.ts';
import { treeParts } from './tree-transfer.ts';

/** A request to a worker. */
export interface WorkerRequest {
  id: number;
  op: 'analyse' | 'mark';
  body: Uint8Array;
  contentType: string | undefined;
  key: string;
  url: string;
  options: AnalysisOptions;
  /** For `mark`: the template pagelet ordinals. */
  ordinals?: Int32Array;
}

parentPort?.on('message', (req: WorkerRequest) => {
  try {
    // A fresh label table per page: labels play no part here, and a long-lived table (with its caches)
    // would grow with every distinct tag of a 200,000-page crawl.
    const tree = parseBytes(req.body, req.contentType, req.key, pageletLabels());
    if (req.op === 'analyse') {
      const rec = analyseTree(tree, req.key, req.url, req.options);
      const { pageletLinks: _omit, ...record } = rec;
      parentPort!.postMessage({ id: req.id, ok: true, record }, [record.pagelets.buffer as ArrayBuffer, record.shingles.buffer as ArrayBuffer, record.links.buffer as ArrayBuffer]);
    } else {
      const pagelets = partition(tree, { k: req.options.k ?? 3 });
      const marks = marksFromPagelets(tree, pagelets, req.ordinals ?? new Int32Array(0));
      const { parts, transfer } = treeParts(tree);
      parentPort!.postMessage({ id: req.id, ok: true, parts, marks, pagelets: pagelets.length }, [...transfer, marks.buffer as ArrayBuffer]);
    }
  } catch (err) {
    parentPort!.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
