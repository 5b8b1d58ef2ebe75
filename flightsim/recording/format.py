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

Little-endian throughout. Reading stops at the first block that is cut short or fails its
checksum, and says where: everything before it replays.
"""
from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MAGIC = b"FSREC\x01\n"
FORMAT = 1
BLOCK = struct.Struct("<cIII")        # kind, step, payload length, crc32


class NotARecording(ValueError):
    """The file is not a flightsim recording (or its header is unreadable)."""


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


def decode_controls(payload: bytes, previous: np.ndarray) -> list[np.ndarray]:
    raw = zlib.decompress(payload)
    rows, prev, at = [], previous, 0
    while at < len(raw):
        (mask,) = struct.unpack_from("<I", raw, at)
        at += 4
        c = prev.copy()
        idx = [k for k in range(len(prev)) if mask >> k & 1]
        if idx:
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


def read_header(f, path) -> dict:
    """The header of a recording open in ``f`` (left just after it, at the first block);
    NotARecording if the file is not one."""
    if f.read(len(MAGIC)) != MAGIC:
        raise NotARecording(f"{path}: not a flightsim recording")
    try:
        (n,) = struct.unpack("<I", f.read(4))
        header = json.loads(f.read(n))
        if header.get("format") != FORMAT or len(header["start_controls"]) != int(header["n_controls"]):
            raise ValueError(f"format {header.get('format')}")
    except (struct.error, ValueError, KeyError, TypeError, AttributeError) as e:
        raise NotARecording(f"{path}: not a readable flightsim recording ({e})") from None
    return header


def read_recording(path) -> Recording:
    path = Path(path)
    with open(path, "rb") as f:
        header = read_header(f, path)
        at = f.tell()                      # (byte offsets in the messages are the file's)
        f.seek(0)
        data = f.read()
    prev = np.array(header["start_controls"], dtype=np.float64)
    rec = Recording(path, header)
    while at < len(data):
        if at + BLOCK.size > len(data):
            rec.damage = f"cut short at byte {at} (a block header is incomplete)"
            break
        kind, step, length, crc = BLOCK.unpack_from(data, at)
        payload = data[at + BLOCK.size:at + BLOCK.size + length]
        if len(payload) < length:
            rec.damage = f"cut short at byte {at} (a {kind.decode(errors='replace')!r} block of {length} bytes)"
            break
        if zlib.crc32(payload) != crc:
            rec.damage = f"corrupted at byte {at} (a {kind.decode(errors='replace')!r} block fails its checksum)"
            break
        try:
            if kind == b"C":
                if step != rec.steps:
                    raise ValueError(f"controls for step {step}, expected {rec.steps}")
                rows = decode_controls(payload, rec.controls[-1] if rec.controls else prev)
                rec.controls.extend(rows)
            elif kind == b"E":
                rec.events.setdefault(step, []).append(json.loads(payload))
            elif kind == b"S":
                rec.snapshots[step] = np.frombuffer(payload, "<f8").copy()
            else:
                raise ValueError(f"unknown block kind {kind!r}")
        except (ValueError, zlib.error, struct.error) as e:
            rec.damage = f"corrupted at byte {at} ({e})"
            break
        at += BLOCK.size + length
    # what lies beyond the last step's controls cannot be replayed
    rec.snapshots = {k: v for k, v in rec.snapshots.items() if k <= rec.steps}
    rec.events = {k: v for k, v in rec.events.items() if k < rec.steps}
    return rec
