/**
 * Node labels interned per site. Paper 1 (alignment-template-detection, section 2) normalises a tag by
 * lowercasing it, removing extra white space and sorting its attributes; two elements get the same label
 * exactly when their normalised tags are equal. Which attributes take part is an option: all of them (the
 * paper), none (tag only), or a list (e.g. `['id', 'class']`, robust to per-page hrefs).
 *
 * A LabelTable is shared by all pages of one site so that equal labels on different pages are equal
 * integers. Text snippets (tokens.ts) are interned in the same table, under a distinct key space.
 */

/** Fixed labels of non-element nodes; element and text labels start above them. */
export const DOCUMENT_LABEL = 0;
export const TEXT_LABEL = 1;
export const BLANK_LABEL = 2;
export const COMMENT_LABEL = 3;

/** Which attributes make up an element's label. */
export type LabelAttributes = 'all' | 'none' | readonly string[];

export interface LabelOptions {
  /** Attributes that are part of an element's label. Default: 'all' (paper 1). */
  attributes?: LabelAttributes;
}

/** Collapses runs of whitespace to one space and trims. */
export function collapseSpace(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}

/**
 * Most start-tag texts cached per table before the cache is cleared (bounds memory on sites where most
 * tags are unique, e.g. per-page links). 2^18 entries of typically < 100 characters.
 */
export const SOURCE_CACHE_LIMIT = 1 << 18;
/**
 * Most characters the cache holds (its tag texts and kept attributes) before it is cleared: bounds its
 * memory where tags are long and unique (inline images or SVG paths that differ on every page).
 */
export const SOURCE_CACHE_CHARS = 1 << 25;
/** Start tags longer than this are not cached: rarely repeated verbatim, and costly to hold. */
export const SOURCE_TAG_MAX = 1 << 12;

/** A copy of `s` that shares no memory with the string it was sliced from (a slice keeps its parent alive). */
function detach(s: string): string {
  // Concatenation, then slice, flattens into a fresh string of s's length (+1) and slices that.
  return (s + ' ').slice(0, -1);
}

/**
 * Start-tag source text → element label: an open-addressing hash table probed with a range of the page
 * (FNV-1a over its characters, two at a time, then mixed), a hash match confirmed by comparing the range, sliced, with the entry's
 * text; only a miss copies the tag's text. (A slice of a long string is a view, not a copy, and `===`
 * compares two flat strings as memory: several times faster than `startsWith(text, start)`, which V8
 * runs character by character.) From its second sighting on, an entry also keeps the tag's attribute
 * names and values, so that a parser need not make them again (parse.ts); a tag seen once keeps none.
 */
class SourceLabelCache {
  /** Entry index + 1 per slot; 0 = empty. Size is a power of two, kept at most half full. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 11);
  private labels = new Int32Array(1 << 11);
  /** Per entry: how a parser replays the tag (parse.ts), kept with its attributes; 0 until then. */
  private hows = new Int32Array(1 << 11);
  private texts: string[] = [];
  /** Per entry: its attribute names and values (copies owning their characters), or undefined. */
  private names: (readonly string[] | undefined)[] = [];
  private values: (readonly string[] | undefined)[] = [];
  /** Characters held (`SOURCE_CACHE_CHARS`). */
  private chars = 0;
  /**
   * Stands for the current entries: replaced when the cache is cleared, so that an entry index (`get`,
   * `set`) names one start-tag text for as long as `owner` is the same object.
   */
  owner: object = {};

  static hash(html: string, start: number, end: number): number {
    let h = 0x811c9dc5 | 0;
    let k = start;
    // two characters a step (half the multiplications); then a final mix, without which the second
    // character of each pair (the high half) would never reach the low bits that pick the slot
    for (; k + 1 < end; k += 2) h = Math.imul(h ^ (html.charCodeAt(k) | (html.charCodeAt(k + 1) << 16)), 0x01000193);
    if (k < end) h = Math.imul(h ^ html.charCodeAt(k), 0x01000193);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return h ^ (h >>> 16);
  }

  /** The entry of html[start, end) with hash h, or -1. */
  get(html: string, start: number, end: number, h: number): number {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]! - 1;
      if (e < 0) return -1;
      if (this.hashes[e] === h) {
        const t = this.texts[e]!;
        if (t.length === len && html.slice(start, end) === t) return e;
      }
    }
  }

  /** The label of entry e. */
  label(e: number): number {
    return this.labels[e]!;
  }

  /** The attribute names of entry e when kept (`keep`), else undefined. */
  namesOf(e: number): readonly string[] | undefined {
    return this.names[e];
  }

  /** The attribute values of entry e, in the order of `namesOf(e)`. */
  valuesOf(e: number): readonly string[] {
    return this.values[e]!;
  }

  /** How a parser replays entry e once its attributes are kept, else 0. */
  howOf(e: number): number {
    return this.hows[e]!;
  }

  /** Keeps copies of entry e's attribute names and values, and how a parser replays it. */
  keep(e: number, names: readonly string[], values: readonly string[], how: number): void {
    this.hows[e] = how;
    for (let a = 0; a < names.length; a++) this.chars += names[a]!.length + values[a]!.length;
    this.names[e] = names.length === 0 ? NO_ATTRIBUTES : names.map(detach);
    this.values[e] = values.length === 0 ? NO_ATTRIBUTES : values.map(detach);
  }

  /** Adds an entry; returns its index. */
  set(text: string, h: number, label: number): number {
    if (this.texts.length >= SOURCE_CACHE_LIMIT || this.chars >= SOURCE_CACHE_CHARS) this.clear();
    this.chars += text.length;
    const e = this.texts.length;
    if (e >= this.hashes.length) {
      const hs = new Int32Array(e * 2);
      hs.set(this.hashes);
      this.hashes = hs;
      const ls = new Int32Array(e * 2);
      ls.set(this.labels);
      this.labels = ls;
      const ws = new Int32Array(e * 2);
      ws.set(this.hows);
      this.hows = ws;
    }
    this.hows[e] = 0;
    this.texts.push(text);
    this.names.push(undefined);
    this.values.push(undefined);
    this.hashes[e] = h;
    this.labels[e] = label;
    if ((e + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(e);
    return e;
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[e]! & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let e = 0; e < this.texts.length; e++) this.place(e);
  }

  private clear(): void {
    this.texts = [];
    this.names = [];
    this.values = [];
    this.chars = 0;
    this.slots.fill(0);
    this.owner = {};
  }
}

const NO_ATTRIBUTES: readonly string[] = Object.freeze([]);

/** True for the characters JavaScript's `\s` matches above ASCII (and U+00A0). */
export function isWideSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * An attribute value as it enters a label: `collapseSpace(v).toLowerCase()`, with a scan that skips the
 * regular expression when there is nothing to collapse and the lowercasing when there is nothing to lower.
 */
export function normalizeValue(v: string): string {
  let upper = false;
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (c === 32) {
      if (k === 0 || k === v.length - 1 || v.charCodeAt(k + 1) === 32) return collapseSpace(v).toLowerCase();
    } else if (c < 32) {
      if (c >= 9 && c <= 13) return collapseSpace(v).toLowerCase();
    } else if (c > 127) {
      if (isWideSpace(c)) return collapseSpace(v).toLowerCase();
      upper = true; // non-ASCII may have a lowercase form
    } else if (c >= 65 && c <= 90) upper = true;
  }
  return upper ? v.toLowerCase() : v;
}

export class LabelTable {
  private readonly ids = new Map<string, number>();
  /** Scratch for `elementKey`'s attribute order. */
  private order: number[] = [];
  /** Start-tag source text → element label (a cache in front of `element`). */
  private readonly bySource = new SourceLabelCache();
  private readonly keys: string[] = ['#document', '#text', '#blank', '#comment'];
  readonly attributes: LabelAttributes;
  private readonly allow: ReadonlySet<string> | null;

  constructor(options: LabelOptions = {}) {
    this.attributes = options.attributes ?? 'all';
    this.allow = Array.isArray(this.attributes) ? new Set(this.attributes as readonly string[]) : null;
  }

  /** Number of labels so far (ids are 0 .. size-1). */
  get size(): number {
    return this.keys.length;
  }

  /** Interns a raw key; returns its id. */
  intern(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.ids.set(key, id);
    }
    return id;
  }

  /** Id of a key if already interned, else -1 (never adds). */
  lookup(key: string): number {
    return this.ids.get(key) ?? -1;
  }

  /** The key a label id stands for (the normalised tag, '/tag' for end tags, or '#t:' + text). */
  key(id: number): string {
    return this.keys[id] ?? '';
  }

  /** The normalised start-tag key of an element: `tag a1="v1" a2="v2"` with attributes sorted by name. */
  elementKey(tag: string, names: readonly string[], values: readonly string[]): string {
    if (this.attributes === 'none' || names.length === 0) return tag;
    // Attribute indices in name order, stable so that repeats keep source order: an insertion sort for the
    // few attributes of most tags, the library's (stable) sort for many.
    let order = this.order;
    let n = 0;
    if (names.length > 16) {
      order = [];
      for (let a = 0; a < names.length; a++) if (!this.allow || this.allow.has(names[a]!)) order.push(a);
      order.sort((x, y) => (names[x]! < names[y]! ? -1 : names[x]! > names[y]! ? 1 : x - y));
      n = order.length;
    } else {
      for (let a = 0; a < names.length; a++) {
        if (this.allow && !this.allow.has(names[a]!)) continue;
        let k = n++;
        while (k > 0 && names[order[k - 1]!]! > names[a]!) {
          order[k] = order[k - 1]!;
          k--;
        }
        order[k] = a;
      }
    }
    let key = tag;
    for (let k = 0; k < n; k++) key += ' ' + names[order[k]!]! + '="' + normalizeValue(values[order[k]!]!) + '"';
    return key;
  }

  /** Label of an element: interned `elementKey`. */
  element(tag: string, names: readonly string[], values: readonly string[]): number {
    return this.intern(this.elementKey(tag, names, values));
  }

  /**
   * The cached entry of the start tag whose source text is `html[start, end)` (e.g. `<div class="a">`),
   * or -1 (then `sourceAdd` caches it). Equal source text means equal tag and attributes, so an element's
   * label is cached by it and the normalisation (`elementKey`) runs once per distinct tag text of the site.
   * Sets `sourceEntry` to the entry found. A tag longer than `SOURCE_TAG_MAX` is never cached.
   */
  sourceFind(html: string, start: number, end: number): number {
    if (end - start > SOURCE_TAG_MAX) return (this.sourceEntry = -1);
    const h = SourceLabelCache.hash(html, start, end);
    this.lastHash = h;
    return (this.sourceEntry = this.bySource.get(html, start, end, h));
  }

  /**
   * The label of the element `tag`, `names`, `values` (a parsed tag) whose start tag `html[start, end)` was
   * just looked up by `sourceFind` and not found; caches it (unless too long), `sourceEntry` its entry or -1.
   */
  sourceAdd(html: string, start: number, end: number, tag: string, names: readonly string[], values: readonly string[]): number {
    const label = this.element(tag, names, values);
    this.sourceEntry = end - start > SOURCE_TAG_MAX ? -1 : this.bySource.set(detach(html.slice(start, end)), this.lastHash, label);
    return label;
  }

  /** The element label of a cached start tag. */
  sourceLabel(e: number): number {
    return this.bySource.label(e);
  }

  /** The attribute names of a cached start tag once kept (`sourceKeep`), else undefined. */
  sourceNames(e: number): readonly string[] | undefined {
    return this.bySource.namesOf(e);
  }

  /** The attribute values of a cached start tag whose names are kept, in their order. */
  sourceValues(e: number): readonly string[] {
    return this.bySource.valuesOf(e);
  }

  /**
   * Keeps a cached start tag's attributes (copies), for the next time its text is met, and `how` a parser
   * replays the tag (tree-parser.ts `TreeEvents.known`; 0: not replayed).
   */
  sourceKeep(e: number, names: readonly string[], values: readonly string[], how = 0): void {
    this.bySource.keep(e, names, values, how);
  }

  /** How a parser replays a cached start tag whose attributes are kept (`sourceKeep`), else 0. */
  sourceHow(e: number): number {
    return this.bySource.howOf(e);
  }

  private lastHash = 0;

  /**
   * The start-tag text of the last `sourceFind` or `sourceAdd`, as an integer: equal integers under one
   * `sourceOwner` mean equal start-tag texts, hence equal tag names and attributes (what a serialiser or a
   * link resolver may cache by).
   */
  sourceEntry = -1;
  /** What `sourceEntry` integers are relative to (a new object when the cache is cleared). */
  get sourceOwner(): object {
    return this.bySource.owner;
  }

  /** Label of an end tag (tokens.ts). */
  endTag(tag: string): number {
    return this.intern('/' + tag);
  }

  /** Label of a normalised text snippet (tokens.ts). */
  text(normalised: string): number {
    return this.intern('#t:' + normalised);
  }
}
