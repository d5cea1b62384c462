/**
 * Wrappers by example on `records/` beside a peer (`npm run eval -- wrapper-examples`): on each record
 * source with ground truth (SWDE booksamillion), DRAWS draws of 1 and of 3 training pages (seeded, uniform
 * without replacement); the ground-truth values of the training pages are the examples (authors as a
 * list: a user knows a book can have several), every other page is held out. Each draw is given to
 *  - gabarit: `createFromExamples` on the training pages, `runWrapper` on each held-out page;
 *  - AutoScraper (PyPI `autoscraper`, eval/autoscraper-peer.py, in the evaluation's Python virtual
 *    environment: eval/peers.ts `pythonPeerEnv`): `build` on the training pages with the same values,
 *    on each held-out page its exact rules (`get_result_exact`) and its similar ones
 *    (`get_result_similar`, what it offers for lists), duplicates removed; a single field takes its first
 *    result (what a user of it would take), a list field all of them; the table shows, per field, the
 *    mode with the most right values (both are in the results file).
 * Per field, over the held-out pages of every draw: accuracy (right / pages), wrong values (a value that
 * is not the gold's, / pages) and not found (eval/wrapper-records.ts `judge`). Targets: accuracy >= 0.95
 * from 1 page and >= 0.98 from 3 on every field, wrong values under 1%. Results in
 * eval/results/wrapper-examples.json.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusAvailable, CORPUS_MISSING } from '../src/eval/corpus-path.ts';
import { loadRecords, readTree } from '../src/eval/corpus.ts';
import { decodeHtml } from '../src/html/charset.ts';
import type { Tree } from '../src/html/tree.ts';
import { createFromExamples } from '../src/wrapper/create.ts';
import { runWrapper } from '../src/wrapper/run.ts';
import { random } from '../test/fixtures/synthetic-sites.ts';
import { formatTable, REPO_ROOT, writeResults } from './harness.ts';
import { pythonPeerEnv } from './peers.ts';
import { judge } from './wrapper-records.ts';

/** Draws per number of training pages. */
const DRAWS = 5;
/** Numbers of training pages. */
const TRAINING = [1, 3] as const;
/** Fields given as lists. */
const LISTS = new Set(['author']);
const SEED = 20261128;
/** AutoScraper's two ways of applying its rules (eval/autoscraper-peer.py). */
const MODES = ['exact', 'similar'] as const;

interface Tally {
  pages: number;
  right: number;
  wrong: number;
  notFound: number;
  examples: string[];
}

/** `k` distinct indices below `n`, drawn with `rnd`. */
function draw(n: number, k: number, rnd: () => number): number[] {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rnd() * (n - i));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, k).sort((a, b) => a - b);
}

interface Page {
  id: string;
  path: string;
  values: Record<string, readonly string[]>;
}

function tally(): Tally {
  return { pages: 0, right: 0, wrong: 0, notFound: 0, examples: [] };
}

function score(t: Tally, id: string, got: unknown, gold: readonly string[], list: boolean): void {
  t.pages++;
  const v = judge(got, gold, list);
  t[v]++;
  if (v === 'wrong' && t.examples.length < 3) t.examples.push(`${id}: ${JSON.stringify(got).slice(0, 70)} (gold ${JSON.stringify(gold.join(' | ')).slice(0, 50)})`);
}

function main(): void {
  if (!corpusAvailable()) {
    console.log(`skipped: ${CORPUS_MISSING}`);
    return;
  }
  const t0 = performance.now();
  const sources = loadRecords().filter((s) => s.attributes.length > 0 && s.pages.length > 3);
  const env = pythonPeerEnv();
  if ('error' in env) console.log(`autoscraper did not run: its Python environment could not be made (${env.error})`);
  const headline: Record<string, number | string | null> = {};
  const data: Record<string, unknown> = {};
  for (const src of sources) {
    const pages: Page[] = src.pages.map((p) => ({ id: p.id, path: p.path, values: p.values as Record<string, readonly string[]> }));
    const trees = new Map<string, Tree>();
    const treeOf = (p: Page): Tree => {
      let t = trees.get(p.id);
      if (!t) trees.set(p.id, (t = readTree(p.path)));
      return t;
    };
    const rnd = random(SEED);
    const draws = TRAINING.flatMap((k) => Array.from({ length: DRAWS }, () => ({ k, train: draw(pages.length, k, rnd) })));
    const examplesOf = (p: Page): Record<string, string | string[]> => {
      const out: Record<string, string | string[]> = {};
      for (const f of src.attributes) {
        const v = p.values[f] ?? [];
        if (v.length > 0) out[f] = LISTS.has(f) ? [...v] : v[0]!;
      }
      return out;
    };
    const ours = new Map<number, Record<string, Tally>>();
    /** AutoScraper per number of training pages, per mode (its exact rules, its similar ones). */
    const peer = new Map<string, Record<string, Tally>>();
    const byField = (): Record<string, Tally> => Object.fromEntries(src.attributes.map((f) => [f, tally()]));
    const perDraw: Array<{ k: number; train: string[]; holds: Record<string, string> }> = [];
    let oursSeconds = 0;
    for (const d of draws) {
      const s = performance.now();
      const train = d.train.map((i) => pages[i]!);
      const { wrapper, choices } = createFromExamples(train.map((p) => ({ tree: treeOf(p), values: examplesOf(p) })), { source: src.name });
      perDraw.push({ k: d.k, train: train.map((p) => p.id), holds: Object.fromEntries(choices.map((c) => [c.name, `${c.pages}/${c.examplePages}${c.label !== undefined ? ` label ${JSON.stringify(c.label)}` : ''}`])) });
      const t = ours.get(d.k) ?? byField();
      ours.set(d.k, t);
      const held = new Set(d.train);
      pages.forEach((p, i) => {
        if (held.has(i)) return;
        const r = runWrapper(wrapper, treeOf(p), p.id);
        for (const f of src.attributes) score(t[f]!, p.id, r.record[f] ?? null, p.values[f] ?? [], wrapper.patterns.find((x) => x.name === f)?.multiple === true);
      });
      oursSeconds += (performance.now() - s) / 1000;
    }
    for (const k of TRAINING)
      console.log(`gabarit from ${k} page${k > 1 ? 's' : ''}: ${src.attributes.map((f) => `${f} ${(ours.get(k)![f]!.right / ours.get(k)![f]!.pages).toFixed(3)} (${ours.get(k)![f]!.wrong} wrong)`).join(', ')}`);
    // AutoScraper: every draw in one Python process (each page's HTML decoded as ours is).
    let peerVersion: string | null = null;
    let peerSeconds = 0;
    if ('python' in env) {
      const job = {
        pages: Object.fromEntries(pages.map((p) => [p.id, decodeHtml(readFileSync(p.path)).text])),
        draws: draws.map((d) => {
          const held = new Set(d.train);
          return {
            train: d.train.map((i) => ({ id: pages[i]!.id, values: Object.fromEntries(Object.entries(examplesOf(pages[i]!)).map(([f, v]) => [f, Array.isArray(v) ? v : [v]])) })),
            test: pages.flatMap((p, i) => (held.has(i) ? [] : [p.id])),
          };
        }),
      };
      const r = spawnSync(env.python, [join(REPO_ROOT, 'eval', 'autoscraper-peer.py')], { input: JSON.stringify(job), encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0) console.log(`autoscraper failed: exit ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`);
      else {
        type Found = Record<string, string[]>;
        const out = JSON.parse(r.stdout) as { version: string; draws: Array<{ results: Record<string, { exact?: Found; similar?: Found; error?: string }>; seconds: number }> };
        peerVersion = out.version;
        out.draws.forEach((o, n) => {
          const d = draws[n]!;
          peerSeconds += o.seconds;
          const held = new Set(d.train);
          for (const mode of MODES) {
            const t = peer.get(`${d.k}/${mode}`) ?? byField();
            peer.set(`${d.k}/${mode}`, t);
            pages.forEach((p, i) => {
              if (held.has(i)) return;
              const got = o.results[p.id]?.[mode] ?? {};
              for (const f of src.attributes) {
                const values = got[f] ?? [];
                const value = LISTS.has(f) ? (values.length > 0 ? values : null) : (values[0] ?? null);
                score(t[f]!, p.id, value, p.values[f] ?? [], LISTS.has(f));
              }
            });
          }
        });
      }
    }
    const rows: Array<string[] | null> = [];
    const figures: Record<string, unknown> = {};
    for (const k of TRAINING) {
      for (const f of src.attributes) {
        const a = ours.get(k)![f]!;
        // AutoScraper in its better mode on this field (the most right), named in the table.
        const modes = MODES.flatMap((m) => (peer.get(`${k}/${m}`)?.[f] ? [{ mode: m, t: peer.get(`${k}/${m}`)![f]! }] : []));
        const best = modes.sort((x, y) => y.t.right - x.t.right)[0];
        const b = best?.t;
        const acc = a.right / a.pages;
        const wrong = a.wrong / a.pages;
        rows.push([String(k), f, acc.toFixed(3), wrong.toFixed(3), (a.notFound / a.pages).toFixed(3), best?.mode ?? '—', b ? (b.right / b.pages).toFixed(3) : '—', b ? (b.wrong / b.pages).toFixed(3) : '—', b ? (b.notFound / b.pages).toFixed(3) : '—']);
        headline[`${src.name} from ${k}: ${f} accuracy`] = acc;
        headline[`${src.name} from ${k}: ${f} wrong rate`] = wrong;
        if (b) headline[`${src.name} from ${k}: ${f} autoscraper accuracy`] = b.right / b.pages;
        figures[`${k}/${f}`] = { gabarit: a, autoscraper: Object.fromEntries(modes.map((m) => [m.mode, m.t])) };
      }
      rows.push(null);
    }
    rows.pop();
    console.log(`\n${src.name}: ${DRAWS} draws of 1 and of 3 training pages, the other ${pages.length - 1} / ${pages.length - 3} pages held out (seed ${SEED}); autoscraper ${peerVersion ?? 'did not run'}`);
    console.log(formatTable(['train', 'field', 'accuracy', 'wrong', 'not found', 'autoscraper mode', 'autoscraper acc', 'autoscraper wrong', 'autoscraper not found'], rows));
    for (const k of TRAINING)
      for (const f of src.attributes) {
        for (const e of ours.get(k)![f]!.examples) console.log(`  wrong (gabarit, ${k} page${k > 1 ? 's' : ''}, ${f}): ${e}`);
        for (const m of MODES) for (const e of (peer.get(`${k}/${m}`)?.[f]?.examples ?? []).slice(0, 2)) console.log(`  wrong (autoscraper ${m}, ${k} page${k > 1 ? 's' : ''}, ${f}): ${e}`);
      }
    console.log(`time: gabarit ${oursSeconds.toFixed(1)} s (create and run), autoscraper ${peerSeconds.toFixed(1)} s`);
    data[src.name] = { draws: perDraw, figures, autoscraper: peerVersion, seconds: { gabarit: oursSeconds, autoscraper: peerSeconds } };
  }
  const path = writeResults('wrapper-examples', headline, { ...data, seconds: (performance.now() - t0) / 1000 });
  console.log(`results: ${path}`);
}

main();
