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

/**
 * The kind an address names (our extension, URL evidence): generators that type their pages in the file
 * name (`struct.Vec.html`, `fn.alloc.html`, `trait.Read.html`) give every page of one class the same leading
 * token in many folders. A page's token is its file name without extension up to its first dot (`struct`,
 * `os` of `os.path.html`; a name without a dot has none, its kind is ''); a token is a kind once addresses
 * seen in `minFolders` folders of distinct names or more have it, so a module's own name (`os.path`, only under `library/`) or
 * one page's name is none, nor a name repeated by a language variant (`docs/faq`, `zh-Hans/docs/faq`); or
 * once `minNames` dotted names or more have it (`keyword.while.html`, all in one folder), more than a family of
 * module names does (`xml.dom.html`, `xml.sax.html`); or once one list names it with several others
 * (`addList`): a module's table of items (`struct.System`, `struct.Global`, `fn.alloc`, `fn.realloc`, …).
 */
export class AddressKinds {
  private readonly folders = new Map<string, Set<string>>();
  private readonly names = new Map<string, Set<string>>();
  /** Tokens a list of typed items showed to be kinds (`addList`). */
  private readonly listed = new Set<string>();

  constructor(
    private readonly minFolders = 3,
    private readonly minNames = 20,
    /** Distinct names each of two tokens needs in one list's folder (`addList`): n of step 1. */
    private readonly minListNames = 3,
  ) {}

  /**
   * Records the addresses of one link collection. In each folder it links into, when two tokens or more
   * have `minListNames` distinct names each and their addresses are most of the collection's in that folder,
   * those tokens are kinds: a list of items of several kinds, each named by its kind (a module's table of
   * structs, traits and functions), where a prose page naming a few modules of two families
   * (`urllib.parse`, `http.client` among other pages) is not.
   */
  addList(keys: readonly string[]): void {
    const byFolder = new Map<string, { all: Set<string>; tokens: Map<string, Set<string>> }>();
    for (const key of keys) {
      const path = key.split(/[?#]/, 1)[0]!;
      const folder = path.slice(0, path.lastIndexOf('/') + 1);
      let f = byFolder.get(folder);
      if (f === undefined) byFolder.set(folder, (f = { all: new Set(), tokens: new Map() }));
      f.all.add(path);
      const { token, dotted, name } = tokenOf(path);
      if (!dotted) continue;
      let n = f.tokens.get(token);
      if (n === undefined) f.tokens.set(token, (n = new Set()));
      n.add(name);
    }
    for (const { all, tokens } of byFolder.values()) {
      const kinds = [...tokens].filter(([, names]) => names.size >= this.minListNames);
      if (kinds.length < 2) continue;
      const named = kinds.reduce((sum, [, names]) => sum + names.size, 0);
      if (named * 2 > all.size) for (const [token] of kinds) this.listed.add(token);
    }
  }

  /** Records an address seen (a link or a page read). */
  add(key: string): void {
    const { token, folder, dotted, name } = tokenOf(key);
    if (!dotted) return;
    let f = this.folders.get(token);
    if (f === undefined) this.folders.set(token, (f = new Set()));
    if (f.size < this.minFolders) f.add(folder);
    let n = this.names.get(token);
    if (n === undefined) this.names.set(token, (n = new Set()));
    if (n.size < this.minNames) n.add(name);
  }

  /** The kind of `key` ('' when its token is no kind), and whether it comes from a dotted name (`struct.Vec`). */
  kindOf(key: string): { kind: string; dotted: boolean } {
    const { token, dotted } = tokenOf(key);
    const kind = dotted && ((this.folders.get(token)?.size ?? 0) >= this.minFolders || (this.names.get(token)?.size ?? 0) >= this.minNames || this.listed.has(token));
    return kind ? { kind: token, dotted } : { kind: '', dotted: false };
  }
}

/** The leading token of a key's file name and its folder's name: `std/io/struct.Error.html` → `struct`, `io`. */
function tokenOf(key: string): { token: string; folder: string; dotted: boolean; name: string } {
  const segs = key.split(/[?#]/, 1)[0]!.split('/');
  let leaf = segs.pop()!;
  if (leaf === '') leaf = 'index';
  const name = leaf.replace(/\.(?:html?|xhtml|php|aspx?)$/i, '');
  const dot = name.indexOf('.');
  // The folder's own name: a language or version prefix (`fr/ref/`, `zh-Hans/docs/`) is no other folder.
  return { token: dot > 0 ? name.slice(0, dot) : name, folder: segs.filter((x) => x !== '').pop() ?? '', dotted: dot > 0, name };
}
