"""The game's recorded flights on disk: where they are kept, what each is called, the list the
menu shows, and the oldest ones let go.

    $XDG_DATA_HOME/flightsim/recordings/      (default ~/.local/share/flightsim/recordings)
        2026-11-24_153012_winch.fsrec          one file per flight (a World flown), named by
                                               its start (local time) and its scenario

The window records every flight there unless the setting ``record_flights`` is false, and
keeps the newest ``KEEP`` (about 4.6 MB an hour of flight, so a few hundred MB at most).
Listing reads each file's header and block headers only, never a whole flight.
"""
from __future__ import annotations

import datetime as _dt
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .format import BLOCK, decode_controls, open_recording, read_header

log = logging.getLogger("flightsim.recording")

SUFFIX = ".fsrec"
KEEP = 200              # recordings kept; the oldest beyond these are deleted when a new one starts


def recordings_dir() -> Path:
    """Where the game keeps its recordings: $XDG_DATA_HOME/flightsim/recordings."""
    root = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return root / "flightsim" / "recordings"


def new_recording_path(directory: Path, scenario: str, now: _dt.datetime | None = None) -> Path:
    """A fresh file name for a flight of ``scenario`` starting now (never an existing file)."""
    now = now or _dt.datetime.now()
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in scenario) or "flight"
    base = f"{now:%Y-%m-%d_%H%M%S}_{safe}"
    path = Path(directory) / (base + SUFFIX)
    n = 1
    while path.exists():
        n += 1
        path = Path(directory) / f"{base}-{n}{SUFFIX}"
    return path


@dataclass(frozen=True)
class RecordingInfo:
    path: Path
    aircraft_name: str
    scenario_name: str
    started: _dt.datetime            # local time
    seconds: float                   # flight time recorded (to the last whole block)
    continues: str | None = None     # the recording a taken-over flight continues

    @property
    def label(self) -> str:
        return f"{self.started:%d %b %H:%M}"

    @property
    def detail(self) -> str:
        m, s = divmod(int(round(self.seconds)), 60)
        h, m = divmod(m, 60)
        length = f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s"
        more = ", taken over from a replay" if self.continues else ""
        return f"{length}  {self.scenario_name}, {self.aircraft_name}{more}"


def summary(path) -> RecordingInfo:
    """A recording's header (checked: NotARecording if it is not one) and length: its block
    headers read (skipping the payloads), then the last whole controls block decoded for the
    step count."""
    path = Path(path)
    with open_recording(path) as f:
        h = read_header(f, path)
        controls = []                              # (first step, payload offset, length)
        while True:
            head = f.read(BLOCK.size)
            if len(head) < BLOCK.size:
                break
            kind, step, length, _crc = BLOCK.unpack(head)
            if kind == b"C":
                controls.append((step, f.tell(), length))
            f.seek(length, 1)
        steps = 0
        for step, at, length in reversed(controls):
            f.seek(at)
            payload = f.read(length)
            try:
                if len(payload) == length:
                    steps = step + len(decode_controls(payload, np.zeros(int(h["n_controls"]))))
                    break
            except ValueError:                         # (garbled: the block before it counts)
                pass
    try:
        started = _dt.datetime.fromisoformat(h["created_utc"]).astimezone()
    except (KeyError, ValueError):
        started = _dt.datetime.fromtimestamp(path.stat().st_mtime)
    cont = h.get("continues")
    return RecordingInfo(path, str(h.get("aircraft_name", h.get("aircraft", "?"))),
                         str(h.get("scenario_name", h.get("scenario", "?"))), started,
                         steps * float(h.get("dt_s", 0.02)), cont.get("recording") if isinstance(cont, dict) else None)


def list_recordings(directory: Path | None = None, limit: int | None = None) -> list[RecordingInfo]:
    """The recordings in ``directory``, newest first; files that cannot be read, and a flight
    with no whole second written yet (the one just begun), are skipped."""
    directory = Path(directory) if directory is not None else recordings_dir()
    try:
        files = sorted(directory.glob("*" + SUFFIX), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    out = []
    for p in files:
        if limit is not None and len(out) >= limit:
            break
        try:
            info = summary(p)
            if info.seconds > 0:
                out.append(info)
        except (OSError, ValueError, KeyError, TypeError) as e:
            log.info("%s: not listed (%s)", p, e)
    return out


def prune(directory: Path, keep: int = KEEP) -> int:
    """Delete all but the newest ``keep`` recordings; returns how many went."""
    try:
        files = sorted(Path(directory).glob("*" + SUFFIX), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return 0
    gone = 0
    for p in files[keep:]:
        try:
            p.unlink()
            gone += 1
        except OSError:
            pass
    return gone
