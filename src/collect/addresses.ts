/**
 * Likeness of page addresses (our extension to paper 4's crawl, indesit.ts): sites that generate pages from
 * templates usually give a class's pages addresses of one shape (`community/<name>/`, `docs/<group>/<page>`,
 * `p/<id>.html`). INDESIT follows the links of a collection in order of how much their address looks like
 * those of the pages it is looking for, and, when it scores a class-link (step 2), does not download a link
 * whose address looks more like a page known not to be a target than like any target (the nearest known
 * address decides; a tie is downloaded). On sites whose addresses say nothing of a page's class every link
 * ties, and the crawl is the paper's.
 */

/** The folders of a key (a path relative to the site root), without its last segment. */
interface Shape {
  readonly dirs: readonly string[];
}

/** How much shape `a` looks like shape `b`: shared leading folders first, then the same depth. */
function likeness(a: Shape, b: Shape): number {
  let common = 0;
  while (common < a.dirs.length && common < b.dirs.length && a.dirs[common] === b.dirs[common]) common++;
  return common * 2 + (a.dirs.length === b.dirs.length ? 1 : 0);
}

/** Keys and their shapes, to find the likeness of a key to the nearest of them. */
export class Addresses {
  private readonly shapes = new Map<string, Shape>();
  private readonly keys: string[] = [];

  /** Adds a key (once). */
  add(key: string): void {
    if (this.shapes.has(key)) return;
    this.shapes.set(key, shapeOf(key));
    this.keys.push(key);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The likeness of `key` to the nearest key held (-1 when none is held). */
  nearest(key: string): number {
    const s = shapeOf(key);
    let best = -1;
    for (const k of this.keys) best = Math.max(best, likeness(s, this.shapes.get(k)!));
    return best;
  }

  /** `keys` ordered by likeness to the nearest key held, the likeliest first (document order among equals). */
  order(keys: readonly string[]): string[] {
    if (this.keys.length === 0) return [...keys];
    const scored = keys.map((k, i) => ({ k, i, s: this.nearest(k) }));
    scored.sort((x, y) => y.s - x.s || x.i - y.i);
    return scored.map((x) => x.k);
  }
}

/** The folders of a key: `a/b/c.html` → [a, b]; `a/b/` → [a, b]; the query and fragment left out. */
function shapeOf(key: string): Shape {
  const segs = key.split(/[?#]/, 1)[0]!.split('/');
  segs.pop();
  return { dirs: segs.filter((s) => s !== '') };
}
