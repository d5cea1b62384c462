/**
 * How much of a subtree's text changes from page to page: characters and word-holding text items, template
 * (fixed) or not, inside links or not, as prefix sums over a tree's preorder. The hyperlink and align
 * engines' navigation regions (a bar of links whose words change) both read it.
 */
import { NodeKind, tagId, type Tree } from '../html/tree.ts';

/** Per-tree prefix sums over preorder of non-template text characters, all and inside `<a href>`. */
export class VariableText {
  private readonly all: Float64Array;
  private readonly link: Float64Array;
  private readonly tpl: Float64Array;
  private readonly items: Int32Array;
  private readonly tplItems: Int32Array;
  private readonly tree: Tree;

  /** `template[i] === 1` marks the tree's template nodes; their text is not variable. */
  constructor(tree: Tree, template: Uint8Array) {
    this.tree = tree;
    const n = tree.size;
    this.all = new Float64Array(n + 1);
    this.link = new Float64Array(n + 1);
    this.tpl = new Float64Array(n + 1);
    this.items = new Int32Array(n + 1);
    this.tplItems = new Int32Array(n + 1);
    const a = tagId('a');
    let linkEnd = -1;
    for (let i = 0; i < n; i++) {
      if (i >= linkEnd) linkEnd = -1;
      if (linkEnd < 0 && tree.name[i] === a && tree.kind[i] === NodeKind.Element && tree.attr(i, 'href') !== undefined) linkEnd = tree.end[i]!;
      let t = 0;
      let f = 0;
      let ti = 0;
      let fi = 0;
      if (tree.kind[i] === NodeKind.Text) {
        const word = hasWord(tree, i) ? 1 : 0;
        if (template[i] !== 1) {
          t = tree.textEnd[i]! - tree.textStart[i]!;
          ti = word;
        } else {
          f = tree.textEnd[i]! - tree.textStart[i]!;
          fi = word;
        }
      }
      this.items[i + 1] = this.items[i]! + ti;
      this.tplItems[i + 1] = this.tplItems[i]! + fi;
      this.all[i + 1] = this.all[i]! + t;
      this.tpl[i + 1] = this.tpl[i]! + f;
      this.link[i + 1] = this.link[i]! + (linkEnd >= 0 ? t : 0);
    }
  }

  /** Variable (non-template) text characters in the subtree of r. */
  text(r: number): number {
    return this.all[this.tree.end[r]!]! - this.all[r]!;
  }
  /** Template (fixed) text characters in the subtree of r. */
  fixed(r: number): number {
    return this.tpl[this.tree.end[r]!]! - this.tpl[r]!;
  }
  /**
   * True when r's text is mostly fixed, as a bar's is: at least one template text item (a text node holding
   * a word) per two changing ones (a pager's "Previous" beside each title; a sidebar's section headings
   * beside its open section's entries), where an index's cards have none. Items, not characters: a bar's
   * fixed words are short in Chinese ("上一页") and long in German, while the titles beside them are as
   * long as titles are in either language.
   */
  mostlyFixed(r: number): boolean {
    const e = this.tree.end[r]!;
    return 2 * (this.tplItems[e]! - this.tplItems[r]!) >= this.items[e]! - this.items[r]!;
  }
  /** Variable text characters outside links in the subtree of r. */
  prose(r: number): number {
    return this.text(r) - this.linkText(r);
  }
  /** Of those, the characters inside links. */
  linkText(r: number): number {
    return this.link[this.tree.end[r]!]! - this.link[r]!;
  }
  /** True when r's variable text is empty or at least `share` links. */
  navigational(r: number, share: number): boolean {
    const t = this.text(r);
    return t === 0 || this.linkText(r) >= share * t;
  }
}

/** A letter or a digit, of any script: what makes a text a word. */
export const WORD = /[\p{L}\p{N}]/u;

/** True when text node i holds a letter or a digit (any script). */
export function hasWord(tree: Tree, i: number): boolean {
  return WORD.test(tree.nodeText(i));
}
