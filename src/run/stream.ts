/**
 * A run as an async iterable (the pipelines of src/run/): the work (an engine calling back once per page)
 * starts when iteration starts, and each page it hands over waits until the consumer has taken it, so a
 * slow consumer (writing files, a network) slows the engine down instead of filling memory. A consumer that
 * stops early (`break`) aborts the work through its AbortSignal. `result()` gives what the work returned
 * (the run's summary), draining the pages nobody read.
 */

/** How many handed-over items may wait for the consumer before the producer waits. */
const CAPACITY = 4;

/** A run: its items, then its result. Iterate once. */
export class RunStream<T, R> implements AsyncIterable<T> {
  private readonly work: (emit: (item: T) => Promise<void>, signal: AbortSignal) => Promise<R>;
  private readonly controller = new AbortController();
  private readonly buffer: T[] = [];
  private wakeConsumer: (() => void) | null = null;
  private readonly wakeProducers: Array<() => void> = [];
  private finished = false;
  private failure: { error: unknown } | null = null;
  private done: Promise<R> | null = null;
  private iterated = false;

  /**
   * `work` is called once, when iteration (or `result()`) starts; it hands each item to `emit` (which
   * resolves once the item is queued within the capacity) and resolves with the run's result. `finalError`
   * picks an error in the result that should also end the iteration (thrown after the last item).
   */
  constructor(work: (emit: (item: T) => Promise<void>, signal: AbortSignal) => Promise<R>, private readonly finalError: (result: R) => unknown = () => undefined) {
    this.work = work;
  }

  private start(): Promise<R> {
    if (this.done) return this.done;
    const signal = this.controller.signal;
    const emit = async (item: T): Promise<void> => {
      signal.throwIfAborted();
      this.buffer.push(item);
      this.wake();
      while (this.buffer.length > CAPACITY && !signal.aborted) await new Promise<void>((r) => this.wakeProducers.push(r));
      signal.throwIfAborted();
    };
    this.done = this.work(emit, signal).then(
      (r) => {
        this.finished = true;
        this.wake();
        return r;
      },
      (err: unknown) => {
        this.finished = true;
        this.failure = { error: err };
        this.wake();
        throw err;
      },
    );
    // A rejection is reported through iteration or result(); never as an unhandled rejection.
    this.done.catch(() => undefined);
    return this.done;
  }

  private wake(): void {
    const c = this.wakeConsumer;
    this.wakeConsumer = null;
    c?.();
  }

  private releaseProducers(): void {
    for (const r of this.wakeProducers.splice(0)) r();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.iterated) throw new Error('a run can be iterated once');
    this.iterated = true;
    const done = this.start();
    try {
      for (;;) {
        if (this.buffer.length > 0) {
          const item = this.buffer.shift()!;
          if (this.buffer.length <= CAPACITY) this.releaseProducers();
          yield item;
          continue;
        }
        if (this.finished) break;
        await new Promise<void>((r) => (this.wakeConsumer = r));
      }
      if (this.failure) throw this.failure.error;
      const err = this.finalError(await done);
      if (err !== undefined) throw err;
    } finally {
      if (!this.finished) {
        // The consumer left early: stop the work and let it unwind.
        this.controller.abort(new RunAbandoned());
        this.releaseProducers();
      }
    }
  }

  /**
   * The run's result. When nobody iterates, the items are drained (dropped) so the work can finish. Rejects
   * when the work failed with an unexpected error, or was abandoned by its consumer.
   */
  async result(): Promise<R> {
    if (!this.iterated) {
      this.iterated = true;
      const done = this.start();
      while (!this.finished) {
        this.buffer.length = 0;
        this.releaseProducers();
        await new Promise<void>((r) => (this.wakeConsumer = r));
      }
      this.buffer.length = 0;
      return done;
    }
    return this.start();
  }
}

/** The reason a run's work is aborted when its consumer stops iterating early. */
export class RunAbandoned extends Error {
  override readonly name = 'RunAbandoned';
  constructor() {
    super('the run was abandoned by its consumer');
  }
}
