/**
 * The main content of one page with a template learned before (`pageContent`), for a crawler that learns a
 * site's template once and then sees its pages one at a time: the page marked with the template
 * (`applyTemplate`), the main block chosen among its non-template nodes as `extractContent` chooses it after
 * that method (content/engine.ts `blockOptionsFor`, 'auto'), the headline as a field, and the page's
 * metadata. Without a template (a site not learned yet), the single-page answer: its main block alone. The
 * site vote of `extractContent` needs the site's first pages together and is not taken: each page's own
 * main block stands.
 */
import { blockOptionsFor, chooseWithSite } from '../content/engine.ts';
import { placeHeadline, titleFields } from '../content/extract.ts';
import { pageMetadata, type PageMetadata } from '../content/metadata.ts';
import { parseHtml } from '../html/parse.ts';
import type { Template, TemplateSet } from '../template/learned.ts';
import { keptText, type PageMarks } from '../template/result.ts';
import { noContentOf } from './no-content.ts';
import { applyTemplate } from './learn.ts';
import { SINGLE_PAGE, singleTreeMarks } from './single.ts';

/** One page's main content, as `gabarit content` gives it (jsonl record fields). */
export interface PageContent {
  url: string;
  /** The main content's text (`<page>.txt`). */
  text: string;
  /** The document's `<title>`. */
  title: string;
  /** The main content's headline, when one was found. */
  headline?: string;
  metadata: PageMetadata;
  /** The template engine whose template marked the page, or `main-block` for the page alone. */
  method: string;
  /** Why the page kept no content (empty, or nearly all template), when so. */
  noContent?: string;
  /** The page's marks (template, content) over its parsed tree. */
  marks: PageMarks;
  /** Warnings about the page (metadata that could not be read, a fallback to the main block). */
  warnings: string[];
}

/** The main content of a page (HTML text) of `url`, with `template` or, when undefined, alone. */
export function pageContent(template: Template | TemplateSet | undefined, html: string, url: string): PageContent {
  const key = new URL(url).pathname.replace(/^\//, '') || 'index.html';
  const warnings: string[] = [];
  let marks: PageMarks;
  let info: Record<string, unknown>;
  let method = SINGLE_PAGE;
  if (template === undefined) {
    ({ marks, info } = singleTreeMarks(parseHtml(html), key, url, 'field'));
  } else {
    const a = applyTemplate(template, html, { key, url });
    method = typeof a.info['method'] === 'string' ? a.info['method'] : 'sites' in template ? (template.sites[0]?.method ?? SINGLE_PAGE) : template.method;
    const block = blockOptionsFor('auto', method) ?? {};
    const { block: mb } = chooseWithSite(a.tree, a.template, null, block);
    const placed = placeHeadline(a.tree, mb, 'field');
    marks = { key, url, tree: a.tree, template: a.template, content: placed.marks };
    info = titleFields(a.tree, placed.headline);
    if (noContentOf(marks) !== undefined) {
      // As extractContent does: a page the template leaves without content gets its main block alone.
      const alone = singleTreeMarks(a.tree, key, url, 'field');
      if (noContentOf(alone.marks) === undefined) {
        ({ marks, info } = alone);
        method = SINGLE_PAGE;
        warnings.push(`${url}: the site's template left no content on this page; its main block alone is given`);
      }
    }
  }
  const headline = typeof info['headline'] === 'string' ? info['headline'] : undefined;
  let metadata: PageMetadata = {};
  try {
    const found = pageMetadata(marks.tree, { url, ...(headline !== undefined ? { headline } : {}) });
    metadata = found.metadata;
    for (const w of found.warnings) warnings.push(`${url}: ${w}`);
  } catch (err) {
    warnings.push(`${url}: its metadata could not be read (${err instanceof Error ? err.message : String(err)}): left out`);
  }
  const nc = noContentOf(marks)?.message;
  return {
    url,
    text: keptText(marks),
    title: typeof info['title'] === 'string' ? info['title'] : '',
    ...(headline !== undefined ? { headline } : {}),
    metadata,
    method,
    ...(nc !== undefined ? { noContent: nc } : {}),
    marks,
    warnings,
  };
}
