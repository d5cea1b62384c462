/**
 * `gabarit cocited <source> --url <page> [--top N] [--page-weight W] [--keep-templates] [--local] [--out DIR]`:
 * the pages most often co-cited with a page (paper 3, section 4, Case 3; Dean & Henzinger's co-citation
 * algorithm), counted within pagelets and with citations from template pagelets ignored
 * (src/analysis/cocitation.ts). `--page-weight` also counts co-citations elsewhere on the same page, with
 * that weight; `--keep-templates` counts template citations too (the classic algorithm, for comparison).
 * Templates are found with the global algorithm (Figure 5) unless `--local` (Figure 4).
 * `<page>` is a URL, or a key of the source (`api/index.html`). Prints the related pages; writes
 * `cocited.json` and `summary.json` in `--out` (default out/cocited). Exit 1 when no page could be read.
 */
import { join } from 'node:path';
import { interruptionField, noteSummary } from './interrupt.ts';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, outDir, parsePositive, type Reporter, since, type SourceFlags } from './run.ts';
import { cutFields, networkLoads } from '../run/source.ts';

/** The options of `gabarit cocited`. */
export interface CocitedFlags extends SourceFlags {
  out: string;
  url: string;
  top: number;
  pageWeight: number;
  keepTemplates?: boolean;
  local?: boolean;
}

function parseWeight(raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1.');
  return n;
}

export function register(program: Command): void {
  const cmd = program
    .command('cocited')
    .description('pages most often cited together with a page, within pagelets, template citations ignored (paper 3, section 4)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL (crawled from there)');
  cmd.addOption(new Option('--url <page>', 'the page whose co-cited pages are wanted: a URL or a key of the source').makeOptionMandatory());
  cmd.addOption(new Option('--top <n>', 'how many related pages to show').default(10).argParser(parsePositive));
  cmd.addOption(new Option('--page-weight <w>', 'weight of a co-citation in another pagelet of the same page (0: same pagelet only)').default(0).argParser(parseWeight));
  cmd.addOption(new Option('--keep-templates', 'count citations from template pagelets too (the classic algorithm, for comparison)'));
  cmd.addOption(new Option('--local', 'find templates with the local algorithm (Figure 4) instead of the global one'));
  addSourceOptions(cmd);
  addOutOption(cmd, 'cocited');
  cmd.action(async (spec: string, opts: CocitedFlags, self: Command) => {
    const g = globalOptions(self);
    const { summary, related, dir } = await runCocited(spec, opts, createReporter(g));
    const lines = [`pages: ${summary.pagesDone}, co-cited with ${summary.targetKey ?? summary.target}:`];
    for (const r of related) lines.push(`  ${r.score.toFixed(2).padStart(7)}  ${r.key ?? r.url}`);
    if (related.length === 0) lines.push('  (none)');
    lines.push(`output: ${dir}`);
    emit(g, { related, summary }, lines);
    if (summary.pagesDone === 0) throw new NothingDone(`no page could be read from ${spec}`);
  });
}

/** What `gabarit cocited` writes in summary.json. */
export interface CocitedSummary {
  command: 'cocited';
  method: 'pagelets-global' | 'pagelets-local';
  source: string;
  /** The page, as its links are resolved (a directory's pages sit under http://local.invalid/). */
  target: string;
  /** The page's key in the source, when it is in the source. */
  targetKey?: string;
  pagesLoaded: number;
  cappedAt?: number;
  pagesLeftByCap?: number;
  timings: Record<string, number>;
  pagesDone: number;
  pagesFailed: number;
  failures: ReadonlyArray<{ url: string; key: string; code: string; message: string }>;
  templateCitationsIgnored: boolean;
  pageWeight: number;
  /** Set when the run could not answer (the page is unknown to the source). */
  error?: { code: string; message: string };
}

/** A page co-cited with the target: its URL as links resolve, its key when it is in the source. */
export interface RelatedPage {
  url: string;
  key?: string;
  score: number;
}

/** The command without printing: loads the source's pagelets, counts co-citations, writes the files. */
export async function runCocited(spec: string, opts: CocitedFlags, reporter: Reporter): Promise<{ summary: CocitedSummary; related: RelatedPage[]; dir: string }> {
  const start = performance.now();
  const [{ OutputWriter }, { loadPageletsFromFlags }, { cocited, isKnownTarget }, { linkBaseUrl }, { keyOfLinkTarget }] = await Promise.all([
    import('../output.ts'),
    import('./site-pagelets.ts'),
    import('../analysis/cocitation.ts'),
    import('../template/pagelets/links.ts'),
    import('../analysis/site-pagelets.ts'),
  ]);
  const dir = outDir(opts.out);
  const writer = new OutputWriter(dir);
  const { site, source } = await loadPageletsFromFlags(spec, opts, reporter, writer);
  // a key of the source is resolved the way the source's own links are
  const target = /^[a-z][a-z0-9+.-]*:/i.test(opts.url) ? opts.url : linkBaseUrl({ url: source.urlOf(opts.url), key: opts.url });
  const known = site.pages.length === 0 || isKnownTarget(site, target);
  const related: RelatedPage[] = (known ? cocited(site, target, { ignoreTemplates: !opts.keepTemplates, pageWeight: opts.pageWeight, limit: opts.top }) : []).map((r) => {
    const key = keyOfLinkTarget(r.url, source);
    return key === undefined ? r : { url: r.url, key, score: r.score };
  });
  const targetKey = keyOfLinkTarget(target, source);
  const summary: CocitedSummary = {
    command: 'cocited',
    method: opts.local ? 'pagelets-local' : 'pagelets-global',
    source: spec,
    target,
    ...(targetKey !== undefined ? { targetKey } : {}),
    pagesLoaded: networkLoads(source),
    ...cutFields(source.cut),
    timings: { total: since(start) },
    pagesDone: site.pages.length,
    pagesFailed: writer.failed.length,
    failures: writer.failed,
    templateCitationsIgnored: !opts.keepTemplates,
    pageWeight: opts.pageWeight,
  };
  if (!known) {
    // Nothing of the source mentions the page: most likely a mistyped --url, not a page nobody co-cites.
    const message = `--url ${opts.url}: not a page of ${spec}, and no page of it links there`;
    summary.error = { code: 'unknown-page', message };
    await writer.writeJson('summary.json', summary);
    throw new UsageError(message);
  }
  await writer.writeJson('cocited.json', { target, related });
  await writer.writeJson('summary.json', { ...summary, ...interruptionField() });
  noteSummary(join(writer.dir, 'summary.json'), summary.pagesDone);
  return { summary, related, dir };
}
