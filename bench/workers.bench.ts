/**
 * Per-page work on all cores (`--workers`): `gabarit content`, `gabarit apply` and `gabarit template -m
 * align` run as the command line runs them (contentCommand, applyCommand, templateCommand: the source read,
 * the output files written to a temporary directory) over one corpus site, with 0 (the main thread only),
 * 1, 2, … worker threads up to `os.availableParallelism()`. For each: pages a second (wall), CPU time of
 * the process (every thread), the throughput as a ratio to parsing the same pages on one thread, the
 * speed-up over one worker and the scaling per added core (what each added worker brings, as a share of
 * what the first one gives; 1 is perfect). Learning (template, content) stays on the main thread and is
 * counted; the main thread's busy time (its event loop's active time) is the part no added worker shortens. Medians of `--reps` runs, the worker counts interleaved; the load average is printed before and
 * after (the cores may be shared).
 * Run: `nice -n 10 npx tsx bench/workers.bench.ts [--site python-docs] [--reps 3] [--dist]` (skips when the
 * corpus is absent; `--dist` after `npm run build`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { LabelTable } from '../src/html/labels.ts';
import { parseHtml } from '../src/html/parse.ts';
import { SOURCE_OPTIONS } from '../src/run/options.ts';
import { CORPUS_MISSING, corpusAvailable, fmt, loadCorpusSites, median, table, time } from './common.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SITE = arg('--site') ?? 'python-docs';
const REPS = Number(arg('--reps') ?? 3);
/**
 * `--dist`: the commands of the compiled package (dist/, `npm run build`), whose workers start from
 * JavaScript; from the sources each worker loads tsx and compiles its modules first (about 0.7 s of CPU).
 */
const DIST = process.argv.includes('--dist');

/** A module of the run layer, from the sources or the compiled package. */
function runModule<T>(name: string): Promise<T> {
  return import(DIST ? `../dist/run/${name}.js` : `../src/run/${name}.ts`) as Promise<T>;
}

type Run = (workers: number, out: string) => Promise<unknown>;

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    console.log(`${CORPUS_MISSING}: workers benchmark skipped`);
    return;
  }
  const site = loadCorpusSites().find((s) => s.name === SITE);
  if (!site) throw new Error(`no corpus site ${SITE}`);
  const dir = join(CORPUS_DIR, 'sites', SITE, 'pages');
  const tmp = await mkdtemp(join(tmpdir(), 'gabarit-workers-bench-'));
  const load0 = loadavg()[0]!;
  try {
    const parse = time(() => {
      const labels = new LabelTable();
      for (const p of site.pages) parseHtml(p.html, { labels, selfClosing: p.xhtml });
    }, { reps: REPS });
    const parseRate = site.pages.length / (parse.cpu / 1000);
    const [{ contentCommand }, { applyCommand }, { templateCommand }] = await Promise.all([
      runModule<typeof import('../src/run/content.ts')>('content'),
      runModule<typeof import('../src/run/learn.ts')>('learn'),
      runModule<typeof import('../src/run/template.ts')>('template'),
    ]);
    const flags = SOURCE_OPTIONS.parse({});
    const to = (out: string) => ({ out, jsonl: false });
    // The template apply is given: learned once, with the main thread alone.
    const learned = join(tmp, 'learned');
    await templateCommand(dir, { ...flags, method: 'align', workers: 0 }, {}, to(learned));
    const templateFile = join(learned, 'template.json');
    const commands: Record<string, Run> = {
      content: (workers, out) => contentCommand(dir, { ...flags, method: 'align', format: 'text', mainBlock: 'auto', headline: 'field', workers }, {}, to(out)),
      apply: (workers, out) => applyCommand(templateFile, dir, { ...flags, workers }, to(out)),
      'template -m align': (workers, out) => templateCommand(dir, { ...flags, method: 'align', workers }, {}, to(out)),
    };
    const counts = [0, ...Array.from({ length: availableParallelism() }, (_, i) => i + 1)];
    console.log(`${DIST ? 'compiled package (dist/)' : 'sources (tsx)'}; site ${SITE}: ${site.pages.length} pages, ${fmt(site.bytes / 1e6, 2)} MB; parsing them on one thread ${fmt(parseRate, 0)} pages/s (CPU); ${availableParallelism()} cores; ${REPS} runs each`);
    const rows: Array<Array<string | number>> = [['command', 'workers', 'pages/s', 'CPU s', 'main thread busy s', 'x parse', 'speed-up over 1', 'per added core']];
    let n = 0;
    for (const [name, run] of Object.entries(commands)) {
      const wall = new Map<number, number[]>(counts.map((c) => [c, []]));
      const cpu = new Map<number, number[]>(counts.map((c) => [c, []]));
      const busy = new Map<number, number[]>(counts.map((c) => [c, []]));
      for (let r = 0; r < REPS; r++) {
        for (const c of counts) {
          const out = join(tmp, `run-${n++}`);
          const c0 = process.cpuUsage();
          const e0 = performance.eventLoopUtilization();
          const t0 = performance.now();
          await run(c, out);
          wall.get(c)!.push(performance.now() - t0);
          busy.get(c)!.push(performance.eventLoopUtilization(e0).active / 1000);
          const u = process.cpuUsage(c0);
          cpu.get(c)!.push((u.user + u.system) / 1e6);
          await rm(out, { recursive: true, force: true });
          process.stderr.write(`${name} --workers ${c}: ${fmt(wall.get(c)!.at(-1)! / 1000, 1)} s\n`);
        }
      }
      const rate = (c: number): number => site.pages.length / (median(wall.get(c)!) / 1000);
      for (const c of counts) {
        const speedup = c >= 1 ? rate(c) / rate(1) : undefined;
        const added = c >= 2 ? (rate(c) - rate(c - 1)) / rate(1) : undefined;
        rows.push([name, c === 0 ? '0 (main thread)' : c, fmt(rate(c), 0), fmt(median(cpu.get(c)!), 2), fmt(median(busy.get(c)!), 2), fmt(rate(c) / parseRate, 2), speedup === undefined ? '' : fmt(speedup, 2), added === undefined ? '' : fmt(added, 2)]);
      }
    }
    console.log(table(rows));
    console.log(`load average (1 min): ${fmt(load0, 1)} before, ${fmt(loadavg()[0]!, 1)} after`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
