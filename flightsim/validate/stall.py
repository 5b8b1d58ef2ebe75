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
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config=config, altitude_m=0.0))
    sim = test_sim(aircraft, mass_kg)
    start = 1.3 * vs / math.sqrt(math.cos(math.radians(bank_deg)))     # 1.3 times the stall in the turn
    if trim_straight(sim, start, altitude_m, config, "idle") is None:
        raise RuntimeError("no trim at 1.3 Vs")
    c = sim.controls.copy()
    c0 = c.copy()
    bank_rad = math.radians(bank_deg)
    hands = _TurnHands(0.0)
    entry_s = 10.0 if bank_deg else 0.0        # rolled into the turn at 10 deg/s, the speed held
    vs_turn = vs / math.sqrt(math.cos(bank_rad))
    h0 = sim.altitude_m
    target = prev = start
    held = 0.0                                 # the pilot's slow part of the pull
    buffet_kmh = None
    min_kmh = 1e9
    t_break = None
    how = None
    full_back_s = 0.0
    stalled_s = 1e9                            # since a wing section was last past its stall
    peak_bank = peak_p = peak_p_own = 0.0
    peak_into = peak_away = 0.0                # signed: the turn's way and the other way
    recovered_s = None
    turn = 1.0 if bank_deg >= 0.0 else -1.0
    for k in range(int((90.0 + entry_s) / DT)):
        t = k * DT
        ias = sim.ias_kmh if k else target      # (diag is set by a step)
        if t_break is None:
            # slow down at the card's rate: the stick moved for the speed error and its trend
            # (and a slow part for the pull the falling speed needs), the bank held with aileron
            rate = rate_kmh_s if t >= entry_s else 0.0
            d_ias = (ias - prev) / DT if k else -rate
            target = max(target - rate * DT, 0.5 * vs)
            err = (ias - target) / vs
            held = float(np.clip(held + 0.5 * err * DT, -1.0, 1.0))
            c.pitch = float(np.clip(c0.pitch + held + 3.0 * err + 3.0 * (d_ias + rate) / vs, -1.0, 1.0))
            if bank_deg:
                hands.bank_rad = turn * min(abs(bank_rad), math.radians(10.0) * t)
                c.roll = hands.aileron(sim)
                c.yaw = hands.rudder(sim)
            else:
                c.roll = _roll_hold(sim)
        elif t - t_break < HOLD_S:
            c.roll = 0.0                     # past the break the hands stay: the wing drops, or not
        else:                                     # recover: nose down to the glide, wings level
            pitch_err = sim.euler_rad[1] - math.radians(-5.0)
            c.pitch = float(np.clip(-2.0 * pitch_err - 0.5 * sim.pitch_rate_rads, -1.0, 0.2))
            c.roll = _roll_hold(sim)
            c.yaw = float(np.clip(3.0 * sim.beta_rad, -1.0, 1.0)) if bank_deg else c0.yaw
        prev = ias
        sim.step(c.array)
        ias = sim.ias_kmh
        bank = abs(math.degrees(sim.euler_rad[0]))
        off = abs(math.degrees(sim.euler_rad[0] - bank_rad))
        if t < entry_s:
            h0 = sim.altitude_m
        elif t_break is None:
            if buffet_kmh is None and sim.stalled_wing_sections > 0:
                buffet_kmh = ias
            min_kmh = min(min_kmh, ias)
            full_back_s = full_back_s + DT if c.pitch >= 1.0 else 0.0
            stalled_s = 0.0 if sim.stalled_wing_sections > 0 else stalled_s + DT
            rolls = off > 15.0 or abs(math.degrees(sim.roll_rate_rads)) > 15.0
            if rolls and stalled_s <= 1.0:        # (a roll with no wing stalled is no stall)
                t_break, how = t, ("a wing drops" if not bank_deg else
                                   "the inner wing drops" if (sim.euler_rad[0] - bank_rad) * turn > 0.0
                                   else "the outer wing drops")
            elif math.degrees(sim.pitch_rate_rads) < -5.0 and c.pitch > 0.3:
                t_break, how = t, "the nose drops"
            elif full_back_s >= 3.0:
                t_break, how = t, "full back stick held 3 s without a break (it mushes)"
        else:
            peak_bank = max(peak_bank, bank)
            peak_into = max(peak_into, turn * math.degrees(sim.euler_rad[0]))
            peak_away = max(peak_away, -turn * math.degrees(sim.euler_rad[0]))
            peak_p = max(peak_p, abs(math.degrees(sim.roll_rate_rads)))
            if t - t_break <= HOLD_S:               # the stall's own roll, before the pilot's aileron
                peak_p_own = max(peak_p_own, abs(math.degrees(sim.roll_rate_rads)))
            flying = sim.stalled_wing_sections == 0 and ias > 1.1 * vs
            if t - t_break > HOLD_S and flying and bank < 10.0:
                recovered_s = t - t_break
                break
    if t_break is None:
        raise RuntimeError("no stall reached")
    return {"vs_kmh": vs, "vs_turn_kmh": vs_turn, "bank_deg": bank_deg, "buffet_kmh": buffet_kmh,
            "stall_kmh": min_kmh, "break": how,
            "buffet_margin_kmh": None if buffet_kmh is None else buffet_kmh - min_kmh,
            "max_bank_deg": peak_bank, "max_bank_into_turn_deg": peak_into, "max_bank_away_deg": peak_away,
            "max_roll_rate_dps": peak_p, "stall_roll_rate_dps": peak_p_own, "recovered_s": recovered_s,
            "height_lost_m": h0 - sim.altitude_m}


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
