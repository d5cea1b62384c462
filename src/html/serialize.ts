/**
 * A Tree back to HTML, optionally with marks: `mark(i)` returns extra attributes for element i (e.g.
 * `data-gabarit="template"`). The output parses back to the same Tree with the rules that built it (up to
 * the marks), a tested invariant (test/html/serialize.test.ts, and the fuzzer):
 *  - the document's own doctype is written (none when it had none: a browser's quirks mode stays);
 *  - text is escaped, except in the elements whose content the tree's parser read as raw text: script,
 *    style and xmp for both (iframe, noembed, noframes, noscript and plaintext too for the exact path,
 *    which follows browsers with scripting on); inside svg and math, script and style are ordinary elements
 *    and their text is escaped;
 *  - a newline is added after `<pre>`, `<listing>` and `<textarea>` when their text starts with one (the
 *    parsers drop the first);
 *  - void elements get no end tag; after an exact-path `<plaintext>` no end tag is written (its text runs
 *    to the end of the document).
 */
import { NodeKind, type Tree, tagId, VOID_TAGS } from './tree.ts';

/** Elements whose text is raw for both parsers (htmlparser2 and the WHATWG algorithm). */
const RAW_BOTH = ['script', 'style', 'xmp'];
/** Also raw for the WHATWG algorithm with scripting on (htmlparser2 parses them as markup). */
const RAW_EXACT = [...RAW_BOTH, 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'];
const RAW_FAST_IDS = new Set(RAW_BOTH.map(tagId));
const RAW_EXACT_IDS = new Set(RAW_EXACT.map(tagId));
/** HTML raw-text elements that are ordinary elements in svg and math. */
const FOREIGN_ORDINARY = new Set(['script', 'style'].map(tagId));
const FOREIGN_ROOTS = new Set(['svg', 'math'].map(tagId));
/** Elements of svg and math whose content is HTML again (integration points), in both spellings. */
const INTEGRATION = new Set(['foreignobject', 'foreignObject', 'desc', 'title', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml'].map(tagId));
const LEADING_NEWLINE = new Set(['pre', 'listing', 'textarea'].map(tagId));
const PLAINTEXT = tagId('plaintext');

export function escapeText(s: string): string {
  return s.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
}
export function escapeAttr(s: string): string {
  return s.replace(/[&"\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&nbsp;'));
}

export interface SerializeOptions {
  /** Root of the subtree to write (default: the document). */
  root?: number;
  /** Extra attributes for element i, or undefined. */
  mark?: (i: number) => Readonly<Record<string, string>> | undefined;
  /**
   * Write the document's doctype first when serialising the whole document (default true). A document
   * without one gets none.
   */
  doctype?: boolean;
  /**
   * Raw HTML written as the first thing inside the document's `<head>` (e.g. a `<style>`), or, when the
   * document has no head, right after the `<html>` start tag, else first. Only when serialising the whole
   * document.
   */
  inject?: string;
}

/** How the content of an open element is written. */
const enum Content {
  Escaped = 0,
  Raw = 1,
  /** Exact-path plaintext: raw, and nothing closes it. */
  Endless = 2,
}

export function serialize(tree: Tree, options: SerializeOptions = {}): string {
  const root = options.root ?? 0;
  const out: string[] = [];
  if (root === 0 && (options.doctype ?? true) && tree.doctype !== undefined) out.push(tree.doctype);
  // The element the injected HTML goes into (-1: written first).
  let injectAt = -1;
  if (root === 0 && options.inject !== undefined) {
    injectAt = tree.find('head');
    if (injectAt < 0) injectAt = tree.find('html');
    if (injectAt < 0) out.push(options.inject);
  }
  const raw = tree.rules === 'exact' ? RAW_EXACT_IDS : RAW_FAST_IDS;
  // Open elements: node, how its content is written, whether it is in svg/math content.
  const closers: number[] = [];
  const content: Content[] = [];
  const foreign: boolean[] = [];
  let endless = false;
  const last = tree.end[root]!;
  const closeUntil = (pos: number): void => {
    while (closers.length > 0 && tree.end[closers[closers.length - 1]!]! <= pos) {
      const e = closers.pop()!;
      content.pop();
      foreign.pop();
      if (!endless) out.push(`</${tree.tag(e)}>`);
    }
  };
  for (let i = root; i < last; i++) {
    closeUntil(i);
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      const tag = tree.tag(i);
      const id = tree.name[i]!;
      let s = '<' + tag;
      for (let a = tree.attrStart[i]!, e = tree.attrStart[i + 1]!; a < e; a++) {
        s += ` ${tree.attrNames[a]}="${escapeAttr(tree.attrValues[a]!)}"`;
      }
      const extra = options.mark?.(i);
      if (extra) for (const [n, v] of Object.entries(extra)) s += ` ${n}="${escapeAttr(v)}"`;
      out.push(s + '>');
      if (i === injectAt) out.push(options.inject!);
      if (VOID_TAGS.has(tag)) continue;
      const outer = foreign.length > 0 ? foreign[foreign.length - 1]! : false;
      const inForeign = FOREIGN_ROOTS.has(id) || (outer && !INTEGRATION.has(id));
      let c = Content.Escaped;
      if (raw.has(id) && !(inForeign && FOREIGN_ORDINARY.has(id))) c = id === PLAINTEXT ? Content.Endless : Content.Raw;
      if (LEADING_NEWLINE.has(id) && !inForeign) {
        const first = i + 1;
        if (first < tree.end[i]! && tree.kind[first] !== NodeKind.Element && tree.kind[first] !== NodeKind.Comment && tree.text.charCodeAt(tree.textStart[first]!) === 10) out.push('\n');
      }
      closers.push(i);
      content.push(c);
      foreign.push(inForeign);
      if (c === Content.Endless) endless = true;
    } else if (k === NodeKind.Text || k === NodeKind.Blank) {
      const t = tree.nodeText(i);
      const c = content.length > 0 ? content[content.length - 1]! : Content.Escaped;
      out.push(c === Content.Escaped ? escapeText(t) : t);
    } else if (k === NodeKind.Comment) {
      out.push(`<!--${tree.nodeText(i)}-->`);
    }
  }
  closeUntil(last);
  while (closers.length > 0) {
    const e = closers.pop()!;
    if (!endless) out.push(`</${tree.tag(e)}>`);
  }
  return out.join('');
}
