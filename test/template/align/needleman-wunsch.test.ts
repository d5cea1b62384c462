import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { alignSequences } from '../../../src/template/align/align.ts';
import {
  alignmentScore, isValidAlignment, needlemanWunsch, nwScore,
} from '../../../src/template/align/needleman-wunsch.ts';
import { LabelTable } from '../../../src/html/labels.ts';
import { parseHtml } from '../../../src/html/parse.ts';
import { tokenize } from '../../../src/html/tokens.ts';
import { corpusSkip } from '../../../src/eval/corpus-path.ts';
import { listSites } from '../../../src/eval/corpus.ts';
import { bitScore } from '../../../src/template/align/bit-parallel-nw.ts';
import { chooseSample } from '../../../src/template/align/sample.ts';
import { decodeHtml } from '../../../src/html/charset.ts';
import { fixturePage } from './fixtures.ts';

const seq = (...xs: number[]): Int32Array => Int32Array.from(xs);

/** A small deterministic generator (tests must be reproducible). */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
}

test('reference NW with the paper\'s scores: +1 per match, 0 per mismatch, -1 per gap', () => {
  // Equal sequences: all matches.
  assert.equal(needlemanWunsch(seq(1, 2, 3), seq(1, 2, 3), 0).score, 3);
  // One substitution beats two gaps: 1 + 0 + 1.
  assert.equal(needlemanWunsch(seq(1, 2, 3), seq(1, 9, 3), 0).score, 2);
  // One extra token: 3 matches, 1 gap.
  const r = needlemanWunsch(seq(1, 2, 3), seq(1, 2, 7, 3), 0);
  assert.equal(r.score, 2);
  assert.deepEqual([...r.colA], [0, 1, -1, 2]);
  assert.deepEqual([...r.colB], [0, 1, 2, 3]);
  // Against nothing: all gaps.
  assert.equal(needlemanWunsch(seq(1, 2), seq(), 0).score, -2);
  assert.equal(needlemanWunsch(seq(), seq(), 0).score, 0);
});

test('mismatch -2: a substitution costs two gaps, the alignment keeps the most matches (a longest common subsequence)', () => {
  // 1 9 3 / 1 8 3: two matches; the substitution column (-2) ties with two gaps (-1 -1): 1 - 2 + 1 = 0.
  assert.equal(needlemanWunsch(seq(1, 9, 3), seq(1, 8, 3), -2).score, 0);
  // A menu whose entries shifted by a table of contents inserted after the first one: the paper's scoring
  // prefers two mismatches (x,y against b,c: 2 matches of 4 tokens), mismatch -2 the shift (3 matches).
  const a = seq(1, 2, 3, 4);
  const b = seq(1, 8, 9, 2, 3, 4);
  const paper = needlemanWunsch(a, b, 0);
  const lcs = needlemanWunsch(a, b, -2);
  const matches = (x: typeof paper): number => Array.from(x.colA).filter((i, k) => i >= 0 && x.colB[k]! >= 0 && a[i] === b[x.colB[k]!]).length;
  assert.equal(matches(lcs), 4);
  assert.equal(lcs.score, 3 * 4 - a.length - b.length);
  assert.ok(matches(paper) <= matches(lcs));
});

/**
 * The option sets that force each path of `alignSequences` on small pairs: the scalar DP (Hirschberg
 * recursion only, then one-pass blocks) and the bit-parallel DP (scalarCells 0) with a traceback store
 * large enough for the pair, and so small that every block is split by Hirschberg's rule.
 */
const PATHS = [
  { name: 'scalar, Hirschberg', options: { scalarCells: Number.MAX_SAFE_INTEGER, baseCells: 64, directCells: 0 } },
  { name: 'scalar, one pass', options: { scalarCells: Number.MAX_SAFE_INTEGER, baseCells: 64 } },
  { name: 'bit-parallel', options: { scalarCells: 0 } },
  { name: 'bit-parallel, split', options: { scalarCells: 0, storeWords: 3 * 4 * 8 } },
  { name: 'bit-parallel, tiny store', options: { scalarCells: 0, storeWords: 3 } },
] as const;

/**
 * Mismatch scores the paths are checked with: the paper's 0 and -2 (each with its bit-parallel DP), -1
 * and -3 (-1: the scalar DP only; -3: the LCS DP, as any score below -2).
 */
const MISMATCHES = [0, -2, -1, -3] as const;

/** Checks every path against the full-matrix reference; returns the reference score. */
function checkAllPaths(a: Int32Array, b: Int32Array, what: string, mismatch: number): number {
  const ref = needlemanWunsch(a, b, mismatch);
  assert.ok(isValidAlignment(a, b, ref));
  assert.equal(alignmentScore(a, b, ref, mismatch), ref.score);
  for (const p of PATHS) {
    const fast = alignSequences(a, b, { ...p.options, mismatch });
    assert.ok(isValidAlignment(a, b, fast), `${what}, ${p.name}, mismatch ${mismatch}: valid alignment`);
    assert.equal(alignmentScore(a, b, fast, mismatch), fast.score, `${what}, ${p.name}, mismatch ${mismatch}: reported score is the columns' score`);
    assert.equal(fast.score, ref.score, `${what}, ${p.name}, mismatch ${mismatch}: fast ${fast.score} vs reference ${ref.score}`);
  }
  return ref.score;
}

test('every path equals the full-matrix reference on random pairs (lengths across word boundaries), every mismatch score', () => {
  const r = rng(7);
  for (let t = 0; t < 600; t++) {
    const n = Math.floor(r() * 140);
    const m = Math.floor(r() * 140);
    const k = 1 + Math.floor(r() * 12);
    const a = Int32Array.from({ length: n }, () => Math.floor(r() * k));
    const b = Int32Array.from({ length: m }, () => Math.floor(r() * k));
    const mismatch = MISMATCHES[t % MISMATCHES.length]!;
    const score = checkAllPaths(a, b, `pair ${t} (${n} x ${m}, alphabet ${k})`, mismatch);
    assert.equal(nwScore(a, b, mismatch), score);
    if (mismatch !== -1) assert.equal(bitScore(a, 0, n, b, 0, m, mismatch !== 0), score);
  }
});

/**
 * Two pages of one made-up site: mutations of a shared base (deletions, substitutions, tokens found on
 * one side only, insertions of runs), so that long shared runs and unique tokens exist as on real pages.
 */
function relatedPair(r: () => number): [Int32Array, Int32Array] {
  const base = Int32Array.from({ length: 40 + Math.floor(r() * 200) }, () => Math.floor(r() * 30));
  let next = 1000;
  const mutate = (): Int32Array => {
    const out: number[] = [];
    for (const x of base) {
      const u = r();
      if (u < 0.08) continue; // deletion
      if (u < 0.16) out.push(next++); // private token
      else if (u < 0.2) out.push(Math.floor(r() * 30)); // substitution
      else out.push(x);
      if (r() < 0.05) for (let q = Math.floor(r() * 20); q > 0; q--) out.push(r() < 0.5 ? next++ : Math.floor(r() * 30));
    }
    return Int32Array.from(out);
  };
  return [mutate(), mutate()];
}

test('every path equals the reference on related pairs (a shared template with edits and private text)', () => {
  // Pages are far from random: long shared runs, insertions, and tokens found on one side only.
  const r = rng(19);
  for (let t = 0; t < 150; t++) {
    const [a, b] = relatedPair(r);
    checkAllPaths(a, b, `related pair ${t}`, MISMATCHES[t % MISMATCHES.length]!);
  }
});

test('bit-parallel score on long random pairs equals the linear-space DP', () => {
  const r = rng(3);
  for (let t = 0; t < 12; t++) {
    const n = 500 + Math.floor(r() * 1500);
    const m = 500 + Math.floor(r() * 1500);
    const k = 2 + Math.floor(r() * 40);
    const a = Int32Array.from({ length: n }, () => Math.floor(r() * k));
    const b = Int32Array.from({ length: m }, () => Math.floor(r() * k));
    const mismatch = t % 4 < 2 ? 0 : -2;
    const opt = nwScore(a, b, mismatch);
    assert.equal(bitScore(a, 0, n, b, 0, m, mismatch !== 0), opt);
    const fast = alignSequences(a, b, t % 2 === 0 ? { scalarCells: 0, storeWords: 3 * 1024, mismatch } : { scalarCells: 0, mismatch });
    assert.ok(isValidAlignment(a, b, fast));
    assert.equal(alignmentScore(a, b, fast, mismatch), opt, `long pair ${t} (${n} x ${m}, mismatch ${mismatch})`);
  }
});

/** Token sequences of `n` pages spread over a corpus site (one label table). */
function sampleSequences(site: ReturnType<typeof listSites>[number], n: number): { keys: string[]; seqs: Int32Array[] } {
  const labels = new LabelTable();
  const keys = chooseSample(site.files(), n);
  return { keys, seqs: keys.map((k) => tokenize(parseHtml(decodeHtml(readFileSync(`${site.pagesDir}/${k}`)).text, { labels }), labels).ids) };
}

test('every path equals the reference on real token sequences (prefixes and middles of corpus pages)', { skip: corpusSkip() }, () => {
  let pairs = 0;
  for (const site of listSites()) {
    const { keys, seqs } = sampleSequences(site, 6);
    for (let x = 0; x < seqs.length; x++) {
      for (let y = x + 1; y < seqs.length; y++) {
        const a = seqs[x]!;
        const b = seqs[y]!;
        // A window small enough for the full-matrix reference: the first 400 tokens, and 400 from the middle.
        const mismatch = pairs % 2 === 0 ? 0 : -2;
        checkAllPaths(a.slice(0, 400), b.slice(0, 400), `${site.name} ${keys[x]} / ${keys[y]} (start)`, mismatch);
        const ma = a.length >> 1;
        const mb = b.length >> 1;
        checkAllPaths(a.slice(ma, ma + 400), b.slice(mb, mb + 400), `${site.name} ${keys[x]} / ${keys[y]} (middle)`, mismatch);
        pairs++;
      }
    }
  }
  assert.ok(pairs >= 50);
});

test('fast path on whole corpus pages: the score of plain NW (linear-space reference)', { skip: corpusSkip() }, () => {
  // Whole pages, too large for the full-matrix reference: the default fast path (bit-parallel) against
  // nwScore, the textbook recurrence in one row.
  let pairs = 0;
  for (const site of listSites()) {
    const { keys, seqs } = sampleSequences(site, 4);
    for (let x = 0; x + 1 < seqs.length; x += 2) {
      const a = seqs[x]!;
      const b = seqs[x + 1]!;
      for (const mismatch of [0, -2]) {
        const fast = alignSequences(a, b, { mismatch });
        assert.ok(isValidAlignment(a, b, fast));
        assert.equal(alignmentScore(a, b, fast, mismatch), fast.score);
        assert.equal(fast.score, nwScore(a, b, mismatch), `${site.name} ${keys[x]} / ${keys[x + 1]}, mismatch ${mismatch}`);
      }
      pairs++;
    }
  }
  assert.ok(pairs >= 8);
});

test('fast path equals the reference on the fixture pages', () => {
  const labels = new LabelTable();
  const seqs = [0, 1, 2, 3].map((i) => tokenize(parseHtml(fixturePage(i), { labels }), labels).ids);
  for (let i = 1; i < seqs.length; i++) for (const mismatch of MISMATCHES) checkAllPaths(seqs[0]!, seqs[i]!, `fixture 0 / ${i}`, mismatch);
});

test('a token unique in both sequences need not be matched: the fast path still finds the optimum', () => {
  // x B B B vs B B B x: the optimum pairs the tokens in place (two matches, two mismatches: 2); matching x
  // would force six gaps (1 - 6 = -5). The earlier anchored fast path scored 1 here.
  assert.equal(checkAllPaths(seq(9, 1, 1, 1), seq(1, 1, 1, 9), 'x B B B', 0), 2);
  assert.equal(checkAllPaths(seq(0, 2, 2, 1), seq(2, 0, 2), '0 2 2 1', 0), 0);
  // With mismatch -2: three matches and two gaps (1), still not through the unique x.
  assert.equal(checkAllPaths(seq(9, 1, 1, 1), seq(1, 1, 1, 9), 'x B B B', -2), 1);
});

test('explicit fallback above maxExactCells: valid, never above the optimum, flagged when anchors were used', () => {
  const r = rng(11);
  let anchored = 0;
  let below = 0;
  for (let t = 0; t < 300; t++) {
    const [a, b] = relatedPair(r);
    // The first 200 pairs with the paper's scoring (the counts below), then 100 with mismatch -2.
    const mismatch = t < 200 ? 0 : -2;
    const fast = alignSequences(a, b, { maxExactCells: 0, scalarCells: 0, mismatch });
    assert.ok(isValidAlignment(a, b, fast));
    assert.equal(alignmentScore(a, b, fast, mismatch), fast.score);
    const opt = nwScore(a, b, mismatch);
    assert.ok(fast.score <= opt, `pair ${t}: ${fast.score} above the optimum ${opt}`);
    if (fast.exact) assert.equal(fast.score, opt, 'an alignment flagged exact is optimal');
    else if (t < 200) anchored++;
    if (fast.score < opt && t < 200) below++;
  }
  assert.ok(anchored >= 30, `${anchored} of 200 pairs took the fallback`);
  assert.ok(below >= 1, 'the fallback is not exact: some pair scores below the optimum');
  // "0 2 2 1" / "2 0 2": the optimum is 0; forced, the anchor "0 2" (0 is unique in both) costs three
  // gaps: -1, below the optimum, and the result says so. Under the default limit: exact.
  const a = seq(0, 2, 2, 1);
  const b = seq(2, 0, 2);
  assert.equal(nwScore(a, b, 0), 0);
  const forced = alignSequences(a, b, { maxExactCells: 0, scalarCells: 0, mismatch: 0 });
  assert.equal(forced.score, -1);
  assert.equal(forced.exact, false);
  const d = alignSequences(a, b, { mismatch: 0 });
  assert.equal(d.score, 0);
  assert.equal(d.exact, true);
});
