/**
 * The global options through the command line: --version (and -V) print the package's version. (--json
 * and --quiet are checked with the commands whose output they change.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gabarit, ROOT } from './gabarit-process.ts';

test('--version and -V print the version of package.json, and nothing else', async () => {
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  for (const r of [await gabarit(['--version']), await gabarit(['-V'])]) {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
    assert.equal(r.stderr, '');
  }
});
