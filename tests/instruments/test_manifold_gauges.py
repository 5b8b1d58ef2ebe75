"""Manifold pressure as British boost (lb/in2 above 14.7, negative at idle) and as German
ata (kgf/cm2, absolute): the readings from the snapshot's pascals, gauges of them in an
instruments.toml, and a scale that starts below zero drawn in order."""
import pytest

from flightsim.instruments import spec as S
from flightsim.instruments import values as V
from tests.instruments.helpers import snap

MERLIN_BOOST = """
[[engine_gauge]]
field = "boost_psi"
label = "BOOST"
unit = "lb/in\u00b2"
min = -7.0
max = 25.0
green_from = -4.0
green_to = 7.0
yellow_from = 7.0
yellow_to = 18.0
red_at = 18.0
step = 1.0
label_every = 5.0

[[engine_gauge]]
field = "manifold_pressure_ata"
label = "LADEDRUCK"
unit = "ata"
min = 0.6
max = 1.8
green_from = 0.8
green_to = 1.3
yellow_from = 1.3
yellow_to = 1.42
red_at = 1.42
step = 0.1
label_every = 0.2

[[engine_gauge]]
field = "rpm"
label = "RPM"
unit = "x100"
min = 0.0
max = 40.0
scale = 0.01
"""


def _at(pa):
    return snap(manifold_pressure_pa=pa)


def test_boost_is_lb_per_square_inch_above_standard_sea_level_pressure():
    assert V.engine_value(_at(101325.0), "boost_psi") == pytest.approx(0.0, abs=1e-9)
    assert V.engine_value(_at(225430.0), "boost_psi") == pytest.approx(18.0, abs=0.005)     # +18 lb: Merlin 66 combat
    assert V.engine_value(_at(101325.0 - 4 * 6894.757), "boost_psi") == pytest.approx(-4.0)  # about idle
    assert V.engine_value(_at(25.0 * 6894.757 + 101325.0), "boost_psi") == pytest.approx(25.0)
    # 14.7 lb/in2 absolute is zero boost, and the inHg gauge agrees (+18 lb = 66.6 inHg)
    assert V.engine_value(_at(225430.0), "manifold_pressure_inhg") == pytest.approx(66.57, abs=0.01)


def test_ata_is_technical_atmospheres_absolute():
    assert V.engine_value(_at(98066.5), "manifold_pressure_ata") == pytest.approx(1.0)
    assert V.engine_value(_at(101325.0), "manifold_pressure_ata") == pytest.approx(1.0332, abs=1e-4)
    assert V.engine_value(_at(139254.0), "manifold_pressure_ata") == pytest.approx(1.42, abs=1e-4)   # DB 605 take-off


def test_either_name_is_read_and_a_glider_shows_none(tmp_path):
    class Carrying:                        # a snapshot that carries the gauge's own name
        boost_psi = 9.0
        manifold_pressure_ata = 1.3
    assert V.engine_value(Carrying(), "boost_psi") == 9.0
    assert V.engine_value(Carrying(), "manifold_pressure_ata") == 1.3
    assert V.engine_readings(_at(101325.0), _gauges(tmp_path), powered=False) == []


def _gauges(tmp_path):
    p = tmp_path / "instruments.toml"
    p.write_text(MERLIN_BOOST, encoding="utf-8")
    return S.load_file(p).engine_gauges


def test_an_instruments_file_with_boost_and_ata_gauges_loads(tmp_path):
    p = tmp_path / "instruments.toml"
    p.write_text('[instruments]\nspeed_unit = "mph"\naltitude_unit = "ft"\n' + MERLIN_BOOST, encoding="utf-8")
    s = S.load_file(p, S.derived(name="test", kind="powered"))
    boost, ata, rpm = s.engine_gauges
    assert (boost.field, boost.unit, boost.min, boost.max) == ("boost_psi", "lb/in\u00b2", -7.0, 25.0)
    assert boost.green == (-4.0, 7.0) and boost.red_at == 18.0 and boost.label_every == 5.0
    assert (ata.field, ata.label, ata.min, ata.max, ata.red_at) == ("manifold_pressure_ata", "LADEDRUCK", 0.6, 1.8, 1.42)
    assert rpm.scale == 0.01
    got = {g.field: v for g, v in V.engine_readings(snap(manifold_pressure_pa=101325.0 - 4 * 6894.757,
                                                        engine_rpm=900.0), s.engine_gauges)}
    assert got["boost_psi"] == pytest.approx(-4.0)                 # below the scale's zero, above its min
    assert got["manifold_pressure_ata"] == pytest.approx(0.752, abs=0.001)
    assert got["rpm"] == pytest.approx(9.0)


class _Bank:
    """Records the text a gauge face puts (the overlay's TextBank without GL)."""

    def __init__(self):
        self.items = {}

    def put(self, key, text, x, y, **kw):
        self.items[key] = (text, x, y)


def _face(gauge):
    from flightsim.render import dials as D
    from flightsim.render.canvas import Canvas
    d = D.Dial.linear(200.0, 200.0, 60.0, gauge.min, gauge.max, 225.0, 270.0)
    bank = _Bank()
    D.small_gauge(Canvas(), bank, ("eng", gauge.field), d, gauge, gauge.unit, gauge.label)
    numerals = [(float(k[1]), t) for k, (t, _, _) in bank.items.items()
                if k[0] == ("eng", gauge.field) and not isinstance(k[1], str)]     # not the title, the unit
    return d, sorted(numerals)


def test_a_scale_below_zero_is_drawn_in_order(tmp_path):
    """The boost gauge's -7..+25 and the ata gauge's 0.6..1.8: numerals where they belong
    (no '-0'), and a needle at -4 lb between the scale's start and its zero."""
    from flightsim.render.canvas import dial_angle
    boost, ata, _ = _gauges(tmp_path)
    d, nums = _face(boost)
    assert [t for _, t in nums] == ["-5", "0", "5", "10", "15", "20", "25"]
    # clockwise from the 225 deg start: the swept fraction grows with the value
    assert d.frac(-7.0) == 0.0 and d.frac(25.0) == 1.0
    assert 0.0 < d.frac(-4.0) < d.frac(0.0) < d.frac(18.0) < 1.0
    assert d.frac(-4.0) == pytest.approx(3.0 / 32.0)
    assert d.angle(-4.0) == pytest.approx(dial_angle(3.0 / 32.0, 225.0, 270.0))
    assert d.frac(-9.0) == 0.0                                     # below the scale: on its stop
    from flightsim.render.dials import fmt
    assert (fmt(-5.551115123125783e-17), fmt(-4.0), fmt(1.2000000000000002)) == ("0", "-4", "1.2")
    d, nums = _face(ata)
    assert [t for _, t in nums] == ["0.6", "0.8", "1", "1.2", "1.4", "1.6", "1.8"]
    assert d.frac(1.42) == pytest.approx(0.82 / 1.2)
