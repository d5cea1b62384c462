"""Spark driver for `gabarit shards run --backend spark`: the whole sharded run as one Spark application.

    spark-submit --master spark://HOST:7077 spark/gabarit_shards.py JOB.json

JOB.json (written by gabarit, src/run/spark-shards.ts) names the executors' gabarit command, the crawl's
sources (every shard, in the order that numbers them) and the arguments of each phase. The application:
  1. analyse: one task per shard (one partition each); task i runs `gabarit shards analyse SOURCES...
     --part i/n` on its executor, n being the number of shards, so that it analyses shard i and no other
     (run by the `gabarit shards serve` process its Python worker keeps from task to task: `server`);
  2. the global step, in this application (gabarit_global.run_job), over the job files gabarit writes
     once the shards are analysed (none when its result is up to date);
  3. mark: one task per shard, as analyse.
Spark places the tasks, retries a failed one (spark.task.maxFailures) and may run a slow one twice
(spark.speculation): gabarit writes a shard's files and its output folder under a temporary name and
renames them when complete, so an attempt that dies leaves nothing half-written.
The driver and the gabarit that submitted it (on this machine) talk through files in the job's control
folder: the driver writes `analysed.json`, `global-done.json` and `marked.json` when a stage is done and
waits for `global.json` and `mark.json` from gabarit; `error.json` says why the run stopped.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

from pyspark.sql import SparkSession

import gabarit_global

# what a task's error message starts with, to find it in Spark's report of the failed stage
MARK = "gabarit-task: "
HELP = ("every executor needs Node (>= 20) and this gabarit: install it at the same path on every worker, "
        "put it on the executors' PATH (spark.executorEnv.PATH) or use a container image with both, "
        "and name the command with --spark-gabarit (docs/spark.md)")


class TaskError(RuntimeError):
    """A shard's task that failed, in one line (Spark retries the task, then reports the last message)."""

    def __init__(self, message):
        super().__init__(MARK + " ".join(message.split()))


def die_with_parent():
    """In the child: killed when the task's Python worker dies (a killed or abandoned task attempt)."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except Exception:
        pass


def check_gabarit(gabarit, version, host):
    """Fails the task with what is missing when this executor cannot run the expected gabarit."""
    try:
        p = subprocess.run(gabarit + ["--version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8", errors="replace", timeout=300)
    except OSError as err:
        raise TaskError("executor %s cannot run gabarit: %s: %s; %s" % (host, err.filename or gabarit[0], err.strerror, HELP))
    except subprocess.TimeoutExpired:
        raise TaskError("executor %s: `%s --version` did not answer in 300 s" % (host, " ".join(gabarit)))
    if p.returncode != 0:
        said = " / ".join(l for l in p.stderr.strip().split("\n")[-3:] if l)
        raise TaskError("executor %s cannot run gabarit: `%s --version` exited with code %d (%s); %s" % (host, " ".join(gabarit), p.returncode, said, HELP))
    if p.stdout.strip() != version:
        raise TaskError("executor %s runs gabarit %s, not %s like the machine that submitted the run; %s" % (host, p.stdout.strip(), version, HELP))


def task_cpus():
    """The CPUs Spark gave this task (spark.task.cpus, 1 unless set)."""
    try:
        from pyspark import TaskContext
        ctx = TaskContext.get()
        return max(1, int(ctx.cpus())) if ctx is not None else 1
    except Exception:
        return 1


def server(gabarit, version, host):
    """
    The `gabarit shards serve` process of this Python worker (task-server.ts), started on its first task:
    Spark reuses a Python worker from task to task, and its shards then share one Node, its loaded package
    and its warmed-up worker threads instead of starting them for each shard. A server that died (a killed
    attempt) is started again.
    """
    srv = getattr(sys, "_gabarit_server", None)
    if srv is not None and srv["gabarit"] == gabarit and srv["proc"].poll() is None:
        return srv
    if srv is not None:
        stop_server(srv)
    err = tempfile.TemporaryFile()
    try:
        proc = subprocess.Popen(gabarit + ["shards", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                encoding="utf-8", errors="replace", preexec_fn=die_with_parent)
    except OSError:
        err.close()
        check_gabarit(gabarit, version, host)  # says what is missing
        raise
    first = proc.stdout.readline()
    try:
        said = json.loads(first).get("version")
    except (ValueError, AttributeError):
        said = None
    if said is None:
        proc.kill()
        proc.wait()
        err.close()
        # the precise reason (missing, another version that has no server, …), else what the server said
        check_gabarit(gabarit, version, host)
        raise TaskError("executor %s: `%s shards serve` did not start (%s); %s" % (host, " ".join(gabarit), first.strip() or "no answer", HELP))
    if said != version:
        proc.kill()
        proc.wait()
        err.close()
        raise TaskError("executor %s runs gabarit %s, not %s like the machine that submitted the run; %s" % (host, said, version, HELP))
    srv = {"gabarit": gabarit, "proc": proc, "err": err}
    sys._gabarit_server = srv
    return srv


def stop_server(srv):
    try:
        srv["proc"].stdin.close()
        srv["proc"].wait(timeout=60)
    except Exception:
        srv["proc"].kill()
    srv["err"].close()
    sys._gabarit_server = None


def served(srv, argv, host):
    """Runs argv (after `gabarit`) in the server: its exit code, stdout and stderr, as the command line gives them."""
    proc = srv["proc"]
    try:
        proc.stdin.write(json.dumps({"argv": argv}) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
    except (BrokenPipeError, OSError):
        line = ""
    if not line:
        code = proc.wait()
        srv["err"].seek(0)
        said = " / ".join(l for l in srv["err"].read().decode("utf-8", "replace").strip().split("\n")[-3:] if l)
        stop_server(srv)
        raise TaskError("executor %s: gabarit (shards serve) stopped with code %s while running `gabarit %s`%s" % (host, code, " ".join(argv), ": " + said if said else ""))
    try:
        r = json.loads(line)
        return r["code"], r["stdout"], r["stderr"]
    except (ValueError, KeyError, TypeError):
        # something else wrote on the server's output: its answers can no longer be told apart
        stop_server(srv)
        raise TaskError("executor %s: gabarit (shards serve) answered `gabarit %s` with %r, not its reply" % (host, " ".join(argv), line[:200]))


def left_out(stdout):
    """True when gabarit's JSON output names the task's shard as left out (`failedShards`)."""
    try:
        return bool(json.loads(stdout).get("failedShards"))
    except (ValueError, AttributeError):
        return False


def shard_task(job, phase):
    """The function of one stage's tasks: shard i → `gabarit --json shards PHASE ... --part i/n` run here."""
    gabarit = job["gabarit"]
    version = job["version"]
    args = job[phase]
    n = job["shards"]

    def run(index):
        host = socket.gethostname()
        srv = server(gabarit, version, host)
        part = "%d/%d" % (index, n)
        # without --workers given to gabarit shards run, a task's gabarit runs as many worker threads as
        # the task has CPUs: the executor's cores are shared by its tasks, and each thread warms up apart
        workers = [] if "--workers" in args else ["--workers", str(task_cpus())]
        code, stdout, stderr = served(srv, ["--json", "shards", phase] + args + workers + ["--part", part], host)
        # a shard whose source cannot be read (or that is not analysed) is named in the output and left
        # out: retrying its task would fail the same way, so the stage goes on without it
        if code != 0 and not left_out(stdout):
            said = " / ".join(l for l in stderr.strip().split("\n")[-3:] if l)
            raise TaskError("executor %s: gabarit shards %s --part %s exited with code %d: %s" % (host, phase, part, code, said))
        return json.dumps({"index": index, "host": host, "server": srv["proc"].pid, "stdout": stdout, "stderr": stderr})

    return run


def stage(sc, job, phase):
    """Runs one task per shard; their outputs, by shard."""
    n = job["shards"]
    sc.setJobDescription("gabarit shards " + phase)
    try:
        return [json.loads(r) for r in sc.parallelize(range(n), n).map(shard_task(job, phase)).collect()]
    finally:
        sc.setJobDescription(None)


def write(control, name, value):
    tmp = os.path.join(control, name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f)
    os.replace(tmp, os.path.join(control, name))


def wait_for(job, name):
    """What gabarit writes next; stops the driver if the gabarit that submitted it is gone."""
    path = os.path.join(job["control"], name)
    while not os.path.exists(path):
        try:
            os.kill(job["launcher"], 0)
        except ProcessLookupError:
            raise RuntimeError("gabarit (process %d) stopped before the run ended" % job["launcher"])
        except PermissionError:
            pass
        time.sleep(0.1)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def task_message(err):
    """The message of the task that made the stage fail, else the error's first line."""
    found = re.findall(re.escape(MARK) + r"([^\n]*)", str(err))
    return found[-1].strip() if found else str(err).strip().split("\n")[0]


def main(path):
    with open(path, encoding="utf-8") as f:
        job = json.load(f)
    spark = SparkSession.builder.appName(job.get("appName", "gabarit shards run")).getOrCreate()
    sc = spark.sparkContext
    try:
        write(job["control"], "analysed.json", {"tasks": stage(sc, job, "analyse")})
        for job_path in wait_for(job, "global.json")["jobs"]:
            with open(job_path, encoding="utf-8") as f:
                gabarit_global.run_job(spark, json.load(f))
        write(job["control"], "global-done.json", {})
        wait_for(job, "mark.json")
        write(job["control"], "marked.json", {"tasks": stage(sc, job, "mark")})
    except Exception as err:
        write(job["control"], "error.json", {"message": task_message(err)})
        spark.stop()
        sys.exit(1)
    spark.stop()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: spark-submit gabarit_shards.py JOB.json\n")
        sys.exit(2)
    main(sys.argv[1])
