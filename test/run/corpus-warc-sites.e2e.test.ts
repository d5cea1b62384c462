/**
 * Corpus sites of four generators archived as a crawl of the web writes them, one WARC file holding every
 * site under its own host (`https://<site>.example/`), against one archive per site: `gabarit content`
 * and `gabarit shards run` give every page the same template fraction (and shards the same text) either
 * way. rustdoc-std's pages all lie under `std/`, so its site is that directory of its host, as in an archive
 * of it alone (its root). Skips without the corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CORPUS_DIR, corpusSkip } from '../../src/eval/corpus-path.ts';
import { writeWarc, type WarcPage } from '../../src/site/warc-source.ts';
import { gabarit } from '../cli/gabarit-process.ts';

const SITES = ['httpx-docs', 'jekyll-blog', 'retrofit-javadoc', 'rustdoc-std'];

function sitePages(site: string): WarcPage[] {
  const dir = join(CORPUS_DIR, 'sites', site, 'pages');
  const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  return walk(dir)
    .filter((p) => /\.(html?|xhtml)$/.test(p))
    .sort()
    .map((p) => ({ key: relative(dir, p), url: `https://${site}.example/${relative(dir, p).split('\\').join('/')}`, body: readFileSync(p) }));
}

async function ok(args: readonly string[]): Promise<void> {
  const r = await gabarit(['-q', ...args]);
  assert.equal(r.code, 0, `gabarit ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
}

interface Summary {
  pages: Array<{ url: string; key: string; templateFraction: number }>;
}
const pagesOf = (out: string): Summary['pages'] => (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary).pages;
const lines = (file: string): Array<{ url: string; text: string; templateFraction: number }> => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; text: string; templateFraction: number });

test('corpus sites in one archive of several sites: content and shards give each page what one archive per site gives', { skip: corpusSkip() }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-warc-sites-corpus-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const all: WarcPage[] = [];
  for (const site of SITES) {
    const pages = sitePages(site);
    all.push(...pages);
    await writeWarc(pages, join(dir, `site-${site}.warc.gz`), { baseUrl: `https://${site}.example/` });
  }
  await writeWarc(all, join(dir, 'web.warc.gz'), { baseUrl: `https://${SITES[0]}.example/` });

  await ok(['content', join(dir, 'web.warc.gz'), '--out', join(dir, 'content-web')]);
  const web = new Map(pagesOf(join(dir, 'content-web')).map((p) => [p.url, p]));
  assert.equal(web.size, all.length);
  for (const site of SITES) {
    await ok(['content', join(dir, `site-${site}.warc.gz`), '--out', join(dir, `content-${site}`)]);
    const alone = pagesOf(join(dir, `content-${site}`));
    const differ = alone.filter((p) => web.get(p.url)?.templateFraction !== p.templateFraction).map((p) => p.key);
    assert.deepEqual(differ, [], `${site}: pages whose template fraction differs from the run on its own archive`);
  }

  await ok(['shards', 'run', join(dir, 'web.warc.gz'), '--work', join(dir, 'w1'), '--out', join(dir, 'shards-web'), '-f', 'jsonl']);
  await ok(['shards', 'run', join(dir, 'site-*.warc.gz'), '--work', join(dir, 'w2'), '--out', join(dir, 'shards-sites'), '-f', 'jsonl']);
  const one = new Map(lines(join(dir, 'shards-web', 'pages.jsonl')).map((l) => [l.url, l]));
  const apart = SITES.flatMap((s) => lines(join(dir, 'shards-sites', `site-${s}.warc.gz`, 'pages.jsonl')));
  assert.equal(one.size, apart.length);
  for (const l of apart) assert.deepEqual([one.get(l.url)?.text, one.get(l.url)?.templateFraction], [l.text, l.templateFraction], l.url);
});
