"""What the instruments remember: the landing judge, the sim-rate meter, the stall hold."""
import pytest

from flightsim.instruments import spec as S
from flightsim.instruments.state import AverageClimb, Instruments, LandingJudge, SimRate, StallWarner
from tests.instruments.helpers import snap


def _approach(judge, sink_ms, start_agl=30.0):
    """Descend from start_agl at sink_ms, then touch down: returns the event."""
    t, h, ev = 0.0, start_agl, None
    prev = None
    while h > 0.8:
        s = snap(t, (0, 0, -h), (25.0, 0.0, sink_ms), agl=h)
        ev = judge.update(prev, s) or ev
        prev, t, h = s, t + 0.02, h - sink_ms * 0.02
    s = snap(t, (0, 0, -h), (25.0, 0.0, 0.2), agl=h, on_ground=1)
    return judge.update(prev, s) or ev


@pytest.mark.parametrize("sink, kind", [(0.8, "touchdown"), (1.9, "touchdown"), (2.6, "hard"), (4.5, "crash")])
def test_landing_judged_by_touchdown_sink_rate(sink, kind):
    ev = _approach(LandingJudge(), sink)
    assert ev is not None and ev.kind == kind
    assert ev.sink_ms == pytest.approx(sink)
    assert f"{sink:.1f} m/s" in ev.text


def test_no_landing_without_having_flown():
    """Seed 001's rule: the judge arms only once the aircraft has been more than 9 m up."""
    assert _approach(LandingJudge(), 1.0, start_agl=5.0) is None


def test_a_slow_touch_on_the_ground_before_flying_is_not_reported():
    """The winch start: the glider's tail skid or wingtip rests on the grass (0.3 m/s)."""
    j = LandingJudge(["tail skid", "left wingtip"])
    assert j.update(None, snap(0.0, agl=0.3, on_ground=1, strike_index=0, strike_speed=0.3)) is None
    ev = j.update(None, snap(0.02, agl=0.3, on_ground=1, strike_index=1, strike_speed=1.5))
    assert ev is not None and ev.kind == "strike"


def test_strikes_report_the_part_and_crash_when_fast():
    j = LandingJudge(["right_wingtip", "left_wingtip", "nose"])
    prev = snap(0.0, agl=20.0)
    ev = j.update(prev, snap(0.02, agl=0.5, on_ground=1, strike_index=1, strike_speed=1.2))
    assert ev.kind == "strike" and "left wingtip" in ev.text
    ev = j.update(None, snap(0.04, agl=0.5, on_ground=1, strike_index=2, strike_speed=9.0))
    assert ev.kind == "crash" and "nose" in ev.text and "9.0 m/s" in ev.text
    assert j.update(None, snap(0.06, agl=0.5, on_ground=1, strike_index=2, strike_speed=9.0)) is None


def test_instruments_show_the_message_and_crashes_stay():
    inst = Instruments(S.InstrumentSpec())
    t = 0.0
    for h in (30.0, 20.0, 10.0, 2.0):
        inst.update(snap(t, (0, 0, -h), (25, 0, 1.0), agl=h), t)
        t += 0.02
    inst.update(snap(t, (0, 0, -0.5), (25, 0, 0.0), agl=0.5, on_ground=1), t)
    assert inst.message(t).kind == "touchdown"
    assert inst.message(t + 20.0) is None
    inst.update(snap(t + 0.02, agl=0.5, on_ground=1, strike_index=0, strike_speed=12.0), t + 0.02)
    assert inst.message(t + 100.0).kind == "crash"


def test_sim_rate_meter():
    r = SimRate(1.0)
    out = None
    for k in range(120):            # 2 s of frames, the simulation running at half speed
        out = r.update(k / 60.0 * 0.5, k / 60.0)
    assert out == pytest.approx(0.5)
    for k in range(120, 240):       # paused: simulated time stands still
        out = r.update(119 / 60.0 * 0.5, k / 60.0)
    assert out == pytest.approx(0.0, abs=1e-9)


def test_stall_warning_holds_without_flicker():
    w = StallWarner(64.0, hold_s=0.6)
    assert w.update(snap(0.0, ias=19.0)) == 1
    assert w.update(snap(0.1, ias=30.0)) == 1          # held
    assert w.update(snap(0.7, ias=30.0)) == 0
    assert w.update(snap(0.8, ias=19.0, stalled=2)) == 2


def test_average_climb_over_the_window():
    a = AverageClimb(20.0)
    out = None
    for k in range(2000):
        t = k * 0.02
        out = a.update(snap(t, (0, 0, -(1000.0 + 1.5 * t)), (30.0, 0.0, -1.5)))
    assert out == pytest.approx(1.5, abs=1e-6)


def test_the_snapshot_before_the_first_step_moves_no_needle():
    """The physics thread's first snapshot has no air data yet (a zero accelerometer)."""
    inst = Instruments(S.InstrumentSpec())
    first = snap(0.0, (0, 0, -800), (25.0, 0.0, 0.8), tas=0.0, ias=0.0, nz=0.0)
    inst.update(first, 0.0)
    inst.update(snap(0.02, (0.5, 0, -799.98), (25.0, 0.0, 0.8)), 0.02)
    assert inst.peak.min_g == 1.0 and inst.peak.max_g == 1.0
    assert inst.vario.value == 0.0


def _fly_to_the_ground(sim, seconds=60.0, ctrl=None):
    from flightsim.runtime.handoff import make_snapshot
    inst = Instruments(S.load(sim.compiled), [c["name"] for c in sim.compiled.spec.contacts])
    events = []
    for i in range(int(seconds / 0.02)):
        sim.step(ctrl)
        s = make_snapshot(sim.state, sim.ctrl if ctrl is None else ctrl, sim.diag, sim.model, wall_s=sim.time_s)
        inst.update(s, sim.time_s)
        if inst.event is not None and (not events or events[-1] is not inst.event):
            events.append(inst.event)
        if s.on_ground and s.tas_ms < 1.0:
            break
    return events


def test_a_trimmed_glide_onto_flat_ground_is_a_touchdown_at_the_glide_sink():
    from flightsim.sim import Sim
    sim = Sim("astir")
    sim.spawn_trimmed_glide(90 / 3.6, 20.0)
    sink = float(sim.velocity_ned_ms[2])          # NED: + down
    events = _fly_to_the_ground(sim)
    assert events and events[0].kind == "touchdown"
    assert events[0].sink_ms == pytest.approx(sink, abs=0.15)


def test_diving_into_the_ground_is_a_crash():
    from flightsim.sim import Sim
    sim = Sim("astir")
    sim.spawn_trimmed_glide(160 / 3.6, 25.0)
    c = sim.controls.copy()
    c.pitch = -0.8
    events = _fly_to_the_ground(sim, 20.0, c.array)
    assert any(e.kind == "crash" for e in events)
