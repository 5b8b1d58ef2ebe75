"""Instrument data: the Astir's flight-manual markings, derived markings, bad files."""
import pytest

from flightsim.aircraft_data.schema import DataError
from flightsim.instruments import spec as S


def test_astir_markings_from_its_flight_manual():
    from flightsim.aircraft_data.compile import compile_aircraft
    s = S.load(compile_aircraft("astir"))
    assert s.source.endswith("astir/instruments.toml")
    assert s.speed_unit == "kmh" and s.altitude_unit == "m" and s.glider
    assert s.vne_kmh == 250.0 and s.va_kmh == 170.0 and s.vw_kmh == 120.0
    arcs = {a.color: (a.from_kmh, a.to_kmh) for a in s.arcs}
    assert arcs == {"green": (70.0, 170.0), "yellow": (170.0, 250.0)}
    assert "white" not in arcs                   # no flaps, no white arc
    marks = {m.kind: m.at_kmh for m in s.marks}
    assert marks == {"red_line": 250.0, "yellow_triangle": 90.0}
    assert s.asi_max_kmh == 300.0


def test_derived_markings_for_a_powered_aircraft():
    s = S.derived(name="fighter", kind="powered", vne_kmh=810.0, stall_kmh=160.0)
    assert (s.speed_unit, s.altitude_unit, s.vertical_speed_unit) == ("mph", "ft", "fpm")
    assert s.marks[0].kind == "red_line" and s.marks[0].at_kmh == 810.0
    assert s.arcs[0].from_kmh == pytest.approx(176.0)
    assert s.speed(1.609344 * 300) == pytest.approx(300.0)
    assert s.altitude(304.8) == pytest.approx(1000.0)
    assert s.vertical_speed(5.08) == pytest.approx(1000.0)


def test_bad_instrument_file_names_the_key(tmp_path):
    p = tmp_path / "instruments.toml"
    p.write_text('[instruments]\nspeed_unit = "furlongs"\n')
    with pytest.raises(DataError, match="speed_unit"):
        S.load_file(p)
    p.write_text('[[asi_arc]]\ncolor = "green"\nfrom_kmh = 100.0\nto_kmh = 90.0\n')
    with pytest.raises(DataError, match=r"asi_arc\[0\].to_kmh"):
        S.load_file(p)
    p.write_text('[instruments]\nvne = 250.0\n')
    with pytest.raises(DataError, match="unit suffix"):
        S.load_file(p)
