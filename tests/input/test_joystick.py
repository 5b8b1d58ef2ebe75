"""Real pyglet Joystick / Controller objects -> profiles -> the mixer's ControlInputs.

The devices are pyglet.input.base.Device subclasses with real AbsoluteAxis / Button
controls; values are driven through the controls' ``value`` setters, so pyglet's own
on_change -> Joystick / Controller event chain runs exactly as with hardware.
"""
import logging
import sys
import types

import pytest

from flightsim.input.joystick import JoystickManager, PygletBackend
from flightsim.input.keyboard import CENTRE_RATE, KeyboardControls
from flightsim.input.mixer import InputMixer
from flightsim.runtime.handoff import ControlInputs

from .devices import Joystick, MemoryBackend, make_gamepad, make_pedals, make_stick, set_axis


def rig(profile_dir, joysticks=(), controllers=(), has_engine=True, initial=None):
    backend = MemoryBackend(joysticks, controllers)
    m = JoystickManager(backend, profile_dir, has_engine=has_engine)
    mix = InputMixer(KeyboardControls(initial or ControlInputs()), m)
    m.poll()
    return backend, m, mix


def lever(u, deadzone=0.02):
    """A lever's level: the default profile's 2 % deadzone comes off both ends."""
    return min(max((u - deadzone) / (1 - 2 * deadzone), 0.0), 1.0)


def run(mix, seconds, dt=0.02):
    c = mix.last
    for _ in range(round(seconds / dt)):
        c = mix.update(dt)
    return c


# ---------------------------------------------------------------------------- flight stick
def test_stick_axes(profile_dir):
    js, c = make_stick()
    _, m, mix = rig(profile_dir, [js])
    assert [a.kind for a in m.attached.values()] == ["stick"]
    set_axis(c["x"], 0.5)
    set_axis(c["y"], 0.5)
    set_axis(c["rz"], 0.5)
    out = mix.update(0.02)
    assert out.pitch == out.roll == out.yaw == 0.0                 # centred (inside the deadzone)
    set_axis(c["y"], 1.0)                                          # stick fully back (pyglet y = +1: bottom)
    set_axis(c["x"], 0.0)                                          # fully left
    set_axis(c["rz"], 1.0)                                         # twist right
    out = mix.update(0.02)
    assert out.pitch == 1.0 and out.roll == -1.0 and out.yaw == 1.0      # nose up, roll left, nose right
    set_axis(c["y"], 0.0)                                          # pushed forward
    assert mix.update(0.02).pitch == -1.0                          # nose down
    set_axis(c["y"], 0.75)                                         # half back: expo makes it softer than linear
    p = mix.update(0.02).pitch
    assert 0.35 < p < 0.5


def test_stick_lever_is_throttle_or_glider_airbrake(profile_dir):
    for has_engine in (True, False):
        js, c = make_stick()
        _, m, mix = rig(profile_dir, [js], has_engine=has_engine)
        set_axis(c["throttle"], 0.0)                               # lever fully forward
        out = mix.update(0.02)
        assert (out.throttle, out.airbrake) == ((1.0, 0.0) if has_engine else (0.0, 0.0))
        set_axis(c["throttle"], 1.0)                               # fully back
        out = mix.update(0.02)
        assert (out.throttle, out.airbrake) == ((0.0, 0.0) if has_engine else (0.0, 1.0))
        set_axis(c["throttle"], 0.5)
        out = mix.update(0.02)
        assert (out.throttle if has_engine else out.airbrake) == pytest.approx(0.5, abs=0.01)
        set_axis(c["throttle"], 0.2)                               # 80 % forward
        out = mix.update(0.02)
        assert out.throttle == (pytest.approx(lever(0.8), abs=0.005) if has_engine else 0.0)
        assert out.airbrake == (0.0 if has_engine else pytest.approx(lever(0.2), abs=0.005))


def test_lever_and_keys_last_mover_wins(profile_dir):
    js, c = make_stick()
    _, m, mix = rig(profile_dir, [js])
    set_axis(c["throttle"], 0.5)
    assert mix.update(0.02).throttle == pytest.approx(0.5, abs=0.01)
    mix.press("throttle_up")
    out = run(mix, 0.4)
    assert out.throttle == pytest.approx(0.7, abs=0.015)           # the keys move it from the lever's value
    mix.release("throttle_up")
    assert run(mix, 0.5).throttle == pytest.approx(out.throttle)   # an unmoved lever does not snap it back
    set_axis(c["throttle"], 0.9)                                   # the lever moves: it takes over
    assert mix.update(0.02).throttle == pytest.approx(lever(0.1), abs=0.005)


def test_stick_buttons_and_hat(profile_dir):
    js, c = make_stick()
    _, m, mix = rig(profile_dir, [js])
    c["b0"].value = True                                           # trigger: wheel brakes while held
    out = mix.update(0.02)
    assert out.brake_left == out.brake_right == 1.0
    c["b0"].value = False
    out = mix.update(0.02)
    assert out.brake_left == out.brake_right == 0.0
    c["b4"].value = True                                           # gear: one toggle per press
    c["b4"].value = False
    assert mix.update(0.02).gear_up == 1.0
    c["b3"].value = True                                           # flaps down a notch
    assert mix.update(0.02).flap == 0.25
    c["hat_y"].value = -1                                          # hat up (evdev raw -1, pyglet +1)
    out = run(mix, 1.0)
    assert out.pitch_trim == pytest.approx(-0.25, abs=0.01)        # nose-down trim while held
    c["hat_y"].value = 0
    assert run(mix, 1.0).pitch_trim == pytest.approx(out.pitch_trim)
    c["hat_x"].value = 1                                           # hat right: next view, once
    mix.update(0.02)
    c["hat_x"].value = 0
    mix.update(0.02)
    assert mix.take_app_actions() == ["view_next"]


def test_keyboard_and_stick_share_a_held_action(profile_dir):
    js, c = make_stick()
    _, m, mix = rig(profile_dir, [js])
    mix.press("brake", "key32")                                    # Space held ...
    c["b0"].value = True                                           # ... and the trigger
    c["b0"].value = False                                          # trigger let go
    out = mix.update(0.02)
    assert out.brake_left == 1.0                                   # the key still holds the brakes
    mix.release("brake", "key32")
    assert mix.update(0.02).brake_left == 0.0


def test_keyboard_adds_to_a_stick_without_twist(profile_dir):
    js, c = make_stick(twist=False)
    _, m, mix = rig(profile_dir, [js])
    set_axis(c["x"], 0.5)
    set_axis(c["y"], 0.5)
    mix.press("yaw_right")
    out = run(mix, 0.6)
    assert out.yaw == 1.0 and out.roll == 0.0


def test_pedals(profile_dir):
    ped, c = make_pedals()
    js, s = make_stick()
    _, m, mix = rig(profile_dir, [js, ped])
    assert sorted(a.kind for a in m.attached.values()) == ["pedals", "stick"]
    for ctl in ("x", "y", "rz"):
        set_axis(c[ctl], 0.0)
    set_axis(s["x"], 0.5)
    set_axis(s["y"], 0.5)
    set_axis(c["rz"], 0.0)                                         # left pedal
    out = mix.update(0.02)
    assert out.yaw == -1.0 and out.pitch == 0.0 and out.roll == 0.0   # pedal x/y are toe brakes, not the stick
    set_axis(c["x"], 1.0)
    out = mix.update(0.02)
    assert out.brake_left == 1.0 and out.brake_right == 0.0


# ---------------------------------------------------------------------------- gamepad
def test_gamepad(profile_dir):
    gp, c = make_gamepad()
    _, m, mix = rig(profile_dir, controllers=[gp])
    set_axis(c["lefty"], 1.0)                                      # left stick pulled down = back
    set_axis(c["leftx"], 1.0)                                      # and right
    out = mix.update(0.02)
    assert out.pitch == 1.0 and out.roll == 1.0
    set_axis(c["lefty"], 0.0)
    set_axis(c["leftx"], 0.5)
    out = mix.update(0.02)
    assert out.pitch == -1.0 and out.roll == 0.0
    set_axis(c["lefty"], 0.5)
    set_axis(c["rightx"], 0.0)                                     # right stick left: left rudder
    assert mix.update(0.02).yaw == -1.0
    set_axis(c["rightx"], 0.5)
    set_axis(c["lefttrigger"], 1.0)                                # left trigger: left wheel brake only
    out = mix.update(0.02)
    assert out.brake_left == 1.0 and out.brake_right == 0.0
    set_axis(c["lefttrigger"], 0.0)
    set_axis(c["righty"], 0.0)                                     # right stick pushed up: throttle rises
    out = run(mix, 1.0)
    assert out.throttle == pytest.approx(0.5, abs=0.03)
    set_axis(c["righty"], 0.5)                                     # released: it stays
    assert run(mix, 1.0).throttle == pytest.approx(out.throttle)
    c["rightshoulder"].value = True                                # flaps down a notch
    c["rightshoulder"].value = False
    c["y"].value = True                                            # gear
    c["a"].value = True                                            # airbrakes
    out = mix.update(0.02)
    assert (out.flap, out.gear_up, out.airbrake) == (0.25, 1.0, 1.0)
    c["hat_y"].value = 1                                           # d-pad down (raw +1): nose-up trim
    assert run(mix, 1.0).pitch_trim == pytest.approx(0.25, abs=0.01)
    c["hat_y"].value = 0
    c["start"].value = True
    mix.update(0.02)
    assert mix.take_app_actions() == ["pause"]


def test_same_pad_as_controller_and_joystick_is_one_device(profile_dir):
    gp, c = make_gamepad()
    twin, _ = make_gamepad()                                       # pyglet lists a pad in both lists,
    as_joystick = Joystick(twin.device)                            # each over its own Device object
    _, m, mix = rig(profile_dir, [as_joystick], [gp])
    assert [a.kind for a in m.attached.values()] == ["gamepad"]
    set_axis(c["lefty"], 1.0)
    assert mix.update(0.02).pitch == 1.0                           # read once, not twice


# ---------------------------------------------------------------------------- hot-plug
def test_hot_plug_and_disconnect_mid_flight(profile_dir, caplog):
    js, c = make_stick()
    backend, m, mix = rig(profile_dir)
    assert not m.attached
    backend.joystick_list.append(js)                               # plugged in
    with caplog.at_level(logging.INFO, logger="flightsim.input"):
        m.poll()
    assert "stick connected: Logitech Extreme 3D Pro" in caplog.text
    set_axis(c["y"], 0.9)
    set_axis(c["x"], 0.1)
    set_axis(c["rz"], 0.5)
    c["b0"].value = True                                           # braking too
    c["hat_y"].value = -1                                          # and trimming
    before = mix.update(0.02)
    assert before.pitch > 0.6 and before.roll < -0.6 and before.brake_left == 1.0
    js.device.unplug()                                             # pulled out mid-flight
    backend.joystick_list.remove(js)
    m.poll()
    assert not m.attached
    first = mix.update(0.02)                                       # no exception; the keyboard has it
    assert first.pitch == pytest.approx(before.pitch - CENTRE_RATE * 0.02)   # recentring, no jump
    assert first.roll == pytest.approx(before.roll + CENTRE_RATE * 0.02)
    assert first.brake_left == 0.0                                 # the held button is let go
    trim = first.pitch_trim
    out = run(mix, 0.5)
    assert out.pitch == 0.0 and out.roll == 0.0 and out.pitch_trim == trim
    mix.press("pitch_up")                                          # the keys fly it
    assert run(mix, 0.5).pitch == 1.0
    mix.release("pitch_up")
    c["x"].value = 0                                               # a dead device's events go nowhere
    assert run(mix, 0.4).roll == 0.0


def test_closed_by_pyglet_is_dropped_without_a_poll(profile_dir):
    """pyglet's evdev device closes itself on a read error (unplugged): the next frame notices."""
    js, c = make_stick()
    backend, m, mix = rig(profile_dir, [js])
    set_axis(c["x"], 1.0)
    assert mix.update(0.02).roll == 1.0
    js.device.close()
    out = mix.update(0.02)
    assert not m.attached and out.roll == pytest.approx(1.0 - CENTRE_RATE * 0.02)
    m.poll()                                                       # still listed but closed: not reattached twice
    assert len(m.attached) <= 1


def test_replugged_device_is_picked_up_again(profile_dir):
    js, c = make_stick()
    backend, m, mix = rig(profile_dir, [js])
    js.device.unplug()
    backend.joystick_list.clear()
    m.poll()
    assert not m.attached
    js2, c2 = make_stick()
    backend.joystick_list.append(js2)
    m.poll()
    assert len(m.attached) == 1
    set_axis(c2["y"], 1.0)
    assert mix.update(0.02).pitch == 1.0


def test_device_that_cannot_be_opened(profile_dir, caplog):
    js, c = make_stick()

    def refuse(*a, **k):
        raise OSError("permission denied")
    js.device.open = refuse
    with caplog.at_level(logging.WARNING, logger="flightsim.input"):
        backend, m, mix = rig(profile_dir, [js])
        m.poll()
    assert not m.attached
    assert caplog.text.count("cannot open Logitech Extreme 3D Pro") == 1
    assert mix.update(0.02) == ControlInputs()


# ---------------------------------------------------------------------------- no devices at all
def _keyboard_only_lines(caplog):
    return [r for r in caplog.records if r.name == "flightsim.input" and "flying on the keyboard" in r.message]


def test_no_dev_input_means_keyboard_only_one_line(profile_dir, caplog, monkeypatch):
    """pyglet's evdev get_joysticks lists /dev/input: where there is none it raises FileNotFoundError."""
    def no_dev_input(display=None):
        raise FileNotFoundError(2, "No such file or directory", "/dev/input")
    fake = types.ModuleType("pyglet.input")
    fake.get_joysticks = fake.get_controllers = no_dev_input
    monkeypatch.setitem(sys.modules, "pyglet.input", fake)
    m = JoystickManager(PygletBackend(), profile_dir)
    mix = InputMixer(KeyboardControls(), m)
    with caplog.at_level(logging.DEBUG, logger="flightsim.input"):
        for _ in range(5):
            m.poll()
            mix.press("roll_right")
            out = mix.update(0.02)
    lines = _keyboard_only_lines(caplog)
    assert len(lines) == 1 and lines[0].message.startswith("no /dev/input here")
    assert len([r for r in caplog.records if r.name == "flightsim.input"]) == 1
    assert out.roll > 0.0 and not m.attached


def test_no_pyglet_input_means_keyboard_only_one_line(profile_dir, caplog, monkeypatch):
    """Headless Linux: ``import pyglet.input`` itself fails."""
    monkeypatch.setitem(sys.modules, "pyglet.input", None)        # any import of it now raises ImportError
    m = JoystickManager(PygletBackend(), profile_dir)
    with caplog.at_level(logging.DEBUG, logger="flightsim.input"):
        for _ in range(3):
            m.poll()
    lines = _keyboard_only_lines(caplog)
    assert len(lines) == 1 and "joystick support unavailable" in lines[0].message
    assert not m.available and m.read(0.02).momentary == {}


def test_nothing_plugged_in_one_line_until_something_happens(profile_dir, caplog):
    backend = MemoryBackend()
    m = JoystickManager(backend, profile_dir)
    with caplog.at_level(logging.INFO, logger="flightsim.input"):
        for _ in range(4):
            m.poll()
        assert len(_keyboard_only_lines(caplog)) == 1
        js, c = make_stick()
        backend.joystick_list.append(js)
        m.poll()
        js.device.unplug()
        backend.joystick_list.clear()
        for _ in range(4):
            m.poll()
    lines = _keyboard_only_lines(caplog)
    assert len(lines) == 2 and "disconnected" in lines[1].message   # the unplug line says it, once


def test_a_failing_device_read_drops_it(profile_dir, caplog):
    js, c = make_stick()
    backend, m, mix = rig(profile_dir, [js])
    att = next(iter(m.attached.values()))
    set_axis(c["y"], 1.0)
    mix.update(0.02)

    def broken():
        raise RuntimeError("driver hiccup")
    att.axes = broken
    with caplog.at_level(logging.WARNING, logger="flightsim.input"):
        out = mix.update(0.02)
    assert not m.attached and "driver hiccup" in caplog.text
    assert out.pitch == pytest.approx(1.0 - CENTRE_RATE * 0.02)


# ---------------------------------------------------------------------------- calibration
def test_calibration_stores_extents_and_centre(profile_dir):
    js, c = make_stick()
    _, m, mix = rig(profile_dir, [js])
    mix.press("calibrate")
    assert mix.take_app_actions() == ["calibrate"]
    m.toggle_calibration()
    for f in (0.5, 0.1, 0.95, 0.6):                                # a worn stick: 0.1 .. 0.95, rests at 0.6
        set_axis(c["x"], f)
        set_axis(c["y"], 1.0 - f)
        out = mix.update(0.02)
        assert out.roll == 0.0 and out.pitch == 0.0                # nothing flies while calibrating
    saved = m.toggle_calibration()
    assert len(saved) == 1 and saved[0].exists()
    out = mix.update(0.02)
    assert out.roll == 0.0 and out.pitch == 0.0                    # its resting point is the centre now
    set_axis(c["x"], 0.95)
    set_axis(c["y"], 0.05)
    out = mix.update(0.02)
    assert out.roll == 1.0 and out.pitch == -1.0                   # its stops are full deflection
    set_axis(c["x"], 0.1)
    assert mix.update(0.02).roll == -1.0
    js2, c2 = make_stick()                                         # plugged in again later: calibrated
    m2 = JoystickManager(MemoryBackend([js2]), profile_dir)
    m2.poll()
    roll = next(iter(m2.attached.values())).profile.axes["roll"]
    assert roll.min == pytest.approx(-0.8, abs=0.01) and roll.max == pytest.approx(0.9, abs=0.01)
    assert roll.centre == pytest.approx(0.2, abs=0.01)


def test_unnamed_axes_keep_their_os_names(profile_dir):
    """Axes pyglet's Joystick ignores (no name) are still there for a profile: slider, slider_2."""
    from .devices import AbsoluteAxis, Button, MemoryDevice
    ctl = [AbsoluteAxis("x", 0, 255, "ABS_X"), AbsoluteAxis("y", 0, 255, "ABS_Y"),
           AbsoluteAxis(None, 0, 255, "Slider"), AbsoluteAxis(None, 0, 255, "Slider"), Button(None, "B1")]
    js = Joystick(MemoryDevice("Two Slider Stick", ctl, 0x1111, 0x2222))
    _, m, mix = rig(profile_dir, [js])
    att = next(iter(m.attached.values()))
    assert att.profile.axes["lever"].axis == "slider"
    set_axis(ctl[2], 0.0)
    set_axis(ctl[3], 1.0)
    axes = att.axes()
    assert axes["slider"] == -1.0 and axes["slider_2"] == 1.0
    assert mix.update(0.02).throttle == 1.0


def test_a_failed_scan_is_not_an_unplug(profile_dir, caplog):
    js, c = make_stick()
    backend, m, mix = rig(profile_dir, [js])
    set_axis(c["y"], 1.0)
    assert mix.update(0.02).pitch == 1.0

    def hiccup():
        raise OSError("resource temporarily unavailable")
    backend.joysticks = hiccup
    m.poll()
    assert len(m.attached) == 1 and mix.update(0.02).pitch == 1.0     # still flying on the stick
    del backend.joysticks                                             # the next look works again
    m.poll()
    assert len(m.attached) == 1
