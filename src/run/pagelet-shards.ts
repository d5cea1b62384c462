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
import { LabelTable } from '../html/labels.ts';
import { OutputWriter, type PageFailure } from '../output.ts';
import { openSource } from '../site/source.ts';
import { type MarkInput, markPagelets, type PageletRunOptions } from '../template/pagelets/engine.ts';
import { readGlobalResult } from '../template/pagelets/global-shards.ts';
import { analyseShard, manifestChecksum, type Shard, type ShardManifest, markedAlready, readManifest, recordMarked, replaceDir, shardMarkInput, sourceChecksum, stagingDir } from '../template/pagelets/shards.ts';

/** What the phases report while they run. */
export interface CrawlHooks {
  onFailure(f: PageFailure): void;
  onProgress?(phase: string, done: number, total?: number): void;
  /** A line about one shard (done, skipped). */
  onShard?(message: string): void;
}

/** Per shard of `analyseCrawl`. */
export interface AnalysedShard {
  shard: Shard;
  skipped: boolean;
  manifest: ShardManifest;
}

/**
 * Pass 1 of the given shards into `work` (a shard already done for the same source and options is
 * skipped); with `records`, what writing each page's output needs too, so that `markCrawl` parses no page again.
 */
export async function analyseCrawl(work: string, shards: readonly Shard[], o: PageletRunOptions, hooks: CrawlHooks, records = true): Promise<AnalysedShard[]> {
  const out: AnalysedShard[] = [];
  for (const shard of shards) {
    const source = await openSource(shard.spec);
    try {
      const r = await analyseShard(work, shard, { source, labels: new LabelTable(), options: { ...o }, onFailure: hooks.onFailure, ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}) }, o, undefined, records);
      hooks.onShard?.(`shard ${shard.index} ${shard.name}: ${r.skipped ? 'already analysed, skipped' : `${r.manifest.pages} pages analysed`}`);
      out.push({ shard, ...r });
    } finally {
      await source.close();
    }
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

/**
 * The output phase of the given shards: each shard's pages marked with the global step's template
 * pagelets, the output contract written in `outDirOf(shard)`. A shard's folder is written beside it under
 * a temporary name and put in its place when complete (a killed run leaves the previous folder, or none);
 * it replaces a previous output folder (one with summary.json) and refuses any other folder that is not empty.
 */
export async function markCrawl(work: string, shards: readonly Shard[], outDirOf: (s: Shard) => string, o: PageletRunOptions, hooks: CrawlHooks): Promise<MarkedShard[]> {
  const global = await readGlobalResult(work);
  const done: MarkedShard[] = [];
  for (const shard of shards) {
    const out = outDirOf(shard);
    const manifest = await readManifest(work, shard);
    if (!manifest) throw new Error(`shard ${shard.index} (${shard.spec}) is not analysed in ${work}`);
    if (!global.result.shards.some((s) => s.index === shard.index && s.checksum === manifestChecksum(manifest))) throw new Error(`shard ${shard.index} (${shard.spec}) was analysed after the global step: run the global phase again`);
    if ((await sourceChecksum(shard.spec)) !== manifest.sourceChecksum) throw new Error(`${shard.spec} changed since it was analysed: analyse it again, then the global phase`);
    if (await markedAlready(work, shard, out, global.checksum)) {
      hooks.onShard?.(`shard ${shard.index} ${shard.name}: output already written, skipped`);
      done.push({ shard, skipped: true, out, pages: manifest.pages, failures: 0 });
      continue;
    }
    if (existsSync(out) && !existsSync(join(out, 'summary.json')) && (await readdir(out)).length > 0) throw new Error(`${out} is not empty and holds no gabarit output (no summary.json): give a new or empty output folder`);
    const staged = await stagingDir(out);
    const writer = new OutputWriter(staged);
    const source = await openSource(shard.spec);
    const t0 = performance.now();
    let input: MarkInput | undefined;
    let fromRecords = false;
    try {
      input = await shardMarkInput(work, manifest, o);
      fromRecords = input.spool !== undefined;
      const run = await markPagelets(input, {
        source,
        labels: new LabelTable(),
        options: { ...input.options },
        onPage: async (marks, extra) => {
          await writer.writePage(marks, extra);
        },
        // with the shard's render records, pages come rendered: none is read or parsed again
        onRendered: async (rendered, extra) => {
          await writer.writeRendered(rendered, extra);
        },
        onFailure: (f) => {
          writer.fail(f);
          hooks.onFailure(f);
        },
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      });
      await writer.finish(
        {
          command: 'shards mark',
          method: 'pagelets',
          source: shard.spec,
          pagesLoaded: 0,
          timings: { marks: Math.round(performance.now() - t0) },
          engine: { pagelets: { algorithm: 'global', backend: global.result.backend, ...global.result.counts, pagesMarked: run.marked, shard: shard.index } },
        },
        { method: 'pagelets', algorithm: 'global', backend: global.result.backend, counts: global.result.counts, templates: join(work, 'global', 'templates') },
      );
      await replaceDir(staged, out);
    } finally {
      input?.spool?.close();
      await source.close();
      await rm(staged, { recursive: true, force: true });
    }
    await recordMarked(work, { index: shard.index, name: shard.name, out, global: global.checksum, pages: writer.done.length, failures: writer.failed.length });
    hooks.onShard?.(`shard ${shard.index} ${shard.name}: ${writer.done.length} pages written to ${out} (${fromRecords ? "from pass 1's records" : 'pages read and parsed again'})`);
    done.push({ shard, skipped: false, out, pages: writer.done.length, failures: writer.failed.length });
  }
  return done;
}
