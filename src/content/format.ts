/**
 * The formats of `gabarit content --format`: the main content of a page as plain text (blocks on lines,
 * as the output contract's `<page>.txt`), as HTML (the main content elements, in document order), as
 * Markdown (headings, paragraphs, list items, code blocks, links) or as JSON (title, headline, url, text,
 * and the figures of the page). `title` is always the document's `<title>`; `headline` the main content's
 * headline when the content engine found one (`extra.headline`). The text and Markdown open with the
 * headline (else the title); the HTML has the title as `<title>` and the headline as its first `<h1>`.
 */
import { serialize } from '../html/serialize.ts';
import { isBlock, isNonText } from '../html/text.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { keptText, type PageMarks, templateFraction } from '../template/result.ts';

/** Formats of `--format`. */
export const CONTENT_FORMATS = ['text', 'html', 'markdown', 'json'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** File extension of each format. */
export const FORMAT_EXTENSION: Readonly<Record<ContentFormat, string>> = { text: '.txt', html: '.content.html', markdown: '.md', json: '.json' };

/** The text of the document's `<title>` ('' when none). */
export function pageTitle(tree: Tree): string {
  const t = tree.find('title');
  if (t < 0) return '';
  let s = '';
  for (let i = t + 1; i < tree.end[t]!; i++) if (tree.kind[i] === NodeKind.Text || tree.kind[i] === NodeKind.Blank) s += tree.nodeText(i);
  return s.replace(/\s+/g, ' ').trim();
}

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

const HEADING = /^h([1-6])$/;

/** The main content as Markdown (a readable rendering, not a round trip). */
export function contentMarkdown(m: PageMarks, title = pageTitle(m.tree)): string {
  const tree = m.tree;
  const c = contentOf(m);
  const lines: string[] = [];
  if (title) lines.push(`# ${title}`, '');
  let line = '';
  let prefix = '';
  const flush = (): void => {
    const t = line.replace(/[\s\u00a0]+/g, ' ').trim();
    if (t) lines.push(prefix + t, '');
    line = '';
    prefix = '';
  };
  const body = tree.body();
  const closers: Array<[number, string]> = [];
  for (let i = body; i < tree.end[body]!; i++) {
    while (closers.length > 0 && closers[closers.length - 1]![0] <= i) {
      const [, suffix] = closers.pop()!;
      line += suffix;
    }
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      if (isNonText(tree, i)) {
        i = tree.end[i]! - 1;
        continue;
      }
      const tag = tree.tag(i);
      if (tag === 'pre' && c[i] === 1) {
        flush();
        let code = '';
        for (let j = i + 1; j < tree.end[i]!; j++) if (tree.kind[j] === NodeKind.Text || tree.kind[j] === NodeKind.Blank) code += tree.nodeText(j);
        lines.push('```', code.replace(/\n+$/, ''), '```', '');
        i = tree.end[i]! - 1;
        continue;
      }
      if (isBlock(tree, i)) {
        flush();
        const h = HEADING.exec(tag);
        if (h) prefix = '#'.repeat(Math.min(6, Number(h[1]) + (title ? 1 : 0))) + ' ';
        else if (tag === 'li') prefix = '- ';
        else if (tag === 'blockquote') prefix = '> ';
        closers.push([tree.end[i]!, '']);
      } else if (tag === 'a' && c[i] === 1) {
        const href = tree.attr(i, 'href');
        if (href && !href.startsWith('#') && !href.startsWith('javascript:')) {
          line += '[';
          closers.push([tree.end[i]!, `](${href})`]);
        }
      }
    } else if ((k === NodeKind.Text || k === NodeKind.Blank) && c[i] === 1) {
      line += tree.nodeText(i);
    }
  }
  while (closers.length > 0) line += closers.pop()![1];
  flush();
  // The page's heading is often its title again (or the title is the heading and the site's name): say it
  // once.
  const first = lines[2]?.startsWith('## ') ? lines[2].slice(3) : '';
  if (title && titleRepeats(title, first)) lines.splice(0, 3, `# ${first}`);
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
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
