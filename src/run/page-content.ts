/**
 * The main content of one page with a template learned before (`pageContent`), for a crawler that learns a
 * site's template once and then sees its pages one at a time: the page marked with the template
 * (`applyTemplate`), the main block chosen among its non-template nodes as `extractContent` chooses it after
 * that method (content/engine.ts `blockOptionsFor`, 'auto'), the headline as a field, and the page's
 * metadata. Without a template (a site not learned yet), the single-page answer: its main block alone. The
 * site vote of `extractContent` needs the site's first pages together and is not taken: each page's own
 * main block stands.
 */
import { blockOptionsFor, chooseWithSite, type ContentStep, contentStep } from '../content/engine.ts';
import { type HeadlinePlacement, placeHeadline, titleFields } from '../content/extract.ts';
import { type ContentFormat, contentHeadline, formatContent } from '../content/format.ts';
import { pageMetadata, type PageMetadata } from '../content/metadata.ts';
import { parseHtml } from '../html/parse.ts';
import type { Template, TemplateSet } from '../template/learned.ts';
import { keptText, type PageMarks, type RenderedPage } from '../template/result.ts';
import { doneOutcome, noContentOf } from './no-content.ts';
import { type AppliedPage, applyTemplate } from './learn.ts';
import { renderedOf } from './pooled.ts';
import { SINGLE_PAGE, singleTreeMarks } from './single.ts';
import type { PageDone } from './types.ts';

/** The warning of a page the site's template left without content, given its main block alone. */
export const MAIN_BLOCK_ALONE = "the site's template left no content on this page; its main block alone is given";

/** The single-page answer of a page the site's template left without content, when it has content. */
export function mainBlockAlone(p: PageDone, headline: HeadlinePlacement): PageDone | undefined {
  const { marks, info } = singleTreeMarks(p.marks.tree, p.key, p.url, headline);
  const o = doneOutcome(marks, { ...p.info, ...info, fallback: 'no content left by the template' });
  return o.ok && !o.noContent ? o : undefined;
}

/**
 * A page done with its metadata in `info.metadata` (src/content/metadata.ts), and the warnings of its
 * reading: a JSON-LD block that is not JSON, or metadata that could not be read at all (then absent).
 */
export function withPageMetadata(o: PageDone): { page: PageDone; warnings: string[] } {
  const headline = contentHeadline(o.info);
  let found: ReturnType<typeof pageMetadata>;
  try {
    found = pageMetadata(o.marks.tree, { url: o.url, ...(headline !== '' ? { headline } : {}) });
  } catch (err) {
    // The page's content stands without its metadata, which is then absent (and said so).
    return { page: o, warnings: [`${o.url}: its metadata could not be read (${err instanceof Error ? err.message : String(err)}): left out`] };
  }
  return { page: { ...o, info: { ...o.info, metadata: found.metadata } }, warnings: found.warnings.map((w) => `${o.url}: ${w}`) };
}

/** The content step as a worker does it for `gabarit content`: and the main content formatted so (`--format`). */
export interface ContentTask extends ContentStep {
  format?: ContentFormat;
}

/**
 * A page marked with the site's template, finished in a worker as `extractContent` finishes it on the
 * main thread: the content step, the main block alone when the template left no content, the metadata;
 * then its output files rendered (and its main content in `task.format`), with the warnings to tell.
 */
export function contentRendered(a: AppliedPage, task: ContentTask): { rendered: RenderedPage; info: Record<string, unknown>; warnings: string[]; listing: boolean; moved: boolean } {
  const { info: applied, ...marks } = a;
  const s = contentStep(marks, applied, task);
  let o = doneOutcome(s.marks, s.info);
  const warnings: string[] = [];
  const better = o.noContent ? mainBlockAlone(o, task.headline) : undefined;
  if (better) {
    warnings.push(`${o.url}: ${MAIN_BLOCK_ALONE}`);
    o = better;
  }
  const m = withPageMetadata(o);
  warnings.push(...m.warnings);
  o = m.page;
  const rendered: RenderedPage = renderedOf(o.marks, o.noContent ?? null);
  if (task.format !== undefined && task.format !== 'text') rendered.formatted = formatContent(o.marks, task.format, { ...o.info });
  return { rendered, info: o.info, warnings, listing: s.listing, moved: s.moved };
}

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
        warnings.push(`${url}: ${MAIN_BLOCK_ALONE}`);
      }
    }
  }
  const headline = typeof info['headline'] === 'string' ? info['headline'] : undefined;
  const read = withPageMetadata(doneOutcome(marks, info));
  warnings.push(...read.warnings);
  const metadata = (read.page.info['metadata'] as PageMetadata | undefined) ?? {};
  const nc = read.page.noContent?.message;
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
