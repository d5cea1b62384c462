/**
 * Sections of a site from its addresses. A section is a top-level folder of the site that has an index
 * page of its own (`library/index.html`, `library/`, or `library` beside the folder, as a static host
 * serves it) and holds at least `minPages` pages with it: the library reference, the C API manual and the
 * how-tos of a documentation, the tags of a blog. A language prefix (`zh-Hans/`, `fr/`) is passed over, so a
 * section and its translation are one section. A folder whose name holds a digit (`2019/`, `pep-0001/`,
 * `page2/`, `2.x/`) is a value, not a section, as is a folder without an index page: pages outside any
 * section are in section ''.
 *
 * A site's sections are either its classes (the library reference, the C API manual and the how-tos of a
 * documentation, whose pages share the template, its menus and much of their markup) or topics of one class
 * (the world, sport and science sections of a newspaper, each with its stories). `sectionsApart` tells them
 * apart by the pages' shapes: sections whose pages are much less alike across than within are classes.
 * Structural clustering by URL is the literature's companion to clustering by page structure (Blanco,
 * Dalvi, Machanavajjhala, WWW 2011); this keeps to its least risky part, the site's first level. How it was
 * measured: docs/collect.md.
 */
import { shapeSimilarity } from './page-shape.ts';

/** Options of `Sections`. */
export interface SectionOptions {
  /** Pages a section holds at least, its index page included (default 3). */
  minPages?: number;
  /**
   * The folder the sections are found in (`python-docs/` in a folder of several sites), '' for the site's
   * root (the default): keys outside it are in no section.
   */
  base?: string;
}

export const SECTION_DEFAULTS: Required<SectionOptions> = { minPages: 3, base: '' };

/**
 * Two sections are apart (their pages of two classes) when the mean shape similarity of their pages across
 * is below `ratio` × the geometric mean of their similarities within (measured over all their pages: 0.43–0.85
 * between python-docs' library, c-api, howto, tutorial and reference but tutorial–reference 0.95; 1.01
 * between the sections of a generated newspaper, one class of stories in each). Apart is told from
 * `minRead` pages on each side, alike from `minAlike` (a few pages of two classes can look alike); at most
 * `sample` of each, evenly spread, are compared.
 */
export const SECTIONS_APART = { ratio: 0.9, minRead: 3, minAlike: 6, sample: 30 };

/** Up to `n` items of `xs`, evenly spread. */
function spread<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

/** Mean weighted shape similarity over the pairs of `a` (within) or of `a` × `b` (across). */
function meanSimilarity(a: readonly Int32Array[], b: readonly Int32Array[] | null, w: Float64Array): number {
  let total = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const others = b ?? a;
    for (let j = b === null ? i + 1 : 0; j < others.length; j++) {
      total += shapeSimilarity(a[i]!, others[j]!, w);
      n++;
    }
  }
  return n === 0 ? 0 : total / n;
}

/**
 * Whether two sections' pages (their shapes, page-shape.ts, under weights `w`) are of different classes:
 * true when apart, false when alike, undefined when either side has too few pages to tell.
 */
export function sectionsApart(a: readonly Int32Array[], b: readonly Int32Array[], w: Float64Array): boolean | undefined {
  const { ratio, minRead, minAlike, sample } = SECTIONS_APART;
  if (a.length < minRead || b.length < minRead) return undefined;
  const x = spread(a, sample);
  const y = spread(b, sample);
  const within = Math.sqrt(meanSimilarity(x, null, w) * meanSimilarity(y, null, w));
  if (meanSimilarity(x, y, w) < ratio * within) return true;
  return a.length < minAlike || b.length < minAlike ? undefined : false;
}

/** A language tag as a first folder: two letters, optionally a script or region (`zh-Hans`, `pt_BR`). */
const LANGUAGE = /^[a-z]{2}(?:[-_][A-Za-z]{2,4})?$/;
const INDEX = /^index\.(?:html?|php|xhtml)$/i;

/** The path of a page key: no scheme and host, no query or fragment, no leading slash. */
function pathOf(key: string): string {
  let k = key;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(k);
  if (scheme) k = k.slice(scheme[0].length);
  const cut = k.search(/[?#]/);
  if (cut >= 0) k = k.slice(0, cut);
  return k.replace(/^\/+/, '');
}

/** Where a key sits: its first folder below `base` past a language prefix, and whether it is that folder's index. */
function placeOf(key: string, base = ''): { folder: string; index: boolean } | null {
  const path = pathOf(key);
  if (!path.startsWith(base)) return null;
  const segs = path.slice(base.length).split('/');
  const i = segs.length > 1 && LANGUAGE.test(segs[0]!) ? 1 : 0;
  const rest = segs.length - i;
  if (rest < 1 || segs[i] === '') return null;
  const folder = segs[i]!;
  // `library` (a page beside its folder), `library/`, `library/index.html`.
  const index = rest === 1 ? !/\./.test(folder) : rest === 2 && (segs[i + 1] === '' || INDEX.test(segs[i + 1]!));
  if (rest === 1 && !index) return null;
  return { folder, index };
}

/**
 * The sections of a set of page keys, known as they come (`add`): a crawl learns them from the addresses
 * it reads and links to. `of(key)` is the key's section, '' for none.
 */
export class Sections {
  private readonly minPages: number;
  private readonly base: string;
  private readonly indexed = new Set<string>();
  private readonly counts = new Map<string, number>();
  private readonly seen = new Set<string>();

  constructor(keys: Iterable<string> = [], options: SectionOptions = {}) {
    this.minPages = options.minPages ?? SECTION_DEFAULTS.minPages;
    this.base = options.base ?? SECTION_DEFAULTS.base;
    for (const k of keys) this.add(k);
  }

  /** Counts a page key (each distinct key once). */
  add(key: string): void {
    const path = pathOf(key).replace(/\/index\.(?:html?|php|xhtml)$/i, '/');
    if (this.seen.has(path)) return;
    this.seen.add(path);
    const p = placeOf(key, this.base);
    if (p === null || /\d/.test(p.folder)) return;
    if (p.index) this.indexed.add(p.folder);
    this.counts.set(p.folder, (this.counts.get(p.folder) ?? 0) + 1);
  }

  /** Distinct keys counted so far. */
  get size(): number {
    return this.seen.size;
  }

  /** The section of a key: its first folder (past a language prefix) when that is a section, else ''. */
  of(key: string): string {
    const p = placeOf(key, this.base);
    if (p === null || !this.indexed.has(p.folder) || (this.counts.get(p.folder) ?? 0) < this.minPages) return '';
    return this.base + p.folder;
  }

  /** The sections known, with their page counts. */
  list(): Array<{ section: string; pages: number }> {
    return [...this.indexed]
      .filter((f) => (this.counts.get(f) ?? 0) >= this.minPages)
      .sort()
      .map((f) => ({ section: this.base + f, pages: this.counts.get(f)! }));
  }
}

/** The first folder of a key's path ('' for a page at the root). */
export function firstFolder(key: string): string {
  const path = pathOf(key);
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The sites of a folder holding several side by side (a folder per site): first folders of at least
 * `minPages` pages whose pages link to no other first folder of the set and which no page outside links to
 * (a site's own folders are joined by its menus). `linked[i]` holds the first folders of the pages page i links to.
 * Per site, the indices of its pages, the pages outside any site under ''; null unless two folders or more
 * are sites.
 */
export function sitesOf(keys: readonly string[], linked: ReadonlyArray<readonly string[]>, minPages = SECTION_DEFAULTS.minPages): Map<string, number[]> | null {
  const at = new Map<string, number[]>();
  const folders = keys.map(firstFolder);
  folders.forEach((f, i) => {
    let xs = at.get(f);
    if (xs === undefined) at.set(f, (xs = []));
    xs.push(i);
  });
  // Links to folders the set lacks count for nothing: a site's links to its own root (`/about/`) land at
  // the top of the folder that holds the sites.
  const joined = new Set<string>(['']);
  folders.forEach((f, i) => {
    for (const g of linked[i] ?? []) {
      if (g === f || !at.has(g)) continue;
      joined.add(f);
      joined.add(g);
    }
  });
  const sites = [...at.keys()].filter((f) => !joined.has(f) && at.get(f)!.length >= minPages).sort();
  if (sites.length < 2) return null;
  const out = new Map<string, number[]>(sites.map((f) => [f, at.get(f)!]));
  const rest = [...at].filter(([f]) => !out.has(f)).flatMap(([, xs]) => xs);
  if (rest.length > 0) out.set('', rest.sort((a, b) => a - b));
  return out;
}
