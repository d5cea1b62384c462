/**
 * What `gabarit hits` and `gabarit cocited` share: open `<source>` from the source options, read every
 * page into pagelets with their template flags (src/analysis/site-pagelets.ts; global algorithm unless
 * `local`), and record the pages that failed in the output writer (and on stderr).
 */
import type { SitePagelets } from '../analysis/site-pagelets.ts';
import type { OutputWriter } from '../output.ts';
import type { PageSource } from '../site/page.ts';
import { openFromFlags, type Reporter, type SourceFlags } from './run.ts';

/** Loads the source's pagelets; the source is closed on return (its `urlOf` and `loaded` still answer). */
export async function loadPageletsFromFlags(
  spec: string,
  flags: SourceFlags & { local?: boolean },
  reporter: Reporter,
  writer: OutputWriter,
): Promise<{ site: SitePagelets; source: PageSource }> {
  const { loadSitePagelets } = await import('../analysis/site-pagelets.ts');
  const opened = await openFromFlags(spec, flags, reporter);
  let site: SitePagelets;
  try {
    site = await loadSitePagelets(opened.source, {
      global: !flags.local,
      onFailure: (url, message) => writer.fail({ url, key: url, code: 'page', message }),
    });
  } finally {
    reporter.stop();
    await opened.close();
  }
  for (const f of writer.failed) reporter.failure(f);
  return { site, source: opened.source };
}
