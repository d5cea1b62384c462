/**
 * Running the plan of sql-steps.ts on DuckDB, in-process: each step's SELECT becomes a table, the
 * components loop iterates until no label changes, tables no later statement reads are dropped as soon
 * as possible (so DuckDB's memory goes to the joins). global.ts runs it over its own tables on one
 * machine; global-shards.ts over the Parquet shards of a work directory.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { DUCKDB } from './sql-dialect.ts';
import type { SqlLoop, SqlPlan, SqlStep, TableName } from './sql-steps.ts';

/** What a run of the plan reports. */
export interface PlanRun {
  /** Milliseconds per step group. */
  timings: Record<string, number>;
  /** Iterations of the components loop. */
  iterations: number;
  /** Rows of each counted table (`plan.counted`). */
  counts: Record<string, number>;
}

/** Options of `runPlan`. */
export interface RunPlanOptions {
  /** Qualifies table names (as the plan was built with). */
  t?: TableName;
  /** Tables kept after the run (others are dropped once no later statement reads them). */
  keep?: ReadonlySet<string>;
  /** Inputs that are views (e.g. over Parquet files), dropped as views. */
  views?: ReadonlySet<string>;
  /** Called after each statement group's step (e.g. to sample memory). */
  afterStep?: (group: string) => Promise<void>;
  /**
   * Computes the components itself in place of the SQL loop (one machine: a union-find streamed over
   * template_links, global.ts); the steps of the loop's group are then skipped.
   */
  components?: () => Promise<void>;
}

/** Runs one statement of the step that makes `table`; an error names the step (and the iteration). */
async function named<T>(table: string, run: () => Promise<T>, iteration?: number): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const at = iteration === undefined ? '' : ` (iteration ${iteration} of the components loop)`;
    throw new Error(`pagelets global step ${table}${at} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

const mentions = (sql: string, table: string): boolean => new RegExp(`\\b${table}\\b`).test(sql);

/** The text of every statement of the plan, in order, with the table each one creates. */
function statements(plan: SqlPlan): Array<{ table?: string; sql: string }> {
  const l = plan.loop;
  return [
    ...plan.before,
    ...l.init,
    // the loop's statements, as one (they are all read until the loop ends)
    { sql: [...l.body.map((s) => s.sql), l.changed].join('\n') },
    ...plan.after,
    ...plan.outputs.map((o) => ({ sql: o.sql })),
  ];
}

/** For each table, the index in `statements(plan)` after which no statement reads it. */
function lastUses(plan: SqlPlan, tables: readonly string[]): Map<string, number> {
  const all = statements(plan);
  const last = new Map<string, number>();
  for (const table of tables) {
    let at = -1;
    all.forEach((s, i) => {
      if (mentions(s.sql, table) || s.table === table) at = i;
    });
    last.set(table, at);
  }
  return last;
}

/** Runs the plan's steps (not its outputs) on a DuckDB connection; the outputs are the caller's. */
export async function runPlan(c: DuckDBConnection, plan: SqlPlan, options: RunPlanOptions = {}): Promise<PlanRun> {
  const t = options.t ?? ((n: string) => n);
  const keep = options.keep ?? new Set<string>();
  const timings: Record<string, number> = {};
  const created = [
    ...Object.keys(plan.inputs),
    ...plan.before.map((s) => s.table),
    ...plan.loop.init.map((s) => s.table),
    ...plan.loop.body.map((s) => s.table),
    ...plan.after.map((s) => s.table),
  ];
  const last = lastUses(plan, created);
  const counts: Record<string, number> = {};
  const count = async (table: string): Promise<void> => {
    if (plan.counted.includes(table)) counts[table] = Number((await c.runAndReadAll(`SELECT count(*) FROM ${t(table)}`)).getRows()[0]![0]);
  };
  for (const table of Object.keys(plan.inputs)) await count(table);
  let index = 0;
  const dropped = new Set<string>();
  const dropDone = async (): Promise<void> => {
    const names = [...last].filter(([name, at]) => at <= index && !keep.has(name) && !dropped.has(name)).map(([name]) => name);
    for (const name of names) dropped.add(name);
    const drop = names.map((name) => `DROP ${options.views?.has(name) ? 'VIEW' : 'TABLE'} IF EXISTS ${t(name)};`);
    index++;
    if (drop.length > 0) await c.run(drop.join(' '));
  };
  const run = async (s: SqlStep): Promise<void> => {
    const t0 = performance.now();
    await named(s.table, () => c.run(DUCKDB.materialize(t(s.table), s.sql)));
    timings[s.group] = (timings[s.group] ?? 0) + performance.now() - t0;
    await count(s.table);
    await options.afterStep?.(s.group);
  };
  for (const s of plan.before) {
    await run(s);
    await dropDone();
  }
  let iterations = 0;
  if (options.components) {
    index += plan.loop.init.length + 1;
    await options.components();
  } else {
    for (const s of plan.loop.init) {
      await run(s);
      await dropDone();
    }
    iterations = await iterate(c, plan.loop, t, timings);
    await dropDone();
  }
  for (const s of plan.after) {
    if (options.components && s.group === plan.loop.group) {
      index++;
      continue;
    }
    await run(s);
    await dropDone();
  }
  return { timings, iterations, counts };
}

/** The components loop (its init steps already run): body steps until nothing changes; fails past `maxIterations`. */
export async function iterate(c: DuckDBConnection, loop: SqlLoop, t: TableName, timings: Record<string, number>): Promise<number> {
  const t0 = performance.now();
  let iterations = 0;
  for (;;) {
    if (iterations >= loop.maxIterations) {
      throw new Error(`pagelets: connected components did not converge in ${loop.maxIterations} iterations of label propagation`);
    }
    iterations++;
    for (const s of loop.body) await named(s.table, () => c.run(DUCKDB.materialize(t(s.table), s.sql)), iterations);
    const changed = Number((await named('cc_changed', () => c.runAndReadAll(loop.changed), iterations)).getRows()[0]![0]);
    await c.run(`DROP TABLE ${t(loop.state)}; ALTER TABLE ${t(loop.next)} RENAME TO ${loop.state};`);
    if (changed === 0) break;
  }
  for (const s of loop.body) if (s.table !== loop.next) await c.run(`DROP TABLE IF EXISTS ${t(s.table)}`);
  timings[loop.group] = (timings[loop.group] ?? 0) + performance.now() - t0;
  return iterations;
}
