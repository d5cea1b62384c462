/**
 * Pages of another page class than the key page's (ours). Definition 3.3 of paper 2 takes for template what
 * the key page shares with every page of the complete subdigraph, which presumes that those pages are built
 * on the key page's template. Where the key page's own kind of pages do not link to each other, the CS is
 * made of pages of other layouts (an API reference's class page: its package summary and its class tree),
 * and the bars of the key page's class that those pages lack (a class's "Summary: Field | Method") end up as
 * content. The structure of a page (paper 4's page schema: its link collections and layout, as INDESIT and
 * `gabarit cluster` read it, src/collect/) tells pages of one class from pages of another, with the same
 * similarity and threshold T those engines use (chosen out of sample there: src/structure/defaults.ts).
 *
 * The schemas are cut at the median depth of the content of the pages read (layout.ts `LayoutDepth`), as
 * `gabarit cluster` cuts them at its site's.
 */
import type { Tree } from '../../html/tree.ts';
import { COLLECT_DEFAULTS } from '../../structure/defaults.ts';
import { TagLists } from '../../structure/link-collections.ts';
import { type PageSchema, similarity } from '../../structure/page-schema.ts';
import { LayoutDepth } from '../../structure/layout.ts';
import { readStructure, schemaOfStructure, type Structure } from '../../structure/page-structure.ts';

/** Tells the pages of the key page's class (by page schema) from the others. */
export class PageClasses {
  private readonly tagLists = new TagLists();
  private readonly depth = new LayoutDepth();
  private readonly structures = new Map<string, Structure>();
  private readonly keyOf: (url: string) => string | undefined;
  private readonly keyPage: Structure;
  readonly threshold: number;

  constructor(keyTree: Tree, keyUrl: string, keyOf: (url: string) => string | undefined, threshold: number = COLLECT_DEFAULTS.similarity) {
    this.keyOf = keyOf;
    this.threshold = threshold;
    this.keyPage = this.read(keyTree, keyUrl);
  }

  private read(tree: Tree, url: string): Structure {
    const s = readStructure(tree, url, this.tagLists, { keyOf: this.keyOf });
    this.depth.add(s.contentDepth, s.layout.region >= 0);
    return s;
  }

  /** Reads a page loaded for learning (once per key): its structure, and its content depth for the median. */
  add(key: string, tree: Tree, url: string): void {
    if (!this.structures.has(key)) this.structures.set(key, this.read(tree, url));
  }

  /**
   * sim(key page, page `key`) in [0, 1] (page-schema.ts `similarity`), the schemas cut at the median content
   * depth of the pages read so far (one page alone, a short one especially, may put its text anywhere).
   */
  similarity(key: string): number {
    const s = this.structures.get(key);
    if (!s) throw new Error(`page-classes: ${key} was not read`);
    const d = this.depth.value;
    const schema = (x: Structure): PageSchema => schemaOfStructure(x, this.tagLists, d, { offSiteLinks: true });
    return similarity(schema(this.keyPage), schema(s));
  }
}
