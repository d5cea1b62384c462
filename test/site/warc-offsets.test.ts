/**
 * A WARC source keeps an index, not the pages: each page is read from its record's offset when loaded (one
 * gzip member per record, or an uncompressed archive); an archive gzipped as one stream is held in memory
 * instead. Both give the same pages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { WarcSource, writeWarc } from '../../src/site/warc-source.ts';

const pages = Array.from({ length: 30 }, (_, i) => ({ key: `a/${i}.html`, body: `<html><body><p>page ${i} ${'word '.repeat(i)}</p></body></html>` }));

async function texts(src: WarcSource): Promise<string[]> {
  const out: string[] = [];
  for await (const r of src.pages()) if (r.ok) out.push(`${r.page.key}:${Buffer.from(r.page.body).toString('utf8')}`);
  return out;
}

test('pages are read from their records (per-record gzip, plain), or held when the archive is one gzip stream', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-warc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeWarc(pages, join(dir, 'a.warc.gz'), { baseUrl: 'https://x.example/' });
  await writeWarc(pages, join(dir, 'a.warc'), { baseUrl: 'https://x.example/' });
  await writeFile(join(dir, 'whole.warc.gz'), gzipSync(await readFile(join(dir, 'a.warc'))));
  const gz = await WarcSource.open(join(dir, 'a.warc.gz'));
  const plain = await WarcSource.open(join(dir, 'a.warc'));
  const whole = await WarcSource.open(join(dir, 'whole.warc.gz'));
  assert.equal(gz.fromOffsets, true);
  assert.equal(plain.fromOffsets, true);
  assert.equal(whole.fromOffsets, false);
  const expected = await texts(gz);
  assert.equal(expected.length, 30);
  assert.deepEqual(await texts(plain), expected);
  assert.deepEqual(await texts(whole), expected);
  assert.match(Buffer.from((await gz.get('https://x.example/a/17.html')).body).toString('utf8'), /page 17 /);
});

/** A gzip member of `data` whose header carries a file name (FNAME), as some tools write them. */
function namedMember(data: Uint8Array, name: string): Buffer {
  const plain = gzipSync(data);
  // gzipSync writes a 10-byte header without fields: set FNAME and insert the name after it
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = 8;
  return Buffer.concat([header, Buffer.from(name + '\0', 'latin1'), plain.subarray(10)]);
}

test('gzip members are split and inflated by zlib whatever their size; an archive it cannot split is read by warcio', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-warc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // incompressible pages: members of 100-300 KB compressed, the archive over the 1 MiB read at a time
  const noise = (i: number, n: number): string => randomBytes(n).toString('base64').replace(/[+/]/g, (c) => (c === '+' ? ' ' : `${i}`));
  const big = Array.from({ length: 12 }, (_, i) => ({ key: `b/${i}.html`, body: `<html><body><p>big ${i} ${noise(i, 75_000 + 10_000 * i)}</p></body></html>` }));
  const all = [...pages, ...big];
  await writeWarc(all, join(dir, 'b.warc.gz'), { baseUrl: 'https://x.example/' });
  await writeWarc(all, join(dir, 'b.warc'), { baseUrl: 'https://x.example/' });
  const gz = await WarcSource.open(join(dir, 'b.warc.gz'));
  const plain = await WarcSource.open(join(dir, 'b.warc'));
  assert.equal(gz.members, true);
  assert.equal(plain.members, false);
  const expected = await texts(plain);
  assert.equal(expected.length, 42);
  assert.deepEqual(await texts(gz), expected);

  // members whose header names a file: split the same
  const chosen = all.slice(25, 35);
  const single = await Promise.all(chosen.map(async (p, i) => {
    const f = join(dir, `one-${i}.warc`);
    await writeWarc([p], f, { baseUrl: 'https://x.example/' });
    return readFile(f);
  }));
  // each file is a warcinfo record and a response: gzip each file's records as one member per record
  const members: Buffer[] = [];
  for (const [i, w] of single.entries()) {
    const at = w.indexOf('WARC/1.1', 8);
    members.push(namedMember(w.subarray(0, at), `info-${i}`), namedMember(w.subarray(at), `page-${i}.warc`));
  }
  await writeFile(join(dir, 'named.warc.gz'), Buffer.concat(members));
  const named = await WarcSource.open(join(dir, 'named.warc.gz'));
  assert.equal(named.members, true);
  assert.deepEqual(await texts(named), expected.filter((e) => chosen.some((p) => e.startsWith(`${p.key}:`))));

  // each record split over two members (not as WARC writers do, but valid gzip): read by warcio, whole
  const plainBytes = await readFile(join(dir, 'b.warc'));
  const starts: number[] = [];
  for (let p = plainBytes.indexOf('WARC/1.1\r\n'); p >= 0; p = plainBytes.indexOf('WARC/1.1\r\n', p + 1)) starts.push(p);
  starts.push(plainBytes.length);
  const halves: Buffer[] = [];
  for (let k = 0; k + 1 < starts.length; k++) {
    const mid = Math.floor((starts[k]! + starts[k + 1]!) / 2);
    halves.push(gzipSync(plainBytes.subarray(starts[k]!, mid)), gzipSync(plainBytes.subarray(mid, starts[k + 1]!)));
  }
  await writeFile(join(dir, 'halves.warc.gz'), Buffer.concat(halves));
  const split = await WarcSource.open(join(dir, 'halves.warc.gz'));
  assert.equal(split.members, false);
  assert.deepEqual(await texts(split), expected);

  // pages over the size cap fail by name, the others are read; a member inflating far past the cap (a
  // small member of a huge page) is not inflated whole: warcio reads that archive, stopping at the cap
  const outcome = async (src: WarcSource): Promise<{ ok: number; failed: string[] }> => {
    const failed: string[] = [];
    let ok = 0;
    for await (const r of src.pages()) {
      if (r.ok) ok++;
      else failed.push(`${r.url} ${r.error.code}`);
    }
    return { ok, failed };
  };
  const capped = await outcome(await WarcSource.open(join(dir, 'b.warc.gz'), { maxBytes: 150_000 }));
  // page b/i holds 4/3 × (75,000 + 10,000 i) characters of noise: over 150,000 from b/4
  assert.deepEqual(capped.failed, ['b/10', 'b/11', 'b/4', 'b/5', 'b/6', 'b/7', 'b/8', 'b/9'].map((k) => `https://x.example/${k}.html too-large`));
  assert.equal(capped.ok, 34);
  await writeWarc([...pages, { key: 'huge.html', body: `<html><body><p>${'huge '.repeat(600_000)}</p></body></html>` }], join(dir, 'huge.warc.gz'), { baseUrl: 'https://x.example/' });
  const hugeSource = await WarcSource.open(join(dir, 'huge.warc.gz'), { maxBytes: 100_000 });
  assert.equal(hugeSource.members, false);
  assert.deepEqual(await outcome(hugeSource), { ok: 30, failed: ['https://x.example/huge.html too-large'] });

  // an archive cut short (a crawl stopped while writing): the pages before the cut are read, the page whose
  // record it cuts fails by name (warcio left such a page out without a word, or, with these large records,
  // never returned from opening the archive)
  const whole = await readFile(join(dir, 'b.warc.gz'));
  for (const short of [4, 40, 40_000]) {
    await writeFile(join(dir, 'cut.warc.gz'), whole.subarray(0, whole.length - short));
    const cut = await WarcSource.open(join(dir, 'cut.warc.gz'));
    assert.equal(cut.members, true);
    const got = await outcome(cut);
    assert.equal(got.ok, 41);
    assert.deepEqual(got.failed, ['https://x.example/b/11.html read-error']);
    await assert.rejects(cut.get('b/11.html'), /ends inside its record \(the file is cut/);
  }
});

/** A WARC record of `type` (with its URL, when given) around `block`, uncompressed. */
function warcRecord(type: string, url: string | undefined, block: Buffer, n: number, extra = ''): Buffer {
  const head = `WARC/1.1\r\nWARC-Type: ${type}\r\n${url ? `WARC-Target-URI: ${url}\r\n` : ''}WARC-Date: 2024-01-01T00:00:00Z\r\n` +
    `WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}>\r\n${extra}Content-Length: ${block.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), block, Buffer.from('\r\n\r\n')]);
}

/** One WARC response record around an HTTP message, as its own gzip member. */
const responseMember = (url: string, http: Buffer, n: number): Buffer => gzipSync(warcRecord('response', url, http, n, 'Content-Type: application/http; msgtype=response\r\n'));

test('a payload read from its offset is the decoded one, whatever the HTTP message: plain, chunked, gzip-encoded, headers ending in bare line feeds', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-warc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const html = (i: number): string => `<html><body><p>page ${i}</p>\r\n\r\n<p>after a blank line</p></body></html>`;
  const type = 'Content-Type: text/html; charset=utf-8';
  const chunked = (s: string): string => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n0\r\n\r\n`;
  const messages: Buffer[] = [
    Buffer.from(`HTTP/1.1 200 OK\r\n${type}\r\n\r\n${html(0)}`),
    Buffer.from(`HTTP/1.1 200 OK\r\n${type}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(html(1))}`),
    Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${type}\r\nContent-Encoding: gzip\r\n\r\n`), gzipSync(html(2))]),
    // a blank line of bare line feeds ends the headers; the CRLF CRLF in the page is not their end
    Buffer.from(`HTTP/1.1 200 OK\n${type}\n\n${html(3)}`),
  ];
  const file = join(dir, 'kinds.warc.gz');
  await writeFile(file, Buffer.concat(messages.map((m, i) => responseMember(`https://x.example/p${i}.html`, m, i))));
  const src = await WarcSource.open(file);
  assert.equal(src.fromOffsets, true);
  for (let i = 0; i < messages.length; i++) {
    assert.equal(Buffer.from((await src.get(`https://x.example/p${i}.html`)).body).toString('utf8'), html(i), `record ${i}`);
  }
});

test('records indexed from their headers give what warcio gives, whatever the headers', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-warc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const html = (s: string): string => `<html><body><p>${s}</p></body></html>`;
  const http = (head: string, body: string | Buffer): Buffer => Buffer.concat([Buffer.from(`${head.replace(/\n/g, '\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)]);
  const response = 'Content-Type: application/http; msgtype=response\r\n';
  const u = (p: string): string => `https://x.example/${p}`;
  const records: Array<[string, string | undefined, Buffer, string?]> = [
    ['response', u('plain.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\nServer: test\nX-A: one\nx-a: two\nSet-Cookie: a=1\nSet-Cookie: b=2', html('plain')), response],
    ['response', u('spaces.html'), http('HTTP/1.1 200 OK\nCONTENT-TYPE:text/html   \nX-Pad:  \t padded value \t', html('spaces')), response],
    ['response', `<${u('angle.html')}>`, http('HTTP/1.0 200\nContent-Type: text/html', html('angle')), response],
    ['response', u('moved.html'), http('HTTP/1.1 301 Moved\nContent-Type: text/html\nLocation: /plain.html', html('moved')), response],
    ['response', u('gone.html'), http('HTTP/1.1 404 Not Found\nContent-Type: text/html', html('gone')), response],
    ['response', u('error.html'), http('HTTP/1.1 503 Busy\nContent-Type: text/html', html('error')), response],
    ['response', u('image.png'), http('HTTP/1.1 200 OK\nContent-Type: image/png', randomBytes(300)), response],
    ['response', u('untyped.html'), http('HTTP/1.1 200 OK\nServer: test', html('sniffed')), response],
    ['response', u('untyped.bin'), http('HTTP/1.1 200 OK\nServer: test', Buffer.from([0, 1, 2, 3, 0, 0, 255])), response],
    ['resource', u('resource.html'), Buffer.from(html('resource')), 'Content-Type: text/html\r\n'],
    ['request', u('plain.html'), Buffer.from('GET /plain.html HTTP/1.1\r\nHost: x.example\r\n\r\n'), 'Content-Type: application/http; msgtype=request\r\n'],
    ['metadata', u('plain.html'), Buffer.from('via: https://x.example/\r\n'), 'Content-Type: application/warc-fields\r\n'],
    ['revisit', u('plain.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html', ''), response],
    ['response', u('folded.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html\nX-Long: first\n  second', html('folded')), response],
    ['response', u('empty.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html\nX-Empty:', html('empty value')), response],
    ['response', u('utf8.html'), Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Name: '), Buffer.from('café', 'utf8'), Buffer.from('\r\n\r\n'), Buffer.from(html('utf-8 header'))]), response],
    ['response', u('big.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html', html('big '.repeat(400))), response],
    ['response', u('plain.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html', html('second copy')), response],
    ['response', u('encoded.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Encoding: gzip', gzipSync(html('encoded'))), response],
    ['response', undefined, http('HTTP/1.1 200 OK\nContent-Type: text/html', html('no URL')), response],
  ];
  const raw = records.map(([type, url, block, extra], i) => warcRecord(type, url, block, i, extra ?? ''));
  // WARC field names in another case, and a target URI with space around it
  raw.push(Buffer.from(warcRecord('response', u('cased.html'), http('HTTP/1.1 200 OK\nContent-Type: text/html', html('cased')), 99, response).toString('latin1').replace('WARC-Type:', 'warc-type:').replace(`WARC-Target-URI: ${u('cased.html')}`, `Warc-Target-Uri:   ${u('cased.html')}  `), 'latin1'));
  await writeFile(join(dir, 'kinds.warc'), Buffer.concat(raw));
  await writeFile(join(dir, 'kinds.warc.gz'), Buffer.concat(raw.map((r) => gzipSync(r))));
  const outcome = async (file: string): Promise<unknown> => {
    const src = await WarcSource.open(file, { maxBytes: 1000, root: 'https://x.example/' });
    const pages: unknown[] = [];
    for await (const r of src.pages()) pages.push(r.ok ? [r.page.key, r.page.status, r.page.headers, Buffer.from(r.page.body).toString('latin1')] : [r.url, r.error.code, r.error.message]);
    return { members: src.members, skipped: src.skipped, pages };
  };
  const gz = (await outcome(join(dir, 'kinds.warc.gz'))) as { members: boolean; pages: unknown[] };
  const plain = (await outcome(join(dir, 'kinds.warc'))) as { members: boolean; pages: unknown[] };
  assert.equal(gz.members, true);
  assert.equal(plain.members, false);
  assert.deepEqual({ ...gz, members: false }, plain);
  // the records that are pages: plain, spaces, angle, gone, error, untyped.html, resource, folded, empty, utf8, big, encoded, cased
  assert.equal(gz.pages.length, 13);
});
