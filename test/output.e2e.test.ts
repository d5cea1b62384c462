/**
 * The output contract's file names (src/output.ts, docs/output.md): every page key, however odd its URL,
 * maps to a file name that common file systems accept, inside the output directory; distinct keys get
 * distinct names; a page whose files cannot be written is a named failure and the others are written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHtml } from '../src/html/parse.ts';
import { MAX_SEGMENT_BYTES, OutputWriter, pageStem } from '../src/output.ts';
import { writeWarc } from '../src/site/warc-source.ts';
import { gabarit } from './cli/gabarit-process.ts';

/** What no file name may hold on Linux, macOS or Windows. */
function assertPortable(stem: string, key: string): void {
  assert.ok(!stem.startsWith('/'), `${JSON.stringify(key)} → ${stem}: absolute`);
  for (const seg of stem.split('/')) {
    assert.ok(seg !== '' && seg !== '.' && seg !== '..', `${JSON.stringify(key)} → ${stem}: segment ${JSON.stringify(seg)}`);
    assert.doesNotMatch(seg, /[\u0000-\u001f\u007f<>:"\\|?*]/, `${JSON.stringify(key)} → ${stem}: unsafe character`);
    assert.doesNotMatch(seg, /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i, `${JSON.stringify(key)} → ${stem}: Windows device name`);
    assert.doesNotMatch(seg, /[. ]$/, `${JSON.stringify(key)} → ${stem}: ends with a dot or space`);
    assert.ok(Buffer.byteLength(seg) <= MAX_SEGMENT_BYTES, `${JSON.stringify(key)} → ${stem}: segment of ${Buffer.byteLength(seg)} bytes`);
  }
}

test('pageStem keeps ordinary keys as they were', () => {
  assert.equal(pageStem('index.html'), 'index');
  assert.equal(pageStem('a/b.html'), 'a/b');
  assert.equal(pageStem('a/'), 'a/index');
  assert.equal(pageStem(''), 'index');
  assert.equal(pageStem('/docs/x.xhtml'), 'docs/x');
  assert.equal(pageStem('docs/category/系统介绍.html'), 'docs/category/系统介绍');
  assert.equal(pageStem('a/./b.htm'), 'a/b');
  assert.equal(pageStem('notes'), 'notes');
});

test('pageStem maps odd keys to safe, distinct names with a short hash', () => {
  const long = 'x'.repeat(300);
  const keys = [
    'bad\u0000name.html', 'bad\u0001name.html', `${long}.html`, `${long}y.html`, `dir/${long}/p.html`, 'con.html', 'CON', 'aux.txt.html',
    'lpt1/x.html', 'trailing./x.html', 'trailing /x.html', 'a/../b.html', '../../etc/passwd', 'q.html?y=1', 'q.html?y=2',
    `q.html?${'y=1&'.repeat(500)}`, 'a:b|c*d"e<f>g.html', 'back\\slash.html', `${'seg/'.repeat(400)}p.html`,
    `${'é'.repeat(200)}.html`, 'search?q=a/b', 'ok.html',
  ];
  const stems = keys.map((k) => pageStem(k));
  keys.forEach((k, i) => assertPortable(stems[i]!, k));
  assert.equal(new Set(stems).size, stems.length, `distinct keys, distinct names: ${stems.join(' | ')}`);
  assert.match(pageStem('bad\u0000name.html'), /^bad_name~[0-9a-f]{8}$/);
  assert.match(pageStem('con.html'), /^_con~[0-9a-f]{8}$/);
  assert.match(pageStem('q.html?y=1'), /^q_y=1~[0-9a-f]{8}$/);
  assert.equal(pageStem('q.html?y=1'), pageStem('q.html?y=1'), 'stable');
  assert.ok(Buffer.byteLength(pageStem(`${'seg/'.repeat(400)}p.html`)) <= 1000);
});

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-output-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a page whose files cannot be written is a named failure; the other pages are written', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'blocked'), 'a file where a folder should be');
  const named: string[] = [];
  const writer = new OutputWriter(dir, { onFailure: (f) => named.push(f.key) });
  const tree = parseHtml('<html><head><title>t</title></head><body><nav>menu</nav><p>text</p></body></html>');
  const template = new Uint8Array(tree.size);
  const bad = await writer.writePage({ key: 'blocked/page.html', url: 'http://x.test/blocked/page.html', tree, template });
  const good = await writer.writePage({ key: 'page.html', url: 'http://x.test/page.html', tree, template });
  assert.equal(bad, undefined);
  assert.ok(good);
  assert.deepEqual(named, ['blocked/page.html']);
  assert.equal(writer.failed[0]!.code, 'write-error');
  assert.match(writer.failed[0]!.message, /blocked\/page\.html/);
  assert.equal(await readFile(join(dir, 'page.txt'), 'utf8'), 'menu\ntext\n');
  const summary = await writer.finish({ command: 'test', source: 'x', pagesLoaded: 0, timings: {} });
  assert.equal(summary.pagesDone, 1);
  assert.equal(summary.pagesFailed, 1);
});

test('<page>.html carries the overlay style, so any site shows its marks', async (t) => {
  const dir = await tempDir(t);
  const writer = new OutputWriter(dir);
  const tree = parseHtml('<!DOCTYPE html><html><head><title>t</title></head><body><nav>menu</nav><p>text</p></body></html>');
  const template = new Uint8Array(tree.size);
  template[tree.find('nav')] = 1;
  await writer.writePage({ key: 'p.html', url: 'http://x.test/p.html', tree, template });
  const html = await readFile(join(dir, 'p.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html><html><head><style data-gabarit-overlay>\[data-gabarit="template"\]\{[^}]*opacity/);
  assert.match(html, /<nav data-gabarit="template">menu<\/nav>/);
  const again = parseHtml(html);
  assert.equal(again.find('style') > again.find('head'), true, 'the style is inside the head');
  // a page without a head gets it too
  const bare = parseHtml('<p>text</p>');
  await writer.writePage({ key: 'bare.html', url: 'http://x.test/bare.html', tree: bare, template: new Uint8Array(bare.size) });
  assert.match(await readFile(join(dir, 'bare.html'), 'utf8'), /^<style data-gabarit-overlay>/);
});

/** A small site whose links and pages have odd URLs: a NUL byte, a 300-byte segment, a device name, a long query. */
async function writeOddWarc(file: string): Promise<void> {
  const page = (title: string, links = ''): string =>
    `<html><head><title>${title}</title></head><body><nav><a href="index.html">Home</a> <a href="a.html">A</a> ${links}</nav>` +
    `<main><h1>${title}</h1><p>Some text about ${title}, long enough to be content.</p></main><footer>Footer text</footer></body></html>`;
  const long = 'x'.repeat(300);
  await writeWarc(
    [
      { key: 'index.html', body: page('Home', `<a href="bad%00name.html">nul</a> <a href="${long}.html">long</a> <a href="con.html">con</a>`) },
      { key: 'a.html', body: page('A') },
      { key: 'bad%00name.html', url: 'http://odd.test/bad%00name.html', body: page('Nul') },
      { key: `${long}.html`, body: page('Long') },
      { key: 'con.html', body: page('Con') },
      { key: 'q.html', url: `http://odd.test/q.html?${'y=1&'.repeat(200)}`, body: page('Query') },
    ],
    file,
    { baseUrl: 'http://odd.test/' },
  );
}

for (const command of ['template', 'content']) {
  test(`${command} on pages with odd URLs writes every page and summary.json (exit 0)`, async (t) => {
    const dir = await tempDir(t);
    const warc = join(dir, 'odd.warc');
    await writeOddWarc(warc);
    const out = join(dir, 'out');
    const r = await gabarit([command, warc, '--out', out, '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, 'no stack trace');
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number };
    assert.equal(summary.pagesDone, 6);
    assert.equal(summary.pagesFailed, 0);
    const files = (await readdir(out)).filter((f) => f.endsWith('.txt'));
    assert.equal(files.length, 6, files.join(' '));
    for (const f of files) assertPortable(f.slice(0, -'.txt'.length), f);
    assert.ok(files.some((f) => /^bad_name~[0-9a-f]{8}\.txt$/.test(f)), files.join(' '));
  });
}
