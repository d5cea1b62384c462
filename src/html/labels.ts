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
 * Most start-tag texts cached by `elementFromSource` per table before the cache is cleared (bounds memory on
 * sites where most tags are unique, e.g. per-page links). 2^18 entries of typically < 100 characters.
 */
export const SOURCE_CACHE_LIMIT = 1 << 18;

/** A copy of `s` that shares no memory with the string it was sliced from (a slice keeps its parent alive). */
function detach(s: string): string {
  // Concatenation, then slice, flattens into a fresh string of s's length (+1) and slices that.
  return (s + ' ').slice(0, -1);
}

/** True for the characters JavaScript's `\s` matches above ASCII (and U+00A0). */
function isWideSpace(c: number): boolean {
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
    } else if (c < 32 ? c >= 9 && c <= 13 : c > 127 && (isWideSpace(c) || (upper = true, false))) {
      return collapseSpace(v).toLowerCase();
    } else if (c >= 65 && c <= 90) upper = true;
  }
  return upper ? v.toLowerCase() : v;
}

export class LabelTable {
  private readonly ids = new Map<string, number>();
  /** Start-tag source text → element label (a cache in front of `element`). */
  private readonly bySource = new Map<string, number>();
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
    if (names.length === 1 && !this.allow) return `${tag} ${names[0]!}="${normalizeValue(values[0]!)}"`;
    const picked: Array<[string, string]> = [];
    for (let a = 0; a < names.length; a++) {
      const n = names[a]!;
      if (this.allow && !this.allow.has(n)) continue;
      picked.push([n, normalizeValue(values[a]!)]);
    }
    if (picked.length === 0) return tag;
    picked.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    let key = tag;
    for (const [n, v] of picked) key += ` ${n}="${v}"`;
    return key;
  }

  /** Label of an element: interned `elementKey`. */
  element(tag: string, names: readonly string[], values: readonly string[]): number {
    return this.intern(this.elementKey(tag, names, values));
  }

  /**
   * Label of an element whose start tag has the source text `source` (e.g. `<div class="a">`): equal source
   * text means equal tag and attributes, so the label is cached by it and the normalisation (`elementKey`)
   * runs once per distinct tag text of the site. `tag`, `names`, `values` are the parsed tag (used on a miss).
   */
  elementFromSource(source: string, tag: string, names: readonly string[], values: readonly string[]): number {
    let id = this.bySource.get(source);
    if (id === undefined) {
      id = this.element(tag, names, values);
      if (this.bySource.size >= SOURCE_CACHE_LIMIT) this.bySource.clear();
      this.bySource.set(detach(source), id);
    }
    return id;
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
