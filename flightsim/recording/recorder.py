"""Recording a flight as it flies: what a World was built from, and every input its physics
thread reads after that (the pilot's controls each step, resets, a new env, the winch
release). Everything else (the weather, the cable, the AI, the bullets) is computed from
those, so a replay re-simulates it (flightsim.recording.replay).

``start_recording(world, path)`` attaches a Recorder to the world's physics thread before
its first step. The file is the format of flightsim.recording.format, flushed once per
second of flight.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
from pathlib import Path

import numpy as np

from .format import FORMAT, block, encode_controls, header_bytes

PACKAGE = Path(__file__).resolve().parents[1]
SNAPSHOT_EVERY = 250          # steps between state snapshots (5 s at 50 Hz)
STEPS_PER_BLOCK = 50          # controls flushed once per second of flight


def _source_hash(paths) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.relative_to(PACKAGE).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def code_versions() -> dict:
    """Hashes of the code a replay depends on: the flight model and the compiler ("physics"),
    and the world around it (weather, winch, combat, the AI, the physics thread)."""
    world = list((PACKAGE / "world").glob("*.py")) + [PACKAGE / "pilots" / "ai.py", PACKAGE / "runtime" / "physics_thread.py"]
    return {"physics": _source_hash(list((PACKAGE / "physics").glob("*.py")) + list((PACKAGE / "aircraft_data").glob("*.py"))),
            "world": _source_hash(world)}


def aircraft_hash(aircraft: str) -> str:
    """The aircraft as the physics sees it: a hash of its freshly compiled model and tables."""
    from ..aircraft_data.compile import compile_aircraft
    c = compile_aircraft(aircraft)
    return hashlib.sha256(np.ascontiguousarray(c.model).tobytes() + np.ascontiguousarray(c.tables).tobytes()).hexdigest()[:16]


def _now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Recorder:
    """Writes one flight. The physics thread calls ``command`` (a reset or env, as applied),
    ``controls`` (before each step) and ``stepped`` (after it); the world calls ``event``."""

    def __init__(self, path, header: dict, start_controls: np.ndarray, snapshot_every: int = SNAPSHOT_EVERY):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._f = open(self.path, "wb")
        self._f.write(header_bytes(header))
        self._f.flush()
        self.snapshot_every = int(snapshot_every)
        self.step = 0                       # steps recorded so far (the one about to be flown)
        self._rows: list[np.ndarray] = []
        self._first = 0
        self._prev = np.array(start_controls, dtype=np.float64)
        self.bytes_written = self._f.tell()

    # ------------------------------------------------------------------ from the physics thread
    def command(self, cmd: str, value) -> None:
        self._event({"kind": cmd, "value": np.asarray(value, dtype=np.float64).tolist()})

    def event(self, kind: str) -> None:
        self._event({"kind": kind})

    def controls(self, ctrl: np.ndarray) -> None:
        self._rows.append(np.array(ctrl, dtype=np.float64))

    def stepped(self, state: np.ndarray | None) -> None:
        self.step += 1
        if len(self._rows) >= STEPS_PER_BLOCK:
            self._flush_controls()
        if self.step % self.snapshot_every == 0 and state is not None:
            self._write(block(b"S", self.step, np.asarray(state, dtype="<f8").tobytes()))

    @classmethod
    def continuing(cls, rec, steps: int, path) -> Recorder:
        """A new recording of a flight taken over from a replay: ``rec``'s header and its first
        ``steps`` steps (controls, events, snapshots), then whatever is flown on. It replays
        from the same start as ``rec``, through the replayed part, into the new flight."""
        header = {**rec.header, "created_utc": _now_utc(),
                  "continues": {"recording": Path(rec.path).name, "step": int(steps)}}
        r = cls(path, header, np.array(header["start_controls"], dtype=np.float64),
                int(header.get("snapshot_every", SNAPSHOT_EVERY)))
        for k in range(steps):
            for ev in rec.events.get(k, ()):
                r._event(ev)
            r.controls(rec.controls[k])
            r.stepped(rec.snapshots.get(k + 1))
        r._flush_controls()
        return r

    # ------------------------------------------------------------------
    def _event(self, ev: dict) -> None:
        self._write(block(b"E", self.step, json.dumps(ev, separators=(",", ":")).encode()))

    def _flush_controls(self) -> None:
        if self._rows:
            self._write(block(b"C", self._first, encode_controls(self._rows, self._prev)))
            self._prev = self._rows[-1]
            self._first += len(self._rows)
            self._rows = []
        self._f.flush()

    def _write(self, data: bytes) -> None:
        self._f.write(data)
        self.bytes_written += len(data)

    def close(self) -> None:
        if not self._f.closed:
            self._flush_controls()
            self._f.close()


def start_recording(world, path, small_world: bool = False) -> Recorder:
    """Record ``world``'s flight to ``path`` from now on (before its physics has stepped)."""
    ph = world.physics
    if ph.steps:
        raise RuntimeError("a recording starts before the first step (the world must replay from its start)")
    sc = world.scenario
    header = {
        "format": FORMAT,
        "created_utc": _now_utc(),
        "aircraft": world.compiled.spec.id,
        "aircraft_name": world.compiled.name,
        "aircraft_hash": aircraft_hash(world.compiled.spec.id),
        "scenario": sc.path.stem,
        "scenario_name": sc.name,
        "scenario_hash": hashlib.sha256(Path(sc.path).read_bytes()).hexdigest()[:16],
        "scenario_start": sc.start,
        "small_world": bool(small_world),
        "code": code_versions(),
        "dt_s": ph.dt,
        "snapshot_every": SNAPSHOT_EVERY,
        "n_state": len(ph.state),
        "n_controls": len(ph.ctrl),
        "start_state": ph.state.tolist(),
        "start_controls": ph.ctrl.tolist(),
        "start_diag": ph.diag.tolist() if np.any(ph.diag) else None,
    }
    rec = Recorder(path, header, ph.ctrl)
    ph.recorder = rec
    return rec
