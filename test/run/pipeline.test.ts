/**
 * The library's pipelines (src/run/): detectTemplate and extractContent as async iterables over a
 * source, writeOutputs in both forms (the output contract's files, and jsonl records with the same text),
 * and options validated by the library itself (a bad option is an error, never a silent default).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { EngineError } from '../../src/errors.ts';
import { extractContent } from '../../src/run/content.ts';
import { detectTemplate } from '../../src/run/template.ts';
import { writeOutputs, type PageRecord } from '../../src/run/write.ts';
import { keptText } from '../../src/template/result.ts';
import { memorySite, writeSite } from './fixtures.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

for (const method of ['align', 'hyperlink', 'pagelets'] as const) {
  test(`detectTemplate (${method}): every page once, menu and footer template, the article kept`, async () => {
    const run = detectTemplate(memorySite(6), { method, ...(method === 'pagelets' ? { workers: 0 } : {}) });
    const keys: string[] = [];
    for await (const o of run) {
      assert.ok(o.ok, `${o.key} failed`);
      keys.push(o.key);
      const text = keptText(o.marks);
      assert.match(text, /Story \d tells of the/, `${method} ${o.key}: the article is kept`);
      assert.doesNotMatch(text, /Copyright alpha/, `${method} ${o.key}: the footer is template`);
      assert.equal(o.noContent, undefined);
    }
    assert.deepEqual(keys.sort(), ['p0.html', 'p1.html', 'p2.html', 'p3.html', 'p4.html', 'p5.html']);
    const r = await run.result();
    assert.equal(r.method, method);
    assert.equal(r.pagesDone, 6);
    assert.equal(r.pagesFailed, 0);
    assert.equal(r.error, undefined);
    assert.ok(r.template !== null);
  });
}

test('a bad option is an error from the library, at once: unknown method, unknown option, bad values', () => {
  const site = memorySite(2);
  const bad = (o: Record<string, unknown>, re: RegExp): void =>
    assert.throws(() => detectTemplate(site, o as never), (e: unknown) => e instanceof EngineError && e.code === 'bad-option' && re.test(e.message));
  bad({ method: 'nope' }, /unknown method "nope"/);
  bad({ method: 'align', smaple: 3 }, /unknown option "smaple"/);
  bad({ method: 'align', sample: 0 }, /sample .*at least 1/);
  bad({ method: 'pagelets', backend: 'sqlite' }, /backend/);
  bad({ method: 'pagelets', k: Number.NaN }, /option k /);
  bad({ method: 'pagelets', minSupport: 2 }, /minSupport/);
  bad({ method: 'hyperlink', linkOrder: 'random' }, /linkOrder/);
  assert.throws(() => extractContent(site, { mainBlock: 'sometimes' as never }), (e: unknown) => e instanceof EngineError && e.code === 'bad-option');
});

test('writeOutputs: the files of the output contract, and jsonl records with the same text', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 5);
  const files = await writeOutputs(detectTemplate(join(dir, 'site'), { method: 'align' }), { out: join(dir, 'files') });
  assert.equal(files.summary.pagesDone, 5);
  assert.equal(files.summary.pages?.length, 5);
  const template = JSON.parse(await readFile(join(dir, 'files', 'template.json'), 'utf8')) as { method: string };
  assert.equal(template.method, 'align');
  const jsonl = await writeOutputs(detectTemplate(join(dir, 'site'), { method: 'align' }), { out: join(dir, 'jsonl'), format: 'jsonl' });
  assert.equal(jsonl.summary.pagesDone, 5);
  assert.equal(jsonl.summary.pages, undefined, 'jsonl summary has no per-page list');
  const lines = (await readFile(join(dir, 'jsonl', 'pages.jsonl'), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 5);
  for (const line of lines) {
    const r = JSON.parse(line) as PageRecord;
    const txt = await readFile(join(dir, 'files', r.key.replace(/\.html$/, '.txt')), 'utf8');
    assert.equal(r.text + '\n', txt, `${r.key}: same kept text in both forms`);
    assert.match(r.title ?? '', /alpha page \d/);
    assert.ok(typeof r.templateFraction === 'number' && r.templateFraction > 0 && r.templateFraction < 1);
  }
  const summary = JSON.parse(await readFile(join(dir, 'jsonl', 'summary.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(summary['pagesDone'], 5);
  assert.equal(summary['pagesNoContent'], 0);
});

test('writeOutputs to a stream: one record per line, failures as records', async () => {
  const stream = new PassThrough();
  let out = '';
  stream.setEncoding('utf8').on('data', (d: string) => (out += d));
  const { MemorySource } = await import('../../src/site/memory-source.ts');
  const site = memorySite(4);
  const pages = [...(await Promise.all(['p0.html', 'p1.html', 'p2.html', 'p3.html'].map((k) => site.get(k))))].map((p) => ({ key: p.key, body: p.body }));
  const src = new MemorySource([...pages, { key: 'empty.html', body: '' }]);
  const { summary } = await writeOutputs(extractContent(src, { method: 'align' }), { out: stream, format: 'jsonl' });
  const records = out.trim().split('\n').map((l) => JSON.parse(l) as PageRecord);
  assert.equal(records.length, 5);
  assert.equal(records.filter((r) => r.failure).length, 1);
  assert.equal(records.find((r) => r.failure)?.key, 'empty.html');
  assert.equal(summary.pagesDone, 4);
  assert.equal(summary.pagesFailed, 1);
  for (const r of records.filter((x) => !x.failure)) assert.match(r.text ?? '', /Story \d tells/);
});

test('a WARC of a few thousand pages to jsonl: read record by record from the archive, one record per page', async (t) => {
  const dir = await tempDir(t);
  const { writeWarc, WarcSource } = await import('../../src/site/warc-source.ts');
  const { sitePage } = await import('./fixtures.ts');
  const n = 2500;
  const file = join(dir, 'crawl.warc.gz');
  await writeWarc((function* () {
    for (let i = 0; i < n; i++) yield { key: `p/${i}.html`, body: sitePage('alpha', i, 6) };
  })(), file, { baseUrl: 'https://alpha.example/' });
  const source = await WarcSource.open(file);
  assert.equal(source.fromOffsets, true, 'pages are read from their records, not held');
  const stream = new PassThrough();
  let lines = 0;
  let last = '';
  stream.setEncoding('utf8').on('data', (d: string) => {
    for (const c of d) if (c === '\n') lines++;
    last = d;
  });
  const { summary } = await writeOutputs(extractContent(source), { out: stream, format: 'jsonl' });
  await source.close();
  assert.equal(summary.pagesDone, n);
  assert.equal(lines, n);
  assert.match(last, /"text":"[^"]*Story \d+ tells of the/);
});

test('pages rendered without their tree (pagelets on large runs) are written as the others, jsonl too', async (t) => {
  const dir = await tempDir(t);
  await writeSite(join(dir, 'site'), 6);
  const site = join(dir, 'site');
  const trees = await writeOutputs(detectTemplate(site, { method: 'pagelets', workers: 0 }), { out: join(dir, 'trees') });
  let rendered = 0;
  const run = detectTemplate(site, { method: 'pagelets', workers: 0, keepTreesUpTo: 0, rendered: true });
  const files = await writeOutputs(run, { out: join(dir, 'rendered'), onPage: (p) => void (rendered += 'rendered' in p ? 1 : 0) });
  assert.ok(rendered > 0, 'the engine rendered pages');
  assert.equal(files.summary.pagesDone, trees.summary.pagesDone);
  for (let i = 0; i < 6; i++) assert.equal(await readFile(join(dir, 'rendered', `p${i}.txt`), 'utf8'), await readFile(join(dir, 'trees', `p${i}.txt`), 'utf8'), `p${i}`);
  await writeOutputs(detectTemplate(site, { method: 'pagelets', workers: 0, keepTreesUpTo: 0, rendered: true }), { out: join(dir, 'jsonl'), format: 'jsonl' });
  const rec = JSON.parse((await readFile(join(dir, 'jsonl', 'pages.jsonl'), 'utf8')).split('\n')[0]!) as PageRecord;
  assert.equal(rec.text + '\n', await readFile(join(dir, 'trees', rec.key.replace(/\.html$/, '.txt')), 'utf8'));
  assert.match(rec.title ?? '', /alpha page \d/);
  // jsonl needs no page file: pass 1 records the text and title only (`textOnly`), to the same lines
  let textOnly = 0;
  await writeOutputs(detectTemplate(site, { method: 'pagelets', workers: 0, keepTreesUpTo: 0, rendered: true, textOnly: true }), {
    out: join(dir, 'jsonl-text'),
    format: 'jsonl',
    onPage: (p) => void (textOnly += 'rendered' in p && p.rendered.html === '' ? 1 : 0),
  });
  assert.equal(textOnly, 6, 'every page rendered from a text record');
  assert.equal(await readFile(join(dir, 'jsonl-text', 'pages.jsonl'), 'utf8'), await readFile(join(dir, 'jsonl', 'pages.jsonl'), 'utf8'));
});

test('a library caller is told each page warning once, whatever engine and thread handle the page (content, template)', async (t) => {
  const dir = await tempDir(t);
  const site = join(dir, 'site');
  await writeSite(site, 80);
  // p3 (marked on the main thread) and p75 (in a worker once the pool starts) declare ISO-8859-1 and hold UTF-8 bytes.
  const { readFile: read, writeFile: write } = await import('node:fs/promises');
  for (const i of [3, 75]) {
    const path = join(site, `p${i}.html`);
    await write(path, (await read(path, 'utf8')).replace('<head>', '<head><meta charset="iso-8859-1">').replace('</h1>', ' — crème brûlée</h1>'), 'utf8');
  }
  for (const [name, start] of [
    ['content', (warn: (m: string) => void) => extractContent(site, { method: 'align', workers: 2, onWarning: warn })],
    ['template', (warn: (m: string) => void) => detectTemplate(site, { method: 'align', workers: 2, onWarning: warn })],
    ['template -m hyperlink', (warn: (m: string) => void) => detectTemplate(site, { method: 'hyperlink', key: 'p0.html', workers: 2, onWarning: warn })],
    ['template -m pagelets', (warn: (m: string) => void) => detectTemplate(site, { method: 'pagelets', workers: 2, onWarning: warn })],
  ] as const) {
    const warnings: string[] = [];
    let pages = 0;
    for await (const o of start((m) => warnings.push(m))) if (o.ok) pages++;
    assert.equal(pages, 80, name);
    for (const i of [3, 75]) assert.equal(warnings.filter((w) => w.includes(`p${i}.html`) && /declares windows-1252/.test(w)).length, 1, `${name}: p${i}: ${warnings.join(' | ')}`);
  }
});
