"""Controls and states that refuse bad numbers (issue 31, item 6).

A hostile user's fuzz found: all controls at -1e9 drove a P-51D on its wheels to 1e8 m/s
(the brakes pushed) with a state the guard called finite; infinite controls put the F-15C's
flight-control states at -inf without the flag; NaN controls froze the aircraft with no
error. Now the step clamps every control to its range as it reads it, a NaN control is
refused (the Python face raises naming it; the physics thread keeps the last good value and
counts it), and the step's guard covers every state slot and physical bounds.
"""
import logging
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flightsim.physics.dynamics import CTRL_HIGH, CTRL_LOW, step
from flightsim.physics.named import (
    CONTROLS,
    N_CONTROLS,
    STATE_SIZE,
    AircraftView,
    Controls,
    check_controls,
    control_index,
    control_problem,
)
from flightsim.runtime.handoff import ControlInputs, ControlMailbox
from flightsim.runtime.physics_thread import PhysicsThread
from flightsim.sim import Sim

NAMES = tuple(name for name, *_ in CONTROLS)
STEPS = 25
_starts = {}


def start(kind):
    """A Sim in a known state (built once, its arrays put back for each use)."""
    if kind not in _starts:
        if kind == "p51d_ground":
            sim = Sim("p51d")
            sim.spawn_on_ground(settle_s=1.0)
        elif kind == "f15c_air":
            sim = Sim("f15c")
            sim.spawn_trimmed_level(200.0, 3000.0)
        else:
            sim = Sim("p51d")
            sim.spawn_trimmed_level(120.0, 2000.0)
        sim.step()
        _starts[kind] = (sim, sim.state.copy(), sim.ctrl.copy(), sim.diag.copy(), sim.model.copy())
    sim, state, ctrl, diag, model = _starts[kind]
    # (the model too: the step keeps its mass row as the fuel burns and the stores go)
    sim.state[:], sim.ctrl[:], sim.diag[:], sim.model[:] = state, ctrl, diag, model
    return sim


def speed(sim):
    return float(np.linalg.norm(sim.velocity_body_ms))


def clipped(c):
    return np.minimum(np.maximum(c, CTRL_LOW), CTRL_HIGH)


# ---------------------------------------------------------------------------- clamping
def test_control_ranges_in_the_kernel_are_the_named_ones():
    from flightsim.physics.named import CONTROL_HIGH, CONTROL_LOW, CONTROL_NAMES
    for name, i, lo, hi, _ in CONTROLS:
        assert (CTRL_LOW[i], CTRL_HIGH[i]) == (lo, hi), name
        assert (CONTROL_NAMES[i], CONTROL_LOW[i], CONTROL_HIGH[i]) == (name, lo, hi)


def test_huge_controls_on_the_wheels_are_clamped_not_a_rocket():
    """The fuzz's P-51D: every control at -1e9 on the ground (negative brakes pushed it to
    1e8 m/s in one step). Now exactly the flight of the clamped controls."""
    sim = start("p51d_ground")
    wild = np.full(N_CONTROLS, -1e9)
    for _ in range(100):
        assert sim.step(wild) == 0
    assert np.all(wild == -1e9)                      # the caller's array is left as it was
    flown = sim.state.copy()
    ref = start("p51d_ground")
    for _ in range(100):
        ref.step(Controls(wild.copy()).clipped().array)
    assert np.array_equal(flown, ref.state)
    assert speed(ref) < 5.0 and np.all(np.isfinite(ref.state))


def test_infinite_controls_leave_the_flight_control_law_finite():
    """The fuzz's F-15C: infinite controls put the law's integrators at -inf unflagged."""
    for sign in (1.0, -1.0):
        sim = start("f15c_air")
        c = np.full(N_CONTROLS, sign * np.inf)
        for _ in range(50):
            assert sim.step(c) == 0 and not sim.nonfinite
        assert np.all(np.isfinite(sim.state))
        flown = sim.state.copy()
        ref = start("f15c_air")
        for _ in range(50):
            ref.step(clipped(c))
        assert np.array_equal(flown, ref.state)


# ---------------------------------------------------------------------------- NaN: the Python face
def test_nan_control_raises_naming_it_and_nothing_moves():
    sim = start("p51d_air")
    good = sim.state.copy()
    c = sim.ctrl.copy()
    c[control_index("throttle")] = np.nan
    with pytest.raises(ValueError, match=r"^control throttle: must be a number \(0\.\.1, clamped beyond\), got nan$"):
        sim.step(c)
    assert np.array_equal(sim.state, good) and sim.refusal == "control not a number"
    sim.ctrl[control_index("yaw")] = np.nan          # the Sim's own array, written behind its back
    with pytest.raises(ValueError, match="control yaw"):
        sim.fly(0.1)
    assert np.array_equal(sim.state, good)


def test_nan_is_refused_by_every_named_setter():
    sim = start("p51d_air")
    before = sim.ctrl.copy()
    with pytest.raises(ValueError, match="^control roll: "):
        sim.controls.roll = float("nan")
    with pytest.raises(ValueError, match="^control wep: "):
        sim.controls.set(wep=np.float64("nan"))
    with pytest.raises(ValueError, match="^control flap: "):
        Controls(flap=np.nan)
    bad = before.copy()
    bad[control_index("fire")] = np.nan
    with pytest.raises(ValueError, match="^control fire: "):
        sim.controls = bad
    with pytest.raises(ValueError, match="^control fire: "):
        Controls(bad).clipped()
    fleet = np.tile(before, (3, 1))
    with pytest.raises(ValueError, match="^control pitch: "):
        Controls(fleet).pitch = [0.0, np.nan, 0.0]
    assert np.array_equal(sim.ctrl, before)          # nothing was written
    sim.controls.roll = np.inf                       # an infinite push: written, clamped by the step
    assert sim.step() == 0 and sim.surface("roll") <= 1.0


def test_run_refuses_a_nan_before_flying_and_checks_the_shape():
    sim = start("p51d_air")
    good = sim.state.copy()
    ctrls = np.tile(sim.ctrl, (20, 1))
    ctrls[7, control_index("prop_rpm")] = np.nan
    with pytest.raises(ValueError, match=r"^control prop_rpm \(step 7\): "):
        sim.run(ctrls)
    assert np.array_equal(sim.state, good)
    with pytest.raises(ValueError, match=r"shape \(steps, 29\), got \(20, 28\)"):
        sim.run(ctrls[:, :-1])
    with pytest.raises(ValueError, match=r"shape \(29,\), not \(28,\)"):
        sim.step(sim.ctrl[:-1])


def test_step_takes_a_list_ints_or_a_strided_view_as_the_array_and_refuses_text():
    """Sim.step with the controls as a list, whole numbers or a column of a bigger array flies as
    with the float array (no new kernel compiled for their types); text is refused in one line."""
    sim = start("p51d_air")
    good, c = sim.state.copy(), sim.ctrl.copy()
    sim.step(c)
    want = sim.state.copy()
    block = np.zeros((N_CONTROLS, 2))
    block[:, 0] = c
    for other in (list(c), block[:, 0]):
        sim.state[:] = good
        sim.step(other)
        assert np.array_equal(sim.state, want)
    whole = np.rint(c)
    sim.state[:] = good
    sim.step(whole)
    want = sim.state.copy()
    sim.state[:] = good
    sim.step(whole.astype(np.int64))
    assert np.array_equal(sim.state, want)
    sim.state[:] = good
    with pytest.raises(ValueError, match="could not convert"):
        sim.step(["full"] * N_CONTROLS)
    assert np.array_equal(sim.state, good)


def test_step_checks_again_an_array_it_has_seen_once_its_dtype_is_changed_in_place():
    """Sim.step looks only at the dtype of the control array it checked at the last call; an
    array reinterpreted in place (numpy allows ``a.dtype = ...``) is taken as any other array:
    as whole numbers when it is int64, refused in one line when its length no longer fits."""
    sim = start("p51d_air")
    good, c = sim.state.copy(), sim.ctrl.copy()
    whole = np.rint(c)
    sim.step(whole)
    want = sim.state.copy()
    mine = whole.astype(np.int64).astype(np.float64)
    sim.state[:] = good
    sim.step(mine)                      # seen: contiguous float64
    mine.dtype = np.int64               # the same memory read as 64-bit integers
    mine[:] = whole.astype(np.int64)
    sim.state[:] = good
    sim.step(mine)
    assert np.array_equal(sim.state, want)
    mine.dtype = np.int32               # twice as many numbers
    sim.state[:] = good
    with pytest.raises(ValueError, match=r"shape \(29,\), not \(58,\)"):
        sim.step(mine)
    assert np.array_equal(sim.state, good)


def test_control_problem_names_the_first_nan():
    a = Controls().array
    assert control_problem(a) is None
    check_controls(a)
    a[control_index("drop_bombs")] = np.nan
    a[control_index("fcs_direct")] = np.nan
    assert control_problem(a).startswith("control drop_bombs: ")


# ---------------------------------------------------------------------------- the state guard
@pytest.mark.parametrize("kind", ["p51d_air", "f15c_air"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_guard_covers_every_state_slot(kind, bad):
    """A bad number in any slot of the state (engines, guns, damage, the flight-control law,
    the spare ones) is either overwritten by the step or the step is refused and the state
    kept: no step reports success with a non-finite state."""
    refused = 0
    for k in range(STATE_SIZE):
        sim = start(kind)
        sim.state[k] = bad
        before = sim.state.copy()
        r = sim.step()
        if r:
            refused += 1
            assert sim.refusal == "non-finite state"
            assert np.array_equal(sim.state, before, equal_nan=True)
        else:
            assert np.all(np.isfinite(sim.state)), f"slot {k}: stepped on with {sim.state[k]}"
    assert refused > STATE_SIZE // 2


@pytest.mark.parametrize("what", ["speed", "rate"])
def test_a_physically_absurd_state_is_refused(what):
    sim = start("p51d_air")
    if what == "speed":
        sim.set_velocity_body(6000.0, 0.0, 0.0)     # past 5 km/s: numbers that ran away
    else:
        sim.set_body_rates(0.0, 0.0, 300.0)          # 300 rad/s: 48 turns a second
    before = sim.state.copy()
    assert sim.step() == 1
    assert sim.nonfinite and sim.refusal == "state past physical bounds"
    assert np.array_equal(sim.state, before)


# ---------------------------------------------------------------------------- the physics thread
def _thread():
    sim = start("p51d_air")
    th = PhysicsThread(sim.state, sim.env, sim.terrain, sim.model, sim.tables,
                       ControlMailbox(ControlInputs.from_array(sim.ctrl)))
    return th


def test_thread_keeps_the_last_good_control_counts_and_logs_once(caplog):
    th = _thread()
    good = th.ctrl.copy()
    with caplog.at_level(logging.WARNING, logger="flightsim.physics"):
        th.mailbox.post(th.mailbox.read().replace(throttle=float("nan"), roll=None, pitch=0.3))
        for k in range(5):
            th.tick(k * 0.02)
    assert th.ctrl[control_index("throttle")] == good[control_index("throttle")]
    assert th.ctrl[control_index("roll")] == good[control_index("roll")]
    assert th.ctrl[control_index("pitch")] == 0.3
    assert th.refused_controls == 10 and th.stats()["refused_controls"] == 10
    assert th.refused_steps == 0 and np.all(np.isfinite(th.state))
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 2 and "control throttle is not a number" in " ".join(logged)


def test_thread_pilot_controls_with_nan_keep_last_good():
    th = _thread()
    good = th.ctrl.copy()
    th.pilot = lambda view: Controls(np.full(N_CONTROLS, np.nan))   # a script's broken pilot
    th.tick(0.0)
    assert np.array_equal(th.ctrl, good) and th.refused_controls == N_CONTROLS
    th.pilot = lambda view: Controls(np.full(N_CONTROLS, 1e300))
    th.tick(0.02)
    assert np.array_equal(th.ctrl, CTRL_HIGH)


def test_fresh_control_array_from_nan_inputs_has_the_defaults():
    refused = []
    a = ControlInputs(prop_rpm=float("nan"), pitch=float("-inf")).to_array(refused=refused)
    assert refused == ["prop_rpm"]
    assert a[control_index("prop_rpm")] == 1.0 and a[control_index("pitch")] == -1.0


# ---------------------------------------------------------------------------- properties
EXTREMES = [0.0, -0.0, 1.0, -1.0, 0.5, math.inf, -math.inf, 1e300, -1e300, 1e9, -1e9, 5e-324]
VALUE = st.one_of(st.floats(-1.5, 1.5), st.sampled_from(EXTREMES), st.floats(allow_nan=False))


@st.composite
def wild_controls(draw):
    """22 arbitrary floats, NaN in up to three places (none in about half the examples)."""
    c = np.array(draw(st.lists(VALUE, min_size=N_CONTROLS, max_size=N_CONTROLS)))
    for i in draw(st.one_of(st.just(set()), st.sets(st.integers(0, N_CONTROLS - 1), max_size=3))):
        c[i] = np.nan
    return c


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["p51d_air", "p51d_ground", "f15c_air"]), c=wild_controls())
def test_any_floats_through_the_python_face(kind, c):
    """Either a ValueError naming the first NaN control (nothing flown), or a finite,
    physically bounded state after the steps: exactly the flight of the clamped controls."""
    sim = start(kind)
    before = sim.state.copy()
    nan = np.flatnonzero(np.isnan(c))
    if len(nan):
        first = next(name for name, i, *_ in CONTROLS if i == nan[0])
        with pytest.raises(ValueError, match=f"^control {first}: "):
            sim.step(c)
        assert np.array_equal(sim.state, before)
        with pytest.raises(ValueError, match=f"^control {first} \\(step 0\\): "):
            sim.run(np.tile(c, (STEPS, 1)))
        assert np.array_equal(sim.state, before)
        return
    states = sim.run(np.tile(c, (STEPS, 1)))
    assert len(states) == STEPS and np.all(np.isfinite(states))
    assert speed(sim) < 400.0 and np.abs(sim.body_rates_rads).max() < 20.0
    flown = sim.state.copy()
    ref = start(kind)                                # (the same Sim, its start put back)
    ref.run(np.tile(clipped(c), (STEPS, 1)))
    assert np.array_equal(flown, ref.state)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(c=wild_controls())
def test_any_floats_through_the_mailbox(c):
    """The game's path (devices, AI, autopilot -> mailbox -> physics thread): a NaN never
    reaches the state; it keeps the last good value and is counted; the loop never fails."""
    th = _thread()
    good = th.ctrl.copy()
    th.mailbox.post(ControlInputs(**{name: float(c[i]) for name, i, *_ in CONTROLS}))
    for k in range(STEPS):
        th.tick(k * 0.02)
    nan = np.isnan(c)
    assert th.refused_controls == STEPS * int(nan.sum())
    assert np.array_equal(th.ctrl[nan], good[nan])
    assert np.array_equal(th.ctrl[~nan], clipped(c)[~nan])
    assert th.refused_steps == 0 and np.all(np.isfinite(th.state))
    assert np.linalg.norm(AircraftView(th.state).velocity_body_ms) < 400.0


def test_step_in_diag_flies_as_step_and_the_sim_refuses_arrays_it_cannot_step():
    """Sim.step calls step_in_diag's compiled entry point (no reference counting, no dispatch on
    types): it flies bit for bit as dynamics.step does; controls of the wrong length raise in one
    line with nothing moved; a diag too short for the scratch memory falls back to step; and an
    array the kernel could not take (float32, read-only, a strided view, the wrong dimensions) is
    refused as it is set on the Sim, naming it."""
    sim = start("p51d_air")
    good, c, diag0 = sim.state.copy(), sim.ctrl.copy(), sim.diag.copy()
    for _ in range(50):
        assert step(sim.state, c, sim.env, sim.terrain, sim.model, sim.tables, sim.diag) == 0
    want = sim.state.copy()
    sim.state[:], sim.diag[:] = good, diag0
    for _ in range(50):
        assert sim.step(c) == 0
    assert np.array_equal(sim.state, want)
    sim.state[:] = good
    with pytest.raises(ValueError, match="shape"):
        sim.step(c[:-1].copy())
    assert np.array_equal(sim.state, good)
    sim.diag = np.zeros(len(sim.diag) - 10)          # too short for the scratch: step's own
    assert sim.step(c) == 0 and np.isfinite(sim.state).all()
    readonly = sim.state.copy()
    readonly.flags.writeable = False
    for name, bad in (("state", sim.state.astype(np.float32)), ("state", readonly),
                      ("ctrl", np.zeros((N_CONTROLS, 2))[:, 0]), ("model", sim.model.ravel()),
                      ("ctrl", np.zeros(N_CONTROLS - 1)), ("env", list(sim.env))):
        with pytest.raises(TypeError, match=f"Sim.{name} must be"):
            setattr(sim, name, bad)
