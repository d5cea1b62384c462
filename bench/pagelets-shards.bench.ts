/**
 * Scale benchmark of the sharded pagelets run (src/template/pagelets/shards.ts): the synthetic crawl of
 * bench/pagelets-synthetic.ts split into shards (contiguous page ranges; links cross shards), each phase
 * timed apart:
 *  - analyse: pass 1 of each shard (2 worker threads), rows written as Parquet (time and Parquet bytes per shard);
 *  - global: Figure 5 over all shards on DuckDB (in this process) and on Spark `local[2]` (spark-submit of
 *    spark/gabarit_global.py; one JVM holds driver and executors), time per step group; Spark's shuffle
 *    bytes per step from its event log;
 *  - mark: the output phase, each page's marked HTML and kept text made (not written): from the render records
 *    pass 1 left beside each shard's rows (default), or, with `--no-records` (none recorded), each shard's
 *    pages read and parsed again and marked; with `--format jsonl`, each page's JSON line made instead
 *    (pass 1 then records the kept text and title only, as `gabarit shards run -f jsonl` does).
 * Peak memory of each process: this Node process's RSS per phase (DuckDB runs inside it), and the
 * spark-submit process tree (the JVM and the Python driver), sampled every 100 ms from /proc.
 * CPU per page of each phase (this process: main thread, workers, DuckDB; for the Spark step also
 * spark-submit's processes, JVM and Python, from the CPU time of this process's ended children) and of the
 * whole job (analyse, global on the first backend, mark), against raw `parseHtml` CPU per page on this
 * thread, timed before and after (as bench/pagelets-scale.bench.ts); with `--backends duckdb` the job runs
 * in this process alone. Making the synthetic pages is the source's cost, not the job's: its time (on the
 * main thread, about its CPU) is printed and taken out of the whole job's figure.
 *
 * Run: `nice -n 10 npx tsx bench/pagelets-shards.bench.ts 200000` (pages; `--shards 8`, `--workers 2` (pass 1's worker threads), `--backends
 * duckdb,spark`, `--no-records`, `--format jsonl`, `--memory-limit 2GB` for the DuckDB step, `--spark-conf k=v,k=v`); Spark from spark/install.sh (or spark-submit on PATH, or SPARK_HOME).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, renameSync, statSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { pageFiles } from '../src/output.ts';
import { recordOf } from '../src/run/write.ts';
import { markPagelets, runOptions } from '../src/template/pagelets/engine.ts';
import { type GlobalResult, runGlobalShards } from '../src/template/pagelets/global-shards.ts';
import { analyseShard, readManifest, type Shard, shardMarkInput } from '../src/template/pagelets/shards.ts';
import { SyntheticCrawl } from './pagelets-synthetic.ts';

const args = process.argv.slice(2);
const flag = (name: string, d: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : d;
};
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? '20000');
const shardCount = Number(flag('shards', '8'));
const backends = flag('backends', 'duckdb,spark').split(',').filter((b) => b !== '');
// `--work DIR`: a kept work directory (shards already analysed there are skipped); `--phases analyse,global,mark`
const keptWork = flag('work', '');
const phases = new Set(flag('phases', 'analyse,global,mark').split(','));
const jsonl = flag('format', 'text') === 'jsonl';
const records = args.includes('--no-records') ? false : jsonl ? 'text' : 'page';
// `--spark-conf k=v,k=v`: more Spark settings (e.g. spark.sql.autoBroadcastJoinThreshold=-1, so that a small crawl
// shuffles its joins as a large one does)
const extraConf = Object.fromEntries(
  flag('spark-conf', '')
    .split(',')
    .filter((kv) => kv.includes('='))
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Raw `parseHtml` CPU ms per page of `pages` on this thread (after a warm-up), each decoded to a string
 * first (not timed). The pages are kept as bytes, outside the JavaScript heap: as strings they would add
 * their size to the main thread's live heap for the whole run, and every major collection of the job's
 * main thread would mark them again.
 */
function parseCpu(pages: readonly Uint8Array[]): number {
  const dec = new TextDecoder();
  const htmls = pages.map((p) => dec.decode(p));
  const labels = new LabelTable();
  for (const h of htmls.slice(0, 200)) parseHtml(h, { labels });
  const c = cpuMs();
  for (const h of htmls) parseHtml(h, { labels });
  return (cpuMs() - c) / htmls.length;
}
const mib = (b: number): number => Math.round(b / 1048576);

/** RSS of a process and its descendants, from /proc (bytes), by command name. */
function treeRss(root: number): Map<string, number> {
  const children = new Map<number, number[]>();
  const info = new Map<number, { name: string; rss: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      const ppid = Number(f[1]);
      const rss = Number(f[21]) * 4096;
      info.set(Number(d), { name, rss });
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(d));
    } catch {
      // a process that ended while we looked
    }
  }
  const out = new Map<string, number>();
  const walk = (p: number): void => {
    const i = info.get(p);
    if (i) out.set(i.name, (out.get(i.name) ?? 0) + i.rss);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** CPU ms of this process's children that ended and were waited for (spark-submit and what it started). */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields 16 and 17 of stat (cutime, cstime); f starts at field 3
  return ((Number(f[13]) + Number(f[14])) * 1000) / CLK_TCK;
}

type StepSpark = { written: number; read: number; records: number; output: number; cpu: number };

/**
 * Shuffle bytes written and read, bytes the step's tasks wrote to files and the tasks' JVM CPU (ms; not the
 * Python workers'), per job description (step), from a Spark event log folder.
 */
function shuffleByStep(dir: string): Record<string, StepSpark> {
  const stageDesc = new Map<number, string>();
  const out: Record<string, StepSpark> = {};
  // Spark 4 writes rolling event logs: a folder per application, files of JSON lines in it
  const files = readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f))).filter((f) => statSync(f).isFile()).sort();
  for (const f of files) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      const e = JSON.parse(line) as Record<string, any>;
      if (e['Event'] === 'SparkListenerJobStart') {
        const desc = String(e['Properties']?.['spark.job.description'] ?? 'other');
        for (const s of e['Stage IDs'] as number[]) stageDesc.set(s, desc);
      } else if (e['Event'] === 'SparkListenerTaskEnd') {
        const m = e['Task Metrics'];
        if (!m) continue;
        const desc = stageDesc.get(e['Stage ID'] as number) ?? 'other';
        const o = (out[desc] ??= { written: 0, read: 0, records: 0, output: 0, cpu: 0 });
        o.cpu += (Number(m['Executor CPU Time'] ?? 0) + Number(m['Executor Deserialize CPU Time'] ?? 0)) / 1e6;
        o.output += Number(m['Output Metrics']?.['Bytes Written'] ?? 0);
        o.written += Number(m['Shuffle Write Metrics']?.['Shuffle Bytes Written'] ?? 0);
        o.records += Number(m['Shuffle Write Metrics']?.['Shuffle Records Written'] ?? 0);
        const r = m['Shuffle Read Metrics'];
        if (r) o.read += Number(r['Remote Bytes Read'] ?? 0) + Number(r['Local Bytes Read'] ?? 0);
      }
    }
  }
  return out;
}

/** spark-submit's environment: the venv of spark/install.sh when there is one. */
function sparkEnv(): NodeJS.ProcessEnv {
  const venv = process.env['GABARIT_SPARK_VENV'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'gabarit-spark', 'venv-4.0.5');
  if (!existsSync(join(venv, 'bin', 'spark-submit'))) return process.env;
  return { ...process.env, PATH: `${join(venv, 'bin')}:${process.env['PATH'] ?? ''}`, PYSPARK_PYTHON: join(venv, 'bin', 'python'), SPARK_LOCAL_IP: '127.0.0.1', SPARK_LOCAL_HOSTNAME: '127.0.0.1' };
}

/** Whether two global results hold the same rows: per output, row count and sum of row hashes (DuckDB). */
async function sameRows(a: string, b: string): Promise<Record<string, boolean>> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { memory_limit: '256MB' });
  const c = await db.connect();
  // each column cast to one type, so that the engines' own column types do not change the hash
  const columns: Record<string, string> = {
    template_pagelets: 'shard::BIGINT, page::BIGINT, ordinal::BIGINT, node::BIGINT, nodes::BIGINT, chars::BIGINT',
    templates: 'shingle::DOUBLE, first_page::BIGINT, size::BIGINT',
  };
  const digest = async (dir: string, name: string): Promise<string> =>
    JSON.stringify(
      (
        await c.runAndReadAll(
          `SELECT count(*)::VARCHAR, sum(hash(${columns[name]})::HUGEINT)::VARCHAR FROM read_parquet('${join(dir, name)}/**/*.parquet', hive_partitioning = true)`,
        )
      ).getRows(),
    );
  const out: Record<string, boolean> = {};
  try {
    for (const name of Object.keys(columns)) out[name] = (await digest(a, name)) === (await digest(b, name));
  } finally {
    c.closeSync();
    db.closeSync();
  }
  return out;
}

async function main(): Promise<void> {
  const crawl = new SyntheticCrawl();
  const work = keptWork || mkdtempSync(join(tmpdir(), 'gabarit-shards-bench-'));
  mkdirSync(work, { recursive: true });
  const o = runOptions({ global: true, workers: Number(flag('workers', '2')) });
  const labels = new LabelTable({ attributes: 'none' });
  const onFailure = (f: { message: string }): void => console.error(f.message);
  let phase = 'analyse';
  const peak: Record<string, number> = {};
  const timer = setInterval(() => (peak[phase] = Math.max(peak[phase] ?? 0, process.memoryUsage().rss)), 100);
  console.log(`n=${n}, ${shardCount} shards, base pages ${crawl.bases}; load ${load()}; work ${work}`);
  // decoded to flat strings when timed, as the engine sees them after decoding bytes
  const enc = new TextEncoder();
  const sample = Array.from({ length: 1500 }, (_, i) => enc.encode(crawl.page(i * 7, n)));
  const parseBefore = parseCpu(sample);
  const cpu: Record<string, number> = {};
  let genMs = 0;
  try {
    let c0 = cpuMs();
    // ---- analyse ----
    const shards: Shard[] = [];
    const perShard: Array<Record<string, number | string>> = [];
    const ta = performance.now();
    for (let s = 0; s < shardCount; s++) {
      const from = Math.floor((s * n) / shardCount);
      const to = Math.floor(((s + 1) * n) / shardCount);
      const shard: Shard = { index: s, name: `synthetic-${s}`, spec: `synthetic:${n}:${from}-${to}` };
      shards.push(shard);
      const t = performance.now();
      const source = crawl.source(n, from, to);
      const r = await analyseShard(work, shard, { source, labels, options: {}, onFailure }, o, shard.spec, records);
      genMs += source.genMs;
      const bytes = Object.values(r.manifest.files).reduce((a, f) => a + f.bytes, 0);
      perShard.push({ shard: s, pages: r.manifest.pages, 'analyse s': +((performance.now() - t) / 1000).toFixed(1), 'generation s': +(source.genMs / 1000).toFixed(1), 'Parquet MiB': +(bytes / 1048576).toFixed(1), 'Parquet bytes/page': Math.round(bytes / r.manifest.pages) });
    }
    const analyseMs = performance.now() - ta;
    cpu['analyse'] = cpuMs() - c0;
    console.log(`analyse: ${(analyseMs / 1000).toFixed(1)} s (${Math.round(n / (analyseMs / 1000))} pages/s), load ${load()}`);
    console.table(perShard);

    // ---- global, per backend ----
    const support = { minPages: 2, minSupport: 0.05, supportCap: 50 };
    const results: Record<string, GlobalResult & { peakMiB: Record<string, number>; wallS: number; loadAfter: string; cpuS: number }> = {};
    let shuffle: ReturnType<typeof shuffleByStep> = {};
    for (const backend of backends) {
      phase = `global-${backend}`;
      c0 = cpuMs();
      const children0 = childrenCpuMs();
      const t = performance.now();
      let sparkPeak = new Map<string, number>();
      let sampler: ReturnType<typeof setInterval> | undefined;
      const events = join(work, 'spark-events');
      rmSync(events, { recursive: true, force: true });
      mkdirSync(events, { recursive: true });
      let r: GlobalResult;
      try {
        r = await runGlobalShards(work, {
        backend: backend as 'duckdb' | 'spark',
        support,
        sparkMaster: 'local[2]',
        driverMemory: flag('driver-memory', '2g'),
        ...(args.includes('--memory-limit') ? { memoryLimit: flag('memory-limit', '') } : {}),
        sparkConf: { 'spark.ui.enabled': 'false', 'spark.eventLog.enabled': 'true', 'spark.eventLog.compress': 'false', 'spark.eventLog.rolling.enabled': 'false', 'spark.eventLog.dir': `file://${events}`, ...extraConf },
        env: sparkEnv(),
        onSparkProcess: (pid) => {
          sampler = setInterval(() => {
            const now = treeRss(pid);
            let total = 0;
            for (const [name, rss] of now) {
              sparkPeak.set(name, Math.max(sparkPeak.get(name) ?? 0, rss));
              total += rss;
            }
            sparkPeak.set('(all)', Math.max(sparkPeak.get('(all)') ?? 0, total));
          }, 100);
        },
        });
      } catch (err) {
        // the library's error names the step that failed
        console.log(`global on ${backend} FAILED after ${((performance.now() - t) / 1000).toFixed(1)} s, load ${load()}: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = 1;
        continue;
      } finally {
        if (sampler) clearInterval(sampler);
      }
      if (backend === 'spark') shuffle = shuffleByStep(events);
      const peakMiB: Record<string, number> = { node: mib(peak[phase] ?? 0) };
      for (const [k, v] of sparkPeak) peakMiB[k] = mib(v);
      // DuckDB runs in this process; Spark in spark-submit's process tree (JVM, Python driver and workers)
      const cpuS = (backend === 'spark' ? childrenCpuMs() - children0 : cpuMs() - c0) / 1000;
      results[backend] = { ...r, peakMiB, wallS: (performance.now() - t) / 1000, loadAfter: load(), cpuS };
      // this process's, and Spark's processes' for that backend (the whole job counts both)
      cpu[`global-${backend}`] = cpuMs() - c0 + (backend === 'spark' ? cpuS * 1000 : 0);
      // keep each backend's results apart (the mark phase uses the first backend's)
      rmSync(join(work, `global-${backend}`), { recursive: true, force: true });
      renameSync(join(work, 'global'), join(work, `global-${backend}`));
      sparkPeak = new Map();
    }
    const groups = [...new Set(Object.values(results).flatMap((r) => Object.keys(r.timings)))];
    console.table(groups.map((g) => Object.fromEntries([['step', g], ...Object.entries(results).map(([b, r]) => [`${b} s`, +((r.timings[g] ?? 0) / 1000).toFixed(2)])])));
    for (const [b, r] of Object.entries(results)) {
      console.log(`global on ${b}: wall ${r.wallS.toFixed(1)} s, CPU ${r.cpuS.toFixed(1)} s (${((r.cpuS * 1000) / n).toFixed(2)} ms a page; ${b === 'spark' ? "spark-submit's processes" : 'this process'}), iterations ${r.iterations}${r.components ? ` (components: ${r.components})` : ''}, peak RSS MiB ${JSON.stringify(r.peakMiB)}, load after ${r.loadAfter}`);
      console.log(`  counts ${JSON.stringify(r.counts)}`);
    }
    if (results['duckdb'] && results['spark']) {
      console.log(`same counts on both: ${JSON.stringify(results['duckdb'].counts) === JSON.stringify(results['spark'].counts)}`);
      const same = await sameRows(join(work, 'global-duckdb'), join(work, 'global-spark')).catch((err: Error) => err.message);
      console.log(`same rows on both (count and sum of row hashes): ${JSON.stringify(same)}`);
    }
    if (Object.keys(shuffle).length > 0) {
      console.table(Object.entries(shuffle).map(([step, s]) => ({ step, 'shuffle written MiB': +(s.written / 1048576).toFixed(1), 'shuffle records': s.records, 'bytes/record': s.records ? Math.round(s.written / s.records) : 0, 'shuffle read MiB': +(s.read / 1048576).toFixed(1), 'files written MiB': +(s.output / 1048576).toFixed(1), 'JVM CPU s': +(s.cpu / 1000).toFixed(1) })));
      // the components' steps: the loop's cc_* tables (and its cc_changed count), or the graph's link_components
      const sum = (f: (step: string) => boolean): number => Object.entries(shuffle).reduce((a, [step, v]) => a + (f(step) ? v.written : 0), 0);
      const all = sum(() => true);
      const loop = sum((step) => step.startsWith('cc_') || step === 'link_components');
      const jvm = Object.values(shuffle).reduce((a, v) => a + v.cpu, 0);
      console.log(`shuffle written: ${mib(all)} MiB in all (${(all / n / 1000).toFixed(1)} KB a page), ${mib(loop)} MiB in the components (${(loop / n / 1000).toFixed(1)} KB a page); executors' JVM CPU ${(jvm / 1000).toFixed(1)} s`);
    }

    // ---- mark (the output phase: parse again, trees counted) ----
    const done = backends.find((b) => results[b]);
    if (!phases.has('mark') || !done) return;
    phase = 'mark';
    renameSync(join(work, `global-${done}`), join(work, 'global'));
    c0 = cpuMs();
    const tm = performance.now();
    let marked = 0;
    let fromRecords = 0;
    let bytes = 0;
    for (const shard of shards) {
      const manifest = (await readManifest(work, shard))!;
      const input = await shardMarkInput(work, manifest, o, jsonl ? 'text' : 'page');
      if (input.spool) fromRecords++;
      const from = Math.floor((shard.index * n) / shardCount);
      const to = Math.floor(((shard.index + 1) * n) / shardCount);
      const source = crawl.source(n, from, to);
      try {
        await markPagelets(input, {
          source,
          labels,
          options: {},
          onFailure,
          // the files' content as the output writer makes it, not written
          onPage: async (m) => {
            if (jsonl) bytes += JSON.stringify(recordOf({ ok: true, key: m.key, url: m.url, marks: m, info: {} })).length;
            else {
              const f = pageFiles(m);
              bytes += f.text.length + f.html.length;
            }
            marked++;
          },
          onRendered: async (r) => {
            bytes += jsonl ? JSON.stringify(recordOf({ ok: true, key: r.key, url: r.url, rendered: r, info: {} })).length : r.text.length + r.html.length;
            marked++;
          },
        });
      } finally {
        input.spool?.close();
      }
      genMs += source.genMs;
    }
    const markMs = performance.now() - tm;
    cpu['mark'] = cpuMs() - c0;
    console.log(`mark: ${(markMs / 1000).toFixed(1)} s for ${marked} pages (${fromRecords} of ${shards.length} shards from pass 1's records), ${(bytes / 1048576).toFixed(0)} MiB of output made, load ${load()}`);
    const parse = (parseBefore + parseCpu(sample)) / 2;
    const whole = (cpu['analyse'] ?? 0) + (cpu[`global-${done}`] ?? 0) + cpu['mark'] - genMs;
    const perPage = Object.entries(cpu).map(([k, v]) => `${k} ${(v / n).toFixed(2)}`).join(', ');
    console.log(`CPU ms/page: ${perPage}; making the synthetic pages ${(genMs / n).toFixed(2)} (the source's, taken out); whole job (analyse, global on ${done}, mark) ${(whole / n).toFixed(2)} against parse ${parse.toFixed(2)} (${parseBefore.toFixed(2)} before): ${(whole / n / parse).toFixed(2)} × parse; load ${load()}`);
    const sizeOf = (d: string): number => readdirSync(d, { recursive: true }).reduce<number>((a, f) => a + (statSync(join(d, String(f))).isFile() ? statSync(join(d, String(f))).size : 0), 0);
    console.log(`global results on disk: ${(sizeOf(join(work, 'global')) / 1048576).toFixed(1)} MiB`);
  } finally {
    clearInterval(timer);
    console.log(`peak RSS of this process (Node + DuckDB) by phase, MiB: ${JSON.stringify(Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, mib(v)])))}`);
    if (!keptWork) rmSync(work, { recursive: true, force: true });
  }
}

await main();
