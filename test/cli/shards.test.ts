/**
 * `gabarit shards analyse|global|mark|run` through the command line, on a crawl of two shards made here: the
 * demo site as a directory and a generated shop as a WARC file. The phases one by one (analyse as machine 0
 * and 1 of 2), then `run` in one go, on DuckDB: exit code 0, the files the docs promise (the shard's
 * manifest, WORK/global/result.json, summary.json and marked pages per shard), the same marks as the
 * library path with the same options, and reruns that skip what is done. Every option of the four
 * subcommands is given at least once: the engine's options with values other than their defaults (the
 * manifest and result.json must record them), the Spark options against a stand-in spark-submit that
 * records its arguments, and on Spark `local[2]` itself where Spark is installed (spark/install.sh; the
 * test skips elsewhere, and fails in CI where Spark is missing, as test/spark/ does).
 */
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageStem } from '../../src/output.ts';
import { writeWarc } from '../../src/site/warc-source.ts';
import { analyseCrawl, markCrawl } from '../../src/run/pagelet-shards.ts';
import { runOptions } from '../../src/template/pagelets/engine.ts';
import { runGlobalShards } from '../../src/template/pagelets/global-shards.ts';
import { listShards } from '../../src/template/pagelets/shards.ts';
import { shop } from '../fixtures/synthetic-sites.ts';
import { differingFiles, globalRows } from '../spark/compare.ts';
import { gabarit, ROOT, runProcess, CLI, type Ran } from './gabarit-process.ts';

/** Pass 1's options, none at its default, and what each shard's manifest must record of them. */
const PASS_ONE = ['--k', '4', '--shingle-width', '5', '--minhashes', '3', '--link-targets', '--no-fold-digits', '--content-share', '0.7', '--no-landmarks', '--no-navigation-items', '--no-navigation-pagelets'];
const ANALYSIS = { k: 4, shingleWidth: 5, minhashes: 3, linkTargets: true, foldDigits: false, navigation: false, contentShare: 0.7, landmarks: false, items: false };
const LIBRARY_OPTIONS = { global: true, workers: 0, k: 4, shingleWidth: 5, minhashes: 3, linkTargets: true, foldDigits: false, contentShare: 0.7, landmarks: false, navigationItems: false, navigationPagelets: false };
/** The global step's support, none at its default. */
const SUPPORT = ['--min-pages', '3', '--min-support', '0.05', '--support-cap', '20'];
const SUPPORT_VALUES = { minPages: 3, minSupport: 0.05, supportCap: 20 };
const SHARDS = ['site-a', 'site-b.warc'];

let dir = '';
let crawl = '';
const path = (...p: string[]): string => join(dir, ...p);

/** Runs `gabarit args…`, failing the test with its stderr when the exit code is not `code`. */
async function ok(args: readonly string[], code = 0): Promise<Ran> {
  const r = await gabarit(args);
  assert.equal(r.code, code, `gabarit ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r;
}

/** `--json` result of a shards command. */
interface ShardsJson {
  analysed?: Array<{ shard: number; name: string; skipped: boolean; pages: number }>;
  global?: { backend: string; skipped: boolean; master?: string; components?: string; support: typeof SUPPORT_VALUES; counts: Record<string, number> };
  marked?: Array<{ shard: number; name: string; skipped: boolean; pages: number; failures: number; out: string }>;
}
const parsed = (r: Ran): ShardsJson => JSON.parse(r.stdout) as ShardsJson;

/** Runs `gabarit shards serve` with the given request lines on its stdin: its exit code, its replies, its stderr. */
function served(requests: readonly string[]): Promise<{ code: number | null; replies: unknown[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, 'shards', 'serve'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, replies: stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown) }));
    child.stdin.end(requests.join('\n') + '\n');
  });
}

const manifest = (work: string, index: number): { analysis: unknown; pages: number } | undefined => {
  const p = join(work, 'shards', `${index}-${SHARDS[index]}`, 'manifest.json');
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as { analysis: unknown; pages: number }) : undefined;
};

/** Pages (HTML files) of a shard's output, and how many of them have a template mark. */
function marked(out: string): { pages: number; withMarks: number } {
  const html = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.html'));
  return { pages: html.length, withMarks: html.filter((f) => readFileSync(join(out, f), 'utf8').includes('data-gabarit="template"')).length };
}

/** Checks each shard's summary.json: every page done, none failed, and marked pages written. */
function checkOutput(out: string): void {
  for (const name of SHARDS) {
    const summary = JSON.parse(readFileSync(join(out, name, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number };
    assert.equal(summary.pagesFailed, 0, name);
    const m = marked(join(out, name));
    assert.equal(summary.pagesDone, m.pages, `${name}: a page file per page done`);
    assert.ok(m.withMarks > m.pages / 2, `${name}: most pages have template marks (${m.withMarks} of ${m.pages})`);
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gabarit-cli-shards-'));
  mkdirSync(path('crawl'));
  cpSync(join(ROOT, 'examples', 'site'), path('crawl', 'site-a'), { recursive: true });
  const s = shop();
  await writeWarc([...s.files].map(([key, body]) => ({ key, body })), path('crawl', 'site-b.warc'), { baseUrl: 'https://shop.example.invalid/' });
  crawl = path('crawl', 'site-*');
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('gabarit shards on DuckDB, phase by phase and in one go', () => {
  test('analyse --part 0/2, then --part 1/2: each machine its shard, with the engine options given', async () => {
    const work = path('work');
    await ok(['shards', 'analyse', crawl, '--work', work, '--part', '0/2', '--workers', '1', ...PASS_ONE]);
    assert.deepEqual(manifest(work, 0)?.analysis, ANALYSIS);
    assert.equal(manifest(work, 1), undefined, 'machine 0 of 2 leaves shard 1 alone');
    const r = parsed(await ok(['--json', 'shards', 'analyse', crawl, '--work', work, '--part', '1/2', '--workers', '1', ...PASS_ONE]));
    assert.deepEqual(r.analysed?.map((s) => [s.shard, s.name, s.skipped]), [[1, 'site-b.warc', false]]);
    assert.deepEqual(manifest(work, 1)?.analysis, ANALYSIS);
    assert.equal(manifest(work, 1)?.pages, shop().files.size);
  });

  test('global on DuckDB with the support options: result.json records them', async () => {
    const r = parsed(await ok(['--json', 'shards', 'global', '--work', path('work'), '--backend', 'duckdb', ...SUPPORT]));
    const result = JSON.parse(readFileSync(path('work', 'global', 'result.json'), 'utf8')) as NonNullable<ShardsJson['global']> & { shards: unknown[] };
    assert.equal(result.backend, 'duckdb');
    assert.deepEqual(result.support, SUPPORT_VALUES);
    assert.equal(result.shards.length, 2);
    assert.ok(result.counts['template_pagelets']! > 0);
    assert.deepEqual(r.global?.counts, result.counts);
    assert.equal(r.global?.skipped, false);
  });

  test('mark: summary.json and marked pages per shard, the same files as the library path', async () => {
    await ok(['shards', 'mark', crawl, '--work', path('work'), '--out', path('out'), '--workers', '0']);
    checkOutput(path('out'));

    // the library path (src/run/pagelet-shards.ts) with the same options
    const o = runOptions(LIBRARY_OPTIONS);
    const failures: string[] = [];
    const hooks = { onFailure: (f: { message: string }) => void failures.push(f.message) };
    const shards = await listShards([crawl]);
    await analyseCrawl(path('lib'), shards, o, hooks);
    await runGlobalShards(path('lib'), { backend: 'duckdb', support: SUPPORT_VALUES });
    await markCrawl(path('lib'), shards, (s) => path('lib-out', s.name), o, hooks);
    assert.deepEqual(failures, []);
    assert.deepEqual(await globalRows(path('work')), await globalRows(path('lib')));
    assert.deepEqual(differingFiles(path('out'), path('lib-out')), []);
  });

  test('serve (what each Spark task talks to): analyse and mark command lines from stdin in one process, the same files as the commands run apart', async () => {
    const work = path('work-serve');
    const each = (phase: string, extra: readonly string[]): string[] =>
      [0, 1].map((i) => JSON.stringify({ argv: ['--json', 'shards', phase, crawl, '--work', work, '--workers', '1', ...extra, '--part', `${i}/2`] }));
    const first = await served([...each('analyse', PASS_ONE), JSON.stringify({ argv: ['crawl', 'https://example.invalid/'] }), 'not json']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.replies[0], { version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version });
    const [a0, a1, refused, bad] = first.replies.slice(1) as Array<{ code: number; stdout: string; stderr: string }>;
    assert.equal(a0?.code, 0, a0?.stderr);
    assert.deepEqual((JSON.parse(a0!.stdout) as ShardsJson).analysed?.map((s) => [s.shard, s.name]), [[0, 'site-a']]);
    assert.deepEqual((JSON.parse(a1!.stdout) as ShardsJson).analysed?.map((s) => [s.shard, s.name]), [[1, 'site-b.warc']]);
    assert.equal(refused?.code, 2);
    assert.match(refused!.stderr, /runs `shards analyse` and `shards mark` only/);
    assert.equal(bad?.code, 2);
    assert.match(bad!.stderr, /not valid JSON/);
    for (const i of [0, 1]) assert.deepEqual(manifest(work, i)?.analysis, ANALYSIS);

    await ok(['shards', 'global', '--work', work, ...SUPPORT]);
    const second = await served(each('mark', ['--out', path('out-serve')]));
    assert.equal(second.code, 0, second.stderr);
    for (const r of second.replies.slice(1) as Array<{ code: number; stderr: string }>) assert.equal(r.code, 0, r.stderr);
    checkOutput(path('out-serve'));
    assert.deepEqual(differingFiles(path('out'), path('out-serve')), [], 'the same page files as `shards mark` run apart');
  });

  test('mark writes from the records pass 1 left (no page parsed again); with --no-records it parses them again, to the same files', async () => {
    const outs: Record<string, string> = { records: 'from pass 1\'s records', 'no-records': 'pages read and parsed again' };
    for (const [how, said] of Object.entries(outs)) {
      const work = path(`work-${how}`);
      await ok(['shards', 'analyse', crawl, '--work', work, '--workers', '0', ...(how === 'records' ? [] : ['--no-records']), ...PASS_ONE]);
      for (const name of SHARDS) assert.equal(existsSync(join(work, 'shards', `${SHARDS.indexOf(name)}-${name}`, 'render.spool')), how === 'records', `${name}: records beside the rows (${how})`);
      await ok(['shards', 'global', '--work', work, ...SUPPORT]);
      const m = await ok(['shards', 'mark', crawl, '--work', work, '--out', path(`out-${how}`), '--workers', '0']);
      for (const name of SHARDS) assert.ok(m.stderr.includes(`${name}: `) && new RegExp(`pages written to [^\\n]*${name.replace('.', '\\.')} \\(${said.replace(/[()']/g, '.')}\\)`).test(m.stderr), `${how}: ${m.stderr}`);
      checkOutput(path(`out-${how}`));
    }
    assert.deepEqual(differingFiles(path('out-records'), path('out-no-records')), []);
    assert.deepEqual(differingFiles(path('out'), path('out-records')), []);
    // the three phases in one go, without records
    const run = await ok(['shards', 'run', crawl, '--work', path('work-run-no-records'), '--out', path('out-run-no-records'), '--workers', '0', '--no-records', ...PASS_ONE, ...SUPPORT]);
    assert.match(run.stderr, /pages written to [^\n]* \(pages read and parsed again\)/);
    assert.ok(!existsSync(path('work-run-no-records', 'shards', `0-${SHARDS[0]}`, 'render.spool')));
    assert.deepEqual(differingFiles(path('out-records'), path('out-run-no-records')), []);
  });

  test('--format jsonl: one line a page in each shard\'s pages.jsonl, the text and fraction of the page files; pass 1 records the text only', async () => {
    const work = path('work-jsonl');
    const run = await ok(['shards', 'run', crawl, '--work', work, '--out', path('out-jsonl'), '--workers', '0', '-f', 'jsonl', ...PASS_ONE, ...SUPPORT]);
    assert.match(run.stderr, /pages written to [^\n]* as JSON lines \(from pass 1's records\)/);
    // analyse for jsonl on its own: the shards are done with the same options, and skipped
    const analysed = parsed(await ok(['--json', 'shards', 'analyse', crawl, '--work', work, '--format', 'jsonl', ...PASS_ONE]));
    assert.deepEqual(analysed.analysed?.map((s) => s.skipped), [true, true]);
    for (const name of SHARDS) {
      const shard = join(work, 'shards', `${SHARDS.indexOf(name)}-${name}`);
      const m = JSON.parse(readFileSync(join(shard, 'manifest.json'), 'utf8')) as { render?: { kind?: string; bytes: number } };
      assert.equal(m.render?.kind, 'text', `${name}: text records`);
      const full = JSON.parse(readFileSync(join(path('work-records'), 'shards', `${SHARDS.indexOf(name)}-${name}`, 'manifest.json'), 'utf8')) as { render: { bytes: number } };
      assert.ok(m.render!.bytes < full.render.bytes / 2, `${name}: text records ${m.render!.bytes} bytes, page records ${full.render.bytes}`);
    }
    /** Each shard's pages as the page files give them (key → text, fraction) and as pages.jsonl does. */
    const fromFiles = (out: string, name: string): Map<string, [string, number]> => {
      const summary = JSON.parse(readFileSync(join(out, name, 'summary.json'), 'utf8')) as { pages: Array<{ key: string; stem?: string; templateFraction: number }> };
      return new Map(summary.pages.map((pg) => [pg.key, [readFileSync(join(out, name, `${pg.stem ?? pageStem(pg.key)}.txt`), 'utf8').replace(/\n$/, ''), pg.templateFraction]]));
    };
    const fromLines = (out: string, name: string): Map<string, [string, number]> => {
      const lines = readFileSync(join(out, name, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { key: string; url: string; title: string; text: string; templateFraction: number });
      for (const l of lines) assert.ok(typeof l.url === 'string' && typeof l.title === 'string', JSON.stringify(l));
      return new Map(lines.map((l) => [l.key, [l.text, l.templateFraction]]));
    };
    for (const name of SHARDS) {
      const summary = JSON.parse(readFileSync(path('out-jsonl', name, 'summary.json'), 'utf8')) as { format: string; pagesDone: number; pagesFailed: number; pages?: unknown };
      assert.deepEqual([summary.format, summary.pagesFailed, summary.pages], ['jsonl', 0, undefined]);
      const lines = fromLines(path('out-jsonl'), name);
      assert.equal(lines.size, summary.pagesDone);
      assert.deepEqual(lines, fromFiles(path('out-records'), name), `${name}: the same text and fraction as the page files`);
      assert.equal(readdirSync(path('out-jsonl', name)).filter((f) => f.endsWith('.html')).length, 0);
    }
    const title = (out: string, key: string): string | undefined => (readFileSync(join(out, 'site-a', 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { key: string; title: string }).find((l) => l.key === key)?.title);
    assert.equal(title(path('out-jsonl'), 'index.html'), /<title>([^<]*)<\/title>/.exec(readFileSync(join(ROOT, 'examples', 'site', 'index.html'), 'utf8'))![1]!.replace(/\s+/g, ' ').trim());
    // the page files from text records: the pages are parsed again, to the same files
    const again = await ok(['shards', 'mark', crawl, '--work', work, '--out', path('out-jsonl-text'), '--workers', '0']);
    assert.match(again.stderr, /pages written to [^\n]* \(pages read and parsed again\)/);
    assert.deepEqual(differingFiles(path('out-records'), path('out-jsonl-text')), []);
    // JSON lines from page records (they hold the text too), and without records: the same lines
    for (const w of ['work-records', 'work-no-records']) {
      await ok(['shards', 'mark', crawl, '--work', path(w), '--out', path(`${w}-jsonl`), '--workers', '0', '--format', 'jsonl']);
      for (const name of SHARDS) assert.deepEqual(readFileSync(path(`${w}-jsonl`, name, 'pages.jsonl'), 'utf8'), readFileSync(path('out-jsonl', name, 'pages.jsonl'), 'utf8'), `${w} ${name}`);
    }
    // a shard written in the other format is not skipped: the folder is written again in the format asked
    const rerun = parsed(await ok(['--json', 'shards', 'mark', crawl, '--work', work, '--out', path('out-jsonl'), '--workers', '0']));
    assert.deepEqual(rerun.marked?.map((s) => s.skipped), [false, false]);
    checkOutput(path('out-jsonl'));
  });

  test('a page that fails in analyse is in its shard\'s summary.json (and pages.jsonl): every page of the source accounted for', async () => {
    const site = path('bad-crawl', 'shop');
    cpSync(join(ROOT, 'examples', 'site'), site, { recursive: true });
    writeFileSync(join(site, 'binary.html'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256)));
    const files = readdirSync(site, { recursive: true }).map(String).filter((f) => f.endsWith('.html')).length;
    for (const format of ['text', 'jsonl']) {
      const out = path(`bad-out-${format}`);
      const r = await ok(['shards', 'run', path('bad-crawl', '*'), '--work', path(`bad-work-${format}`), '--out', out, '--workers', '0', '--format', format]);
      assert.match(r.stderr, /binary\.html: binary content, not a page/);
      assert.match(r.stdout, /pages failed: 1/);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number; failures: Array<{ key: string; code: string }> };
      assert.deepEqual(summary.failures.map((f) => [f.key, f.code]), [['binary.html', 'binary']], format);
      assert.equal(summary.pagesDone + summary.pagesFailed, files, `${format}: every page of the source`);
      if (format === 'jsonl') {
        const failed = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { key: string; failure?: { code: string } }).filter((l) => l.failure);
        assert.deepEqual(failed.map((l) => [l.key, l.failure!.code]), [['binary.html', 'binary']]);
      }
    }
  });

  test('a shard whose source cannot be read is named and left out, the other shards done (exit 0); none readable: exit 1', async () => {
    const crawlDir = path('damaged-crawl');
    cpSync(join(ROOT, 'examples', 'site'), join(crawlDir, 'site-a'), { recursive: true });
    // not an archive: bytes that are neither gzip nor WARC
    writeFileSync(join(crawlDir, 'broken.warc.gz'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131 + 7) % 256)));
    // a folder without a page: named as an empty archive is, not a shard of 0 pages
    mkdirSync(join(crawlDir, 'empty-folder'));
    const work = path('damaged-work');
    const args = ['shards', 'run', join(crawlDir, '*'), '--work', work, '--out', path('damaged-out'), '--workers', '0', '--format', 'jsonl'];
    const r = await ok(['--json', ...args]);
    assert.match(r.stderr, /gabarit: file:\/\/\S*broken\.warc\.gz: /);
    assert.match(r.stderr, /gabarit: file:\/\/\S*empty-folder: no page in this source/);
    const j = parsed(r) as ShardsJson & { failedShards?: Array<{ shard: number; name: string; phase: string; code: string }> };
    assert.deepEqual(j.failedShards?.map((f) => [f.shard, f.name, f.phase]), [[0, 'broken.warc.gz', 'analyse'], [1, 'empty-folder', 'analyse']]);
    assert.equal(j.failedShards?.[1]?.code, 'empty');
    assert.deepEqual(j.analysed?.map((s) => s.name), ['site-a']);
    assert.deepEqual(j.marked?.map((s) => [s.name, s.failures]), [['site-a', 0]]);
    const lines = readFileSync(path('damaged-out', 'site-a', 'pages.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, readdirSync(join(crawlDir, 'site-a'), { recursive: true }).map(String).filter((f) => f.endsWith('.html')).length);
    assert.equal(existsSync(path('damaged-out', 'broken.warc.gz')), false);
    // mark alone over the same sources: the shard not analysed is named, the other written
    const m = await ok(['shards', 'mark', join(crawlDir, '*'), '--work', work, '--out', path('damaged-out-2')]);
    assert.match(m.stdout, /shard 0 broken\.warc\.gz: not written \(not-analysed\)\nshard 1 empty-folder: not written \(not-analysed\)\nshards failed: 2/);
    assert.match(m.stderr, /broken\.warc\.gz: shard 0 broken\.warc\.gz is not analysed in /);
    assert.ok(existsSync(path('damaged-out-2', 'site-a', 'summary.json')));
    // the damaged source alone: nothing could be done
    const alone = await ok(['shards', 'run', join(crawlDir, 'broken.warc.gz'), '--work', path('damaged-work-2'), '--out', path('damaged-out-3')], 1);
    assert.match(alone.stderr, /gabarit: no shard could be analysed: broken\.warc\.gz failed/);
    assert.equal(existsSync(path('damaged-out-3')), false);
  });

  test('a rerun of each phase skips what is done', async () => {
    const work = path('work');
    const a = parsed(await ok(['--json', 'shards', 'analyse', crawl, '--work', work, ...PASS_ONE]));
    assert.deepEqual(a.analysed?.map((s) => s.skipped), [true, true]);
    const g = parsed(await ok(['--json', 'shards', 'global', '--work', work, ...SUPPORT]));
    assert.equal(g.global?.skipped, true);
    const m = await ok(['shards', 'mark', crawl, '--work', work, '-o', path('out')]);
    assert.equal(m.stdout.match(/\(already done\)/g)?.length, 2, m.stdout);
    // other support: the global step runs again, and the output is written again from its result
    const g2 = parsed(await ok(['--json', 'shards', 'global', '--work', work, ...SUPPORT, '--min-pages', '2']));
    assert.equal(g2.global?.skipped, false);
    const m2 = parsed(await ok(['--json', 'shards', 'mark', crawl, '--work', work, '-o', path('out-2')]));
    assert.deepEqual(m2.marked?.map((s) => s.skipped), [false, false]);
  });

  test('run in one go: the same output as the phases; a rerun skips every phase', async () => {
    const args = ['shards', 'run', crawl, '--work', path('work-run'), '--out', path('out-run'), '--part', '0/1', '--workers', '0', ...PASS_ONE, '--backend', 'duckdb', ...SUPPORT];
    const first = parsed(await ok(['--json', ...args]));
    assert.deepEqual(first.analysed?.map((s) => s.skipped), [false, false]);
    assert.equal(first.global?.skipped, false);
    assert.deepEqual(first.marked?.map((s) => [s.name, s.skipped, s.failures]), SHARDS.map((n) => [n, false, 0]));
    checkOutput(path('out-run'));
    assert.deepEqual(differingFiles(path('out'), path('out-run')), []);
    const again = parsed(await ok(['--json', ...args]));
    assert.deepEqual([...again.analysed!.map((s) => s.skipped), again.global?.skipped, ...again.marked!.map((s) => s.skipped)], [true, true, true, true, true]);
  });

  test('the Spark options reach spark-submit (a stand-in that records its arguments)', { skip: process.platform === 'win32' ? 'a shell script stands in for spark-submit' : false }, async () => {
    const fake = path('fake-spark-submit');
    // it records its arguments and the job file (the last one)
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > "$0.args"\nfor a; do last=$a; done\ncp "$last" "$0.job"\nexit 3\n`);
    chmodSync(fake, 0o755);
    const spark = ['--backend', 'spark', '--spark-submit', fake, '--spark-master', 'local[3]', '--spark-conf', 'spark.ui.enabled=false', '--spark-conf', 'spark.x=a=b', '--driver-memory', '300m'];
    // the global step alone submits its driver; run submits the driver of the whole run (analyse and mark as tasks)
    for (const [args, driver] of [
      [['shards', 'global', '--work', path('work'), ...spark], /gabarit_global\.py$/],
      [['shards', 'run', crawl, '--work', path('work-run'), '--out', path('out-run'), ...PASS_ONE, ...SUPPORT, ...spark, '--spark-gabarit', 'gabarit-on-executors --x', '--format', 'jsonl'], /gabarit_shards\.py$/],
    ] as const) {
      rmSync(`${fake}.args`, { force: true });
      const r = await ok(args, 1);
      assert.match(r.stderr, /spark-submit exited with code 3/);
      const given = readFileSync(`${fake}.args`, 'utf8').trim().split('\n');
      assert.deepEqual(given.slice(0, 8), ['--master', 'local[3]', '--driver-memory', '300m', '--conf', 'spark.ui.enabled=false', '--conf', 'spark.x=a=b']);
      assert.match(given[8]!, driver);
      assert.match(given[9]!, /job\.json$/);
    }
    // the whole run's job: the executors' command, and each phase's arguments with the options given
    const job = JSON.parse(readFileSync(`${fake}.job`, 'utf8')) as { gabarit: string[]; shards: number; analyse: string[]; mark: string[] };
    assert.deepEqual(job.gabarit, ['gabarit-on-executors', '--x']);
    assert.equal(job.shards, 2);
    const sources = (await listShards([crawl])).map((s) => s.spec);
    // without --workers, each task's gabarit runs as many threads as the task has CPUs (the driver adds them)
    assert.deepEqual(job.analyse, [...sources, '--work', path('work-run'), ...PASS_ONE, '--format', 'jsonl']);
    assert.deepEqual(job.mark, [...sources, '--work', path('work-run'), '--out', path('out-run'), '--format', 'jsonl']);
    await ok(['shards', 'run', crawl, '--work', path('work-run'), '--out', path('out-run'), ...spark, '--workers', '3'], 1);
    const given = JSON.parse(readFileSync(`${fake}.job`, 'utf8')) as { analyse: string[]; mark: string[] };
    assert.deepEqual(given.analyse.slice(sources.length, sources.length + 4), ['--work', path('work-run'), '--workers', '3']);
    assert.deepEqual(given.mark.slice(sources.length, sources.length + 4), ['--work', path('work-run'), '--workers', '3']);
  });

  test('a folder left by a killed attempt is ignored; mark puts a shard\'s folder in place whole, and only over an output folder', async () => {
    const work = path('work');
    // a complete copy of shard 1 under the temporary name an attempt on another machine writes it in
    cpSync(join(work, 'shards', '1-site-b.warc'), join(work, 'shards', '1-site-b.warc~tmp-otherhost-1-0badc0de'), { recursive: true });
    const g = parsed(await ok(['--json', 'shards', 'global', '--work', work, ...SUPPORT, '--min-pages', '2']));
    assert.equal(g.global?.skipped, true, 'the same two shards: the global result is up to date');
    // a folder that is not a gabarit output is left alone
    mkdirSync(path('taken', 'site-a'), { recursive: true });
    writeFileSync(path('taken', 'site-a', 'notes.txt'), 'mine\n');
    const refused = await ok(['shards', 'mark', crawl, '--work', work, '--out', path('taken')], 1);
    assert.match(refused.stderr, /site-a is not empty and holds no gabarit output/);
    assert.equal(readFileSync(path('taken', 'site-a', 'notes.txt'), 'utf8'), 'mine\n');
    // an output folder written again is replaced whole: nothing of the previous one stays, no temporary folder is left
    writeFileSync(path('out-2', 'site-a', 'stale.html'), '<p>old</p>');
    rmSync(join(work, 'marked'), { recursive: true });
    await ok(['shards', 'mark', crawl, '--work', work, '--out', path('out-2')]);
    assert.equal(existsSync(path('out-2', 'site-a', 'stale.html')), false);
    assert.deepEqual(readdirSync(path('out-2')).sort(), SHARDS);
    checkOutput(path('out-2'));
  });

  test('bad values are usage errors (exit 2) naming the option', async () => {
    const work = path('work');
    for (const [args, message] of [
      [['shards', 'analyse', crawl, '--work', work, '--part', '2/2'], /--part/],
      [['shards', 'analyse', crawl, '--work', work, '--content-share', '1.5'], /--content-share.*must be at most 1/],
      [['shards', 'global', '--work', work, '--min-support', '2'], /--min-support.*must be at most 1/],
      [['shards', 'global', '--work', work, '--backend', 'hadoop'], /--backend/],
      [['shards', 'mark', crawl, '--work', work, '--k', '4'], /unknown option '--k'/],
      [['shards', 'run', crawl, '--out', path('o')], /--work/],
      [['shards', 'run', crawl, '--work', work, '--backend', 'spark', '--part', '0/2'], /--part: with --backend spark/],
      [['shards', 'run', crawl, '--work', work, '--spark-gabarit', 'gabarit'], /--spark-gabarit: only with --backend spark/],
    ] as const) {
      const r = await ok(args, 2);
      assert.match(r.stderr, message);
    }
  });
});

// `shards run --backend spark` on `local[2]` against DuckDB: test/package/installed.pack.ts, from the installed
// package (one Spark start for both).

test('pages.jsonl follows the source\'s order with worker threads, the pages read and parsed again or not', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'gabarit-shards-order-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const site = join(root, 'shop');
  for (const [key, html] of shop().files) {
    mkdirSync(join(site, key, '..'), { recursive: true });
    writeFileSync(join(site, key), html);
  }
  // the first page in key order much larger than the others: its batch finishes last
  writeFileSync(join(site, 'a-long.html'), `<!doctype html><html><head><title>Long</title></head><body><div id="page">${'<p>a long page of words to parse</p>'.repeat(60_000)}</div></body></html>`);
  const keys = (file: string): string[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { key: string }).key);
  const outs: string[] = [];
  for (const records of [true, false]) {
    const out = join(root, `out-${records}`);
    await ok(['shards', 'run', site, '--work', join(root, `work-${records}`), '--out', out, '-f', 'jsonl', '--workers', '2', ...(records ? [] : ['--no-records'])]);
    const got = keys(join(out, 'pages.jsonl'));
    assert.ok(got.length > 80, `${got.length} pages`);
    assert.deepEqual(got, [...got].sort(), `records ${records}: in key order`);
    outs.push(readFileSync(join(out, 'pages.jsonl'), 'utf8'));
  }
  assert.equal(outs[1], outs[0]);
});
