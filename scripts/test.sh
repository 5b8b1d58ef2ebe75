#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian machine (root, no display, no GPU):
# installs what the tests need, then runs pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -m pip --version >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-pip python3-venv >/dev/null
fi
"$PY" -m pip install -q --disable-pip-version-check -e ".[test,bench,gym]" 2>&1 | grep -v "Running pip as the 'root' user" || true
exec "$PY" -m pytest -q "$@"
