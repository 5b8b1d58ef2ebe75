"""Seed 001's keys (Flight Simulator II's steps): a press moves a control a step and it stays."""
import pytest

from flightsim.input import bindings as B
from flightsim.input.fs2 import FS2_ROWS, STICK_STEP, TERMINAL_KEYS, THROTTLE_STEP
from flightsim.input.keyboard import KeyboardControls


def _after(*actions, seconds=1.0):
    k = KeyboardControls()
    for a in actions:
        k.press(a)
    c = k.update(seconds)
    return k, c


def test_the_seeds_keys_are_where_the_seed_puts_them():
    # FLTSIM2D: T / B elevator, the arrows throttle (right: more), Y / N flaps (N: down)
    assert TERMINAL_KEYS["t"] == "elevator_step_down" and TERMINAL_KEYS["b"] == "elevator_step_up"
    assert TERMINAL_KEYS["KEY_RIGHT"] == "throttle_step_up" and TERMINAL_KEYS["KEY_LEFT"] == "throttle_step_down"
    assert TERMINAL_KEYS["n"] == "flaps_down" and TERMINAL_KEYS["y"] == "flaps_up"
    assert set(TERMINAL_KEYS.values()) <= set(B.ACTIONS)


def test_a_step_stays_where_the_stick_springs_back():
    k, c = _after("elevator_step_up", "elevator_step_up", "aileron_step_left")
    assert c.pitch == pytest.approx(2 * STICK_STEP) and c.roll == pytest.approx(-STICK_STEP)
    c = k.update(5.0)                                     # no key: it stays (the standard keys recentre)
    assert c.pitch == pytest.approx(2 * STICK_STEP) and c.roll == pytest.approx(-STICK_STEP)
    k.press("centre_controls")                            # G: ailerons and rudder back, elevator kept
    c = k.update(1.0)
    assert c.roll == 0.0 and c.pitch == pytest.approx(2 * STICK_STEP)
    for _ in range(40):
        k.press("elevator_step_down")
    assert k.update(2.0).pitch == -1.0                    # at the stop
    k.press("pitch_up")                                   # a held key wins while held ...
    assert k.update(2.0).pitch == 1.0
    k.release("pitch_up")                                 # ... then back to the rest position
    assert k.update(2.0).pitch == -1.0
    k.reset(k.inputs)
    assert k.update(2.0).pitch == 0.0


def test_throttle_and_trim_steps_clamp():
    k, c = _after(*["throttle_step_up"] * 3)
    assert c.throttle == pytest.approx(3 * THROTTLE_STEP)
    for _ in range(30):
        k.press("throttle_step_up")
        k.press("trim_step_down")
    c = k.update(0.02)
    assert c.throttle == 1.0 and c.pitch_trim == -1.0
    k.press("throttle_step_down")
    assert k.update(0.02).throttle == pytest.approx(1.0 - THROTTLE_STEP)


def test_the_window_fs2_profile_keeps_the_app_keys_that_do_not_clash():
    fs2 = B.keyboard_bindings("fs2")
    assert fs2["T"] == "elevator_step_down" and fs2["B"] == "elevator_step_up" and fs2["N"] == "flaps_down"
    assert fs2["ESCAPE"] == "menu" and fs2["F1"] == "help" and fs2["P"] == "pause" and fs2["_1"] == "view_cockpit"
    assert "time_faster" not in fs2.values()              # T is the elevator's here
    k = KeyboardControls()
    for _, _, m in FS2_ROWS:                              # every flight key of the layout is flown
        for action in m.values():
            k.press(action)
    assert "the fs2 layout" in B.help_text([], "fs2") and "elevator a step down" in B.help_text([], "fs2")
    with pytest.raises(ValueError, match="keyboard profile"):
        B.rows_for("qwerty")


def test_mixture_and_carburettor_heat_keys():
    """The mixture lever in steps ([ / ] in the text mode and the fs2 window) and held (Y / U in the
    standard window), clamped to full rich .. cut-off; the carburettor heat a toggle (J / H)."""
    assert TERMINAL_KEYS["["] == "mixture_step_lean" and TERMINAL_KEYS["]"] == "mixture_step_rich"
    assert TERMINAL_KEYS["j"] == "carb_heat"
    assert B.keyboard_bindings("standard")["H"] == "carb_heat"
    assert B.keyboard_bindings("fs2")["J"] == "carb_heat"
    k, c = _after("mixture_step_lean", "mixture_step_lean", "carb_heat")
    assert c.mixture_lean == pytest.approx(0.1) and c.carb_heat == 1.0
    k.press("carb_heat")
    for _ in range(5):
        k.press("mixture_step_rich")
    c = k.update(0.02)
    assert c.carb_heat == 0.0 and c.mixture_lean == 0.0
    k.press("mixture_lean")                               # held: full rich to cut-off in 5 s
    assert k.update(2.5).mixture_lean == pytest.approx(0.5)
    assert k.update(5.0).mixture_lean == 1.0
    k.release("mixture_lean")
    k.press("mixture_rich")
    assert k.update(1.0).mixture_lean == pytest.approx(0.8)
