#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian machine (root, no display, no GPU): the
# project's Python environment made ready first (flightsim/bootstrap.py: the active
# virtual or conda environment, or .venv/ in the checkout, made once), then pytest in it.
# PYTHON names the interpreter to start from (default python3). Extra arguments go to pytest.
# The game's own packages install first: with them, on an empty numba cache (a fresh clone,
# CI), the flight model starts compiling in the background (tests/cold_prepare.py) while the
# tests' packages install and the tests that need no kernel run (tests/conftest.py).
# The tests run on every core (pytest-xdist; work stealing, as a few cards take a minute or
# more); the slowest are listed at the end. -n 0 runs them in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
GAME_PY=$("$PY" -m flightsim.bootstrap)
if [ "${NUMBA_DISABLE_JIT:-0}" != 1 ]; then
    FLIGHTSIM_TESTS_COLD_PREPARE=$(mktemp -d)
    export FLIGHTSIM_TESTS_COLD_PREPARE
    "$GAME_PY" -m tests.cold_prepare "$FLIGHTSIM_TESTS_COLD_PREPARE" &
    echo $! > "$FLIGHTSIM_TESTS_COLD_PREPARE/pid"
fi
ENV_PY=$("$PY" -m flightsim.bootstrap --extras test,bench,gym)
exec "$ENV_PY" -m pytest -q -n auto --dist worksteal --durations=15 "$@"
