"""The flight recording file: a header, then blocks written as the aircraft flies.

    magic   b"FSREC\\x01\\n"
    header  u32 length, then JSON (what was flown: aircraft, scenario, versions, the start)
    blocks  kind (1 byte), u32 step, u32 length, u32 crc32 of the payload, payload

Block kinds:

* ``C`` controls: the payload (zlib) holds, for each step from ``step`` on, a u32 mask of
  the controls that changed since the step before and their new float64 values. One block
  per second of flight, so a crash loses at most the last second.
* ``E`` an event at ``step``, before its controls act (JSON): a reset to a state, a new env,
  the winch released.
* ``S`` a snapshot: the state (float64) after ``step`` steps, every ``snapshot_every`` steps:
  what ``--verify`` compares bit for bit, and where a replay can seek.

Little-endian throughout. Reading stops at the first block that is cut short, fails its
checksum or is out of place (a block's own header is outside its checksum), and says where:
everything before it replays. Everything else is checked as it is read against what a
recorder writes (``read_recording``): the header's keys and types, finite numbers, a step
above 0 s, a date that parses, the state and controls arrays of the sizes the header gives,
every control within its physical range, events with a kind the replay knows. A file that is
not a recording, is cut short before its first step, or holds anything else is refused:
NotARecording, one line naming the file, where in it and what is wrong.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import os
import re
import stat as _stat
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..physics.named import ATTITUDE_END, CONTROL_HIGH, CONTROL_LOW, CONTROL_NAMES, AircraftView
from ..physics.named_env import env_problem

MAGIC = b"FSREC\x01\n"
FORMAT = 1
BLOCK = struct.Struct("<cIII")        # kind, step, payload length, crc32
MAX_BLOCK_STEPS = 1000                # steps one controls block may hold (the recorder writes 50)
EVENT_KINDS = ("reset", "env", "release_cable")


class NotARecording(ValueError):
    """A file refused as a recording: not one at all (not a file, not readable, not this format),
    cut short or garbled before its first step, or holding something no recorder writes (a
    header key missing or of the wrong type, a number that is not finite or out of its range,
    arrays of the wrong size, an event without its kind). The message is one line naming the
    file, where in it (a header key, a block) and the problem, as DataError does for data files."""

    def __init__(self, file, key: str = "", problem: str = "not a flightsim recording"):
        self.file = _one_line(str(file), 4096)
        self.key = _one_line(key, 120)          # (a key can come from the file: a JSON object's)
        self.problem = _one_line(problem, 300)
        where = f"{self.file}: {self.key}: " if key else f"{self.file}: "
        super().__init__(where + self.problem)


def _one_line(s: str, most: int) -> str:
    """``s`` for a one-line message: what does not print escaped, cut to ``most`` characters."""
    if not s.isprintable():
        s = "".join(c if c.isprintable() else repr(c)[1:-1] for c in s)
    return s if len(s) <= most else s[:most - 3] + "..."


def encode_controls(rows: list[np.ndarray], previous: np.ndarray) -> bytes:
    """Each step's controls as (changed mask, changed values), against the step before."""
    out = bytearray()
    prev = previous
    for c in rows:
        changed = np.flatnonzero(c != prev)
        mask = 0
        for k in changed:
            mask |= 1 << int(k)
        out += struct.pack("<I", mask)
        out += c[changed].astype("<f8").tobytes()
        prev = c
    return zlib.compress(bytes(out), 6)


def decode_controls(payload: bytes, previous: np.ndarray, max_steps: int | None = None) -> list[np.ndarray]:
    """A controls block's rows (from the row before, ``previous``). ValueError, saying what,
    for a payload the recorder cannot have written: not zlib, cut short inside a step, a
    control named past the recording's own, more than ``max_steps`` steps (default
    MAX_BLOCK_STEPS), anything after the compressed stream."""
    n = len(previous)
    max_steps = MAX_BLOCK_STEPS if max_steps is None else max_steps
    d = zlib.decompressobj()
    try:
        raw = d.decompress(payload, max_steps * (4 + 8 * n) + 1)
    except zlib.error as e:
        raise ValueError(f"the compressed controls do not decompress ({e})") from None
    if len(raw) > max_steps * (4 + 8 * n):
        raise ValueError(f"holds more than {max_steps} steps of controls")
    if not d.eof:
        raise ValueError("the compressed controls are cut short")
    if d.unused_data:
        raise ValueError(f"{len(d.unused_data)} bytes follow the compressed controls")
    rows, prev, at = [], previous, 0
    while at < len(raw):
        if at + 4 > len(raw):
            raise ValueError(f"step {len(rows)} is cut short (its mask)")
        (mask,) = struct.unpack_from("<I", raw, at)
        at += 4
        if mask >> n:
            raise ValueError(f"step {len(rows)} changes control {mask.bit_length() - 1}, the recording has {n}")
        c = prev.copy()
        idx = [k for k in range(n) if mask >> k & 1]
        if idx:
            if at + 8 * len(idx) > len(raw):
                raise ValueError(f"step {len(rows)} is cut short (its values)")
            c[idx] = np.frombuffer(raw, "<f8", len(idx), at)
            at += 8 * len(idx)
        rows.append(c)
        prev = c
    return rows


def block(kind: bytes, step: int, payload: bytes) -> bytes:
    return BLOCK.pack(kind, step, len(payload), zlib.crc32(payload)) + payload


def header_bytes(header: dict) -> bytes:
    body = json.dumps(header, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(body)) + body


@dataclass
class Recording:
    """A recording read back: the header, every step's controls, the events and snapshots by
    step, and, if the file is damaged, where and why reading stopped."""
    path: Path
    header: dict
    controls: list = field(default_factory=list)          # one float64 array per step
    events: dict = field(default_factory=dict)            # step -> [event dict]
    snapshots: dict = field(default_factory=dict)         # steps done -> state array
    damage: str | None = None

    @property
    def steps(self) -> int:
        return len(self.controls)

    @property
    def dt_s(self) -> float:
        return float(self.header["dt_s"])

    @property
    def seconds(self) -> float:
        return self.steps * self.dt_s


# ---------------------------------------------------------------------------- reading, checked
# Every value is checked as it is read, against what a recorder writes: a recording that holds
# anything else is refused (NotARecording) before anything replays, re-simulates or exports it.
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")     # an aircraft's or scenario's name, never a path
FIRST_YEAR, LAST_YEAR = 1970, 9000                          # dates a recording can carry (and add a flight to)
QUAT_TOLERANCE = 1e-6                                       # how far from unit length a state's attitude may be


def _show(v) -> str:
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


def _finite(v) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:                   # a JSON integer too large for a float
        return False


def _numbers(path, key: str, v, n: int | None = None) -> np.ndarray:
    """A list of finite numbers (``n`` of them) as float64, or NotARecording naming the bad one."""
    if not isinstance(v, list):
        raise NotARecording(path, key, f"must be a list of numbers, got {_show(v)}")
    if n is not None and len(v) != n:
        raise NotARecording(path, key, f"has {len(v)} numbers, the recording's size is {n}")
    for i, x in enumerate(v):
        if not _finite(x):
            raise NotARecording(path, f"{key}[{i}]", f"must be a finite number, got {_show(x)}")
    return np.array(v, dtype=np.float64)


def _check_attitude(path, key: str, state: np.ndarray) -> None:
    if len(state) < ATTITUDE_END:
        return
    q = AircraftView(state).quat_wxyz
    if abs(math.sqrt(float(q @ q)) - 1.0) > QUAT_TOLERANCE:
        raise NotARecording(path, f"{key} attitude",
                            f"the attitude quaternion has length {math.sqrt(float(q @ q)):.6g}, not 1")


def check_controls(path, key: str, rows: np.ndarray, first_step: int | None = None) -> None:
    """Every control finite and within its physical range (the recorder writes them clipped):
    ``rows`` (steps, n_controls), the first being step ``first_step`` (None: the start)."""
    n = rows.shape[-1]
    lo, hi, names = CONTROL_LOW[:n], CONTROL_HIGH[:n], CONTROL_NAMES[:n]
    with np.errstate(invalid="ignore"):
        bad = ~(np.isfinite(rows) & (rows >= lo) & (rows <= hi))
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad.reshape(-1, rows.shape[-1]))[0])
        v = float(rows.reshape(-1, rows.shape[-1])[i, j])
        at = "" if first_step is None else f"at step {first_step + i}, "
        raise NotARecording(path, key, f"{at}control {j} ({names[j]}) is {v!r}, outside its range "
                                       f"{lo[j]:g} to {hi[j]:g}")


def _text(path, h: dict, key: str, required: bool = True, pattern=None) -> None:
    if key not in h:
        if required:
            raise NotARecording(path, f"header.{key}", "missing")
        return
    v = h[key]
    if not isinstance(v, str) or not v.strip() or not v.isprintable() or len(v) > 200:
        raise NotARecording(path, f"header.{key}", f"must be a line of text, got {_show(v)}")
    if pattern is not None and not pattern.fullmatch(v):
        raise NotARecording(path, f"header.{key}", f"must be a plain name (letters, digits, _ . -), got {_show(v)}")


def _word(v, most: int = 64) -> bool:
    """A short printable string (a part's name, a hash, a file name)."""
    return isinstance(v, str) and 0 < len(v) <= most and v.isprintable()


def _whole(path, h: dict, key: str, lo: int, hi: int, required: bool = True) -> None:
    if key not in h:
        if required:
            raise NotARecording(path, f"header.{key}", "missing")
        return
    v = h[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise NotARecording(path, f"header.{key}", f"must be a whole number from {lo} to {hi}, got {_show(v)}")


def check_header(header, path) -> dict:
    """``header`` if it is one a recorder writes, else NotARecording naming the key."""
    if not isinstance(header, dict):
        raise NotARecording(path, "header", f"must be a JSON object, got {type(header).__name__}")
    h = header
    if "format" not in h:
        raise NotARecording(path, "header.format", "missing")
    if isinstance(h["format"], bool) or h["format"] != FORMAT:
        raise NotARecording(path, "header.format", f"is {_show(h['format'])}, this version reads format {FORMAT}")
    _text(path, h, "created_utc")
    try:
        made = _dt.datetime.fromisoformat(h["created_utc"])
        made.astimezone(_dt.timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise NotARecording(path, "header.created_utc", "must be a date and time as ISO 8601 "
                            f"(2026-11-24T19:25:17+00:00), got {_show(h['created_utc'])}") from None
    if not FIRST_YEAR <= made.year <= LAST_YEAR:
        raise NotARecording(path, "header.created_utc", f"the year {made.year} is outside {FIRST_YEAR} to {LAST_YEAR}")
    for key in ("aircraft", "scenario"):
        _text(path, h, key, pattern=NAME)
    for key in ("aircraft_name", "aircraft_hash", "scenario_hash"):
        _text(path, h, key)
    _text(path, h, "scenario_name", required=False)
    if not isinstance(h.get("small_world"), bool):
        raise NotARecording(path, "header.small_world", f"must be true or false, got {_show(h.get('small_world'))}")
    code = h.get("code")
    if not isinstance(code, dict) or not all(_word(k) and _word(v) for k, v in code.items()):
        raise NotARecording(path, "header.code", f"must be an object of code hashes, got {_show(code)}")
    if "dt_s" not in h:
        raise NotARecording(path, "header.dt_s", "missing")
    if not _finite(h["dt_s"]) or not 0.0 < float(h["dt_s"]) <= 1.0:
        raise NotARecording(path, "header.dt_s", f"must be a number of seconds above 0 and at most 1, "
                                                 f"got {_show(h['dt_s'])}")
    _whole(path, h, "snapshot_every", 1, 2 ** 32 - 1, required=False)
    _whole(path, h, "n_state", ATTITUDE_END, 4096)
    _whole(path, h, "n_controls", 1, len(CONTROL_NAMES))
    state = _numbers(path, "header.start_state", h.get("start_state"), h["n_state"])
    _check_attitude(path, "header.start_state", state)
    ctrl = _numbers(path, "header.start_controls", h.get("start_controls"), h["n_controls"])
    check_controls(path, "header.start_controls", ctrl)
    if h.get("start_diag") is not None:
        _numbers(path, "header.start_diag", h["start_diag"])
    cont = h.get("continues")
    if cont is not None and not (isinstance(cont, dict) and _word(cont.get("recording"), 255)
                                 and isinstance(cont.get("step"), int) and not isinstance(cont["step"], bool)
                                 and cont["step"] >= 0):
        raise NotARecording(path, "header.continues", f"must name a recording and a step, got {_show(cont)}")
    recorded_start(h, path)
    return h


def recorded_start(header: dict, path) -> dict:
    """The scenario's start as recorded, checked as a scenario file's [start] is (its keys and
    ranges) and with the same defaults filled in: what the World is rebuilt from."""
    start = header.get("scenario_start")
    from ..aircraft_data.schema import DataError, validate_table
    from ..world.scenario import START_KEYS
    if isinstance(start, dict):
        for k, v in start.items():
            if isinstance(v, int) and not isinstance(v, bool) and not _finite(v):
                raise NotARecording(path, f"header.scenario_start.{k}", f"must be a finite number, got {_show(v)}")
        start = {k: v for k, v in start.items() if v is not None}     # (null: the key's default, as loaded)
    try:
        return validate_table(start, START_KEYS, path, "header.scenario_start")
    except DataError as e:
        raise NotARecording(path, e.key, e.problem) from None


def check_event(path, key: str, ev, n_state: int) -> dict:
    """An event block's JSON as the recorder writes it: its kind, and a reset's state or a new
    env as the kernels can take them."""
    if not isinstance(ev, dict):
        raise NotARecording(path, key, f"an event must be a JSON object, got {type(ev).__name__}")
    if "kind" not in ev:
        raise NotARecording(path, key, "the event has no kind")
    kind = ev["kind"]
    if kind not in EVENT_KINDS:
        raise NotARecording(path, key, f"unknown event kind {_show(kind)} (known: {', '.join(EVENT_KINDS)})")
    value = f"{key}, {kind} value"
    if kind == "reset":
        _check_attitude(path, value, _numbers(path, value, ev.get("value"), n_state))
    elif kind == "env":
        problem = env_problem(_numbers(path, value, ev.get("value")))
        if problem:
            raise NotARecording(path, value, problem)
    return ev


def open_recording(path):
    """``path`` opened for reading, or NotARecording saying why it cannot be."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise NotARecording(path, "", "file not found") from None
    except OSError as e:
        raise NotARecording(path, "", f"cannot be read ({e.strerror or e})") from None
    if _stat.S_ISDIR(st.st_mode):
        raise NotARecording(path, "", "is a directory, not a recording")
    if not _stat.S_ISREG(st.st_mode):
        raise NotARecording(path, "", "is not a regular file, not a recording")
    try:
        return open(path, "rb")
    except OSError as e:
        raise NotARecording(path, "", f"cannot be read ({e.strerror or e})") from None


def read_header(f, path) -> dict:
    """The header of a recording open in ``f`` (left just after it, at the first block), checked;
    NotARecording if the file is not one, or its header is cut short or holds bad data."""
    try:
        magic = f.read(len(MAGIC))
        if magic != MAGIC:
            if not magic:
                raise NotARecording(path, "", "is empty, not a flightsim recording")
            if magic[:5] == MAGIC[:5] and len(magic) == len(MAGIC) and magic[6:] == MAGIC[6:]:
                raise NotARecording(path, "", f"a flightsim recording of format {magic[5]}, this version reads {FORMAT}")
            if MAGIC.startswith(magic):
                raise NotARecording(path, "", "cut short in its first bytes (not a flightsim recording)")
            raise NotARecording(path, "", "not a flightsim recording")
        size = f.read(4)
        if len(size) < 4:
            raise NotARecording(path, "header", "cut short before its length")
        (n,) = struct.unpack("<I", size)
        body = f.read(n)
    except OSError as e:
        raise NotARecording(path, "", f"cannot be read ({e.strerror or e})") from None
    if len(body) < n:
        raise NotARecording(path, "header", f"cut short ({len(body)} of its {n} bytes)")
    try:
        header = json.loads(body)
    except UnicodeDecodeError:
        raise NotARecording(path, "header", "is not text (UTF-8)") from None
    except json.JSONDecodeError as e:
        raise NotARecording(path, "header", f"is not JSON ({e.msg} at byte {e.pos})") from None
    except RecursionError:
        raise NotARecording(path, "header", "is not JSON (nested too deep)") from None
    return check_header(header, path)


def read_recording(path) -> Recording:
    """The recording at ``path``, every value checked. A block cut short, failing its checksum
    or out of place (its header is not in the checksum) is damage: reading stops there and
    says where, and what is before it replays. Everything else that is not as a recorder writes
    it (the header, a block whose payload passes its checksum but holds bad data, a file with no
    step of flight) refuses the whole file: NotARecording, in one line."""
    path = Path(path)
    with open_recording(path) as f:
        header = read_header(f, path)
        at = f.tell()                      # (byte offsets in the messages are the file's)
        try:
            f.seek(0)
            data = f.read()
        except OSError as e:
            raise NotARecording(path, "", f"cannot be read ({e.strerror or e})") from None
    n_state, every = header["n_state"], header.get("snapshot_every")
    prev = np.array(header["start_controls"], dtype=np.float64)
    rec = Recording(path, header)
    while at < len(data):
        if at + BLOCK.size > len(data):
            rec.damage = f"cut short at byte {at} (a block header is incomplete)"
            break
        kind, step, length, crc = BLOCK.unpack_from(data, at)
        name = kind.decode("latin-1")
        payload = data[at + BLOCK.size:at + BLOCK.size + length]
        if len(payload) < length:
            rec.damage = f"cut short at byte {at} (a {name!r} block of {length} bytes)"
            break
        if zlib.crc32(payload) != crc:
            rec.damage = f"corrupted at byte {at} (a {name!r} block fails its checksum)"
            break
        where = f"block {name!r} at byte {at} (step {step})"
        if kind == b"C" and step != rec.steps:
            rec.damage = f"corrupted at byte {at} (controls for step {step}, expected {rec.steps})"
            break
        if kind == b"E" and step < rec.steps:
            rec.damage = f"corrupted at byte {at} (an event at step {step}, after step {rec.steps} was read)"
            break
        if kind == b"S" and (step < max(rec.steps, 1) or (every and step % every)):
            rec.damage = f"corrupted at byte {at} (a snapshot at step {step}, off the recording's steps)"
            break
        if kind == b"C":
            try:
                rows = decode_controls(payload, rec.controls[-1] if rec.controls else prev)
            except ValueError as e:
                raise NotARecording(path, where, str(e)) from None
            if rows:
                check_controls(path, where, np.array(rows), rec.steps)
            rec.controls.extend(rows)
        elif kind == b"E":
            try:
                ev = json.loads(payload)
            except (ValueError, RecursionError):
                raise NotARecording(path, where, "the event is not JSON") from None
            rec.events.setdefault(step, []).append(check_event(path, where, ev, n_state))
        elif kind == b"S":
            if length != 8 * n_state:
                raise NotARecording(path, where, f"a snapshot of {length} bytes, the state is {n_state} numbers")
            snap = np.frombuffer(payload, "<f8").copy()
            if not np.isfinite(snap).all():
                i = int(np.flatnonzero(~np.isfinite(snap))[0])
                raise NotARecording(path, where, f"state[{i}] is {float(snap[i])!r}, not a finite number")
            rec.snapshots[step] = snap
        else:
            rec.damage = f"corrupted at byte {at} (unknown block kind {kind!r})"
            break
        at += BLOCK.size + length
    if not rec.controls:
        raise NotARecording(path, "", "holds no step of flight" + (f": damaged, {rec.damage}" if rec.damage else ""))
    # what lies beyond the last step's controls cannot be replayed
    rec.snapshots = {k: v for k, v in rec.snapshots.items() if k <= rec.steps}
    rec.events = {k: v for k, v in rec.events.items() if k < rec.steps}
    return rec
