"""The instruments' own memory: needle lags, peak G, the landing judge, the sim-rate meter.

A real instrument is not a pure function of the moment: a variometer needle lags about
a second, a G meter's telltale needles keep the peaks, a compass card swings. These
small classes keep that state and are fed snapshots in order (numpy + stdlib only).
``Instruments`` bundles them; the renderer and the sound read its attributes.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from . import values as V


class Variometer:
    """Total-energy (or plain) variometer: the rate between snapshots through a first-order lag."""

    def __init__(self, time_constant_s: float = 1.0, total_energy: bool = True):
        self.tau = float(time_constant_s)
        self.total_energy = total_energy
        self.value = 0.0
        self._started = False

    def reset(self):
        self.value = 0.0
        self._started = False

    def update(self, prev, curr) -> float:
        if self.total_energy:
            rate = V.te_rate_ms(prev, curr)
        elif prev is not None and prev.epoch == curr.epoch and curr.time_s > prev.time_s:
            rate = (prev.position_ned_m[2] - curr.position_ned_m[2]) / (curr.time_s - prev.time_s)
        else:
            rate = None
        if rate is None:
            return self.value
        if not self._started:
            self.value = float(rate)
            self._started = True
        else:
            self.value = V.lag(self.value, float(rate), float(curr.time_s - prev.time_s), self.tau)
        return self.value


class AverageClimb:
    """Total-energy climb averaged over the last ``window_s`` seconds (the averager a glider pilot centres by)."""

    def __init__(self, window_s: float = 20.0):
        self.window_s = window_s
        self._hist: deque = deque()

    def reset(self):
        self._hist.clear()

    def update(self, s) -> float | None:
        t = float(s.time_s)
        self._hist.append((t, V.energy_height_m(s)))
        while self._hist and t - self._hist[0][0] > self.window_s:
            self._hist.popleft()
        t0, e0 = self._hist[0]
        if t - t0 < 2.0:
            return None
        return (self._hist[-1][1] - e0) / (t - t0)


class PeakG:
    """G meter with telltale needles: the highest and lowest load factor since reset."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.max_g = 1.0
        self.min_g = 1.0

    def update(self, g: float) -> None:
        self.max_g = max(self.max_g, g)
        self.min_g = min(self.min_g, g)


class SimRate:
    """Simulated seconds per real second over a sliding window (seed 001's "rate %")."""

    def __init__(self, window_s: float = 1.0):
        self.window_s = window_s
        self._hist: deque = deque()

    def reset(self):
        self._hist.clear()

    def update(self, sim_s: float, real_s: float) -> float | None:
        self._hist.append((float(real_s), float(sim_s)))
        while len(self._hist) > 2 and real_s - self._hist[0][0] > self.window_s:
            self._hist.popleft()
        r0, s0 = self._hist[0]
        if real_s - r0 < 0.25:
            return None
        return (sim_s - s0) / (real_s - r0)


@dataclass(frozen=True)
class LandingEvent:
    kind: str          # "touchdown", "hard", "crash", "strike"
    sink_ms: float     # vertical speed just before contact (touchdowns) or the contact speed (strikes)
    ias_kmh: float
    time_s: float
    text: str


class LandingJudge:
    """Touchdown or crash, judged like seed 001: once the aircraft has been more than 9 m
    up, the first gear contact ends the flight; under 2 m/s of sink it is a TOUCHDOWN.

    Added here: 2..3.5 m/s is a HARD LANDING, more a CRASH (assumed limits), and a
    non-gear contact (wingtip, nose, fin) striking faster than 5 m/s is a CRASH;
    slower it is reported but harmless (a glider's wingtip settles on the ground)."""

    ARM_HEIGHT_M = 9.0
    SAFE_SINK_MS = 2.0
    CRASH_SINK_MS = 3.5
    CRASH_STRIKE_MS = 5.0
    # a glider parked or rolling on the runway rests a wingtip or its tail skid on the grass:
    # a touch slower than this before the aircraft has flown is not news
    QUIET_STRIKE_MS = 1.0

    def __init__(self, contact_names=()):
        self.contact_names = list(contact_names)
        self.reset()

    def reset(self):
        self.armed = False
        self._sink = 0.0
        self._strike_speed = 0.0
        self.last: LandingEvent | None = None

    def _contact(self, i: int) -> str:
        if 0 <= i < len(self.contact_names):
            return self.contact_names[i].replace("_", " ")
        return "airframe"

    def update(self, prev, curr) -> LandingEvent | None:
        ev = None
        if int(curr.on_ground) == 0:
            self._sink = max(float(curr.velocity_ned_ms[2]), 0.0)     # NED: + down
            if float(curr.height_agl_m) > self.ARM_HEIGHT_M:
                self.armed = True
        if curr.strike_index >= 0 and curr.strike_speed_ms > self._strike_speed + 1e-6:
            self._strike_speed = float(curr.strike_speed_ms)
            sp = self._strike_speed
            what = self._contact(int(curr.strike_index))
            if sp < self.QUIET_STRIKE_MS and not self.armed:
                pass
            elif sp > self.CRASH_STRIKE_MS:
                ev = LandingEvent("crash", sp, V.ias_kmh(curr), float(curr.time_s),
                                  f"CRASH  {what} hit at {sp:.1f} m/s")
            else:
                ev = LandingEvent("strike", sp, V.ias_kmh(curr), float(curr.time_s),
                                  f"{what} touched at {sp:.1f} m/s")
            self.armed = self.armed and sp <= self.CRASH_STRIKE_MS
        if (self.armed and prev is not None and int(prev.on_ground) == 0 and int(curr.on_ground) > 0
                and (ev is None or ev.kind != "crash")):
            sink = self._sink
            ias = V.ias_kmh(curr)
            if sink < self.SAFE_SINK_MS:
                ev = LandingEvent("touchdown", sink, ias, float(curr.time_s), f"TOUCHDOWN  sink {sink:.1f} m/s")
            elif sink < self.CRASH_SINK_MS:
                ev = LandingEvent("hard", sink, ias, float(curr.time_s), f"HARD LANDING  sink {sink:.1f} m/s")
            else:
                ev = LandingEvent("crash", sink, ias, float(curr.time_s), f"CRASHED  sink {sink:.1f} m/s")
            self.armed = False
        if ev is not None:
            self.last = ev
        return ev


class StallWarner:
    """stall_warning() with a hold: once on, a level stays at least ``hold_s`` (no flicker)."""

    def __init__(self, stall_1g_kmh=None, hold_s: float = 0.6):
        self.stall_1g_kmh = stall_1g_kmh
        self.hold_s = hold_s
        self.reset()

    def reset(self):
        self.level = 0
        self._until = -1.0

    def update(self, s) -> int:
        lvl = V.stall_warning(s, self.stall_1g_kmh)
        t = float(s.time_s)
        if lvl >= self.level:
            self.level = lvl
            if lvl > 0:
                self._until = t + self.hold_s
        elif t >= self._until:
            self.level = lvl
        return self.level


class Instruments:
    """Every reading the cockpit, the HUD and the sound need, fed one snapshot at a time."""

    def __init__(self, spec, contact_names=()):
        self.spec = spec
        self.vario = Variometer(spec.vario_time_constant_s, total_energy=True)
        self.vsi = Variometer(spec.vario_time_constant_s * 0.5, total_energy=False)
        self.average = AverageClimb()
        self.peak = PeakG()
        self.judge = LandingJudge(contact_names)
        self.stall = StallWarner(spec.stall_kmh)
        self.rate = SimRate()
        self.prev = None
        self.snap = None
        self.g = 1.0
        self.heading = 0.0
        self.average_ms = None
        self.sim_rate = None
        self.start_ned = None
        self.event: LandingEvent | None = None
        self.event_real_s = -1e9
        self._epoch = None

    def reset(self):
        for part in (self.vario, self.vsi, self.average, self.peak, self.judge, self.stall, self.rate):
            part.reset()
        self.prev = None
        self.event = None
        self.start_ned = None

    def update(self, snap, real_s: float) -> None:
        """Feed the newest snapshot (call every frame; repeated snapshots only advance the clocks)."""
        if snap is None:
            return
        if self._epoch != snap.epoch:
            self.reset()
            self._epoch = snap.epoch
        if self.start_ned is None:
            self.start_ned = tuple(float(x) for x in snap.position_ned_m)
        if snap.paused:                       # a pause is not a slow simulation: start the meter afresh
            self.rate.reset()
            self.sim_rate = None
        else:
            self.sim_rate = self.rate.update(float(snap.time_s), real_s)
        if self.snap is not None and snap.tick == self.snap.tick and snap.epoch == self.snap.epoch:
            return
        if not V.air_data_valid(snap):      # published before the first physics step: nothing measured yet
            return
        prev = self.snap if self.snap is not None and self.snap.epoch == snap.epoch else None
        self.prev, self.snap = prev, snap
        self.vario.update(prev, snap)
        self.vsi.update(prev, snap)
        self.average_ms = self.average.update(snap)
        g = V.load_factor_between(prev, snap) if prev is not None else None
        self.g = V.load_factor(snap) if g is None else g
        if not snap.paused:
            self.peak.update(self.g)
        h = V.heading_deg(snap)
        d = (h - self.heading + 540.0) % 360.0 - 180.0
        dt = 0.0 if prev is None else float(snap.time_s - prev.time_s)
        self.heading = h if prev is None else (self.heading + d * (1.0 - math.exp(-dt / 0.25))) % 360.0
        self.stall.update(snap)
        ev = self.judge.update(prev, snap)
        if ev is not None:
            self.event, self.event_real_s = ev, real_s

    @property
    def stall_level(self) -> int:
        return self.stall.level

    def message(self, real_s: float, show_s: float = 8.0) -> LandingEvent | None:
        """The latest landing / crash event while it is fresh (crashes stay until reset)."""
        if self.event is None:
            return None
        if self.event.kind == "crash" or real_s - self.event_real_s < show_s:
            return self.event
        return None
