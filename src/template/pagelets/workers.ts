/**
 * The pagelets engine's per-page work in worker threads (DESIGN.md, "Scale"), on the pool every command
 * shares (../pool.ts). Work goes in batches of pages (one message each way per batch; the pages' bytes
 * copied once into one buffer that is moved to the worker and moved back with the answer, for a later
 * batch; the results moved back as typed arrays). The caller bounds how many batches
 * are in flight (engine.ts), so memory does not grow with the source.
 */
import type { Tree } from '../../html/tree.ts';
import { WorkerPool, workerStart as poolStart } from '../pool.ts';
import type { AnalysisOptions, RecordBatch } from './page-analysis.ts';
import type { RecordKind } from './render.ts';
import { treeFromParts } from './tree-transfer.ts';
import type { MarkReply, WorkerRequest } from './worker.ts';

/** A page handed to a worker. */
export interface BatchPage {
  body: Uint8Array;
  contentType: string | undefined;
  key: string;
  /** The URL its links resolve against. */
  url: string;
}

/** Batch buffers the workers gave back, kept for the next batches (at most `SPARE_MAX`). */
const SPARE_MAX = 8;
/** A new batch buffer's size is rounded up to this, so that it fits later batches too. */
const SPARE_STEP = 1 << 20;

/**
 * The bytes of a batch in one buffer moved to the worker (a buffer a worker gave back when one is big
 * enough: new ones, zero-filled and outside the heap, made the main thread's collector run more often),
 * with the pages' offsets and names.
 */
function packPages(pages: readonly BatchPage[], spare: ArrayBuffer[]): Pick<WorkerRequest, 'bytes' | 'offsets' | 'contentTypes' | 'keys' | 'urls'> {
  const offsets = new Int32Array(pages.length + 1);
  for (let j = 0; j < pages.length; j++) offsets[j + 1] = offsets[j]! + pages[j]!.body.length;
  const size = offsets[pages.length]!;
  const k = spare.findIndex((b) => b.byteLength >= size);
  const buffer = k >= 0 ? spare.splice(k, 1)[0]! : new ArrayBuffer(Math.ceil(Math.max(size, 1) / SPARE_STEP) * SPARE_STEP);
  const bytes = new Uint8Array(buffer, 0, size);
  for (let j = 0; j < pages.length; j++) bytes.set(pages[j]!.body, offsets[j]!);
  return { bytes, offsets, contentTypes: pages.map((p) => p.contentType), keys: pages.map((p) => p.key), urls: pages.map((p) => p.url) };
}

/** What `mark` returns: the page's Tree and its template marks. */
export interface MarkedTree {
  tree: Tree;
  marks: Uint8Array;
  pagelets: number;
}

/** How a worker thread of the pagelets engine loads its code (worker.ts beside this module). */
export function workerStart(moduleUrl: string): { script: string | URL; eval: boolean } {
  return poolStart(moduleUrl, 'worker');
}

export class PageletPool {
  private readonly pool: WorkerPool;

  /** Starts `size` workers (at least one). */
  constructor(size: number) {
    this.pool = new WorkerPool(size, workerStart(import.meta.url), 'pagelets');
  }

  get size(): number {
    return this.pool.size;
  }

  /** Requests waiting or running. */
  get inFlight(): number {
    return this.pool.inFlight;
  }

  /** Batch buffers given back by the workers (packPages). */
  private readonly spare: ArrayBuffer[] = [];

  private async send(req: Omit<WorkerRequest, 'id'>): Promise<unknown> {
    // the batch's bytes were copied into a buffer of their own (packPages): move it, do not copy it again
    const transfer = [req.bytes.buffer as ArrayBuffer];
    if (req.ordinals) transfer.push(req.ordinals.buffer as ArrayBuffer);
    const msg = (await this.pool.request({ ...req }, transfer)) as { spare?: ArrayBuffer };
    if (msg.spare instanceof ArrayBuffer && this.spare.length < SPARE_MAX) this.spare.push(msg.spare);
    return msg;
  }

  /** Pass 1 on a batch of pages: their PageRecords, packed (with their render records of kind `render`, if given). */
  async analyse(pages: readonly BatchPage[], options: AnalysisOptions, render?: RecordKind): Promise<RecordBatch> {
    const msg = (await this.send({ op: 'analyse', ...packPages(pages, this.spare), options, ...(render ? { render } : {}) })) as { batch: RecordBatch };
    return msg.batch;
  }

  /** Pass 2 on a batch of pages: each page's Tree with the given template pagelets marked, or its error. */
  async mark(pages: readonly BatchPage[], ordinals: readonly Int32Array[], options: AnalysisOptions): Promise<Array<MarkedTree | Error>> {
    const ordinalStart = new Int32Array(pages.length + 1);
    for (let j = 0; j < pages.length; j++) ordinalStart[j + 1] = ordinalStart[j]! + ordinals[j]!.length;
    const all = new Int32Array(ordinalStart[pages.length]!);
    for (let j = 0; j < pages.length; j++) all.set(ordinals[j]!, ordinalStart[j]!);
    const msg = (await this.send({ op: 'mark', ...packPages(pages, this.spare), options, ordinals: all, ordinalStart })) as { replies: MarkReply[] };
    return msg.replies.map((r) => ('error' in r ? new Error(r.error) : { tree: treeFromParts(r.parts), marks: r.marks, pagelets: r.pagelets }));
  }

  /** Stops every worker. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
