"""Spark driver for gabarit's pagelets global step (paper 3, Figure 5), submitted with spark-submit.

    spark-submit --master local[2] spark/gabarit_global.py JOB.json [JOB.json ...]

Each JOB.json (written by gabarit, src/template/pagelets/global-shards.ts) holds the Parquet files of the
shards (inputs), the plan of src/template/pagelets/sql-steps.ts (SQL SELECTs, the same text DuckDB runs),
where to write the results, and Spark settings. Each step's SELECT is written as Parquet under the job's
output folder and read back as a temporary view: later steps read stored rows with their real size, and
every plan stays short. (Persisting keeps each view's whole plan, which the components loop nests
exponentially; localCheckpoint keeps the plan's size estimates, products of the inputs' for joins, which
the loop grows into numbers of millions of digits. Both stalled the driver.)
The components loop's tables (its init and body steps) are written as bucketed tables, bucketed by shingle
into as many buckets as the job has shuffle partitions: every join and grouping of the loop is on the
shingle and more columns, so with spark.sql.requireAllClusterKeysForCoPartition=false (the plan's Spark
settings) Spark joins bucket i with bucket i and shuffles none of the loop's rows.
The outputs are written as Parquet (partitioned like DuckDB's COPY ... PARTITION_BY); result.json gives
the timings per step group, the row counts and the iterations of the components loop.
"""
import itertools
import json
import os
import shutil
import sys
import time

from pyspark.sql import SparkSession


# names of the bucketed step tables, unique over the jobs of one spark-submit
STEP_TABLES = itertools.count(1)


class StepError(RuntimeError):
    """A step that failed, named as gabarit names it (the engine's message follows)."""

    def __init__(self, table, iteration, err):
        at = "" if iteration is None else " (iteration %d of the components loop)" % iteration
        first = str(err).strip().split("\n")[0]
        super().__init__("pagelets global step %s%s failed: %s" % (table, at, first))


def main(job_paths):
    jobs = []
    for path in job_paths:
        with open(path, encoding="utf-8") as f:
            jobs.append(json.load(f))
    spark = SparkSession.builder.appName(jobs[0].get("appName", "gabarit pagelets global")).getOrCreate()
    for job in jobs:
        run_job(spark, job)
    spark.stop()


def run_job(spark, job):
    """Runs one plan over one crawl's shards and writes its outputs and result.json."""
    plan = job["plan"]
    conf = dict(job.get("conf", {}))
    # a few shuffle partitions per core (Spark's default, 200, is for large clusters; adaptive query
    # execution coalesces small ones), unless the job sets its own
    conf.setdefault("spark.sql.shuffle.partitions", str(4 * spark.sparkContext.defaultParallelism))
    given = spark.sparkContext.getConf()
    for key, value in conf.items():
        # a setting given to spark-submit (--conf) wins over the job's
        if not given.contains(key):
            spark.conf.set(key, value)
    buckets = int(spark.conf.get("spark.sql.shuffle.partitions"))
    bucketed = set(s["table"] for s in plan["loop"]["init"] + plan["loop"]["body"])
    frames = {}
    paths = {}
    timings = {}
    counts = {}
    steps_dir = os.path.join(job["outDir"], "_steps")
    written = [0]
    tables = {}

    def register(name, df, path=None):
        old = paths.get(name)
        frames[name] = df
        paths[name] = path
        df.createOrReplaceTempView(name)
        # a result may be bound to two names (the loop's state and its last step): keep it while bound
        if old is not None and old not in paths.values():
            if old in tables:
                spark.sql("DROP TABLE IF EXISTS " + tables.pop(old))
            shutil.rmtree(old, ignore_errors=True)

    sc = spark.sparkContext

    def materialize(table, sql, iteration=None):
        written[0] += 1
        path = os.path.join(steps_dir, "%05d" % written[0])
        try:
            if table in bucketed:
                # an external table of the session's catalog, read back with its buckets
                name = "gabarit_step_%d_%05d" % (os.getpid(), next(STEP_TABLES))
                spark.sql(sql).write.bucketBy(buckets, "shingle").option("path", path).saveAsTable(name)
                tables[path] = name
                return spark.table(name), path
            spark.sql(sql).write.parquet(path)
        except Exception as err:
            raise StepError(table, iteration, err) from err
        df = spark.read.parquet(path)
        return df, path

    def count_of(name):
        if name in plan["counted"]:
            counts[name] = frames[name].count()

    def run(step):
        start = time.time()
        sc.setJobDescription(step["table"])
        df, path = materialize(step["table"], step["sql"])
        register(step["table"], df, path)
        count_of(step["table"])
        timings[step["group"]] = timings.get(step["group"], 0) + (time.time() - start) * 1000

    for name, files in job["inputs"].items():
        register(name, spark.read.parquet(*files))
        count_of(name)
    for step in plan["before"]:
        run(step)
    loop = plan["loop"]
    for step in loop["init"]:
        run(step)
    start = time.time()
    iterations = 0
    last = loop["next"]
    while True:
        if iterations >= loop["maxIterations"]:
            raise RuntimeError("connected components did not converge in %d iterations of label propagation" % loop["maxIterations"])
        iterations += 1
        for step in loop["body"]:
            sc.setJobDescription(step["table"])
            register(step["table"], *materialize(step["table"], step["sql"], iterations))
        sc.setJobDescription("cc_changed")
        try:
            changed = spark.sql(loop["changed"]).collect()[0][0]
        except Exception as err:
            raise StepError("cc_changed", iterations, err) from err
        register(loop["state"], frames[last], paths[last])
        if changed == 0:
            break
    timings[loop["group"]] = timings.get(loop["group"], 0) + (time.time() - start) * 1000
    for step in plan["after"]:
        run(step)
    start = time.time()
    for out in plan["outputs"]:
        sc.setJobDescription("write " + out["name"])
        writer = spark.sql(out["sql"]).write.mode("overwrite")
        if out.get("partitionBy"):
            writer = writer.partitionBy(out["partitionBy"])
        writer.parquet(job["outDir"] + "/" + out["name"])
    timings["write"] = (time.time() - start) * 1000
    result = {
        "backend": "spark",
        "sparkVersion": spark.version,
        "master": spark.sparkContext.master,
        "defaultParallelism": spark.sparkContext.defaultParallelism,
        "timings": timings,
        "counts": counts,
        "iterations": iterations,
    }
    with open(job["resultPath"], "w", encoding="utf-8") as f:
        json.dump(result, f)
    for name in tables.values():
        spark.sql("DROP TABLE IF EXISTS " + name)
    shutil.rmtree(steps_dir, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: spark-submit gabarit_global.py JOB.json [JOB.json ...]\n")
        sys.exit(2)
    main(sys.argv[1:])
