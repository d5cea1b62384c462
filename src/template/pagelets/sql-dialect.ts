/**
 * Where DuckDB and Spark SQL differ in running the plan of sql-steps.ts; the SELECTs themselves are the
 * same text on both. Three things differ:
 *  - how a step's result becomes a table: DuckDB `CREATE OR REPLACE TABLE name AS <select>`; Spark writes
 *    the SELECT's result as Parquet and reads it back as a temporary view under the name (later steps read
 *    the stored rows, with their real size for the optimizer; the components loop's tables bucketed by
 *    shingle, so that the loop's joins need no shuffle);
 *  - how the shards are read: DuckDB `read_parquet([files])`; Spark `spark.read.parquet(*files)`;
 *  - how results are written: DuckDB `COPY (<select>) TO dir (FORMAT parquet, PARTITION_BY (col))`; Spark
 *    `df.write.partitionBy(col).parquet(dir)`. Both give `dir/<col>=<value>/*.parquet`.
 * The Spark side of each is in `spark/gabarit_global.py` (a short driver that takes the plan as JSON), which
 * also keeps the steps marked `view` as views and computes the components as a graph (`SqlPlan.graph`).
 */

/** SQL text for one engine: what the plan runner executes around the shared SELECTs. */
export interface SqlDialect {
  readonly name: 'duckdb' | 'spark';
  /** Statement that makes `select`'s result the table `table`. */
  materialize(table: string, select: string): string;
  /** A FROM item reading Parquet files. */
  readParquet(files: readonly string[]): string;
  /** Statement writing `select` to Parquet under `dir` (split into `<column>=<value>/` when given). */
  writeParquet(select: string, dir: string, partitionBy?: string): string;
}

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export const DUCKDB: SqlDialect = {
  name: 'duckdb',
  materialize: (table, select) => `CREATE OR REPLACE TABLE ${table} AS ${select}`,
  readParquet: (files) => `read_parquet([${files.map(quote).join(', ')}])`,
  writeParquet: (select, dir, partitionBy) =>
    partitionBy
      ? `COPY (${select}) TO ${quote(dir)} (FORMAT parquet, PARTITION_BY (${partitionBy}), OVERWRITE_OR_IGNORE)`
      : `COPY (${select}) TO ${quote(dir + '/part-0.parquet')} (FORMAT parquet)`,
};

/**
 * Spark's side, as the driver does it (for documentation and the driver's arguments): the SQL is sent as
 * is; `materialize`, `readParquet` and `writeParquet` are DataFrame calls in the driver.
 */
export const SPARK = {
  name: 'spark' as const,
  /**
   * Spark settings the driver applies (`--spark-conf` adds or overrides); without a
   * `spark.sql.shuffle.partitions` of the job's own the driver takes 4 per core of the application.
   */
  conf: {
    'spark.sql.adaptive.enabled': 'true',
    // the components loop's tables are bucketed by shingle (the driver): its joins on (shingle, page) and
    // (shingle, label) then read bucket against bucket, without a shuffle
    'spark.sql.requireAllClusterKeysForCoPartition': 'false',
    'spark.sql.sources.bucketing.autoBucketedScan.enabled': 'false',
    // a task writes the rows of up to 16 partition folders (the output's shards) without sorting them first
    'spark.sql.maxConcurrentOutputFileWriters': '16',
  } as Record<string, string>,
};
