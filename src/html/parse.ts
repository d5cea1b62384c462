/**
 * HTML → Tree. Two paths, one Tree type:
 *  - `parseHtml` (fast): htmlparser2's tokenizer, and htmlparser2's rules of tree construction kept on
 *    tag ids (tree-parser.ts), feed a TreeBuilder directly; no intermediate DOM. It follows htmlparser2's
 *    error recovery (implied end tags for p/li/td…, void elements), which is close to, but not the same
 *    as, a browser's. What it does differently from a browser (test/html/agree.test.ts
 *    checks that both paths agree on well-formed pages, up to the first two points):
 *     - few implied elements: html, head and tbody exist only when the source has them, and elements
 *       before or after html/head/body stay where they are (a browser moves them into head/body). One
 *       browser rule is kept because real pages depend on it: inside `<head>`, an element that does not
 *       belong there (anything but title, meta, link, style, script, base, noscript, template…) or
 *       non-blank text ends the head and opens an implied `<body>`, as in the WHATWG "in head" insertion
 *       mode. Without it, a page whose head is never closed (truncated markup, as on 14 corpus pages) would
 *       keep its whole text inside `<head>`, where no text is page text. A later `<body>` tag is then
 *       merged into the implied one (its start and end tags are dropped), as a browser does;
 *     - no adoption agency (misnested `<b><i></b></i>`) and no foster parenting (text or elements directly
 *       in a table stay there; a browser moves them before the table);
 *     - `noscript` content is parsed as markup (a browser with scripting on sees raw text);
 *     - `<x/>` on a non-void element is an open tag (as in browsers) unless `selfClosing` is set, but inside
 *       svg/math it closes (as in browsers);
 *     - repeated html/body start tags create nested elements (a browser merges their attributes);
 *     - repeated attributes keep the first value, as browsers do;
 *     - textarea content, and style or script content of SVG and MathML elements, is decoded here (htmlparser2 leaves
 *       their entities as they are); NUL characters are dropped from text and become U+FFFD in raw text
 *       and attribute values, and a newline right after `<pre>`, `<listing>` or `<textarea>` is dropped, as
 *       in browsers (htmlparser2 keeps them);
 *     - the doctype is kept as written (`Tree.doctype`), so that serialising keeps the page's mode.
 *    Depth: at most MAX_DEPTH (512) elements are open at once, on both paths (depth-limit.ts): an element
 *    deeper than that is empty and its content lands beside it, as in Blink. Without the limit, both
 *    libraries take time in proportion to the square of the nesting depth.
 *  - `parseHtmlExact` (browser-exact): parse5 implements the WHATWG tree-construction algorithm (implicit
 *    html/head/body/tbody, adoption agency for misnested formatting tags, foster parenting); its DOM is then
 *    walked once into a TreeBuilder. Use it when selectors must match what a browser shows.
 * Both decode entities, lowercase tag and attribute names, and intern element labels in a LabelTable.
 */
import { decodeHTML } from 'entities';
import type { DefaultTreeAdapterMap } from 'parse5';
import { DepthLimitedParse5 } from './depth-limit.ts';
import { LabelTable } from './labels.ts';
import { childNamespace, Namespace } from './namespace.ts';
import { tagId, tagName, Tree, TreeBuilder } from './tree.ts';
import { TreeParser } from './tree-parser.ts';

export interface ParseOptions {
  /** The site's label table; a fresh one (all attributes) when omitted. */
  labels?: LabelTable;
  /**
   * Treat `<x/>` as an empty element (XHTML pages served as such). Default false: HTML rules, where
   * a self-closing slash on a non-void element is ignored.
   */
  selfClosing?: boolean;
}

const TEXTAREA = tagId('textarea');
const HEAD = tagId('head');
const BODY = tagId('body');
/** Elements the WHATWG "in head" insertion mode keeps inside `<head>`; any other start tag ends the head. */
const IN_HEAD = new Set(
  ['base', 'basefont', 'bgsound', 'link', 'meta', 'title', 'noscript', 'noframes', 'style', 'script', 'template'].map(tagId),
);
const NON_BLANK = /[^ \t\n\f\r]/;
const NUL = /\0/g;
/** Elements whose content is raw text or RCDATA (no elements inside). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'].map(tagId));
/** Bits of `OPEN_RULES`: the element's first newline is dropped; it is raw text in HTML, an ordinary element in svg and math. */
const LEADING_NEWLINE = 1;
const FOREIGN_RAW = 2;
/** Per tag id, the bits read at every start tag (a table: no hashing a tag). */
const OPEN_RULES = ((): Uint8Array => {
  const bits: [string, number][] = [['pre', LEADING_NEWLINE], ['listing', LEADING_NEWLINE], ['textarea', LEADING_NEWLINE], ['style', FOREIGN_RAW], ['script', FOREIGN_RAW]];
  const t = new Uint8Array(Math.max(...bits.map(([n]) => tagId(n))) + 1);
  for (const [n, b] of bits) t[tagId(n)] = b;
  return t;
})();

/** True when the innermost open element of `b` (just opened) is an SVG or MathML element (namespace.ts). */
function inForeign(b: TreeBuilder): boolean {
  const chain: number[] = [];
  for (let n = b.current; n > 0; n = b.parentOf(n)) chain.push(n);
  let ns: Namespace = Namespace.Html;
  let parent = 0;
  for (let k = chain.length - 1; k >= 0; k--) {
    const n = chain[k]!;
    ns = childNamespace(ns, tagName(b.nameAt(parent)), parent > 0 ? b.attrOf(parent, 'encoding') : undefined, tagName(b.nameAt(n)));
    parent = n;
  }
  return ns !== Namespace.Html;
}

/** Parses with htmlparser2's tokenizer and its rules of tree construction (the fast path). Never throws on malformed input. */
export function parseHtml(html: string, options: ParseOptions = {}): Tree {
  const labels = options.labels ?? new LabelTable();
  // About one node per 16 characters on the corpus pages: one allocation, rarely a regrowth.
  const b = new TreeBuilder(Math.max(64, html.length >> 4));
  // a start tag's attributes when made (not cached): `open` and the label table copy what they keep
  const names: string[] = [];
  const values: string[] = [];
  // NUL characters need replacing only on the rare pages that hold one: one scan of the page, not one per tag
  const nul = html.includes('\0');
  let decodeText = false;
  let skipNewline = false;
  let seenElement = false;
  // One entry per element the parser has open: the node it opened here, or -1 when its start tag was
  // dropped (a `<body>` merged into an implied one). A close event closes down to that node, so the two
  // stacks stay in step even after an implied end of the head moved this side's open elements.
  const opened: number[] = [];
  let impliedBody = -1;
  /** Ends an open `<head>` that is the innermost element and opens an implied body in its place. */
  const leaveHead = (): void => {
    b.close();
    impliedBody = b.open(BODY, labels.element('body', [], []), [], []);
  };
  // the range `known` last looked up, and its entry: `open` of the same range looks it up no more
  let foundStart = -1;
  let foundEnd = -1;
  let found = -1;
  const parser: TreeParser = new TreeParser(
    {
      known(start, end) {
        foundStart = start;
        foundEnd = end;
        found = labels.sourceFind(html, start, end);
        return found >= 0 ? labels.sourceHow(found) : 0;
      },
      open(id, start, end, how) {
        // The start tag's source text keys the label cache: most tags of a site repeat verbatim, and the
        // cache keeps their attributes once seen twice (and then the parser replays the tag: `known`).
        let e = start === foundStart && end === foundEnd ? found : labels.sourceFind(html, start, end);
        foundStart = -1;
        let attrNames = e >= 0 ? labels.sourceNames(e) : undefined;
        let attrValues: readonly string[];
        let label: number;
        if (attrNames !== undefined) {
          attrValues = labels.sourceValues(e);
          label = labels.sourceLabel(e);
        } else {
          parser.attributes(nul, names, values);
          attrNames = names;
          attrValues = values;
          if (e >= 0) {
            labels.sourceKeep(e, names, values, how);
            label = labels.sourceLabel(e);
          } else {
            label = labels.sourceAdd(html, start, end, tagName(id), names, values);
            e = labels.sourceEntry;
          }
        }
        // NUL in a tag name: U+FFFD in the tree (the parser's rules see the name as written)
        const nameId = nul && tagName(id).includes('\0') ? tagId(tagName(id).replace(NUL, '\uFFFD')) : id;
        if ((nameId === BODY && impliedBody >= 0) || (nameId === HEAD && b.nameAt(b.current) === HEAD)) {
          // A body tag after the implied body, a head tag inside the head: dropped, as a browser does.
          opened.push(-1);
        } else {
          if (b.nameAt(b.current) === HEAD && !IN_HEAD.has(nameId) && nameId !== HEAD) leaveHead();
          opened.push(b.open(nameId, label, attrNames, attrValues, e, labels.sourceOwner));
        }
        // Text the tokenizer leaves undecoded that a browser decodes: textarea (RCDATA), and style or
        // script in svg or math (outside their HTML integration points), ordinary elements there.
        const rules = nameId < OPEN_RULES.length ? OPEN_RULES[nameId]! : 0;
        decodeText = nameId === TEXTAREA || ((rules & FOREIGN_RAW) !== 0 && inForeign(b));
        skipNewline = (rules & LEADING_NEWLINE) !== 0;
        seenElement = true;
      },
      instruction(name, data) {
        // The doctype, when it comes before any element (a browser ignores a later one).
        if (b.doctype === undefined && !seenElement && name === '!doctype') b.doctype = `<${data}>`;
      },
      close() {
        decodeText = false;
        skipNewline = false;
        const node = opened.pop();
        if (node !== undefined && node >= 0 && b.isOpen(node)) b.closeTo(node);
      },
      text(start, end) {
        let data = html.slice(start, end);
        // character references, where htmlparser2 decodes them (its decoder, legacy mode)
        if (parser.decodesText() && data.includes('&')) data = decodeHTML(data);
        const here = b.nameAt(b.current);
        if (here === HEAD && NON_BLANK.test(data)) leaveHead();
        // NUL characters: dropped from ordinary text, U+FFFD in raw text and attributes (as browsers do).
        if (nul && data.includes('\0')) data = data.replace(NUL, RAW_TEXT.has(here) ? '\uFFFD' : '');
        if (skipNewline) {
          // A newline right after <pre>, <listing> or <textarea> is not content (HTML "in body" rules).
          skipNewline = false;
          if (data.startsWith('\r\n')) data = data.slice(2);
          else if (data.startsWith('\n') || data.startsWith('\r')) data = data.slice(1);
        }
        b.addText(decodeText ? decodeHTML(data) : data);
      },
      comment(data) {
        skipNewline = false;
        b.addComment(data);
      },
    },
    options.selfClosing ?? false,
    () => b.openDepth,
  );
  parser.parse(html);
  return b.finish();
}

type P5Node = DefaultTreeAdapterMap['node'];
type P5Parent = DefaultTreeAdapterMap['parentNode'];

/** Parses with parse5 (WHATWG tree construction, the browser-exact path). Never throws on malformed input. */
export function parseHtmlExact(html: string, options: ParseOptions = {}): Tree {
  const labels = options.labels ?? new LabelTable();
  const doc = DepthLimitedParse5.parse<DefaultTreeAdapterMap>(html);
  const b = new TreeBuilder(Math.max(64, html.length >> 5));
  const names: string[] = [];
  const values: string[] = [];
  // Iterative preorder walk (pages can be deeply nested).
  const stack: Array<{ node: P5Node; close: boolean }> = [];
  const pushChildren = (p: P5Parent): void => {
    const kids = (p as { content?: P5Parent }).content?.childNodes ?? p.childNodes;
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k]!, close: false });
  };
  for (const n of doc.childNodes) {
    if (n.nodeName !== '#documentType') continue;
    const d = n as DefaultTreeAdapterMap['documentType'];
    const ids = d.publicId ? ` PUBLIC "${d.publicId}"${d.systemId ? ` "${d.systemId}"` : ''}` : d.systemId ? ` SYSTEM "${d.systemId}"` : '';
    b.doctype = `<!DOCTYPE ${d.name}${ids}>`;
  }
  pushChildren(doc);
  while (stack.length > 0) {
    const { node, close } = stack.pop()!;
    if (close) {
      b.close();
      continue;
    }
    if (node.nodeName === '#text') {
      b.addText((node as DefaultTreeAdapterMap['textNode']).value);
    } else if (node.nodeName === '#comment') {
      b.addComment((node as DefaultTreeAdapterMap['commentNode']).data);
    } else if ('tagName' in node) {
      names.length = 0;
      values.length = 0;
      for (const a of node.attrs) {
        names.push(a.prefix ? `${a.prefix}:${a.name}` : a.name);
        values.push(a.value);
      }
      const name = node.tagName;
      b.open(tagId(name), labels.element(name, names, values), names, values);
      stack.push({ node, close: true });
      pushChildren(node);
    }
  }
  return b.finish('exact');
}
