"""Roll cards, flown in the full 6-DOF model as test pilots fly them.

* ``roll_rate``: NACA's abrupt aileron roll (Gilruth & Turner, NACA Report 715; Toll, Report
  868): trimmed in straight flight at the test speed, the stick is pushed to the side with the
  test force (the pilot's force request; the ailerons then go as far as their hinge moments let
  that force take them) and held, rudder and elevator held where they were trimmed, throttle
  fixed; the rolling velocity rises to its steady value. The card reports the largest rolling
  velocity reached before 360 degrees of bank (the figure NACA plotted), the mean of a roll to
  the right and one to the left (the propeller's torque makes them differ), and pb/2V; also
  signed (``signed_roll_rate_dps``: the rolling velocity of largest size, negative where the
  aircraft rolls against the stick, past an aileron reversal).
* ``roll_time``: a glider's roll reversal (the gliding world's measure of lateral control): in a
  steady 45 degree banked turn at 1.4 Vs, full aileron and rudder the other way, the time until
  the bank is 45 degrees the other way.
"""
from __future__ import annotations

import math

import numpy as np

from .flight import test_sim, trim_straight

DT = 0.02


def _bank_deg(sim) -> float:
    return math.degrees(sim.euler_rad[0])


def abrupt_roll(sim, ias_kmh: float, altitude_m: float, force_fraction: float, direction: float,
                config="clean", power=None, seconds: float = 4.0) -> dict | None:
    t = trim_straight(sim, ias_kmh, altitude_m, config, power)
    if t is None:
        return None
    c = sim.controls.copy()
    c.roll = direction * force_fraction
    n = int(round(seconds / DT))
    p = np.zeros(n)
    ail = np.zeros(n)
    bank = 0.0
    prev = _bank_deg(sim)
    k = 0
    for k in range(n):
        sim.step(c.array)
        p[k] = direction * math.degrees(sim.roll_rate_rads)
        ail[k] = direction * sim.surface("roll")
        b = _bank_deg(sim)
        d = (b - prev + 180.0) % 360.0 - 180.0
        bank += direction * d
        prev = b
        if bank >= 360.0:
            break
    p, ail = p[:k + 1], ail[:k + 1]
    peak = float(p.max())
    return {"roll_rate_dps": peak, "signed_peak_dps": float(p[np.argmax(np.abs(p))]), "tas_ms": t.tas_ms,
            "aileron_fraction": float(ail.max()),
            "time_to_90pct_s": float((np.argmax(p >= 0.9 * peak) + 1) * DT)}


def roll_rate(aircraft, ias_kmh: float, altitude_m: float = 0.0, stick_force_n: float | None = None,
              mass_kg: float | None = None, config: str = "clean", power: str | None = None) -> dict | None:
    """Steady roll rate (deg/s) at this IAS with this lateral stick force (default: the pilot's
    maximum in the aircraft data), the mean of both directions; None where it cannot be flown."""
    sim = test_sim(aircraft, mass_kg)
    f_max = sim.compiled.spec.controls["aileron"]["max_force_n"]
    frac = 1.0 if stick_force_n is None else min(stick_force_n / f_max, 1.0)
    right, left = (abrupt_roll(sim, ias_kmh, altitude_m, frac, d, config, power) for d in (1.0, -1.0))
    if right is None or left is None:
        return None
    runs = (right, left)
    rate = 0.5 * (runs[0]["roll_rate_dps"] + runs[1]["roll_rate_dps"])
    tas = runs[0]["tas_ms"]
    span = sim.compiled.wing_span_m
    return {"ias_kmh": ias_kmh, "roll_rate_dps": rate,
            "signed_roll_rate_dps": 0.5 * (runs[0]["signed_peak_dps"] + runs[1]["signed_peak_dps"]),
            "right_dps": runs[0]["roll_rate_dps"],
            "left_dps": runs[1]["roll_rate_dps"], "pb_2v": math.radians(rate) * span / (2.0 * tas),
            "aileron_fraction": 0.5 * (runs[0]["aileron_fraction"] + runs[1]["aileron_fraction"]),
            "stick_force_n": frac * f_max}


def roll_time_45(aircraft, mass_kg=None, altitude_m=1000.0, speed_factor=1.4) -> dict:
    """A glider's roll reversal: in a steady 45 degree banked turn at 1.4 Vs (held 6 s), full
    aileron and full rudder the other way at once; the time from 45 degrees one way to 45
    degrees the other (both directions, the mean)."""
    from .performance import stall_speed
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config="clean", altitude_m=0.0))
    sim = test_sim(aircraft, mass_kg)
    times = []
    for side in (1.0, -1.0):
        if trim_straight(sim, speed_factor * vs, altitude_m, "clean", "idle") is None:
            raise RuntimeError("no trim at 1.4 Vs")
        c0 = sim.controls.copy()
        pitch0 = sim.euler_rad[1]
        for _ in range(int(6.0 / DT)):          # into the turn, held
            c = c0.copy()
            bank = sim.euler_rad[0]
            c.roll = float(np.clip(3.0 * (side * math.radians(45.0) - bank) - 0.8 * sim.roll_rate_rads,
                                        -1.0, 1.0))
            c.pitch = float(np.clip(c0.pitch + 2.0 * (pitch0 - sim.euler_rad[1]), -1.0, 1.0))
            sim.step(c.array)
        c.roll = -side
        c.yaw = -side
        t_from = None
        for k in range(int(10.0 / DT)):
            sim.step(c.array)
            b = math.degrees(sim.euler_rad[0]) * side
            if t_from is None and b <= 45.0:
                t_from = k * DT
            if b <= -45.0:
                times.append(k * DT - (t_from or 0.0))
                break
        else:
            raise RuntimeError("the reversal did not reach 45 degrees the other way in 10 s")
    return {"ias_kmh": speed_factor * vs, "time_s": float(np.mean(times)), "right_to_left_s": times[0],
            "left_to_right_s": times[1]}
