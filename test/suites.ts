/**
 * The two test suites, told apart by where a test file lies and how it is named, never by a list:
 *  - end to end (`npm run test:e2e`): the files under test/cli/, test/docs/, test/fuzz/ and test/spark/,
 *    and any file named `*.e2e.test.ts` or `*.browser.test.ts`: tests that start the command line in child
 *    processes, run the documented commands, fuzz, drive a browser, start Spark or read much of the corpus;
 *  - unit and library (`npm test`): every other `*.test.ts`.
 * `node --import tsx test/suites.ts unit|e2e [node --test options…]` runs one suite; test/suites.test.ts
 * checks that a file starting the command line or a browser is in the end-to-end suite. Before the
 * end-to-end suite, the package is built (`npm run build`, into dist/) and its tests run the compiled
 * command line (GABARIT_TEST_CLI=dist, test/cli/gabarit-process.ts); GABARIT_TEST_CLI=source runs the
 * sources through tsx's loader instead, without building.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Folders (relative to the repository) whose tests are all end to end. */
export const E2E_FOLDERS: readonly string[] = ['test/cli/', 'test/docs/', 'test/fuzz/', 'test/spark/'];
/** Names of end-to-end test files anywhere under test/. */
export const E2E_NAME = /\.(e2e|browser)\.test\.ts$/;

/** True when a test file (path relative to the repository, `/`-separated) belongs to the end-to-end suite. */
export function isEndToEnd(path: string): boolean {
  return E2E_NAME.test(path) || E2E_FOLDERS.some((f) => path.startsWith(f));
}

/** Every `*.test.ts` under test/, relative to the repository, sorted. */
export function testFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return walk(path);
      return e.name.endsWith('.test.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
    });
  return walk(join(ROOT, 'test')).sort();
}

/** The files of one suite. */
export function suite(name: 'unit' | 'e2e'): string[] {
  return testFiles().filter((f) => isEndToEnd(f) === (name === 'e2e'));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [name, ...options] = process.argv.slice(2);
  if (name !== 'unit' && name !== 'e2e') {
    process.stderr.write('usage: node --import tsx test/suites.ts unit|e2e [node --test options…]\n');
    process.exit(2);
  }
  const files = suite(name);
  const env = { ...process.env };
  if (name === 'e2e' && env['GABARIT_TEST_CLI'] !== 'source') {
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) {
      process.stderr.write(`npm run build failed (${built.error?.message ?? `exit code ${built.status}`}): the end-to-end tests run the built command line\n`);
      process.exit(1);
    }
    env['GABARIT_TEST_CLI'] = 'dist';
  }
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...options, ...files], { cwd: ROOT, env, stdio: 'inherit' });
  child.on('close', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
}
