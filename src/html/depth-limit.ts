/**
 * The depth limit of both parsers (docs/robustness.md, "Deep nesting"). Browsers cap the depth of the tree
 * their HTML parser builds (Blink: 512, `kMaximumHTMLParserDOMTreeDepth`; an element deeper than that is
 * attached beside its parent instead of inside it). The parser libraries do not, and their open-element
 * stacks cost time in proportion to their depth at every tag (htmlparser2's Parser shifts its stack array at
 * the front, and an end tag searches the stack; parse5 scans its stack for scope at most start tags), so a page of 400,000 nested `<div>`s
 * (4.4 MB) took 132 s to parse. Both parsers here keep at most MAX_DEPTH elements open:
 *  - a start tag that would open an element deeper than MAX_DEPTH opens it and closes it at once: it
 *    becomes an empty element, and what the page puts inside it (text, deeper elements) lands beside it,
 *    in the element at the limit, in document order. That is Blink's result as well (its elements past the
 *    limit stay empty, their content is attached to the element at the limit);
 *  - the end tag of such an element is matched against the elements closed this way (innermost first), so
 *    it does not close an outer element of the same name: the page's structure below and after the deep
 *    part is kept;
 *  - raw-text elements (script, style, textarea, title…) are not closed early: they hold no elements, and
 *    their text must stay theirs.
 * Each tag then costs at most MAX_DEPTH steps, whatever the page.
 */
import { Parser as Parse5Parser, Token, type DefaultTreeAdapterMap } from 'parse5';

/** Deepest element nesting either parser builds (Blink's value). */
export const MAX_DEPTH = 512;

/** Elements whose content is raw text: never closed early (they cannot hold deeper elements). */
export const DEPTH_RAW_TEXT = ['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'];
const RAW_TEXT = new Set(DEPTH_RAW_TEXT);

/**
 * The logical open elements past the limit (already closed in the tree), innermost last, with a count per
 * name (or tag id) so that an end tag finds out in O(1) whether it belongs to one of them.
 */
export class Overflow<K> {
  private readonly names: K[] = [];
  private readonly counts = new Map<K, number>();

  get size(): number {
    return this.names.length;
  }
  push(name: K): void {
    this.names.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }
  /** When `name` is among them, forgets them down to its innermost one and returns true. */
  closeTo(name: K): boolean {
    if (!this.counts.get(name)) return false;
    for (;;) {
      const top = this.names.pop()!;
      this.counts.set(top, this.counts.get(top)! - 1);
      if (top === name) return true;
    }
  }
  clear(): void {
    this.names.length = 0;
    this.counts.clear();
  }
}

type P5Map = DefaultTreeAdapterMap;

/** parse5's Parser with its open-element stack kept at MAX_DEPTH (see the module comment). */
export class DepthLimitedParse5 extends Parse5Parser<P5Map> {
  private readonly overflow = new Overflow<string>();

  override onStartTag(token: Token.TagToken): void {
    const before = this.openElements.stackTop;
    super.onStartTag(token);
    const stack = this.openElements;
    if (stack.stackTop <= before || stack.stackTop + 1 <= MAX_DEPTH) return;
    // Close what this start tag opened past the limit (an implied tbody/tr too), innermost first.
    while (stack.stackTop + 1 > MAX_DEPTH && stack.stackTop > before) {
      const current = stack.current as P5Map['element'];
      const name = current.tagName;
      if (RAW_TEXT.has(name)) return;
      const top = stack.stackTop;
      super.onEndTag(endTag(name, stack.currentTagId));
      if (stack.stackTop >= top) {
        // The insertion mode ignored the end tag: take the element off the stack directly.
        stack.pop();
        this._resetInsertionMode();
      }
      this.overflow.push(name);
    }
  }

  override onEndTag(token: Token.TagToken): void {
    if (this.overflow.size > 0) {
      if (this.overflow.closeTo(token.tagName)) return;
      if (this.openElements.tagIDs.slice(0, this.openElements.stackTop + 1).includes(token.tagID)) this.overflow.clear();
    }
    super.onEndTag(token);
  }
}

/** An end-tag token for `name` (what the tokenizer would make of `</name>`). */
function endTag(name: string, tagID: number | undefined): Token.TagToken {
  return {
    type: Token.TokenType.END_TAG,
    tagName: name,
    tagID: (tagID ?? 0) as Token.TagToken['tagID'],
    selfClosing: false,
    ackSelfClosing: false,
    attrs: [],
    location: null,
  };
}
