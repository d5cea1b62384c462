/**
 * Apache Spark on this machine for the Spark tests and the corpus check: finds the Spark that
 * `spark/install.sh` installs (pyspark in a cached virtual environment) and Java, and starts a standalone
 * cluster on 127.0.0.1 (a master and workers, small memory), stopped by process id.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Java options of the tests' Spark processes (driver, master, workers, executors). */
export const TEST_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Spark's environment: the virtual environment and the variables spark-submit and spark-class need. */
export interface SparkEnv {
  venv: string;
  env: NodeJS.ProcessEnv;
  sparkSubmit: string;
}

/** The pinned pyspark version (spark/requirements.txt). */
export function pinnedVersion(): string {
  return /pyspark==(\S+)/.exec(readFileSync(join(repo, 'spark', 'requirements.txt'), 'utf8'))![1]!;
}

/** Spark and Java if both are here, else the reason they are not. */
export function findSpark(): SparkEnv | string {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return 'Java is not installed (Spark needs Java 17+)';
  const cache = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  const venv = process.env['GABARIT_SPARK_VENV'] ?? join(cache, 'gabarit-spark', `venv-${pinnedVersion()}`);
  const sparkSubmit = join(venv, 'bin', 'spark-submit');
  if (!existsSync(sparkSubmit)) return `Spark is not installed (no ${sparkSubmit}; run spark/install.sh)`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(venv, 'bin')}:${process.env['PATH'] ?? ''}`,
    PYSPARK_PYTHON: join(venv, 'bin', 'python'),
    // every Spark process listens on the loopback address only
    SPARK_LOCAL_IP: '127.0.0.1',
    SPARK_LOCAL_HOSTNAME: '127.0.0.1',
    SPARK_DAEMON_MEMORY: '256m',
    // the tests' jobs are short and small: the JIT's second compiler and a parallel collector cost more CPU
    // than they save there (about half of a local[2] run's CPU on the demo crawl)
    SPARK_SUBMIT_OPTS: TEST_JVM_OPTIONS,
    SPARK_DAEMON_JAVA_OPTS: TEST_JVM_OPTIONS,
  };
  return { venv, env, sparkSubmit };
}

/** For node:test: false when the Spark tests can run; else why not (in CI, a missing Spark is a failure). */
export function sparkSkip(): string | false {
  const s = findSpark();
  if (typeof s !== 'string') return false;
  if (process.env['CI'] === 'true') throw new Error(`${s}: CI must install Spark (.ci/run)`);
  return s;
}

/**
 * For one test that needs Spark: Spark's environment, or undefined after skipping the test with the reason
 * (in CI the test fails instead, as `sparkSkip` does for a whole file).
 */
export function sparkOrSkip(t: { skip(message: string): void }): SparkEnv | undefined {
  const s = findSpark();
  if (typeof s !== 'string') return s;
  if (process.env['CI'] === 'true') throw new Error(`${s}: CI must install Spark (.ci/run)`);
  t.skip(s);
  return undefined;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

/** A running standalone cluster. */
export interface Cluster {
  master: string;
  /** Settings for applications on it (executor memory and cores within the workers'). */
  conf: Record<string, string>;
  stop(): Promise<void>;
}

function waitFor(proc: ChildProcess, pattern: RegExp, count: number, ms: number, what: string): Promise<void> {
  return new Promise((res, rej) => {
    let seen = 0;
    let text = '';
    const timer = setTimeout(() => rej(new Error(`${what}: not seen within ${ms / 1000} s; last output:\n${text.slice(-2000)}`)), ms);
    const on = (chunk: Buffer): void => {
      text += chunk.toString();
      const m = text.match(new RegExp(pattern.source, 'g'));
      seen = m ? m.length : 0;
      if (seen >= count) {
        clearTimeout(timer);
        res();
      }
    };
    proc.stdout?.on('data', on);
    proc.stderr?.on('data', on);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${what}: process exited with code ${code}; output:\n${text.slice(-2000)}`));
    });
  });
}

async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null || p.pid === undefined) return;
  const exited = new Promise<void>((res) => p.once('exit', () => res()));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Starts a master and `workers` workers (one core and 768 MB each) on 127.0.0.1; resolves once all registered. */
export async function startCluster(spark: SparkEnv, workers = 2): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-spark-cluster-'));
  const procs: ChildProcess[] = [];
  const spawnClass = (args: string[]): ChildProcess => {
    const p = spawn(join(spark.venv, 'bin', 'spark-class'), args, { env: { ...spark.env, SPARK_WORKER_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(p);
    return p;
  };
  const stop = async (): Promise<void> => {
    for (const p of procs.reverse()) await stopProcess(p);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    const master = spawnClass(['org.apache.spark.deploy.master.Master', '--host', '127.0.0.1', '--port', String(port), '--webui-port', String(await freePort())]);
    const registered = waitFor(master, /Registering worker/, workers, 240_000, 'Spark workers registering');
    registered.catch(() => undefined);
    for (let i = 0; i < workers; i++) {
      spawnClass([
        'org.apache.spark.deploy.worker.Worker',
        '--host', '127.0.0.1',
        '--cores', '1',
        '--memory', '768m',
        '--webui-port', String(await freePort()),
        '--work-dir', join(dir, `worker-${i}`),
        `spark://127.0.0.1:${port}`,
      ]);
    }
    await registered;
    return {
      master: `spark://127.0.0.1:${port}`,
      conf: { 'spark.executor.memory': '512m', 'spark.executor.cores': '1', 'spark.ui.enabled': 'false', 'spark.executor.extraJavaOptions': TEST_JVM_OPTIONS },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
