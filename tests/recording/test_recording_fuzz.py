"""A valid recording mutated every which way (issue 31, item 4): its bytes flipped, cut,
spliced; its header's fields replaced by any JSON; its blocks' payloads changed with their
checksums made right (as a hostile writer would). The reader either returns a recording that
holds only what a recorder writes, or refuses it with NotARecording in one line: never any
other exception. The listing's summary likewise."""
import json
import math
import struct
import zlib
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flightsim.physics.named import CONTROLS
from flightsim.recording.format import (
    BLOCK,
    EVENT_KINDS,
    MAGIC,
    NotARecording,
    block,
    check_header,
    decode_controls,
    encode_controls,
    header_bytes,
    read_recording,
)
from flightsim.recording.library import summary

GOOD = Path(__file__).resolve().parents[1] / "data" / "bad_recordings" / "good.fsrec"
DATA = GOOD.read_bytes()
(_N,) = struct.unpack_from("<I", DATA, len(MAGIC))
HEADER = json.loads(DATA[len(MAGIC) + 4:len(MAGIC) + 4 + _N])
BODY_AT = len(MAGIC) + 4 + _N


def _blocks():
    at, out = BODY_AT, []
    while at < len(DATA):
        kind, step, length, _ = BLOCK.unpack_from(DATA, at)
        out.append((kind, step, DATA[at + BLOCK.size:at + BLOCK.size + length]))
        at += BLOCK.size + length
    return out


BLOCKS = _blocks()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


def _valid(rec) -> None:
    """What a recording read back may hold: only what a recorder writes."""
    h = rec.header
    check_header(h, rec.path)
    assert rec.steps > 0 and 0 < rec.dt_s <= 1 and math.isfinite(rec.seconds)
    n_c, n_s = h["n_controls"], h["n_state"]
    c = np.array(rec.controls)
    assert c.shape == (rec.steps, n_c) and np.isfinite(c).all()
    lo = np.array([x[2] for x in sorted(CONTROLS, key=lambda x: x[1])])[:n_c]
    hi = np.array([x[3] for x in sorted(CONTROLS, key=lambda x: x[1])])[:n_c]
    assert (c >= lo).all() and (c <= hi).all()
    for k, snap in rec.snapshots.items():
        assert 0 < k <= rec.steps and snap.shape == (n_s,) and np.isfinite(snap).all()
    for k, evs in rec.events.items():
        assert 0 <= k < rec.steps
        for ev in evs:
            assert isinstance(ev, dict) and ev["kind"] in EVENT_KINDS
    assert rec.damage is None or "\n" not in rec.damage


def _judge(tmp_path, data: bytes, name="fuzz.fsrec") -> None:
    p = tmp_path / name
    p.write_bytes(data)
    try:
        rec = read_recording(p)
    except NotARecording as e:
        assert "\n" not in str(e) and str(e).startswith(f"{p}: ")
    else:
        _valid(rec)
    try:
        summary(p)
    except NotARecording as e:
        assert "\n" not in str(e)


def _write(header, blocks) -> bytes:
    return header_bytes(header) + b"".join(block(k, s, p) for k, s, p in blocks)


# ---------------------------------------------------------------------------- the bytes
@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, len(DATA) - 1), st.integers(0, 7)), min_size=1, max_size=8))
def test_flipped_bits(tmp_path, flips):
    data = bytearray(DATA)
    for at, bit in flips:
        data[at] ^= 1 << bit
    _judge(tmp_path, bytes(data))


@FUZZ
@given(cut=st.integers(0, len(DATA)))
def test_cut_anywhere(tmp_path, cut):
    _judge(tmp_path, DATA[:cut])


@FUZZ
@given(at=st.integers(0, len(DATA)), drop=st.integers(0, 64), new=st.binary(max_size=64))
def test_spliced(tmp_path, at, drop, new):
    _judge(tmp_path, DATA[:at] + new + DATA[at + drop:])


# ---------------------------------------------------------------------------- the header's fields
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.integers(-2 ** 1100, 2 ** 1100)
                    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
                    max_leaves=20)
KEYS = sorted(HEADER) + ["unknown_key"]


@FUZZ
@given(key=st.sampled_from(KEYS), value=JSON | st.just("delete"))
def test_a_header_field_replaced(tmp_path, key, value):
    h = json.loads(json.dumps(HEADER))
    if value == "delete":
        h.pop(key, None)
    else:
        h[key] = value
    _judge(tmp_path, _write(h, BLOCKS))


NEAR = (st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10, 10) | st.integers(-2 ** 1100, 2 ** 1100)
        | st.booleans() | st.none() | st.text(max_size=5))


@FUZZ
@given(key=st.sampled_from(["start_state", "start_controls", "scenario_start", "code", "created_utc", "dt_s",
                            "n_state", "n_controls"]),
       index=st.integers(0, 140), value=NEAR)
def test_a_value_inside_a_header_field_changed(tmp_path, key, index, value):
    h = json.loads(json.dumps(HEADER))
    v = h[key]
    if isinstance(v, list):
        v[index % len(v)] = value
    elif isinstance(v, dict):
        v[sorted(v)[index % len(v)]] = value
    elif isinstance(v, str):
        i = index % len(v)
        h[key] = v[:i] + chr((ord(v[i]) ^ (1 << (index % 7))) or 1) + v[i + 1:]     # one bit of one character
    else:
        h[key] = value
    _judge(tmp_path, _write(h, BLOCKS))


# ---------------------------------------------------------------------------- the blocks, checksums right
@FUZZ
@given(which=st.integers(0, len(BLOCKS) - 1), flips=st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 7)),
                                                             min_size=1, max_size=4))
def test_a_payload_changed_with_its_checksum_made_right(tmp_path, which, flips):
    blocks = list(BLOCKS)
    kind, step, payload = blocks[which]
    p = bytearray(payload)
    for at, bit in flips:
        if p:
            p[at % len(p)] ^= 1 << bit
    blocks[which] = (kind, step, bytes(p))
    _judge(tmp_path, _write(HEADER, blocks))


VALUE = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, 1.0, -1.0, 1.0000001, -1e-300])


@FUZZ
@given(which=st.integers(0, 4), step=st.integers(0, 49), control=st.integers(0, 18), value=VALUE)
def test_a_control_rewritten_as_the_recorder_would(tmp_path, which, step, control, value):
    blocks = list(BLOCKS)
    prev = np.array(HEADER["start_controls"], dtype=np.float64)
    c_blocks = [i for i, b in enumerate(blocks) if b[0] == b"C"]
    for i in c_blocks:
        rows = decode_controls(blocks[i][2], prev)
        if i == c_blocks[which]:
            rows[step % len(rows)] = rows[step % len(rows)].copy()
            rows[step % len(rows)][control] = value
            blocks[i] = (b"C", blocks[i][1], encode_controls(rows, prev))
        prev = rows[-1]
    _judge(tmp_path, _write(HEADER, blocks))


EVENT = (st.fixed_dictionaries({"kind": st.sampled_from(list(EVENT_KINDS) + ["teleport", ""]) | JSON},
                               optional={"value": JSON | st.lists(NEAR, max_size=90)})
         | JSON)


@FUZZ
@given(ev=EVENT, step=st.integers(0, 300), where=st.integers(0, len(BLOCKS)))
def test_any_event_inserted(tmp_path, ev, step, where):
    blocks = list(BLOCKS)
    blocks.insert(where, (b"E", step, json.dumps(ev).encode()))
    _judge(tmp_path, _write(HEADER, blocks))


@FUZZ
@given(kind=st.sampled_from([b"C", b"E", b"S", b"X", b"\x00"]), step=st.integers(0, 2 ** 32 - 1),
       payload=st.binary(max_size=700) | st.builds(zlib.compress, st.binary(max_size=700)),
       where=st.integers(0, len(BLOCKS)))
def test_any_block_inserted(tmp_path, kind, step, payload, where):
    blocks = list(BLOCKS)
    blocks.insert(where, (kind, step, payload))
    _judge(tmp_path, _write(HEADER, blocks))


@FUZZ
@given(table=st.sampled_from(["scenario_start", "code", "continues"]), key=st.text(max_size=12), value=JSON)
def test_a_key_of_any_name_in_a_header_object(tmp_path, table, key, value):
    """Names from the file reach the message: a line break in one must not make it two lines."""
    h = json.loads(json.dumps(HEADER))
    h[table] = {**(h.get(table) or {}), key: value}
    _judge(tmp_path, _write(h, BLOCKS))
