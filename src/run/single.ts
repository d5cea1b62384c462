/**
 * The best single-page answer: a template needs at least two pages of one site, so a page alone (a page
 * file, a one-page directory, the only page of its site in a mixed crawl) gets its main content chosen on
 * the page by its own signals (src/content/extract.ts `extractMainContent`: text concentration, link
 * density, class and id names, position). Its marks: content = the main content; template = every node outside it that holds
 * none of it (text outside the main content, and elements holding only such text), so that the kept text
 * of `gabarit template` and `gabarit content` is the main content alike.
 */
import { extractMainContent, titleFields, type HeadlinePlacement } from '../content/extract.ts';
import type { LabelTable } from '../html/labels.ts';
import { NodeKind, type Tree } from '../html/tree.ts';
import { parsePage, type Page } from '../site/page.ts';
import type { PageMarks } from '../template/result.ts';

/** The method name a single-page answer reports. */
export const SINGLE_PAGE = 'main-block';

/** Template marks from content marks: nodes that are not content and hold no content. */
export function templateOutside(tree: Tree, content: Uint8Array): Uint8Array {
  const holds = new Uint8Array(tree.size);
  for (let i = tree.size - 1; i >= 0; i--) {
    if (content[i] === 1) holds[i] = 1;
    const p = tree.parent[i]!;
    if (p >= 0 && holds[i] === 1) holds[p] = 1;
  }
  const template = new Uint8Array(tree.size);
  const body = tree.body();
  for (let i = body + 1; i < tree.end[body]!; i++) {
    const k = tree.kind[i];
    if ((k === NodeKind.Element || k === NodeKind.Text || k === NodeKind.Blank) && holds[i] === 0) template[i] = 1;
  }
  return template;
}

/**
 * The single-page marks of a parsed page: its main content as content, the rest template; the headline
 * (`info.headline`; `info.title` is the document's `<title>`) in the content too with `headline: 'first'` (the default: the kept text of `gabarit
 * template` holds it), as its own field only with 'field' (`gabarit content`'s default).
 */
export function singleTreeMarks(tree: Tree, key: string, url: string, headline: HeadlinePlacement = 'first'): { marks: PageMarks; info: Record<string, unknown> } {
  const mc = extractMainContent(tree, { headline });
  const template = templateOutside(tree, mc.marks);
  return { marks: { key, url, tree, template, content: mc.marks }, info: { method: SINGLE_PAGE, listing: mc.listing, ...titleFields(tree, mc.headline) } };
}

/** The single-page marks of a page. */
export function singlePageMarks(page: Page, labels: LabelTable, headline: HeadlinePlacement = 'first'): { marks: PageMarks; info: Record<string, unknown> } {
  return singleTreeMarks(parsePage(page, labels), page.key, page.url, headline);
}
