#!/usr/bin/env bash
# CI's first stage, in seconds: lint (ruff), types (mypy, on the files pyproject.toml names) and
# every aircraft and scenario file through the validators the game loads them with, so that a
# broken data file or a typo fails before the suite starts. The project's environment is made
# ready as scripts/test.sh makes it, with the lint tools added. PYTHON names the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
ENV_PY=$("$PY" -m flightsim.bootstrap --extras test,bench,gym,lint)
"$ENV_PY" -m ruff check .
"$ENV_PY" -m mypy
# The data check compiles the kernels compile_aircraft calls (the engine's idle balance). It
# does so in a numba cache of its own, thrown away after: the project's cache is filled in the
# prepared order (flightsim/app/prepare.py), and kernels cached out of that order are linked as
# object code, not inlined, which moves a flight's last bits (physics/jit.py).
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
NUMBA_CACHE_DIR="$cache" "$ENV_PY" -m flightsim.tools.check_data
