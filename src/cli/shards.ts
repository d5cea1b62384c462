/**
 * `gabarit shards <phase>`: the pagelets engine's global algorithm (paper 3, Figure 5) over a crawl split
 * into shards (one source each: WARC files or directories, globs allowed), each phase runnable on its own
 * machine against a shared work directory (src/template/pagelets/crawl.ts):
 *   analyse <sources…> --work DIR [--part i/n]   pass 1 of each shard → Parquet rows
 *   global --work DIR [--backend duckdb|spark]     Figure 5 over every shard, on DuckDB or Spark SQL
 *   mark <sources…> --work DIR --out DIR           each page marked, the output contract written
 *   run <sources…> --work DIR --out DIR            the three in a row, on this machine
 * A rerun skips the shards already done.
 */
import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { PAGELET_DEFAULTS } from '../template/pagelets/defaults.ts';
import { createReporter, emit, globalOptions, NothingDone, outDir, parseCount, parsePositive, type Reporter } from './run.ts';

interface ShardFlags {
  work: string;
  part?: string;
  out?: string;
  workers: number;
  k: number;
  shingleWidth: number;
  minhashes: number;
  linkTargets?: boolean;
  foldDigits?: boolean;
  backend: 'duckdb' | 'spark';
  sparkMaster?: string;
  sparkSubmit?: string;
  sparkConf?: string[];
  driverMemory?: string;
  minPages: number;
  minSupport: number;
  supportCap: number;
}

function parseBackend(raw: string): 'duckdb' | 'spark' {
  if (raw === 'duckdb' || raw === 'spark') return raw;
  throw new InvalidArgumentError('expected duckdb or spark.');
}

function parseNumber(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of at least 0.');
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  if (!/^[^=]+=/.test(value)) throw new InvalidArgumentError('expected key=value.');
  return [...previous, value];
}

const analysisOptions = (c: Command): Command =>
  c
    .addOption(new Option('--part <i/n>', 'only the shards of machine i of n (shard index mod n = i)'))
    .addOption(new Option('--workers <n>', 'worker threads for per-page work (0: main thread only)').default(2).argParser(parseCount))
    .addOption(new Option('--k <n>', 'k of Definition 2').default(PAGELET_DEFAULTS.k).argParser(parsePositive))
    .addOption(new Option('--shingle-width <n>', 'tokens per w-shingle of a pagelet').default(PAGELET_DEFAULTS.shingleWidth).argParser(parsePositive))
    .addOption(new Option('--minhashes <n>', 'min-hash functions combined into a pagelet fingerprint').default(PAGELET_DEFAULTS.minhashes).argParser(parsePositive))
    .addOption(new Option('--link-targets', 'make link target URLs part of a pagelet\'s shingles'))
    .addOption(new Option('--no-fold-digits', 'keep numbers as they are in shingles'));

const globalStepOptions = (c: Command): Command =>
  c
    .addOption(new Option('--backend <engine>', 'engine of the relational steps: duckdb (embedded) or spark (spark-submit)').default('duckdb').argParser(parseBackend))
    .addOption(new Option('--spark-master <url>', 'Spark master: local[N] or spark://HOST:PORT').default('local[2]'))
    .addOption(new Option('--spark-submit <path>', 'spark-submit program (default: $SPARK_HOME/bin/spark-submit, else on PATH)'))
    .addOption(new Option('--spark-conf <key=value>', 'a Spark setting passed to spark-submit (repeatable)').argParser(collect))
    .addOption(new Option('--driver-memory <size>', 'Spark driver memory').default('1g'))
    .addOption(new Option('--min-pages <n>', 'distinct pages a pagelet must appear on to be template').default(PAGELET_DEFAULTS.minTemplatePages).argParser(parsePositive))
    .addOption(new Option('--min-support <fraction>', 'fraction of the pages a template must span (capped by --support-cap)').default(PAGELET_DEFAULTS.minSupport).argParser(parseNumber))
    .addOption(new Option('--support-cap <n>', 'upper bound, in pages, of the --min-support requirement').default(PAGELET_DEFAULTS.supportCap).argParser(parseCount));

const workOption = (c: Command): Command => c.addOption(new Option('--work <dir>', 'work directory shared by every machine (shards, global results)').makeOptionMandatory(true));
const outOption = (c: Command): Command => c.addOption(new Option('-o, --out <dir>', 'output directory (one folder per shard when there are several)').default('out/shards'));

export function register(program: Command): void {
  const cmd = program.command('shards').description('paper 3\'s global template detection over a crawl split into shards (WARC files or directories), phase by phase, on DuckDB or Spark');
  workOption(analysisOptions(cmd.command('analyse').description('pass 1 of each shard (parse, partition, shingle, links) into Parquet rows in the work directory').argument('<sources...>', 'WARC files or directories (quoted globs allowed)')))
    .action(async (specs: string[], flags: ShardFlags, self: Command) => void (await phases(self, specs, flags, ['analyse'])));
  workOption(globalStepOptions(cmd.command('global').description('the relational steps of Figure 5 over every analysed shard; template pagelets as Parquet')))
    .action(async (flags: ShardFlags, self: Command) => void (await phases(self, [], flags, ['global'])));
  outOption(workOption(analysisOptions(cmd.command('mark').description('each shard\'s pages marked and written (the output contract)').argument('<sources...>', 'the same sources as for analyse'))))
    .action(async (specs: string[], flags: ShardFlags, self: Command) => void (await phases(self, specs, flags, ['mark'])));
  outOption(workOption(globalStepOptions(analysisOptions(cmd.command('run').description('analyse, global and mark in a row on this machine').argument('<sources...>', 'WARC files or directories (quoted globs allowed)')))))
    .action(async (specs: string[], flags: ShardFlags, self: Command) => void (await phases(self, specs, flags, ['analyse', 'global', 'mark'])));
}

async function phases(self: Command, specs: string[], flags: ShardFlags, which: Array<'analyse' | 'global' | 'mark'>): Promise<void> {
  const g = globalOptions(self);
  const reporter: Reporter = createReporter(g);
  const [{ listShards, partOf, parsePart }, { analyseCrawl, markCrawl }, { runGlobalShards }, { runOptions }] = await Promise.all([
    import('../template/pagelets/shards.ts'),
    import('../template/pagelets/crawl.ts'),
    import('../template/pagelets/global-shards.ts'),
    import('../template/pagelets/engine.ts'),
  ]);
  const work = outDir(flags.work);
  const o = runOptions({ ...flags, global: true });
  const result: Record<string, unknown> = { work };
  let failures = 0;
  const hooks = {
    onFailure: (f: Parameters<Reporter['failure']>[0]) => {
      failures++;
      reporter.failure(f);
    },
    onProgress: (phase: string, done: number, total?: number) => reporter.progress.update(phase, done, total),
    onShard: (m: string) => reporter.info(m),
  };
  try {
    let shards = specs.length > 0 ? await listShards(specs).catch((err: Error) => Promise.reject(new NothingDone(err.message))) : [];
    const part = flags.part === undefined ? undefined : parsePart(flags.part);
    const all = shards;
    shards = partOf(shards, part);
    if (which.includes('analyse')) {
      const r = await analyseCrawl(work, shards, o, hooks);
      result['analysed'] = r.map((s) => ({ shard: s.shard.index, name: s.shard.name, skipped: s.skipped, pages: s.manifest.pages }));
    }
    if (which.includes('global')) {
      const sparkConf = Object.fromEntries((flags.sparkConf ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      reporter.progress.update('global', 0);
      const r = await runGlobalShards(work, {
        backend: flags.backend,
        support: { minPages: flags.minPages, minSupport: flags.minSupport, supportCap: flags.supportCap },
        sparkMaster: flags.sparkMaster ?? 'local[2]',
        ...(flags.sparkSubmit ? { sparkSubmit: flags.sparkSubmit } : {}),
        sparkConf,
        driverMemory: flags.driverMemory ?? '1g',
      });
      result['global'] = r;
    }
    if (which.includes('mark')) {
      const out = outDir(flags.out ?? 'out/shards');
      const r = await markCrawl(work, shards, (s) => (all.length > 1 ? join(out, s.name) : out), o, hooks);
      result['marked'] = r.map((s) => ({ shard: s.shard.index, name: s.shard.name, skipped: s.skipped, pages: s.pages, failures: s.failures, out: s.out }));
    }
  } catch (err) {
    if (err instanceof NothingDone) throw err;
    throw new NothingDone((err as Error).message);
  } finally {
    reporter.stop();
  }
  const lines: string[] = [`work: ${work}`];
  for (const s of (result['analysed'] as Array<Record<string, unknown>> | undefined) ?? []) lines.push(`analysed shard ${String(s['shard'])} ${String(s['name'])}: ${String(s['pages'])} pages${s['skipped'] ? ' (already done)' : ''}`);
  const gr = result['global'] as { backend: string; counts: Record<string, number>; iterations: number; timings: Record<string, number> } | undefined;
  if (gr) lines.push(`global (${gr.backend}): ${gr.counts['pages']} pages, ${gr.counts['template_pagelets']} template pagelets, ${gr.counts['templates']} templates, ${gr.iterations} label-propagation iterations, ${(gr.timings['total']! / 1000).toFixed(1)} s`);
  for (const s of (result['marked'] as Array<Record<string, unknown>> | undefined) ?? []) lines.push(`marked shard ${String(s['shard'])} ${String(s['name'])}: ${String(s['pages'])} pages → ${String(s['out'])}${s['skipped'] ? ' (already done)' : ''}`);
  if (failures > 0) lines.push(`pages failed: ${failures}`);
  emit(g, result, lines);
}
