"""Bad input is refused in one line and never crashes the game (issue 31): damaged files, numbers
outside their physical range, an aircraft that cannot fly its start, command-line values, output
paths, a closed pipe. (Settings: test_settings.py; recordings: tests/recording; controls, profiles
and the Gymnasium actions: tests/physics, tests/input, tests/gym.) The whole sweep of such inputs
is scripts/fuzz.py."""
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import load_aircraft
from flightsim.aircraft_data.schema import DataError, physical_range
from tests.fixtures import thin_airfoil, trainer_doc, write_aircraft

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "bad_files"


def run(args, timeout=120, **env):
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(env)
    return subprocess.run([sys.executable, "run.py", *args], cwd=ROOT, env=e, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def one_line_refusal(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr + r.stdout
    lines = [x for x in r.stderr.splitlines() if x.strip() and not x.startswith("  ")]
    assert len(lines) == 1, r.stderr
    return lines[0]


# ---------------------------------------------------------------- physical ranges on load
@pytest.mark.parametrize("where, value, unit", [
    (("section", 1, "chord_m"), 1e30, "m"),
    (("section", 0, "span_m"), -1e9, "m"),
    (("section", 0, "mass_kg"), 1e9, "kg"),
    (("gear", 0, "stiffness_n_per_m"), 1e30, "N/m"),
    (("section", 2, "incidence_deg"), 1e4, "degrees"),
])
def test_a_number_outside_its_physical_range_is_refused_on_load_with_its_unit(tmp_path, where, value, unit):
    doc = trainer_doc()
    table, i, key = where
    doc[table][i][key] = value
    path = write_aircraft(tmp_path, doc)
    with pytest.raises(DataError) as e:
        load_aircraft(path)
    assert e.value.key.endswith(key) and "physical range" in str(e.value) and f" {unit}" in str(e.value)
    assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_an_airfoil_coefficient_of_1e30_is_refused_by_its_file(tmp_path):
    af = thin_airfoil()
    af["deflection_0_deg"]["cl"][40] = 1e30
    path = write_aircraft(tmp_path, airfoils={"plain": af, "flapped": thin_airfoil(flap=0.3),
                                              "symmetric": thin_airfoil(alpha0_deg=0.0, flap=0.3)})
    with pytest.raises(DataError) as e:
        load_aircraft(path)
    assert "plain.toml" in e.value.file and "cl" in e.value.key and "physical range" in str(e.value)


def test_the_units_name_their_ranges():
    assert physical_range("section[0] 'wing'.chord_m") == (-1e5, 1e5, "m")
    assert physical_range("critical_altitude_high_m")[1] == 30000.0
    assert physical_range("gear[0] 'main'.stiffness_n_per_m")[2] == "N/m"
    assert physical_range("cl")[1] == 1e6          # a coefficient: no flight has one this large


_NUMERIC = [("section", 0, "span_m"), ("section", 1, "chord_m"), ("section", 0, "mass_kg"),
            ("section", 2, "incidence_deg"), ("section", 0, "airbrake_dcd"), ("mass", 0, "mass_kg"),
            ("gear", 0, "stiffness_n_per_m"), ("gear", 1, "damping_n_s_per_m"), ("gear", 0, "rolling_mu"),
            ("aircraft", None, "vne_kmh"), ("section", 3, "control_max_deg")]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(_NUMERIC), st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                                            st.sampled_from([0.0, -1.0, 1e30, -1e30, 1e-300, 5e5])))
def test_any_number_in_an_aircraft_either_builds_or_is_refused_by_name(tmp_path_factory, where, value):
    """The loader and the compiler on one damaged number: a compiled aircraft whose numbers are
    all finite, or a DataError naming the file (never another exception)."""
    doc = trainer_doc()
    table, i, key = where
    (doc[table] if i is None else doc[table][i])[key] = value
    path = write_aircraft(tmp_path_factory.mktemp("a"), doc)
    try:
        c = compile_aircraft(load_aircraft(path))
    except DataError as e:
        assert str(path.parent) in e.file and "\n" not in str(e)
        return
    assert math.isfinite(c.mass_kg) and c.mass_kg > 0


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_as_an_aircraft_file_are_refused_by_name(tmp_path_factory, data):
    path = write_aircraft(tmp_path_factory.mktemp("b"))
    path.write_bytes(data)
    with pytest.raises(DataError) as e:
        load_aircraft(path)
    assert e.value.file == str(path)


# ---------------------------------------------------------------- a corpus of damaged files
def _corpus():
    return sorted(p for p in CORPUS.iterdir() if p.name != "README.md")


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_every_file_of_the_corpus_is_refused_by_its_loader_in_one_line(tmp_path, path):
    from flightsim.aircraft_data.loader import load_airfoil
    from flightsim.aircraft_data.references import load_references
    from flightsim.world.scenario import load_scenario
    kind = path.name.split("_", 1)[0]
    if kind == "aircraft":
        target = write_aircraft(tmp_path)
        target.write_bytes(path.read_bytes())
        load = load_aircraft
    elif kind == "airfoil":
        target = tmp_path / "airfoil.toml"
        target.write_bytes(path.read_bytes())
        load = load_airfoil
    elif kind == "references":
        target = tmp_path / "references.toml"
        target.write_bytes(path.read_bytes())
        load = load_references
    elif kind == "scenario":
        target = tmp_path / "scenario.toml"
        target.write_bytes(path.read_bytes())
        load = load_scenario
    else:
        pytest.fail(f"{path.name}: name it aircraft_, airfoil_, references_ or scenario_")
    with pytest.raises(DataError) as e:
        load(target)
    assert e.value.file == str(target) and "\n" not in str(e.value)


def test_a_folder_where_the_aircraft_file_should_be_is_refused(tmp_path):
    path = write_aircraft(tmp_path)
    path.unlink()
    path.mkdir()
    with pytest.raises(DataError, match="directory|folder|no aircraft"):
        load_aircraft(path)


def test_a_broken_references_file_does_not_stop_the_aircraft_flying(tmp_path, caplog):
    path = write_aircraft(tmp_path)
    (path.parent / "references.toml").write_bytes(b"\xff\xfe not toml at all \x00")
    spec = load_aircraft(path)                     # flies: the figures are for validating
    assert spec.references.error is not None and "references.toml" in str(spec.references.error)
    compile_aircraft(spec)


# ---------------------------------------------------------------- the game's command line
def test_an_aircraft_that_cannot_fly_its_start_is_refused_in_one_line(tmp_path):
    doc = trainer_doc()
    doc["mass"][0]["mass_kg"] = 9.0e5              # within the physical range; no glide holds it
    doc["aircraft"]["air_start_kmh"] = 100.0
    path = write_aircraft(tmp_path, doc)
    line = one_line_refusal(run(["--aircraft", str(path), "--scenario", "thermal", "--headless-telemetry",
                                 "--seconds", "1"]))
    assert "no steady" in line and str(path) in line


@pytest.mark.parametrize("args, says", [
    (["--seconds", "nan"], "--seconds"), (["--seconds", "inf"], "--seconds"), (["--seconds", "-1"], "--seconds"),
    (["--altitude-m", "1e9"], "--altitude-m"), (["--altitude-m", "nan"], "--altitude-m"),
    (["--width", "-5"], "--width"), (["--height", "0"], "--height"), (["--frames", "-1"], "--frames"),
    (["--width", "100000"], "--width"),
])
def test_command_line_numbers_are_range_checked_by_the_parser(capsys, args, says):
    from flightsim.app.cli import parser
    with pytest.raises(SystemExit) as e:
        parser().parse_args(["--headless-telemetry", *args])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "outside" in err or "not a" in err


@pytest.mark.parametrize("option", ["--record", "--screenshot"])
@pytest.mark.parametrize("target", ["missing_folder/x.out", "a_folder", "/proc/version", ""])
def test_output_paths_are_checked_before_any_work(tmp_path, option, target):
    from flightsim.app.cli import main
    (tmp_path / "a_folder").mkdir()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        args = ["--headless-telemetry", "--seconds", "1"] if option == "--record" else ["--frames", "1"]
        assert main([*args, option, target]) == 2
    finally:
        os.chdir(cwd)
    assert not (tmp_path / "missing_folder").exists()


def test_a_device_that_takes_writes_is_a_place_for_output():
    from flightsim.paths import OutputPathError, check_output
    assert str(check_output("/dev/null", "--screenshot")) == "/dev/null"
    with pytest.raises(OutputPathError, match="/proc/version: cannot be written"):
        check_output("/proc/version", "--screenshot")


def test_no_folder_is_made_for_a_recording_outside_what_the_user_named(tmp_path):
    target = tmp_path / "not" / "there" / "x.fsr"
    line = one_line_refusal(run(["--headless-telemetry", "--seconds", "1", "--record", str(target)]))
    assert "does not exist" in line and not (tmp_path / "not").exists()


def test_a_closed_pipe_ends_quietly():
    cmd = f"{sys.executable} run.py --headless-telemetry --seconds 30 --json | head -n 2 >/dev/null"
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
    r = subprocess.run(["bash", "-c", f"{sys.executable} run.py --list-scenarios | head -n 1"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() and not r.stderr.strip(), r.stderr
    r = subprocess.run(["bash", "-c", f"{sys.executable} -m flightsim.tunnel polar --aircraft astir | head -n 1"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() and not r.stderr.strip(), r.stderr


def test_one_bad_scenario_file_never_hides_the_good_ones(tmp_path, monkeypatch, capsys):
    from flightsim.app.cli import list_scenarios
    from flightsim.world import scenario as sc_mod
    d = tmp_path / "scenarios"
    d.mkdir()
    for p in sc_mod.scenario_paths()[:3]:
        (d / p.name).write_bytes(p.read_bytes())
    (d / "x.toml").write_bytes(bytes(range(256)) * 8)
    (d / "y.toml").mkdir()
    monkeypatch.setattr(sc_mod, "SCENARIO_DIR", d)
    assert list_scenarios(False) == 0
    out = capsys.readouterr().out
    assert out.count("(refused:") == 2 and len(out.splitlines()) == 5


def _numbers(doc, at=()):
    """Paths to every number in a parsed TOML document."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _numbers(v, at + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _numbers(v, at + (i,))
    elif isinstance(doc, (int, float)) and not isinstance(doc, bool):
        yield at


_SCENARIOS = ["fighter_air", "thermal", "winch", "p51d_vs_bf109", "ridge"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_SCENARIOS), st.data(),
       st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0, -1, 10**30, 1e30, -1e9])))
def test_any_number_in_a_scenario_either_loads_finite_or_is_refused_by_name(tmp_path_factory, name, data, value):
    import tomllib

    from flightsim.world.scenario import SCENARIO_DIR, load_scenario
    from tests.fixtures import dumps
    doc = tomllib.loads((SCENARIO_DIR / f"{name}.toml").read_text())
    paths = list(_numbers(doc))
    at = data.draw(st.sampled_from(paths))
    node = doc
    for k in at[:-1]:
        node = node[k]
    node[at[-1]] = value
    path = tmp_path_factory.mktemp("s") / f"{name}.toml"
    path.write_text(dumps(doc))
    try:
        sc = load_scenario(path)
    except DataError as e:
        assert e.file == str(path) and "\n" not in str(e)
        return
    assert all(math.isfinite(x) for x in _floats(sc.start))


def _floats(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _floats(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _floats(v)
    elif isinstance(obj, float):
        yield obj
