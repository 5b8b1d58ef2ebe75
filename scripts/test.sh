#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian machine (root, no display, no GPU): the
# project's Python environment made ready first (flightsim/bootstrap.py: the active
# virtual or conda environment, or .venv/ in the checkout, made once), then pytest in it.
# PYTHON names the interpreter to start from (default python3). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
ENV_PY=$("$PY" -m flightsim.bootstrap --extras test,bench,gym)
exec "$ENV_PY" -m pytest -q "$@"
