/**
 * The common result of every template engine (DESIGN.md, "Results and outputs"): for each page, the
 * nodes that are template. Marks are per node (elements and text nodes alike): an element marked template
 * may still hold content nodes that are not (a layout `<div>` around the article). Kept text is the text
 * of the unmarked text nodes of `<body>`.
 */
import { textOf } from '../html/text.ts';
import type { Tree } from '../html/tree.ts';
import type { PageFailure } from '../errors.ts';

export interface PageMarks {
  /** Page key (path relative to the source root). */
  readonly key: string;
  readonly url: string;
  readonly tree: Tree;
  /** 1 where the node is template, 0 elsewhere; length tree.size. */
  readonly template: Uint8Array;
  /** For the content command: 1 where the node is main content. When set, kept text is content text. */
  readonly content?: Uint8Array;
}

/** The text a method keeps on a page: content nodes when `content` is set, else non-template nodes. */
export function keptText(m: PageMarks): string {
  const c = m.content;
  if (c) return textOf(m.tree, m.tree.body(), (i) => c[i] === 1);
  const t = m.template;
  return textOf(m.tree, m.tree.body(), (i) => t[i] !== 1);
}

/** Fraction of the body's text characters that are marked template (paper 3, Table 2 measure). */
export function templateFraction(m: PageMarks): number {
  const tree = m.tree;
  const body = tree.body();
  let all = 0;
  let tpl = 0;
  for (let i = body; i < tree.end[body]!; i++) {
    if (tree.kind[i] !== 2) continue;
    const n = tree.textEnd[i]! - tree.textStart[i]!;
    all += n;
    if (m.template[i] === 1) tpl += n;
  }
  return all === 0 ? 0 : tpl / all;
}

/** A page's output already rendered (an engine that writes it without the page's tree, e.g. pagelets). */
export interface RenderedPage {
  key: string;
  url: string;
  /** `<page>.html`: the page with its marks (its UTF-8 bytes, or the string that encodes to them). */
  html: string | Uint8Array;
  /** `<page>.txt` without its final newline: the text kept. */
  text: string;
  /** Fraction of the page's body text that is template. */
  templateFraction: number;
  /** The document's `<title>` (jsonl's `title`), when the renderer read it from the tree. */
  title?: string;
  /** Its `no-content` failure, or null when it has content, when the renderer checked it on the tree. */
  noContent?: PageFailure | null;
  /** The page's main content in another format (`gabarit content --format`), when its renderer made it. */
  formatted?: string;
}

/**
 * How the marks look when a `<page>.html` is opened in a browser: template parts greyed, main content
 * outlined. Injected in every written page, whatever the site's own styles.
 */
export const OVERLAY_CSS = `[data-gabarit="template"]{opacity:.35!important;filter:grayscale(1)!important;background:#d8d8d8!important}
[data-gabarit="content"]{outline:3px solid #e4572e!important;outline-offset:2px;background:rgba(255,235,59,.12)!important}`;
/** The style element written into each `<page>.html`. */
export const OVERLAY_STYLE = `<style data-gabarit-overlay>${OVERLAY_CSS}</style>`;

/** The attribute of a template element in `<page>.html` (src/output.ts). */
export const TEMPLATE_MARK = { 'data-gabarit': 'template' } as const;
