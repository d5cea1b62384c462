/**
 * The crawl frontier of HttpSource: URLs found but not yet fetched, served highest priority first and, among
 * equal priorities, in the order they were found (so with one priority for every link the crawl is
 * breadth-first). A URL found again with a higher priority moves up; a lower one changes nothing. A binary
 * heap with lazy deletion: a raised URL is pushed again and its older entry skipped when it comes out.
 */

/** A URL waiting in the frontier. */
export interface FrontierItem {
  url: string;
  key: string;
}

interface Entry extends FrontierItem {
  priority: number;
  seq: number;
}

export class Frontier {
  private readonly heap: Entry[] = [];
  /** Best priority of each key still waiting, and when it was first found. */
  private readonly waiting = new Map<string, { priority: number; seq: number }>();
  private seq = 0;

  /** URLs waiting. */
  get size(): number {
    return this.waiting.size;
  }

  /** Adds a URL, or raises the priority of one already waiting. Returns false when it was waiting with at least this priority. */
  push(item: FrontierItem, priority = 0): boolean {
    const known = this.waiting.get(item.key);
    if (known !== undefined && known.priority >= priority) return false;
    // a raised URL keeps its place among equals: the time it was first found
    const seq = known?.seq ?? this.seq++;
    this.waiting.set(item.key, { priority, seq });
    this.heap.push({ url: item.url, key: item.key, priority, seq });
    this.up(this.heap.length - 1);
    return true;
  }

  /** True when the key is waiting. */
  has(key: string): boolean {
    return this.waiting.has(key);
  }

  /** Takes the URL to fetch next, or undefined when none is waiting. */
  pop(): FrontierItem | undefined {
    while (this.heap.length > 0) {
      const top = this.heap[0]!;
      const last = this.heap.pop()!;
      if (this.heap.length > 0) {
        this.heap[0] = last;
        this.down(0);
      }
      // an older entry of a URL that was raised since (or already taken) is skipped
      if (this.waiting.get(top.key)?.priority !== top.priority) continue;
      this.waiting.delete(top.key);
      return { url: top.url, key: top.key };
    }
    return undefined;
  }

  private before(a: Entry, b: Entry): boolean {
    return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.before(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
