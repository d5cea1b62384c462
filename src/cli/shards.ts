/**
 * `gabarit shards <phase>`: the pagelets engine's global algorithm (paper 3, Figure 5) over a crawl split
 * into shards (one source each: WARC files or directories, globs allowed), each phase runnable on its own
 * machine against a shared work directory (src/run/pagelet-shards.ts):
 *   analyse <sources…> --work DIR [--part i/n]   pass 1 of each shard → Parquet rows
 *   global --work DIR [--backend duckdb|spark]     Figure 5 over every shard, on DuckDB or Spark SQL
 *   mark <sources…> --work DIR --out DIR           each page marked, the output contract written
 *   run <sources…> --work DIR --out DIR            the three in a row, on this machine; with --backend spark
 *                                                  as one Spark job whose executors run analyse and mark
 * A rerun skips what is done: the shards already analysed or written, and the global step when its shards,
 * backend and support are those of its last result.
 */
import type { ShardPhase, ShardsResult } from '../run/shards.ts';
import type { Command } from 'commander';
import { SHARD_FORMAT_OPTIONS, SHARD_GLOBAL_OPTIONS, SHARD_OUT_OPTIONS, SHARD_PART_OPTIONS, SHARD_PASS_ONE, SHARD_RECORDS_OPTIONS, SHARD_SPARK_RUN_OPTIONS, SHARD_WORK_OPTIONS, type ShardFlags } from '../run/options.ts';
import { addDeclaredOptions, engineOption } from './parsers.ts';
import { EngineError, UsageError } from '../errors.ts';
import { BAD_OPTION } from '../template/options.ts';
import { PAGELET_OPTIONS, type PageletOptions } from '../template/pagelets/options.ts';
import { createReporter, emit, globalOptions, NothingDone, outDir, type Reporter } from './run.ts';

/** The command's own flags; the engine's options (below) are read by name from the parsed values. */
const PASS_ONE = SHARD_PASS_ONE;
const SUPPORT = ['minPages', 'minSupport', 'supportCap'] as const;
const WORKERS = ['workers'] as const;
type EngineName = (typeof PASS_ONE)[number] | (typeof SUPPORT)[number] | (typeof WORKERS)[number];



/** Adds the engine's flags of `names` to `c`, each with the engine's default. */
function engineFlags(c: Command, names: readonly EngineName[]): Command {
  const flags = PAGELET_OPTIONS.cliFlags();
  const defaults: Record<string, unknown> = PAGELET_OPTIONS.defaults();
  for (const name of names) {
    const flag = flags.find((f) => f.name === name)!;
    const opt = engineOption(flag);
    // a boolean flag has no default value of its own (its `--no-` form defaults to true in commander)
    const d = defaults[name];
    if (typeof d !== 'boolean') opt.default(d, flag.defaultText === String(d) ? undefined : flag.defaultText);
    c.addOption(opt);
  }
  return c;
}

/** The engine's options given to a phase (defaults filled), validated as the library validates them. */
function engineValues(self: Command): PageletOptions {
  const given = self.opts<Record<string, unknown>>();
  const names: readonly string[] = [...PASS_ONE, ...SUPPORT, ...WORKERS];
  const values = Object.fromEntries(names.filter((n) => given[n] !== undefined).map((n) => [n, given[n]]));
  try {
    return PAGELET_OPTIONS.parse({ ...values, global: true });
  } catch (err) {
    if (err instanceof EngineError && err.code === BAD_OPTION) throw new UsageError(err.message);
    throw err;
  }
}

const partOption = (c: Command): Command => addDeclaredOptions(c, SHARD_PART_OPTIONS);
const globalStepOptions = (c: Command): Command => engineFlags(addDeclaredOptions(c, SHARD_GLOBAL_OPTIONS), SUPPORT);
const workOption = (c: Command): Command => addDeclaredOptions(c, SHARD_WORK_OPTIONS);
const outOption = (c: Command): Command => addDeclaredOptions(c, SHARD_OUT_OPTIONS);
const recordsOption = (c: Command): Command => addDeclaredOptions(addDeclaredOptions(c, SHARD_RECORDS_OPTIONS), SHARD_FORMAT_OPTIONS);
const formatOption = (c: Command): Command => addDeclaredOptions(c, SHARD_FORMAT_OPTIONS);

export function register(program: Command): void {
  const cmd = program.command('shards').description('paper 3\'s global template detection over a crawl split into shards (WARC files or directories), phase by phase, on DuckDB or Spark');
  const sources = 'WARC files or directories (quoted globs allowed)';
  recordsOption(workOption(engineFlags(partOption(cmd.command('analyse').description('pass 1 of each shard (parse, partition, shingle, links) into Parquet rows in the work directory').argument('<sources...>', sources)), [...WORKERS, ...PASS_ONE])))
    .action(async (specs: string[], flags: ShardFlags, self: Command) => void (await phases(self, specs, flags, ['analyse'])));
  workOption(globalStepOptions(cmd.command('global').description('the relational steps of Figure 5 over every analysed shard; template pagelets as Parquet')))
    .action(async (flags: ShardFlags, self: Command) => void (await phases(self, [], flags, ['global'])));
  formatOption(outOption(workOption(engineFlags(partOption(cmd.command('mark').description('each shard\'s pages marked and written (the output contract), with the options each shard was analysed with').argument('<sources...>', 'the same sources as for analyse')), WORKERS))))
    .action(async (specs: string[], flags: ShardFlags, self: Command) => void (await phases(self, specs, flags, ['mark'])));
  addDeclaredOptions(recordsOption(outOption(workOption(globalStepOptions(engineFlags(partOption(cmd.command('run').description('analyse, global and mark in a row: on this machine, or with --backend spark as Spark tasks').argument('<sources...>', sources)), [...WORKERS, ...PASS_ONE]))))), SHARD_SPARK_RUN_OPTIONS)
    .action(async (specs: string[], flags: ShardFlags, self: Command) => void (await phases(self, specs, flags, ['analyse', 'global', 'mark'])));
  // what the Spark tasks of `run --backend spark` talk to (task-server.ts); not a command for users
  cmd
    .command('serve', { hidden: true })
    .description('runs `shards analyse` and `shards mark` command lines read as JSON lines on stdin, one after another, keeping the worker threads')
    .action(async () => {
      const [{ serveTasks }, { main }] = await Promise.all([import('./task-server.ts'), import('./program.ts')]);
      await serveTasks(program.version() ?? '0.0.0', main);
    });
}

async function phases(self: Command, specs: string[], flags: ShardFlags, which: ShardPhase[]): Promise<void> {
  const g = globalOptions(self);
  const o = engineValues(self);
  const [{ parsePart }, { shards }] = await Promise.all([import('../template/pagelets/shards.ts'), import('../run/shards.ts')]);
  let part: ReturnType<typeof parsePart> | undefined;
  try {
    part = flags.part === undefined ? undefined : parsePart(flags.part);
  } catch (err) {
    throw new UsageError(`--part: ${(err as Error).message}`);
  }
  const wholeOnSpark = which.length === 3 && flags.backend === 'spark';
  if (wholeOnSpark && part) throw new UsageError('--part: with --backend spark, Spark runs every shard (give --part to analyse and mark without Spark)');
  if (!wholeOnSpark && flags.sparkGabarit !== undefined) throw new UsageError('--spark-gabarit: only with --backend spark');
  const reporter: Reporter = createReporter(g);
  const work = outDir(flags.work);
  let result: ShardsResult;
  try {
    result = await shards(specs, {
      phases: which,
      work,
      ...(part ? { part } : {}),
      out: outDir(flags.out ?? 'out/shards'),
      options: o,
      records: flags.records ?? true,
      format: flags.format ?? 'text',
      backend: flags.backend,
      sparkMaster: flags.sparkMaster,
      ...(flags.sparkSubmit ? { sparkSubmit: flags.sparkSubmit } : {}),
      sparkConf: Object.fromEntries((flags.sparkConf ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
      driverMemory: flags.driverMemory,
      ...(flags.sparkGabarit !== undefined ? { sparkGabarit: flags.sparkGabarit.trim().split(/\s+/) } : {}),
      // --workers given: each Spark task's gabarit runs that many threads; else as many as the task's CPUs
      ...(wholeOnSpark && self.getOptionValueSource('workers') === 'cli' ? { sparkTaskWorkers: o.workers } : {}),
      onTaskLine: (line) => reporter.progress.log(line),
      onFailure: (f) => reporter.failure(f),
      onShardFailed: (f) => reporter.failure(f),
      onProgress: (phase, done, total) => reporter.progress.update(phase, done, total),
      onInfo: (m) => reporter.info(m),
    });
  } catch (err) {
    throw new NothingDone((err as Error).message);
  } finally {
    reporter.stop();
  }
  const failures = result.failures.length;
  const lines: string[] = [`work: ${work}`];
  for (const s of result.analysed ?? []) lines.push(`analysed shard ${s.shard} ${s.name}: ${s.pages} pages${s.skipped ? ' (already done)' : ''}`);
  const gr = result.global;
  if (gr) lines.push(`global (${gr.backend}): ${gr.counts['pages']} pages, ${gr.counts['template_pagelets']} template pagelets, ${gr.counts['templates']} templates, ${gr.components === 'graph' ? 'components as a graph' : `${gr.iterations} label-propagation iterations`}, ${(gr.timings['total']! / 1000).toFixed(1)} s${gr.skipped ? ' (already done)' : ''}`);
  for (const s of result.marked ?? []) lines.push(`marked shard ${s.shard} ${s.name}: ${s.pages} pages → ${s.out}${s.skipped ? ' (already done)' : ''}`);
  if (failures > 0) lines.push(`pages failed: ${failures}`);
  const left = result.failedShards ?? [];
  for (const f of left) lines.push(`shard ${f.shard} ${f.name}: not ${f.phase === 'analyse' ? 'analysed' : 'written'} (${f.code})`);
  if (left.length > 0) lines.push(`shards failed: ${left.length}`);
  const { failures: _listed, ...printed } = result;
  emit(g, printed, lines);
  // the shards left out are named above and on stderr; when they were all there was, nothing was done
  const done = which.includes('mark') ? (result.marked ?? []).length : which.includes('analyse') ? (result.analysed ?? []).length : 1;
  if (left.length > 0 && done === 0) throw new NothingDone(`no shard could be ${which.includes('analyse') && !(result.analysed ?? []).length ? 'analysed' : 'written'}: ${left.map((f) => f.name).join(', ')} failed`);
}
