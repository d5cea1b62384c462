/**
 * How the pagelets worker threads find their code: the compiled worker.js beside the compiled module, or
 * worker.ts through tsx's loader when running from the sources, whatever the working directory. (The
 * compiled case run for real, from an installed package, is in test/package/.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workerStart } from '../../../src/template/pagelets/workers.ts';
import { runProcess } from '../../cli/gabarit-process.ts';

test('compiled, a worker runs worker.js beside the module that starts it', () => {
  const start = workerStart('file:///opt/pkg/dist/template/pagelets/workers.js');
  assert.equal(start.eval, false);
  assert.equal(String(start.script), 'file:///opt/pkg/dist/template/pagelets/worker.js');
});

test('from the sources, the bootstrap loads tsx and worker.ts by absolute URL (not from the working directory)', () => {
  const start = workerStart(new URL('../../../src/template/pagelets/workers.ts', import.meta.url).href);
  assert.equal(start.eval, true);
  const urls = [...String(start.script).matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1]!);
  assert.equal(urls.length, 2);
  assert.match(urls[0]!, /^file:\/\/.*\/node_modules\/tsx\//);
  assert.equal(urls[1], new URL('../../../src/template/pagelets/worker.ts', import.meta.url).href);
});

test('from the sources, started in another folder, a pool of workers analyses a page', async (t) => {
  const cwd = await mkdtemp(join(tmpdir(), 'gabarit-workers-'));
  t.after(() => rm(cwd, { recursive: true, force: true }));
  // As a program run from the sources does: tsx registered in the main thread only (no --import flag
  // for workers to inherit), then the pool started from a folder with no node_modules.
  const tsx = import.meta.resolve('tsx/esm/api');
  const workers = new URL('../../../src/template/pagelets/workers.ts', import.meta.url).href;
  const script = `
    const { register } = await import(${JSON.stringify(tsx)});
    register();
    const { PageletPool } = await import(${JSON.stringify(workers)});
    const pool = new PageletPool(1);
    const body = new TextEncoder().encode('<html><body><nav><a href="/a">A</a></nav><p>words</p></body></html>');
    const batch = await pool.analyse([{ body, contentType: undefined, key: 'k.html', url: 'http://s.test/k.html' }], {});
    await pool.close();
    process.stdout.write(JSON.stringify({ count: batch.count, error: batch.error }));
  `;
  const out = await runProcess(process.execPath, ['--input-type=module', '-e', script], { cwd, env: { ...process.env, NODE_OPTIONS: '' } });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), { count: 1, error: [null] });
});
