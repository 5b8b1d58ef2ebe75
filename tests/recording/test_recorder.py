"""The flight recorder (issue 16): a recorded flight re-simulates bit for bit, damaged and
foreign files are handled, and the exports parse with an independent reader."""
import argparse
import shutil

import numpy as np
import pytest

from flightsim.app.telemetry import telemetry
from flightsim.recording.cli import main as replay_main
from flightsim.recording.format import NotARecording, read_recording
from flightsim.recording.replay import resimulate, verify


def _record(tmp_path, scenario, seconds, name):
    out = tmp_path / f"{name}.fsrec"
    args = argparse.Namespace(scenario=scenario, aircraft=None, altitude_m=None, pilot="auto", seconds=seconds,
                              realtime=False, json=True, record=str(out))
    assert telemetry(args) == 0
    return out


@pytest.fixture(scope="module")
def winch_flight(tmp_path_factory):
    """A winch launch flown by the autopilot, released at the top: 45 s."""
    return _record(tmp_path_factory.mktemp("rec"), "winch", 45.0, "winch")


def test_a_winch_launch_replays_bit_for_bit(winch_flight):
    rec = read_recording(winch_flight)
    assert rec.steps == 45 * 50 and rec.damage is None
    released = [k for k, evs in rec.events.items() for ev in evs if ev["kind"] == "release_cable"]
    assert len(released) == 1 and 25 * 50 < released[0] < 45 * 50     # the pilot's pull on the release
    v = verify(rec)
    assert v.ok and v.matched == len(rec.snapshots) == 9, str(v)


def test_a_changed_input_is_caught(winch_flight):
    """The verification can fail: one control nudged by 1e-12 at 10 s shows in the next snapshot."""
    rec = read_recording(winch_flight)
    rec.controls[500] = rec.controls[500].copy()
    rec.controls[500][0] += 1e-12
    v = verify(rec)
    assert not v.ok and v.first_mismatch[0] == 750


def test_a_truncated_file_replays_up_to_the_damage(winch_flight, tmp_path):
    data = winch_flight.read_bytes()
    cut = tmp_path / "cut.fsrec"
    cut.write_bytes(data[:int(len(data) * 0.6)])
    rec = read_recording(cut)
    assert rec.damage and "cut short" in rec.damage
    assert 0 < rec.steps < 45 * 50 and rec.steps % 50 == 0
    assert verify(rec).matched == len(rec.snapshots) > 0


def test_a_corrupted_block_stops_the_replay_there(winch_flight, tmp_path):
    data = bytearray(winch_flight.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.fsrec"
    bad.write_bytes(bytes(data))
    rec = read_recording(bad)
    assert rec.damage and "corrupted" in rec.damage
    assert rec.steps < 45 * 50
    assert verify(rec).matched == len(rec.snapshots)         # what is before the damage replays exactly


def test_not_a_recording_is_refused_in_one_line(tmp_path, capsys):
    p = tmp_path / "notes.txt"
    p.write_text("hello")
    with pytest.raises(NotARecording):
        read_recording(p)
    assert replay_main([str(p), "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "not a flightsim recording" in err


def test_another_aircraft_version_is_named_not_replayed(winch_flight, tmp_path, capsys):
    import json
    import struct

    from flightsim.recording.format import MAGIC
    data = winch_flight.read_bytes()
    (n,) = struct.unpack_from("<I", data, len(MAGIC))
    header = json.loads(data[len(MAGIC) + 4:len(MAGIC) + 4 + n])
    header["aircraft_hash"] = "0" * 16
    body = json.dumps(header).encode()
    other = tmp_path / "other.fsrec"
    other.write_bytes(MAGIC + struct.pack("<I", len(body)) + body + data[len(MAGIC) + 4 + n:])
    assert replay_main([str(other), "--verify"]) == 3
    assert "aircraft 'astir' is not the one recorded" in capsys.readouterr().err


def test_exports_parse(winch_flight, tmp_path):
    from aerofiles.igc import Reader
    for fmt in ("igc", "csv", "acmi"):
        assert replay_main([str(winch_flight), "--export", fmt, "-o", str(tmp_path / f"f.{fmt}")]) == 0
    with open(tmp_path / "f.igc") as f:
        igc = Reader().read(f)
    fix_errors, fixes = igc["fix_records"]
    assert not fix_errors and not igc["header"][0]
    assert len(fixes) == 45
    alts = [x["pressure_alt"] for x in fixes]
    assert max(alts) - alts[0] > 250                  # the launch climbs 300-400 m
    csv_lines = (tmp_path / "f.csv").read_text().splitlines()
    assert len(csv_lines) == 45 * 50 + 1 and csv_lines[0].startswith("t_s,north_m")
    acmi = (tmp_path / "f.acmi").read_text().splitlines()
    assert acmi[0] == "FileType=text/acmi/tacview" and acmi[1] == "FileVersion=2.2"
    assert sum(1 for line in acmi if line.startswith("#")) == 450


def test_a_combat_flight_replays_and_its_acmi_has_every_object(tmp_path):
    """The AI opponent and the balloons are re-computed on replay: the verification holds, and
    the ACMI file carries the player, the opponent and the balloons at 10 Hz."""
    path = _record(tmp_path, "fighter_combat", 10.0, "combat")
    rec = read_recording(path)
    assert verify(rec).ok
    out = tmp_path / "c.acmi"
    assert replay_main([str(path), "--export", "acmi", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    frames = sum(1 for line in lines if line.startswith("#"))
    assert frames == 100
    assert sum(1 for line in lines if line.startswith("1,T=")) == frames
    assert sum(1 for line in lines if line.startswith("2,T=")) == frames          # the opponent
    assert any("Name=Balloon" in line for line in lines)
