"""Keyboard flying: held keys move the controls with a smooth ramp, released ones recentre.

Pyglet-free: the window maps its key symbols to the action names below and calls
``press`` / ``release``; ``update(dt)`` ramps and returns the ControlInputs to post.
"""
from __future__ import annotations

from dataclasses import replace

from ..handoff import ControlInputs

STICK_RATE = 2.5        # full deflection in 0.4 s
CENTRE_RATE = 3.5       # back to neutral a little faster
AIRBRAKE_RATE = 1.0     # full travel in 1 s
TRIM_RATE = 0.25        # per second while held

ACTIONS = ("pitch_down", "pitch_up", "roll_left", "roll_right", "yaw_left", "yaw_right",
           "trim_down", "trim_up", "brake")


def _ramp(x, target, dt):
    rate = CENTRE_RATE if abs(target) < abs(x) or target * x < 0 else STICK_RATE
    step = rate * dt
    return target if abs(target - x) <= step else x + step * (1 if target > x else -1)


class KeyboardControls:
    def __init__(self, initial: ControlInputs | None = None):
        self.held: set[str] = set()
        self.inputs = initial or ControlInputs()
        self.airbrake_target = self.inputs.airbrake
        self.gear_target = self.inputs.gear_up

    def press(self, action: str):
        if action == "airbrake":
            self.airbrake_target = 0.0 if self.airbrake_target > 0.5 else 1.0
        elif action == "gear":
            self.gear_target = 0.0 if self.gear_target > 0.5 else 1.0
        else:
            self.held.add(action)

    def release(self, action: str):
        self.held.discard(action)

    def reset(self, inputs: ControlInputs):
        self.held.clear()
        self.inputs = inputs
        self.airbrake_target = inputs.airbrake
        self.gear_target = inputs.gear_up

    def update(self, dt_s: float) -> ControlInputs:
        h = self.held
        c = self.inputs
        pitch_t = (1.0 if "pitch_up" in h else 0.0) - (1.0 if "pitch_down" in h else 0.0)
        roll_t = (1.0 if "roll_right" in h else 0.0) - (1.0 if "roll_left" in h else 0.0)
        yaw_t = (1.0 if "yaw_right" in h else 0.0) - (1.0 if "yaw_left" in h else 0.0)
        trim = c.pitch_trim + TRIM_RATE * dt_s * ((1.0 if "trim_up" in h else 0.0) - (1.0 if "trim_down" in h else 0.0))
        ab = c.airbrake
        step = AIRBRAKE_RATE * dt_s
        ab = self.airbrake_target if abs(self.airbrake_target - ab) <= step else ab + step * (1 if self.airbrake_target > ab else -1)
        brake = 1.0 if "brake" in h else 0.0
        self.inputs = replace(c, pitch=_ramp(c.pitch, pitch_t, dt_s), roll=_ramp(c.roll, roll_t, dt_s),
                              yaw=_ramp(c.yaw, yaw_t, dt_s), pitch_trim=max(-1.0, min(1.0, trim)), airbrake=ab,
                              brake_left=brake, brake_right=brake, gear_up=self.gear_target)
        return self.inputs
