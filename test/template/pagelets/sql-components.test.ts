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
import { random } from '../../fixtures/synthetic-sites.ts';

type Link = [shingle: number, src: number, dest: number];

function graph(seed: number): Link[] {
  const rnd = random(seed);
  const links: Link[] = [];
  const pick = (n: number): number => Math.floor(rnd() * n);
  // page ids as over shards: shard × 2^32 + page
  const page = (): number => pick(8) * 4294967296 + pick(5000);
  for (let shingle = 1; shingle <= 6; shingle++) {
    // a long path in random page order, in one direction or the other
    const path = Array.from({ length: 200 + pick(300) }, page);
    for (let i = 1; i < path.length; i++) links.push(rnd() < 0.5 ? [shingle, path[i - 1]!, path[i]!] : [shingle, path[i]!, path[i - 1]!]);
    // a star
    const hub = page();
    for (let i = 0; i < 30; i++) links.push([shingle, page(), hub]);
    // random sparse edges (many small components)
    for (let i = 0; i < 300; i++) links.push([shingle, page(), page()]);
  }
  const own = links.filter(([, a, b]) => a !== b);
  // shingles 7 and 8 on the same pages as 1 (edges reversed for 8): the same set of linked pages, so the
  // same links between them, as template links are; 9 the same graph as 1 on other pages (a set of the same size)
  const one = own.filter(([x]) => x === 1);
  const other = 8 * 4294967296;
  return [...own, ...one.map(([, a, b]): Link => [7, a, b]), ...one.map(([, a, b]): Link => [8, b, a]), ...one.map(([, a, b]): Link => [9, a + other, b + other])];
}

/** Least page of each (shingle, page)'s component, by union-find. */
function expected(links: readonly Link[]): Map<string, number> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const node = (s: number, p: number): string => {
    const k = `${s}:${p}`;
    if (!parent.has(k)) parent.set(k, k);
    return k;
  };
  for (const [s, a, b] of links) {
    const ra = find(node(s, a));
    const rb = find(node(s, b));
    if (ra !== rb) parent.set(ra, rb);
  }
  const least = new Map<string, number>();
  for (const k of parent.keys()) {
    const r = find(k);
    const p = Number(k.split(':')[1]);
    least.set(r, Math.min(least.get(r) ?? Infinity, p));
  }
  return new Map([...parent.keys()].map((k) => [k, least.get(find(k))!]));
}

/** (shingle, least page, size) of every component, sorted. */
function templatesOf(labels: Map<string, number>): string[] {
  const size = new Map<string, number>();
  for (const [k, least] of labels) {
    const key = `${k.split(':')[0]}:${least}`;
    size.set(key, (size.get(key) ?? 0) + 1);
  }
  return [...size].map(([k, n]) => `${k}:${n}`).sort();
}

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
