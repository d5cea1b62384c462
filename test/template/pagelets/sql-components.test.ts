/**
 * The components loop of sql-steps.ts on DuckDB, against a union-find, on graphs written to be hard for
 * label propagation: long paths whose pages are numbered at random (a label travels far), stars, and
 * random sparse edges, several shingles sharing pages, and shingles whose linked pages are the same set (their
 * components are computed once). Every page's final label must be the least page of its component in its
 * shingle, and the templates (each component's least page and size) must be those of every shingle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { DUCKDB } from '../../../src/template/pagelets/sql-dialect.ts';
import { iterate } from '../../../src/template/pagelets/sql-run.ts';
import { figure5Plan } from '../../../src/template/pagelets/sql-steps.ts';
import { expected, graph, templatesOf } from '../../fixtures/component-graphs.ts';

for (const [name, pageHash] of [
  ['', undefined],
  // every set of the same size has the same key: only the page-for-page check tells them apart
  [', with a page hash that makes the set keys collide', '0'],
] as const) {
  test(`the SQL components loop gives every page the least page of its component (DuckDB, against a union-find)${name}`, async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const plan = figure5Plan({ minPages: 2, minSupport: 0.05, supportCap: 50 }, (n) => n, pageHash === undefined ? {} : { pageHash });
      const linkPages = plan.before.find((s) => s.table === 'template_link_pages')!;
      const templates = plan.after.find((s) => s.table === 'templates')!;
      for (const seed of [1, 2, 3]) {
        const links = graph(seed);
        await c.run('CREATE OR REPLACE TABLE template_links (shingle DOUBLE, src BIGINT, dest BIGINT)');
        const app = await c.createAppender('template_links');
        for (const [s, a, b] of links) {
          app.appendDouble(s);
          app.appendBigInt(BigInt(a));
          app.appendBigInt(BigInt(b));
          app.endRow();
        }
        app.flushSync();
        app.closeSync();
        for (const s of [linkPages, ...plan.loop.init]) await c.run(DUCKDB.materialize(s.table, s.sql));
        const iterations = await iterate(c, plan.loop, (n) => n, {});
        const want = expected(links);
        // the loop labels the representatives' pages only: shingles 7 and 8 are 1's, 9 (other pages) its own
        const reps = (await c.runAndReadAll('SELECT shingle, rep FROM cc_reps ORDER BY shingle')).getRows().map(([s, r]) => `${Number(s)}>${Number(r)}`);
        assert.deepEqual(reps, ['1>1', '2>2', '3>3', '4>4', '5>5', '6>6', '7>1', '8>1', '9>9'], `seed ${seed}: representatives`);
        const rows = (await c.runAndReadAll(`SELECT shingle, page, label FROM ${plan.loop.state}`)).getRows();
        assert.equal(rows.length, [...want.keys()].filter((k) => !/^[78]:/.test(k)).length, `seed ${seed}: one label per (shingle, page) of a representative`);
        for (const [s, p, label] of rows) assert.equal(Number(label), want.get(`${Number(s)}:${Number(p)}`), `seed ${seed}: page ${String(p)} of shingle ${String(s)}`);
        await c.run(DUCKDB.materialize(templates.table, templates.sql));
        const got = (await c.runAndReadAll('SELECT shingle, first_page, size FROM templates')).getRows().map(([s, f, n]) => `${Number(s)}:${Number(f)}:${Number(n)}`);
        assert.deepEqual(got.sort(), templatesOf(want), `seed ${seed}: templates of every shingle`);
        assert.ok(iterations < 20, `seed ${seed}: ${iterations} iterations`);
      }
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });
}
