"""The malformed recordings of tests/recording/test_bad_recordings.py (issue 31): one file per
kind of damage a hostile user's fuzz found, and the ordinary ones (empty, cut short, random
bytes, text, a directory). Each is made from the first 5 s of the kept spin_recovery flight
(its header, five controls blocks and the snapshot at step 250, 2.3 kB), damaged one way.

    python tests/data/bad_recordings/make_bad_recordings.py      writes them here

``CASES``: file name -> (what the refusal must name, how the file is made): refused by the
reader. ``REBUILT``: files that read, but whose World cannot be rebuilt as recorded: refused
when replayed. The files are checked in; test_bad_recordings checks that this script still
makes them byte for byte.
"""
from __future__ import annotations

import json
import random
import struct
import zlib
from pathlib import Path

import numpy as np

from flightsim.recording.format import BLOCK, MAGIC, block, decode_controls, encode_controls, header_bytes

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "recording" / "flights" / "spin_recovery.fsrec"
BASE_STEPS = 250


def base() -> tuple[dict, list]:
    """The source's header and its blocks up to the snapshot at step 250: (header, [(kind, step, payload)])."""
    data = SOURCE.read_bytes()
    (n,) = struct.unpack_from("<I", data, len(MAGIC))
    header = json.loads(data[len(MAGIC) + 4:len(MAGIC) + 4 + n])
    at, blocks = len(MAGIC) + 4 + n, []
    while at < len(data):
        kind, step, length, _crc = BLOCK.unpack_from(data, at)
        blocks.append((kind, step, data[at + BLOCK.size:at + BLOCK.size + length]))
        at += BLOCK.size + length
        if kind == b"S" and step == BASE_STEPS:
            break
    return header, blocks


def write(header: dict, blocks: list) -> bytes:
    return header_bytes(header) + b"".join(block(k, s, p) for k, s, p in blocks)


def good() -> bytes:
    return write(*base())


def _header(**changes) -> bytes:
    h, blocks = base()
    for k, v in changes.items():
        if v is _GONE:
            del h[k]
        else:
            h[k] = v
    return write(h, blocks)


_GONE = object()


def _raw_header(edit) -> bytes:
    """The header's JSON text edited by ``edit`` (text -> text), its length fixed."""
    h, blocks = base()
    body = edit(json.dumps(h, separators=(",", ":"))).encode()
    return MAGIC + struct.pack("<I", len(body)) + body + b"".join(block(k, s, p) for k, s, p in blocks)


def _flip_date() -> bytes:
    """One bit flipped in the date: '2026-11-24T...' -> '2026,11-24T...' (0x2d ^ 0x01), same length."""
    data = bytearray(good())
    i = data.index(b'"created_utc":"') + len(b'"created_utc":"') + 4
    data[i] ^= 0x01
    return bytes(data)


def _controls(value: float, control: int = 3, step: int = 60) -> bytes:
    """One control of one step set to ``value`` in the recorder's own encoding (checksum right)."""
    h, blocks = base()
    prev = np.array(h["start_controls"], dtype=np.float64)
    out = []
    for kind, first, payload in blocks:
        if kind == b"C":
            rows = decode_controls(payload, prev)
            if first <= step < first + len(rows):
                rows[step - first] = rows[step - first].copy()
                rows[step - first][control] = value
                payload = encode_controls(rows, prev)
            prev = rows[-1]
        out.append((kind, first, payload))
    return write(h, out)


def _blocks(edit) -> bytes:
    h, blocks = base()
    return write(h, edit(h, blocks))


def _insert_event(ev) -> bytes:
    payload = ev if isinstance(ev, bytes) else json.dumps(ev).encode()
    return _blocks(lambda h, b: b[:1] + [(b"E", 50, payload)] + b[1:])


def _replace_payload(kind: bytes, payload: bytes) -> bytes:
    def edit(h, blocks):
        i = next(i for i, (k, s, _) in enumerate(blocks) if k == kind)
        return blocks[:i] + [(kind, blocks[i][1], payload)] + blocks[i + 1:]
    return _blocks(edit)


def _snapshot(edit) -> bytes:
    def change(h, blocks):
        return [(k, s, edit(np.frombuffer(p, "<f8").copy()) if k == b"S" else p) for k, s, p in blocks]
    return _blocks(change)


def _nan_at(a, i):
    a[i] = float("nan")
    return a.astype("<f8").tobytes()


def _random_bytes() -> bytes:
    return random.Random(31).randbytes(2300)


def _state_with(i, value):
    h, _ = base()
    s = list(h["start_state"])
    s[i] = value
    return s


def _controls_with(i, value):
    h, _ = base()
    c = list(h["start_controls"])
    c[i] = value
    return c


# name -> (what the one-line refusal names, the file's bytes; None: a directory)
CASES = {
    # what the fuzz found
    "date_bit_flipped.fsrec": ("header.created_utc", _flip_date),
    "dt_zero.fsrec": ("header.dt_s", lambda: _header(dt_s=0)),
    "dt_text.fsrec": ("header.dt_s", lambda: _header(dt_s="abc")),
    "start_state_nan.fsrec": ("header.start_state[0]", lambda: _header(start_state=_state_with(0, float("nan")))),
    "event_without_kind.fsrec": ("the event has no kind", lambda: _insert_event({"value": [1.0]})),
    "controls_nan.fsrec": ("at step 60, control 3 (airbrake) is nan", lambda: _controls(float("nan"))),
    "controls_1e300.fsrec": ("at step 60, control 3 (airbrake) is 1e+300", lambda: _controls(1e300)),
    # the ordinary ways a file is not one
    "empty.fsrec": ("is empty", lambda: b""),
    "random_bytes.fsrec": ("not a flightsim recording", _random_bytes),
    "text_file.fsrec": ("not a flightsim recording", lambda: b"a flight log, in words\n" * 20),
    "a_directory.fsrec": ("is a directory", None),
    "cut_in_magic.fsrec": ("cut short", lambda: MAGIC[:4]),
    "cut_in_header.fsrec": ("header: cut short", lambda: good()[:600]),
    "cut_in_first_block.fsrec": ("holds no step of flight", lambda: good()[:len(header_bytes(base()[0])) + 8]),
    "other_format.fsrec": ("format 2", lambda: MAGIC[:5] + b"\x02\n" + good()[len(MAGIC):]),
    # the header
    "header_not_json.fsrec": ("header: is not JSON", lambda: _raw_header(lambda t: t.replace('"format":1', '"format":1,,'))),
    "header_a_list.fsrec": ("header: must be a JSON object", lambda: _raw_header(lambda t: "[" + t + "]")),
    "header_not_utf8.fsrec": ("header: is not text", lambda: _latin1_header()),
    "format_missing.fsrec": ("header.format: missing", lambda: _header(format=_GONE)),
    "n_controls_missing.fsrec": ("header.n_controls: missing", lambda: _header(n_controls=_GONE)),
    "n_state_huge.fsrec": ("header.n_state", lambda: _raw_header(lambda t: t.replace('"n_state":84', '"n_state":' + "9" * 400))),
    "state_size_mismatch.fsrec": ("header.start_state: has 83 numbers",
                                  lambda: _header(start_state=base()[0]["start_state"][:-1])),
    "quaternion_zero.fsrec": ("attitude quaternion", lambda: _header(start_state=_state_with(6, 0.0))),
    "throttle_2.fsrec": ("header.start_controls: control 7 (throttle) is 2.0",
                         lambda: _header(start_controls=_controls_with(7, 2.0))),
    "year_9999.fsrec": ("header.created_utc: the year 9999", lambda: _header(created_utc="9999-12-31T23:59:59+00:00")),
    "aircraft_a_path.fsrec": ("header.aircraft: must be a plain name", lambda: _header(aircraft="../../etc/passwd")),
    "aircraft_name_two_lines.fsrec": ("header.aircraft_name", lambda: _header(aircraft_name="Astir\nHFPLTPILOTINCHARGE:x")),
    "scenario_start_boat.fsrec": ("header.scenario_start.type", lambda: _header(scenario_start={"type": "boat"})),
    "small_world_text.fsrec": ("header.small_world", lambda: _header(small_world="no")),
    "code_missing.fsrec": ("header.code", lambda: _header(code=_GONE)),
    # the blocks (their checksums right: written so)
    "controls_not_zlib.fsrec": ("do not decompress", lambda: _replace_payload(b"C", b"not zlib at all")),
    "controls_mask_past_end.fsrec": ("changes control 30", lambda: _replace_payload(b"C", zlib.compress(
        struct.pack("<I", 1 << 30) + struct.pack("<d", 0.5)))),
    "controls_cut_in_step.fsrec": ("cut short (its values)", lambda: _replace_payload(b"C", zlib.compress(
        struct.pack("<I", 1) + b"\x00\x00"))),
    "event_unknown_kind.fsrec": ("unknown event kind 'teleport'", lambda: _insert_event({"kind": "teleport"})),
    "event_not_json.fsrec": ("the event is not JSON", lambda: _insert_event(b"{kind: reset")),
    "event_a_list.fsrec": ("an event must be a JSON object", lambda: _insert_event(["reset"])),
    "reset_wrong_size.fsrec": ("has 3 numbers", lambda: _insert_event({"kind": "reset", "value": [0.0, 0.0, 0.0]})),
    "env_thermals_past_end.fsrec": ("thermals in an env", lambda: _insert_event(
        {"kind": "env", "value": [0.0] * 7 + [0.02, 1000.0] + [0.0] * 7})),
    "snapshot_nan.fsrec": ("state[3] is nan", lambda: _snapshot(lambda a: _nan_at(a, 3))),
    "snapshot_short.fsrec": ("a snapshot of 664 bytes", lambda: _snapshot(lambda a: a[:-1].astype("<f8").tobytes())),
}

# name -> (what the refusal names, the file's bytes): files that read (every value is one a
# recorder writes) but whose World cannot be rebuilt as recorded: refused when replayed
REBUILT = {
    "winch_start_in_high.fsrec": ("the scenario 'high' has no winch",
                                  lambda: _header(scenario_start={**base()[0]["scenario_start"], "type": "winch"})),
    "aircraft_unknown.fsrec": ("no aircraft named 'nosuch'", lambda: _header(aircraft="nosuch")),
    "scenario_unknown.fsrec": ("no scenario named 'nosuch'", lambda: _header(scenario="nosuch")),
}


def _latin1_header() -> bytes:
    h, blocks = base()
    body = json.dumps(h, separators=(",", ":"), ensure_ascii=False).replace("Astir", "Ast\xefr").encode("latin-1")
    return MAGIC + struct.pack("<I", len(body)) + body + b"".join(block(k, s, p) for k, s, p in blocks)


def make(where: Path = HERE) -> dict[str, bytes | None]:
    """Every case's bytes (None: a directory), written into ``where``."""
    out = {}
    for name, (_, how) in {**CASES, **REBUILT}.items():
        p = where / name
        if how is None:
            p.mkdir(exist_ok=True)
            (p / "README").write_text("A directory named like a recording: refused as one.\n")
            out[name] = None
        else:
            out[name] = how()
            p.write_bytes(out[name])
    (where / "good.fsrec").write_bytes(good())
    return out


if __name__ == "__main__":
    made = make()
    print(f"wrote {len(made)} malformed recordings and good.fsrec to {HERE}")
