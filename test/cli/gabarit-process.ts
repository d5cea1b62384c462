/**
 * Runs the command line as a user does (in a child process), for the tests that check what a command
 * prints and its exit code. The end-to-end suite (test/suites.ts) compiles the package first and sets
 * GABARIT_TEST_CLI=dist: the tests then run bin/gabarit.js, the compiled command line users run, built
 * from the sources of this run (a process started through tsx's loader spends about a second more CPU
 * loading the sources). A test file run alone runs the sources (src/cli/main.ts through tsx's loader),
 * never a build that could be stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The arguments of `node` that start the command line (from any working directory). */
export const CLI: readonly string[] =
  process.env['GABARIT_TEST_CLI'] === 'dist' ? [join(ROOT, 'bin', 'gabarit.js')] : ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', 'cli', 'main.ts')];

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gabarit args…` from the repository root and resolves when it exits. */
export function gabarit(args: readonly string[]): Promise<Ran> {
  return runProcess(process.execPath, [...CLI, ...args], { cwd: ROOT });
}

/** Runs a program, its output collected as text, and resolves when it exits. */
export function runProcess(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A long-running command (`gabarit serve`, `gabarit ui`) started in a child process. */
export interface Serving {
  child: ChildProcess;
  /** The first URL on 127.0.0.1 it printed on stdout. */
  url: string;
  stop(): void;
}

/** Starts `gabarit args…` and resolves once it prints a URL on 127.0.0.1 (rejects when it exits first). */
export function startGabarit(args: readonly string[]): Promise<Serving> {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
      if (m) resolve({ child, url: m[0], stop });
    });
    child.on('exit', (code) => reject(new Error(`gabarit ${args.join(' ')} exited early with ${code}: ${err}`)));
  });
}
