"""The binding table: every key resolves, every action is handled, the help lists them all."""
import pyglet
import pytest

from flightsim.input import bindings as B
from flightsim.input.keyboard import KeyboardControls
from flightsim.input.profiles import default_profile


@pytest.fixture(scope="module")
def key():
    pyglet.options["headless"] = True          # as the render tests: no display needed for key codes
    pyglet.options["shadow_window"] = False
    from pyglet.window import key
    return key


def test_every_key_name_is_a_pyglet_key(key):
    for name in B.keyboard_bindings():
        bare = name[6:] if name.startswith("SHIFT+") else name
        assert isinstance(getattr(key, bare, None), int), name


def test_resolve_and_shift_fallback(key):
    km = B.resolve_keys(key)
    assert B.action_for(km, key.F, False) == "flaps_down"
    assert B.action_for(km, key.F, True) == "flaps_up"
    assert B.action_for(km, key.Q, True) == "yaw_left"           # shift does not block a plain binding
    assert B.action_for(km, key.UP, False) == "pitch_down"       # Up = stick forward = nose down
    assert B.action_for(km, key.PAGEUP, False) == "trim_up"
    assert B.action_for(km, key._7, False) is None
    assert B.action_for(km, key.H, False) == "carb_heat"
    assert set(B.actions_of_symbol(km, key.F)) == {"flaps_down", "flaps_up"}


def test_all_actions_bound_and_known():
    bound = set(B.keyboard_bindings().values())
    assert bound <= set(B.ACTIONS)
    assert set(B.FLIGHT_ACTIONS) <= bound, set(B.FLIGHT_ACTIONS) - bound     # flyable without a joystick
    assert set(B.APP_ACTIONS) <= bound, set(B.APP_ACTIONS) - bound
    k = KeyboardControls()
    for a in B.FLIGHT_ACTIONS:
        k.press(a)                       # the keyboard accepts every flight action
    for kind in ("stick", "gamepad", "pedals"):
        p = default_profile(kind, axes_present=("x", "y", "rz", "throttle"))
        assert set(p.buttons.values()) <= set(B.ACTIONS)


def test_help_lists_every_row():
    text = B.help_text(["Stick (stick)"])
    for keys, desc, _ in B.KEYBOARD_ROWS:
        assert keys in text and desc in text
    assert "Stick (stick)" in text
    assert "none (keyboard only)" in B.help_text([])
    md = B.markdown_tables()
    assert md.count("|---|---|") == 5 and "| Space / P | replay: play / pause |" in md and "| G | gear up / down |" in md


def test_docs_show_the_current_tables():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "controls.md").read_text()
    assert B.markdown_tables() in doc          # regenerate the tables there when a binding changes
