#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian machine (root, no display, no GPU): the
# project's Python environment made ready first (flightsim/bootstrap.py: the active
# virtual or conda environment, or .venv/ in the checkout, made once), then pytest in it.
# PYTHON names the interpreter to start from (default python3). Extra arguments go to pytest.
# The tests run on every core (pytest-xdist; work stealing, as a few cards take a minute or
# more); on an empty numba cache the flight model compiles once, in the background, while the
# tests that need no kernel run (tests/conftest.py). The slowest are listed at the end.
# -n 0 runs them in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
ENV_PY=$("$PY" -m flightsim.bootstrap --extras test,bench,gym)
exec "$ENV_PY" -m pytest -q -n auto --dist worksteal --durations=15 "$@"
