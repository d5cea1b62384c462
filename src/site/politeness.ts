/**
 * Per-host politeness of the fetcher: at most `concurrency` requests at once to one host, and request
 * starts to one host at least the host's delay apart (every request counts: robots.txt, redirects,
 * retries). A host's delay starts at the fetcher's and may be raised (a robots.txt Crawl-delay).
 */
import { setTimeout as sleep } from 'node:timers/promises';

interface Host {
  active: number;
  lastStart: number;
  delayMs: number;
  waiters: Array<() => void>;
}

export class HostGate {
  private readonly hosts = new Map<string, Host>();

  constructor(
    private readonly concurrency: number,
    private readonly delayMs: number,
  ) {}

  /**
   * Waits for a free slot on `host` and for its delay since the host's last request start; resolves to the
   * start it recorded (ms since the epoch), rejects with the signal's reason once `signal` is aborted (no
   * slot taken).
   */
  async acquire(host: string, signal?: AbortSignal): Promise<number> {
    const h = this.host(host);
    for (;;) {
      signal?.throwIfAborted();
      if (h.active < this.concurrency) {
        const wait = h.lastStart + h.delayMs - Date.now();
        if (wait <= 0) {
          h.active++;
          h.lastStart = Date.now();
          return h.lastStart;
        }
        await sleep(wait, undefined, signal ? { signal } : {});
        continue;
      }
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        h.waiters.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /** Frees the slot `acquire` took on `host`. */
  release(host: string): void {
    const h = this.host(host);
    h.active--;
    h.waiters.shift()?.();
  }

  /** Makes the delay of `host` at least `ms`. */
  raiseDelay(host: string, ms: number): void {
    const h = this.host(host);
    h.delayMs = Math.max(h.delayMs, ms);
  }

  private host(name: string): Host {
    let h = this.hosts.get(name);
    if (!h) {
      h = { active: 0, lastStart: -Infinity, delayMs: this.delayMs, waiters: [] };
      this.hosts.set(name, h);
    }
    return h;
  }
}
