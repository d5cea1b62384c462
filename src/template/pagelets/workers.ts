/**
 * A small pool of worker threads for the pagelets engine's per-page work (DESIGN.md, "Scale": per-page
 * work on both cores). Work goes in batches of pages (one message each way per batch; the pages' bytes
 * copied once into one buffer that is moved to the worker, the results moved back as typed arrays).
 * Requests go to the least busy worker; answers come back as promises. The caller bounds how many batches
 * are in flight (engine.ts), so memory does not grow with the source.
 */
import { Worker } from 'node:worker_threads';
import type { Tree } from '../../html/tree.ts';
import type { AnalysisOptions, RecordBatch } from './page-analysis.ts';
import { treeFromParts } from './tree-transfer.ts';
import type { MarkReply, WorkerRequest } from './worker.ts';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** A page handed to a worker. */
export interface BatchPage {
  body: Uint8Array;
  contentType: string | undefined;
  key: string;
  /** The URL its links resolve against. */
  url: string;
}

/** The bytes of a batch in one new buffer (moved to the worker), with the pages' offsets and names. */
function packPages(pages: readonly BatchPage[]): Pick<WorkerRequest, 'bytes' | 'offsets' | 'contentTypes' | 'keys' | 'urls'> {
  const offsets = new Int32Array(pages.length + 1);
  for (let j = 0; j < pages.length; j++) offsets[j + 1] = offsets[j]! + pages[j]!.body.length;
  const bytes = new Uint8Array(offsets[pages.length]!);
  for (let j = 0; j < pages.length; j++) bytes.set(pages[j]!.body, offsets[j]!);
  return { bytes, offsets, contentTypes: pages.map((p) => p.contentType), keys: pages.map((p) => p.key), urls: pages.map((p) => p.url) };
}

/** What `mark` returns: the page's Tree and its template marks. */
export interface MarkedTree {
  tree: Tree;
  marks: Uint8Array;
  pagelets: number;
}

/**
 * How a worker thread loads its code, from the URL of the module that starts it. Compiled (the package),
 * worker.js sits beside workers.js and runs as it is. From the TypeScript sources (the repository's tests
 * and tools run through tsx), worker.ts needs tsx's loader, which Node 20 workers do not inherit: a small
 * bootstrap registers it first. tsx is resolved from this module, not from the working directory, so the
 * workers start wherever the process was started.
 */
export function workerStart(moduleUrl: string): { script: string | URL; eval: boolean } {
  if (!moduleUrl.endsWith('.ts')) return { script: new URL('./worker.js', moduleUrl), eval: false };
  const worker = new URL('./worker.ts', moduleUrl).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return { script: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); })`, eval: true };
}

export class PageletPool {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  private readonly dead: boolean[] = [];
  private readonly pending = new Map<number, Pending & { worker: number }>();
  private nextId = 0;

  /** Starts `size` workers (at least one). */
  constructor(size: number) {
    const start = workerStart(import.meta.url);
    for (let i = 0; i < Math.max(1, size); i++) {
      const w = new Worker(start.script, { eval: start.eval });
      const index = i;
      w.on('message', (msg: { id: number; ok: boolean; message?: string }) => {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        this.busy[index]!--;
        if (msg.ok) p.resolve(msg);
        else p.reject(new Error(msg.message ?? 'worker failed'));
      });
      const failAll = (err: Error): void => {
        for (const [id, p] of this.pending) {
          if (p.worker !== index) continue;
          this.pending.delete(id);
          p.reject(err);
        }
        this.dead[index] = true;
      };
      w.on('error', failAll);
      w.on('exit', (code) => failAll(new Error(`pagelets worker ${index} exited (code ${code})`)));
      this.workers.push(w);
      this.busy.push(0);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Requests waiting or running. */
  get inFlight(): number {
    return this.pending.size;
  }

  private send(req: Omit<WorkerRequest, 'id'>): Promise<unknown> {
    let w = -1;
    for (let i = 0; i < this.workers.length; i++) if (!this.dead[i] && (w < 0 || this.busy[i]! < this.busy[w]!)) w = i;
    if (w < 0) return Promise.reject(new Error('no pagelets worker is running'));
    const id = this.nextId++;
    this.busy[w]!++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: w });
      // the batch's bytes were copied into a buffer of their own (packPages): move it, do not copy it again
      const transfer = [req.bytes.buffer as ArrayBuffer];
      if (req.ordinals) transfer.push(req.ordinals.buffer as ArrayBuffer);
      this.workers[w]!.postMessage({ ...req, id }, transfer);
    });
  }

  /** Pass 1 on a batch of pages: their PageRecords, packed (with their render records when `render`). */
  async analyse(pages: readonly BatchPage[], options: AnalysisOptions, render = false): Promise<RecordBatch> {
    const msg = (await this.send({ op: 'analyse', ...packPages(pages), options, render })) as { batch: RecordBatch };
    return msg.batch;
  }

  /** Pass 2 on a batch of pages: each page's Tree with the given template pagelets marked, or its error. */
  async mark(pages: readonly BatchPage[], ordinals: readonly Int32Array[], options: AnalysisOptions): Promise<Array<MarkedTree | Error>> {
    const ordinalStart = new Int32Array(pages.length + 1);
    for (let j = 0; j < pages.length; j++) ordinalStart[j + 1] = ordinalStart[j]! + ordinals[j]!.length;
    const all = new Int32Array(ordinalStart[pages.length]!);
    for (let j = 0; j < pages.length; j++) all.set(ordinals[j]!, ordinalStart[j]!);
    const msg = (await this.send({ op: 'mark', ...packPages(pages), options, ordinals: all, ordinalStart })) as { replies: MarkReply[] };
    return msg.replies.map((r) => ('error' in r ? new Error(r.error) : { tree: treeFromParts(r.parts), marks: r.marks, pagelets: r.pagelets }));
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    for (let i = 0; i < this.dead.length || i < this.workers.length; i++) this.dead[i] = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
