"""Results computed once per test session and shared by every pytest-xdist worker.

A few commands take half a minute or more (a validation run, a wind-tunnel sweep) and more
than one test reads what they print. Each worker of ``pytest -n auto`` is its own process, so a
plain module-level cache would run such a command once per worker that happens to need it.
Here the first worker to ask runs it, under a file lock in the directory every worker of the
session shares (the parent of the workers' own temp dirs), and writes the result as JSON; the
others wait on the lock and read it. Results never outlive the session.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


class SharedResults:
    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def dir_for(self, key: str) -> Path:
        """A directory of this session's that every worker sees, named for ``key``."""
        digest = hashlib.sha1(key.encode()).hexdigest()[:10]
        d = self.root / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', key)[:60]}-{digest}"
        d.mkdir(parents=True, exist_ok=True)
        return d

    def once(self, key: str, compute: Callable[[Path], Any]) -> Any:
        """``compute(directory)`` run by one worker per session (JSON-able result); every caller
        gets the result it wrote."""
        d = self.dir_for(key)
        result = d / "result.json"
        with open(d / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if not result.exists():
                    value = compute(d)
                    tmp = d / "result.json.tmp"
                    tmp.write_text(json.dumps(value))
                    tmp.replace(result)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        return json.loads(result.read_text())


def tunnel_card(shared_results: SharedResults, *argv: str):
    """``python -m flightsim.tunnel ARGV --json`` as a user runs it (in the worker's process):
    (exit code, the JSON or None, stderr). Each card is flown once per session: the stall card
    is read by two tests of tests/test_tunnel_cards.py, the P-51D's level, climb and ceiling
    cards by tests/physics/test_p51d.py as well."""
    def run(_dir):
        from flightsim.tools import tunnel
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = tunnel.main(list(argv) + ["--json"])
        return [code, out.getvalue(), err.getvalue()]
    code, out, err = shared_results.once("tunnel " + " ".join(argv), run)
    return code, (json.loads(out) if code == 0 else None), err


@pytest.fixture(scope="session")
def shared_results(tmp_path_factory, worker_id) -> SharedResults:
    base = tmp_path_factory.getbasetemp()
    return SharedResults((base.parent if worker_id != "master" else base) / "shared-results")
