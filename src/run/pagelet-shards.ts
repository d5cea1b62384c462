/**
 * The three phases of a sharded pagelets run over a crawl (src/template/pagelets/shards.ts, global-shards.ts),
 * each runnable on its own machine against a shared work directory; the run layer's, since the third writes
 * the output contract:
 *  1. `analyseCrawl`: pass 1 of each shard → Parquet rows (skips shards already done);
 *  2. `runGlobalShards` (global-shards.ts): Figure 5 over all shards, on DuckDB or Spark;
 *  3. `markCrawl`: each shard's pages marked and the output contract written (skips shards done).
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PageError } from '../errors.ts';
import { LabelTable } from '../html/labels.ts';
import { OutputWriter, type PageFailure } from '../output.ts';
import { fileSink, recordOf } from './write.ts';
import { openSource } from '../site/source.ts';
import type { PageSource } from '../site/page.ts';
import { KeptWorkers, type MarkInput, markPagelets, type PageletRunOptions } from '../template/pagelets/engine.ts';
import type { RecordKind } from '../template/pagelets/render.ts';
import { readGlobalResult } from '../template/pagelets/global-shards.ts';
import { analyseShard, manifestChecksum, type Shard, type ShardManifest, markedAlready, readManifest, recordMarked, replaceDir, shardFailures, shardMarkInput, sourceChecksum, stagingDir } from '../template/pagelets/shards.ts';

/** What the phases report while they run. */
export interface CrawlHooks {
  onFailure(f: PageFailure): void;
  onProgress?(phase: string, done: number, total?: number): void;
  /** A line about one shard (done, skipped). */
  onShard?(message: string): void;
  /**
   * A shard left out, the others going on: its source cannot be read (analyse), or it is not analysed
   * (mark). Its failure names the source (`url`, a file: URL) and says why.
   */
  onShardFailed?(shard: Shard, failure: PageFailure): void;
}

/** The failure of a shard that cannot be done (`onShardFailed`), from the error that stopped it. */
function shardFailure(shard: Shard, err: unknown, code: string, why: string): PageFailure {
  if (err instanceof PageError) return { url: err.url, key: shard.name, code: err.code, message: err.message };
  const url = pathToFileURL(shard.spec).href;
  return { url, key: shard.name, code, message: `${url}: ${why}${err === undefined ? '' : ` (${err instanceof Error ? err.message : String(err)})`}` };
}

/** True when a source gives no page, nor any failure (its pages counted, not loaded). */
async function holdsNoPage(source: PageSource): Promise<boolean> {
  let left = 0;
  for await (const _ of source.pages({ maxPages: 0, onCut: (c) => (left = c.left) })) return false;
  return left === 0;
}

/** Per shard of `analyseCrawl`. */
export interface AnalysedShard {
  shard: Shard;
  skipped: boolean;
  manifest: ShardManifest;
}

/**
 * Pass 1 of the given shards into `work` (a shard already done for the same source and options is
 * skipped); with `records`, what writing each page's output needs too, so that `markCrawl` parses no page
 * again (`'text'`: what its jsonl format needs only).
 */
export async function analyseCrawl(work: string, shards: readonly Shard[], o: PageletRunOptions, hooks: CrawlHooks, records: boolean | RecordKind = true): Promise<AnalysedShard[]> {
  const out: AnalysedShard[] = [];
  // one set of worker threads for all the shards (a fresh one warms up again: engine.ts KeptWorkers); the
  // process's own when it serves tasks one after another (keepWorkersAcrossRuns)
  const keep = acrossRuns ?? new KeptWorkers();
  try {
    for (const shard of shards) {
      // a source that cannot be read (a damaged or empty archive, a missing folder) is named and left out:
      // the crawl's other shards go on
      let source: PageSource;
      try {
        source = await openSource(shard.spec);
      } catch (err) {
        const f = shardFailure(shard, err, 'read-error', 'cannot read this source');
        hooks.onShardFailed?.(shard, f);
        hooks.onShard?.(`shard ${shard.index} ${shard.name}: not analysed, its source cannot be read; the other shards go on`);
        continue;
      }
      // a source without a page (an empty folder; an empty archive is refused when opened) is named too,
      // not analysed as a shard of 0 pages
      if (await holdsNoPage(source)) {
        await source.close();
        hooks.onShardFailed?.(shard, shardFailure(shard, undefined, 'empty', 'no page in this source (no HTML file in the folder)'));
        hooks.onShard?.(`shard ${shard.index} ${shard.name}: not analysed, its source holds no page; the other shards go on`);
        continue;
      }
      try {
        const r = await analyseShard(work, shard, { source, labels: new LabelTable(), options: { ...o }, onFailure: hooks.onFailure, ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}) }, o, undefined, records, keep);
        hooks.onShard?.(`shard ${shard.index} ${shard.name}: ${r.skipped ? 'already analysed, skipped' : `${r.manifest.pages} pages analysed`}`);
        out.push({ shard, ...r });
      } finally {
        await source.close();
      }
    }
  } finally {
    if (keep !== acrossRuns) await keep.close();
  }
  return out;
}

/** Per shard of `markCrawl`. */
export interface MarkedShard {
  shard: Shard;
  skipped: boolean;
  out: string;
  pages: number;
  failures: number;
}

/** What `markCrawl` writes per shard: the page files (`text`), or one JSON line a page in pages.jsonl (`jsonl`). */
export type ShardFormat = 'text' | 'jsonl';

/**
 * The output phase of the given shards: each shard's pages marked with the global step's template
 * pagelets, the output contract written in `outDirOf(shard)` (in `format`: write.ts's two forms). A
 * shard's folder is written beside it under a temporary name and put in its place when complete (a killed
 * run leaves the previous folder, or none); it replaces a previous output folder (one with summary.json)
 * and refuses any other folder that is not empty.
 */
export async function markCrawl(work: string, shards: readonly Shard[], outDirOf: (s: Shard) => string, o: PageletRunOptions, hooks: CrawlHooks, format: ShardFormat = 'text'): Promise<MarkedShard[]> {
  const global = await readGlobalResult(work);
  const done: MarkedShard[] = [];
  // the shards whose pages are parsed again (no records) share one set of worker threads
  const keep = acrossRuns ?? new KeptWorkers();
  try {
    for (const shard of shards) {
      const out = outDirOf(shard);
      const manifest = await readManifest(work, shard);
      if (!manifest) {
        // (its analysis failed, or was not run): named, and the other shards go on
        hooks.onShardFailed?.(shard, shardFailure(shard, undefined, 'not-analysed', `shard ${shard.index} ${shard.name} is not analysed in ${work}: nothing to write`));
        continue;
      }
      if (!global.result.shards.some((s) => s.index === shard.index && s.checksum === manifestChecksum(manifest))) throw new Error(`shard ${shard.index} (${shard.spec}) was analysed after the global step: run the global phase again`);
      if ((await sourceChecksum(shard.spec)) !== manifest.sourceChecksum) throw new Error(`${shard.spec} changed since it was analysed: analyse it again, then the global phase`);
      if (await markedAlready(work, shard, out, global.checksum, format)) {
        hooks.onShard?.(`shard ${shard.index} ${shard.name}: output already written, skipped`);
        done.push({ shard, skipped: true, out, pages: manifest.pages, failures: 0 });
        continue;
      }
      if (existsSync(out) && !existsSync(join(out, 'summary.json')) && (await readdir(out)).length > 0) throw new Error(`${out} is not empty and holds no gabarit output (no summary.json): give a new or empty output folder`);
      const staged = await stagingDir(out);
      const writer = new OutputWriter(staged);
      // jsonl: the lines as they come; the summary without the per-page list (memory does not grow with the shard)
      const lines = format === 'jsonl' ? await fileSink(join(staged, 'pages.jsonl')) : undefined;
      let linesOpen = lines !== undefined;
      let written = 0;
      const line = async (o: Parameters<typeof recordOf>[0]): Promise<void> => {
        await lines!.write(recordOf(o));
        written++;
      };
      // opened only when the pages are read again: a shard's records are written without it
      let source: PageSource | undefined;
      const t0 = performance.now();
      let input: MarkInput | undefined;
      let fromRecords = false;
      try {
        // the shard's pages that failed in pass 1 (named then) are the summary's too: every page is accounted for
        for (const f of await shardFailures(work, shard)) writer.fail(f);
        input = await shardMarkInput(work, manifest, o, lines ? 'text' : 'page');
        fromRecords = input.spool !== undefined;
        if (!fromRecords) source = await openSource(shard.spec);
        const run = await markPagelets(input, {
          ...(source ? { source } : {}),
          labels: new LabelTable(),
          options: { ...input.options },
          onPage: async (marks, extra) => {
            if (lines) await line({ ok: true, key: marks.key, url: marks.url, marks, info: {} });
            else await writer.writePage(marks, extra);
          },
          // with the shard's render records, pages come rendered: none is read or parsed again
          onRendered: async (rendered, extra) => {
            if (lines) await line({ ok: true, key: rendered.key, url: rendered.url, rendered, info: {} });
            else await writer.writeRendered(rendered, extra);
          },
          onFailure: (f) => {
            writer.fail(f);
            hooks.onFailure(f);
          },
          ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        }, keep);
        const base = {
          command: 'shards mark',
          method: 'pagelets',
          source: shard.spec,
          pagesLoaded: 0,
          timings: { marks: Math.round(performance.now() - t0) },
          engine: { pagelets: { algorithm: 'global', backend: global.result.backend, ...global.result.counts, pagesMarked: run.marked, shard: shard.index } },
        };
        const template = { method: 'pagelets', algorithm: 'global', backend: global.result.backend, counts: global.result.counts, templates: join(work, 'global', 'templates') };
        if (lines) {
          for (const f of writer.failed) await lines.write({ url: f.url, key: f.key ?? f.url, failure: { code: String(f.code), message: f.message } });
          linesOpen = false;
          await lines.close();
          await writer.writeJson('template.json', template);
          await writer.writeJson('summary.json', { ...base, format: 'jsonl', pagesDone: written, pagesFailed: writer.failed.length, failures: writer.failed });
        } else await writer.finish(base, template);
        await replaceDir(staged, out);
      } finally {
        if (linesOpen) await lines!.close().catch(() => undefined);
        input?.spool?.close();
        await source?.close();
        await rm(staged, { recursive: true, force: true });
      }
      const pages = lines ? written : writer.done.length;
      await recordMarked(work, { index: shard.index, name: shard.name, out, global: global.checksum, pages, failures: writer.failed.length, ...(lines ? { format: 'jsonl' as const } : {}) });
      hooks.onShard?.(`shard ${shard.index} ${shard.name}: ${pages} pages written to ${out}${lines ? ' as JSON lines' : ''} (${fromRecords ? "from pass 1's records" : 'pages read and parsed again'})`);
      done.push({ shard, skipped: false, out, pages, failures: writer.failed.length });
    }
  } finally {
    if (keep !== acrossRuns) await keep.close();
  }
  return done;
}

/** The worker threads kept from one run of `analyseCrawl` or `markCrawl` to the next, when set. */
let acrossRuns: KeptWorkers | undefined;

/**
 * Keeps the worker threads of `analyseCrawl` and `markCrawl` from one call to the next in this process
 * (a process that runs shards one after another: `gabarit shards serve`), so that a shard does not pay a
 * fresh pool's warm-up; gives them, to close at the end.
 */
export function keepWorkersAcrossRuns(): KeptWorkers {
  acrossRuns ??= new KeptWorkers();
  return acrossRuns;
}
