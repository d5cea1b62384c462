/**
 * Every per-page step finishes on pages whose shape is hard on a tool (test/fuzz/shapes.ts, at half the
 * sizes met in the field): 200,000 nested divs, 100,000 links in one element, megabytes of attribute
 * values, 20,000 attributes on one element, 50,000 siblings or text nodes, a 4.5 MB text node, a table of
 * 100,000 cells, deep inline nesting, misnested formatting. A step whose cost grows with the square of the size takes minutes here
 * (the parsers on deep nesting, link collections on a paragraph of links, XPath on a large result): the
 * generous timeout is the bound, not a speed measure (speed is bench/pathological.bench.ts's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTree } from '../html/invariants.ts';
import { shapes } from './shapes.ts';
import { PAGE_STEPS, parseInput } from './steps.ts';

/** Far above what each shape takes (a few seconds on a loaded machine), far below a quadratic step's minutes. */
const TIMEOUT_MS = 120_000;

for (const shape of shapes(0.5)) {
  test(`every per-page step finishes on ${shape.what} (${(shape.html.length / 1e6).toFixed(1)} MB)`, { timeout: TIMEOUT_MS }, () => {
    const page = parseInput(shape.html);
    checkTree(page.tree, shape.name);
    for (const step of PAGE_STEPS) {
      const out = step.run(page);
      assert.ok(Number.isFinite(out), `${shape.name}: ${step.name} gave ${out}`);
    }
  });
}
