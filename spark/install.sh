#!/usr/bin/env bash
# Installs Apache Spark for gabarit's Spark backend and its tests: pyspark from PyPI (a complete Spark with
# spark-submit; version pinned in spark/requirements.txt) in a virtual environment kept in a cache folder, so
# a second run costs nothing. Prints the environment's folder: put its bin/ on PATH to use spark-submit.
# Needs Java 17+ and Python 3.9+.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="$(sed -n 's/^pyspark==//p' "$here/requirements.txt")"
venv="${GABARIT_SPARK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gabarit-spark/venv-$version}"
if [ ! -x "$venv/bin/spark-submit" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" >&2
fi
echo "$venv"
