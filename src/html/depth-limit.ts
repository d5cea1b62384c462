/**
 * The depth limit of both parsers (docs/robustness.md, "Deep nesting"). Browsers cap the depth of the tree
 * their HTML parser builds (Blink: 512, `kMaximumHTMLParserDOMTreeDepth`; an element deeper than that is
 * attached beside its parent instead of inside it). The parser libraries do not, and their open-element
 * stacks cost time in proportion to their depth at every tag (htmlparser2 shifts its stack array at the
 * front; parse5 scans its stack for scope at most start tags), so a page of 400,000 nested `<div>`s
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
import { Parser as Html2Parser } from 'htmlparser2';
import { Parser as Parse5Parser, Token, type DefaultTreeAdapterMap } from 'parse5';

/** Deepest element nesting either parser builds (Blink's value). */
export const MAX_DEPTH = 512;

/** Elements whose content is raw text: never closed early (they cannot hold deeper elements). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

/**
 * The logical open elements past the limit (already closed in the tree), innermost last, with a count per
 * name so that an end tag finds out in O(1) whether it belongs to one of them.
 */
class Overflow {
  private readonly names: string[] = [];
  private readonly counts = new Map<string, number>();

  get size(): number {
    return this.names.length;
  }
  push(name: string): void {
    this.names.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }
  /** When `name` is among them, forgets them down to its innermost one and returns true. */
  closeTo(name: string): boolean {
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

/** htmlparser2's private members this subclass works with (stable across 8.x–10.x). */
interface Html2Internals {
  stack: string[];
  foreignContext: boolean[];
  cbs: { onclosetag?(name: string, isImplied: boolean): void };
  getSlice(start: number, end: number): string;
  startIndex: number;
  endIndex: number;
}

/** Elements after which htmlparser2 pushes a foreign-context entry (its own sets). */
const HTML2_CONTEXT = new Set(['math', 'svg', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/**
 * htmlparser2's Parser with the tree it builds kept at MAX_DEPTH (see the module comment). `openDepth`
 * tells how many elements the tree being built has open: it differs from htmlparser2's own stack where
 * the builder implies or drops elements (an implied body, a repeated head), and the limit must fall at
 * the same place when the tree is written out and read again. htmlparser2's stack is bounded too.
 */
export class DepthLimitedParser extends Html2Parser {
  private readonly overflow = new Overflow();
  /** Set between the name of a start tag that went past the limit and the end of that tag. */
  private pending = false;
  private readonly openDepth: () => number;

  constructor(cbs: ConstructorParameters<typeof Html2Parser>[0], options: ConstructorParameters<typeof Html2Parser>[1], openDepth: () => number) {
    super(cbs, options);
    this.openDepth = openDepth;
  }

  private get internals(): Html2Internals {
    return this as unknown as Html2Internals;
  }

  override onopentagname(start: number, endIndex: number): void {
    const before = this.internals.stack.length;
    super.onopentagname(start, endIndex);
    const stack = this.internals.stack;
    // The elements it implied closed are closed in the tree already; the new one is not opened yet.
    this.pending = stack.length > before && (this.openDepth() >= MAX_DEPTH || stack.length > 2 * MAX_DEPTH) && !RAW_TEXT.has(stack[0]!);
  }

  override onopentagend(endIndex: number): void {
    super.onopentagend(endIndex);
    this.closeDeep();
  }

  override onselfclosingtag(endIndex: number): void {
    const before = this.internals.stack.length;
    super.onselfclosingtag(endIndex);
    if (this.internals.stack.length < before) this.pending = false; // closed by its own slash
    else this.closeDeep();
  }

  /** Closes the element just opened past the limit, remembering it for its end tag. */
  private closeDeep(): void {
    if (!this.pending) return;
    this.pending = false;
    const p = this.internals;
    const name = p.stack.shift()!;
    if (HTML2_CONTEXT.has(name)) p.foreignContext.shift();
    p.cbs.onclosetag?.(name, true);
    this.overflow.push(name);
  }

  override onclosetag(start: number, endIndex: number): void {
    if (this.overflow.size > 0) {
      const p = this.internals;
      const name = p.getSlice(start, endIndex).toLowerCase();
      if (this.overflow.closeTo(name)) {
        // Its element was closed when it was opened; the end tag only leaves the overflow.
        p.endIndex = endIndex;
        p.startIndex = endIndex + 1;
        return;
      }
      // An end tag of an element at or above the limit closes every deeper one too.
      if (p.stack.includes(name)) this.overflow.clear();
    }
    super.onclosetag(start, endIndex);
  }
}

type P5Map = DefaultTreeAdapterMap;

/** parse5's Parser with its open-element stack kept at MAX_DEPTH (see the module comment). */
export class DepthLimitedParse5 extends Parse5Parser<P5Map> {
  private readonly overflow = new Overflow();

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
