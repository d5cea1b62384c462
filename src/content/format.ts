/**
 * The formats of `gabarit content --format`: the main content of a page as plain text (blocks on lines,
 * as the output contract's `<page>.txt`), as HTML (the main content elements, in document order), as
 * Markdown (the kept nodes as a hast tree, written by hast-util-to-mdast and mdast-util-to-markdown with
 * GitHub's tables) or as JSON (title, headline, url, text, and the figures of the page). `title` is always
 * the document's `<title>`; `headline` the main content's headline when the content engine found one
 * (`extra.headline`). The HTML has the title as `<title>` and the headline as its first `<h1>`.
 */
import type { Element, ElementContent, Properties, Root } from 'hast';
import { toMdast } from 'hast-util-to-mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { type Options as ToMarkdownOptions, toMarkdown } from 'mdast-util-to-markdown';
import { serialize } from '../html/serialize.ts';
import { isNonText, pageTitle } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { keptText, type PageMarks, templateFraction } from '../template/result.ts';

/** Formats of `--format`. */
export const CONTENT_FORMATS = ['text', 'html', 'markdown', 'json'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** File extension of each format. */
export const FORMAT_EXTENSION: Readonly<Record<ContentFormat, string>> = { text: '.txt', html: '.content.html', markdown: '.md', json: '.json' };

// the document's title is the tree's (html/text.ts): the pagelets workers take it from there
export { pageTitle } from '../html/text.ts';

/** Content marks of a page: `content` when set, else every non-template node. */
function contentOf(m: PageMarks): Uint8Array {
  if (m.content) return m.content;
  const c = new Uint8Array(m.template.length);
  for (let i = 0; i < c.length; i++) c[i] = m.template[i] === 1 ? 0 : 1;
  return c;
}

/** The outermost content elements of the body (each one's parent is not content), in document order. */
export function contentRoots(m: PageMarks): number[] {
  const tree = m.tree;
  const c = contentOf(m);
  const body = tree.body();
  const out: number[] = [];
  for (let i = body + 1; i < tree.end[body]!; ) {
    if (tree.kind[i] === NodeKind.Element && c[i] === 1 && !isNonText(tree, i)) {
      out.push(i);
      i = tree.end[i]!;
    } else i++;
  }
  return out;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The main content as an HTML document: the title, the headline (when given and not in the content
 * already), then each outermost content element.
 */
export function contentHtml(m: PageMarks, title = pageTitle(m.tree), headline = ''): string {
  const parts = contentRoots(m).map((r) => serialize(m.tree, { root: r, doctype: false }));
  if (headline !== '' && !titleRepeats(headline, keptText(m).split('\n', 1)[0]!)) parts.unshift(`<h1>${escapeHtml(headline)}</h1>`);
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>\n${parts.join('\n')}\n</body></html>\n`;
}

/** The main content as Markdown (GitHub's flavour: tables; a readable rendering, not a round trip). */
export function contentMarkdown(m: PageMarks, title = pageTitle(m.tree)): string {
  const root = keptHast(m);
  // The page's heading is often its title again (or the title is the heading and the site's name): say it
  // once. Otherwise the title is the one first-level heading and the page's highest headings become the
  // second level.
  const first = leadingH1(root);
  if (title && !(first !== undefined && titleRepeats(title, first))) {
    const top = topHeading(root);
    if (top < 7) shiftHeadings(root, 2 - top);
    root.children.unshift(element('h1', {}, [{ type: 'text', value: title }]));
  }
  return toMarkdown(toMdast(root), MARKDOWN_OPTIONS).trim() + '\n';
}

const MARKDOWN_OPTIONS: ToMarkdownOptions = { bullet: '-', fences: true, extensions: [gfmToMarkdown()] };

/**
 * The main content as a hast tree (the syntax tree of HTML that hast-util-to-mdast reads), built from the
 * kept nodes only: text marked content, images and links marked content, and the elements around them.
 * Elements with nothing kept inside are left out; a link with no kept text or image takes its
 * `aria-label` or `title` as text, or is left out (its target is then not in the Markdown); links to a
 * fragment of the page or to `javascript:` keep their text only. A `<pre>` becomes one code block with its
 * language (class `language-x` or `lang-x` on the `pre` or its `code`), whole when any of it is kept (a
 * line of code is not cut by template marks on a bracket that other pages have too). A table that lays
 * out the page (a table inside it, a heading or a code block in a cell, role presentation) is unwrapped so
 * its cells read as blocks; other tables stay tables.
 */
function keptHast(m: PageMarks): Root {
  const tree = m.tree;
  const c = contentOf(m);
  const kids = (i: number, layout: boolean): ElementContent[] => {
    const out: ElementContent[] = [];
    for (let j = i + 1; j < tree.end[i]!; j = tree.end[j]!) for (const n of node(j, layout)) out.push(n);
    return out;
  };
  const node = (i: number, layout: boolean): ElementContent[] => {
    const k = tree.kind[i];
    if (k === NodeKind.Text) return c[i] === 1 ? [{ type: 'text', value: tree.nodeText(i) }] : [];
    if (k === NodeKind.Blank) return [{ type: 'text', value: tree.nodeText(i) }];
    if (k !== NodeKind.Element || isNonText(tree, i)) return [];
    const tag = tree.tag(i);
    if (tag === 'pre') return codeBlock(i);
    if (tag === 'img') {
      const src = tree.attr(i, 'src');
      return c[i] === 1 && src ? [element('img', { src, alt: tree.attr(i, 'alt') ?? '', ...optional('title', tree.attr(i, 'title')) })] : [];
    }
    if (tag === 'br' || tag === 'hr') return c[i] === 1 ? [element(tag, {})] : [];
    if (FORM_CONTROLS.has(tag)) return [];
    if (tag === 'video' || tag === 'audio') return c[i] === 1 ? mediaLink(i, tag) : [];
    if (layout && LAYOUT_PARTS.has(tag)) return tag === 'td' || tag === 'th' ? keep(element('div', {}, kids(i, false))) : kids(i, true);
    if (tag === 'table' && layoutTable(tree, i)) return kids(i, true);
    const children = kids(i, false);
    if (tag === 'a') {
      const href = tree.attr(i, 'href');
      if (c[i] !== 1 || !href || href.startsWith('#') || /^\s*javascript:/i.test(href)) return children;
      const label = substantive(children) ? children : textLabel(tree.attr(i, 'aria-label') ?? tree.attr(i, 'title'));
      return label.length > 0 ? [element('a', { href, ...optional('title', tree.attr(i, 'title')) }, label)] : [];
    }
    const start = tag === 'ol' ? Number(tree.attr(i, 'start')) : NaN;
    return keep(element(tag, Number.isInteger(start) ? { start } : {}, children));
  };
  const codeBlock = (i: number): ElementContent[] => {
    let text = '';
    let kept = c[i] === 1;
    let lang = languageOf(tree.attr(i, 'class'));
    for (let j = i + 1; j < tree.end[i]!; j++) {
      const k = tree.kind[j];
      if (k === NodeKind.Element && isNonText(tree, j)) j = tree.end[j]! - 1;
      else if (k === NodeKind.Text || k === NodeKind.Blank) {
        text += tree.nodeText(j);
        if (c[j] === 1) kept = true;
      } else if (k === NodeKind.Element && tree.tag(j) === 'code') lang ??= languageOf(tree.attr(j, 'class'));
    }
    if (!kept) return [];
    return [element('pre', {}, [element('code', lang ? { className: [`language-${lang}`] } : {}, [{ type: 'text', value: text }])])];
  };
  // A video or a sound: a link to its file (its poster as the image of the link), named by its title,
  // its label, its fallback text or its kind.
  const mediaLink = (i: number, tag: string): ElementContent[] => {
    let src = tree.attr(i, 'src');
    for (let j = i + 1; !src && j < tree.end[i]!; j++) if (tree.kind[j] === NodeKind.Element && tree.tag(j) === 'source') src = tree.attr(j, 'src');
    if (!src) return [];
    const fallback = kids(i, false);
    const label = textLabel(tree.attr(i, 'title') ?? tree.attr(i, 'aria-label'));
    const text = label.length > 0 ? label : substantive(fallback) ? fallback : textLabel(tag);
    const poster = tree.attr(i, 'poster');
    return [element('a', { href: src }, poster ? [element('img', { src: poster, alt: textContent(element('span', {}, text)).trim() })] : text)];
  };
  return { type: 'root', children: kids(tree.body(), false) };
}

/** Form controls: what a reader types or picks, not what the page says. */
const FORM_CONTROLS: ReadonlySet<string> = new Set(['select', 'textarea', 'input', 'datalist']);
/** Table parts that a layout table's unwrapping makes transparent (cells become blocks). */
const LAYOUT_PARTS: ReadonlySet<string> = new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'col']);
/** Elements that make a table a layout table when a cell holds them. */
const LAYOUT_SIGNS: ReadonlySet<string> = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'article', 'main', 'nav', 'form']);

/** True when table i lays out the page rather than holding data (see keptHast). */
function layoutTable(tree: Tree, i: number): boolean {
  const role = tree.attr(i, 'role');
  if (role === 'presentation' || role === 'none') return true;
  for (let j = i + 1; j < tree.end[i]!; j++) if (tree.kind[j] === NodeKind.Element && LAYOUT_SIGNS.has(tree.tag(j))) return true;
  return false;
}

function languageOf(cls: string | undefined): string | undefined {
  return cls ? /(?:^|\s)lang(?:uage)?-([\w+#.-]+)/.exec(cls)?.[1] : undefined;
}

function element(tagName: string, properties: Properties, children: ElementContent[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

function optional(name: string, value: string | undefined): Properties {
  return value ? { [name]: value } : {};
}

function textLabel(s: string | undefined): ElementContent[] {
  const t = s?.trim();
  return t ? [{ type: 'text', value: t }] : [];
}

/** True when the nodes hold a word or an image (white space and empty elements alone are nothing). */
function substantive(nodes: readonly ElementContent[]): boolean {
  return nodes.some((n) => (n.type === 'text' ? /\S/.test(n.value) : n.type === 'element' && (n.tagName === 'img' || substantive(n.children))));
}

/** The element when it holds something (see substantive), else nothing. */
function keep(e: Element): ElementContent[] {
  return substantive(e.children) ? [e] : [];
}

/** The text of the first-level heading that opens the content (before any other text), if there is one. */
function leadingH1(root: Root): string | undefined {
  for (const n of root.children) {
    if (n.type === 'text') {
      if (/\S/.test(n.value)) return undefined;
    } else if (n.type === 'element') {
      if (n.tagName === 'h1') return textContent(n);
      if (substantive(n.children)) return leadingH1({ type: 'root', children: n.children });
    }
  }
  return undefined;
}

function textContent(n: ElementContent): string {
  return n.type === 'text' ? n.value : n.type === 'element' ? n.children.map(textContent).join('') : '';
}

const HEADING = /^h([1-6])$/;

/** The highest level of the headings in the tree (1 for h1), 7 when it has none. */
function topHeading(n: Root | Element): number {
  let top = 7;
  for (const child of n.children) {
    if (child.type !== 'element') continue;
    const h = HEADING.exec(child.tagName);
    top = Math.min(top, h ? Number(h[1]) : topHeading(child));
  }
  return top;
}

/** Every heading `by` levels down (up when negative), kept within h1…h6. */
function shiftHeadings(n: Root | Element, by: number): void {
  if (by === 0) return;
  for (const child of n.children) {
    if (child.type !== 'element') continue;
    const h = HEADING.exec(child.tagName);
    if (h) child.tagName = `h${Math.max(1, Math.min(6, Number(h[1]) + by))}`;
    else shiftHeadings(child, by);
  }
}

/**
 * True when `heading` (the first line of the content) says the page title again: the same text, or the
 * title is the heading with the site's name before or after it ("Headline | Site", "Site: Headline").
 */
export function titleRepeats(title: string, heading: string): boolean {
  const t = title.replace(/\s+/g, ' ').trim();
  const h = heading.replace(/\s+/g, ' ').trim();
  if (h === '' || h.length < 0.4 * t.length) return false;
  return t === h || t.startsWith(h) || t.endsWith(h);
}

/** The headline of a page's main content as the content engine reported it (`extra.headline`), '' when none. */
export function contentHeadline(extra: Readonly<Record<string, unknown>> = {}): string {
  return typeof extra['headline'] === 'string' ? extra['headline'] : '';
}

/** What the text and Markdown open with: the headline, else the document's `<title>`. */
function heading(m: PageMarks, extra: Readonly<Record<string, unknown>>): string {
  return contentHeadline(extra) || pageTitle(m.tree);
}

/**
 * The main content as a JSON-ready object: `title` (the document's `<title>`), `headline` when found,
 * `text` (the body, see extract.ts), and the page's figures.
 */
export function contentJson(m: PageMarks, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const text = keptText(m);
  const headline = contentHeadline(extra);
  const figures = Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'title' && k !== 'headline'));
  return {
    key: m.key,
    url: m.url,
    title: pageTitle(m.tree),
    ...(headline !== '' ? { headline } : {}),
    text,
    words: text.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length,
    templateFraction: Math.round(templateFraction(m) * 10000) / 10000,
    ...figures,
  };
}

/** One page in one format. */
export function formatContent(m: PageMarks, format: ContentFormat, extra: Record<string, unknown> = {}): string {
  switch (format) {
    case 'text': {
      const top = heading(m, extra);
      const text = keptText(m);
      return (top && !titleRepeats(top, text.split('\n', 1)[0]!) ? `${top}\n\n` : '') + text + '\n';
    }
    case 'html':
      return contentHtml(m, pageTitle(m.tree), contentHeadline(extra));
    case 'markdown':
      return contentMarkdown(m, heading(m, extra));
    case 'json':
      return JSON.stringify(contentJson(m, extra), null, 1) + '\n';
  }
}
