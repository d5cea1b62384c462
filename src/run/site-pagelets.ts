/**
 * What `hits` and `cocited` share: the source opened (when given as a path or URL), every page read into
 * pagelets with their template flags (src/analysis/site-pagelets.ts; the global algorithm unless `local`),
 * the pages that failed, and the summary fields every command has.
 */
import type { SitePagelets } from '../analysis/site-pagelets.ts';
import type { PageFailure } from '../output.ts';
import type { PageSource } from '../site/page.ts';
import { cutFields, networkLoads, openInput } from './source.ts';
import type { CommandSummary, RunControls, SourceInput } from './types.ts';

/** Options of the pipelines over a site's pagelets. */
export interface PageletRunOptions extends Pick<RunControls, 'sourceOptions'> {
  /** Find templates with the local algorithm (paper 3, Figure 4) instead of the global one (Figure 5). */
  local?: boolean;
  /** The source's name in the summary (default: the path or URL given, or the source's root). */
  name?: string;
}

/** What a run over a site's pagelets says of its pages (summary.json fields, in their order). */
export type PageletCounts = Omit<CommandSummary, 'command' | 'source'>;

/**
 * Reads the pagelets of `input` and runs `work` on them (the source still open); gives what `work` gave,
 * the pagelets, the pages that failed, the source's name and the counts of the summary.
 */
export async function withSitePagelets<T>(input: SourceInput, options: PageletRunOptions, work: (site: SitePagelets, source: PageSource) => T): Promise<{ value: T; site: SitePagelets; failures: PageFailure[]; name: string; counts: PageletCounts }> {
  const start = performance.now();
  const { loadSitePagelets } = await import('../analysis/site-pagelets.ts');
  const failures: PageFailure[] = [];
  const opened = await openInput(input, options.sourceOptions ? { sourceOptions: options.sourceOptions } : {});
  let site: SitePagelets;
  let value: T;
  try {
    site = await loadSitePagelets(opened.source, { global: !options.local, onFailure: (url, message) => failures.push({ url, key: url, code: 'page', message }) });
    value = work(site, opened.source);
  } finally {
    await opened.close();
  }
  const counts: PageletCounts = {
    pagesLoaded: networkLoads(opened.source),
    ...cutFields(opened.source.cut),
    timings: { total: Math.round(performance.now() - start) },
    pagesDone: site.pages.length,
    pagesFailed: failures.length,
    failures,
  };
  return { value, site, failures, name: options.name ?? opened.spec, counts };
}

/** The name of the template algorithm a run over pagelets used (summary.json `method`). */
export function pageletMethod(options: { local?: boolean }): 'pagelets-global' | 'pagelets-local' {
  return options.local ? 'pagelets-local' : 'pagelets-global';
}
