/**
 * `npm run fuzz`: the fuzzer at length (thousands of cases; `npm run test:e2e` runs a few hundred). Cases are
 * those of test/fuzz/cases.ts: generated documents and, when the corpus is there, mutated corpus pages,
 * each through both parsers, the round trip, every per-page step, and, every few cases, every template
 * engine, content extraction, clustering, INDESIT and a wrapper on a small site of them.
 *
 * The cases run in a child process watched by this one: a case that does not finish within `--hang-ms`
 * is a hang (the child is stopped, the run goes on with the next case); a child that dies is a crash.
 * Every finding prints the seed and case index, and its input is written to `<out>/<seed>-<index>/`
 * (page.bin, the bytes; page.html, the text as decoded; finding.json) so it can become a fixture, and the
 * command that replays it is printed (a site finding replays the cases of its site). Exit code 1 when
 * anything was found.
 *
 * Options: --seed N (default: from the clock, printed), --cases N (2000), --from N (0), --corpus-share x
 * (0.5; 0 for generated documents only), --site-size N (4; 0: no site checks), --hang-ms N (120000),
 * --out DIR (out/fuzz).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeHtml } from '../src/html/charset.ts';
import { corpusFiles, makeCase, runCases, type CaseResult } from '../test/fuzz/cases.ts';
import type { Finding } from '../test/fuzz/run-case.ts';

function arg(name: string, dflt: number): number {
  const k = process.argv.indexOf(name);
  if (k < 0) return dflt;
  const v = Number(process.argv[k + 1]);
  if (!Number.isFinite(v)) {
    process.stderr.write(`fuzz: ${name} expects a number\n`);
    process.exit(2);
  }
  return v;
}
function argText(name: string, dflt: string): string {
  const k = process.argv.indexOf(name);
  return k < 0 ? dflt : (process.argv[k + 1] ?? dflt);
}

const SEED = arg('--seed', Date.now() % 2 ** 31) >>> 0;
const FROM = arg('--from', 0);
const CASES = arg('--cases', 2000);
const SHARE = arg('--corpus-share', 0.5);
const SITE_SIZE = arg('--site-size', 4);
const HANG_MS = arg('--hang-ms', 120_000);
const OUT = resolve(argText('--out', 'out/fuzz'));

/** Messages from the child. */
type Message = { type: 'start'; index: number } | { type: 'result'; index: number; findings: Finding[]; siteFindings: Finding[] } | { type: 'done' };

const corpus = SHARE > 0 ? corpusFiles() : [];

if (process.argv.includes('--child')) {
  const send = (m: Message): void => {
    if (process.connected) process.send!(m);
  };
  await runCases(SEED, FROM, FROM + CASES, {
    corpus,
    corpusShare: SHARE,
    siteSize: SITE_SIZE,
    onStart: (c) => send({ type: 'start', index: c.index }),
    onResult: (r: CaseResult) => {
      if (r.findings.length > 0 || r.siteFindings.length > 0) send({ type: 'result', index: r.fuzzCase.index, findings: r.findings, siteFindings: r.siteFindings });
    },
  });
  send({ type: 'done' });
  if (process.connected) process.disconnect();
} else {
  await main();
}

async function main(): Promise<void> {
  const to = FROM + CASES;
  process.stdout.write(`fuzz: seed ${SEED}, cases ${FROM}..${to - 1}, ${corpus.length > 0 ? `${corpus.length} corpus pages to mutate (share ${SHARE})` : 'generated documents only'}, site checks every ${SITE_SIZE || '-'} cases, hang after ${HANG_MS} ms\n`);
  const byStage = new Map<string, number>();
  let found = 0;
  let untyped = 0;
  let next = FROM;
  const t0 = performance.now();
  const record = (index: number, findings: Finding[]): void => {
    found++;
    const c = makeCase(SEED, index, corpus, SHARE);
    const dir = join(OUT, `${SEED}-${index}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'page.bin'), c.page.bytes);
    writeFileSync(join(dir, 'page.html'), decodeHtml(c.page.bytes, c.page.contentType).text);
    writeFileSync(join(dir, 'finding.json'), JSON.stringify({ seed: SEED, index, caseSeed: c.seed, origin: c.origin, key: c.key, how: c.page.how, contentType: c.page.contentType ?? null, findings }, null, 1) + '\n');
    for (const f of findings) {
      byStage.set(f.stage, (byStage.get(f.stage) ?? 0) + 1);
      if (f.untyped) untyped++;
      process.stdout.write(`FOUND seed ${SEED} case ${index}: ${f.stage}${f.untyped ? ' [untyped]' : ''}: ${f.message.slice(0, 300)}\n`);
    }
    // A site finding needs its whole site: the cases from the start of its group of SITE_SIZE.
    const site = findings.some((f) => f.stage.startsWith('site: ')) && SITE_SIZE > 0;
    const from = site ? FROM + Math.floor((index - FROM) / SITE_SIZE) * SITE_SIZE : index;
    process.stdout.write(`  input: ${dir}\n  replay: npm run fuzz -- --seed ${SEED} --from ${from} --cases ${site ? SITE_SIZE : 1} --corpus-share ${SHARE}\n`);
  };
  while (next < to) {
    const child = startChild(next, to - next);
    let current = -1;
    const stop = await watch(child, (m) => {
      if (m.type === 'start') {
        current = m.index;
        next = m.index + 1;
        if (m.index % 100 === 0) process.stderr.write(`  case ${m.index}\n`);
      } else if (m.type === 'result') {
        record(m.index, [...m.findings, ...m.siteFindings.map((f) => ({ ...f, stage: `site: ${f.stage}` }))]);
      }
    });
    if (stop.kind === 'done') break;
    if (current < 0) {
      process.stderr.write(`fuzz: the case runner did not start: ${stop.message}\n`);
      process.exitCode = 2;
      return;
    }
    // The case that was running when the child hung or died: a finding, and the run goes on after it.
    record(current, [{ stage: stop.kind, untyped: stop.kind === 'crash', message: stop.message }]);
  }
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  process.stdout.write(`\nfuzz: ${to - FROM} cases in ${s} s (seed ${SEED}): ${found} with findings, ${untyped} untyped exceptions or crashes\n`);
  for (const [stage, n] of [...byStage].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${n}  ${stage}\n`);
  process.exitCode = found > 0 ? 1 : 0;
}

function startChild(from: number, cases: number): ChildProcess {
  const self = fileURLToPath(import.meta.url);
  const args = ['--child', '--seed', String(SEED), '--from', String(from), '--cases', String(cases), '--corpus-share', String(SHARE), '--site-size', String(SITE_SIZE)];
  return fork(self, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** Follows the child until it is done, hangs (no message for HANG_MS) or dies. */
function watch(child: ChildProcess, onMessage: (m: Message) => void): Promise<{ kind: 'done' } | { kind: 'hang' | 'crash'; message: string }> {
  return new Promise((done) => {
    let finished = false;
    // Loading the code takes a while: the first case gets a minute more.
    let timer = setTimeout(() => hang(), HANG_MS + 60_000);
    const hang = (): void => {
      finished = true;
      child.kill('SIGKILL');
      done({ kind: 'hang', message: `no progress for ${HANG_MS} ms` });
    };
    child.on('message', (m: Message) => {
      clearTimeout(timer);
      timer = setTimeout(() => hang(), HANG_MS);
      if (m.type === 'done') {
        finished = true;
        clearTimeout(timer);
        done({ kind: 'done' });
      } else onMessage(m);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!finished) done({ kind: 'crash', message: `the process died (exit ${code ?? signal})` });
    });
  });
}
