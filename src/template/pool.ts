/**
 * One pool of worker threads for the per-page work of every command (the pagelets engine's batches,
 * src/template/pagelets/workers.ts; the pages a learned template is applied to, src/run/page-pool.ts). A
 * worker runs one module; each request is one message and gets one answer (`{ id, ok, … }`), sent to the
 * least busy worker. A worker that stops (a crash, running out of memory) fails the request it was working
 * on (the oldest it was given: a worker answers in order) with a `WorkerStopped` error; the others it held
 * go to a fresh worker that replaces it, unless their bytes were moved to it (`transfer`), and then they fail
 * too. The run goes on.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Pages handled on the main thread before a pool starts: starting workers (tens of milliseconds each
 * compiled, hundreds from the TypeScript sources) costs more than it saves on smaller runs.
 */
export const INLINE_FIRST = 48;

/** The default number of worker threads: one per core the process may use. */
export function defaultWorkers(): number {
  return availableParallelism();
}

/**
 * How a worker thread loads its code, `file` beside the module of `moduleUrl`. Compiled (the package),
 * `file`.js runs as it is. From the TypeScript sources (the repository's tests and tools run through tsx),
 * `file`.ts needs tsx's loader, which Node 20 workers do not inherit: a small bootstrap registers it first.
 * tsx is resolved from this module, not from the working directory, so the workers start wherever the
 * process was started.
 */
export function workerStart(moduleUrl: string, file: string): { script: string | URL; eval: boolean } {
  if (!moduleUrl.endsWith('.ts')) return { script: new URL(`./${file}.js`, moduleUrl), eval: false };
  const worker = new URL(`./${file}.ts`, moduleUrl).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return { script: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); })`, eval: true };
}

/** A request that failed because the worker handling it stopped. */
export class WorkerStopped extends Error {
  override readonly name = 'WorkerStopped';
}

interface Request {
  id: number;
  message: Record<string, unknown>;
  /** Moved to the worker: the request cannot be sent again. */
  moved: boolean;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Requests given to this worker, oldest first. */
  held: Request[];
  stopped: boolean;
}

/** Fresh workers started after crashes before the pool gives up (a worker that cannot start at all). */
const MAX_RESTARTS = 32;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly start: { script: string | URL; eval: boolean };
  private nextId = 0;
  private restarts = 0;
  private closed = false;
  /** Messages every worker has been told since it started (`tell`), by key: a worker started later is told them too. */
  private readonly told = new Map<number, Record<string, unknown>>();

  /**
   * Starts `size` workers (at least one) running `start`. What every worker must know before its requests
   * (what was learned that every page is given) is told with `tell`.
   */
  constructor(size: number, start: { script: string | URL; eval: boolean }, private readonly name: string) {
    this.start = start;
    for (let i = 0; i < Math.max(1, size); i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  /** Requests waiting or running. */
  get inFlight(): number {
    return this.slots.reduce((t, s) => t + s.held.length, 0);
  }

  private spawn(): Slot {
    const worker = new Worker(this.start.script, { eval: this.start.eval });
    const slot: Slot = { worker, held: [], stopped: false };
    for (const m of this.told.values()) worker.postMessage({ id: -1, ...m });
    worker.on('message', (msg: { id: number; ok: boolean; message?: string }) => {
      const i = slot.held.findIndex((r) => r.id === msg.id);
      if (i < 0) return;
      const [r] = slot.held.splice(i, 1);
      if (msg.ok) r!.resolve(msg);
      else r!.reject(new Error(msg.message ?? `${this.name} worker failed`));
    });
    let why = '';
    worker.on('error', (err) => (why = err.message));
    worker.on('exit', (code) => this.stopped(slot, why || `exit code ${code}`));
    return slot;
  }

  /** A worker stopped: its current request fails, the others go to a fresh worker. */
  private stopped(slot: Slot, why: string): void {
    slot.stopped = true;
    const held = slot.held.splice(0);
    const i = this.slots.indexOf(slot);
    if (this.closed || i < 0) {
      for (const r of held) r.reject(new WorkerStopped(`the ${this.name} worker stopped (${why})`));
      return;
    }
    const [current, ...rest] = held;
    current?.reject(new WorkerStopped(`the ${this.name} worker handling it stopped (${why})`));
    if (this.restarts++ >= MAX_RESTARTS) {
      this.slots.splice(i, 1);
      for (const r of rest) r.reject(new WorkerStopped(`the ${this.name} workers keep stopping (${why})`));
      return;
    }
    this.slots[i] = this.spawn();
    for (const r of rest) {
      if (r.moved) r.reject(new WorkerStopped(`the ${this.name} worker holding it stopped (${why})`));
      else this.post(r);
    }
  }

  private post(r: Request, transfer: ArrayBuffer[] = []): void {
    let best: Slot | undefined;
    for (const s of this.slots) if (!s.stopped && (best === undefined || s.held.length < best.held.length)) best = s;
    if (!best) {
      r.reject(new WorkerStopped(`no ${this.name} worker is running`));
      return;
    }
    best.held.push(r);
    best.worker.postMessage({ ...r.message, id: r.id }, transfer);
  }

  /**
   * Sends `message` to the least busy worker; resolves with its answer (rejects with its error, or
   * `WorkerStopped`). Buffers in `transfer` are moved, not copied (the request is then not sent again).
   */
  request<T>(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closed) {
        reject(new WorkerStopped(`the ${this.name} pool is closed`));
        return;
      }
      this.post({ id: this.nextId++, message, moved: transfer.length > 0, resolve: resolve as (v: unknown) => void, reject }, transfer);
    });
  }

  /**
   * Tells every worker `message` (no answer), before any request sent after it; a worker started later in
   * place of a stopped one is told it too, until `forget(key)`.
   */
  tell(key: number, message: Record<string, unknown>): void {
    this.told.set(key, message);
    for (const s of this.slots) if (!s.stopped) s.worker.postMessage({ id: -1, ...message });
  }

  /** Forgets what was told under `key` (workers started later are not told it), and tells every worker `message`. */
  forget(key: number, message: Record<string, unknown>): void {
    this.told.delete(key);
    for (const s of this.slots) if (!s.stopped) s.worker.postMessage({ id: -1, ...message });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
