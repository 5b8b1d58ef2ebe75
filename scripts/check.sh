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
"$ENV_PY" -m flightsim.tools.check_data
