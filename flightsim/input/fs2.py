"""Seed 001's keys: Flight Simulator II's keyboard controls, as FLTSIM2D uses them.

Flight Simulator II (subLOGIC, 1984) flies from the keyboard by *steps*: each press moves a
control one notch and it stays there (a terminal sends presses, never releases), with a key
to centre the ailerons and rudder. FLTSIM2D (seed 001) keeps the subset it needs:

    T / B          elevator a step down (nose down) / up (nose up)      seed 001
    Left / Right   throttle 5 % down / up (< and > too: its BBC Micro's)  seed 001
    Y / N          flaps a notch up / down                              seed 001

and this layout adds the rest from Flight Simulator II: ailerons F / H with G centring them
and the rudder (the keys either side of the elevator's, on FS2's control diamond), ( and )
nose-up / nose-down trim and U the gear (FS2's quick reference). The rudder on Z / C, the
wheel brakes on ".", the mixture on [ / ] and the carburettor heat on J are this project's choice
(FS2's own rudder keys differ by computer).

Two tables: ``TERMINAL_KEYS`` for the text mode (characters, and curses' names for the
arrows), and ``FS2_ROWS`` for the window (pyglet key names, the keyboard profile ``fs2``:
``python run.py --keys fs2``), both naming the same step actions of
``flightsim.input.bindings.SET_ACTIONS`` that ``KeyboardControls`` carries out.
"""
from __future__ import annotations

STICK_STEP = 0.05       # a step of stick or rudder: 20 presses from centre to the stop
THROTTLE_STEP = 0.05    # seed 001: THROTTLE = THROTTLE + 5 per press
TRIM_STEP = 0.05        # a step of the trim wheel
MIXTURE_STEP = 0.05     # a step of the mixture lever (toward idle cut-off)

# the text mode: a typed character (lower case; upper case is the same key) -> action
TERMINAL_KEYS = {
    "t": "elevator_step_down", "b": "elevator_step_up",
    "f": "aileron_step_left", "h": "aileron_step_right", "g": "centre_controls",
    "z": "rudder_step_left", "c": "rudder_step_right",
    "KEY_LEFT": "throttle_step_down", "KEY_RIGHT": "throttle_step_up",
    "<": "throttle_step_down", ">": "throttle_step_up",      # the seed's BBC Micro keys
    "y": "flaps_up", "n": "flaps_down",
    "(": "trim_step_up", ")": "trim_step_down",
    "u": "gear", ".": "brake",
    "[": "mixture_step_lean", "]": "mixture_step_rich", "j": "carb_heat",
}
# the text mode's own keys (not flight controls)
TERMINAL_APP_KEYS = {"p": "pause", "q": "quit", "\x1b": "quit", "r": "reset"}

TERMINAL_HELP = ("T/B elevator  F/H ailerons  G centre  Z/C rudder  arrows or < > power",
                 "Y/N flaps  ( ) trim  . brakes  U gear  [ ] mixture  J carb heat",
                 "P pause  R restart  Q quit")     # (80 columns)

# the window's fs2 profile: (keys as shown, what they do, {pyglet key name: action}); the app's
# own keys (views, pause, menu, help ...) are added from the standard layout where they do not
# clash (flightsim.input.bindings.rows_for)
FS2_ROWS = [
    ("T / B", "elevator a step down / up (stays; FS2)", {"T": "elevator_step_down", "B": "elevator_step_up"}),
    ("F / H", "ailerons a step left / right (stays; FS2)", {"F": "aileron_step_left", "H": "aileron_step_right"}),
    ("G", "centre the ailerons and rudder (FS2)", {"G": "centre_controls"}),
    ("Z / C", "rudder a step left / right (stays)", {"Z": "rudder_step_left", "C": "rudder_step_right"}),
    ("Left / Right", "throttle 5 % down / up (seed 001)", {"LEFT": "throttle_step_down", "RIGHT": "throttle_step_up"}),
    ("Y / N", "flaps a notch up / down (seed 001)", {"Y": "flaps_up", "N": "flaps_down"}),
    ("( / )", "pitch trim a step nose up / down (FS2)", {"SHIFT+_9": "trim_step_up", "SHIFT+_0": "trim_step_down"}),
    ("U", "gear up / down (FS2)", {"U": "gear"}),
    (".", "wheel brakes (hold)", {"PERIOD": "brake"}),
    ("[ / ], J", "mixture a step leaner / richer, carburettor heat on / off",
     {"BRACKETLEFT": "mixture_step_lean", "BRACKETRIGHT": "mixture_step_rich", "J": "carb_heat"}),
    ("Up / Down", "stick forward / back while held", {"UP": "pitch_down", "DOWN": "pitch_up"}),
]
