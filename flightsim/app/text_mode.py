"""Seed 001's text-mode simulator: the game's flight in a terminal, no window and no GL.

    python run.py --text [--aircraft c172p] [--scenario S]

FLTSIM2D (seed 001) flies a Cessna 172 from a 40-column text screen with Flight Simulator
II's keys. This is the same idea over the game's own World: the scenario's start, terrain,
weather and aircraft, the physics in its 50 Hz thread, the controls posted to its mailbox by
``KeyboardControls`` from FS2's step keys (flightsim/input/fs2.py: a terminal sends presses,
never releases, which is why FS2 moved a control a step per press and left it there), and the
touchdown or crash judged by the game's FlightLog. The screen is redrawn ``REDRAW_HZ`` times a
second with the seed's readouts in its order and units (knots, feet, feet a minute), and more:

    KTAS / KIAS, PITCH / BANK, ALT. / AGL, VRATE, HDG      the seed's dashboard, plus bank,
                                                            heading and indicated airspeed
    ELEV. AIL. RUD. TRIM, POWER (rpm), FLAPS (degrees)      where the controls are
    STALL                                                   the stall warning (the
                                                            instruments' StallWarner), and the
                                                            terminal bell while it is on
    DIST., TIME, RATE                                       from the runway (and its bearing: in
                                                            a text display the runway is not
                                                            seen), the flight's time, the
                                                            simulation rate (% of real time)

It works over ssh and in tmux (curses). The readout itself (``readout_lines``) is a pure
function of a snapshot, tested without a terminal.
"""
from __future__ import annotations

import math
import textwrap
import time

import numpy as np

from ..input.fs2 import TERMINAL_APP_KEYS, TERMINAL_HELP, TERMINAL_KEYS
from ..runtime.handoff import DT

REDRAW_HZ = 8.0
BRAKE_HOLD_S = 0.4          # a "." press holds the brakes this long (a terminal's key repeat keeps them on)
KT = 1.0 / 0.514444         # knots per m/s
FT = 1.0 / 0.3048           # feet per metre
YD = 1.0 / 0.9144           # yards per metre


def readout_lines(snap, *, runway_ne, stall_level=0, flap_deg=None, sim_rate=None, title="", message="") -> list[str]:
    """The text screen's lines for one snapshot: seed 001's readouts in its order and units.

    ``runway_ne``: the runway's middle (north, east, m); ``flap_deg``: the flap travel in degrees
    (None: shown as the lever's fraction); ``sim_rate``: simulated / real time."""
    roll, pitch, yaw = snap.euler_rad
    c = snap.controls
    d = np.asarray(snap.position_ned_m[:2], dtype=np.float64) - np.asarray(runway_ne, dtype=np.float64)
    dist_m = float(np.hypot(d[0], d[1]))
    bearing = math.degrees(math.atan2(-d[1], -d[0])) % 360.0      # to the runway's middle, from north
    t = float(snap.time_s)
    flaps = f"{c.flap * flap_deg:5.0f} deg" if flap_deg else f"{c.flap:5.2f}"
    rpm = f"   RPM {snap.engine_rpm:5.0f}" if snap.engine_rpm > 0.0 else ""
    if snap.carb_temp_k > 0.0:          # a carburetted engine: the mixture, the carburettor heat and air
        rpm += f"   MIXT. {100.0 * (1.0 - c.mixture_lean):3.0f} %   CARB {snap.carb_temp_k - 273.15:+4.0f} C"
        rpm += "  HEAT" if c.carb_heat > 0.5 else ""
    stall = {0: "", 1: "STALL", 2: "STALL !!"}[int(stall_level)]
    rate = "  --" if sim_rate is None else f"{100.0 * sim_rate:4.0f}"
    return [
        title,
        "",
        f"KTAS  {snap.tas_ms * KT:6.0f}      KIAS  {snap.ias_ms * KT:6.0f}",
        f"PITCH {math.degrees(pitch):+6.1f}      BANK  {math.degrees(roll):+6.1f}",
        f"ALT.  {snap.altitude_m * FT:6.0f} ft   AGL   {snap.height_agl_m * FT:6.0f} ft",
        f"VRATE {snap.vertical_speed_ms * FT * 60.0:+6.0f} ft/min",
        f"HDG   {math.degrees(yaw) % 360.0:6.0f}",
        "",
        f"ELEV. {100.0 * c.pitch:+6.0f} %    AIL. {100.0 * c.roll:+4.0f} %  RUD. {100.0 * c.yaw:+4.0f} %"
        f"  TRIM {100.0 * c.pitch_trim:+4.0f} %",
        f"POWER {100.0 * c.throttle:6.0f} %{rpm}",
        f"FLAPS {flaps}" + ("   BRAKES" if max(c.brake_left, c.brake_right) > 0.0 else ""),
        "",
        f"STALL {stall}",
        "",
        f"DIST. {dist_m * YD:6.0f} yd from the runway ({dist_m / 1000.0:.2f} km), bearing {bearing:05.1f}",
        f"TIME  {int(t // 60):3d}:{t % 60:04.1f}    RATE {rate} %",
        "",
        *message.split("\n"),
    ]


def key_name(ch) -> str | None:
    """A curses key (an int from getch) as TERMINAL_KEYS names it: a lower-case character, or
    curses' name for an arrow key; None for nothing pressed."""
    if ch is None or ch < 0:
        return None
    import curses
    if ch in (curses.KEY_LEFT, curses.KEY_RIGHT):
        return "KEY_LEFT" if ch == curses.KEY_LEFT else "KEY_RIGHT"
    if ch > 255:
        return None
    return chr(ch).lower()


class TextFlight:
    """One flight in the terminal: keys to the controls, the physics thread flying, the screen
    redrawn, the flight log judging; ``run`` returns when Q (or Esc) is pressed."""

    def __init__(self, world, screen=None):
        from ..input.keyboard import KeyboardControls
        from ..instruments import spec as instrument_spec
        from ..instruments.state import StallWarner
        from ..world.flight_log import FlightLog
        self.world = world
        self.screen = screen
        self.keys = KeyboardControls(world.initial_inputs)
        self.log = FlightLog(world.terrain.airfield)
        self.stall = StallWarner(instrument_spec.load(world.compiled).stall_kmh)
        af = world.terrain.airfield
        self.runway_ne = (af.north_m, af.east_m)
        flaps = [s for s in world.compiled.spec.sections if s.get("control") == "flap"]
        self.flap_deg = float(flaps[0]["control_max_deg"]) if flaps else None
        self.stall_level = 0
        self.title = f"FLIGHT SIMULATOR 2D  -  {world.compiled.name}, {world.scenario.name}"
        from ..instruments.instructor import for_world
        self.instructor = for_world(world)          # a first solo's instructor, or None
        self.message = ""
        self.brake_until = -1.0
        self.paused = False
        self.quit = False
        self._rate = (time.monotonic(), 0.0, None)    # (wall, sim, rate) for the RATE readout

    # ------------------------------------------------------------------ input
    def key(self, name: str | None, now_s: float) -> None:
        """One key press (key_name's name)."""
        if name is None:
            return
        app = TERMINAL_APP_KEYS.get(name)
        if app == "quit":
            self.quit = True
        elif app == "pause":
            self.paused = not self.paused
            (self.world.physics.pause if self.paused else self.world.physics.resume)()
        elif app == "reset":
            self.keys.reset(self.world.initial_inputs)
            self.log.reset()
            self.message = ""
            self.world.reset()
            if self.instructor is not None:
                from ..instruments.instructor import for_world
                self.instructor = for_world(self.world)
        action = TERMINAL_KEYS.get(name)
        if action == "brake":
            self.keys.press("brake")
            self.brake_until = now_s + BRAKE_HOLD_S
        elif action is not None:
            self.keys.press(action)

    def controls(self, now_s: float, dt_s: float):
        """The controls to post now (the brakes let go once their hold is over)."""
        if now_s > self.brake_until:
            self.keys.release("brake")
        return self.keys.update(dt_s)

    # ------------------------------------------------------------------ judging
    def judge(self, snap) -> None:
        """The flight log's verdict on the latest snapshot, as the screen's message."""
        log = self.log
        log.update(snap)
        if log.crash is not None:
            self.message = f"YOU CRASHED!  {log.crash}\n(R restarts, Q quits)"
        elif log.touchdown is not None:
            self.message = f"TOUCHDOWN  {log.touchdown.text}" + ("\n(R restarts, Q quits)" if log.at_rest else "")

    def lines(self, snap) -> list[str]:
        wall, sim, rate = self._rate
        now = time.monotonic()
        if now - wall >= 1.0:
            rate = (float(snap.time_s) - sim) / (now - wall)
            self._rate = (now, float(snap.time_s), rate)
        self.stall_level = stall = self.stall.update(snap)
        lines = readout_lines(snap, runway_ne=self.runway_ne, stall_level=stall, flap_deg=self.flap_deg,
                              sim_rate=rate, title=self.title, message=self.message)
        if self.instructor is not None:
            said = textwrap.wrap("INSTRUCTOR: " + self.instructor.update(snap), 78)
            lines[1:2] = said + [""]
            if self.log.at_rest and self.log.touchdown is not None:
                self.instructor.judged(self.log.touchdown)
                lines += self.instructor.debrief_lines()
        return lines + ["", *TERMINAL_HELP]

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        import curses
        scr = self.screen
        curses.curs_set(0)
        scr.nodelay(True)
        scr.keypad(True)
        physics = self.world.physics
        physics.start()
        last = time.monotonic()
        next_draw = last
        try:
            while not self.quit:
                now = time.monotonic()
                while True:                        # every key typed since the last pass
                    ch = scr.getch()
                    if ch < 0:
                        break
                    self.key(key_name(ch), now)
                if self.quit:
                    break
                self.world.mailbox.post(self.controls(now, now - last))
                last = now
                snap = self.world.buffer.read()[1]
                if snap is not None:
                    self.judge(snap)
                    if now >= next_draw:
                        next_draw = now + 1.0 / REDRAW_HZ
                        self.draw(scr, self.lines(snap))
                time.sleep(DT)
        finally:
            physics.stop()
        return 0

    def draw(self, scr, lines: list[str]) -> None:
        import curses
        scr.erase()
        h, w = scr.getmaxyx()
        for y, text in enumerate(lines[:h]):
            try:
                scr.addstr(y, 0, text[:w - 1])
            except curses.error:                   # the last cell of a tiny terminal
                pass
        if self.stall_level:
            curses.beep()                          # the seed's bell while the stall warning is on
        scr.refresh()


def text_mode(args) -> int:
    """``run.py --text``: the scenario's World flown from the terminal (curses)."""
    import curses
    import sys

    from ..world.assembly import World
    from ..world.scenario import find_scenario
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("flightsim: --text needs a terminal (run it in a terminal, over ssh or in tmux)", file=sys.stderr)
        return 2
    world = World(args.aircraft, find_scenario(args.scenario))
    return curses.wrapper(lambda scr: TextFlight(world, scr).run())
