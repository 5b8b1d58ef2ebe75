"""Re-simulating a recorded flight: the same World rebuilt, the recorded inputs fed to its
physics thread step by step, the states compared with the recording's snapshots."""
from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import numpy as np

from .format import NotARecording, Recording, recorded_start
from .recorder import aircraft_hash, code_versions


class VersionMismatch(RuntimeError):
    """The recording was made with other aircraft data, another scenario file or other code."""


def version_differences(rec: Recording) -> list[str]:
    """What differs between the recording's versions and this installation's (empty: none)."""
    h = rec.header
    out = []
    now = code_versions()
    for part, then in h["code"].items():
        if now.get(part) != then:
            out.append(f"the {part} code has changed since the recording ({then} then, {now.get(part)} now)")
    try:
        a = aircraft_hash(h["aircraft"])
    except Exception as e:          # the aircraft is gone or no longer loads
        a = f"unloadable: {e}"
    if a != h["aircraft_hash"]:
        out.append(f"the aircraft {h['aircraft']!r} is not the one recorded (data {h['aircraft_hash']} then, {a} now)")
    from ..world.scenario import find_scenario
    try:
        s = hashlib.sha256(Path(find_scenario(h["scenario"]).path).read_bytes()).hexdigest()[:16]
    except Exception as e:
        s = f"unloadable: {e}"
    if s != h["scenario_hash"]:
        out.append(f"the scenario {h['scenario']!r} is not the one recorded (file {h['scenario_hash']} then, {s} now)")
    return out


def build_world(rec: Recording):
    """The World the recording started from, its physics at the recorded start."""
    from ..world.assembly import World
    from ..world.scenario import find_scenario
    h = rec.header
    sc = dataclasses.replace(find_scenario(h["scenario"]), start=recorded_start(h, rec.path))
    if sc.start["type"] == "winch" and sc.winch is None:
        raise NotARecording(rec.path, "header.scenario_start.type",
                            f"a winch launch, and the scenario {h['scenario']!r} has no winch")
    world = World(h["aircraft"], sc, small_world=h["small_world"])
    ph = world.physics
    upgrade(rec, len(ph.state), len(ph.ctrl))
    if len(h["start_state"]) != len(ph.state) or len(h["start_controls"]) != len(ph.ctrl):
        raise VersionMismatch(f"the state or controls have another size now ({len(h['start_state'])} and "
                              f"{len(h['start_controls'])} then, {len(ph.state)} and {len(ph.ctrl)} now)")
    if h["dt_s"] != ph.dt:
        raise VersionMismatch(f"the physics step is {ph.dt} s now, {h['dt_s']} s then")
    if h.get("start_diag") and len(h["start_diag"]) != len(ph.diag):
        raise NotARecording(rec.path, "header.start_diag",
                            f"has {len(h['start_diag'])} numbers, the aircraft's diagnostics {len(ph.diag)}")
    ph.state[:] = h["start_state"]
    ph.ctrl[:] = h["start_controls"]
    if h.get("start_diag"):
        ph.diag[:] = h["start_diag"]
    return world


# Layouts that only grew at the end since a recording was made: (state, controls) sizes then.
# Issue 18 appended the systems-damage and stores block to the state (84 -> 122: zero is a
# sound aircraft with its loadout on) and the two release controls (19 -> 21: zero, held).
# Issue 19 appended the jets' and the flight-control law's block (122 -> 136: zero is an engine at
# idle, running, the law's integrators empty) and its switch (21 -> 22: zero, the law on).
# Issue 34 appended a carburettor's mixture lever and heat (22 -> 24: zero, full rich and cold; the
# state's S_CARB_ICE took a spare slot, zero: no ice).
GROWN_FROM = {(84, 19), (122, 21), (136, 22), (136, 24)}


def upgrade(rec: Recording, n_state: int, n_ctrl: int) -> bool:
    """Pad a recording made before the state and controls grew at their ends with the zeros
    that mean "nothing new happened" (start state, every step's controls, the snapshots, the
    reset events' states), so that it replays on today's layout. Returns whether it did."""
    h = rec.header
    then = (len(h["start_state"]), len(h["start_controls"]))
    if then == (n_state, n_ctrl) or then not in GROWN_FROM:
        return False

    def pad(a, n):
        a = np.asarray(a, dtype=np.float64)
        return np.concatenate([a, np.zeros(n - len(a))]) if len(a) < n else a
    h["start_state"] = list(pad(h["start_state"], n_state))
    h["start_controls"] = list(pad(h["start_controls"], n_ctrl))
    if h.get("start_diag"):
        h["start_diag"] = None                   # the diagnostics grew in the middle: recomputed by the first step
    rec.controls[:] = [pad(c, n_ctrl) for c in rec.controls]
    for k, snap in list(rec.snapshots.items()):
        rec.snapshots[k] = pad(snap, n_state)
    for evs in rec.events.values():
        for ev in evs:
            if ev["kind"] == "reset" and len(ev["value"]) < n_state:
                ev["value"] = list(pad(ev["value"], n_state))
    return True


def resimulate(rec: Recording, world=None, check_versions: bool = True):
    """Yield (steps done, world) after every recorded step, the recorded inputs applied as
    they were. Refuses (VersionMismatch) a recording made with other data or code."""
    if check_versions:
        diff = version_differences(rec)
        if diff:
            raise VersionMismatch("; ".join(diff))
    world = world or build_world(rec)
    for k in range(rec.steps):
        replay_step(rec, world, k)
        yield k + 1, world


def replay_step(rec: Recording, world, k: int) -> None:
    """Fly recorded step ``k``: its events as they were applied (a reset, an env, the winch
    released), then the kernel with its controls."""
    ph = world.physics
    for ev in rec.events.get(k, ()):
        if ev["kind"] in ("reset", "env"):
            ph.apply_command(ev["kind"], np.array(ev["value"], dtype=np.float64))
        elif ev["kind"] == "release_cable":
            world.release_cable()
    ph.ctrl[:] = rec.controls[k]
    ph.step_once()


def matches(snapshot: np.ndarray, state: np.ndarray) -> bool:
    """A recorded snapshot and a re-simulated state the same to the bit."""
    return snapshot.tobytes() == np.asarray(state, dtype="<f8").tobytes()


@dataclasses.dataclass
class Verdict:
    steps: int
    snapshots: int
    matched: int
    first_mismatch: tuple | None          # (steps done, time s, largest difference)
    damage: str | None
    dt_s: float = 0.02

    @property
    def ok(self) -> bool:
        return self.first_mismatch is None and self.matched == self.snapshots

    def __str__(self) -> str:
        dt = self.dt_s
        head = f"{self.steps} steps ({self.steps * dt:.1f} s), {self.matched}/{self.snapshots} snapshots bit-identical"
        if self.first_mismatch:
            k, t, d = self.first_mismatch
            head += f"; first difference after step {k} (t {t:.2f} s), largest {d:.3g}"
        if self.damage:
            head += f"; the file is damaged: {self.damage}, replayed up to there"
        return head


class SnapshotCheck:
    """The recording's snapshots compared with the re-simulated states as a replay passes them
    (``see`` after every step); ``verdict()`` says how it went."""

    def __init__(self, rec: Recording):
        self.rec = rec
        self.matched = 0
        self.first_mismatch: tuple | None = None

    def see(self, k: int, state: np.ndarray) -> bool:
        """Compare the state after ``k`` steps with the snapshot there, if any: False if it differs."""
        snap = self.rec.snapshots.get(k)
        if snap is None:
            return True
        if matches(snap, state):
            self.matched += 1
            return True
        if self.first_mismatch is None:
            with np.errstate(all="ignore"):
                d = float(np.nanmax(np.abs(np.asarray(state, dtype=np.float64) - snap)))
            self.first_mismatch = (k, k * self.rec.dt_s, d)
        return False

    def verdict(self) -> Verdict:
        r = self.rec
        return Verdict(r.steps, len(r.snapshots), self.matched, self.first_mismatch, r.damage, r.dt_s)


def verify(rec: Recording) -> Verdict:
    """Re-simulate and compare every snapshot bit for bit (stopping at the first difference)."""
    check = SnapshotCheck(rec)
    for k, world in resimulate(rec):
        if not check.see(k, world.physics.state):
            break
    return check.verdict()
