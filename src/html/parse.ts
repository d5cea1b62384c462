/**
 * HTML → Tree. Two paths, one Tree type:
 *  - `parseHtml` (fast): htmlparser2's streaming callbacks feed a TreeBuilder directly; no intermediate DOM.
 *    It follows htmlparser2's error recovery (implied end tags for p/li/td…, void elements), which is close
 *    to, but not the same as, a browser's.
 *  - `parseHtmlExact` (browser-exact): parse5 implements the WHATWG tree-construction algorithm (implicit
 *    html/head/body/tbody, adoption agency for misnested formatting tags, foster parenting); its DOM is then
 *    walked once into a TreeBuilder. Use it when selectors must match what a browser shows.
 * Both decode entities, lowercase tag and attribute names, and intern element labels in a LabelTable.
 */
import { Parser } from 'htmlparser2';
import { parse as parse5Parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { LabelTable } from './labels.ts';
import { tagId, Tree, TreeBuilder } from './tree.ts';

export interface ParseOptions {
  /** The site's label table; a fresh one (all attributes) when omitted. */
  labels?: LabelTable;
  /**
   * Treat `<x/>` as an empty element (XHTML pages served as such). Default false: HTML rules, where
   * a self-closing slash on a non-void element is ignored.
   */
  selfClosing?: boolean;
}

/** Parses with htmlparser2 callbacks (the fast path). Never throws on malformed input. */
export function parseHtml(html: string, options: ParseOptions = {}): Tree {
  const labels = options.labels ?? new LabelTable();
  const b = new TreeBuilder(Math.max(64, html.length >> 5));
  const names: string[] = [];
  const values: string[] = [];
  const parser = new Parser(
    {
      onattribute(name, value) {
        names.push(name);
        values.push(value);
      },
      onopentag(name) {
        // The start tag's source text keys the label cache: most tags of a site repeat verbatim.
        const label = labels.elementFromSource(html.slice(parser.startIndex, parser.endIndex + 1), name, names, values);
        b.open(tagId(name), label, names, values);
        names.length = 0;
        values.length = 0;
      },
      onclosetag() {
        b.close();
      },
      ontext(data) {
        b.addText(data);
      },
      oncomment(data) {
        b.addComment(data);
      },
    },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
      recognizeSelfClosing: options.selfClosing ?? false,
    },
  );
  parser.end(html);
  return b.finish();
}

type P5Node = DefaultTreeAdapterMap['node'];
type P5Parent = DefaultTreeAdapterMap['parentNode'];

/** Parses with parse5 (WHATWG tree construction, the browser-exact path). Never throws on malformed input. */
export function parseHtmlExact(html: string, options: ParseOptions = {}): Tree {
  const labels = options.labels ?? new LabelTable();
  const doc = parse5Parse(html);
  const b = new TreeBuilder(Math.max(64, html.length >> 5));
  const names: string[] = [];
  const values: string[] = [];
  // Iterative preorder walk (pages can be deeply nested).
  const stack: Array<{ node: P5Node; close: boolean }> = [];
  const pushChildren = (p: P5Parent): void => {
    const kids = (p as { content?: P5Parent }).content?.childNodes ?? p.childNodes;
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k]!, close: false });
  };
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
  return b.finish();
}
