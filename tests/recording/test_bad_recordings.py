"""Bad recordings are refused in one line (issue 31, item 4): each malformed file of
tests/data/bad_recordings (made by its make_bad_recordings.py) is refused by the reader
(NotARecording naming the file, where in it and what is wrong) and by every command of
``python -m flightsim.replay`` (exit 2, one line, no traceback); an export checks where it
writes before any work, refuses a flight that does not replay as recorded unless --force, and
never writes a row that is not finite numbers."""
import argparse
import importlib.util
import json
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from flightsim.recording import export as export_mod
from flightsim.recording.cli import main as replay_main
from flightsim.recording.format import BLOCK, MAGIC, NotARecording, block, decode_controls, encode_controls, read_recording
from flightsim.recording.library import list_recordings, summary

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "bad_recordings"
GOOD = CORPUS / "good.fsrec"


def _maker():
    spec = importlib.util.spec_from_file_location("make_bad_recordings", CORPUS / "make_bad_recordings.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MAKER = _maker()
CASES = MAKER.CASES


def _one_line(text: str) -> str:
    lines = [x for x in text.splitlines() if x.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def test_the_corpus_is_what_its_script_makes(tmp_path):
    made = MAKER.make(tmp_path)
    for name, data in made.items():
        if data is None:
            assert (CORPUS / name).is_dir()
        else:
            assert (CORPUS / name).read_bytes() == data, f"{name}: run {CORPUS / 'make_bad_recordings.py'}"
    assert GOOD.read_bytes() == (tmp_path / "good.fsrec").read_bytes()
    assert {p.name for p in CORPUS.glob("*.fsrec")} == set(CASES) | set(MAKER.REBUILT) | {"good.fsrec"}


def test_the_good_one_reads():
    rec = read_recording(GOOD)
    assert rec.steps == 250 and len(rec.snapshots) == 1 and rec.damage is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_reader_refuses_it_in_one_line(name):
    path = CORPUS / name
    with pytest.raises(NotARecording) as e:
        read_recording(path)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{path}: ")
    assert CASES[name][0] in msg, msg


COMMANDS = {"info": [], "verify": ["--verify"], "igc": ["--export", "igc"], "csv": ["--export", "csv"],
            "acmi": ["--export", "acmi"], "plot": ["--plot", "PLOT"], "force": ["--export", "csv", "--force"]}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_command_refuses_it_in_one_line(name, command, tmp_path, capsys):
    args = [a.replace("PLOT", str(tmp_path / "plot.png")) for a in COMMANDS[command]]
    if "--export" in args:
        args += ["-o", str(tmp_path / "out")]
    assert replay_main([str(CORPUS / name), *args]) == 2
    out, err = capsys.readouterr()
    line = _one_line(err)
    assert line.startswith("error: ") and CASES[name][0] in line, line
    assert out == "" and not list(tmp_path.iterdir())          # nothing written


@pytest.mark.parametrize("name", sorted(MAKER.REBUILT))
def test_one_whose_world_cannot_be_rebuilt_is_refused_in_one_line(name, tmp_path, capsys):
    read_recording(CORPUS / name)                      # every value is one a recorder writes
    assert replay_main([str(CORPUS / name), "--export", "csv", "-o", str(tmp_path / "out.csv"), "--force"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("error: ") and MAKER.REBUILT[name][0] in line, line
    assert not (tmp_path / "out.csv").exists()
    assert replay_main([str(CORPUS / name), "--verify"]) in (2, 3)      # (3: recorded with other code)
    _one_line(capsys.readouterr().err)


def test_the_listing_leaves_out_those_whose_header_is_bad(tmp_path):
    """The menu's list reads headers and block headers only: a file refused there is not listed;
    one whose header is good but a block bad is listed, and refused when chosen (flow.REFUSED)."""
    for name in CASES:
        src = CORPUS / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name)
        else:
            shutil.copy(src, tmp_path / name)
    shutil.copy(GOOD, tmp_path / "good.fsrec")
    listed = {r.path.name for r in list_recordings(tmp_path)}
    assert "good.fsrec" in listed
    for name in CASES:
        try:
            read_recording(tmp_path / name)
        except NotARecording as e:
            assert "block '" in str(e) or name not in listed, str(e)


@pytest.mark.parametrize("name,args", [("date_bit_flipped.fsrec", ["--export", "igc"]),
                                       ("dt_text.fsrec", []),
                                       ("controls_nan.fsrec", ["--export", "csv"]),
                                       ("a_directory.fsrec", ["--verify"])])
def test_no_traceback_from_the_command(name, args, tmp_path):
    out = ["-o", str(tmp_path / "out")] if "--export" in args else []
    r = subprocess.run([sys.executable, "-m", "flightsim.replay", str(CORPUS / name), *args, *out], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert CASES[name][0] in _one_line(r.stderr) and "Traceback" not in r.stdout


def test_a_file_cut_after_whole_blocks_replays_up_to_its_damage(tmp_path):
    """A crash loses at most the last second: a file cut after its first blocks is not refused."""
    cut = tmp_path / "cut.fsrec"
    cut.write_bytes(GOOD.read_bytes()[:1700])
    rec = read_recording(cut)
    assert rec.damage and "cut short" in rec.damage and 0 < rec.steps < 250


# ---------------------------------------------------------------------------- where an export writes
def _no_work(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("re-simulated before the output was checked")
    monkeypatch.setattr(export_mod, "flight_table", refuse)


@pytest.mark.parametrize("where,why", [("missing/sub/out.png", "does not exist (it is not created for you)"),
                                       (".", "is a folder"),
                                       ("a_file.txt/out.png", "is not a folder")])
def test_an_output_path_that_cannot_be_written_is_refused_first(where, why, tmp_path, monkeypatch, capsys):
    _no_work(monkeypatch)
    (tmp_path / "a_file.txt").write_text("x")
    out = tmp_path / where
    for args in (["--export", "igc", "-o", str(out)], ["--plot", str(out)]):
        assert replay_main([str(GOOD), *args, "--force"]) == 2
        line = _one_line(capsys.readouterr().err)
        assert line.startswith("error: ") and why in line, line
    assert not (tmp_path / "missing").exists()                 # no folder made


def test_the_recording_itself_is_not_overwritten(tmp_path, monkeypatch, capsys):
    _no_work(monkeypatch)
    rec = tmp_path / "flight.igc"                              # a recording named like its export
    shutil.copy(GOOD, rec)
    assert replay_main([str(rec), "--export", "igc", "--force"]) == 2
    assert "is the recording itself" in _one_line(capsys.readouterr().err)
    assert rec.read_bytes() == GOOD.read_bytes()


def test_a_plot_in_a_format_matplotlib_does_not_write_is_refused_first(tmp_path, monkeypatch, capsys):
    _no_work(monkeypatch)
    assert replay_main([str(GOOD), "--plot", str(tmp_path / "plot.xyz"), "--force"]) == 2
    assert "not 'xyz'" in _one_line(capsys.readouterr().err)


@pytest.mark.skipif(sys.platform == "win32" or __import__("os").geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_folder_is_refused_first(tmp_path, monkeypatch, capsys):
    _no_work(monkeypatch)
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o555)
    assert replay_main([str(GOOD), "--export", "csv", "-o", str(ro / "out.csv"), "--force"]) == 2
    assert "cannot be written" in _one_line(capsys.readouterr().err)


# ---------------------------------------------------------------------------- a flight that does not verify
@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """6 s of the Astir in 'high' recorded by this code (one snapshot, at 5 s): it verifies."""
    from flightsim.app.telemetry import telemetry
    out = tmp_path_factory.mktemp("rec") / "fresh.fsrec"
    args = argparse.Namespace(scenario="high", aircraft=None, altitude_m=None, pilot="auto", seconds=6.0,
                              realtime=False, json=True, record=str(out))
    assert telemetry(args) == 0
    return out


def _tampered(src: Path, dst: Path) -> Path:
    """``src`` with the pitch control of step 120 moved by 0.01, written as the recorder would
    (checksums right): it reads, but its snapshot no longer matches."""
    data = src.read_bytes()
    (n,) = struct.unpack_from("<I", data, len(MAGIC))
    header = json.loads(data[len(MAGIC) + 4:len(MAGIC) + 4 + n])
    at, out, prev = len(MAGIC) + 4 + n, [data[:len(MAGIC) + 4 + n]], np.array(header["start_controls"])
    while at < len(data):
        kind, step, length, _ = BLOCK.unpack_from(data, at)
        payload = data[at + BLOCK.size:at + BLOCK.size + length]
        if kind == b"C":
            rows = decode_controls(payload, prev)
            if step <= 120 < step + len(rows):
                rows[120 - step] = rows[120 - step].copy()
                rows[120 - step][0] = rows[120 - step][0] * 0.5 + 0.01
                payload = encode_controls(rows, prev)
            prev = rows[-1]
        out.append(block(kind, step, payload))
        at += BLOCK.size + length
    dst.write_bytes(b"".join(out))
    return dst


def test_a_flight_that_does_not_verify_is_not_exported_unless_forced(fresh, tmp_path, capsys):
    assert replay_main([str(fresh), "--export", "csv", "-o", str(tmp_path / "ok.csv")]) == 0
    assert capsys.readouterr().err == ""
    bad = _tampered(fresh, tmp_path / "tampered.fsrec")
    assert replay_main([str(bad), "--verify"]) == 1
    capsys.readouterr()
    for fmt in ("igc", "csv", "acmi"):
        out = tmp_path / f"t.{fmt}"
        assert replay_main([str(bad), "--export", fmt, "-o", str(out)]) == 1
        line = _one_line(capsys.readouterr().err)
        assert line.startswith(f"refused: {bad}: it does not replay as recorded") and "--force" in line, line
        assert not out.exists()
    out = tmp_path / "t.csv"
    assert replay_main([str(bad), "--export", "csv", "-o", str(out), "--force"]) == 0
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("warning: ") and "written anyway (--force)" in line
    assert len(out.read_text().splitlines()) == 301


def _with_nan_rows(monkeypatch, rows):
    real = export_mod.flight_table

    def table(rec, **kw):
        t = real(rec, **kw)
        t["nz_g"] = t["nz_g"].copy()
        t["nz_g"][rows] = np.nan
        return t
    monkeypatch.setattr(export_mod, "flight_table", table)


def test_rows_that_are_not_finite_are_never_written(fresh, tmp_path, monkeypatch, capsys):
    _with_nan_rows(monkeypatch, slice(49, 100))                # t 1.0 to 2.0 s
    out = tmp_path / "n.csv"
    assert replay_main([str(fresh), "--export", "csv", "-o", str(out)]) == 1
    line = _one_line(capsys.readouterr().err)
    assert "51 of 300 rows" in line and "nz_g" in line and not out.exists()
    for fmt, count in (("csv", lambda t: len(t.splitlines()) - 1),
                       ("igc", lambda t: sum(1 for x in t.splitlines() if x.startswith("B"))),
                       ("acmi", lambda t: sum(1 for x in t.splitlines() if x.startswith("#")))):
        out = tmp_path / f"n.{fmt}"
        assert replay_main([str(fresh), "--export", fmt, "-o", str(out), "--force"]) == 0
        line = _one_line(capsys.readouterr().err)
        assert "51 of 300 rows" in line and "those rows left out" in line
        text = out.read_text()
        assert "nan" not in text.lower()
        assert count(text) == {"csv": 300 - 51, "igc": 6 - 2, "acmi": 60 - 11}[fmt]
    acmi = (tmp_path / "n.acmi").read_text()
    assert acmi.count("Pilot=Player") == 1


def test_the_writers_leave_out_rows_that_are_not_finite(tmp_path):
    rec = read_recording(GOOD)
    t = np.arange(1, 251) * 0.02
    table = {c: np.zeros(250) for c in export_mod.TABLE_COLUMNS}
    table.update(t_s=t, lat_deg=np.full(250, 51.0), lon_deg=np.full(250, -1.0), combat_frames=[])
    table["altitude_m"][:] = 1000.0
    table["altitude_m"][:60] = np.inf
    assert export_mod.not_finite(table).startswith("60 of 250 rows")
    export_mod.write_igc(rec, table, tmp_path / "x.igc")
    export_mod.write_csv(rec, table, tmp_path / "x.csv")
    assert sum(1 for x in (tmp_path / "x.igc").read_text().splitlines() if x.startswith("B")) == 5 - 1
    assert len((tmp_path / "x.csv").read_text().splitlines()) == 1 + 190
