/**
 * Disjoint sets over 0..n-1 for the clusterings that join items pair by pair: Figure 5 step (5)'s components
 * of the pagelets engine, the page schemas (src/structure/schema-clusters.ts) and page shapes (page-shape.ts).
 */

/**
 * Union-find with path halving and union by size (Figure 5 step (5)'s components), over 0..n-1; `add`
 * appends an element, so components can be built while edges stream in, without holding the edges.
 */
export class UnionFind {
  parent: Int32Array;
  private size: Int32Array;
  private n: number;
  constructor(n = 0) {
    this.parent = new Int32Array(Math.max(16, n));
    this.size = new Int32Array(Math.max(16, n));
    this.n = 0;
    for (let i = 0; i < n; i++) this.add();
  }
  /** Number of elements. */
  get count(): number {
    return this.n;
  }
  /** Appends a new singleton; returns its index. */
  add(): number {
    if (this.n === this.parent.length) {
      const p = new Int32Array(this.n * 2);
      p.set(this.parent);
      this.parent = p;
      const s = new Int32Array(this.n * 2);
      s.set(this.size);
      this.size = s;
    }
    this.parent[this.n] = this.n;
    this.size[this.n] = 1;
    return this.n++;
  }
  /** Empties the structure (keeps its arrays). */
  clear(): void {
    this.n = 0;
  }
  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }
  union(a: number, b: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return;
    if (this.size[ra]! < this.size[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra]! += this.size[rb]!;
  }
}

/** The group of each of `items` in `sets`, groups numbered 0, 1, … in the order their first item comes. */
export function groupsOf(sets: UnionFind, items: Iterable<number>): number[] {
  const group = new Map<number, number>();
  const out: number[] = [];
  for (const it of items) {
    const r = sets.find(it);
    let g = group.get(r);
    if (g === undefined) {
      g = group.size;
      group.set(r, g);
    }
    out.push(g);
  }
  return out;
}
