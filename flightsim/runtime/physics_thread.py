"""The fixed 50 Hz physics loop in its own thread (numpy, numba, stdlib only).

A monotonic clock and an accumulator: tick k is due at ``t0 + k * dt``; the loop sleeps
until the next tick is due, then steps the nogil kernel once per due tick. If it falls
more than ``max_catchup`` ticks behind (the machine stalled, a debugger stopped it), the
excess time is dropped and counted, never made up in a burst: no spiral of death. Ticks
that start more than ``late_s`` after they were due are counted as late.

Controls come from a mailbox read once per tick, each clamped to its range; a control that
is not a number (a broken device, AI or script) keeps its last good value, is counted
(``refused_controls``) and logged the first time for each control, and never reaches the
kernel or crashes the loop. After every tick an immutable snapshot
(see flightsim.runtime.handoff) is published into the (prev, curr) buffer with the tick's
scheduled wall time, which is what the renderer interpolates against. Pause stops the
clock and publishes the state once more marked ``paused``; resume starts a fresh schedule
from the current state (no jump, no catch-up). Commands from the mailbox: ("reset", state)
replaces the state (new epoch), also while paused.

Time acceleration: ``time_scale`` (1, 2 or 4) fixed ``dt`` steps per tick, each after the
world's hook, so weather, winch and everything per step run faster together; one snapshot
per tick (carrying the sim time and the factor), so the renderer still interpolates per
tick in wall time. Ticks the machine cannot keep up with are dropped like any other, and
the simulated time they would have carried is counted (``dropped_sim_s``).
"""
from __future__ import annotations

import logging
import threading
import time

import numpy as np

from ..physics.dynamics import step_in_diag as _step
from ..physics.named import CONTROL_INDEX, AircraftView, Controls
from ..physics.named_env import Environment
from ..physics.scratch import diag_size
from .handoff import ControlInputs, ControlMailbox, PublishedState, SnapshotBuffer

log = logging.getLogger("flightsim.physics")


class PhysicsThread:
    def __init__(self, state, env, terrain, model, tables, mailbox: ControlMailbox | None = None,
                 buffer: SnapshotBuffer | None = None, clock=time.monotonic, max_catchup: int = 5,
                 late_s: float | None = None, name: str = "physics"):
        self.state = np.ascontiguousarray(state, dtype=np.float64).copy()
        self.env = env
        self.terrain = terrain
        self.model = model
        self.tables = tables
        self.dt = Environment(env).dt_s      # (refuses an env too short for the kernels)
        self.mailbox = mailbox or ControlMailbox()
        self.buffer = buffer or SnapshotBuffer()
        self.clock = clock
        self.max_catchup = int(max_catchup)
        self.late_s = 0.5 * self.dt if late_s is None else late_s
        self.ctrl = ControlInputs().to_array()   # the defaults: what a NaN control keeps on the first tick
        self.diag = np.zeros(diag_size(model))   # diagnostics, then the kernels' scratch memory
        self.epoch = 0
        self.time_scale = 1          # steps per tick (time acceleration); read once per tick
        self.max_time_scale = 8
        # statistics
        self.ticks = 0
        self.late_ticks = 0
        self.dropped_ticks = 0
        self.refused_steps = 0
        self.refused_controls = 0    # control values that were not numbers (each kept its last good value)
        self._refused_names: set = set()
        self.steps = 0
        self.dropped_sim_s = 0.0     # simulated time lost to dropped ticks
        self.max_lateness_s = 0.0
        self.run_time_s = 0.0        # wall time spent running (not paused)
        self.step_time_s = 0.0       # wall time inside the kernel
        self._scale_now = 1          # the factor of the last tick (what the snapshots say)
        self.error: BaseException | None = None
        # the world's per-tick hook, hook(state, env, t_s), run before each step: weather,
        # winch cable -- whatever changes the env between ticks
        self.hook = None
        # a script's pilot (flightsim.app.cli.main(pilot=...)): pilot(view) -> ControlInputs or
        # physics.named.Controls, called each tick in place of the mailbox, ``view`` the
        # aircraft by name (physics.named.AircraftView: the state, the diag of the last step)
        self.pilot = None
        # the flight recorder (flightsim.recorder.Recorder) or None: it sees every step's
        # controls, the commands as they are applied, and the states after the steps
        self.recorder = None
        # the world's hook for a reset applied by this thread (a fresh cable, the combat anew)
        self.on_reset = None
        # a replay (flightsim.recording.player.ReplayPlayer) or None: when set it flies the
        # ticks, driver.tick(self, wall_s) -> the wall time to publish at (None: nothing new),
        # and the mailbox's controls are not read
        self.driver = None
        self._view = AircraftView(self.state, self.diag, self.dt)
        self._stop = threading.Event()
        self._running = threading.Event()   # set = not paused
        self._running.set()
        self._thread: threading.Thread | None = None
        self._name = name
        self._next_s = 0.0
        self._run_start = None
        self.take_controls(self.mailbox.read())
        self.publish(self.clock())

    # ------------------------------------------------------------------ one tick
    def publish(self, wall_s: float) -> None:
        self.buffer.publish(PublishedState(self.state, self.ctrl, self.diag, self.model, wall_s, self.epoch,
                                           not self._running.is_set(), self.dt, self._scale_now))

    def _publish_paused(self) -> None:
        """The state again, marked paused, at the newest snapshot's wall time (no motion to interpolate)."""
        curr = self.buffer.read()[1]
        self.publish(curr.wall_s if curr is not None else self.clock())

    def _commands(self) -> bool:
        """Apply queued commands; True if there were any."""
        cmds = self.mailbox.take_commands()
        for cmd, args in cmds:
            self.apply_command(cmd, args[0])
        return bool(cmds)

    def apply_command(self, cmd: str, value) -> None:
        """A reset (to a state) or a new env, between steps (the mailbox's commands; a replay's)."""
        if self.recorder is not None:
            self.recorder.command(cmd, value)
        if cmd == "reset":
            self.state[:] = value
            self.diag[:] = 0.0
            self.epoch += 1
            if self.on_reset is not None:
                self.on_reset()
        elif cmd == "env":
            self.env = value

    def set_time_scale(self, factor: int) -> None:
        """Time acceleration: ``factor`` fixed steps per tick from the next tick on (1 = real time)."""
        f = int(factor)
        if f != factor or not 1 <= f <= self.max_time_scale:
            raise ValueError(f"time scale must be a whole number 1..{self.max_time_scale}, got {factor!r}")
        self.time_scale = f

    def tick(self, wall_s: float) -> None:
        """Read the mailbox, step ``time_scale`` times (the hook before each step), publish.
        Used by the loop and by manual stepping."""
        self._commands()
        if self.driver is not None:
            publish_at = self.driver.tick(self, wall_s)
            self.ticks += 1
            self._scale_now = 1
            if publish_at is not None:
                self.publish(publish_at)
            return
        if self.pilot is None:
            self.take_controls(self.mailbox.read())
        else:
            self.take_controls(self.pilot(self._view))   # (state and diag are only ever written in place)
        n = self.time_scale
        for _ in range(n):
            self.step_once()
        self.ticks += 1
        self._scale_now = n
        self.publish(wall_s)

    def take_controls(self, cmd) -> None:
        """ControlInputs or physics.named.Controls into ``self.ctrl``, clamped; a control that is
        not a number keeps its last good value and is counted and logged (once per control)."""
        if isinstance(cmd, Controls):
            cmd = ControlInputs.from_array(cmd.array)
        refused: list = []
        cmd.to_array(self.ctrl, refused)
        if refused:
            self.refused_controls += len(refused)
            for name in refused:
                if name not in self._refused_names:
                    self._refused_names.add(name)
                    log.warning("%s: control %s is not a number: it keeps its last value, %g (counted in "
                                "refused_controls; logged once)", self._name, name, self.ctrl[CONTROL_INDEX[name]])

    def step_once(self) -> None:
        """One physics step with the controls in ``self.ctrl``: the world's hook, then the kernel."""
        if self.recorder is not None:
            self.recorder.controls(self.ctrl)
        if self.hook is not None:
            self.hook(self.state, self.env, self._view.tick * self.dt)
        t = time.perf_counter()
        # (its diag is diag_size long and its controls N_CONTROLS: step_in_diag never answers -1)
        if _step(self.state, self.ctrl, self.env, self.terrain, self.model, self.tables, self.diag) != 0:
            self.refused_steps += 1
        self.step_time_s += time.perf_counter() - t
        self.steps += 1
        if self.recorder is not None:
            self.recorder.stepped(self.state)

    # ------------------------------------------------------------------ the loop
    def _loop(self) -> None:
        try:
            self._next_s = self.clock()
            self._run_start = self._next_s
            while not self._stop.is_set():
                if not self._running.is_set():
                    if self._run_start is not None:      # just paused: stop the run clock, say so
                        self.run_time_s += self.clock() - self._run_start
                        self._run_start = None
                        self._publish_paused()
                    if self._commands():                 # a reset while paused shows at once
                        self._publish_paused()
                    self._running.wait(0.05)
                    if self._running.is_set() and not self._stop.is_set():
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
                    self.dropped_sim_s += drop * self.dt * self.time_scale
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

    def start(self) -> PhysicsThread:
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
        """Stop the clock. The loop publishes the paused state; stepped by hand, it is published here."""
        was = self._running.is_set()
        self._running.clear()
        if was and not self.alive:
            self._publish_paused()

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
            "refused_steps": self.refused_steps, "refused_controls": self.refused_controls, "steps": self.steps,
            "dropped_sim_s": self.dropped_sim_s, "time_scale": self.time_scale,
            "physics_hz": self.ticks / run if run > 0 else 0.0,
            "sim_rate": self.steps * self.dt / run if run > 0 else 0.0,
            "late_ticks_pct": 100.0 * self.late_ticks / self.ticks if self.ticks else 0.0,
            "max_lateness_ms": 1000.0 * self.max_lateness_s,
            "step_ms_mean": 1000.0 * self.step_time_s / self.steps if self.steps else 0.0,
        }


__all__ = ["PhysicsThread", "ControlInputs", "ControlMailbox", "SnapshotBuffer"]
