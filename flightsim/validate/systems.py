"""Cards for the handling systems an aircraft's data may give (issue 17): wing twist, the
adjustable stabilizer, automatic leading-edge slats. Each is flown in the full 6-DOF model, as
a test pilot would fly it.

* ``roll_reversal``: the indicated airspeed where the steady roll rate with the stick hard over
  (or with a given lateral force) crosses zero: wing twist has taken the ailerons' lift back
  (aileron reversal). NACA's abrupt aileron roll (roll.roll_rate: trimmed straight, in the dive
  the set power gives beyond the level top speed) is flown at coarse steps of 5 % of Vne from
  30 % of Vne up to 130 %, then the sign change is bisected and the reversal interpolated on
  the signed roll rate (the rolling velocity of largest size, the stick's way positive; the
  mean of a roll each way). Right at the reversal the aileron trim cannot hold a propeller's
  torque (the ailerons have no effect there), so the trimmed start fails within a few km/h of
  it: the bisection then tries a quarter of the way either side, or stops and interpolates.
* ``stabilizer_pull``: trimmed straight, the pitch trim run to a setting (full nose down, or
  neutral) at the stabilizer's own rate while the pilot holds the attitude with the elevator,
  then full back stick held, wings held level with aileron: the highest angle of attack, how
  many of the wing's sections went past their stall and when, against the wing's stall angle.
* ``slipping_stall``: trimmed at 1.4 Vs power off, the pilot slows at the stall cards' rate
  (stall.stall_approach's pull) with rudder holding a sideslip and aileron the wings level
  (crossed controls) until full back stick has been held 3 s or the wing drops: each wing's
  slats (the mean of its slatted sections, 0 closed .. 1 open) through it, when each side
  opened, and the largest difference between them.
* ``slat_roll``: the aircraft with its slats and the same aircraft compiled with its slats
  taken off (its sections' slat tables dropped), trimmed straight near the stall (10 % above
  the slatless wing's 1 g stall speed unless given) with the power off, 1 s hands still (the
  slats find their place), then a wing let drop (the stick the other way until it rolls at
  20 deg/s) and the stick hard over to pick it up, the down-going aileron on the falling wing:
  the bank gained and the roll rates in the next second, the stick's way positive (the mean
  of each wing).
"""
from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from ..aircraft_data.compile import aircraft_with_mass, compile_aircraft
from ..aircraft_data.loader import load_aircraft
from ..physics.named_model import AircraftData
from ..physics.state import flat_terrain
from ..sim import Sim
from . import roll
from .flight import test_sim, trim_straight
from .performance import stall_speed
from .stall import _roll_hold

DT = 0.02
KP_BETA, KI_BETA, KR_BETA = 1.0, 1.0, 1.0


# ---------------------------------------------------------------------------- roll reversal
def roll_reversal(aircraft, altitude_m: float = 0.0, stick_force_n: float | None = None, mass_kg=None,
                  config: str = "clean", power: str | None = None) -> dict:
    """The aileron reversal speed (IAS, km/h) at this altitude and lateral stick force (default:
    the pilot's maximum), with the roll rates flown to find it. RuntimeError when the aircraft
    rolls the stick's way at every speed it can be trimmed at up to 1.3 Vne."""
    vne = load_aircraft(aircraft).aircraft["vne_kmh"]
    points = {}

    def signed(v):
        if v not in points:
            r = roll.roll_rate(aircraft, v, altitude_m, stick_force_n, mass_kg, config, power)
            points[v] = None if r is None else r["signed_roll_rate_dps"]
        return points[v]

    lo = hi = None
    fastest = None
    for k in range(21):                              # 0.30 .. 1.30 Vne in steps of 0.05 Vne
        v = vne * (0.30 + 0.05 * k)
        p = signed(v)
        if p is None:
            continue
        fastest = v
        if p > 0.0:
            lo = (v, p)
            continue
        if lo is None:
            raise RuntimeError(f"at {v:.0f} km/h IAS, the slowest speed flown, it already rolls against the stick "
                               f"({p:.1f} deg/s)")
        hi = (v, p)
        break
    if hi is None:
        if lo is None:
            raise RuntimeError(f"no straight flight to roll from between {0.3 * vne:.0f} and {1.3 * vne:.0f} km/h IAS")
        raise RuntimeError(f"no aileron reversal up to {fastest:.0f} km/h IAS at {altitude_m:.0f} m (the fastest "
                           f"trimmed flight found up to {1.3 * vne:.0f} km/h): it still rolls the stick's way at "
                           f"{lo[1]:.1f} deg/s there")
    if lo is None:          # (a reversal at the slowest speed flown is refused in the sweep)
        raise RuntimeError("no speed found where it still rolls the stick's way")
    for _ in range(6):                                # bisect the sign change to within 2 km/h
        if hi[0] - lo[0] <= 2.0:
            break
        w = hi[0] - lo[0]
        # (no lateral trim right at the reversal: then a quarter of the way either side)
        m, p = next(((m, p) for m in (lo[0] + 0.5 * w, lo[0] + 0.25 * w, lo[0] + 0.75 * w)
                     if (p := signed(m)) is not None), (None, None))
        if m is None or p is None:
            break
        if p > 0.0:
            lo = (m, p)
        else:
            hi = (m, p)
    v_rev = lo[0] + (hi[0] - lo[0]) * lo[1] / (lo[1] - hi[1])
    return {"reversal_kmh": v_rev, "altitude_m": altitude_m, "bracket": (lo, hi),
            "points": [{"ias_kmh": round(v, 1), "roll_rate_dps": None if p is None else round(p, 2)}
                       for v, p in sorted(points.items())]}


# ---------------------------------------------------------------------------- stabilizer trim
def stabilizer_setting(compiled, position: float) -> float:
    """The stabilizer's incidence change (deg, + leading edge up: nose down) at a trim position
    (-1 full nose down .. +1 full nose up)."""
    st = compiled.spec.controls["stabilizer_trim"]
    return round(-position * (st["nose_up_deg"] if position > 0.0 else st["nose_down_deg"]), 6) + 0.0   # (no -0.0)


def stabilizer_pull(aircraft, trim: float, ias_kmh: float | None = None, altitude_m: float = 1500.0,
                    mass_kg=None, config: str = "clean", power: str | None = None, hold_s: float = 8.0) -> dict:
    """Trimmed straight at ``ias_kmh`` (default 1.5 Vs), the pitch trim run to ``trim`` (-1 full
    nose down, 0 neutral) while the elevator holds the attitude, then full back stick for
    ``hold_s``: the highest angle of attack, the most wing sections past their stall, when the
    first went (s after the pull), the lowest speed and highest load factor."""
    sim = test_sim(aircraft, mass_kg)
    st = sim.compiled.spec.controls.get("stabilizer_trim")
    if st is None:
        raise RuntimeError("the aircraft has no stabilizer trim ([controls.stabilizer_trim] in its aircraft.toml)")
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config=config, altitude_m=0.0))
    v = float(ias_kmh or 1.5 * vs)
    if trim_straight(sim, v, altitude_m, config, power) is None:
        raise RuntimeError(f"no straight flight at {v:.0f} km/h IAS")
    data = AircraftData(sim.compiled.model, sim.compiled.tables)
    n_wing = len(data.wing_sections)
    c = sim.controls.copy()
    c0 = c.copy()
    trimmed = sim.surface("stabilizer")
    theta0 = sim.euler_rad[1]
    c.pitch_trim = trim
    t_run = 0.0
    while abs(sim.surface("stabilizer") - trim) > 1e-9 and t_run < 2.0 * st["travel_time_s"] + 1.0:
        c.pitch = float(np.clip(c0.pitch + 3.0 * (theta0 - sim.euler_rad[1]) - 1.0 * sim.pitch_rate_rads, -1.0, 1.0))
        c.roll = _roll_hold(sim)
        sim.step(c.array)
        t_run += DT
    ias_pull = sim.ias_kmh
    stab = sim.surface("stabilizer")
    c.pitch = 1.0
    peak_alpha, peak_stalled, first_stall, min_ias, peak_nz = -90.0, 0, None, 1e9, 0.0
    for k in range(int(round(hold_s / DT))):
        c.roll = _roll_hold(sim)
        sim.step(c.array)
        peak_alpha = max(peak_alpha, sim.alpha_deg)
        stalled = sim.stalled_wing_sections if sim.alpha_deg > 0.0 else 0    # (not a pushed-over negative stall)
        peak_stalled = max(peak_stalled, stalled)
        if first_stall is None and stalled > 0:
            first_stall = (k + 1) * DT
        min_ias = min(min_ias, sim.ias_kmh)
        peak_nz = max(peak_nz, sim.nz_g)
    return {"trim": trim, "ias_kmh": v, "vs_kmh": float(vs), "ias_at_pull_kmh": ias_pull, "trimmed_stabilizer_deg":
            stabilizer_setting(sim.compiled, trimmed), "stabilizer_deg": stabilizer_setting(sim.compiled, stab),
            "trim_run_s": t_run, "max_alpha_deg": peak_alpha,
            "wing_stall_alpha_deg": math.degrees(data.wing_stall_alpha_rad()),
            "max_stalled_wing_sections": peak_stalled, "wing_sections": n_wing, "first_stall_s": first_stall,
            "min_ias_kmh": min_ias, "max_nz_g": peak_nz, "hold_s": hold_s}


# ---------------------------------------------------------------------------- slats
def slat_sides(compiled) -> tuple[list[int], list[int]]:
    """The indices into Sim.slat_positions of the left wing's slats and the right wing's (the
    slats are numbered in the order of the compiled sections, a mirrored section twice)."""
    left, right = [], []
    k = 0
    for s in compiled.sections:
        if s.spec.get("slat_airfoil") is not None:
            if s.pos[1] < 0.0:
                left.append(k)
            elif s.pos[1] > 0.0:
                right.append(k)
            k += 1
    return left, right


def _slatted(compiled):
    left, right = slat_sides(compiled)
    if not left or not right:
        raise RuntimeError("the aircraft has no automatic slats on both wings (slat_airfoil on its wing sections)")
    return left, right


def without_slats(compiled):
    """The same aircraft (weight and all) compiled with its slats taken off: each slatted
    section flies its closed table alone."""
    spec = copy.deepcopy(compiled.spec)
    for s in spec.sections:
        s["slat_airfoil"] = None
    return compile_aircraft(spec)


def slipping_stall(aircraft, sideslip_deg: float = 10.0, ias_kmh: float | None = None, altitude_m: float = 1500.0,
                   mass_kg=None, config: str = "clean", power: str | None = "idle",
                   rate_kmh_s: float = 1.609) -> dict:
    """A stall approach with crossed controls: rudder holding ``sideslip_deg`` (+ air from the
    right), aileron the wings level; the slats of each wing through it."""
    sim = test_sim(aircraft, mass_kg)
    left, right = _slatted(sim.compiled)
    vs = stall_speed(aircraft, dict(mass_kg=mass_kg, config=config, altitude_m=0.0))
    start = float(ias_kmh or 1.4 * vs)
    if trim_straight(sim, start, altitude_m, config, power or "idle") is None:
        raise RuntimeError(f"no straight flight at {start:.0f} km/h IAS")
    c = sim.controls.copy()
    c0 = c.copy()
    beta_t = math.radians(sideslip_deg)
    target = prev = start
    held = i_beta = 0.0
    full_back_s = 0.0
    rows = []                                  # t, ias, sideslip, left mean, right mean
    how = "the stall approach ran out of time"
    entry_s = 3.0                              # the sideslip set up first, the speed held
    for k in range(int((entry_s + 2.0 * start / rate_kmh_s) / DT)):
        t = k * DT
        ias = sim.ias_kmh if k else start
        rate = rate_kmh_s if t >= entry_s else 0.0
        d_ias = (ias - prev) / DT if k else 0.0
        target = max(target - rate * DT, 0.5 * vs)
        err = (ias - target) / vs
        held = float(np.clip(held + 0.5 * err * DT, -1.0, 1.0))
        c.pitch = float(np.clip(c0.pitch + held + 3.0 * err + 3.0 * (d_ias + rate) / vs, -1.0, 1.0))
        # the ball held out by the sideslip wanted (ramped in over the first 2 s), the yaw damped
        b_err = sim.beta_rad - beta_t * min(1.0, t / 2.0)
        i_beta = float(np.clip(i_beta + KI_BETA * b_err * DT, -1.0, 1.0))
        c.yaw = float(np.clip(c0.yaw + KP_BETA * b_err + i_beta - KR_BETA * sim.yaw_rate_rads, -1.0, 1.0))
        c.roll = _roll_hold(sim)
        prev = ias
        sim.step(c.array)
        s = sim.slat_positions
        rows.append((t + DT, sim.ias_kmh, math.degrees(sim.beta_rad), float(np.mean(s[left])),
                     float(np.mean(s[right]))))
        if t < entry_s:
            continue
        full_back_s = full_back_s + DT if c.pitch >= 1.0 else 0.0
        if full_back_s >= 3.0:
            how = "full back stick held 3 s"
            break
        if sim.stalled_wing_sections > 0 and (abs(sim.euler_rad[0]) > math.radians(15.0)
                                               or math.degrees(sim.pitch_rate_rads) < -5.0):
            how = "the stall broke (a wing or the nose dropped)"
            break
    a = np.array(rows)
    diff = a[:, 4] - a[:, 3]
    j = int(np.argmax(np.abs(diff)))

    def opened(col):
        hit = np.flatnonzero(a[:, col] >= 0.5)
        if not len(hit):
            return None
        i = int(hit[0])
        return {"t_s": float(a[i, 0]), "ias_kmh": float(a[i, 1]), "sideslip_deg": float(a[i, 2])}

    return {"vs_kmh": float(vs), "start_kmh": start, "sideslip_deg": sideslip_deg, "end": how,
            "end_ias_kmh": float(a[-1, 1]), "left": opened(3), "right": opened(4),
            "max_difference": float(abs(diff[j])), "at": {"t_s": float(a[j, 0]), "ias_kmh": float(a[j, 1]),
                                                          "sideslip_deg": float(a[j, 2]), "left": float(a[j, 3]),
                                                          "right": float(a[j, 4])},
            "series": a}


def _near_stall_roll(compiled, ias_kmh, altitude_m, config, power, direction, seconds, drop_dps=20.0):
    """Near the stall a wing drops (the stick the other way until the aircraft rolls at
    ``drop_dps`` against ``direction``: the falling wing's angle of attack rises), then full
    aileron ``direction`` to pick it up: the down-going aileron is on that falling wing. The
    bank gained in ``seconds`` after that, the stick's way positive."""
    sim = Sim(compiled, terrain=flat_terrain(-1.0e6))
    if trim_straight(sim, ias_kmh, altitude_m, config, power) is None:
        return None
    c = sim.controls.copy()
    for _ in range(int(round(1.0 / DT))):        # hands still: the slats find their place
        sim.step(c.array)
    alpha0 = sim.alpha_deg
    c.roll = -direction                          # the wing drops
    for _ in range(int(round(2.0 / DT))):
        sim.step(c.array)
        if -direction * sim.roll_rate_dps >= drop_dps:
            break
    p_drop = direction * sim.roll_rate_dps
    bank0 = sim.euler_rad[0]
    left, right = slat_sides(compiled)
    falling = left if direction > 0.0 else right            # picking up the left wing: stick right
    opened = float(np.mean(sim.slat_positions[falling])) if falling else 0.0
    c.roll = direction
    p = []
    stalled = 0
    for _ in range(int(round(seconds / DT))):
        sim.step(c.array)
        p.append(direction * sim.roll_rate_dps)
        stalled = max(stalled, sim.stalled_wing_sections)
    p = np.array(p)
    bank = direction * math.degrees((sim.euler_rad[0] - bank0 + math.pi) % (2.0 * math.pi) - math.pi)
    return {"bank_deg": bank, "peak_dps": float(p[np.argmax(np.abs(p))]), "alpha_deg": alpha0,
            "drop_dps": p_drop, "end_dps": float(p[-1]), "slats_open": opened, "max_stalled_wing_sections": stalled}


def slat_roll(aircraft, ias_kmh: float | None = None, altitude_m: float = 1500.0, mass_kg=None,
              config: str = "clean", power: str | None = "idle", seconds: float = 1.0) -> dict:
    """Picking up a dropping wing near the stall with full aileron (_near_stall_roll), with the
    slats and without them: the bank gained in ``seconds`` and the roll rates (the stick's way
    positive, the mean of both ways) of each."""
    slats = aircraft_with_mass(aircraft, mass_kg)
    _slatted(slats)
    plain = without_slats(slats)
    vs = stall_speed_compiled(plain, config)
    v = float(ias_kmh or 1.1 * vs)
    out: dict[str, Any] = {"ias_kmh": v, "vs_plain_kmh": float(vs), "seconds": seconds}
    for name, comp in (("slats", slats), ("plain", plain)):
        runs = [_near_stall_roll(comp, v, altitude_m, config, power or "idle", d, seconds) for d in (1.0, -1.0)]
        if any(r is None for r in runs):
            raise RuntimeError(f"no straight flight at {v:.0f} km/h IAS " + ("with the slats" if name == "slats"
                                                                              else "without the slats"))
        out[name] = {k: 0.5 * (runs[0][k] + runs[1][k]) for k in ("bank_deg", "peak_dps", "alpha_deg",
                                                                              "slats_open", "drop_dps", "end_dps")}
        out[name]["max_stalled_wing_sections"] = max(r["max_stalled_wing_sections"] for r in runs)
        out[name]["ways"] = [round(r["bank_deg"], 1) for r in runs]
    return out


def stall_speed_compiled(compiled, config: str = "clean") -> float:
    """The 1 g stall speed (km/h EAS) of a compiled aircraft, power off (perf.stall_speed's
    sweep of steady glides, flown on it)."""
    from ..tools import perf
    return perf.stall_speed(None, config == "landing", sim=Sim(compiled))[0]
