"""The spin card, flown in 6-DOF as a flight manual's spin and recovery (Cessna 172P POH, section 4,
spins; the recovery within 14 CFR 23.221(b)'s one and a half additional turns):

* **Entry.** Trimmed power off at 1.2 Vs, wings level; the pilot slows about 1 kt a second with
  the elevator until the stall, then applies full back stick and full rudder the way of the spin,
  ailerons neutral, throttle closed, and holds them for ``turns`` turns of the heading (or
  ``ENTRY_MAX_S`` where it will not keep turning).
* **Recovery** (the POH's words): throttle idle, ailerons neutral, full rudder against the
  rotation; just after the rudder reaches its stop, the control wheel briskly forward far enough to
  break the stall, held until the rotation stops; then the rudder neutral and a smooth pull out
  of the dive to level flight.

Reported: whether it spun (the heading rate above ``SPIN_RATE_DPS`` with the wing stalled through
the last turn of the entry), the turns held, the turns from the first recovery input until the
rotation stopped, the time and height it took, the speed and load factor reached in the pull-out.
"""
from __future__ import annotations

import math

from ..pilots.flying import wrap_pi
from .flight import test_sim, trim_straight
from .performance import stall_speed

DT = 0.02
ENTRY_MAX_S = 30.0
SPIN_RATE_DPS = 60.0          # heading rate of a developed spin (a light aircraft's: one turn in 2-4 s)
STOPPED_DPS = 15.0            # the rotation is over below this heading rate
RUDDER_TO_STOP_S = 0.5        # the rudder reaches its stop; then the wheel goes forward
WHEEL_FORWARD = -0.3          # "briskly forward far enough to break the stall"
PULL_OUT_G = 3.0              # the pull-out's load factor, within a normal-category trainer's 3.8


class _Turns:
    """The heading's turns, unwrapped."""

    def __init__(self, heading):
        self.last, self.total = heading, 0.0

    def update(self, heading) -> float:
        d = wrap_pi(heading - self.last)
        self.last = heading
        self.total += d
        return self.total / (2.0 * math.pi)


def spin_recovery(aircraft, mass_kg=None, turns: float = 1.0, direction: float = -1.0,
                  altitude_m: float = 2500.0) -> dict:
    """A ``turns``-turn spin (``direction`` -1 left, +1 right) and the POH's recovery (see the module)."""
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config="clean", altitude_m=0.0))
    sim = test_sim(aircraft, mass_kg)
    if trim_straight(sim, 1.2 * vs, altitude_m, "clean", "idle") is None:
        raise RuntimeError("no trim at 1.2 Vs")
    c = sim.controls.copy()
    c.throttle = 0.0
    h0 = sim.altitude_m
    turned = _Turns(sim.euler_rad[2])
    t, phase, spun_s, stalled_turn = 0.0, "slow", 0.0, []
    t_entry = t_rec = turns_at_rec = 0.0
    out = {"spun": False, "turns_held": 0.0, "entry_s": 0.0, "recovery_turns": None, "recovery_s": None,
           "recovered": False}
    pitch = c.pitch
    while t < 120.0:
        n = turned.update(sim.euler_rad[2])
        rate = math.degrees(abs(sim.yaw_rate_rads))
        if phase == "slow":
            # about 1 kt/s: the nose raised with the elevator, the wings held level
            pitch = min(1.0, pitch + 0.03 * DT)
            c.set(pitch=pitch, roll=max(-1.0, min(1.0, -2.0 * sim.euler_rad[0] - 0.5 * sim.roll_rate_rads)))
            if sim.stalled_sections > 0 and sim.ias_kmh < 1.05 * vs:
                phase, t_entry = "entry", t
        elif phase == "entry":
            c.set(pitch=1.0, roll=0.0, yaw=direction)
            spun_s = spun_s + DT if rate > SPIN_RATE_DPS else 0.0
            stalled_turn.append(sim.stalled_sections > 0)
            if abs(n) >= turns or t - t_entry > ENTRY_MAX_S:
                out["turns_held"] = abs(n)
                out["entry_s"] = t - t_entry
                out["spun"] = spun_s > 2.0 and all(stalled_turn[-int(2.0 / DT):])
                phase, t_rec, turns_at_rec = "recover", t, n
        elif phase == "recover":
            c.set(roll=0.0, yaw=-direction, pitch=WHEEL_FORWARD if t - t_rec > RUDDER_TO_STOP_S else 1.0)
            if t - t_rec > RUDDER_TO_STOP_S and rate < STOPPED_DPS:
                out["recovery_turns"] = abs(n - turns_at_rec)
                out["recovery_s"] = t - t_rec
                phase = "pull"
            elif t - t_rec > 30.0:
                break
        else:                    # the pull-out: rudder neutral, wings level, about 3 g to level flight
            c.set(yaw=0.0, roll=max(-1.0, min(1.0, -2.0 * sim.euler_rad[0] - 0.5 * sim.roll_rate_rads)),
                  pitch=max(-1.0, min(1.0, 0.2 + 0.4 * (PULL_OUT_G - sim.nz_g))))
            if sim.velocity_ned_ms[2] < 0.0:
                out["recovered"] = True
                break
        sim.step(c.array)
        out["max_ias_kmh"] = max(out.get("max_ias_kmh", 0.0), sim.ias_kmh)
        out["max_g"] = max(out.get("max_g", 1.0), sim.nz_g)
        t += DT
    out["height_lost_m"] = h0 - sim.altitude_m
    return out
