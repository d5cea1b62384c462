/**
 * A growable Float64Array used as a stack of DP rows by the recursive tree matchings (simple.ts,
 * clustered.ts): a call takes two rows of n+1 cells above the current top and gives them back on return,
 * so the DP allocates nothing per cell and, after warm-up, nothing per call.
 */
export class RowArena {
  buf = new Float64Array(1 << 12);
  top = 0;
  /** Reserves `cells` cells; returns their offset. The buffer may be replaced: re-read `buf` after. */
  take(cells: number): number {
    const at = this.top;
    if (at + cells > this.buf.length) {
      let len = this.buf.length * 2;
      while (at + cells > len) len *= 2;
      const b = new Float64Array(len);
      b.set(this.buf.subarray(0, at));
      this.buf = b;
    }
    this.top = at + cells;
    return at;
  }
  release(at: number): void {
    this.top = at;
  }
}
