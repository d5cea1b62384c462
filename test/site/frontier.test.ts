import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Frontier } from '../../src/site/frontier.ts';

const drain = (f: Frontier): string[] => {
  const out: string[] = [];
  for (let x = f.pop(); x; x = f.pop()) out.push(x.key);
  return out;
};

test('the frontier serves the highest priority first and, among equals, the order URLs were found', () => {
  const f = new Frontier();
  for (const [k, p] of [['a', 0], ['b', 1], ['c', 0], ['d', 1], ['e', 0.5]] as const) f.push({ url: `u:${k}`, key: k }, p);
  assert.equal(f.size, 5);
  assert.deepEqual(drain(f), ['b', 'd', 'e', 'a', 'c']);
  assert.equal(f.size, 0);
  assert.equal(f.pop(), undefined);
});

test('one priority for every URL is breadth-first order; a raised URL moves up, a lowered one does not', () => {
  const f = new Frontier();
  for (const k of ['a', 'b', 'c', 'd']) f.push({ url: k, key: k });
  assert.equal(f.push({ url: 'c', key: 'c' }, -1), false, 'lower: nothing changes');
  assert.equal(f.push({ url: 'b', key: 'b' }, 0), false, 'equal: nothing changes');
  assert.deepEqual(drain(f), ['a', 'b', 'c', 'd']);
  for (const k of ['a', 'b', 'c', 'd']) f.push({ url: k, key: k }, 0);
  f.push({ url: 'a', key: 'a' }, 1);
  assert.ok(f.push({ url: 'c', key: 'c' }, 2));
  assert.ok(f.push({ url: 'd', key: 'd' }, 1));
  assert.equal(f.size, 4);
  assert.deepEqual(drain(f), ['c', 'a', 'd', 'b'], 'raised URLs keep the order they were first found among equals');
});
