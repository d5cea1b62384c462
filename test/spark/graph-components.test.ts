/**
 * The Spark driver's graph components (`link_components` of spark/gabarit_global.py, run here by the Python
 * of Spark's environment on Arrow batches, as an executor runs it) against a union-find, on the graphs of
 * the SQL loop's test: long paths of randomly numbered pages, stars, sparse edges, shingles sharing pages,
 * page ids over shards and shingles near 2^53; as the plan gives them, with a link of each candidate pair's
 * page to itself, and candidate pairs without a link. Every candidate pair gets the least page of its
 * component, once, and is linked exactly when it has a link; the plan's steps over those rows (on DuckDB:
 * the text Spark runs) give each component's least page and size, the linked pairs and the unlinked ones.
 * Skips where Spark's environment is missing, never in CI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DUCKDB } from '../../src/template/pagelets/sql-dialect.ts';
import { figure5Plan } from '../../src/template/pagelets/sql-steps.ts';
import { expected, graph, type Link, templatesOf } from '../fixtures/component-graphs.ts';
import { findSpark, sparkSkip } from './cluster.ts';
import { ROOT } from '../cli/gabarit-process.ts';

const skip = sparkSkip();

// the links in three Arrow batches (a partition arrives in several), the rows back as JSON
const SCRIPT = `
import json, sys
import pyarrow as pa
sys.path.insert(0, sys.argv[1])
from gabarit_global import link_components
links = json.load(sys.stdin)
third = len(links) // 3 + 1
batches = []
for at in range(0, len(links), third):
    part = links[at:at + third]
    batches.append(pa.RecordBatch.from_arrays([pa.array([float(l[0]) for l in part], pa.float64()), pa.array([l[1] for l in part], pa.int64()), pa.array([l[2] for l in part], pa.int64())], names=["shingle", "src", "dest"]))
rows = []
for b in link_components(iter(batches)):
    rows.extend(zip(*(b.column(i).to_pylist() for i in range(4))))
print(json.dumps(rows))
print(json.dumps(list(link_components(iter([])))))
`;

// shingles are 53-bit hashes: 1..9 become numbers near 2^53, still exact
const BIG = 1_000_000_000_000_000;
const big = (s: number): number => s * BIG + s;

test('the Spark graph components give every page the least page of its component (against a union-find)', { skip }, async () => {
  const spark = findSpark();
  if (typeof spark === 'string') throw new Error(spark);
  const plan = figure5Plan({ minPages: 2, minSupport: 0.05, supportCap: 50 });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    for (const seed of [1, 2, 3]) {
      const small = graph(seed);
      const links: Link[] = small.map(([s, a, b]) => [big(s), a, b]);
      const want = expected(links);
      // every linked pair is a candidate pair; and pairs of pages without a link, some of them pages that
      // have links for another shingle
      const unlinked = [...new Set(small.slice(0, 40).flatMap(([s, a]): string[] => [`${big((s % 9) + 1)}:${a}`, `${big(s)}:${77 + s}`]))].filter((k) => !want.has(k));
      const pairs = [...want.keys(), ...unlinked].map((k): Link => {
        const [s, p] = k.split(':').map(Number) as [number, number];
        return [s, p, p];
      });
      const r: SpawnSyncReturns<string> = spawnSync(join(spark.venv, 'bin', 'python'), ['-c', SCRIPT, join(ROOT, 'spark')], { input: JSON.stringify([...links, ...pairs]), encoding: 'utf8', maxBuffer: 1 << 28 });
      assert.equal(r.status, 0, r.stderr);
      const [out, empty] = r.stdout.trim().split('\n');
      assert.equal(empty, '[]', 'an empty partition gives no rows');
      const rows = JSON.parse(out!) as Array<[number, number, number, boolean]>;
      assert.equal(rows.length, pairs.length, `seed ${seed}: one row per candidate pair`);
      assert.equal(new Set(rows.map(([s, p]) => `${s}:${p}`)).size, rows.length, `seed ${seed}: no (shingle, page) twice`);
      for (const [s, p, label, linked] of rows) {
        const k = `${s}:${p}`;
        assert.equal(linked, want.has(k), `seed ${seed}: page ${p} of shingle ${s} linked`);
        assert.equal(label, want.get(k) ?? p, `seed ${seed}: page ${p} of shingle ${s}`);
      }
      await c.run(`CREATE OR REPLACE TABLE ${plan.graph.table} (shingle DOUBLE, page BIGINT, label BIGINT, linked BOOLEAN)`);
      const app = await c.createAppender(plan.graph.table);
      for (const [s, p, label, linked] of rows) {
        app.appendDouble(s);
        app.appendBigInt(BigInt(p));
        app.appendBigInt(BigInt(label));
        app.appendBoolean(linked);
        app.endRow();
      }
      app.flushSync();
      app.closeSync();
      for (const step of plan.graph.steps) await c.run(DUCKDB.materialize(step.table, step.sql));
      const keyed = async (sql: string): Promise<string[]> => (await c.runAndReadAll(sql)).getRows().map((row) => row.map(Number).join(':')).sort();
      assert.deepEqual(await keyed('SELECT shingle, first_page, size FROM templates'), templatesOf(want), `seed ${seed}: templates of every shingle`);
      assert.deepEqual(await keyed('SELECT shingle, page FROM template_link_pages'), [...want.keys()].sort(), `seed ${seed}: linked pairs`);
      assert.deepEqual(await keyed('SELECT shingle, page FROM unlinked_pairs'), unlinked.sort(), `seed ${seed}: unlinked pairs`);
    }
  } finally {
    c.closeSync();
    db.closeSync();
  }
});
