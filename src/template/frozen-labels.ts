/**
 * A label table frozen after a template's labels were interned (labels.ts): applying a learned template
 * to page after page must not grow a table by every new tag and text the pages hold. Known keys keep their
 * ids; every other key gets a shared id that no template token has, so it never matches (the same outcome
 * as a fresh id of its own, since pages are only compared with the template): one for texts and end tags,
 * and one per tag name for elements (the parser reads an element's tag from its label: a label must name
 * one tag).
 */
import { LabelTable, type LabelOptions } from '../html/labels.ts';

export class FrozenLabels extends LabelTable {
  /** The id of every key not interned before `freeze`. */
  readonly unknown: number;
  private frozen = false;

  constructor(options: LabelOptions, keys: Iterable<string>) {
    super(options);
    for (const k of keys) this.intern(k);
    this.unknown = super.intern('#unknown');
    this.frozen = true;
  }

  override intern(key: string): number {
    if (!this.frozen) return super.intern(key);
    const id = this.lookup(key);
    if (id >= 0) return id;
    const c = key.charCodeAt(0);
    // '#' (texts, fixed labels) and '/' (end tags) share `unknown`; an element key starts with its tag.
    if (c === 35 || c === 47) return this.unknown;
    const space = key.indexOf(' ');
    return super.intern('#unknown ' + (space < 0 ? key : key.slice(0, space)));
  }
}
