/**
 * `npm test` stays the fast loop: a test file that starts processes (it imports test/cli/gabarit-process.ts)
 * or drives a browser (playwright) belongs to the end-to-end suite, by its folder or its name (test/suites.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEndToEnd, ROOT, suite, testFiles } from './suites.ts';

/** Why a test file's source makes it end to end, or undefined. */
function endToEndReason(source: string): string | undefined {
  if (/from '[^']*gabarit-process\.ts'|import\('[^']*gabarit-process\.ts'\)/.test(source)) return 'starts processes (gabarit-process.ts)';
  if (/from 'playwright[^']*'|import\('playwright[^']*'\)/.test(source)) return 'drives a browser';
  return undefined;
}

test('a test file that starts the command line or a browser is in the end-to-end suite', () => {
  // This file names the imports it looks for, as examples.
  const misplaced = suite('unit').filter((f) => f !== 'test/suites.test.ts').flatMap((f) => {
    const why = endToEndReason(readFileSync(join(ROOT, f), 'utf8'));
    return why === undefined ? [] : [`${f}: ${why}`];
  });
  assert.deepEqual(misplaced, [], `name these files *.e2e.test.ts (or move them to test/cli/), so that \`npm test\` stays fast:\n${misplaced.join('\n')}`);
});

test('the two suites split the test files by folder and name', () => {
  const all = testFiles();
  assert.deepEqual([...suite('unit'), ...suite('e2e')].sort(), all);
  assert.ok(isEndToEnd('test/cli/cli.test.ts') && isEndToEnd('test/wrapper/cli.e2e.test.ts') && isEndToEnd('test/ui/ui.browser.test.ts'));
  assert.ok(!isEndToEnd('test/html/parse.test.ts') && !isEndToEnd('test/clip/x.test.ts'));
  assert.equal(endToEndReason("import { gabarit } from '../cli/gabarit-process.ts';"), 'starts processes (gabarit-process.ts)');
  assert.equal(endToEndReason("const { gabarit } = await import('../cli/gabarit-process.ts');"), 'starts processes (gabarit-process.ts)');
  assert.equal(endToEndReason("import { parseHtml } from '../../src/html/parse.ts';"), undefined);
});
