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
 *    parsers drop the first); carriage returns in escaped text and attributes are written `&#13;`;
 *  - void elements get no end tag; after an exact-path `<plaintext>` no end tag is written (its text runs
 *    to the end of the document).
 */
import { childNamespace, Namespace, namespaceOf } from './namespace.ts';
import { NodeKind, type Tree, tagId, VOID_TAGS } from './tree.ts';

/** Elements whose text is raw for both parsers (htmlparser2 and the WHATWG algorithm). */
const RAW_BOTH = ['script', 'style', 'xmp'];
/** Also raw for the WHATWG algorithm with scripting on (htmlparser2 parses them as markup). */
const RAW_EXACT = [...RAW_BOTH, 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'];
const RAW_FAST_IDS = new Set(RAW_BOTH.map(tagId));
/** htmlparser2 reads these as raw text (script, style, xmp) or RCDATA (title, textarea) after `<tag>`. */
const FAST_SPECIAL = new Set([...RAW_BOTH, 'title', 'textarea'].map(tagId));
const RAW_EXACT_IDS = new Set(RAW_EXACT.map(tagId));
/** HTML raw-text elements whose text the fast path decodes in svg and math (parse.ts). */
const FOREIGN_ORDINARY = new Set(['script', 'style'].map(tagId));
const LEADING_NEWLINE = new Set(['pre', 'listing', 'textarea'].map(tagId));
const PLAINTEXT = tagId('plaintext');

/**
 * True when element i (script, style, xmp, title or textarea, fast path) can be written as `<tag>…</tag>`
 * and read back the same: it holds text only, and, when its text is written raw, none that would end it
 * (`</tag`).
 */
function specialReadable(tree: Tree, i: number, tag: string, raw: boolean): boolean {
  const end = raw ? new RegExp(`</${tag}[\\s/>]`, 'i') : null;
  for (let c = i + 1, e = tree.end[i]!; c < e; c = tree.end[c]!) {
    const k = tree.kind[c];
    if (k === NodeKind.Element || k === NodeKind.Comment) return false;
    if (end && end.test(tree.nodeText(c) + ' ')) return false;
  }
  return true;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\u00a0': '&nbsp;', '\r': '&#13;' };
const escapeOne = (c: string): string => ESCAPES[c]!;

/** Text for HTML: `& < >`, no-break spaces and carriage returns (a parser would turn a CR into a LF) escaped. */
export function escapeText(s: string): string {
  return s.replace(/[&<>\u00a0\r]/g, escapeOne);
}
/** An attribute value for a double-quoted attribute (see escapeText). */
export function escapeAttr(s: string): string {
  return s.replace(/[&"\u00a0\r]/g, escapeOne);
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
  const exact = tree.rules === 'exact';
  const raw = exact ? RAW_EXACT_IDS : RAW_FAST_IDS;
  // Open elements: node, how its content is written, whether it is in svg/math content.
  const closers: number[] = [];
  const content: Content[] = [];
  /** Namespace of each open element (namespace.ts), the root's parent's first. */
  const spaces: Namespace[] = [];
  let endless = false;
  const last = tree.end[root]!;
  const closeUntil = (pos: number): void => {
    while (closers.length > 0 && tree.end[closers[closers.length - 1]!]! <= pos) {
      const e = closers.pop()!;
      content.pop();
      spaces.pop();
      if (!endless) out.push(`</${tree.tag(e)}>`);
    }
  };
  const nsOf = (i: number): Namespace => {
    const p = tree.parent[i]!;
    const parentNs = spaces.length > 0 ? spaces[spaces.length - 1]! : p > 0 ? namespaceOf(tree, p) : Namespace.Html;
    return p > 0 ? childNamespace(parentNs, tree.tag(p), tree.attr(p, 'encoding'), tree.tag(i)) : childNamespace(Namespace.Html, '', undefined, tree.tag(i));
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
      const ns = nsOf(i);
      const html = ns === Namespace.Html;
      // Raw text: exact path, HTML elements only (in svg and math every element is ordinary); fast path,
      // as htmlparser2 reads it (xmp anywhere; script and style are decoded in svg and math, parse.ts).
      let c = Content.Escaped;
      if (raw.has(id) && (html || (!exact && !FOREIGN_ORDINARY.has(id)))) c = id === PLAINTEXT ? Content.Endless : Content.Raw;
      // htmlparser2 reads the content of `<style/>` (script, xmp, title, textarea too) as markup: such an
      // element that holds elements or comments, or text that would end it early, is written so.
      const markupInside = !exact && FAST_SPECIAL.has(id) && !specialReadable(tree, i, tag, c === Content.Raw);
      if (markupInside) c = Content.Escaped;
      out.push(s + (markupInside ? '/>' : '>'));
      if (i === injectAt) out.push(options.inject!);
      // htmlparser2 knows no namespaces: a void tag name is void everywhere on the fast path.
      if (VOID_TAGS.has(tag) && (html || !exact)) continue;
      if (LEADING_NEWLINE.has(id) && (html || !exact)) {
        const first = i + 1;
        if (first < tree.end[i]! && tree.kind[first] !== NodeKind.Element && tree.kind[first] !== NodeKind.Comment) {
          const c0 = tree.text.charCodeAt(tree.textStart[first]!);
          if (c0 === 10 || c0 === 13) out.push('\n');
        }
      }
      closers.push(i);
      content.push(c);
      spaces.push(ns);
      if (c === Content.Endless) endless = true;
    } else if (k === NodeKind.Text || k === NodeKind.Blank) {
      const t = tree.nodeText(i);
      const c = content.length > 0 ? content[content.length - 1]! : Content.Escaped;
      out.push(c === Content.Escaped ? escapeText(t) : t);
    } else if (k === NodeKind.Comment) {
      const t = tree.nodeText(i);
      // htmlparser2 reads `<![CDATA[x]]>` as a comment "[CDATA[x]]", which may hold "-->".
      out.push(!exact && t.includes('-->') && t.startsWith('[CDATA[') && t.endsWith(']]') ? `<!${t}>` : `<!--${t}-->`);
    }
  }
  closeUntil(last);
  while (closers.length > 0) {
    const e = closers.pop()!;
    if (!endless) out.push(`</${tree.tag(e)}>`);
  }
  return out.join('');
}
