/**
 * Pathological pages (test/fuzz/shapes.ts at the sizes met in the field: 400,000 nested divs, 200,000 links
 * in one element, a 9 MB text node, megabytes of attribute values, 100,000 siblings or text nodes, a table
 * of 200,000 cells, deep inline nesting, misnested formatting): the CPU time of every per-page step
 * (test/fuzz/steps.ts) as a ratio to parsing the same page on the fast path. A near-linear step keeps a
 * ratio of the order of its ratio on ordinary pages; a step whose cost grows with the square of the page
 * shows ratios in the hundreds (or does not finish). `--scale x` runs other sizes (0.5 is what the test
 * runs); `--check` also runs every step at a quarter of the size and reports how each step's time grew
 * (4 for a linear step, 16 for a quadratic one). No corpus needed.
 * Run: `npx tsx bench/pathological.bench.ts [--scale x] [--reps n] [--check]`.
 */
import { loadavg } from 'node:os';
import { shapes } from '../test/fuzz/shapes.ts';
import { PAGE_STEPS, parseInput } from '../test/fuzz/steps.ts';
import { fmt, fullGc, table, time } from './common.ts';

const arg = (name: string, dflt: number): number => {
  const k = process.argv.indexOf(name);
  return k > 0 ? Number(process.argv[k + 1]) : dflt;
};
const SCALE = arg('--scale', 1);
const REPS = arg('--reps', 3);
const CHECK = process.argv.includes('--check');

/** CPU ms of parsing and of every step on one page (medians of REPS runs after a warm-up). */
function measure(html: string): { parse: number; steps: number[] } {
  fullGc();
  const parse = time(() => parseInput(html), { reps: REPS }).cpu;
  const page = parseInput(html);
  const steps = PAGE_STEPS.map((s) => {
    fullGc();
    return time(() => s.run(page), { reps: REPS }).cpu;
  });
  return { parse, steps };
}

console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores shared); scale ${SCALE}, ${REPS} reps, CPU time`);
const rows: string[][] = [['shape', 'MB', 'parse ms', ...PAGE_STEPS.map((s) => s.name)]];
const growth: string[][] = [['shape (×4 size)', 'parse', ...PAGE_STEPS.map((s) => s.name)]];
const small = CHECK ? shapes(SCALE / 4) : [];
shapes(SCALE).forEach((shape, k) => {
  const m = measure(shape.html);
  rows.push([shape.name, fmt(shape.html.length / 1e6, 1), fmt(m.parse, 0), ...m.steps.map((t) => fmt(t / m.parse, 2))]);
  if (CHECK) {
    const q = measure(small[k]!.html);
    // Times under a millisecond say nothing about growth.
    const g = (big: number, little: number): string => (little < 1 ? '-' : fmt(big / little, 1));
    growth.push([shape.name, g(m.parse, q.parse), ...m.steps.map((t, j) => g(t, q.steps[j]!))]);
  }
  console.error(`done: ${shape.name}`);
});
console.log('\nTime of each step as a ratio to parsing the same page (fast path):');
console.log(table(rows));
if (CHECK) {
  console.log('\nGrowth of each step from a quarter of the size to the full size (4: linear, 16: quadratic):');
  console.log(table(growth));
}
console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
