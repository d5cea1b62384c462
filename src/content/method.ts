/**
 * Which template engine removes the template of a source before the main block is chosen:
 *  - `hyperlink` (paper 2) where a link graph exists: the source is a crawl (http), or its entry page links
 *    to at least `graphMinLinks` pages that the source holds;
 *  - `align` (paper 1) otherwise: a group of pages without links between them (e.g. pages saved from one
 *    site), however many: it learns from a sample and marks every page in the worker threads.
 * `pagelets` (paper 3) is taken when asked (`--method pagelets`): its second pass and its content step run
 * over every page, and its figures in site mode are not those of the evaluation, which runs the choice
 * made here. Only engines registered in src/template/engines.ts are chosen; `--method` overrides the choice.
 */
import { LabelTable } from '../html/labels.ts';
import { extractLinks } from '../site/links.ts';
import { parsePage, type PageSource } from '../site/page.ts';
import { ENGINES } from '../template/engines.ts';
import { CONTENT_DEFAULTS } from './defaults.ts';

/** Why a method was chosen (for summary.json and the report). */
export interface MethodChoice {
  method: string;
  reason: string;
}

/** Number of distinct pages of the source the entry page links to (0 when the entry cannot be had). */
export async function entryLinkCount(source: PageSource): Promise<number> {
  let page;
  try {
    page = await source.get(source.entry);
  } catch {
    return 0;
  }
  const tree = parsePage(page, new LabelTable());
  const keys = new Set<string>();
  for (const l of extractLinks(tree, page.url)) {
    const k = source.keyOf(l.url);
    if (k !== undefined && k !== page.key) keys.add(k);
  }
  // Keys that resolve must also exist (a directory source resolves any path under its root): checked in
  // the page's order until enough are found.
  let found = 0;
  for (const k of [...keys].slice(0, CONTENT_DEFAULTS.graphCheckLinks)) {
    try {
      await source.get(k);
      if (++found >= CONTENT_DEFAULTS.graphMinLinks) break;
    } catch {
      /* a dangling link */
    }
  }
  return found;
}

/** Chooses the template engine of a source (see the module comment). */
export async function chooseMethod(source: PageSource): Promise<MethodChoice> {
  const has = (m: string): boolean => Object.hasOwn(ENGINES, m);
  if (has('hyperlink')) {
    if (source.kind === 'http') return { method: 'hyperlink', reason: 'crawled site: link graph' };
    const links = await entryLinkCount(source);
    if (links >= CONTENT_DEFAULTS.graphMinLinks) return { method: 'hyperlink', reason: `entry page links to ${links}+ pages of the source: link graph` };
  }
  if (has('align')) return { method: 'align', reason: 'group of pages without a link graph: alignment' };
  const first = Object.keys(ENGINES)[0];
  if (first === undefined) throw new Error('no template engine registered');
  return { method: first, reason: 'the only engine registered' };
}
