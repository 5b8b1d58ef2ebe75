"""Instrument readings: pure functions of snapshots, checked against the flight model and
against synthetic motions whose answer is known."""
import math

import numpy as np
import pytest

from flightsim.instruments import spec as S
from flightsim.instruments import values as V
from flightsim.instruments.state import Instruments, Variometer
from flightsim.physics.atmosphere import RHO0, isa_density
from flightsim.physics.named import Controls
from flightsim.runtime.handoff import make_snapshot
from tests.instruments.helpers import G0, level_turn, snap


@pytest.fixture(scope="module")
def astir():
    from flightsim.sim import Sim
    return Sim("astir")


def _fly(sim, seconds, ctrl_fn=None):
    """Step the sim, returning a snapshot after every step (the physics thread's view)."""
    out = []
    for _ in range(int(round(seconds / 0.02))):
        c = sim.ctrl if ctrl_fn is None else ctrl_fn(sim)
        sim.step(c)
        out.append(make_snapshot(sim.state, c, sim.diag, sim.model, wall_s=sim.time_s))
    return out


# ------------------------------------------------------------------ airspeed, vario in a trimmed glide

def test_trimmed_glide_reads_the_trimmed_airspeed(astir):
    alt = 1000.0
    astir.spawn_trimmed_glide(90 / 3.6, alt)
    snaps = _fly(astir, 5.0)
    s = snaps[-1]
    sigma = float(isa_density(s.altitude_m)) / RHO0
    assert V.tas_kmh(s) == pytest.approx(90.0, abs=0.5)
    # the ASI reads the equivalent airspeed: TAS * sqrt(rho / rho0)
    assert V.ias_kmh(s) == pytest.approx(90.0 * math.sqrt(sigma), abs=0.5)
    assert V.ias_kmh(s) < V.tas_kmh(s)
    # steady: wings level, ball and string centred, 1 g
    assert abs(V.roll_deg(s)) < 0.5
    assert abs(V.slip_ball_rad(s)) < 0.01 and abs(V.yaw_string_rad(s)) < 0.01
    assert V.load_factor(s) == pytest.approx(1.0, abs=0.01)
    assert V.load_factor_between(snaps[-2], s) == pytest.approx(1.0, abs=0.01)


def test_te_vario_reads_the_polar_sink_in_still_air(astir):
    ref = astir.compiled.spec.reference
    for v_kmh in (80.0, 100.0, 140.0):
        astir.spawn_trimmed_glide(v_kmh / 3.6, 500.0)
        snaps = _fly(astir, 6.0)
        vario = Variometer(1.0)
        for a, b in zip(snaps, snaps[1:]):
            vario.update(a, b)
        s = snaps[-1]
        sink = -V.vertical_speed_ms(s)
        # the TE vario reads the aircraft's own sink (nothing else changes in a steady glide)
        assert vario.value == pytest.approx(-sink, abs=0.02)
        # ... which is the published polar at this speed, scaled from the reference mass and
        # sea level (sink at the same IAS goes as sqrt(mass) / sqrt(sigma))
        sigma = float(isa_density(s.altitude_m)) / RHO0
        polar = np.interp(V.ias_kmh(s), ref["polar_kmh"], ref["polar_sink_ms"])
        polar *= math.sqrt(astir.compiled.mass_kg / ref["mass_kg"]) / math.sqrt(sigma)
        assert vario.value == pytest.approx(-polar, rel=0.12), v_kmh


def test_te_compensation_reads_zero_when_speed_is_traded_for_height():
    """Synthetic pull-up at constant energy: v falls from 60 to 30 m/s while h rises by
    (60^2 - 30^2) / 2g; the plain vario shows the climb, the TE vario shows nothing."""
    snaps = []
    e0 = 1000.0 + 60.0 ** 2 / (2 * G0)
    for k in range(201):
        t = k * 0.02
        v = 60.0 - 30.0 * (0.5 - 0.5 * math.cos(math.pi * t / 4.0))
        h = e0 - v * v / (2 * G0)
        gamma = math.radians(30.0)
        snaps.append(snap(t, (0.0, 0.0, -h), (v * math.cos(gamma), 0.0, -v * math.sin(gamma)), pitch=gamma, tas=v))
    te = Variometer(1.0, total_energy=True)
    plain = Variometer(1.0, total_energy=False)
    worst_te, best_plain = 0.0, 0.0
    for a, b in zip(snaps, snaps[1:]):
        worst_te = max(worst_te, abs(te.update(a, b)))
        best_plain = max(best_plain, plain.update(a, b))
    assert worst_te < 0.05
    assert best_plain > 8.0


def test_te_vario_in_a_zoom_climb_shows_the_drag_not_the_climb(astir):
    """The same in the flight model: a pull-up from 180 km/h. The plain vario swings to
    +30 m/s; the TE vario shows only the energy the drag takes (a few m/s of sink)."""
    astir.spawn_trimmed_glide(180 / 3.6, 1000.0)
    base = astir.ctrl.copy()

    def pull(sim):
        c = Controls(base.copy())
        c.pitch += 0.6
        return c.array

    snaps = _fly(astir, 4.0, pull)
    te, plain = Variometer(1.0), Variometer(1.0, total_energy=False)
    peak_climb, worst_te = 0.0, 0.0
    for a, b in zip(snaps, snaps[1:]):
        t, p = te.update(a, b), plain.update(a, b)
        peak_climb, worst_te = max(peak_climb, p), max(worst_te, abs(t))
    assert peak_climb > 20.0
    assert worst_te < 0.25 * peak_climb
    assert all(V.te_rate_ms(a, b) < 0.0 for a, b in zip(snaps, snaps[1:]))   # a glider never gains energy in still air


def test_te_vario_ignores_the_snapshot_before_the_first_step():
    """The physics thread publishes its start state before any step: air data still zero."""
    first = snap(0.0, (0, 0, -1000), (25.0, 0.0, 0.8), tas=0.0, ias=0.0)
    second = snap(0.02, (0.5, 0, -999.98), (25.0, 0.0, 0.8))
    assert not V.air_data_valid(first) and V.air_data_valid(second)
    assert V.te_rate_ms(first, second) is None
    v = Variometer(1.0)
    v.update(first, second)
    assert v.value == 0.0


def test_vario_lag_is_a_first_order_filter():
    v = 0.0
    for _ in range(50):       # 1 s in 20 ms steps
        v = V.lag(v, 1.0, 0.02, 1.0)
    assert v == pytest.approx(1 - math.exp(-1.0), abs=1e-9)
    assert V.lag(0.3, 2.0, 0.02, 0.0) == 2.0


# ------------------------------------------------------------------ G meter

def test_g_meter_reads_one_in_level_flight():
    a = snap(0.0, (0, 0, -1000), (60, 0, 0))
    b = snap(0.02, (1.2, 0, -1000), (60, 0, 0))
    assert V.load_factor_between(a, b) == pytest.approx(1.0, abs=1e-9)
    assert V.load_factor(b) == 1.0


def test_g_meter_reads_two_in_a_level_60_degree_bank():
    snaps = level_turn(60.0, 50.0, 4.0)
    gs = [V.load_factor_between(a, b) for a, b in zip(snaps, snaps[1:])]
    assert min(gs) == pytest.approx(2.0, abs=2e-3)
    assert max(gs) == pytest.approx(2.0, abs=2e-3)
    inst = Instruments(S.InstrumentSpec())
    for k, s in enumerate(snaps):
        inst.update(s, s.time_s)
    assert inst.g == pytest.approx(2.0, abs=2e-3)
    assert inst.peak.max_g == pytest.approx(2.0, abs=2e-3)
    # a coordinated turn: the ball stays in the middle
    assert all(abs(V.slip_ball_rad(s)) < 1e-9 for s in snaps)


def test_peak_g_keeps_the_extremes_and_resets_with_the_epoch():
    """Wings level, the vertical velocity changing at (n - 1) g: the meter reads n."""
    inst = Instruments(S.InstrumentSpec())
    vd, t = 0.0, 0.0
    inst.update(snap(t, vel_ned=(50.0, 0.0, vd)), t)
    for n in [1.0, 2.5, 3.2, 1.5, -0.5, 1.0]:
        t += 0.02
        vd -= (n - 1.0) * G0 * 0.02
        inst.update(snap(t, vel_ned=(50.0, 0.0, vd)), t)
        assert inst.g == pytest.approx(n, abs=1e-9)
    assert inst.peak.max_g == pytest.approx(3.2) and inst.peak.min_g == pytest.approx(-0.5)
    inst.update(snap(t + 0.02, epoch=1), t + 0.02)
    assert inst.peak.max_g == 1.0 and inst.peak.min_g == 1.0


# ------------------------------------------------------------------ slip ball, yaw string

def test_ball_and_string_signs_in_a_sideslip():
    # wind from the right (beta > 0): the fuselage pushes the aircraft left (ny < 0)
    s = snap(beta=math.radians(8.0), ny=-0.12)
    assert V.slip_ball_rad(s) > 0.0            # ball right: right rudder ("step on the ball")
    assert V.yaw_string_rad(s) < 0.0           # string tail blown left: right rudder too
    assert V.slip_ball_rad(s) == pytest.approx(math.atan2(0.12, 1.0))
    assert V.yaw_string_rad(snap(beta=0.3, tas=1.0)) == 0.0     # hangs straight when standing still


def test_ball_and_string_agree_in_the_flight_model(astir):
    astir.spawn_trimmed_glide(90 / 3.6, 800.0)
    base = astir.ctrl.copy()

    def left_rudder(sim):
        return Controls(base.copy(), yaw=-0.6).array

    s = _fly(astir, 1.5, left_rudder)[-1]
    assert s.beta_rad > math.radians(1.0)      # nose yawed left: the wind comes from the right
    assert V.slip_ball_rad(s) > 0.0 and V.yaw_string_rad(s) < 0.0


# ------------------------------------------------------------------ heading, flight path, scales

def test_heading_and_flight_path_marker():
    s = snap(vel_ned=(0.0, -40.0, 4.0), yaw=math.radians(-80.0))
    assert V.heading_deg(s) == pytest.approx(280.0)
    right, up = V.flight_path_body(s)
    assert math.degrees(right) == pytest.approx(-10.0, abs=1e-6)   # tracking 270: left of the 280 nose
    assert math.degrees(up) == pytest.approx(-math.degrees(math.atan2(4.0, 40.0)), abs=1e-6)
    np.testing.assert_allclose(V.flight_path_ned(s), np.array([0.0, -40.0, 4.0]) / math.hypot(40.0, 4.0))
    assert V.flight_path_body(snap(vel_ned=(0.1, 0, 0))) is None


def test_heading_tape_wraps_through_north():
    marks = V.heading_tape(355.0, 20.0)
    labels = {lab: off for off, lab in marks if lab}
    assert labels == {"340": -15.0, "350": -5.0, "000": 5.0, "010": 15.0}
    assert [off for off, _ in marks] == [-20.0, -15.0, -10.0, -5.0, 0.0, 5.0, 10.0, 15.0, 20.0]


def test_ladder_rungs_stop_at_the_poles():
    assert V.ladder_rungs(2.0, 12.0) == [-10, -5, 0, 5, 10]
    assert V.ladder_rungs(85.0, 20.0) == [65, 70, 75, 80, 85, 90]


def test_aoa_and_mach():
    s = snap(alpha=math.radians(6.0), tas=170.0, mach=0.5)
    assert V.aoa_deg(s) == pytest.approx(6.0) and V.mach(s) == 0.5


# ------------------------------------------------------------------ stall warning

def test_stall_warning_levels():
    assert V.stall_warning(snap(ias=30.0), 64.0) == 0
    assert V.stall_warning(snap(ias=19.0), 64.0) == 1                 # 68 km/h < 1.1 x 64
    assert V.stall_warning(snap(ias=19.0, stalled=3), 64.0) == 2
    assert V.stall_warning(snap(ias=25.0, nz=2.0), 64.0) == 1         # accelerated: Vs sqrt(2) = 90 km/h
    assert V.stall_warning(snap(ias=19.0, on_ground=1, agl=0.5), 64.0) == 0   # never on the ground
    assert V.stall_warning(snap(ias=19.0, nz=0.2), 64.0) == 0         # pushed over: no stall at low g


def test_stall_warning_in_the_flight_model(astir):
    astir.spawn_trimmed_glide(90 / 3.6, 800.0)
    base = astir.ctrl.copy()
    inst = Instruments(S.load(astir.compiled))

    def stick_back(sim):
        return Controls(base.copy(), pitch=1.0).array

    levels = []
    for s in _fly(astir, 8.0, stick_back):
        inst.update(s, s.time_s)
        levels.append(inst.stall_level)
    assert max(levels) == 2
    assert levels.index(1) < levels.index(2)     # the warning comes before the stall


# ------------------------------------------------------------------ engine fields (optional)

class _Powered:
    """A snapshot with extra engine attributes (what the powered-flight issue may carry)."""

    def __init__(self, base, **kw):
        self.__dict__.update(base.__dict__)
        self.__dict__.update(kw)


def test_engine_readings_only_for_fields_that_exist():
    s = snap()
    assert V.engine_readings(s, S.ENGINE_GAUGES, powered=False) == []
    p = _Powered(s, rpm=2700.0, manifold_pressure_inhg=46.0, coolant_temp_c=None)
    got = {g.field: v for g, v in V.engine_readings(p, S.ENGINE_GAUGES)}
    assert got["rpm"] == pytest.approx(27.0) and got["manifold_pressure_inhg"] == 46.0
    assert "coolant_temp_c" not in got            # None here, and no coolant_k reading either
    assert set(S.ENGINE_FIELDS) == {"rpm", "manifold_pressure_inhg", "oil_temp_c", "oil_pressure_psi", "coolant_temp_c",
                                    "fuel_kg"}


def test_engine_readings_from_the_powered_flight_snapshot_names():
    """engine_rpm, manifold_pressure_pa, oil_k, coolant_k, fuel_kg: converted to the gauges' units."""
    p = _Powered(snap(), rpm=None, manifold_pressure_inhg=None, oil_temp_c=None, coolant_temp_c=None,
                 engine_rpm=3000.0, manifold_pressure_pa=61.0 * V.INHG_PA, oil_k=353.15, coolant_k=383.15,
                 fuel_kg=500.0)
    assert V.engine_value(p, "rpm") == 3000.0
    assert V.engine_value(p, "manifold_pressure_inhg") == pytest.approx(61.0)
    assert V.engine_value(p, "oil_temp_c") == pytest.approx(80.0)
    assert V.engine_value(p, "coolant_temp_c") == pytest.approx(110.0)
    got = {g.field: v for g, v in V.engine_readings(p, S.ENGINE_GAUGES)}
    assert got == {"rpm": pytest.approx(30.0), "manifold_pressure_inhg": pytest.approx(61.0),
                   "oil_temp_c": pytest.approx(80.0), "coolant_temp_c": pytest.approx(110.0), "fuel_kg": 500.0}
    # a glider's snapshot carries zeros: no gauges, and 0 K is no reading at all
    assert V.engine_readings(p, S.ENGINE_GAUGES, powered=False) == []
    assert V.engine_value(_Powered(snap(), oil_k=0.0), "oil_temp_c") is None


def test_telemetry_text_has_the_seed_001_readouts():
    s = snap(t=75.5, pos=(3000.0, 4000.0, -420.0), vel_ned=(30.0, 0.0, 1.2))
    txt = V.telemetry_text(s, start_ned=(0.0, 0.0, -500.0), sim_rate=1.0, stall_level=2)
    for key in ("TAS", "PITCH", "ALT", "VRATE", "ELEV", "POWER", "FLAPS", "STALL", "DIST", "TIME", "RATE"):
        assert key in txt
    assert "5.00 km" in txt and "1:15.5" in txt and " 100 %" in txt and "!!" in txt and "-1.2 m/s" in txt


def test_telemetry_text_shows_a_carburetted_engine_s_mixture_and_heat():
    from dataclasses import replace

    from flightsim.runtime.handoff import ControlInputs
    s = snap(t=10.0)
    assert "MIXT." not in V.telemetry_text(s)                  # no carburettor: no line
    s = replace(s, carb_temp_k=263.15, controls=ControlInputs(mixture_lean=0.25, carb_heat=1.0))
    txt = V.telemetry_text(s)
    assert "MIXT.     75 %" in txt and "CARB     -10 C HEAT" in txt
