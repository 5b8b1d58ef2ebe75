"""The flight log: landing judgement and the debrief, fed one snapshot at a time.

Pure Python (numpy for small vectors): the game feeds it the newest snapshot every frame
(repeats are ignored), the tests feed it snapshots they make. It keeps what a glider
pilot's logger and an instructor watching the landing would note:

* the flight: take-off (or air start) time and place, time airborne, the highest point
  (ASL and above the ground), the distance flown (the track over the ground, summed
  while airborne) and the greatest distance from the start, the best climb (total-energy
  climb averaged over ``CLIMB_WINDOW_S``, the averager's figure; the climb on a winch
  cable does not count), the winch release height above the launch point when there
  was a winch launch;
* the touchdown: the sink rate just before the wheel met the ground, the airspeed, the
  bank (wings level?), how far the airbrakes were out, the wheel down or not, and where:
  on the runway (the airfield spec's runway rectangle), on the airfield beside it, or an
  out-landing; then the grade;
* rest: the glider stopped (ground speed under 0.5 m/s for 2 s) after the landing --
  the moment the game shows the debrief panel.

Grades by the sink rate at touchdown (assumed thresholds from glider training practice,
not a published standard: a well-held-off landing touches at a few tenths of a m/s;
1 m/s is already felt; 2 m/s is a thump the instructor comments on; 3 m/s and more
risks the gear, the tail boom and the pilot's back -- for comparison the instruments'
LandingJudge, after seed 001, calls a touchdown under 2 m/s good and 3.5 m/s a crash):

    < 1.0 m/s  good       < 2.0 m/s  firm       < 3.0 m/s  hard       else  damage

A wingtip, the nose or the fin striking the ground faster than ``CRASH_STRIKE_MS``
before the wheel has touched is a crash whatever the sink (a strike on the ground run before
the take-off, a wingtip dragged in a crosswind launch, is not; the physics keeps the hardest
strike since the start, so a later strike slower than that one goes unseen); a wing
touching down more than ``WING_LEVEL_DEG`` of bank, a wheel-up landing or an out-landing are noted against the
landing (and a wheel-up landing is graded "damage" whatever the sink: the belly takes it).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np

G0 = 9.80665
GRADES = ("good", "firm", "hard", "damage", "crash")
GRADE_LIMITS_MS = (1.0, 2.0, 3.0)          # good below the first, firm, hard, damage above the last
WING_LEVEL_DEG = 10.0
CRASH_STRIKE_MS = 5.0
ARM_HEIGHT_M = 5.0                         # airborne above this before a touchdown counts
CLIMB_WINDOW_S = 30.0
REST_SPEED_MS = 0.5
REST_TIME_S = 2.0


def grade_for_sink(sink_ms: float) -> str:
    for limit, name in zip(GRADE_LIMITS_MS, GRADES):
        if sink_ms < limit:
            return name
    return "damage"


def _euler(q):
    w, x, y, z = (float(v) for v in q)
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(min(max(2 * (w * y - z * x), -1.0), 1.0))
    return roll, pitch


def place_of(airfield, north_m: float, east_m: float) -> tuple[str, float, float]:
    """("runway" | "airfield" | "out-landing", metres along the runway from its centre, metres right of it)."""
    along, right = airfield.from_world(north_m, east_m)
    if abs(along) <= airfield.length_m / 2 and abs(right) <= airfield.width_m / 2:
        return "runway", along, right
    # the mown field around the strip, inside the flattened ground (a glider may land beside the runway)
    if abs(along) <= airfield.length_m / 2 + 100.0 and abs(right) <= 150.0:
        return "airfield", along, right
    return "out-landing", along, right


@dataclass
class Touchdown:
    time_s: float
    sink_ms: float
    ias_kmh: float
    bank_deg: float
    pitch_deg: float
    airbrake: float              # 0..1 where the airbrakes were
    wheel_down: bool
    place: str                   # runway, airfield, out-landing
    along_m: float               # along the runway from its centre (- before the middle)
    right_m: float
    grade: str
    notes: list = field(default_factory=list)

    @property
    def text(self) -> str:
        where = {"runway": "on the runway", "airfield": "on the airfield beside the runway",
                 "out-landing": "OUT-LANDING"}[self.place]
        return f"{self.grade.upper()} landing {where}: sink {self.sink_ms:.1f} m/s at {self.ias_kmh:.0f} km/h"


class FlightLog:
    """Feed snapshots in order with ``update(snap)``; read ``touchdown``, ``at_rest`` and ``debrief()``."""

    def __init__(self, airfield=None):
        self.airfield = airfield
        self.reset()

    def reset(self):
        self.start_ned = None
        self.start_time_s = None
        self.takeoff_time_s = None
        self.landed_time_s = None
        self.airborne = False
        self.armed = False
        self.max_alt_m = -1e9
        self.max_agl_m = 0.0
        self.track_m = 0.0
        self.max_dist_m = 0.0
        self.best_climb_ms = None
        self.release_height_m = None
        self.touchdown: Touchdown | None = None
        self.crash: str | None = None
        self.at_rest = False
        self.last_time_s = None
        self._epoch = None
        self._prev = None
        self._energy = deque()
        self._sinks = deque()
        self._slow_since = None
        self._strike_on_ground = (-1, 0.0)
        self._on_cable = False

    # ------------------------------------------------------------------ feeding
    def update(self, s, on_cable: bool = False, release_altitude_m: float | None = None) -> None:
        """One snapshot (the newest; repeats of the same tick are ignored). ``on_cable``: still
        on the winch (the launch is not a climb in lift); ``release_altitude_m``: the winch's
        release altitude (m ASL) once known -- the debrief gives it above the launch point."""
        if s is None:
            return
        if self._epoch is not None and s.epoch != self._epoch:
            self.reset()                                   # a reset of the flight: a new log
        self._epoch = s.epoch
        self._on_cable = bool(on_cable)
        if self._prev is not None and s.tick == self._prev.tick:
            return
        if float(s.tas_ms) <= 0.0 and float(s.ias_ms) <= 0.0 and not s.on_ground:
            return                                         # published before the first step
        t = float(s.time_s)
        pos = np.asarray(s.position_ned_m, dtype=np.float64)
        if self.start_ned is None:
            self.start_ned = pos.copy()
            self.start_time_s = t
        if release_altitude_m is not None and self.release_height_m is None:
            self.release_height_m = float(release_altitude_m) + float(self.start_ned[2])
        on_ground = int(s.on_ground) > 0
        agl = float(s.height_agl_m)
        if not on_ground and agl > 1.0 and not self.airborne and self.landed_time_s is None:
            self.airborne = True
            # a wingtip dragged on the ground run (a crosswind launch) is not a strike in flight
            self._strike_on_ground = (int(s.strike_index), float(s.strike_speed_ms))
            self.takeoff_time_s = t if self.takeoff_time_s is None else self.takeoff_time_s
        if self.airborne and agl > ARM_HEIGHT_M:
            self.armed = True
        prev = self._prev
        if self.airborne and prev is not None:
            self.track_m += float(np.hypot(*(pos[:2] - np.asarray(prev.position_ned_m[:2]))))
        self.max_alt_m = max(self.max_alt_m, float(s.altitude_m))
        self.max_agl_m = max(self.max_agl_m, agl)
        self.max_dist_m = max(self.max_dist_m, float(np.hypot(*(pos[:2] - self.start_ned[:2]))))
        # the averager: total-energy climb over the window
        if self.airborne and not self._on_cable:
            e = float(s.altitude_m) + float(s.tas_ms) ** 2 / (2 * G0)
            self._energy.append((t, e))
            while self._energy and t - self._energy[0][0] > CLIMB_WINDOW_S:
                self._energy.popleft()
            t0, e0 = self._energy[0]
            if t - t0 >= CLIMB_WINDOW_S - 0.05:
                c = (e - e0) / (t - t0)
                self.best_climb_ms = c if self.best_climb_ms is None else max(self.best_climb_ms, c)
        # sink just before contact: the largest descent rate over the last 0.2 s in the air
        if not on_ground:
            self._sinks.append((t, max(float(s.velocity_ned_ms[2]), 0.0)))
            while self._sinks and t - self._sinks[0][0] > 0.2:
                self._sinks.popleft()
        # strikes (wingtip, nose, fin) before the wheel: a crash when hard
        if int(s.strike_index) >= 0 and float(s.strike_speed_ms) > CRASH_STRIKE_MS and self.crash is None \
                and self.touchdown is None and self.airborne \
                and (int(s.strike_index), float(s.strike_speed_ms)) != self._strike_on_ground:
            self.crash = f"airframe struck the ground at {float(s.strike_speed_ms):.1f} m/s"
            self._touch(s, t, pos, crashed=True)
        elif self.armed and self.touchdown is None and on_ground and (prev is None or int(prev.on_ground) == 0):
            self._touch(s, t, pos)
        if self.touchdown is not None:
            v = float(np.hypot(*np.asarray(s.velocity_ned_ms[:2])))
            if on_ground and v < REST_SPEED_MS:
                self._slow_since = t if self._slow_since is None else self._slow_since
                if t - self._slow_since >= REST_TIME_S:
                    self.at_rest = True
            else:
                self._slow_since = None
        self.last_time_s = t
        self._prev = s

    def _touch(self, s, t, pos, crashed=False):
        sink = max((v for _, v in self._sinks), default=max(float(s.velocity_ned_ms[2]), 0.0))
        roll, pitch = _euler(s.quat_wxyz)
        if self.airfield is not None:
            place, along, right = place_of(self.airfield, pos[0], pos[1])
        else:
            place, along, right = "out-landing", 0.0, 0.0
        wheel_down = float(getattr(s, "gear_up", 0.0)) < 0.5
        grade = "crash" if crashed else grade_for_sink(sink)
        notes = []
        if crashed:
            notes.append(self.crash)
        if abs(math.degrees(roll)) > WING_LEVEL_DEG:
            notes.append(f"touched down with {abs(math.degrees(roll)):.0f} deg of bank: wings not level")
        if not wheel_down:
            notes.append("wheel up: a belly landing")
            if grade in ("good", "firm", "hard"):
                grade = "damage"
        air = self._prev if self._prev is not None and int(self._prev.on_ground) == 0 else s
        ab = float(getattr(air, "airbrake", 0.0))           # as they were in the air, not as opened after
        notes.append("airbrakes " + ("in" if ab < 0.05 else "full out" if ab > 0.95 else f"{ab * 100:.0f}% out"))
        if place == "out-landing":
            notes.append("out-landing: off the airfield")
        self.touchdown = Touchdown(t, sink, float(s.ias_ms) * 3.6, math.degrees(roll), math.degrees(pitch), ab,
                                   wheel_down, place, along, right, grade, notes)
        self.landed_time_s = t
        self.airborne = False

    # ------------------------------------------------------------------ reading
    @property
    def grade(self) -> str | None:
        return None if self.touchdown is None else self.touchdown.grade

    def flight_time_s(self) -> float:
        if self.takeoff_time_s is None:
            return 0.0
        end = self.landed_time_s if self.landed_time_s is not None else (self.last_time_s or self.takeoff_time_s)
        return max(end - self.takeoff_time_s, 0.0)

    def debrief(self) -> dict:
        """The debrief: numbers (SI, unit in the key) and the landing's judgement."""
        td = self.touchdown
        return {
            "flight_time_s": self.flight_time_s(),
            "max_altitude_m": None if self.max_alt_m < -1e8 else self.max_alt_m,
            "max_height_agl_m": self.max_agl_m,
            "distance_flown_m": self.track_m,
            "max_distance_from_start_m": self.max_dist_m,
            "best_climb_ms": self.best_climb_ms,
            "release_height_m": self.release_height_m,
            "landed": td is not None,
            "landing_grade": None if td is None else td.grade,
            "touchdown_sink_ms": None if td is None else td.sink_ms,
            "touchdown_ias_kmh": None if td is None else td.ias_kmh,
            "touchdown_bank_deg": None if td is None else td.bank_deg,
            "touchdown_airbrake": None if td is None else td.airbrake,
            "landing_place": None if td is None else td.place,
            "touchdown_along_m": None if td is None else td.along_m,
            "landing_notes": [] if td is None else list(td.notes),
            "landing_text": None if td is None else td.text,
            "at_rest": self.at_rest,
        }

    def debrief_lines(self) -> list[str]:
        """The debrief as lines of text for the panel."""
        d = self.debrief()
        t = d["flight_time_s"]
        lines = ["DEBRIEF",
                 f"flight time        {int(t // 60):d} min {int(t % 60):02d} s",
                 f"maximum height     {d['max_altitude_m']:.0f} m ASL, {d['max_height_agl_m']:.0f} m above ground"
                 if d["max_altitude_m"] is not None else "maximum height     -",
                 f"distance flown     {d['distance_flown_m'] / 1000:.1f} km "
                 f"(furthest {d['max_distance_from_start_m'] / 1000:.1f} km from the start)"]
        if d["release_height_m"] is not None:
            lines.append(f"winch release      {d['release_height_m']:.0f} m")
        if d["best_climb_ms"] is not None:
            lines.append(f"best climb         {d['best_climb_ms']:+.1f} m/s ({CLIMB_WINDOW_S:.0f} s average)"
                         if d["best_climb_ms"] > 0.0 else "best climb         none (no lift used)")
        if d["landed"]:
            lines.append(f"landing            {d['landing_grade'].upper()}: sink {d['touchdown_sink_ms']:.1f} m/s, "
                         f"{d['touchdown_ias_kmh']:.0f} km/h, {d['landing_place']}")
            lines += ["  " + n for n in d["landing_notes"]]
        return lines
