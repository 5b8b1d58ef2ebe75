"""The window's first start on a machine: the flight model prepared in a child process.

numba holds the GIL while it compiles, so compiling in the window's process would freeze
its event loop for half a minute. ``PrepareProcess`` runs ``python -m flightsim.prepare
--progress`` instead, reads its stage lines on a thread, and tells the window what to
draw (``progress``), whether it is ``done`` or ``failed``; ``cancel`` ends it at once when
the window is closed. The child fills the same numba cache (NUMBA_CACHE_DIR is inherited),
so the window's own process then loads every kernel from it.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

from .. import ROOT
from ..render.loading import Progress

FIRST_START = "first start on this machine: the physics kernels are compiled once"


class PrepareProcess:
    def __init__(self, command=None, clock=time.monotonic):
        self.clock = clock
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        self.proc = subprocess.Popen(command or [sys.executable, "-m", "flightsim.prepare", "--progress"],
                                     cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._lines: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        self._out = threading.Thread(target=self._read, args=(self.proc.stdout, self._lines.put), daemon=True)
        self._out.start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self._stderr.append), daemon=True).start()
        self.t0 = clock()
        self.stage = -1
        self.stages = 0
        self.name = "starting"
        self.expected = []
        self.stage_t0 = self.t0
        self.finished = False        # the child said {"done": true}
        self.seconds = None

    @staticmethod
    def _read(stream, put):
        for line in stream:
            put(line.rstrip("\n"))

    def _take(self) -> None:
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("done"):
                self.finished = True
                self.seconds = msg.get("seconds")
            elif "stage" in msg:
                self.stage = int(msg["stage"])
                self.stages = int(msg["stages"])
                self.name = str(msg["name"])
                self.expected = [float(x) for x in msg.get("expected_s", [])] or [1.0] * self.stages
                self.stage_t0 = self.clock()

    @property
    def done(self) -> bool:
        """The child finished and said so (every kernel is in the cache)."""
        self._take()
        return self.finished and self.proc.poll() == 0

    @property
    def failed(self) -> bool:
        """The child ended with an error, or ended without saying it was done."""
        code = self.proc.poll()
        if code is None:
            return False
        if code != 0:
            return True
        self._out.join(1.0)          # its last lines read
        self._take()
        return not self.finished

    @property
    def error(self) -> str:
        lines = [x for x in self._stderr if x.strip()]
        return lines[-1] if lines else f"the preparing process ended with status {self.proc.poll()}"

    def fraction(self) -> float:
        """Done so far: the finished stages' expected times, plus the running stage's elapsed
        time up to 95 % of its expected time (the bar keeps moving, never past the stage)."""
        self._take()
        if self.finished:
            return 1.0
        if self.stage < 0 or not self.expected:
            return 0.0
        total = sum(self.expected)
        done = sum(self.expected[:self.stage])
        running = min(self.clock() - self.stage_t0, 0.95 * self.expected[self.stage])
        return (done + running) / total

    def progress(self) -> Progress:
        if self.failed:
            return Progress(title="Preparing the flight model failed", message=self.error[:140],
                            fraction=self.fraction(), stage="", failed=True)
        stage = f"{self.stage + 1} of {self.stages}: {self.name}" if self.stage >= 0 else "starting"
        elapsed = self.clock() - self.t0
        return Progress(title="Preparing the flight model", message=f"{FIRST_START} ({elapsed:.0f} s)",
                        fraction=self.fraction(), stage=stage)

    def cancel(self, timeout_s: float = 1.0) -> None:
        """End the child now (the window was closed): terminate, then kill if it lingers."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
