/**
 * RunStream: the pipelines' async iterables. Items wait for the consumer (back-pressure), a consumer that
 * stops early aborts the work, `result()` drains what nobody read, and the run's error ends the iteration.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunAbandoned, RunStream } from '../../src/run/stream.ts';

test('items arrive in order and the result after them', async () => {
  const run = new RunStream<number, string>(async (emit) => {
    for (let i = 0; i < 20; i++) await emit(i);
    return 'done';
  });
  const seen: number[] = [];
  for await (const x of run) seen.push(x);
  assert.deepEqual(seen, Array.from({ length: 20 }, (_, i) => i));
  assert.equal(await run.result(), 'done');
});

test('back-pressure: the producer waits while the consumer has not taken the items', async () => {
  let produced = 0;
  const run = new RunStream<number, void>(async (emit) => {
    for (let i = 0; i < 100; i++) {
      await emit(i);
      produced++;
    }
  });
  const it = run[Symbol.asyncIterator]();
  await it.next();
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(produced < 10, `the producer ran ahead by ${produced} items`);
  await it.return?.();
});

test('a consumer that stops early aborts the work; the work sees its signal', async () => {
  let aborted: unknown;
  const run = new RunStream<number, void>(async (emit, signal) => {
    try {
      for (let i = 0; ; i++) await emit(i);
    } finally {
      aborted = signal.reason;
    }
  });
  for await (const x of run) if (x === 3) break;
  await assert.rejects(run.result(), RunAbandoned);
  assert.ok(aborted instanceof RunAbandoned);
});

test('result() without iterating drains the items; a final error ends the iteration after the items', async () => {
  const drained = new RunStream<number, number>(async (emit) => {
    for (let i = 0; i < 50; i++) await emit(i);
    return 50;
  });
  assert.equal(await drained.result(), 50);
  const failing = new RunStream<number, { error?: string }>(
    async (emit) => {
      await emit(1);
      return { error: 'no template' };
    },
    (r) => (r.error ? new Error(r.error) : undefined),
  );
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const x of failing) seen.push(x);
  }, /no template/);
  assert.deepEqual(seen, [1]);
  assert.deepEqual(await failing.result(), { error: 'no template' });
});

test('an unexpected error of the work rejects the iteration and the result', async () => {
  const run = new RunStream<number, void>(async () => {
    throw new TypeError('boom');
  });
  await assert.rejects(async () => {
    for await (const _ of run) void _;
  }, TypeError);
  await assert.rejects(run.result(), TypeError);
});
