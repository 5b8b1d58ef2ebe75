"""Equations of motion, the trapezoid-rule step, determinism and the non-finite guard."""
import math

import numpy as np
import pytest

from flightsim.physics.dynamics import step, step_n
from flightsim.physics.named import N_CONTROLS, STATE_SIZE, AircraftView, Controls, FleetReadouts, control_index
from flightsim.physics.named_model import AircraftData
from flightsim.physics.state import make_env, make_state
from flightsim.sim import Sim


def no_aero(sim: Sim, gravity=9.80665):
    """The same rigid body with every section, gear leg and contact taken away."""
    sim.model = sim.model.copy()
    AircraftData(sim.model).strip_to_rigid_body()
    sim.env = make_env(gravity=gravity)
    return sim


def random_controls(n, seed, pitch_trim=0.55):
    rng = np.random.default_rng(seed)
    c = np.zeros((n, N_CONTROLS))
    named = Controls(c)                     # names read and write the columns
    named.pitch = pitch_trim + rng.uniform(-0.5, 0.5, n)
    named.roll = rng.uniform(-1, 1, n)
    named.yaw = rng.uniform(-1, 1, n)
    named.airbrake = rng.uniform(0, 1, n)
    return c


def test_same_inputs_give_bit_identical_states(trainer_path):
    ctrls = random_controls(1500, 7)
    runs = []
    for batched in (False, True, False):
        sim = Sim(trainer_path)
        sim.spawn_trimmed_glide(25.0, 1500.0)
        if batched:
            states = sim.run(ctrls)
        else:
            states = np.empty((len(ctrls), STATE_SIZE))
            for i, c in enumerate(ctrls):
                assert sim.step(c) == 0
                states[i] = sim.state
        runs.append(states)
    assert np.array_equal(runs[0], runs[1])   # batched == one step per call, to the bit
    assert np.array_equal(runs[0], runs[2])   # and again
    assert AircraftView(runs[0][-1]).tick == 1500


def test_quaternion_stays_normalised(trainer_path):
    sim = Sim(trainer_path)
    sim.spawn_trimmed_glide(25.0, 1500.0)
    states = sim.run(random_controls(3000, 3))
    norms = np.linalg.norm(FleetReadouts(states).quat_wxyz, axis=1)
    assert np.max(np.abs(norms - 1.0)) < 1e-12


def test_free_fall_is_exact_for_constant_acceleration(trainer_path):
    sim = no_aero(Sim(trainer_path))
    sim.state = make_state((0, 0, -1000.0))
    sim.fly(2.0)
    v = sim.velocity_ned_ms
    assert v[2] == pytest.approx(9.80665 * 2.0, rel=1e-12)
    # the first step has no history (Euler), after that the two-step rule is exact here
    assert sim.altitude_m == pytest.approx(1000.0 - 0.5 * 9.80665 * 4.0, abs=0.01)


def test_torque_free_tumbling_conserves_momentum_and_energy(trainer_path):
    """Euler's equations with the full inertia tensor (the trainer has a product I_xz)."""
    sim = no_aero(Sim(trainer_path), gravity=0.0)
    I = sim.compiled.inertia
    assert abs(I[0, 2]) > 10.0
    sim.state = make_state((0, 0, -1000.0), omega_body_rads=(0.4, 1.5, 0.2))

    def invariants():
        R = sim.body_to_ned()
        w = sim.body_rates_rads
        return R @ (I @ w), 0.5 * w @ I @ w

    h0, e0 = invariants()
    sim.fly(20.0)
    h1, e1 = invariants()
    assert np.linalg.norm(h1 - h0) / np.linalg.norm(h0) < 2e-3
    assert abs(e1 - e0) / e0 < 2e-3


def test_second_order_convergence(trainer_path):
    """Halving dt cuts the error about four times (a second-order integrator)."""
    def final(dt):
        sim = no_aero(Sim(trainer_path), gravity=0.0)
        sim.env = make_env(gravity=0.0, dt=dt)
        sim.state = make_state((0, 0, -1000.0), omega_body_rads=(0.4, 1.5, 0.2))
        for _ in range(int(round(2.0 / dt))):
            sim.step()
        return sim.body_rates_rads

    ref = final(0.00125)
    e1 = np.linalg.norm(final(0.02) - ref)
    e2 = np.linalg.norm(final(0.01) - ref)
    assert 3.0 < e1 / e2 < 5.0


def test_non_finite_step_keeps_last_good_state(trainer_path):
    sim = Sim(trainer_path)
    sim.spawn_trimmed_glide(25.0, 1500.0)
    good = sim.state.copy()
    bad_ctrl = sim.ctrl.copy()
    bad_ctrl[control_index("pitch")] = np.nan      # (Controls refuses to write a NaN)
    # the kernel refuses the step before anything moves; the Sim names the control
    assert step(sim.state, bad_ctrl, sim.env, sim.terrain, sim.model, sim.tables, sim.diag) == 1
    assert sim.nonfinite and sim.refusal == "control not a number"
    assert np.array_equal(sim.state, good)
    with pytest.raises(ValueError, match="control pitch: must be a number"):
        sim.step(bad_ctrl)
    ctrls = np.tile(sim.ctrl, (10, 1))
    ctrls[4, control_index("roll")] = np.nan
    out = np.empty((10, STATE_SIZE))
    assert step_n(sim.state, ctrls, sim.env, sim.terrain, sim.model, sim.tables, sim.diag, out) == 4
    assert np.all(np.isfinite(sim.state))
    with pytest.raises(ValueError, match=r"control roll \(step 4\)"):
        sim.run(ctrls)
    assert sim.step() == 0
    # an infinite force request is only a very hard push: the surface stops at its travel
    inf_ctrl = sim.ctrl.copy()
    Controls(inf_ctrl).roll = np.inf
    assert sim.step(inf_ctrl) == 0
    assert sim.surface("roll") <= 1.0


def test_a_fleet_of_fuelled_aircraft_flies_as_each_would_alone_on_any_number_of_threads():
    """step_many over P-51Ds at different throttles (each burning its own fuel, so each its own
    mass, CG and inertia) gives each exactly the flight the single-aircraft kernel gives it,
    on one thread and on all: no aircraft reads another's mass through the shared model."""
    import numba

    from flightsim.fleet import Fleet
    from flightsim.physics.batch import step_many
    from flightsim.physics.dynamics import step as one_step

    n = 5
    fleet = Fleet("p51d", n)
    sim = Sim(fleet.compiled)
    sim.spawn_trimmed_level(110.0, 2000.0)
    for i in range(n):
        fleet.place(i, sim)
    Controls(fleet.ctrls).throttle = np.linspace(0.3, 1.0, n)
    Controls(fleet.ctrls).roll = np.linspace(-0.3, 0.3, n)
    start = (fleet.states.copy(), fleet.ctrls.copy(), fleet.diags.copy())
    t = fleet.template
    alone = start[0].copy()
    for i in range(n):
        d = start[2][i].copy()
        for _ in range(100):
            assert one_step(alone[i], start[1][i], fleet.envs[i], t.terrain, t.model, t.tables, d) == 0
    assert np.ptp(alone[:, 0]) > 0.0                     # they flew apart
    most = numba.get_num_threads()
    for threads in sorted({1, most}):
        states, diags = start[0].copy(), start[2].copy()
        numba.set_num_threads(threads)
        try:
            step_many(states, start[1], fleet.envs, t.terrain, t.model, t.tables, diags, 100, np.zeros(n, np.int64),
                      numba.get_num_threads())
        finally:
            numba.set_num_threads(most)
        assert np.array_equal(states, alone), f"{threads} thread(s)"
