"""Joysticks, gamepads and pedals through pyglet.input: discovery, hot-plug, profiles.

``JoystickManager.poll()`` (the window calls it once a second) asks pyglet for every
``get_controllers()`` and ``get_joysticks()`` device, opens the new ones with their
profile (``flightsim.input.profiles``: found again by USB id and normalised name, else
the default for the kind of device, which is then saved for editing) and drops the ones
that went away. ``read(dt)`` (every frame) turns the open devices into a ``JoyFrame``:
stick deflections, levers that moved, rate-driven levels, and button / hat actions, all
in the action vocabulary of ``flightsim.input.bindings``. The mixer merges that with the
keyboard into one ControlInputs.

A device that disappears (unplugged, or its file closed by pyglet on a read error) hands
its last stick / rudder deflection to the keyboard, which ramps it home, and releases the
actions its buttons held: the controls recentre, never freeze.

Without joystick support (no display so ``import pyglet.input`` fails, no ``/dev/input``
so pyglet raises FileNotFoundError, or simply nothing plugged in) the game flies on the
keyboard and says so in exactly one log line.

Conventions of the source axes (profiles refer to them by these names): every axis reads
-1..1; y axes +1 toward the pilot (pyglet's joystick y is +1 at the bottom = stick back;
gamepad sticks are read from pyglet's y-up stick vector and flipped once, here). Stick
axes: x y z rx ry rz, plus any axis pyglet has no name for under its OS name without the
``ABS_`` prefix (``throttle``, ``rudder``, ``slider`` ...). Gamepad axes: leftx lefty
rightx righty lefttrigger righttrigger (triggers -1 released .. +1 pulled).
Buttons: stick ``b0``.. (pyglet's index) and ``hat_up/down/left/right``; gamepad
``a b x y back start guide leftshoulder rightshoulder leftstick rightstick
dpup dpdown dpleft dpright``.
"""
from __future__ import annotations

import importlib
import logging
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from .bindings import HELD_ACTIONS
from .profiles import (
    BIPOLAR,
    MOMENTARY,
    Profile,
    config_dir,
    default_profile,
    find_profile,
    ids_from_guid,
    load_profiles,
    save_profile,
)

log = logging.getLogger("flightsim.input")

STICK_AXES = ("x", "y", "z", "rx", "ry", "rz")
GAMEPAD_AXES = ("leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger")
POLL_INTERVAL_S = 1.0


def axis_key(control) -> str | None:
    """The profile name of a stick axis control (None for hats: they are buttons here)."""
    name = getattr(control, "name", None)
    if name in STICK_AXES:
        return name
    if name in ("hat", "hat_x", "hat_y"):
        return None
    raw = (getattr(control, "raw_name", None) or name or "").lower()
    raw = re.sub(r"^abs_", "", raw)
    raw = re.sub(r"[^a-z0-9]+", "_", raw).strip("_")
    return raw or None


def _is_axis(control) -> bool:
    return hasattr(control, "min") and hasattr(control, "max") and not (control.min == 0 and control.max == 0)


def _ids(device):
    """(vendor, product) from pyglet's attributes (Linux: hex strings) or its SDL GUID."""
    vid, pid = getattr(device, "id_vendor", None), getattr(device, "id_product", None)
    try:
        if vid is not None and pid is not None:
            v, p = int(str(vid), 0), int(str(pid), 0)
            if v and p:
                return v, p
    except ValueError:
        pass
    try:
        return ids_from_guid(device.get_guid())
    except Exception:            # base Device raises NotImplementedError; others may fail oddly
        return None


def _guid(device):
    try:
        return device.get_guid()
    except Exception:
        return None


@dataclass
class JoyFrame:
    """What the devices did since the last read."""
    momentary: dict = field(default_factory=dict)    # pitch roll yaw brake_left brake_right: summed, clamped
    levels: dict = field(default_factory=dict)       # throttle airbrake flap pitch_trim: set to this
    nudges: dict = field(default_factory=dict)       # the same, moved by this much (rate-mode axes)
    actions: list = field(default_factory=list)      # (action, source, pressed) in the order they happened
    handover: dict = field(default_factory=dict)     # deflections of devices that went away
    buttons: list = field(default_factory=list)      # (raw button name, pressed): what the menu reads


class Attached:
    """One open pyglet Joystick or Controller with its profile."""

    def __init__(self, key, obj, kind: str, profile: Profile, source: str):
        self.key = key
        self.obj = obj
        self.device = obj.device
        self.kind = kind
        self.profile = profile
        self.source = source                 # the name its actions are held under
        self.name = getattr(self.device, "name", None) or getattr(obj, "name", None) or "device"
        self.events: list[tuple[str, bool]] = []
        self.held: set[str] = set()
        self.last_momentary: dict[str, float] = {}
        self.last_level: dict[str, float] = {}
        self.cal: dict[str, list[float]] | None = None     # axis -> [min, max, last] while calibrating
        self._stick = {"leftx": 0.0, "lefty": 0.0, "rightx": 0.0, "righty": 0.0}
        self._trigger_buttons = {"lefttrigger": False, "righttrigger": False}
        self._pad = {"up": False, "down": False, "left": False, "right": False}
        self._controls = []
        if kind == "gamepad":
            self._handlers = {"on_button_press": self._gp_press, "on_button_release": self._gp_release,
                              "on_dpad_motion": self._gp_dpad, "on_stick_motion": self._gp_stick}
        else:
            self._handlers = {"on_joybutton_press": self._js_press, "on_joybutton_release": self._js_release,
                              "on_joyhat_motion": self._js_hat, "on_joyaxis_motion": self._js_axis}
            used = set()
            for c in self.device.get_controls():
                key = axis_key(c) if _is_axis(c) else None
                if key:
                    n = 2
                    while key in used:              # a second slider: slider_2
                        key = f"{axis_key(c)}_{n}"
                        n += 1
                    used.add(key)
                    self._controls.append((key, c))
        obj.push_handlers(**self._handlers)

    # ------------------------------------------------------------------ pyglet events
    def _js_press(self, joystick, i):
        self.events.append((f"b{i}", True))

    def _js_release(self, joystick, i):
        self.events.append((f"b{i}", False))

    def _hat(self, x, y, prefix):
        now = {"up": y > 0.5, "down": y < -0.5, "left": x < -0.5, "right": x > 0.5}
        for d, on in now.items():
            if on != self._pad[d]:
                self._pad[d] = on
                self.events.append((prefix + d, on))

    def _js_hat(self, joystick, hat_x, hat_y):          # a dedicated POV control (Windows, macOS)
        self._hat(hat_x, hat_y, "hat_")

    def _js_axis(self, joystick, axis, value):           # hat as two axes (Linux): +y is up
        if axis in ("hat_x", "hat_y"):
            self._hat(joystick.hat_x, joystick.hat_y, "hat_")

    def _gp_press(self, controller, button):
        if button in self._trigger_buttons:
            self._trigger_buttons[button] = True
        self.events.append((button, True))

    def _gp_release(self, controller, button):
        if button in self._trigger_buttons:
            self._trigger_buttons[button] = False
        self.events.append((button, False))

    def _gp_dpad(self, controller, vector):
        self._hat(vector[0], vector[1], "dp")

    def _gp_stick(self, controller, stick, vector):
        side = "left" if stick.startswith("left") else "right"
        self._stick[side + "x"] = float(vector[0])
        self._stick[side + "y"] = -float(vector[1])     # pyglet's vector is y-up; ours is +1 toward the pilot

    # ------------------------------------------------------------------ state
    def axes(self) -> dict[str, float]:
        """Every source axis now, -1..1 (axes that never reported a value are left out)."""
        if self.kind == "gamepad":
            out = dict(self._stick)
            for t in ("lefttrigger", "righttrigger"):
                v = max(float(getattr(self.obj, t, 0.0) or 0.0), 1.0 if self._trigger_buttons[t] else 0.0)
                out[t] = 2.0 * min(max(v, 0.0), 1.0) - 1.0
            return out
        out = {}
        for key, c in self._controls:
            if c.value is None:
                continue
            v = (float(c.value) - c.min) * 2.0 / (c.max - c.min) - 1.0
            out[key] = -v if getattr(c, "inverted", False) else v
        return out

    @property
    def gone(self) -> bool:
        if getattr(self.device, "connected", True) is False:
            return True
        is_open = getattr(self.device, "is_open", None)
        return is_open is False

    def detach(self):
        try:
            self.obj.remove_handlers(**self._handlers)
        except Exception:
            pass
        try:
            self.obj.close()
        except Exception:            # already closed by pyglet (device gone): nothing to do
            pass


class PygletBackend:
    """pyglet.input, imported on first use (it needs a display on Linux)."""

    def __init__(self, import_input=None):
        self._import = import_input or (lambda: importlib.import_module("pyglet.input"))
        self.module = None

    def load(self):
        if self.module is None:
            self.module = self._import()
        return self.module

    def controllers(self):
        return list(self.load().get_controllers())

    def joysticks(self):
        return list(self.load().get_joysticks())


def aircraft_has_engine(compiled) -> bool:
    """Powered aircraft carry an [engine] table (docs/aircraft_format.md); a glider has none.
    Decides where a joystick's throttle lever goes (throttle, or a glider's airbrakes)."""
    spec = compiled.spec
    if any(getattr(spec, a, None) for a in ("engine", "engines", "powerplant")):
        return True
    try:
        from ..aircraft_data.schema import read_toml
        return "engine" in read_toml(spec.path)
    except Exception:
        return True


class JoystickManager:
    def __init__(self, backend=None, profile_dir: Path | None = None, has_engine: bool = True,
                 save_new_profiles: bool = True):
        self.backend = backend if backend is not None else PygletBackend()
        self.profile_dir = Path(profile_dir) if profile_dir is not None else config_dir()
        self.has_engine = has_engine
        self.save_new_profiles = save_new_profiles
        self.attached: dict = {}
        self.available = True
        self.calibrating = False
        self._pending = JoyFrame()
        self._said_keyboard_only = False
        self._warned: set = set()
        self._n_sources = 0
        self._why_none = ""
        self._scan_failed: set = set()

    # ------------------------------------------------------------------ discovery
    @property
    def devices(self) -> list[str]:
        return [f"{a.name} ({a.kind})" for a in self.attached.values()]

    def _keyboard_only(self, why: str):
        if not self._said_keyboard_only:
            self._said_keyboard_only = True
            log.info("%s: flying on the keyboard", why)

    def _scan(self):
        """[(key, kind, obj)] of what pyglet sees now, or None when it cannot look at all."""
        try:
            self.backend.load()
        except Exception as e:
            self.available = False
            self._keyboard_only(f"joystick support unavailable (pyglet.input: {type(e).__name__}: {e})")
            return None
        found, seen, missing_dev_input, errors = [], {}, False, []
        self._scan_failed = set()
        for kind, get in (("gamepad", self.backend.controllers), ("stick", self.backend.joysticks)):
            try:
                with warnings.catch_warnings():        # pyglet warns on every scan of an unmapped pad
                    warnings.simplefilter("ignore")
                    objs = get()
            except FileNotFoundError:
                missing_dev_input = True
                continue
            except Exception as e:                     # keep what this list had: a failed look is no unplug
                errors.append(f"{type(e).__name__}: {e}")
                self._scan_failed.add(kind)
                continue
            for obj in objs:
                dev = obj.device
                name = str(getattr(dev, "name", None) or "")
                path = getattr(dev, "_filename", None)
                base = ("path", path) if path else ("id", _guid(dev), name)
                counts = seen.setdefault(base, {"gamepad": 0, "stick": 0})
                n = counts[kind]
                counts[kind] = n + 1
                if kind == "stick" and counts["gamepad"] > n:    # the n-th pad again, as a Joystick: keep the pad
                    continue
                k = "pedals" if kind == "stick" and re.search(r"pedal|rudder", name, re.I) else kind
                found.append((base + (n,), k, obj))
        if missing_dev_input:
            self._why_none = "no /dev/input here, so no joystick or gamepad"
        elif errors:
            self._why_none = "joystick scan failed (" + "; ".join(errors) + ")"
        else:
            self._why_none = "no joystick or gamepad found (plug one in at any time)"
        return found

    def _profile_for(self, name, kind, ids, axes) -> Profile:
        vid, pid = ids or (None, None)
        p = find_profile(load_profiles(self.profile_dir), name, kind, vid, pid)
        if p is not None:
            return p
        p = default_profile(kind, name, vid, pid, axes)
        if self.save_new_profiles:
            try:
                if save_profile(p, self.profile_dir, overwrite=False) is None:
                    log.warning("%s: a profile file for %s is already there (not readable as a profile?): "
                                "left as it is, the device runs on the default profile", self.profile_dir, name)
            except OSError as e:
                log.warning("could not save the profile for %s in %s: %s", name, self.profile_dir, e)
        return p

    def poll(self) -> None:
        """Pick up new devices, drop vanished ones. Never raises for a device problem."""
        if not self.available:
            return
        found = self._scan()
        if found is None:
            return
        keys = {k for k, _, _ in found}
        for att in [a for a in self.attached.values() if a.gone or (
                a.key not in keys and ("gamepad" if a.kind == "gamepad" else "stick") not in self._scan_failed)]:
            self._drop(att, "disconnected")
        for key, kind, obj in found:
            if key not in self.attached and getattr(obj.device, "connected", True) is not False:
                self._attach(key, kind, obj)
        if not self.attached:
            self._keyboard_only(self._why_none)

    def _attach(self, key, kind, obj):
        dev = obj.device
        name = getattr(dev, "name", None) or getattr(obj, "name", None) or "device"
        try:
            obj.open()
        except Exception as e:
            if key not in self._warned:
                self._warned.add(key)
                log.warning("cannot open %s (%s: %s); keyboard only for it", name, type(e).__name__, e)
            return
        try:
            axes = GAMEPAD_AXES if kind == "gamepad" else [axis_key(c) for c in dev.get_controls() if _is_axis(c)]
            profile = self._profile_for(name, kind, _ids(dev), [a for a in axes if a])
            self._n_sources += 1
            att = Attached(key, obj, kind, profile, f"dev{self._n_sources}")
        except Exception as e:
            log.warning("cannot use %s (%s: %s)", name, type(e).__name__, e)
            try:
                obj.close()
            except Exception:
                pass
            return
        self.attached[key] = att
        self._said_keyboard_only = False
        where = f", profile {profile.path}" if profile.path else ""
        log.info("%s connected: %s%s", kind, name, where)

    def _drop(self, att: Attached, why: str, fr: JoyFrame | None = None):
        self.attached.pop(att.key, None)
        att.detach()
        fr = self._pending if fr is None else fr
        for a in sorted(att.held):
            fr.actions.append((a, att.source, False))
        att.held.clear()
        for t, v in att.last_momentary.items():
            if t in ("pitch", "roll", "yaw"):
                fr.handover[t] = fr.handover.get(t, 0.0) + v
        rest = "" if self.attached else "; flying on the keyboard"
        self._said_keyboard_only = not self.attached
        log.info("%s %s%s", att.name, why, rest)

    # ------------------------------------------------------------------ per frame
    def read(self, dt_s: float) -> JoyFrame:
        for att in [a for a in self.attached.values() if a.gone]:
            self._drop(att, "disconnected")
        fr, self._pending = self._pending, JoyFrame()
        for att in list(self.attached.values()):
            try:
                self._read_one(att, fr, dt_s)
            except Exception as e:      # a misbehaving device must not take the game down
                log.warning("dropping %s after an error (%s: %s)", att.name, type(e).__name__, e)
                self._drop(att, "dropped", fr)
        for t, v in fr.momentary.items():
            fr.momentary[t] = min(max(v, -1.0 if t in BIPOLAR else 0.0), 1.0)
        return fr

    def _read_one(self, att: Attached, fr: JoyFrame, dt_s: float):
        for button, pressed in att.events:
            if not self.calibrating:
                fr.buttons.append((button, pressed))
            action = att.profile.buttons.get(button)
            if action is None or self.calibrating:
                continue
            if pressed:
                if action in HELD_ACTIONS:
                    att.held.add(action)
                fr.actions.append((action, att.source, True))
            elif action in att.held:
                att.held.discard(action)
                fr.actions.append((action, att.source, False))
        att.events.clear()
        raw = att.axes()
        if self.calibrating:
            for k, v in raw.items():
                r = att.cal.setdefault(k, [v, v, v])
                r[0], r[1], r[2] = min(r[0], v), max(r[1], v), v
            att.last_momentary = {}
            return
        mom = {}
        for target, m in att.profile.axes.items():
            if m.axis not in raw:
                continue
            v = raw[m.axis]
            if m.mode == "rate":
                t = self._level_target(target)
                fr.nudges[t] = fr.nudges.get(t, 0.0) + m.rate * m.bipolar(v) * dt_s
                continue
            if target in MOMENTARY:
                val = m.bipolar(v) if target in BIPOLAR else m.unipolar(v)
                for t in (("brake_left", "brake_right") if target == "brake" else (target,)):
                    mom[t] = mom.get(t, 0.0) + val
                continue
            t = self._level_target(target)
            if target == "lever":
                u = m.unipolar(v)
                val = u if t == "throttle" else 1.0 - u
            else:
                val = m.bipolar(v) if target in BIPOLAR else m.unipolar(v)
            last = att.last_level.get(t)
            if last is None or abs(val - last) > 0.01 or (val != last and val in (0.0, 1.0, -1.0)):
                att.last_level[t] = val
                fr.levels[t] = val
        for t, v in mom.items():
            fr.momentary[t] = fr.momentary.get(t, 0.0) + v
        att.last_momentary = mom

    def _level_target(self, target):
        if target == "lever":
            return "throttle" if self.has_engine else "airbrake"
        return target

    def forget_levels(self):
        """After a reset: the levers' positions are applied again on the next read."""
        for att in self.attached.values():
            att.last_level.clear()

    # ------------------------------------------------------------------ calibration
    def start_calibration(self):
        if not self.attached:
            log.info("calibration: no joystick or gamepad connected")
            return
        self.calibrating = True
        for att in self.attached.values():
            att.cal = {}
            for a in sorted(att.held):
                self._pending.actions.append((a, att.source, False))
            att.held.clear()
            for t, v in att.last_momentary.items():
                if t in ("pitch", "roll", "yaw"):
                    self._pending.handover[t] = self._pending.handover.get(t, 0.0) + v
            att.last_momentary = {}
        log.info("calibration: move every axis to both stops, let the stick centre, then finish (K)")

    def finish_calibration(self) -> list[Path]:
        """Store the extents and centres seen since start in each device's profile and save it."""
        self.calibrating = False
        saved = []
        for att in self.attached.values():
            cal, att.cal = att.cal or {}, None
            changed = False
            for target, m in att.profile.axes.items():
                r = cal.get(m.axis)
                if r is None or r[1] - r[0] < 0.3:       # not moved: keep what it had
                    continue
                m.min, m.max = r[0], r[1]
                centred = target in BIPOLAR or m.mode == "rate"
                m.centre = min(max(r[2], m.min), m.max) if centred else 0.5 * (m.min + m.max)
                changed = True
            if changed:
                try:
                    saved.append(save_profile(att.profile, self.profile_dir))
                    log.info("calibrated %s: saved %s", att.name, att.profile.path)
                except OSError as e:
                    log.warning("calibrated %s but could not save the profile: %s", att.name, e)
            att.last_level.clear()
        return saved

    def toggle_calibration(self):
        if self.calibrating:
            return self.finish_calibration()
        self.start_calibration()
        return []

    def close(self):
        for att in list(self.attached.values()):
            self.attached.pop(att.key, None)
            att.detach()
