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

export class LabelTable {
  private readonly ids = new Map<string, number>();
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
    const picked: Array<[string, string]> = [];
    for (let a = 0; a < names.length; a++) {
      const n = names[a]!;
      if (this.allow && !this.allow.has(n)) continue;
      picked.push([n, collapseSpace(values[a]!).toLowerCase()]);
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

  /** Label of an end tag (tokens.ts). */
  endTag(tag: string): number {
    return this.intern('/' + tag);
  }

  /** Label of a normalised text snippet (tokens.ts). */
  text(normalised: string): number {
    return this.intern('#t:' + normalised);
  }
}
