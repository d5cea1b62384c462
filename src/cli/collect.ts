/**
 * `gabarit collect <sample> [--out DIR]`: the pages of the sample's class, found by INDESIT (paper 4,
 * src/collect/indesit.ts), crawling as little of the site as it can. `<sample>` is an http(s) URL (the
 * site is crawled politely through HttpSource, from the root `--root`, by default the URL's origin), a
 * page file of a directory of pages (`--root`, by default the highest ancestor directory holding an
 * index.html), or a directory: its index page is the sample, as a static host serves a directory. Writes
 * in `--out` (default out/collect):
 *  - `pages.json`: the collected pages (key, url, cluster, similarity of its schema to the sample's), the
 *    sample first;
 *  - `summary.json`: command, source, sample, pages collected and the pages read but left (the same why),
 *    downloads (ours and the source's; dead links apart), clusters met, the path of index pages followed and the index pages used, failures with
 *    reasons, timings, whether the run finished or hit `--max-downloads`;
 *  - with `--save-pages`, the HTML of each collected page under `pages/<key>`.
 * Exit 1 when the sample cannot be loaded; 2 for a sample outside its root, a directory without an index
 * page, a missing file, or bad options.
 */
import { interruptionField, noteSummary } from './interrupt.ts';
import { dirname, join, resolve } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { Option, InvalidArgumentError, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { addOutOption, addSourceOptions, createReporter, emit, globalOptions, NothingDone, openFromFlags, outDir, parsePositive, since, type SourceFlags } from './run.ts';
import { cutFields } from '../run/source.ts';

interface CollectFlags extends SourceFlags {
  out: string;
  root?: string;
  similarity: number;
  sameClusterLinks: number;
  maxDepth: number;
  maxDownloads: number;
  rings: number;
  layout: boolean;
  savePages: boolean;
}

function parseThreshold(raw: string): number {
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || x > 1) throw new InvalidArgumentError('expected a number in (0, 1].');
  return x;
}

function parseWhole(raw: string): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw)) throw new InvalidArgumentError('expected a whole number (0, 1, 2…).');
  return n;
}

/** The index page of a directory (index.html, index.htm, index.xhtml), or undefined. */
function indexPageOf(dir: string): string | undefined {
  for (const f of ['index.html', 'index.htm', 'index.xhtml']) if (existsSync(join(dir, f)) && statSync(join(dir, f)).isFile()) return join(dir, f);
  return undefined;
}

/** The default root of a page file: the highest ancestor directory (up to 12 levels) holding an index page. */
function defaultDirRoot(file: string): string {
  let dir = dirname(file);
  let best = dir;
  for (let k = 0; k < 12; k++) {
    if (indexPageOf(dir) !== undefined) best = dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return best;
}

export async function register(program: Command): Promise<void> {
  const { COLLECT_DEFAULTS: D } = await import('../collect/defaults.ts');
  const cmd = program
    .command('collect')
    .description('collect the pages structured like a sample page (INDESIT, paper 4): pages.json, summary.json')
    .argument('<sample>', 'the sample page: an http(s) URL, a page file in a directory of pages, or a directory (its index page)');
  cmd.addOption(new Option('--root <url-or-dir>', 'the site root (default: the URL origin, or the highest ancestor directory with an index page)'));
  cmd.addOption(new Option('--similarity <T>', 'threshold T of similar page schemas (the lower Jaccard coefficient of their links and of their layouts)').default(D.similarity).argParser(parseThreshold));
  cmd.addOption(new Option('--same-cluster-links <n>', 'links of one collection into one cluster before the rest is skipped').default(D.sameClusterLinks).argParser(parsePositive));
  cmd.addOption(new Option('--max-depth <n>', 'depth of the recursion that looks for index pages').default(D.maxDepth).argParser(parseWhole));
  cmd.addOption(new Option('--rings <n>', 'rings of neighbourhood widening (0: the paper)').default(D.rings).argParser(parseWhole));
  cmd.addOption(new Option('--max-downloads <n>', 'downloads at most').default(D.maxDownloads).argParser(parsePositive));
  cmd.addOption(new Option('--no-layout', "compare pages by their links' tag-lists only, as the paper (not their layouts too)"));
  cmd.addOption(new Option('--save-pages', 'also write the HTML of each collected page under <out>/pages/').default(false));
  addSourceOptions(cmd);
  addOutOption(cmd, 'collect');
  cmd.action(async (sample: string, opts: CollectFlags, self: Command) => {
    const g = globalOptions(self);
    const reporter = createReporter(g);
    const start = performance.now();
    const [{ indesit }, { OutputWriter }, { isHttpUrl }, { PageNames }] = await Promise.all([
      import('../collect/indesit.ts'),
      import('../output.ts'),
      import('../site/keys.ts'),
      import('../output.ts'),
    ]);
    let root: string;
    let sampleRef: string;
    if (isHttpUrl(sample)) {
      root = opts.root ?? new URL(sample).origin + '/';
      sampleRef = sample;
    } else {
      let file = resolve(sample);
      if (!existsSync(file)) throw new UsageError(`no such page file or directory: ${sample}`);
      if (statSync(file).isDirectory()) {
        // A directory stands for its index page, as a static host serves it.
        const index = indexPageOf(file);
        if (index === undefined) throw new UsageError(`${sample} is a directory without an index page (index.html, index.htm, index.xhtml): give one of its pages as the sample`);
        file = index;
      } else if (!statSync(file).isFile()) {
        throw new UsageError(`not a page file: ${sample}`);
      }
      root = resolve(opts.root ?? defaultDirRoot(file));
      if (!file.startsWith(root + '/')) throw new UsageError(`${sample} is not inside the root ${root}`);
      sampleRef = file.slice(root.length + 1).split('\\').join('/');
    }
    const opened = await openFromFlags(root, opts, reporter);
    const dir = outDir(opts.out);
    const writer = new OutputWriter(dir);
    const bodies = new Map<string, Uint8Array>();
    let result;
    try {
      result = await indesit(opened.source, sampleRef, {
        similarity: opts.similarity,
        sameClusterLinks: opts.sameClusterLinks,
        maxDepth: opts.maxDepth,
        maxDownloads: opts.maxDownloads,
        rings: opts.rings,
        layout: opts.layout,
        onDownload: (n) => reporter.progress.update('download', n),
        ...(opts.savePages ? { onPage: (page, key) => bodies.set(key, page.body) } : {}),
      });
    } catch (e) {
      if (e instanceof Error && e.name === 'PageError') throw new NothingDone(e.message);
      throw e;
    } finally {
      reporter.stop();
      await opened.close();
    }
    for (const f of result.failures) reporter.failure(f);
    for (const d of result.doubts) reporter.warn(`${result.sample.key}: ${d}`);
    if (opts.savePages) {
      const { mkdir, writeFile } = await import('node:fs/promises');
      const names = new PageNames();
      for (const p of result.pages) {
        const body = bodies.get(p.key);
        if (body === undefined) continue;
        const path = join(dir, 'pages', names.stemOf(p.key) + '.html');
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, body);
      }
    }
    await writer.writeJson('pages.json', result.pages);
    const summary = {
      command: 'collect',
      method: 'indesit',
      source: root,
      sample: result.sample,
      pagesLoaded: result.sourceLoaded,
      ...cutFields(opened.source.cut),
      downloads: result.downloads,
      deadLinks: result.deadLinks,
      complete: result.complete,
      timings: { total: since(start) },
      pagesDone: result.pages.length,
      pagesFailed: result.failures.length,
      pages: result.pages,
      pagesLeft: result.left,
      failures: result.failures,
      clustersMet: result.clusters.length,
      clusters: result.clusters,
      indexPath: result.indexPath,
      indexPages: result.indexPages,
      sampleSchema: result.sampleSchema,
      sampleLayout: result.sampleLayout,
      doubts: result.doubts,
      options: { similarity: opts.similarity, shapeSimilarity: result.shapeThreshold, sameClusterLinks: opts.sameClusterLinks, maxDepth: opts.maxDepth, rings: opts.rings, maxDownloads: opts.maxDownloads, layout: opts.layout },
    };
    await writer.writeJson('summary.json', { ...summary, ...interruptionField() });
    noteSummary(join(writer.dir, 'summary.json'), summary.pagesDone);
    const lines = [
      `pages collected: ${result.pages.length} (like ${result.sample.key})`,
      `downloads: ${result.downloads}${result.deadLinks > 0 ? ` (${result.deadLinks} dead links)` : ''}${result.complete ? '' : ' (stopped at --max-downloads)'}`,
      `clusters met: ${result.clusters.length}`,
      `index steps: ${result.indexPath.map((s) => `${s.example} (score ${s.score}, +${s.newTargets})`).join(' → ') || 'none'}`,
      `pages failed: ${result.failures.length}`,
      `output: ${dir}`,
    ];
    emit(g, summary, lines);
  });
}
