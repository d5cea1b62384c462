"""Spark driver for gabarit's pagelets global step (paper 3, Figure 5), submitted with spark-submit.

    spark-submit --master local[2] spark/gabarit_global.py JOB.json [JOB.json ...]

Each JOB.json (written by gabarit, src/template/pagelets/global-shards.ts) holds the Parquet files of the
shards (inputs), the plan of src/template/pagelets/sql-steps.ts (SQL SELECTs, the same text DuckDB runs),
where to write the results, and Spark settings. Each step's SELECT is written as Parquet under the job's
output folder and read back as a temporary view: later steps read stored rows with their real size, and
every plan stays short; a step the plan marks as a view (read once, or a filter cheap to repeat, whose
size no join needs) stays a view over its inputs, and no rows of it are stored. (Persisting keeps each view's whole plan, which the components loop nests
exponentially; localCheckpoint keeps the plan's size estimates, products of the inputs' for joins, which
the loop grows into numbers of millions of digits. Both stalled the driver.)
The components loop's tables (its init and body steps) are written as bucketed tables, bucketed by shingle
into as many buckets as the job has shuffle partitions: every join and grouping of the loop is on the
shingle and more columns, so with spark.sql.requireAllClusterKeysForCoPartition=false (the plan's Spark
settings) Spark joins bucket i with bucket i and shuffles none of the loop's rows.
The connected components of each shingle's template links are computed, by default, by a vectorised
connected components per partition of the template links grouped by shingle (scipy's, through Arrow
batches: `link_components`), in place of the plan's SQL loop; `spark.gabarit.components=sql` runs the
loop (the text DuckDB runs), as does a driver without numpy, scipy, pyarrow and pandas. Both give the
same components: a shingle's pages with the least page of their component.
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


# the libraries the graph components need, on the driver and on every executor
GRAPH_MODULES = ("numpy", "scipy", "pyarrow", "pandas")
# links (and candidate pairs) a task of the graph components holds at most (about 100 bytes each at its peak)
EDGES_PER_TASK = 2000000


def graph_available():
    """None when the graph components' libraries import here, else what is missing."""
    for name in GRAPH_MODULES:
        try:
            __import__(name)
        except ImportError as err:
            return "%s (%s)" % (name, err)
    return None


def link_components(batches):
    """Connected components of one partition's links (shingle, src, dest), every shingle's links in one
    partition, a link of a page to itself for each candidate pair: a row (shingle, page, label, linked) for
    each pair, label the least page of its component, linked whether the component has another page (a
    component never spans two shingles: its nodes are (shingle, page) pairs). Pages and shingles are
    numbered by hashing (pandas.factorize), not sorting."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    cols = ([], [], [])
    for batch in batches:
        for i in range(3):
            cols[i].append(batch.column(i).to_numpy(zero_copy_only=False))
    if sum(len(c) for c in cols[0]) == 0:
        return
    shingle = np.concatenate(cols[0]).astype(np.int64)  # 53-bit integers: exact
    src = np.concatenate(cols[1])
    dest = np.concatenate(cols[2])
    del cols
    pair = src == dest
    link = ~pair
    # the nodes: the candidate pairs (distinct); a link's ends are candidate pairs of its shingle, found by
    # their (shingle, page) keys (an index of keys that are not distinct fails: never a wrong component)
    node_page = src[pair]
    n = len(node_page)
    page_codes, pages = pd.factorize(np.concatenate([node_page, src[link], dest[link]]))
    node_shingle = shingle[pair]
    shingle_codes, _ = pd.factorize(np.concatenate([node_shingle, shingle[link]]))
    m = len(shingle_codes) - n
    base = shingle_codes.astype(np.int64) * np.int64(len(pages))
    nodes = pd.Index(base[:n] + page_codes[:n])
    ends = [nodes.get_indexer(base[n:] + page_codes[n:n + m]), nodes.get_indexer(base[n:] + page_codes[n + m:])]
    if m and (ends[0].min() < 0 or ends[1].min() < 0):
        raise RuntimeError("a template link whose page is not a candidate pair of its shingle")
    graph = coo_matrix((np.ones(m, dtype=np.int8), (ends[0], ends[1])), shape=(n, n)).tocsr()
    count, comp = connected_components(graph, directed=True, connection="weak")
    least = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(least, comp, node_page)
    label = least[comp]
    linked = np.bincount(comp, minlength=count)[comp] > 1
    out_shingle = node_shingle.astype(np.float64)
    step = 1 << 20
    for at in range(0, n, step):
        end = at + step
        yield pa.RecordBatch.from_arrays(
            [pa.array(out_shingle[at:end]), pa.array(node_page[at:end]), pa.array(label[at:end]), pa.array(linked[at:end])],
            names=["shingle", "page", "label", "linked"])


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
    by = spark.conf.get("spark.gabarit.components", None)
    missing = graph_available() if by != "sql" else None
    if by is None:
        by = "sql" if missing else "graph"
    elif by not in ("graph", "sql"):
        raise RuntimeError("spark.gabarit.components is graph or sql, not %r" % by)
    elif by == "graph" and missing:
        raise RuntimeError("spark.gabarit.components=graph needs %s on the driver and the executors: %s" % (", ".join(GRAPH_MODULES), missing))
    graph = plan["graph"]
    replaced = set(s["table"] for s in graph["steps"]) if by == "graph" else set()
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
        if step.get("view") and step["table"] not in bucketed:
            # read once, or a filter cheap to repeat: a view over its inputs, no rows stored
            try:
                df, path = spark.sql(step["sql"]), None
            except Exception as err:
                raise StepError(step["table"], None, err) from err
        else:
            df, path = materialize(step["table"], step["sql"])
        register(step["table"], df, path)
        try:
            count_of(step["table"])
        except Exception as err:
            raise StepError(step["table"], None, err) from err
        timings[step["group"]] = timings.get(step["group"], 0) + (time.time() - start) * 1000

    for name, files in job["inputs"].items():
        register(name, spark.read.parquet(*files))
        count_of(name)
    for step in plan["before"]:
        if step["table"] not in replaced:
            run(step)
    loop = plan["loop"]
    iterations = 0
    start = time.time()
    if by == "graph":
        sc.setJobDescription(graph["table"])
        if link_components.__module__ != "__main__":
            # imported by another driver (gabarit_shards.py): the executors have no such module, so the
            # function travels by value
            from pyspark import cloudpickle
            cloudpickle.register_pickle_by_value(sys.modules[link_components.__module__])
        parts = max(buckets, -(-sum(counts.get(t, 0) for t in graph["sizes"]) // EDGES_PER_TASK))
        written[0] += 1
        path = os.path.join(steps_dir, "%05d" % written[0])
        try:
            spark.sql(graph["edges"]).repartition(parts, "shingle") \
                .mapInArrow(link_components, "shingle double, page bigint, label bigint, linked boolean").write.parquet(path)
        except Exception as err:
            text = str(err)
            lines = [l.strip() for l in text.split("\n") if "No module named" in l] or [text.strip().split("\n")[0]]
            raise StepError(graph["table"], None, RuntimeError(
                "%s (the executors' Python needs %s: spark/requirements.txt; or give spark.gabarit.components=sql)"
                % (lines[0], ", ".join(GRAPH_MODULES)))) from err
        register(graph["table"], spark.read.parquet(path), path)
        timings[graph["group"]] = timings.get(graph["group"], 0) + (time.time() - start) * 1000
        for step in graph["steps"]:
            run(step)
    else:
        for step in loop["init"]:
            run(step)
        start = time.time()
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
        if step["table"] not in replaced:
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
        "components": by if not missing else "sql (%s is missing on the driver)" % missing,
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
