"""Stall cards, flown in 6-DOF as a test pilot flies them.

* ``stall_approach``: trimmed power off (a glider: gliding) at 1.3 times the model's 1 g stall
  speed, the pilot raises the nose to slow at a steady rate (1 mph/s for the P-51D's manual,
  2 km/h/s for CS 22.201), wings held level with aileron, until the break (a wing drops, the
  nose drops, or full back stick has been held 3 s: it mushes); the hands stay as they were
  ``HOLD_S`` past it, then the recovery: stick eased forward to the glide attitude, opposite
  aileron to roll the wings level. Reported: the buffet onset (the first wing section past its
  stall), the stall (the lowest speed reached, as flight tests define it), how it broke, the
  stall's own roll rate (in the second the hands stay), the largest bank and roll rate from the
  break until flying again, the height lost.
* the same card in a turn (``bank_deg``): a coordinated turn held at that bank (aileron for the
  bank, rudder centring the ball) while the pull slows it, as 14 CFR 23.203(a) flies a turning
  flight stall; the break is the bank running 15 degrees away from the turn's, and the bank
  is then followed both ways (the turn's direction, and the opposite) through the recovery.
* ``winch_stall`` (CS 22.201(e)): from straight flight at 1.2 Vs1, the stick pulled rapidly back
  until the nose is 30 degrees up, held until the stall, then eased forward.
"""
from __future__ import annotations

import math

import numpy as np

from .flight import test_sim, trim_straight
from .performance import stall_speed

DT = 0.02
HOLD_S = 1.0


def _roll_hold(sim, bank_rad: float = 0.0) -> float:
    """Aileron for a bank (wings level by default), as a pilot's hands do."""
    return float(np.clip(2.0 * (bank_rad - sim.euler_rad[0]) - 0.5 * sim.roll_rate_rads, -1.0, 1.0))


class _TurnHands:
    """A test pilot's hands in a coordinated turn: aileron holding the bank within a degree or
    two (against a long wing's overbanking as it slows), rudder centring the ball (air from the
    right, right rudder); both with the slow trim a pilot's hands find."""

    def __init__(self, bank_rad: float):
        self.bank_rad = bank_rad
        self.i_bank = self.i_ball = 0.0

    def aileron(self, sim) -> float:
        err = self.bank_rad - sim.euler_rad[0]
        self.i_bank = float(np.clip(self.i_bank + 1.0 * err * DT, -0.6, 0.6))
        return float(np.clip(3.0 * err + self.i_bank - 0.8 * sim.roll_rate_rads, -1.0, 1.0))

    def rudder(self, sim) -> float:
        beta = sim.beta_rad
        self.i_ball = float(np.clip(self.i_ball + 2.0 * beta * DT, -0.6, 0.6))
        return float(np.clip(4.0 * beta + self.i_ball, -1.0, 1.0))


def stall_approach(aircraft, mass_kg=None, config="clean", rate_kmh_s=1.609, altitude_m=1500.0,
                   bank_deg: float = 0.0) -> dict:
    """From 1.3 Vs (in a turn: rolled in at 10 deg/s first) slowed at ``rate_kmh_s`` to the break,
    the hands held through it for HOLD_S, then recovered nose down, wings level: the buffet, the
    stall speed, how it broke, the bank and roll rate it reached, the time and height to recover."""
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config=config, altitude_m=0.0))
    sim = test_sim(aircraft, mass_kg)
    start = 1.3 * vs / math.sqrt(math.cos(math.radians(bank_deg)))     # 1.3 times the stall in the turn
    if trim_straight(sim, start, altitude_m, config, "idle") is None:
        raise RuntimeError("no trim at 1.3 Vs")
    run = _StallRun(sim, vs, start, rate_kmh_s, bank_deg)
    for k in range(int((90.0 + run.entry_s) / DT)):
        if run.step(k):
            break
    if run.t_break is None:
        raise RuntimeError("no stall reached")
    return {"vs_kmh": vs, "vs_turn_kmh": vs / math.sqrt(math.cos(run.bank_rad)), "bank_deg": bank_deg,
            "buffet_kmh": run.buffet_kmh, "stall_kmh": run.min_kmh, "break": run.how,
            "buffet_margin_kmh": None if run.buffet_kmh is None else run.buffet_kmh - run.min_kmh,
            "max_bank_deg": run.peak_bank, "max_bank_into_turn_deg": run.peak_into,
            "max_bank_away_deg": run.peak_away, "max_roll_rate_dps": run.peak_p,
            "stall_roll_rate_dps": run.peak_p_own, "recovered_s": run.recovered_s,
            "height_lost_m": run.h0 - sim.altitude_m}


class _StallRun:
    """stall_approach's pilot and observer, one 20 ms step at a time."""

    def __init__(self, sim, vs, start, rate_kmh_s, bank_deg):
        self.sim, self.vs, self.rate_kmh_s, self.bank_deg = sim, vs, rate_kmh_s, bank_deg
        self.c = sim.controls.copy()
        self.c0 = self.c.copy()
        self.bank_rad = math.radians(bank_deg)
        self.hands = _TurnHands(0.0)
        self.entry_s = 10.0 if bank_deg else 0.0        # rolled into the turn at 10 deg/s, the speed held
        self.h0 = sim.altitude_m
        self.target = self.prev = start
        self.held = 0.0                                 # the pilot's slow part of the pull
        self.buffet_kmh = None
        self.min_kmh = 1e9
        self.t_break = None
        self.how = None
        self.full_back_s = 0.0
        self.stalled_s = 1e9                            # since a wing section was last past its stall
        self.peak_bank = self.peak_p = self.peak_p_own = 0.0
        self.peak_into = self.peak_away = 0.0           # signed: the turn's way and the other way
        self.recovered_s = None
        self.turn = 1.0 if bank_deg >= 0.0 else -1.0

    def step(self, k: int) -> bool:
        """One step: the hands, the aircraft, what it did; True once recovered."""
        sim, t = self.sim, k * DT
        ias = sim.ias_kmh if k else self.target      # (diag is set by a step)
        self._hands(k, t, ias)
        self.prev = ias
        sim.step(self.c.array)
        if t < self.entry_s:
            self.h0 = sim.altitude_m
        elif self.t_break is None:
            self._watch_for_the_break(t, sim.ias_kmh)
        else:
            return self._watch_the_recovery(t, sim.ias_kmh)
        return False

    def _hands(self, k, t, ias) -> None:
        sim, c, vs = self.sim, self.c, self.vs
        if self.t_break is None:
            # slow down at the card's rate: the stick moved for the speed error and its trend
            # (and a slow part for the pull the falling speed needs), the bank held with aileron
            rate = self.rate_kmh_s if t >= self.entry_s else 0.0
            d_ias = (ias - self.prev) / DT if k else -rate
            self.target = max(self.target - rate * DT, 0.5 * vs)
            err = (ias - self.target) / vs
            self.held = float(np.clip(self.held + 0.5 * err * DT, -1.0, 1.0))
            c.pitch = float(np.clip(self.c0.pitch + self.held + 3.0 * err + 3.0 * (d_ias + rate) / vs, -1.0, 1.0))
            if self.bank_deg:
                self.hands.bank_rad = self.turn * min(abs(self.bank_rad), math.radians(10.0) * t)
                c.roll = self.hands.aileron(sim)
                c.yaw = self.hands.rudder(sim)
            else:
                c.roll = _roll_hold(sim)
        elif t - self.t_break < HOLD_S:
            c.roll = 0.0                     # past the break the hands stay: the wing drops, or not
        else:                                     # recover: nose down to the glide, wings level
            pitch_err = sim.euler_rad[1] - math.radians(-5.0)
            c.pitch = float(np.clip(-2.0 * pitch_err - 0.5 * sim.pitch_rate_rads, -1.0, 0.2))
            c.roll = _roll_hold(sim)
            c.yaw = float(np.clip(3.0 * sim.beta_rad, -1.0, 1.0)) if self.bank_deg else self.c0.yaw

    def _watch_for_the_break(self, t, ias) -> None:
        sim = self.sim
        off = abs(math.degrees(sim.euler_rad[0] - self.bank_rad))
        if self.buffet_kmh is None and sim.stalled_wing_sections > 0:
            self.buffet_kmh = ias
        self.min_kmh = min(self.min_kmh, ias)
        self.full_back_s = self.full_back_s + DT if self.c.pitch >= 1.0 else 0.0
        self.stalled_s = 0.0 if sim.stalled_wing_sections > 0 else self.stalled_s + DT
        rolls = off > 15.0 or abs(math.degrees(sim.roll_rate_rads)) > 15.0
        if rolls and self.stalled_s <= 1.0:        # (a roll with no wing stalled is no stall)
            self.t_break, self.how = t, ("a wing drops" if not self.bank_deg else
                                         "the inner wing drops" if (sim.euler_rad[0] - self.bank_rad) * self.turn > 0.0
                                         else "the outer wing drops")
        elif math.degrees(sim.pitch_rate_rads) < -5.0 and self.c.pitch > 0.3:
            self.t_break, self.how = t, "the nose drops"
        elif self.full_back_s >= 3.0:
            self.t_break, self.how = t, "full back stick held 3 s without a break (it mushes)"

    def _watch_the_recovery(self, t, ias) -> bool:
        sim = self.sim
        bank = abs(math.degrees(sim.euler_rad[0]))
        self.peak_bank = max(self.peak_bank, bank)
        self.peak_into = max(self.peak_into, self.turn * math.degrees(sim.euler_rad[0]))
        self.peak_away = max(self.peak_away, -self.turn * math.degrees(sim.euler_rad[0]))
        self.peak_p = max(self.peak_p, abs(math.degrees(sim.roll_rate_rads)))
        if t - self.t_break <= HOLD_S:               # the stall's own roll, before the pilot's aileron
            self.peak_p_own = max(self.peak_p_own, abs(math.degrees(sim.roll_rate_rads)))
        flying = sim.stalled_wing_sections == 0 and ias > 1.1 * self.vs
        if t - self.t_break > HOLD_S and flying and bank < 10.0:
            self.recovered_s = t - self.t_break
            return True
        return False


def winch_stall(aircraft, mass_kg=None, altitude_m=1500.0) -> dict:
    """CS 22.201(e): from straight flight at 1.2 Vs1 the stick pulled rapidly back toward 30 deg
    nose up (as far as the elevator takes it), held until the stall (the nose falls with the
    wing stalled), then eased forward; the largest bank and the time to flying level again."""
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config="clean", altitude_m=0.0))
    sim = test_sim(aircraft, mass_kg)
    if trim_straight(sim, 1.2 * vs, altitude_m, "clean", "idle") is None:
        raise RuntimeError("no trim at 1.2 Vs")
    c = sim.controls.copy()
    t_stall = None
    peak_pitch = peak_bank = 0.0
    recovered_s = None
    for k in range(int(30.0 / DT)):
        t = k * DT
        pitch = math.degrees(sim.euler_rad[1])
        peak_pitch = max(peak_pitch, pitch)
        if t_stall is None:
            c.pitch = float(np.clip(4.0 * (math.radians(30.0) - sim.euler_rad[1]), -0.2, 1.0))
            c.roll = _roll_hold(sim)
            if sim.stalled_wing_sections > 0 and math.degrees(sim.pitch_rate_rads) < -5.0:
                t_stall = t
        else:
            c.pitch = float(np.clip(-2.0 * (sim.euler_rad[1] - math.radians(-5.0))
                                         - 0.5 * sim.pitch_rate_rads, -1.0, 0.2))
            c.roll = 0.0 if t - t_stall < HOLD_S else _roll_hold(sim)
            peak_bank = max(peak_bank, abs(math.degrees(sim.euler_rad[0])))
            if (sim.stalled_wing_sections == 0 and sim.ias_kmh > 1.1 * vs
                    and abs(sim.euler_rad[0]) < math.radians(10) and abs(pitch) < 10.0):
                recovered_s = t - t_stall
                break
        sim.step(c.array)
    return {"vs_kmh": vs, "stalled": t_stall is not None, "peak_pitch_deg": peak_pitch, "max_bank_deg": peak_bank,
            "recovered_s": recovered_s}
