"""Real pyglet Joystick / Controller objects over an in-memory Device (no OS device needed).

``import pyglet.input`` runs its package __init__, which on Linux probes the X display
(even in headless mode) and fails without one. The two modules the tests need,
``pyglet.input.base`` (Device, AbsoluteAxis, Button, Joystick, Controller) and
``pyglet.input.controller`` (Relation, create_guid), are pure Python: they are imported
here under a bare package stand-in that is removed again at once, so the classes are the
real ones and nothing touches a display.
"""
from __future__ import annotations

import importlib
import os
import sys
import types


def _pyglet_input_modules():
    if "pyglet.input.base" in sys.modules and "pyglet.input.controller" in sys.modules:
        return sys.modules["pyglet.input.base"], sys.modules["pyglet.input.controller"]
    import pyglet
    real = sys.modules.get("pyglet.input")
    stub = types.ModuleType("pyglet.input")
    stub.__path__ = [os.path.join(os.path.dirname(pyglet.__file__), "input")]
    sys.modules["pyglet.input"] = stub
    try:
        base = importlib.import_module("pyglet.input.base")
        controller = importlib.import_module("pyglet.input.controller")
    finally:
        if real is not None:
            sys.modules["pyglet.input"] = real
        else:
            del sys.modules["pyglet.input"]
    return base, controller


base, controller = _pyglet_input_modules()
AbsoluteAxis, Button, Device = base.AbsoluteAxis, base.Button, base.Device
Joystick, Controller, Relation = base.Joystick, base.Controller, controller.Relation


class MemoryDevice(Device):
    """A pyglet Device whose controls live in memory; ``unplug()`` is what the OS does."""

    def __init__(self, name, controls, vendor=0x046D, product=0xC215):
        super().__init__(None, name)
        self.controls = controls
        self._ids = (vendor, product)
        self._connected = True
        if vendor is not None:
            self.id_vendor, self.id_product = hex(vendor), hex(product)

    @property
    def connected(self):
        return self._connected

    def get_controls(self):
        return self.controls

    def get_guid(self):
        v, p = self._ids
        return controller.create_guid(3, v or 0, p or 0, 0x111, self.name, 0, 0)

    def unplug(self):
        self._connected = False
        self.close()


def make_stick(name="Logitech Extreme 3D Pro", vendor=0x046D, product=0xC215, throttle=True, twist=True):
    """A Linux-style flight stick: 10-bit x/y, 8-bit twist and throttle, hat as hat_x/hat_y, 6 buttons."""
    c = {"x": AbsoluteAxis("x", 0, 1023, "ABS_X"), "y": AbsoluteAxis("y", 0, 1023, "ABS_Y")}
    if twist:
        c["rz"] = AbsoluteAxis("rz", 0, 255, "ABS_RZ")
    if throttle:
        c["throttle"] = AbsoluteAxis(None, 0, 255, "ABS_THROTTLE")     # pyglet has no name for it
    c["hat_x"] = AbsoluteAxis("hat_x", -1, 1, "ABS_HAT0X")
    c["hat_y"] = AbsoluteAxis("hat_y", -1, 1, "ABS_HAT0Y", inverted=True)   # as evdev builds it
    for i in range(6):
        c[f"b{i}"] = Button(None, f"BTN_{i}")
    dev = MemoryDevice(name, list(c.values()), vendor, product)
    return Joystick(dev), c


def make_pedals(name="CH PRO PEDALS USB"):
    c = {"x": AbsoluteAxis("x", 0, 255, "ABS_X"), "y": AbsoluteAxis("y", 0, 255, "ABS_Y"),
         "rz": AbsoluteAxis("rz", 0, 255, "ABS_RZ"), "b0": Button(None, "BTN_TRIGGER")}
    return Joystick(MemoryDevice(name, list(c.values()), 0x068E, 0x00F2)), c


GAMEPAD_BUTTONS = ("a", "b", "x", "y", "leftshoulder", "rightshoulder", "back", "start")


def make_gamepad(name="Microsoft X-Box 360 pad", vendor=0x045E, product=0x028E):
    """An XBox-style pad as pyglet maps it on Linux: 16-bit sticks (y down), 8-bit triggers, hat0 d-pad."""
    c = {"leftx": AbsoluteAxis("x", -32768, 32767, "ABS_X"), "lefty": AbsoluteAxis("y", -32768, 32767, "ABS_Y"),
         "rightx": AbsoluteAxis("rx", -32768, 32767, "ABS_RX"), "righty": AbsoluteAxis("ry", -32768, 32767, "ABS_RY"),
         "lefttrigger": AbsoluteAxis("z", 0, 255, "ABS_Z"), "righttrigger": AbsoluteAxis("rz", 0, 255, "ABS_RZ"),
         "hat_x": AbsoluteAxis("hat_x", -1, 1, "ABS_HAT0X"),
         "hat_y": AbsoluteAxis("hat_y", -1, 1, "ABS_HAT0Y", inverted=True)}
    for b in GAMEPAD_BUTTONS:
        c[b] = Button(None, "BTN_" + b.upper())
    dev = MemoryDevice(name, list(c.values()), vendor, product)
    mapping = {"name": name, "guid": dev.get_guid()}
    for i, a in enumerate(("leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger")):
        mapping[a] = Relation("axis", i)
    for i, b in enumerate(GAMEPAD_BUTTONS):
        mapping[b] = Relation("button", i)
    mapping.update(dpup=Relation("hat0", 1), dpright=Relation("hat0", 2), dpdown=Relation("hat0", 4),
                   dpleft=Relation("hat0", 8))
    return Controller(dev, mapping), c


class MemoryBackend:
    """What pyglet.input returns, under the test's control (lists can change between polls)."""

    def __init__(self, joysticks=(), controllers=()):
        self.joystick_list = list(joysticks)
        self.controller_list = list(controllers)

    def load(self):
        return self

    def joysticks(self):
        return list(self.joystick_list)

    def controllers(self):
        return list(self.controller_list)


def set_axis(control, fraction):
    """Move an axis to a fraction 0..1 of its travel (through the value setter: on_change fires)."""
    control.value = round(control.min + fraction * (control.max - control.min))
