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
