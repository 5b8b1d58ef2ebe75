#!/usr/bin/env bash
# CI's first stage: the README's start command, run as a new user on a stock Debian or
# Ubuntu would, with the system's own (externally managed, PEP 668) /usr/bin/python3, in
# a clean copy of the checkout's files (tracked and not ignored) and an empty home: it must make its own
# .venv there and fly, and leave the system's site-packages as they were.
# SYSTEM_PYTHON names another interpreter (default /usr/bin/python3); with none there,
# the stage says so and passes.
set -euo pipefail
cd "$(dirname "$0")/.."
SYS_PY=${SYSTEM_PYTHON:-/usr/bin/python3}
if [ ! -x "$SYS_PY" ]; then
    echo "system-python stage: no $SYS_PY on this machine, skipped"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/clone" "$work/home"
git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$work/clone"
managed=$("$SYS_PY" -c 'import sysconfig, os; print(os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))')
had_numba=$("$SYS_PY" -c 'import numba' 2>/dev/null && echo yes || echo no)
echo "system-python stage: $SYS_PY ($("$SYS_PY" --version 2>&1), externally managed: $managed), clean copy in $work/clone"
t0=$(date +%s)
(cd "$work/clone" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 \
    "$SYS_PY" run.py --headless-telemetry --seconds 1)
t1=$(date +%s)
(cd "$work/clone" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 \
    "$SYS_PY" run.py --headless-telemetry --seconds 1 >/dev/null)
t2=$(date +%s)
test -x "$work/clone/.venv/bin/python" || { echo "system-python stage: no .venv was made"; exit 1; }
if [ "$had_numba" = no ] && "$SYS_PY" -c 'import numba' 2>/dev/null; then
    echo "system-python stage: numba now imports in $SYS_PY itself: the system's site-packages were written to"
    exit 1
fi
echo "system-python stage: passed (first start $((t1 - t0)) s, second $((t2 - t1)) s)"
