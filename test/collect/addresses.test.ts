import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Addresses } from '../../src/collect/addresses.ts';
import { ClusterTable } from '../../src/structure/schema-clusters.ts';
import type { PageSchema } from '../../src/structure/page-schema.ts';

test('addresses: the nearest key shares the most leading folders, then the depth', () => {
  const a = new Addresses();
  a.add('community/3.0-announcement/index.html');
  assert.ok(a.nearest('community/jobs/') > a.nearest('api-guide/views/'), 'the same section');
  assert.ok(a.nearest('api-guide/views/') > a.nearest('index.html'), 'the same depth');
  assert.equal(new Addresses().nearest('x'), -1);
  assert.deepEqual(a.order(['index.html', 'api-guide/views/', 'community/jobs/']), ['community/jobs/', 'api-guide/views/', 'index.html']);
  assert.deepEqual(new Addresses().order(['b', 'a']), ['b', 'a'], 'no model: document order');
});

test('clusters: with a threshold a schema joins the most similar cluster; without, identical schemas only', () => {
  const e = new Int32Array(0);
  const s = (...links: number[]): PageSchema => ({ links: Int32Array.from(links), layout: e, content: e });
  const strict = new ClusterTable<number>();
  const leader = new ClusterTable<number>(0.8);
  for (const t of [strict, leader]) {
    t.add(s(1, 2, 3, 4, 5), 0);
    t.add(s(1, 2, 3, 4, 5, 6), 1); // 5/6 alike
    t.add(s(7, 8), 2);
  }
  assert.equal(strict.size, 3);
  assert.equal(leader.size, 2);
  assert.equal(leader.clusters[0]!.schemas.length, 2, 'the cluster keeps both distinct schemas');
  assert.deepEqual(leader.clusters[0]!.pages, [0, 1]);
});
