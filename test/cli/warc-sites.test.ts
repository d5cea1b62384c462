/**
 * A WARC archive of several sites (what a crawl of the web writes) through the command line: `shards run`
 * and `content` on it give, page by page, what they give on one archive per site (content learns each
 * site apart); a glob of one-site archives of different sites reads as one source of several. Keys are `host/path` (`host_port/path` on a port other
 * than the scheme's), each page keeping its URL; a second response of a URL under the other scheme is not
 * a second page.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeWarc, type WarcPage } from '../../src/site/warc-source.ts';
import { newsroom, shop } from '../fixtures/synthetic-sites.ts';
import { gabarit, type Ran } from './gabarit-process.ts';

let dir = '';
const path = (...p: string[]): string => join(dir, ...p);
const SHOP = 'https://shop.example/';
const NEWS = 'http://news.example:8080/';

async function ok(args: readonly string[]): Promise<Ran> {
  const r = await gabarit(args);
  assert.equal(r.code, 0, `gabarit ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r;
}

interface Line {
  url: string;
  key: string;
  title: string;
  text: string;
  templateFraction: number;
}
const lines = (file: string): Line[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);

interface Summary {
  method: string;
  pagesFailed: number;
  pages: Array<{ key: string; url: string; templateFraction: number }>;
}
const summary = (out: string): Summary => JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gabarit-warc-sites-'));
  const s = shop();
  const n = newsroom();
  const pages: WarcPage[] = [
    ...[...s.files].map(([key, body]) => ({ key, url: SHOP + key, body })),
    ...[...n.files].map(([key, body]) => ({ key, url: NEWS + key, body })),
    // the shop's home again, over http: the first response of that page wins
    { key: 'index.html', url: 'http://shop.example/index.html', body: '<html><body><p>an older copy</p></body></html>' },
  ];
  await writeWarc(pages, path('web.warc.gz'), { baseUrl: SHOP });
  mkdirSync(path('parts'));
  await writeWarc([...s.files].map(([key, body]) => ({ key, body })), path('parts', 'shop.warc.gz'), { baseUrl: SHOP });
  await writeWarc([...n.files].map(([key, body]) => ({ key, body })), path('parts', 'news.warc.gz'), { baseUrl: NEWS });
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('shards run on an archive of two sites: each page as the runs on one archive per site give it, keyed host/path', async () => {
  await ok(['shards', 'run', path('web.warc.gz'), '--work', path('w1'), '--out', path('o1'), '-f', 'jsonl']);
  await ok(['shards', 'run', path('parts', 'shop.warc.gz'), path('parts', 'news.warc.gz'), '--work', path('w2'), '--out', path('o2'), '-f', 'jsonl']);
  const one = lines(path('o1', 'pages.jsonl'));
  const apart = [...lines(path('o2', 'shop.warc.gz', 'pages.jsonl')), ...lines(path('o2', 'news.warc.gz', 'pages.jsonl'))];
  assert.equal(one.length, shop().files.size + newsroom().files.size);
  assert.equal(one.length, apart.length);
  const byUrl = new Map(one.map((l) => [l.url, l]));
  for (const l of apart) {
    const got = byUrl.get(l.url);
    assert.ok(got, `${l.url} missing from the run on the archive of two sites`);
    assert.equal(got.key, l.url.startsWith(SHOP) ? `shop.example/${l.key}` : `news.example_8080/${l.key}`);
    assert.deepEqual([got.title, got.text, got.templateFraction], [l.title, l.text, l.templateFraction], l.url);
  }
  // the template found is not nothing: most pages of both sites have some of their text in it
  for (const origin of [SHOP, NEWS]) {
    const of = one.filter((l) => l.url.startsWith(origin));
    assert.ok(of.filter((l) => l.templateFraction > 0).length > of.length / 2, `${origin}: pages with template ${of.filter((l) => l.templateFraction > 0).length} of ${of.length}`);
  }
  assert.doesNotMatch(byUrl.get(`${SHOP}index.html`)!.text, /an older copy/);
});

test('content on an archive of two sites learns each site apart: each page as content on its site\'s archive alone gives it', async () => {
  const r = await ok(['content', path('web.warc.gz'), '--out', path('o3')]);
  assert.match(r.stdout + r.stderr, /2 sites: a template learned on 2/);
  await ok(['content', path('parts', 'shop.warc.gz'), '--out', path('o4')]);
  await ok(['content', path('parts', 'news.warc.gz'), '--out', path('o5')]);
  const both = summary(path('o3'));
  assert.equal(both.pagesFailed, 0);
  const alone = [...summary(path('o4')).pages, ...summary(path('o5')).pages];
  assert.equal(both.pages.length, alone.length);
  const byUrl = new Map(both.pages.map((p) => [p.url, p]));
  for (const p of alone) assert.equal(byUrl.get(p.url)?.templateFraction, p.templateFraction, p.url);
  assert.equal(byUrl.get(`${NEWS}index.html`)?.key, 'news.example_8080/index.html');
});

test('a glob of archives of different sites is one source of several: the same pages and keys as one archive holding both', async () => {
  await ok(['content', path('parts', '*.warc.gz'), '--out', path('o6')]);
  const glob = summary(path('o6'));
  const one = summary(path('o3'));
  const keyed = (s: Summary): string[] => s.pages.map((p) => `${p.key} ${p.url} ${p.templateFraction}`).sort();
  assert.deepEqual(keyed(glob), keyed(one));
});
