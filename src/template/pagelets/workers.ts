/**
 * A small pool of worker threads for the pagelets engine's per-page work (DESIGN.md, "Scale": per-page
 * work on both cores). Requests go to the least busy worker; answers come back as promises. The pool is
 * generic over the two operations of worker.ts.
 */
import { Worker } from 'node:worker_threads';
import type { Tree } from '../../html/tree.ts';
import type { AnalysisOptions, PageRecord } from './page-analysis.ts';
import { treeFromParts, type TreeParts } from './tree-transfer.ts';
import type { WorkerRequest } from './worker.ts';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** What `mark` returns: the page's Tree and its template marks. */
export interface MarkedTree {
  tree: Tree;
  marks: Uint8Array;
  pagelets: number;
}

export class PageletPool {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  private readonly dead: boolean[] = [];
  private readonly pending = new Map<number, Pending & { worker: number }>();
  private nextId = 0;

  /** Starts `size` workers (at least one). */
  constructor(size: number) {
    // Run from TypeScript sources (tsx), the worker needs the tsx loader too; built, it is plain .js.
    // (Node 20 workers do not inherit loader hooks: the bootstrap registers tsx's before importing.)
    const fromSource = import.meta.url.endsWith('.ts');
    const url = new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url);
    const bootstrap = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
    for (let i = 0; i < Math.max(1, size); i++) {
      const w = fromSource ? new Worker(bootstrap, { eval: true }) : new Worker(url);
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
      this.workers[w]!.postMessage({ ...req, id });
    });
  }

  /** Pass 1 on one page: its PageRecord. */
  async analyse(body: Uint8Array, contentType: string | undefined, key: string, url: string, options: AnalysisOptions): Promise<PageRecord> {
    const msg = (await this.send({ op: 'analyse', body, contentType, key, url, options })) as { record: PageRecord };
    return msg.record;
  }

  /** Pass 2 on one page: its Tree with the given template pagelets marked. */
  async mark(body: Uint8Array, contentType: string | undefined, key: string, url: string, options: AnalysisOptions, ordinals: Int32Array): Promise<MarkedTree> {
    const msg = (await this.send({ op: 'mark', body, contentType, key, url, options, ordinals })) as {
      parts: TreeParts;
      marks: Uint8Array;
      pagelets: number;
    };
    return { tree: treeFromParts(msg.parts), marks: msg.marks, pagelets: msg.pagelets };
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    for (let i = 0; i < this.dead.length || i < this.workers.length; i++) this.dead[i] = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
