/**
 * Start-up of the installed package against a bare node start, in the same run: the repository is packed
 * and installed into an empty project (test/package/installed.ts), then `node -e 0`, `gabarit --help` and
 * an ES module importing `gabarit` run alternately from that project, several rounds; the figure is the
 * median wall time of each and its ratio to `node -e 0`. Target: `gabarit --help` within 4x a bare start
 * (exit 1 when over). Also prints how many modules each loads (test/package/loaded-modules.mjs, in runs of
 * their own so that counting does not slow the timed ones) and the load average.
 *
 * Run: `npx tsx bench/startup.bench.ts [--rounds N] [--repo DIR]` (default 15 rounds; `--repo` packs another
 * checkout, e.g. an older commit, instead of this one; needs the npm registry, or npm's cache, for the
 * package's dependencies).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../test/cli/gabarit-process.ts';
import { installedBin, packAndInstall } from '../test/package/installed.ts';

const TARGET = 4;
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Math.max(1, Number(process.argv[roundsArg + 1])) : 15;
const repoArg = process.argv.indexOf('--repo');
const REPO = repoArg > 0 ? resolve(process.argv[repoArg + 1]!) : ROOT;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

const installed = await packAndInstall([], REPO);
try {
  const cwd = installed.project;
  const importer = join(cwd, 'import-root.mjs');
  writeFileSync(importer, "import 'gabarit';\n");
  const commands: ReadonlyArray<{ name: string; args: string[] }> = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'gabarit --help', args: [installedBin(installed), '--help'] },
    { name: "import 'gabarit'", args: [importer] },
  ];

  const run = (args: readonly string[], env: NodeJS.ProcessEnv = process.env): number => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr.toString()}`);
    return ms;
  };

  // One run of each with its modules counted; a command that fails (an older checkout) is reported and left out.
  const modules = commands.map((c): number | Error => {
    const list = join(cwd, 'modules.txt');
    rmSync(list, { force: true });
    try {
      run(['--import', join(ROOT, 'test', 'package', 'loaded-modules.mjs'), ...c.args], { ...process.env, GABARIT_MODULES_OUT: list });
    } catch (err) {
      return err as Error;
    }
    return existsSync(list) ? new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean)).size : 0;
  });
  const timed = commands.filter((_, i) => !(modules[i] instanceof Error));

  const loadBefore = load();
  for (const c of timed) run(c.args); // warm the file cache
  const times = new Map(timed.map((c) => [c, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++) for (const c of timed) times.get(c)!.push(run(c.args));
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const base = median(times.get(commands[0]!)!);

  console.log(`start-up of gabarit ${installed.version} (${REPO}), installed from its tarball (median of ${ROUNDS} alternating rounds; load average ${loadBefore} before, ${load()} after)`);
  console.log(['command'.padEnd(20), 'median ms'.padStart(10), 'x node -e 0'.padStart(12), 'modules'.padStart(8)].join(''));
  commands.forEach((c, i) => {
    const m = modules[i]!;
    if (m instanceof Error) {
      console.log(`${c.name.padEnd(20)} fails: ${m.message.split('\n').find((l) => /Error/.test(l)) ?? m.message.split('\n')[0]}`);
      return;
    }
    const t = median(times.get(c)!);
    console.log([c.name.padEnd(20), t.toFixed(1).padStart(10), (t / base).toFixed(2).padStart(12), String(m).padStart(8)].join(''));
  });
  const help = times.get(commands[1]!);
  if (!help) throw new Error('gabarit --help does not run');
  const ratio = median(help) / base;
  console.log(`gabarit --help: ${ratio.toFixed(2)}x node -e 0 (target: within ${TARGET}x) ${ratio <= TARGET ? 'ok' : 'OVER TARGET'}`);
  process.exitCode = ratio <= TARGET ? 0 : 1;
} finally {
  await installed.remove();
}
