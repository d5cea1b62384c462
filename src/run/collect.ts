/**
 * `collect(source, sample, options)`: the pages of a site like a sample page (INDESIT, paper 4;
 * src/collect/indesit.ts), as a library call: what `gabarit collect` runs. The result is the collector's,
 * plus `summary` (summary.json: counts, failures with reasons, options, timings); `writeCollect` writes
 * `pages.json`, `summary.json` and the pages kept (`keepPages`). `collectSample` finds the root and the
 * sample's key from a sample given as a URL, a page file or a directory, as the command does;
 * `collectCommand` is the command's run from its flags. The
 * collector crawls with the HTTP stack, so it is loaded when called: importing the root API loads neither
 * it nor undici.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { IndesitOptions, IndesitResult } from '../collect/indesit.ts';
import { UsageError } from '../errors.ts';
import type { SourceOptions } from '../site/source.ts';
import { filled } from '../filled.ts';
import { type CommandHooks, interruptionOf, overSource } from './command.ts';
import { cutFields, openInput } from './source.ts';
import { COLLECT_OPTIONS, type CollectFlags, type OutFlags, type SourceFlags } from './options.ts';
import type { CommandSummary, SourceInput } from './types.ts';

export type { IndesitOptions, IndesitResult };

/**
 * Options of `collect`: the collector's, the command's (COLLECT_OPTIONS; `savePages` keeps the body of each
 * collected page in `result.bodies`, written under `pages/` by `writeCollect`; the root is the source's, see
 * `collectSample`), the source's when it is a path or URL.
 */
export interface CollectOptions extends IndesitOptions, Partial<Omit<CollectFlags, 'root'>> {
  /** The source's name in the summary (default: the path or URL given, or the source's root). */
  name?: string;
  /** Options of the source when it is a path or URL. */
  sourceOptions?: SourceOptions;
}

/** What `collect` gives: the collector's result, the bodies kept, and summary.json. */
export interface CollectResult extends IndesitResult {
  /** The body of each collected page, by key, with `keepPages`. */
  bodies?: Map<string, Uint8Array>;
  summary: CollectSummary;
}

/** summary.json of `gabarit collect`. */
export interface CollectSummary extends CommandSummary {
  command: 'collect';
  method: 'indesit';
  sample: IndesitResult['sample'];
  downloads: number;
  deadLinks: number;
  /** Links not tried because they looked dead (IndesitResult.deadSkipped). */
  deadSkipped: IndesitResult['deadSkipped'];
  complete: boolean;
  pages: IndesitResult['pages'];
  pagesLeft: IndesitResult['left'];
  failures: IndesitResult['failures'];
  clustersMet: number;
  clusters: IndesitResult['clusters'];
  indexPath: IndesitResult['indexPath'];
  indexPages: string[];
  sampleSchema: string[];
  sampleLayout: string[];
  /** What makes the result doubtful (also on stderr), empty when nothing does. */
  doubts: string[];
  options: { similarity: number; shapeSimilarity: number; sameClusterLinks: number; maxDepth: number; rings: number; maxDownloads: number; layout: boolean; sections: boolean };
}

/**
 * The pages of `source` like the page `sample` (a key or a URL of the source); see src/collect/indesit.ts.
 * A sample that cannot be loaded throws the collector's PageError.
 */
export async function collect(source: SourceInput, sample: string, options: CollectOptions = {}): Promise<CollectResult> {
  const start = performance.now();
  const [{ indesit }, { COLLECT_DEFAULTS: D }] = await Promise.all([import('../collect/indesit.ts'), import('../structure/defaults.ts')]);
  const { name, savePages, sourceOptions, ...given } = options;
  const o = filled(given, D, ['similarity', 'sameClusterLinks', 'maxDepth', 'rings', 'maxDownloads', 'layout', 'sections']);
  const bodies = savePages ? new Map<string, Uint8Array>() : undefined;
  const onPage = given.onPage;
  const opened = await openInput(source, sourceOptions ? { sourceOptions } : {});
  let result: IndesitResult;
  try {
    result = await indesit(opened.source, sample, {
      ...given,
      ...o,
      ...(bodies || onPage
        ? {
            onPage: (page, key) => {
              bodies?.set(key, page.body);
              onPage?.(page, key);
            },
          }
        : {}),
    });
  } finally {
    await opened.close();
  }
  const summary: CollectSummary = {
    command: 'collect',
    method: 'indesit',
    source: name ?? opened.spec,
    sample: result.sample,
    pagesLoaded: result.sourceLoaded,
    ...cutFields(opened.source.cut),
    downloads: result.downloads,
    deadLinks: result.deadLinks,
    deadSkipped: result.deadSkipped,
    complete: result.complete,
    timings: { total: Math.round(performance.now() - start) },
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
    options: { ...o, shapeSimilarity: result.shapeThreshold },
  };
  return { ...result, ...(bodies ? { bodies } : {}), summary };
}

/**
 * Writes a collection in `dir`: `pages.json`, `summary.json` (with `extra` fields), and with kept bodies
 * the HTML of each collected page under `pages/`. Returns the path of `dir`.
 */
export async function writeCollect(result: CollectResult, dir: string, extra: Record<string, unknown> = {}): Promise<string> {
  const [{ mkdir, writeFile }, { OutputWriter, PageNames }] = await Promise.all([import('node:fs/promises'), import('../output.ts')]);
  const writer = new OutputWriter(dir);
  if (result.bodies) {
    const names = new PageNames();
    for (const p of result.pages) {
      const body = result.bodies.get(p.key);
      if (body === undefined) continue;
      const path = join(dir, 'pages', names.stemOf(p.key) + '.html');
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
    }
  }
  await writer.writeJson('pages.json', result.pages);
  await writer.writeJson('summary.json', { ...result.summary, ...extra });
  return writer.dir;
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

/**
 * The source and the sample's key (or URL) of a sample given as an http(s) URL (root: `root`, else the
 * URL's origin), a page file (root: `root`, else the highest ancestor directory holding an index page) or
 * a directory (its index page, as a static host serves it). Throws UsageError for a missing file, a
 * directory without an index page, or a sample outside its root.
 */
export async function collectSample(sample: string, root?: string): Promise<{ root: string; sample: string }> {
  const { isHttpUrl } = await import('../site/keys.ts');
  if (isHttpUrl(sample)) return { root: root ?? new URL(sample).origin + '/', sample };
  let file = resolve(sample);
  if (!existsSync(file)) throw new UsageError(`no such page file or directory: ${sample}`);
  if (statSync(file).isDirectory()) {
    const index = indexPageOf(file);
    if (index === undefined) throw new UsageError(`${sample} is a directory without an index page (index.html, index.htm, index.xhtml): give one of its pages as the sample`);
    file = index;
  } else if (!statSync(file).isFile()) {
    throw new UsageError(`not a page file: ${sample}`);
  }
  const dir = resolve(root ?? defaultDirRoot(file));
  if (!file.startsWith(dir + '/')) throw new UsageError(`${sample} is not inside the root ${dir}`);
  return { root: dir, sample: file.slice(dir.length + 1).split('\\').join('/') };
}

/**
 * `gabarit collect` without printing: finds the root and the sample (`collectSample`), opens the root with
 * the source options, collects and writes the files in `flags.out` (`writeCollect`); downloads go to the
 * hooks' progress, failed pages and doubts to the hooks. A sample that cannot be loaded is a PageError.
 */
export async function collectCommand(sample: string, flags: CollectFlags & SourceFlags & OutFlags, hooks: CommandHooks = {}): Promise<CollectResult & { dir: string }> {
  const { root: given, ...own } = COLLECT_OPTIONS.pick(flags);
  const { root, sample: sampleRef } = await collectSample(sample, given);
  const result = await overSource(root, flags, hooks, (source) => collect(source, sampleRef, { name: root, ...own, onDownload: (n) => hooks.progress?.('download', n) }));
  for (const f of result.failures) hooks.failure?.(f);
  for (const d of result.doubts) hooks.warn?.(`${result.sample.key}: ${d}`);
  const dir = await writeCollect(result, resolve(flags.out), interruptionOf(hooks));
  hooks.onSummary?.(join(dir, 'summary.json'), result.summary.pagesDone);
  return { ...result, dir };
}
