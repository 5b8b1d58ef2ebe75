"""Keyboard flying: ramped, self-centring stick; held levels; step requests."""
import pytest

from flightsim.input import keyboard as K
from flightsim.input.keyboard import KeyboardControls
from flightsim.runtime.handoff import ControlInputs


def run(k, seconds, dt=0.02):
    c = k.inputs
    for _ in range(round(seconds / dt)):
        c = k.update(dt)
    return c


def test_ramp_and_recentre():
    k = KeyboardControls(ControlInputs(pitch_trim=0.2))
    k.press("pitch_up")
    c = k.update(0.1)
    assert 0.0 < c.pitch < 0.5          # ramps, does not jump
    c = run(k, 1.0)
    assert c.pitch == 1.0
    k.release("pitch_up")
    c = k.update(0.1)
    assert 0.0 < c.pitch < 1.0          # comes back smoothly ...
    c = run(k, 0.3)
    assert c.pitch == 0.0 and c.pitch_trim == 0.2     # ... to the centre; trim untouched


@pytest.mark.parametrize("neg,pos,field", [("pitch_down", "pitch_up", "pitch"), ("roll_left", "roll_right", "roll"),
                                           ("yaw_left", "yaw_right", "yaw")])
def test_each_axis_both_ways(neg, pos, field):
    k = KeyboardControls()
    k.press(neg)
    assert getattr(run(k, 0.6), field) == -1.0
    k.release(neg)
    k.press(pos)
    c = k.update(0.1)
    assert -1.0 < getattr(c, field) < 0.0             # reversing passes through, no jump
    assert getattr(run(k, 1.0), field) == 1.0
    k.release(pos)
    assert getattr(run(k, 0.4), field) == 0.0


def test_throttle_held_ramps_and_stays():
    k = KeyboardControls()
    k.press("throttle_up")
    c = run(k, 1.0)
    assert c.throttle == pytest.approx(K.THROTTLE_RATE * 1.0)
    c = run(k, 5.0)
    assert c.throttle == 1.0
    k.release("throttle_up")
    assert run(k, 1.0).throttle == 1.0                # a level: no recentring
    k.press("throttle_down")
    c = run(k, 0.5)
    assert c.throttle == pytest.approx(1.0 - 0.5 * K.THROTTLE_RATE)
    assert run(k, 5.0).throttle == 0.0


def test_flaps_step_and_clamp():
    k = KeyboardControls()
    for want in (0.25, 0.5, 0.75, 1.0, 1.0):
        k.press("flaps_down")
        assert k.update(0.02).flap == want
    k.press("flaps_up")
    assert k.update(0.02).flap == 0.75
    k2 = KeyboardControls(flap_range=(-1.0, 1.0))
    k2.press("flaps_up")
    assert k2.update(0.02).flap == -0.25             # reflex where the aircraft has it
    k3 = KeyboardControls()
    k3.set_level("flap", 0.4)                         # a lever left it between notches
    k3.press("flaps_down")
    assert k3.update(0.02).flap == 0.75


def test_airbrake_gear_are_requests():
    k = KeyboardControls()
    k.press("airbrake")
    assert k.update(0.02).airbrake == 1.0            # the request; the actuator travel is physics
    k.press("airbrake")
    assert k.update(0.02).airbrake == 0.0
    k.press("airbrake_extend")
    c = run(k, 1.0)
    assert c.airbrake == pytest.approx(K.AIRBRAKE_RATE)
    k.release("airbrake_extend")
    assert run(k, 1.0).airbrake == pytest.approx(K.AIRBRAKE_RATE)
    k.press("gear")
    assert k.update(0.02).gear_up == 1.0
    k.press("gear")
    assert k.update(0.02).gear_up == 0.0


def test_wheel_brakes_both_and_each():
    k = KeyboardControls()
    k.press("brake")
    c = k.update(0.02)
    assert (c.brake_left, c.brake_right) == (1.0, 1.0)
    k.release("brake")
    k.press("brake_left")
    c = k.update(0.02)
    assert (c.brake_left, c.brake_right) == (1.0, 0.0)
    k.release("brake_left")
    k.press("brake_right")
    c = k.update(0.02)
    assert (c.brake_left, c.brake_right) == (0.0, 1.0)
    k.release("brake_right")
    c = k.update(0.02)
    assert (c.brake_left, c.brake_right) == (0.0, 0.0)


def test_trim_held_and_clamped():
    k = KeyboardControls()
    k.press("trim_up")
    assert run(k, 1.0).pitch_trim == pytest.approx(K.TRIM_RATE)
    assert run(k, 10.0).pitch_trim == 1.0
    k.release("trim_up")
    k.press("trim_down")
    assert run(k, 20.0).pitch_trim == -1.0


@pytest.mark.parametrize("field, neg, pos", [("roll_trim", "roll_trim_left", "roll_trim_right"),
                                              ("yaw_trim", "yaw_trim_left", "yaw_trim_right")])
def test_aileron_and_rudder_trim_held_and_clamped(field, neg, pos):
    k = KeyboardControls()
    k.press(pos)
    assert getattr(run(k, 1.0), field) == pytest.approx(K.TRIM_RATE)
    k.release(pos)
    k.press(neg)
    assert getattr(run(k, 20.0), field) == -1.0
    assert run(k, 0.1).pitch_trim == 0.0


def test_unknown_action_and_levels_refused():
    k = KeyboardControls()
    with pytest.raises(ValueError):
        k.press("view_next")              # an app action: the window handles it
    with pytest.raises(ValueError):
        k.set_level("pitch", 0.5)         # the stick is not a level


def test_reset_and_hand_over():
    k = KeyboardControls()
    k.press("roll_left")
    run(k, 1.0)
    k.reset(ControlInputs(throttle=0.3))
    c = k.update(0.02)
    assert c.roll == 0.0 and c.throttle == 0.3 and not k.held
    k.hand_over(pitch=0.8, yaw=-0.5)
    c = k.update(0.02)
    assert 0.0 < c.pitch < 0.8 and -0.5 < c.yaw < 0.0
    c = run(k, 0.3)
    assert c.pitch == 0.0 and c.yaw == 0.0


def test_l_switches_the_flight_control_law_off_and_on():
    """L (issue 19): a fly-by-wire jet's law off (the stick moves the surfaces directly) and on again."""
    from flightsim.input.bindings import keyboard_bindings
    assert keyboard_bindings()["L"] == "fcs_mode"
    k = KeyboardControls()
    assert k.inputs.fcs_direct == 0.0
    k.press("fcs_mode")
    assert k.update(0.02).fcs_direct == 1.0
    k.press("fcs_mode")
    assert k.update(0.02).fcs_direct == 0.0
