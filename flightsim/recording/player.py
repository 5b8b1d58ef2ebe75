"""Playing a recorded flight back in the game: the physics thread steps the recording instead
of reading the pilot's controls, at 0.25x to 16x, paused, or seeking; the pilot can take the
controls at any step and fly on.

A ``ReplayPlayer`` is the physics thread's ``driver`` (PhysicsThread.tick calls
``driver.tick(physics, wall_s)`` in place of the mailbox). Everything the renderer, the
cameras and the instruments draw comes from the snapshots it publishes, as in flight.

The window's thread only asks (``toggle_play``, ``set_speed``, ``seek_to``, ``take_over``);
the physics thread does it at its next tick, so the world is only ever written by one thread.

Seeking: the world around the aircraft (thermals with their random births, the winch
driver, the AI, the bullets) is re-simulated, not stored in the file, so a seek restores an
in-memory checkpoint of the whole world (taken every ``CHECKPOINT_EVERY`` steps as the
replay passes them) and flies on from it; a point not reached yet is flown to at full speed,
``SEEK_STEPS_PER_TICK`` steps a tick, while the window draws on. The file's snapshots are
compared as they pass (``verified``/``mismatch``): the replay says whether it is bit-exact.
"""
from __future__ import annotations

import bisect
import copy

from .format import Recording
from .replay import matches, replay_step

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
CHECKPOINT_EVERY = 250          # steps (5 s): the longest a backward seek flies from a checkpoint
SEEK_STEPS_PER_TICK = 600       # steps flown per 20 ms tick while seeking (~0.1 s of the core)


class ReplayPlayer:
    def __init__(self, rec: Recording, world):
        self.rec = rec
        self.world = world
        self.step = 0                       # recorded steps done
        self.speed = 1.0
        self.playing = True
        self.ended = False                  # stopped at the end (a seek from there plays again)
        self.verified = 0                   # file snapshots passed bit-identical
        self.mismatch: int | None = None    # the first step whose snapshot differed
        self.taken_over = False
        self.furthest = 0                   # the furthest step reached (seeks to before it are quick)
        self._acc = 0.0
        self._seek: int | None = None       # requested target step
        self.seeking_to: int | None = None  # the target being flown to (for the progress bar)
        self._take_over = None              # (recorder factory) once asked
        self._checked: set[int] = set()
        self.checkpoints: dict[int, tuple] = {}
        self._checkpoint_steps: list[int] = []
        self._checkpoint()

    # ------------------------------------------------------------------ asked from the window
    @property
    def steps(self) -> int:
        return self.rec.steps

    @property
    def time_s(self) -> float:
        return self.step * self.rec.dt_s

    @property
    def length_s(self) -> float:
        return self.rec.seconds

    @property
    def at_end(self) -> bool:
        return self.step >= self.rec.steps

    def toggle_play(self) -> None:
        if self.ended:                      # at the end: from the start again
            self.seek_to(0)
            return
        self.playing = not self.playing

    def set_speed(self, speed: float) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"replay speed must be one of {SPEEDS}, got {speed!r}")
        self.speed = float(speed)

    def faster(self, step: int) -> float:
        """The next speed up (+1) or down (-1), stopping at the ends; returns it."""
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else SPEEDS.index(1.0)
        self.speed = SPEEDS[min(max(i + step, 0), len(SPEEDS) - 1)]
        return self.speed

    def seek_to(self, step: int) -> None:
        """Go to ``step`` (the next tick); playing or paused as before, but a replay that had
        stopped at its end plays on from there."""
        self._seek = int(min(max(step, 0), self.rec.steps))
        if self.ended and self._seek < self.rec.steps:
            self.ended, self.playing = False, True

    def seek_by(self, seconds: float) -> None:
        base = self._seek if self._seek is not None else self.seeking_to if self.seeking_to is not None else self.step
        self.seek_to(base + int(round(seconds / self.rec.dt_s)))

    def seek_fraction(self, f: float) -> None:
        self.seek_to(int(round(min(max(f, 0.0), 1.0) * self.rec.steps)))

    def take_over(self, recorder_factory=None) -> None:
        """The pilot flies on from the step the replay is at (next tick); ``recorder_factory``
        (rec, steps) -> Recorder records the flight on: the replayed part, then the new."""
        self._take_over = (recorder_factory,)

    # ------------------------------------------------------------------ the physics thread
    def tick(self, ph, wall_s: float) -> float | None:
        """One 20 ms tick: steps flown (or a seek's share); returns the wall time to publish the
        new state at, or None when there is nothing new to show."""
        if self._take_over is not None:
            (factory,) = self._take_over
            self._take_over = None
            self._seek = self.seeking_to = None
            ph.driver = None
            if factory is not None:
                ph.recorder = factory(self.rec, self.step)
            self.taken_over = True
            return wall_s
        target, self._seek = self._seek, None
        if target is not None:
            self._start_seek(target)
        if self.seeking_to is not None:
            n = min(SEEK_STEPS_PER_TICK, self.seeking_to - self.step)
            for _ in range(n):
                self._advance()
            if self.step >= self.seeking_to:
                self.seeking_to = None
                self._acc = 0.0
                ph.epoch += 1                 # a jump: nothing to interpolate across
                return wall_s
            return None
        if not self.playing or self.at_end:
            if self.at_end:
                self.playing, self.ended = False, True
            return None
        self._acc += self.speed
        n = min(int(self._acc), self.rec.steps - self.step)
        self._acc -= int(self._acc)
        if n <= 0:
            return None
        for _ in range(n):
            self._advance()
        if self.at_end:
            self.playing, self.ended = False, True
        # slow motion: a new state every 1/speed ticks, shown moving across those ticks
        ticks_per_step = 1.0 / self.speed if self.speed < 1.0 else 1.0
        return wall_s + (ticks_per_step - 1.0) * ph.dt

    def _advance(self) -> None:
        replay_step(self.rec, self.world, self.step)
        self.step += 1
        k = self.step
        self.furthest = max(self.furthest, k)
        if k % CHECKPOINT_EVERY == 0 and k not in self.checkpoints:
            self._checkpoint()
        snap = self.rec.snapshots.get(k)
        if snap is not None and k not in self._checked:
            self._checked.add(k)
            if matches(snap, self.world.physics.state):
                self.verified += 1
            elif self.mismatch is None or k < self.mismatch:
                self.mismatch = k

    def _start_seek(self, target: int) -> None:
        """From the latest checkpoint at or before ``target`` if that is nearer than flying on."""
        i = bisect.bisect_right(self._checkpoint_steps, target) - 1
        cp = self._checkpoint_steps[i]
        if target < self.step or cp > self.step:
            self._restore(cp)
        self.seeking_to = target

    # ------------------------------------------------------------------ checkpoints
    def _shared(self) -> dict:
        """What a checkpoint refers to instead of copying: the unchanging data (terrain,
        compiled aircraft) and the physics thread's own arrays (copied by value)."""
        w, ph = self.world, self.world.physics
        keep = [w.terrain, w.sim, w.sim.compiled, ph.model, ph.tables, ph.terrain, ph.state, ph.ctrl, ph.diag]
        combat = getattr(w, "combat", None)
        if combat is not None and combat.opponent_compiled is not None:
            keep += [combat.opponent_compiled, combat.opponent_compiled.model, combat.opponent_compiled.tables]
        return {id(x): x for x in keep}

    def _models(self) -> list:
        """The model arrays that change in flight (battle damage lives in them: a section's
        damage, the mass the re-sum leaves out): the player's and the opponent's."""
        w, ph = self.world, self.world.physics
        combat = getattr(w, "combat", None)
        out = [ph.model]
        if combat is not None and getattr(combat, "opp_sim", None) is not None:
            out.append(combat.opp_sim.model)
        return out

    def _checkpoint(self) -> None:
        w, ph = self.world, self.world.physics
        live = (w.weather, w.winch, getattr(w, "combat", None), getattr(w, "clouds", None), ph.env)
        self.checkpoints[self.step] = (ph.state.copy(), ph.ctrl.copy(), ph.diag.copy(), ph.epoch,
                                       copy.deepcopy(live, self._shared()), [m.copy() for m in self._models()])
        bisect.insort(self._checkpoint_steps, self.step)

    def _restore(self, step: int) -> None:
        w, ph = self.world, self.world.physics
        state, ctrl, diag, _epoch, live, models = self.checkpoints[step]
        weather, winch, combat, clouds, env = copy.deepcopy(live, self._shared())
        for m, saved in zip(self._models(), models):
            m[:] = saved
        ph.state[:] = state
        ph.ctrl[:] = ctrl
        ph.diag[:] = diag
        ph.env = env
        w.weather, w.winch, w.combat, w.clouds = weather, winch, combat, clouds
        self.step = step
