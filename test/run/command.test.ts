/**
 * A command's run from its flags, through the library alone (src/run/command.ts and each `…Command`): the
 * source opened with the source options, the command's files written, and what the command line names on
 * stderr told to the hooks instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawlCommand, GabaritError, reportCommand, templateCommand, type CommandHooks, type PageFailure } from '../../src/index.ts';
import { CRAWL_OPTIONS, outOptions, REPORT_OPTIONS, SOURCE_OPTIONS } from '../../src/run/options.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-command-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Hooks that keep what they are told. */
function listening(): { hooks: CommandHooks; failures: PageFailure[]; notes: string[]; summaries: [string | null, number][]; stopped: () => number } {
  const failures: PageFailure[] = [];
  const notes: string[] = [];
  const summaries: [string | null, number][] = [];
  let stops = 0;
  const hooks: CommandHooks = {
    failure: (f) => failures.push(f),
    note: (line) => notes.push(line),
    onSummary: (path, done) => summaries.push([path, done]),
    stop: () => void stops++,
  };
  return { hooks, failures, notes, summaries, stopped: () => stops };
}

/** Three pages of one site linking each other, and an empty file (a page that fails). */
async function site(dir: string): Promise<string> {
  const pages = join(dir, 'pages');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(pages);
  const names = ['a', 'b', 'c'];
  for (const n of names) {
    const links = names.filter((m) => m !== n).map((m) => `<a href="${m}.html">${m}</a>`).join(' ');
    await writeFile(join(pages, `${n}.html`), `<html><head><title>${n}</title></head><body><nav>${links}</nav><main><h1>Page ${n}</h1><p>Words of page ${n} only, ${n.repeat(5)}.</p></main></body></html>`);
  }
  await writeFile(join(pages, 'empty.html'), '');
  return pages;
}

test('crawlCommand: the crawl from its flags writes its files, tells the hooks of the failed page, the cap and the summary', async (t) => {
  const dir = await tempDir(t);
  const pages = await site(dir);
  const out = join(dir, 'out');
  const { hooks, failures, notes, summaries, stopped } = listening();
  const { summary, dir: written } = await crawlCommand(pages, { ...SOURCE_OPTIONS.defaults(), ...CRAWL_OPTIONS.defaults(), out }, hooks);
  assert.equal(written, out);
  assert.equal(summary.pagesDone, 3);
  assert.equal(summary.graph.mutualPairs, 3);
  assert.deepEqual(failures.map((f) => f.key), ['empty.html']);
  assert.deepEqual(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')), summary);
  assert.deepEqual(summaries, [[join(out, 'summary.json'), 3]]);
  assert.equal(stopped(), 1);
  assert.deepEqual(notes, []);
  // a cap that leaves pages out is told as the command line names it
  const capped = listening();
  await crawlCommand(pages, { ...SOURCE_OPTIONS.defaults(), ...CRAWL_OPTIONS.defaults(), maxPages: 2, out: join(dir, 'capped') }, capped.hooks);
  assert.equal(capped.notes.length, 1);
  assert.match(capped.notes[0]!, /stopped at the cap of 2 pages \(--max-pages\); 2 pages left unread$/);
});

test('crawlCommand: a signal aborted before the run reads no page and writes summary.json with `interrupted`', async (t) => {
  const dir = await tempDir(t);
  const pages = await site(dir);
  const out = join(dir, 'out');
  const controller = new AbortController();
  controller.abort();
  const interrupted = { signal: 'SIGINT', message: 'interrupted' };
  const { summary } = await crawlCommand(pages, { ...SOURCE_OPTIONS.defaults(), ...CRAWL_OPTIONS.defaults(), out }, { signal: controller.signal, interrupted: () => interrupted });
  assert.equal(summary.pagesDone, 0);
  assert.deepEqual(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).interrupted, interrupted);
});

test('templateCommand writes the output contract; reportCommand with no page is a GabaritError', async (t) => {
  const dir = await tempDir(t);
  const pages = await site(dir);
  const out = join(dir, 'template');
  const { hooks, failures } = listening();
  const { summary } = await templateCommand(pages, { ...SOURCE_OPTIONS.defaults(), method: 'align' }, {}, { out, jsonl: false }, hooks);
  assert.equal(summary.pagesDone, 3);
  assert.deepEqual(failures.map((f) => f.key), ['empty.html']);
  assert.equal(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).source, pages);
  assert.ok((await readFile(join(out, 'a.txt'), 'utf8')).includes('Words of page a only'));
  const empty = join(dir, 'none');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(empty);
  await writeFile(join(empty, 'x.html'), '');
  await assert.rejects(reportCommand(empty, { ...SOURCE_OPTIONS.defaults(), ...REPORT_OPTIONS.defaults(), ...outOptions('report').defaults() }), (err: unknown) => err instanceof GabaritError && /no page processed from/.test(err.message));
});
