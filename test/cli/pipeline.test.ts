/**
 * `gabarit template` and `gabarit content` over the library's pipelines, as a user runs them: jsonl
 * records on stdout (`--format jsonl --out -`) or in pages.jsonl, and bad options refused with exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSite } from '../run/fixtures.ts';
import { gabarit } from './gabarit-process.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('content --format jsonl --out -: one record per page on stdout, the summary on stderr', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 5);
  const r = await gabarit(['content', join(dir, 'site'), '--format', 'jsonl', '--out', '-', '--method', 'align']);
  assert.equal(r.code, 0, r.stderr);
  const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { key: string; url: string; title: string; text: string; templateFraction: number });
  assert.deepEqual(records.map((x) => x.key).sort(), ['p0.html', 'p1.html', 'p2.html', 'p3.html', 'p4.html']);
  for (const x of records) {
    assert.match(x.text, /Story \d tells of the/);
    assert.doesNotMatch(x.text, /Copyright alpha/);
    assert.match(x.url, /^file:/);
  }
  assert.match(r.stderr, /pages done: 5/);
});

test('template --format jsonl --out DIR: pages.jsonl, template.json and summary.json, no page files', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 4);
  const out = join(dir, 'out');
  const r = await gabarit(['template', join(dir, 'site'), '--format', 'jsonl', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const lines = (await readFile(join(out, 'pages.jsonl'), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 4);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(summary['pagesDone'], 4);
  await assert.rejects(readFile(join(out, 'p0.txt'), 'utf8'), 'no page file in jsonl form');
});

test('bad options and destinations are usage errors (exit 2)', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 3);
  const site = join(dir, 'site');
  for (const args of [
    ['template', site, '--method', 'pagelets', '--backend', 'sqlite'],
    ['template', site, '--method', 'pagelets', '--k', 'three'],
    ['template', site, '--method', 'align', '--min-evidence', '2'],
    ['template', site, '--method', 'align', '--k', '3'],
    ['template', site, '--out', '-'],
    ['content', site, '--format', 'jsonl', '--out', '-', '--json'],
  ]) {
    const r = await gabarit([...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^gabarit: /m);
  }
});
