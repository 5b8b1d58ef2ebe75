"""Keyboard flying: held keys move the controls with a smooth ramp, released ones recentre.

Pyglet-free: the window maps its key symbols to the action names of
``flightsim.input.bindings`` and calls ``press`` / ``release``; ``update(dt)`` ramps and
returns the ControlInputs to post. Joystick and gamepad buttons drive the same actions
(through the mixer), and a device's absolute levers set the persistent controls through
``set_level`` / ``nudge``, so whichever moved last wins and the keys carry on from there.

What is a request and what is travel: the stick, rudder and throttle ramp here (a key is
a bang-bang switch; the ramp is the pilot's hand). Flaps, airbrakes and gear are
*requests*: the key posts the selected position and the physics moves the surface with
its actuator's travel time.
"""
from __future__ import annotations

from dataclasses import replace

from ..physics.named_controls import WEAPON_BUTTONS
from ..runtime.handoff import ControlInputs
from .bindings import FLIGHT_ACTIONS, HELD_ACTIONS, SET_ACTIONS
from .fs2 import MIXTURE_STEP, STICK_STEP, THROTTLE_STEP, TRIM_STEP

STICK_RATE = 2.5        # full deflection in 0.4 s
CENTRE_RATE = 3.5       # back to neutral a little faster
THROTTLE_RATE = 0.5     # idle to full in 2 s while held
TRIM_RATE = 0.25        # per second while held
AIRBRAKE_RATE = 0.5     # lever travel per second while ] / [ are held
MIXTURE_RATE = 0.2      # mixture lever travel per second while held (full rich to cut-off in 5 s)
FLAP_STEP = 0.25        # one notch
BUTTON_MIN_S = 0.1      # a weapon button reads pressed this long at least: a tap shorter than a frame or
#                         a physics tick still reaches the combat (which acts on the press, not the hold)
# the weapon buttons: held actions that are also controls (0/1), and what sets each
BUTTONS = {"launch": ("launch",), "weapon_select": ("weapon_select",), "lock": ("lock",), "flare": ("flare",),
           "chaff": ("chaff",), "countermeasures": ("flare", "chaff")}

ACTIONS = tuple(FLIGHT_ACTIONS) + tuple(SET_ACTIONS)
# Flight Simulator II's steps (fs2.py): (the axis or level, the step)
_STEPS = {"elevator_step_down": ("pitch", -STICK_STEP), "elevator_step_up": ("pitch", STICK_STEP),
          "aileron_step_left": ("roll", -STICK_STEP), "aileron_step_right": ("roll", STICK_STEP),
          "rudder_step_left": ("yaw", -STICK_STEP), "rudder_step_right": ("yaw", STICK_STEP),
          "throttle_step_up": ("throttle", THROTTLE_STEP), "throttle_step_down": ("throttle", -THROTTLE_STEP),
          "trim_step_up": ("pitch_trim", TRIM_STEP), "trim_step_down": ("pitch_trim", -TRIM_STEP),
          "mixture_step_lean": ("mixture_lean", MIXTURE_STEP), "mixture_step_rich": ("mixture_lean", -MIXTURE_STEP)}
LEVELS = ("throttle", "airbrake", "flap", "pitch_trim", "roll_trim", "yaw_trim", "mixture_lean")


def _clamp(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


def _ramp(x, target, dt):
    rate = CENTRE_RATE if abs(target) < abs(x) or target * x < 0 else STICK_RATE
    step = rate * dt
    return target if abs(target - x) <= step else x + step * (1 if target > x else -1)


class KeyboardControls:
    """Held actions ramp; step actions act once per press; the rest of the record is kept.

    ``flap_range`` is the selectable flap travel (0..1 by default; an aircraft with
    reflex / camber flaps may pass (-1, 1)).

    Flight Simulator II's steps (SET_ACTIONS, fs2.py) move where the stick and rudder rest
    (``set_axes``, 0 unless stepped: the standard keys' stick springs back to the centre) and
    step the throttle and trim; a held key still wins over the rest position while held."""

    def __init__(self, initial: ControlInputs | None = None, flap_range=(0.0, 1.0)):
        self.held: set[str] = set()
        self.set_axes = {"pitch": 0.0, "roll": 0.0, "yaw": 0.0}
        self.flap_range = (float(flap_range[0]), float(flap_range[1]))
        self.inputs = initial or ControlInputs()
        self.tapped: dict[str, float] = {}      # a weapon button pressed: how long it still reads pressed

    def press(self, action: str):
        c = self.inputs
        if action == "airbrake":
            self.inputs = replace(c, airbrake=0.0 if c.airbrake > 0.5 else 1.0)
        elif action == "gear":
            self.inputs = replace(c, gear_up=0.0 if c.gear_up > 0.5 else 1.0)
        elif action == "engine_cutoff":
            self.inputs = replace(c, cutoff=0.0 if c.cutoff > 0.5 else 1.0)
        elif action == "fcs_mode":
            self.inputs = replace(c, fcs_direct=0.0 if c.fcs_direct > 0.5 else 1.0)
        elif action == "carb_heat":
            self.inputs = replace(c, carb_heat=0.0 if c.carb_heat > 0.5 else 1.0)
        elif action in ("drop_tanks", "drop_bombs"):
            # a release is for good: the request stays set (a tap shorter than a frame still counts)
            self.inputs = replace(c, **{action: 1.0})
        elif action in ("flaps_down", "flaps_up"):
            lo, hi = self.flap_range
            step = FLAP_STEP if action == "flaps_down" else -FLAP_STEP
            notch = round(c.flap / FLAP_STEP) * FLAP_STEP     # off-notch (a lever set it): snap, then step
            self.inputs = replace(c, flap=_clamp(notch + step, lo, hi))
        elif action in _STEPS:
            name, step = _STEPS[action]
            if name in self.set_axes:
                self.set_axes[name] = _clamp(round((self.set_axes[name] + step) / STICK_STEP) * STICK_STEP, -1.0, 1.0)
            else:
                lo = -1.0 if name == "pitch_trim" else 0.0
                self.inputs = replace(c, **{name: _clamp(getattr(c, name) + step, lo, 1.0)})
        elif action == "centre_controls":
            self.set_axes["roll"] = self.set_axes["yaw"] = 0.0
        elif action in HELD_ACTIONS:
            self.held.add(action)
            if action in BUTTONS:
                self.tapped[action] = BUTTON_MIN_S
        else:
            raise ValueError(f"not a flight action: {action!r}")

    def release(self, action: str):
        self.held.discard(action)

    def release_all(self):
        self.held.clear()

    def reset(self, inputs: ControlInputs):
        self.held.clear()
        self.tapped.clear()
        self.set_axes = dict.fromkeys(self.set_axes, 0.0)
        self.inputs = inputs

    # ------------------------------------------------------------------ from devices
    def set_level(self, name: str, value: float):
        """A device lever moved: the persistent control jumps to it (keys continue from there)."""
        if name not in LEVELS:
            raise ValueError(f"not a level control: {name!r}")
        lo, hi = (-1.0, 1.0) if name.endswith("_trim") else self.flap_range if name == "flap" else (0.0, 1.0)
        self.inputs = replace(self.inputs, **{name: _clamp(float(value), lo, hi)})

    def nudge(self, name: str, delta: float):
        self.set_level(name, getattr(self.inputs, name) + delta)

    def hand_over(self, **deflections):
        """Take over stick / rudder deflections from a device that went away: they ramp home."""
        self.inputs = replace(self.inputs, **{k: _clamp(getattr(self.inputs, k) + float(v), -1.0, 1.0)
                                              for k, v in deflections.items() if v})

    # ------------------------------------------------------------------ per frame
    def update(self, dt_s: float) -> ControlInputs:
        h = self.held
        c = self.inputs

        def axis(neg, pos):
            return (1.0 if pos in h else 0.0) - (1.0 if neg in h else 0.0)

        def stick(name, neg, pos):
            """Where the stick or rudder goes: the held key's way, else its rest position."""
            return axis(neg, pos) if neg in h or pos in h else self.set_axes[name]

        throttle = _clamp(c.throttle + THROTTLE_RATE * dt_s * axis("throttle_down", "throttle_up"), 0.0, 1.0)
        trim = _clamp(c.pitch_trim + TRIM_RATE * dt_s * axis("trim_down", "trim_up"), -1.0, 1.0)
        roll_trim = _clamp(c.roll_trim + TRIM_RATE * dt_s * axis("roll_trim_left", "roll_trim_right"), -1.0, 1.0)
        yaw_trim = _clamp(c.yaw_trim + TRIM_RATE * dt_s * axis("yaw_trim_left", "yaw_trim_right"), -1.0, 1.0)
        airbrake = _clamp(c.airbrake + AIRBRAKE_RATE * dt_s * axis("airbrake_retract", "airbrake_extend"), 0.0, 1.0)
        lean = _clamp(c.mixture_lean + MIXTURE_RATE * dt_s * axis("mixture_rich", "mixture_lean"), 0.0, 1.0)
        both = "brake" in h
        self.tapped = {a: t - dt_s for a, t in self.tapped.items() if t - dt_s > 0.0}
        pressed = {c for a, cs in BUTTONS.items() if a in h or a in self.tapped for c in cs}
        self.inputs = replace(
            c, pitch=_ramp(c.pitch, stick("pitch", "pitch_down", "pitch_up"), dt_s),
            roll=_ramp(c.roll, stick("roll", "roll_left", "roll_right"), dt_s),
            yaw=_ramp(c.yaw, stick("yaw", "yaw_left", "yaw_right"), dt_s),
            throttle=throttle, pitch_trim=trim, roll_trim=roll_trim, yaw_trim=yaw_trim, airbrake=airbrake,
            mixture_lean=lean, brake_left=1.0 if both or "brake_left" in h else 0.0,
            brake_right=1.0 if both or "brake_right" in h else 0.0,
            fire=1.0 if "fire" in h else 0.0, **{c: 1.0 if c in pressed else 0.0 for c in WEAPON_BUTTONS})
        return self.inputs
