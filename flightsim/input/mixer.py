"""Keyboard + joysticks -> one ControlInputs per frame, posted to the ControlMailbox.

    keys ──press/release──┐
                          ├──► InputMixer.update(dt) ──ControlInputs──► ControlMailbox ──► physics (next tick)
    JoystickManager.read ─┘

How the sources combine:
  * stick, rudder: keyboard ramp + device axes, summed and clamped (a stick without a
    twist flies with Q / E rudder); wheel brakes: the larger of the two.
  * throttle, airbrakes, flaps, trim are *levels* that stay where they were put: a device
    lever that moves sets the level, keys move it from there (whichever moved last wins).
  * held actions (trim, brakes, throttle keys, ...) are held while any source holds them
    (a key, a button, a hat direction); step actions act once per press from any source.
  * app actions (views, pause, reset, help, calibrate, ...) queue for the window:
    ``take_app_actions()``.
  * a device that disappears hands its deflections to the keyboard ramp, which brings
    them home: the controls recentre instead of freezing.

Pyglet-free; the same ControlInputs record carries what an autopilot or AI would post.
"""
from __future__ import annotations

from ..runtime.handoff import ControlInputs, ControlMailbox
from .bindings import APP_ACTIONS, FLIGHT_ACTIONS, HELD_ACTIONS, SET_ACTIONS
from .keyboard import KeyboardControls


def _clamp(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


class InputMixer:
    def __init__(self, keyboard: KeyboardControls | None = None, joysticks=None):
        self.keyboard = keyboard or KeyboardControls()
        self.joysticks = joysticks
        self.holders: dict[str, set] = {}
        self.app_actions: list[str] = []
        self.last = self.keyboard.inputs

    # ------------------------------------------------------------------ actions from any source
    def press(self, action: str | None, source="keys") -> None:
        if action is None:
            return
        if action in APP_ACTIONS:
            self.app_actions.append(action)
        elif action in HELD_ACTIONS:
            h = self.holders.setdefault(action, set())
            if not h:
                self.keyboard.press(action)
            h.add(source)
        elif action in FLIGHT_ACTIONS or action in SET_ACTIONS:      # (SET_ACTIONS: the fs2 layout's steps)
            self.keyboard.press(action)
        else:
            raise ValueError(f"unknown action {action!r}")

    def release(self, action: str | None, source="keys") -> None:
        h = self.holders.get(action)
        if not h or source not in h:
            return
        h.discard(source)
        if not h:
            self.keyboard.release(action)

    def release_source(self, source) -> None:
        for action in [a for a, h in self.holders.items() if source in h]:
            self.release(action, source)

    def release_keys(self) -> None:
        """Every key lets go (the window lost focus: their releases will never come)."""
        for source in {s for h in self.holders.values() for s in h if isinstance(s, str) and s.startswith("key")}:
            self.release_source(source)

    def take_app_actions(self) -> list[str]:
        out, self.app_actions = self.app_actions, []
        return out

    # ------------------------------------------------------------------ per frame
    def update(self, dt_s: float) -> ControlInputs:
        kb = self.keyboard
        mom = {}
        if self.joysticks is not None:
            fr = self.joysticks.read(dt_s)
            for action, source, pressed in fr.actions:
                if pressed:
                    self.press(action, source)
                else:
                    self.release(action, source)
            for name, value in fr.levels.items():
                kb.set_level(name, value)
            for name, delta in fr.nudges.items():
                kb.nudge(name, delta)
            if fr.handover:
                kb.hand_over(**fr.handover)
            mom = fr.momentary
        c = kb.update(dt_s)
        if mom:
            c = c.replace(pitch=_clamp(c.pitch + mom.get("pitch", 0.0), -1.0, 1.0),
                          roll=_clamp(c.roll + mom.get("roll", 0.0), -1.0, 1.0),
                          yaw=_clamp(c.yaw + mom.get("yaw", 0.0), -1.0, 1.0),
                          brake_left=max(c.brake_left, mom.get("brake_left", 0.0)),
                          brake_right=max(c.brake_right, mom.get("brake_right", 0.0)))
        self.last = c
        return c

    def post(self, mailbox: ControlMailbox, dt_s: float) -> ControlInputs:
        c = self.update(dt_s)
        mailbox.post(c)
        return c

    def reset(self, inputs: ControlInputs) -> None:
        """Back to the start: keys and buttons released, levers applied again next frame."""
        self.holders.clear()
        self.keyboard.reset(inputs)
        if self.joysticks is not None:
            for att in self.joysticks.attached.values():
                att.held.clear()
            self.joysticks.forget_levels()
        self.last = inputs

    @property
    def devices(self) -> list[str]:
        return [] if self.joysticks is None else self.joysticks.devices
