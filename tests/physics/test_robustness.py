"""Random full-deflection control sequences from extreme states never produce a non-finite state.

Hypothesis draws the start (tail-slide at zero airspeed, inverted, vertical dive past
Vne, fully developed rotation, ground contact at speed) and a bang-bang sequence of
full control deflections; every example flies 1,000 steps in one batched kernel call.
120 examples: at least 120,000 steps a run.
"""
import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flightsim.physics.named import N_CONTROLS, Controls, FleetReadouts
from flightsim.physics.state import make_state
from flightsim.sim import Sim

AIRCRAFT = "astir"
STEPS = 1000
_sims = {}


def sim_for(name):
    if name not in _sims:
        _sims[name] = Sim(name)
    return _sims[name]


@st.composite
def start_states(draw):
    vne = sim_for(AIRCRAFT).compiled.spec.aircraft["vne_kmh"] / 3.6
    kind = draw(st.sampled_from(["tailslide", "inverted", "dive", "spin", "random", "ground"]))
    angle = st.floats(-math.pi, math.pi)
    if kind == "tailslide":       # nose up, sliding backwards at nearly zero airspeed
        return make_state((0, 0, -1500.0), (draw(st.floats(-8, 0.5)), 0, 0), 0.0,
                          math.radians(draw(st.floats(75, 90))), 0.0)
    if kind == "inverted":
        return make_state((0, 0, -1500.0), (draw(st.floats(15, vne)), 0, draw(st.floats(-5, 5))),
                          math.pi, draw(st.floats(-0.5, 0.5)), draw(angle))
    if kind == "dive":            # vertical dive past Vne
        return make_state((0, 0, -3000.0), (draw(st.floats(vne, 1.6 * vne)), 0, 0), 0.0,
                          -math.pi / 2 + 0.01, draw(angle))
    if kind == "spin":
        return make_state((0, 0, -2000.0), (draw(st.floats(5, 30)), draw(st.floats(-10, 10)), draw(st.floats(-10, 20))),
                          draw(angle), draw(st.floats(-1.4, 1.4)), 0.0,
                          (draw(st.floats(-3, 3)), draw(st.floats(-2, 2)), draw(st.floats(-3, 3))))
    if kind == "ground":          # touching the ground, fast and crooked
        return make_state((0, 0, -draw(st.floats(0.3, 3.0))),
                          (draw(st.floats(0, 60)), draw(st.floats(-10, 10)), draw(st.floats(-5, 8))),
                          draw(st.floats(-0.8, 0.8)), draw(st.floats(-0.5, 0.5)), draw(angle))
    return make_state((0, 0, -2000.0), tuple(draw(st.floats(-1.5 * vne, 1.5 * vne)) for _ in range(3)),
                      draw(angle), draw(st.floats(-1.5, 1.5)), draw(angle),
                      tuple(draw(st.floats(-4, 4)) for _ in range(3)))


@st.composite
def bang_bang(draw):
    """Full deflections held for random stretches (10..300 steps)."""
    ctrls = np.zeros((STEPS, N_CONTROLS))
    i = 0
    while i < STEPS:
        n = draw(st.integers(10, 300))
        stretch = Controls(ctrls[i:i + n])          # names write the columns of these rows
        stretch.pitch = draw(st.sampled_from([-1.0, 0.0, 1.0]))
        stretch.roll = draw(st.sampled_from([-1.0, 0.0, 1.0]))
        stretch.yaw = draw(st.sampled_from([-1.0, 0.0, 1.0]))
        stretch.airbrake = draw(st.sampled_from([0.0, 1.0]))
        stretch.brake_left = stretch.brake_right = draw(st.sampled_from([0.0, 1.0]))
        i += n
    return ctrls


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(start=start_states(), ctrls=bang_bang())
def test_state_stays_finite(start, ctrls):
    sim = sim_for(AIRCRAFT)
    sim.state = start.copy()
    states = sim.run(ctrls)
    assert len(states) == STEPS, f"step {len(states)} went non-finite (refused, last good state kept)"
    assert np.all(np.isfinite(states))
    run = FleetReadouts(states)
    speed = np.linalg.norm(run.velocity_body_ms, axis=1)
    assert speed.max() < 400.0          # no numerical blow-up hiding behind finite numbers
    rates = np.abs(run.body_rates_rads).max()
    assert rates < 20.0
