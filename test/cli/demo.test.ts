/**
 * `gabarit demo`: the demo of `npm start` from the command line, run from a folder outside the repository
 * (as from an installed package: the demo site and the wrapper demo's files are found beside the code).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, CLI } from './gabarit-process.ts';

test('gabarit demo --out <dir> runs every engine, the wrapper demo and the report from any folder', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-demo-'));
  try {
    const r = await runProcess(process.execPath, [...CLI, 'demo', '--out', 'o'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    for (const name of ['crawl', 'align', 'hyperlink', 'pagelets']) {
      const summary = JSON.parse(await readFile(join(dir, 'o', name, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number };
      assert.ok(summary.pagesDone >= 40, `${name}: ${summary.pagesDone} pages done`);
      assert.equal(summary.pagesFailed, 0, name);
    }
    assert.ok(existsSync(join(dir, 'o', 'align', 'shop', 'cairn-45-backpack.html')), 'the marked pages are written');
    assert.ok(existsSync(join(dir, 'o', 'report', 'index.html')), 'the report is written');
    assert.match(r.stdout, /fields: \d+ right, \d+ refused, 0 wrong/, 'the wrapper demo ran');
    assert.match(r.stdout, /^ {3}gabarit ui \S*examples\/site/m, 'the command that opens the UI on the demo site');
    assert.ok(!existsSync(join(dir, 'out')), 'nothing written outside --out');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
