"""The fixed 50 Hz physics loop in its own thread (numpy, numba, stdlib only).

A monotonic clock and an accumulator: tick k is due at ``t0 + k * dt``; the loop sleeps
until the next tick is due, then steps the nogil kernel once per due tick. If it falls
more than ``max_catchup`` ticks behind (the machine stalled, a debugger stopped it), the
excess time is dropped and counted, never made up in a burst: no spiral of death. Ticks
that start more than ``late_s`` after they were due are counted as late.

Controls come from a mailbox read once per tick; after every tick an immutable snapshot
(see flightsim.handoff) is published into the (prev, curr) buffer with the tick's
scheduled wall time, which is what the renderer interpolates against. Pause stops the
clock; resume starts a fresh schedule from the current state (no jump, no catch-up).
Commands from the mailbox: ("reset", state) replaces the state (new epoch).
"""
from __future__ import annotations

import threading
import time

import numpy as np

from . import layout as L
from .dynamics import step as _step
from ..handoff import ControlInputs, ControlMailbox, SnapshotBuffer, make_snapshot


class PhysicsThread:
    def __init__(self, state, env, terrain, model, tables, mailbox: ControlMailbox | None = None,
                 buffer: SnapshotBuffer | None = None, clock=time.monotonic, max_catchup: int = 5,
                 late_s: float | None = None, name: str = "physics"):
        self.state = np.ascontiguousarray(state, dtype=np.float64).copy()
        self.env = env
        self.terrain = terrain
        self.model = model
        self.tables = tables
        self.dt = float(env[L.E_DT])
        self.mailbox = mailbox or ControlMailbox()
        self.buffer = buffer or SnapshotBuffer()
        self.clock = clock
        self.max_catchup = int(max_catchup)
        self.late_s = 0.5 * self.dt if late_s is None else late_s
        self.ctrl = np.zeros(L.N_CTRL)
        self.diag = np.zeros(L.N_DIAG)
        self.epoch = 0
        # statistics
        self.ticks = 0
        self.late_ticks = 0
        self.dropped_ticks = 0
        self.refused_steps = 0
        self.max_lateness_s = 0.0
        self.run_time_s = 0.0        # wall time spent running (not paused)
        self.step_time_s = 0.0       # wall time inside the kernel
        self.error: BaseException | None = None
        # the world's per-tick hook, hook(state, env, t_s), run before each step: weather,
        # winch cable -- whatever changes the env between ticks
        self.hook = None
        self._stop = threading.Event()
        self._running = threading.Event()   # set = not paused
        self._running.set()
        self._thread: threading.Thread | None = None
        self._name = name
        self._next_s = 0.0
        self._run_start = None
        self.mailbox.read().to_array(self.ctrl)
        self.publish(self.clock())

    # ------------------------------------------------------------------ one tick
    def publish(self, wall_s: float) -> None:
        self.buffer.publish(make_snapshot(self.state, self.ctrl, self.diag, self.model, wall_s, self.epoch,
                                          paused=not self._running.is_set(), dt=self.dt))

    def _commands(self) -> None:
        for cmd, args in self.mailbox.take_commands():
            if cmd == "reset":
                self.state[:] = args[0]
                self.diag[:] = 0.0
                self.epoch += 1
            elif cmd == "env":
                self.env = args[0]

    def tick(self, wall_s: float) -> None:
        """Read the mailbox, step once, publish. Used by the loop and by manual stepping."""
        self._commands()
        self.mailbox.read().to_array(self.ctrl)
        if self.hook is not None:
            self.hook(self.state, self.env, float(self.state[L.S_TICK]) * self.dt)
        t = time.perf_counter()
        if _step(self.state, self.ctrl, self.env, self.terrain, self.model, self.tables, self.diag) != 0:
            self.refused_steps += 1
        self.step_time_s += time.perf_counter() - t
        self.ticks += 1
        self.publish(wall_s)

    # ------------------------------------------------------------------ the loop
    def _loop(self) -> None:
        try:
            self._next_s = self.clock()
            self._run_start = self._next_s
            while not self._stop.is_set():
                if not self._running.is_set():
                    self.run_time_s += self.clock() - self._run_start
                    self._running.wait(0.1)
                    if self._running.is_set():
                        now = self.clock()
                        self._run_start = now
                        self._next_s = now + self.dt
                        self.publish(now)     # fresh pair: nothing to interpolate across the pause
                    continue
                now = self.clock()
                wait = self._next_s - now
                if wait > 0:
                    self._stop.wait(wait)
                    continue
                behind = int(-wait / self.dt)      # ticks due besides this one
                if behind > self.max_catchup:
                    drop = behind - self.max_catchup
                    self.dropped_ticks += drop
                    self._next_s += drop * self.dt
                lateness = now - self._next_s
                if lateness > self.late_s:
                    self.late_ticks += 1
                self.max_lateness_s = max(self.max_lateness_s, lateness)
                self.tick(self._next_s)
                self._next_s += self.dt
        except BaseException as e:   # keep the reason for the caller; the thread ends
            self.error = e
        finally:
            if self._running.is_set() and self._run_start is not None:
                self.run_time_s += self.clock() - self._run_start
                self._run_start = None

    def start(self) -> "PhysicsThread":
        if self._thread is not None:
            raise RuntimeError("already started")
        self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._running.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def reset(self, state) -> None:
        self.mailbox.command("reset", np.array(state, dtype=np.float64))

    def stats(self) -> dict:
        run = self.run_time_s
        if self._run_start is not None and self._running.is_set():
            run += self.clock() - self._run_start
        return {
            "ticks": self.ticks, "late_ticks": self.late_ticks, "dropped_ticks": self.dropped_ticks,
            "refused_steps": self.refused_steps,
            "physics_hz": self.ticks / run if run > 0 else 0.0,
            "late_ticks_pct": 100.0 * self.late_ticks / self.ticks if self.ticks else 0.0,
            "max_lateness_ms": 1000.0 * self.max_lateness_s,
            "step_ms_mean": 1000.0 * self.step_time_s / self.ticks if self.ticks else 0.0,
        }


__all__ = ["PhysicsThread", "ControlInputs", "ControlMailbox", "SnapshotBuffer"]
