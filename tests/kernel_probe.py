"""Which test files call no numba kernel: a pytest plugin that measures it.

    .venv/bin/python -m pytest -p tests.kernel_probe -n 0 -q [--kernel-probe-out FILE]

Before each test every kernel this process has met is emptied of its compiled code (so its next
call goes through numba's compile, which loads it from the cache); a call during the test's
setup, call or teardown marks the test's file as one that needs the kernels. Writes JSON:
{"needs_kernels": {file: seconds}, "no_kernels": {file: seconds}} (the files' test seconds).
Subprocesses are not seen: a file that starts one is listed apart ("starts_processes").
"""
from __future__ import annotations

import json
import time
import weakref
from collections import defaultdict
from pathlib import Path

import pytest

_met: weakref.WeakSet = weakref.WeakSet()
_current: list[str] = [""]
_needing: set[str] = set()
_seconds: dict[str, float] = defaultdict(float)


def pytest_addoption(parser):
    parser.addoption("--kernel-probe-out", default="kernel_probe.json")


def pytest_configure(config):
    from numba.core.dispatcher import Dispatcher
    original = Dispatcher.compile

    def compile(self, sig):
        _met.add(self)
        if _current[0]:
            _needing.add(_current[0])
        return original(self, sig)
    Dispatcher.compile = compile


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    for d in list(_met):
        d._reset_overloads()
    _current[0] = item.nodeid.split("::")[0]
    t0 = time.perf_counter()
    yield
    _seconds[_current[0]] += time.perf_counter() - t0
    _current[0] = ""


def pytest_sessionfinish(session):
    starts = {f for f in _seconds if "subprocess" in Path(f).read_text() or "sys.executable" in Path(f).read_text()}
    out = {"needs_kernels": {f: round(s, 2) for f, s in sorted(_seconds.items()) if f in _needing},
           "no_kernels": {f: round(s, 2) for f, s in sorted(_seconds.items()) if f not in _needing},
           "starts_processes": sorted(starts)}
    Path(session.config.getoption("--kernel-probe-out")).write_text(json.dumps(out, indent=1))
