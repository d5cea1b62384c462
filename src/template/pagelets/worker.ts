/**
 * Worker thread body for the per-page work of the pagelets engine (workers.ts starts it). Each message is
 * a batch of pages, their bytes in one buffer: `analyse` (pass 1: parse, partition, shingle, links → the
 * pages' PageRecords packed in a RecordBatch) or `mark` (pass 2: parse, partition, mark the given template
 * pagelets → each page's Tree parts and marks). Pure functions of the pages; everything sent back is typed
 * arrays that are moved to the main thread, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { analyseTree, type AnalysisOptions, marksFromPagelets, packRecords, type PageRecord, pageletLabels, parseBytes } from './page-analysis.ts';
import { partition } from './partition.ts';
import { recordOfKind, type RecordKind } from './render.ts';
import { treeParts, type TreeParts } from './tree-transfer.ts';

/** A batch request to a worker. */
export interface WorkerRequest {
  id: number;
  op: 'analyse' | 'mark';
  /** The pages' bytes, concatenated; page j is bytes[offsets[j], offsets[j+1]). */
  bytes: Uint8Array;
  offsets: Int32Array;
  contentTypes: Array<string | undefined>;
  keys: string[];
  urls: string[];
  options: AnalysisOptions;
  /** For `analyse`: also record what writing each page's output needs (render.ts, of this kind), packed in the batch. */
  render?: RecordKind;
  /** For `mark`: page j's template pagelet ordinals are ordinals[ordinalStart[j], ordinalStart[j+1]). */
  ordinals?: Int32Array;
  ordinalStart?: Int32Array;
}

/** What `mark` returns for one page. */
export type MarkReply = { parts: TreeParts; marks: Uint8Array; pagelets: number } | { error: string };

/**
 * One label table for the worker's life. Labels play no part in pagelets; with `attributes: 'none'` the
 * table holds one label per tag name, and its cache of start-tag texts is bounded (labels.ts), so it does
 * not grow with the crawl, and the cache saves re-reading the tags every page repeats.
 */
const labels = pageletLabels();

parentPort?.on('message', (req: WorkerRequest) => {
  try {
    const n = req.keys.length;
    const transfer: ArrayBuffer[] = [];
    const body = (j: number): Uint8Array => req.bytes.subarray(req.offsets[j]!, req.offsets[j + 1]!);
    // the batch's buffer, no longer read once the pages are parsed: given back for the next batch
    const spare = req.bytes.buffer as ArrayBuffer;
    if (req.op === 'analyse') {
      const recs: Array<PageRecord | Error> = [];
      const rendered: Array<Uint8Array | undefined> = [];
      for (let j = 0; j < n; j++) {
        try {
          const tree = parseBytes(body(j), req.contentTypes[j], req.keys[j]!, labels);
          const rec = analyseTree(tree, req.keys[j]!, req.urls[j]!, req.options);
          const r = req.render ? recordOfKind(tree, req.render) : undefined;
          recs.push(rec);
          rendered.push(r);
        } catch (err) {
          recs.push(err instanceof Error ? err : new Error(String(err)));
          rendered.push(undefined);
        }
      }
      const packed = packRecords(recs, req.render ? rendered : undefined);
      transfer.push(...packed.transfer, spare);
      parentPort!.postMessage({ id: req.id, ok: true, batch: packed.batch, spare }, transfer);
      return;
    }
    const replies: MarkReply[] = [];
    const ordinals = req.ordinals ?? new Int32Array(0);
    const start = req.ordinalStart ?? new Int32Array(n + 1);
    for (let j = 0; j < n; j++) {
      try {
        const tree = parseBytes(body(j), req.contentTypes[j], req.keys[j]!, labels);
        const pagelets = partition(tree, { k: req.options.k ?? 3, landmarks: req.options.landmarks ?? false });
        const marks = marksFromPagelets(tree, pagelets, ordinals.subarray(start[j]!, start[j + 1]!));
        const t = treeParts(tree);
        transfer.push(...t.transfer, marks.buffer as ArrayBuffer);
        replies.push({ parts: t.parts, marks, pagelets: pagelets.length });
      } catch (err) {
        replies.push({ error: err instanceof Error ? err.message : String(err) });
      }
    }
    transfer.push(spare);
    parentPort!.postMessage({ id: req.id, ok: true, replies, spare }, transfer);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
