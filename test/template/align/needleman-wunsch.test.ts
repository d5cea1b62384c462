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
import { lcsPath } from '../../../src/template/align/bit-lcs.ts';
import { fixturePage } from './fixtures.ts';

const seq = (...xs: number[]): Int32Array => Int32Array.from(xs);

/** A small deterministic generator (tests must be reproducible). */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
}

test('reference NW scores +1 per match, 0 per mismatch, -1 per gap', () => {
  // Equal sequences: all matches.
  assert.equal(needlemanWunsch(seq(1, 2, 3), seq(1, 2, 3)).score, 3);
  // One substitution beats two gaps: 1 + 0 + 1.
  assert.equal(needlemanWunsch(seq(1, 2, 3), seq(1, 9, 3)).score, 2);
  // One extra token: 3 matches, 1 gap.
  const r = needlemanWunsch(seq(1, 2, 3), seq(1, 2, 7, 3));
  assert.equal(r.score, 2);
  assert.deepEqual([...r.colA], [0, 1, -1, 2]);
  assert.deepEqual([...r.colB], [0, 1, 2, 3]);
  // Against nothing: all gaps.
  assert.equal(needlemanWunsch(seq(1, 2), seq()).score, -2);
  assert.equal(needlemanWunsch(seq(), seq()).score, 0);
});

test('fast path equals the full-matrix reference on random pairs (Hirschberg recursion exercised)', () => {
  const r = rng(7);
  for (let t = 0; t < 400; t++) {
    const n = Math.floor(r() * 90);
    const m = Math.floor(r() * 90);
    const k = 1 + Math.floor(r() * 12);
    const a = Int32Array.from({ length: n }, () => Math.floor(r() * k));
    const b = Int32Array.from({ length: m }, () => Math.floor(r() * k));
    const ref = needlemanWunsch(a, b);
    assert.ok(isValidAlignment(a, b, ref));
    assert.equal(alignmentScore(a, b, ref), ref.score);
    assert.equal(nwScore(a, b), ref.score);
    // Hirschberg's recursion (no one-pass blocks), then the default (one-pass blocks).
    for (const directCells of [0, undefined]) {
      const fast = alignSequences(a, b, directCells === undefined ? { baseCells: 64 } : { baseCells: 64, directCells });
      assert.ok(isValidAlignment(a, b, fast), `valid alignment (pair ${t})`);
      assert.equal(alignmentScore(a, b, fast), fast.score, 'reported score is the columns’ score');
      assert.equal(fast.score, ref.score, `pair ${t}: fast ${fast.score} vs reference ${ref.score}`);
      assert.equal(fast.exact, true);
    }
  }
});

test('fast path equals the reference on real token sequences', { skip: corpusSkip() }, () => {
  let pairs = 0;
  for (const site of listSites()) {
    const labels = new LabelTable();
    const files = site.files();
    const picks = [files[0]!, files[Math.floor(files.length / 2)]!, files[files.length - 1]!];
    const seqs = picks.map((k) => tokenize(parseHtml(readFileSync(`${site.pagesDir}/${k}`, 'utf8'), { labels }), labels).ids.slice(0, 700));
    for (let x = 0; x < seqs.length; x++) {
      for (let y = x + 1; y < seqs.length; y++) {
        const a = seqs[x]!;
        const b = seqs[y]!;
        const ref = needlemanWunsch(a, b);
        for (const directCells of [0, undefined]) {
          const fast = alignSequences(a, b, directCells === undefined ? { baseCells: 256 } : { baseCells: 256, directCells });
          assert.ok(isValidAlignment(a, b, fast));
          assert.equal(fast.score, ref.score, `${site.name} ${picks[x]} / ${picks[y]}`);
        }
        pairs++;
      }
    }
  }
  assert.ok(pairs >= 5);
});

test('fast path equals the reference on the fixture pages', () => {
  const labels = new LabelTable();
  const seqs = [0, 1, 2, 3].map((i) => tokenize(parseHtml(fixturePage(i), { labels }), labels).ids);
  for (let i = 1; i < seqs.length; i++) {
    const ref = needlemanWunsch(seqs[0]!, seqs[i]!);
    assert.equal(alignSequences(seqs[0]!, seqs[i]!, { baseCells: 16, directCells: 0 }).score, ref.score);
    assert.equal(alignSequences(seqs[0]!, seqs[i]!).score, ref.score);
  }
});

test('anchored path: always a valid alignment, flagged not exact, and never above the optimum', () => {
  const r = rng(11);
  let anchored = 0;
  for (let t = 0; t < 300; t++) {
    const n = 1 + Math.floor(r() * 80);
    const m = 1 + Math.floor(r() * 80);
    const k = 5 + Math.floor(r() * 60);
    const a = Int32Array.from({ length: n }, () => Math.floor(r() * k));
    const b = Int32Array.from({ length: m }, () => Math.floor(r() * k));
    const fast = alignSequences(a, b, { exactCells: 0, anchorMinRun: 1, baseCells: 64 });
    assert.ok(isValidAlignment(a, b, fast));
    assert.equal(alignmentScore(a, b, fast), fast.score);
    const opt = nwScore(a, b);
    assert.ok(fast.score <= opt);
    if (!fast.exact) anchored++;
    else assert.equal(fast.score, opt, 'an alignment flagged exact is optimal');
  }
  assert.ok(anchored > 0);
});

test('a token unique in both sequences is not always on an optimal path: the anchored result says so', () => {
  // x B B B vs B B B x: the optimum is the diagonal (two mismatches, two matches: 2); anchoring on x
  // forces 6 gaps (1 - 6 = -5).
  const a = seq(9, 1, 1, 1);
  const b = seq(1, 1, 1, 9);
  assert.equal(nwScore(a, b), 2);
  // The detour filter drops x (its diagonal is 3 away from both ends); with no unique anchor left the
  // range goes to the LCS path (bit-lcs.ts), whose three matched B's cost two gaps: 3 - 2 = 1, below the
  // optimum, and the result says it is not proved exact.
  const anchored = alignSequences(a, b, { exactCells: 0, anchorMinRun: 1 });
  assert.ok(isValidAlignment(a, b, anchored));
  assert.equal(anchored.score, 1);
  assert.equal(anchored.exact, false);
  // With the default budget the pair is small enough to be aligned exactly.
  assert.equal(alignSequences(a, b).score, 2);
  // A run that survives the filter and is still off the optimal path (found by random search):
  // a = 0 2 2 1, b = 2 0 2. Anchor "0 2" (0 is unique in both) forces 1 + 2 gaps: 2 - 3 = -1; optimum 0.
  const a2 = seq(0, 2, 2, 1);
  const b2 = seq(2, 0, 2);
  const opt = nwScore(a2, b2);
  assert.equal(opt, 0);
  const r2 = alignSequences(a2, b2, { exactCells: 0, anchorMinRun: 1 });
  assert.equal(r2.exact, false);
  assert.equal(r2.score, -1);
  // With the default budget the same pair is small enough to be aligned exactly.
  const d = alignSequences(a2, b2);
  assert.equal(d.exact, true);
  assert.equal(d.score, opt);
});

/** Plain O(nm) LCS length, the reference for the bit-parallel one. */
function lcsLength(a: Int32Array, b: Int32Array): number {
  const row = new Int32Array(b.length + 1);
  for (let i = 0; i < a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i] === b[j - 1] ? diag + 1 : Math.max(up, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

test('bit-parallel LCS path: as long as the DP LCS, a common subsequence, inside the range (multi-word rows)', () => {
  const r = rng(23);
  for (let t = 0; t < 300; t++) {
    const n = Math.floor(r() * 140);
    const m = Math.floor(r() * 140);
    const k = 1 + Math.floor(r() * 20);
    const a = Int32Array.from({ length: n }, () => Math.floor(r() * k));
    const b = Int32Array.from({ length: m }, () => Math.floor(r() * k));
    const aLo = Math.floor(r() * Math.min(5, n));
    const bLo = Math.floor(r() * Math.min(5, m));
    const p = lcsPath(a, aLo, n, b, bLo, m)!;
    assert.equal(p.length, lcsLength(a.slice(aLo), b.slice(bLo)), `pair ${t}`);
    for (let x = 0; x < p.length; x++) {
      assert.equal(a[p.ai[x]!], b[p.bj[x]!]);
      assert.ok(p.ai[x]! >= aLo && p.bj[x]! >= bLo);
      if (x > 0) assert.ok(p.ai[x]! > p.ai[x - 1]! && p.bj[x]! > p.bj[x - 1]!);
    }
  }
});

test('LCS-anchored path (ranges without unique anchors): valid, never above the optimum, flagged not exact', () => {
  const r = rng(31);
  let viaLcs = 0;
  for (let t = 0; t < 200; t++) {
    const n = 20 + Math.floor(r() * 120);
    const m = 20 + Math.floor(r() * 120);
    const k = 2 + Math.floor(r() * 6); // small alphabet: no token unique on both sides
    const a = Int32Array.from({ length: n }, () => Math.floor(r() * k));
    const b = Int32Array.from({ length: m }, () => Math.floor(r() * k));
    const fast = alignSequences(a, b, { exactCells: 64, baseCells: 64 });
    assert.ok(isValidAlignment(a, b, fast));
    assert.equal(alignmentScore(a, b, fast), fast.score);
    const opt = nwScore(a, b);
    assert.ok(fast.score <= opt);
    if (!fast.exact) viaLcs++;
    else assert.equal(fast.score, opt);
  }
  assert.ok(viaLcs > 100);
});
