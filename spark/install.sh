#!/usr/bin/env bash
# Installs Apache Spark for gabarit's Spark backend and its tests: pyspark from PyPI (a complete Spark with
# spark-submit) and the libraries of the global step's graph components (numpy, scipy, pyarrow, pandas),
# versions pinned in spark/requirements.txt, in a virtual environment kept in a cache folder, so a second run
# costs nothing. Prints the environment's folder: put its bin/ on PATH to use spark-submit (its python3 is
# then the executors' Python on this machine).
# Needs Java 17+ and Python 3.9+.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="$(sed -n 's/^pyspark==//p' "$here/requirements.txt")"
venv="${GABARIT_SPARK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gabarit-spark/venv-$version}"
# installed again when the requirements changed since (their copy in the environment)
if [ ! -x "$venv/bin/spark-submit" ] || ! cmp -s "$here/requirements.txt" "$venv/gabarit-requirements.txt"; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" >&2
  cp "$here/requirements.txt" "$venv/gabarit-requirements.txt"
fi
echo "$venv"
