"""Bad aircraft data is refused with one clear message naming the file, the key and the problem."""
import copy
import subprocess
import sys

import pytest

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.aircraft_data.loader import list_aircraft, load_aircraft
from flightsim.aircraft_data.schema import DataError
from tests.fixtures import dumps, thin_airfoil, trainer_doc, write_aircraft


def refused(tmp_path, doc=None, airfoils=None):
    path = write_aircraft(tmp_path, doc, airfoils)
    with pytest.raises(DataError) as e:
        compile_aircraft(load_aircraft(path))
    return path, e.value


def test_good_file_loads(tmp_path):
    c = compile_aircraft(load_aircraft(write_aircraft(tmp_path)))
    assert c.mass_kg == pytest.approx(120 + 90 + 2 * 30 + 2 * 15 + 2 * 3 + 5)
    assert len(c.sections) == 9        # 3 mirrored pairs + fin + 2 body strips


def test_missing_key(tmp_path):
    doc = trainer_doc()
    del doc["section"][1]["chord_m"]
    path, e = refused(tmp_path, doc)
    assert e.file == str(path)
    assert e.key == "section[1] 'wing_out'.chord_m"
    assert "missing required key" in str(e)


def test_unknown_airfoil(tmp_path):
    doc = trainer_doc()
    doc["section"][0]["airfoil"] = "naca9999"
    _, e = refused(tmp_path, doc)
    assert e.key == "section[0] 'wing_in'.airfoil"
    assert "unknown airfoil 'naca9999'" in str(e) and "known: flapped, plain, symmetric" in str(e)


@pytest.mark.parametrize("mass", [0.0, -5.0])
def test_zero_or_negative_mass(tmp_path, mass):
    doc = trainer_doc()
    doc["mass"][1]["mass_kg"] = mass
    _, e = refused(tmp_path, doc)
    assert e.key == "mass[1] 'pilot'.mass_kg"
    assert "must be greater than 0" in str(e)


def test_negative_section_mass(tmp_path):
    doc = trainer_doc()
    doc["section"][0]["mass_kg"] = -1.0
    _, e = refused(tmp_path, doc)
    assert e.key == "section[0] 'wing_in'.mass_kg" and "must not be negative" in str(e)


def test_key_without_unit_suffix(tmp_path):
    doc = trainer_doc()
    doc["section"][2]["span"] = doc["section"][2].pop("span_m")
    _, e = refused(tmp_path, doc)
    assert e.key == "section[2] 'htail'.span"
    assert "has no unit suffix" in str(e) and "span_m" in str(e)


def test_unknown_key(tmp_path):
    doc = trainer_doc()
    doc["gear"][0]["bounciness"] = 3
    _, e = refused(tmp_path, doc)
    assert e.key == "gear[0] 'main'.bounciness" and "unknown key" in str(e)


def test_non_monotonic_table(tmp_path):
    af = thin_airfoil()
    alpha = af["airfoil"]["alpha_deg"]
    alpha[40], alpha[41] = alpha[41], alpha[40]
    path, e = refused(tmp_path, airfoils={"plain": af, "flapped": thin_airfoil(flap=0.3),
                                          "symmetric": thin_airfoil(0.0, flap=0.3)})
    assert e.file.endswith("airfoils/plain.toml")
    assert e.key == "airfoil.alpha_deg" and "strictly increasing" in str(e)


def test_table_not_covering_full_circle(tmp_path):
    af = thin_airfoil()
    for k in ("deflection_0_deg",):
        for c in ("cl", "cd", "cm"):
            af[k][c] = af[k][c][1:]
    af["airfoil"]["alpha_deg"] = af["airfoil"]["alpha_deg"][1:]
    _, e = refused(tmp_path, airfoils={"plain": af, "flapped": thin_airfoil(flap=0.3),
                                       "symmetric": thin_airfoil(0.0, flap=0.3)})
    assert e.key == "airfoil.alpha_deg" and "from -180 to 180" in str(e)


def test_malformed_table_length(tmp_path):
    af = thin_airfoil()
    af["deflection_0_deg"]["cd"] = af["deflection_0_deg"]["cd"][:-3]
    _, e = refused(tmp_path, airfoils={"plain": af, "flapped": thin_airfoil(flap=0.3),
                                       "symmetric": thin_airfoil(0.0, flap=0.3)})
    assert e.key == "deflection_0_deg.cd" and "values but alpha_deg has" in str(e)


def test_full_deflection_curve_is_checked(tmp_path):
    """[deflection_full]: its deflection in range, its curves as long as alpha_deg, no negative
    drag, and only on an airfoil that has the +/-10 deg curves."""
    def flap_with_full(**change):
        af = thin_airfoil(flap=0.3)
        full = {k: list(v) for k, v in af["deflection_plus10_deg"].items()}
        full["deflection_deg"] = 40.0
        full.update(change)
        af["deflection_full"] = full
        return af

    def refused_flap(af):
        return refused(tmp_path, airfoils={"plain": thin_airfoil(), "flapped": af,
                                           "symmetric": thin_airfoil(0.0, flap=0.3)})[1]

    ok = write_aircraft(tmp_path / "ok", None, {"plain": thin_airfoil(), "flapped": flap_with_full(),
                                                "symmetric": thin_airfoil(0.0, flap=0.3)})
    assert load_aircraft(ok).airfoils["flapped"].full_deflection_deg == 40.0
    e = refused_flap(flap_with_full(deflection_deg=120.0))
    assert e.key == "deflection_full.deflection_deg" and e.file.endswith("flapped.toml")
    e = refused_flap(flap_with_full(cd=[-0.1] * len(thin_airfoil()["airfoil"]["alpha_deg"])))
    assert e.key == "deflection_full.cd" and "negative" in str(e)
    e = refused_flap(flap_with_full(cl=[0.0, 0.1]))
    assert e.key == "deflection_full.cl" and "values but alpha_deg has" in str(e)
    plain = thin_airfoil()
    plain["deflection_full"] = flap_with_full()["deflection_full"]
    e = refused(tmp_path, airfoils={"plain": plain, "flapped": thin_airfoil(flap=0.3),
                                    "symmetric": thin_airfoil(0.0, flap=0.3)})[1]
    assert e.key == "deflection_full" and "+10 and -10" in str(e)


def test_malformed_table_entry(tmp_path):
    af = thin_airfoil()
    af["deflection_0_deg"]["cl"][7] = "lots"
    _, e = refused(tmp_path, airfoils={"plain": af, "flapped": thin_airfoil(flap=0.3),
                                       "symmetric": thin_airfoil(0.0, flap=0.3)})
    assert e.key == "deflection_0_deg.cl" and "'lots'" in str(e)


def test_control_on_airfoil_without_deflection_curves(tmp_path):
    doc = trainer_doc()
    doc["section"][0]["control"] = "aileron"
    doc["section"][0]["control_max_deg"] = 15.0
    _, e = refused(tmp_path, doc)
    assert e.key == "section[0] 'wing_in'.control" and "no +/-10 degree deflection curves" in str(e)


def test_not_toml(tmp_path):
    path = write_aircraft(tmp_path)
    path.write_text("[aircraft\nname = 'x'\n")
    with pytest.raises(DataError) as e:
        load_aircraft(path)
    assert "not valid TOML" in str(e.value) and str(path) in str(e.value)


def test_too_stiff_gear_for_50hz(tmp_path):
    doc = trainer_doc()
    doc["gear"][1]["stiffness_n_per_m"] = 5e6
    _, e = refused(tmp_path, doc)
    assert e.key == "gear[1] 'tail'.stiffness_n_per_m" and "too stiff" in str(e)


def test_cli_reports_bad_data_without_traceback(tmp_path):
    doc = trainer_doc()
    doc["mass"][0]["mass_kg"] = -3
    path = write_aircraft(tmp_path, doc)
    r = subprocess.run([sys.executable, "-m", "flightsim.tunnel", "polar", "--aircraft", str(path), "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0
    assert "mass[0] 'fuselage'.mass_kg: must be greater than 0" in r.stderr and str(path) in r.stderr


@pytest.mark.parametrize("name", list_aircraft())
def test_every_shipped_aircraft_loads(name):
    c = compile_aircraft(name)
    assert c.mass_kg > 0 and len(c.sections) >= 6
    spec = c.spec
    for af in spec.airfoils.values():
        assert af.source.strip(), f"{af.path}: every table cites its source"
    assert spec.aircraft["sources"], "every aircraft cites its sources"


def test_references_are_checked_on_load(tmp_path):
    """references.toml: a figure naming no source, a wrong unit or an unknown card is refused
    with the file and the key."""
    from flightsim.aircraft_data.references import load_references
    from flightsim.aircraft_data.schema import DataError
    good = ('[[source]]\nid = "A"\ntitle = "a report"\ntrust = "flight test"\n\n'
            '[[figure]]\ncard = "roll_rate"\nvalue = 90.0\nunit = "deg/s"\nsource = "A"\nias_kmh = 418.0\n')
    p = tmp_path / "references.toml"
    p.write_text(good)
    refs = load_references(p)
    assert refs.figures[0].value == 90.0 and refs.figures[0].source.trust == "flight test"
    assert refs.figures[0].disagreement == ""
    p.write_text(good + 'disagreement = "the source\'s speed is not stated"\n')
    assert "not stated" in load_references(p).figures[0].disagreement
    for bad, key in ((good.replace('source = "A"\nias', 'source = "B"\nias'), "figure[0].source"),
                     (good.replace('"deg/s"', '"rad/s"'), "figure[0].unit"),
                     (good.replace('"roll_rate"', '"roll_speed"'), "figure[0].card"),
                     (good.replace('trust = "flight test"', 'trust = "hearsay"'), "source[0].trust"),
                     (good + '\n[[figure]]\ncard = "glide_sink"\nvalue = 0.7\nunit = "m/s"\nsource = "A"\n',
                      "figure[1].tas_kmh"),
                     (good + '\n[[behaviour]]\ncard = "turning_stall"\nbehaviour = "x"\nsource = "A"\nbank_deg = 95.0\n',
                      "behaviour[0].bank_deg"),
                     (good + 'disagreement = 3\n', "figure[0].disagreement")):
        p.write_text(bad)
        with pytest.raises(DataError) as e:
            load_references(p)
        assert str(p) in str(e.value) and key in str(e.value)


def test_old_reference_tables_in_an_aircraft_file_are_refused_with_where_they_went(trainer_path, tmp_path):
    import shutil

    from flightsim.aircraft_data.loader import load_aircraft
    from flightsim.aircraft_data.schema import DataError
    d = tmp_path / "plane"
    shutil.copytree(trainer_path.parent if trainer_path.is_file() else trainer_path, d)
    f = d / "aircraft.toml"
    f.write_text(f.read_text() + '\n[reference]\nmass_kg = 300.0\nsource = "x"\n')
    with pytest.raises(DataError, match="references.toml"):
        load_aircraft(f)
