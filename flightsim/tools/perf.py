"""Powered-aircraft performance in the wind tunnel (seed 000's automated benchmarking).

Every figure is a trim of the full model (the same derivative kernel the game flies, with
the engine, supercharger, propeller and governor in equilibrium at that flight condition,
plant_trim.plant_trim), in still ISA air, wings level, gear and flaps up:

* ``max_level_speed``: the fastest steady level flight at full throttle (WEP or military,
  3,000 rpm), speed, alpha and elevator trimmed together;
* ``best_climb``: the climb at full throttle maximised over airspeed; the steady rate
  V sin gamma is divided by the acceleration factor of a climb at constant indicated
  airspeed (how flight tests climb: the true airspeed grows with height); its true
  airspeed is reported too;
* ``service_ceiling``: the altitude where the best climb falls to 0.5 m/s (100 ft/min);
* ``stall``: the lowest steady speed with the power off, corrected to 1 g (glide_sweep.stall_sweep,
  one_g_stall), clean or with gear and flaps down.

The supercharger gear is the one the automatic switch selects climbing from below, so the
gear change shows as a knee in the curves of speed and climb against altitude.
"""
from __future__ import annotations

import math

import numpy as np

from ..aircraft_data.compile import aircraft_with_mass
from ..arg_types import ALTITUDE_M, ALTITUDES_M, MASS_KG
from ..physics.named import AircraftView, Controls
from ..physics.named_model import AircraftData
from ..physics.state import make_ctrl
from ..sim import Sim
from .glide_sweep import one_g_stall, stall_sweep

KMH = 3.6
POWER = {"wep": dict(throttle=1.0, wep=1.0), "military": dict(throttle=1.0, wep=0.0),
         "idle": dict(throttle=0.0, wep=0.0)}


def power_ctrl(power: str, **kw) -> np.ndarray:
    if power not in POWER:
        raise ValueError(f"power must be one of {', '.join(POWER)}, got {power!r}")
    return make_ctrl(prop_rpm=1.0, **POWER[power], **kw)


def leaned(sim, ctrl: np.ndarray, altitude_m: float) -> np.ndarray:
    """``ctrl`` with a carburetted engine's mixture where a flight manual's tables fly it: full rich
    below 3,000 ft (take-off, low climbs), leaned for the most rpm above (physics/carburettor.py). An
    engine with an automatic mixture: unchanged."""
    from ..physics.carburettor import LEAN_ABOVE_M, best_power_lean
    data = AircraftData(sim.model)
    if data.carburettor and altitude_m > LEAN_ABOVE_M:
        Controls(ctrl).mixture_lean = best_power_lean(sim.model, data.engine_row, altitude_m)
    return ctrl


def _sim(aircraft, mass_kg):
    return Sim(aircraft_with_mass(aircraft, mass_kg))


def max_level_speed(aircraft="p51d", altitude_m=0.0, power="wep", mass_kg=None, sim=None):
    """The fastest steady level flight at full throttle: (trim, sim). Speed continuation
    down from well above the top speed finds the fast (thrust = drag) solution."""
    sim = sim or _sim(aircraft, mass_kg)
    tr = sim.trimmer(altitude_m, leaned(sim, power_ctrl(power, gear_up=1.0), altitude_m), plant_in_jacobian=False)
    best = None
    for v0 in (230.0, 200.0, 170.0, 260.0, 140.0):
        t = tr.level_at_throttle((v0, 0.0, 0.0))
        if t.ok and t.within_travel and (best is None or t.tas_ms > best.tas_ms):
            best = t
            break
    if best is None:
        raise RuntimeError(f"no steady level flight found at {altitude_m:.0f} m with {power} power")
    return best, sim


def level_speed_at_power(aircraft="c172p", altitude_m=0.0, fraction=0.75, mass_kg=None, sim=None):
    """Steady level flight at a share of the engine's rated brake power (a flight manual's cruise
    table: "75 % power"): the throttle found by bisection, (trim, sim)."""
    sim = sim or _sim(aircraft, mass_kg)
    rated = float(sim.compiled.spec.powerplant["engine"]["rated_power_w"])
    lo, hi, best = 0.2, 1.0, None
    for _ in range(16):
        th = 0.5 * (lo + hi)
        tr = sim.trimmer(altitude_m, leaned(sim, make_ctrl(prop_rpm=1.0, throttle=th, wep=0.0, gear_up=1.0),
                                            altitude_m), plant_in_jacobian=False)
        t = tr.level_at_throttle((65.0, 0.02, 0.0))
        if not (t.ok and t.within_travel):
            lo = th
            continue
        best = t
        if AircraftView(t.state, t.diag).shaft_power_w < fraction * rated:
            lo = th
        else:
            hi = th
    if best is None:
        raise RuntimeError(f"no steady level flight at {100 * fraction:.0f} % power at {altitude_m:.0f} m")
    return best, sim


def climb_at(trimmer, tas_ms, guess=None):
    t = trimmer.climb(tas_ms, guess or (0.05, 0.1, 0.0))
    return t if (t.ok and t.within_travel) else None


def acceleration_factor(tas_ms, altitude_m, g=9.80665):
    """1 + (V/g) dV/dh for a climb at constant indicated (equivalent) airspeed: the true
    airspeed grows as the air thins, V = V_e sqrt(rho0/rho), and that kinetic energy comes
    out of the climb (the energy method; flight tests climb at a scheduled IAS)."""
    from ..physics.atmosphere import isa
    h = 50.0
    rho = isa(altitude_m)[2]
    drho = (isa(altitude_m + h)[2] - isa(altitude_m - h)[2]) / (2 * h)
    return 1.0 - tas_ms * tas_ms / g * 0.5 * drho / rho


GOLDEN_TOL_MS = 0.01        # the best climb speed to 0.04 km/h: the rate at its flat top then moves in the 5th digit


def _search(sim, key, default):
    """An aircraft's search range for a performance figure ([aircraft] climb_scan_kmh or
    ceiling_search_m), else the default (a fighter's)."""
    spec = getattr(sim.compiled, "spec", None)
    got = spec.aircraft.get(key) if spec is not None else None
    return tuple(got) if got else default


def best_climb(aircraft="p51d", altitude_m=0.0, power="wep", mass_kg=None, sim=None, v_lo_kmh=None,
               v_hi_kmh=None):
    """Maximum rate of climb at full throttle over airspeed: (trim, rate m/s, sim). The trim is
    the steady climb at that true airspeed; the rate is that of a climb at constant indicated
    airspeed through this altitude (steady rate / acceleration_factor). The speeds scanned:
    ``v_lo_kmh``-``v_hi_kmh``, else the aircraft's ``climb_scan_kmh``, else 220-560 km/h."""
    sim = sim or _sim(aircraft, mass_kg)
    if v_lo_kmh is None or v_hi_kmh is None:
        v_lo_kmh, v_hi_kmh = _search(sim, "climb_scan_kmh", (220.0, 560.0))
    tr = sim.trimmer(altitude_m, leaned(sim, power_ctrl(power, gear_up=1.0), altitude_m), plant_in_jacobian=False)
    rate = lambda t: t.tas_ms * math.sin(t.gamma_rad) / acceleration_factor(t.tas_ms, altitude_m)
    # coarse scan, then golden-section search around the best point. The scan runs from the
    # fast end down, each trim starting from the last: it follows the unstalled branch (near
    # the ceiling, where the wing stalls early at M 0.4, a stalled, sinking equilibrium also
    # exists at high alpha, and a scan from the slow end could follow that one up)
    pts = []
    guess = None
    for v in np.arange(v_lo_kmh, v_hi_kmh + 1e-6, 20.0)[::-1] / KMH:
        t = climb_at(tr, v, guess)
        if t is not None:
            pts.append((v, rate(t), t))
            guess = (t.alpha_rad, t.gamma_rad, t.pitch_cmd)
    pts.sort(key=lambda p: p[0])
    if not pts:
        raise RuntimeError(f"no steady climb found at {altitude_m:.0f} m with {power} power")
    k = max(range(len(pts)), key=lambda i: pts[i][1])
    a = pts[max(k - 1, 0)][0]
    b = pts[min(k + 1, len(pts) - 1)][0]
    g = (math.sqrt(5) - 1) / 2
    cache = {}

    def f(v):
        if v not in cache:
            t = climb_at(tr, v, (pts[k][2].alpha_rad, pts[k][2].gamma_rad, pts[k][2].pitch_cmd))
            cache[v] = (rate(t), t) if t is not None else (-1e9, None)
        return cache[v][0]
    c, d = b - g * (b - a), a + g * (b - a)
    while b - a > GOLDEN_TOL_MS:
        if f(c) > f(d):
            b = d
        else:
            a = c
        c, d = b - g * (b - a), a + g * (b - a)
    v = 0.5 * (a + b)
    r = f(v)
    t = cache[v][1]
    if t is None or r < pts[k][1]:
        t, r = pts[k][2], pts[k][1]
    return t, r, sim


def service_ceiling(aircraft="p51d", power="military", mass_kg=None, rate_ms=0.5, sim=None):
    """Altitude (m) where the best steady climb is ``rate_ms``: bisection on altitude."""
    sim = sim or _sim(aircraft, mass_kg)
    # high up the best climb is faster (true airspeed): the scan raised as a fighter's was
    scan = _search(sim, "climb_scan_kmh", None)
    v_lo, v_hi = (250.0, 650.0) if scan is None else (scan[0] * 1.1, scan[1] * 1.15)

    def excess(h):
        try:
            return best_climb(aircraft, h, power, sim=sim, v_lo_kmh=v_lo, v_hi_kmh=v_hi)[1] - rate_ms
        except RuntimeError:
            return -rate_ms
    lo, hi = _search(sim, "ceiling_search_m", (8000.0, 16000.0))
    f_lo = excess(lo)
    if f_lo < 0:
        raise RuntimeError(f"the best climb is below the ceiling rate already at {lo:,.0f} m")
    for _ in range(12):
        mid = 0.5 * (lo + hi)
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi), sim


def stall_speed(aircraft="p51d", landing=False, mass_kg=None, sim=None):
    """Power-off 1 g stall speed at sea level (TAS = EAS there), clean or with gear and
    flaps down: (km/h, trim); the idle glides' speeds corrected to 1 g (glide_sweep.one_g_stall)."""
    sim = sim or _sim(aircraft, mass_kg)
    ctrl = power_ctrl("idle", gear_up=0.0 if landing else 1.0, flap=1.0 if landing else 0.0)
    vne = sim.compiled.spec.aircraft["vne_kmh"] / KMH
    front, _ = stall_sweep(sim, min(vne, 120.0), ctrl)
    v_1g, stall = one_g_stall(front)
    return v_1g * KMH, stall


# ------------------------------------------------------------------ curves and plot

def curves(aircraft="p51d", mass_kg=None, altitudes_m=None, powers=("wep", "military")):
    """Maximum level speed and best climb against altitude for each power setting."""
    sim = _sim(aircraft, mass_kg)
    if altitudes_m is None:
        altitudes_m = np.concatenate([np.arange(0.0, 4000.0, 500.0), np.arange(4000.0, 5400.0, 150.0),
                                      np.arange(5500.0, 13001.0, 500.0)])
    out = {"aircraft": aircraft, "mass_kg": round(float(sim.compiled.mass_kg), 1), "powers": {}}
    for power in powers:
        rows = []
        for h in altitudes_m:
            row = {"altitude_m": float(h)}
            try:
                t, _ = max_level_speed(aircraft, h, power, sim=sim)
                row["max_tas_kmh"] = round(t.tas_ms * KMH, 2)
                trimmed = AircraftView(t.state, t.diag)
                row["gear"] = trimmed.supercharger_gear
                row["shaft_power_kw"] = round(trimmed.shaft_power_w / 1000.0, 1)
            except RuntimeError:
                row["max_tas_kmh"] = None
            try:
                t, r, _ = best_climb(aircraft, h, power, sim=sim)
                row["best_climb_ms"] = round(r, 3)
                row["climb_tas_kmh"] = round(t.tas_ms * KMH, 1)
            except RuntimeError:
                row["best_climb_ms"] = None
            rows.append(row)
        out["powers"][power] = rows
    return out


def plot_performance(result: dict, reference_points: list, path: str):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 5.5), dpi=110, sharey=True)
    colors = {"wep": "tab:red", "military": "tab:blue"}
    for power, rows in result["powers"].items():
        h = [r["altitude_m"] for r in rows if r.get("max_tas_kmh")]
        v = [r["max_tas_kmh"] for r in rows if r.get("max_tas_kmh")]
        a1.plot(v, h, "-", color=colors.get(power, "k"), lw=2, label=f"model, {power}")
        h = [r["altitude_m"] for r in rows if r.get("best_climb_ms")]
        c = [r["best_climb_ms"] for r in rows if r.get("best_climb_ms")]
        a2.plot(c, h, "-", color=colors.get(power, "k"), lw=2, label=f"model, {power}")
    for rp in reference_points:
        col = colors.get(rp["power"], "k")
        mk = "o" if rp["test"] else "x"
        if rp["quantity"] == "max_level_speed":
            a1.plot(rp["tas_kmh"], rp["altitude_m"], mk, color=col, mfc="none", ms=8)
        elif rp["quantity"] == "best_climb":
            a2.plot(rp["climb_ms"], rp["altitude_m"], mk, color=col, mfc="none", ms=8)
        elif rp["quantity"] == "service_ceiling":
            a2.plot(0.5, rp["ceiling_m"], "s", color=col, mfc="none", ms=8)
    a1.plot([], [], "o", color="gray", mfc="none", label="published (tested figure)")
    a1.plot([], [], "x", color="gray", label="published (other)")
    a2.plot([], [], "s", color="gray", mfc="none", label="published service ceiling")
    a1.set_xlabel("maximum level speed, km/h TAS")
    a2.set_xlabel("best rate of climb, m/s")
    a1.set_ylabel("altitude, m (ISA)")
    for a in (a1, a2):
        a.grid(alpha=0.3)
        a.legend(fontsize=8, loc="upper left")
    fig.suptitle(f"{result['aircraft']}: speed and climb against altitude at {result['mass_kg']:.0f} kg, "
                 f"3,000 rpm, gear and flaps up (knee: supercharger gear change)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# ------------------------------------------------------------------ command line (tunnel.py)

COMMANDS = ("level", "climb", "ceiling", "stall", "performance")


def add_parsers(sub):
    """The powered-aircraft subcommands of ``python -m flightsim.tunnel``."""
    helps = {"level": "maximum level speed at full throttle at one altitude",
             "climb": "best steady rate of climb at full throttle at one altitude",
             "ceiling": "service ceiling (best climb 0.5 m/s)",
             "stall": "power-off stall speeds, clean and with gear and flaps down",
             "performance": "speed and climb against altitude (curves)"}
    for name in COMMANDS:
        p = sub.add_parser(name, help=helps[name])
        p.add_argument("--aircraft", default="p51d")
        p.add_argument("--mass-kg", type=MASS_KG, default=None)
        if name in ("level", "climb"):
            p.add_argument("--altitude-m", type=ALTITUDE_M, default=0.0)
        if name == "performance":
            p.add_argument("--altitudes-m", type=ALTITUDES_M, default=None, metavar="H1,H2,...",
                           help="the curves' altitudes, m (default: every 500 m to 13,000 m, closer "
                                "round the supercharger's gear change; a jet: 0 to 15,000 m)")
        if name != "stall":
            p.add_argument("--power", choices=("wep", "military", "max"),
                           default="military" if name == "ceiling" else "wep",
                           help="wep (a jet: max, the afterburner) or military")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--plot", metavar="FILE.png",
                       help="chart speed and climb against altitude beside the published points")


def kind(sim) -> str:
    """What the tunnel's powered cards fly for this aircraft: "glider" (no engine: its polar),
    "jet" (thrust: the energy method of flightsim.tools.maneuver) or "propeller" (this module's trims)."""
    from ..physics.named_model import AircraftData
    d = AircraftData(sim.compiled.model)
    return "glider" if not d.powered else "jet" if d.jets else "propeller"


def glider_best_climb(sim, altitude_m: float):
    """A glider's best climb in still air: the least sink, negative (trimmed glides at this
    altitude from the stall to Vne): (trim, rate m/s)."""
    vne = sim.compiled.spec.aircraft["vne_kmh"] / KMH
    front, stall = stall_sweep(sim, vne, make_ctrl(gear_up=1.0), altitude_m)
    best = max(front, key=lambda t: -t.sink_ms)
    return best, -best.sink_ms


def power_label(sim, power: str | None) -> str | None:
    """The power a propeller card flew, as its readout names it: ``wep`` or ``military``, or for an
    engine with no emergency rating above its military one (a normally aspirated trainer) "full
    throttle", which both settings fly."""
    if power in ("wep", "military") and kind(sim) == "propeller" and not AircraftData(sim.model).has_wep:
        return "full throttle"
    return power


def _jet_power(power: str) -> str:
    return "max" if power == "wep" else power


def _jet_card(args, sim):
    """level, climb, ceiling and performance of a jet: Ps = V (T - D) / W at 1 g (flightsim.tools.maneuver)."""
    from ..physics.atmosphere import isa
    from . import maneuver
    power = _jet_power(args.power)
    name = args.aircraft
    if args.test == "level":
        m = maneuver.level_mach(sim, args.altitude_m, power)
        tas = m * isa(args.altitude_m)[3] * KMH
        result = {"aircraft": name, "altitude_m": float(args.altitude_m), "max_tas_kmh": round(tas, 2),
                  "mach": round(m, 4), "power": power}
        return result, f"{name}: {tas:.1f} km/h TAS (M {m:.2f}) at {args.altitude_m:.0f} m ({power})"
    if args.test == "climb":
        ps, m = maneuver.best_ps(sim, args.altitude_m, power)
        tas = m * isa(args.altitude_m)[3] * KMH
        result = {"aircraft": name, "altitude_m": float(args.altitude_m), "best_climb_ms": round(ps, 3),
                  "tas_kmh": round(tas, 2), "mach": round(m, 4), "power": power}
        return result, (f"{name}: best climb {ps:.1f} m/s at M {m:.2f} ({tas:.0f} km/h TAS), "
                        f"{args.altitude_m:.0f} m ({power}; the energy method, constant true airspeed)")
    if args.test == "ceiling":
        h = maneuver.ceiling(sim, power, 0.5)
        result = {"aircraft": name, "service_ceiling_m": round(h, 1), "power": power}
        return result, f"{name}: service ceiling {h:.0f} m ({h / 0.3048:.0f} ft, {power})"
    rows = []
    for h in args.altitudes_m or (0.0, 3000.0, 6000.0, 9000.0, 11000.0, 13000.0, 15000.0):
        row = {"altitude_m": h}
        try:
            m = maneuver.level_mach(sim, h, power)
            row["max_tas_kmh"] = round(m * isa(h)[3] * KMH, 2)
            row["mach"] = round(m, 4)
        except RuntimeError:
            row["max_tas_kmh"] = None
        ps, m = maneuver.best_ps(sim, h, power, np.arange(0.3, 2.45, 0.1))
        row["best_climb_ms"] = round(ps, 3) if ps > -1e8 else None     # best_ps: -1e9 where no pull trims
        rows.append(row)
    result = {"aircraft": name, "mass_kg": round(float(sim.compiled.mass_kg), 1), "powers": {power: rows}}
    text = "\n".join(f"{power:9s} {r['altitude_m']:7.0f} m  {r.get('max_tas_kmh') or 0:7.1f} km/h  "
                     f"climb {r.get('best_climb_ms') or 0:6.1f} m/s" for r in rows)
    return result, text


def run(args) -> int:
    import json
    import sys

    from ..aircraft_data.loader import load_aircraft
    from ..aircraft_data.schema import DataError
    try:
        sim = _sim(args.aircraft, args.mass_kg)
        what = kind(sim)
        if what == "propeller" and getattr(args, "power", None) == "max":
            args.power = "wep"                 # a piston engine's most: war emergency power
        if what == "glider" and args.test in ("level", "ceiling", "performance"):
            why = {"level": "cannot hold level flight", "ceiling": "has no ceiling: it climbs only in rising air",
                   "performance": "has no speed or climb against altitude"}[args.test]
            print(f"error: {args.aircraft} is a glider: with no engine it {why}; its cards are `tunnel polar` "
                  f"(sink against speed) and `tunnel climb` (its least sink)", file=sys.stderr)
            return 2
        if what == "jet" and args.test in ("level", "climb", "ceiling", "performance"):
            result, text = _jet_card(args, sim)
            if args.plot:
                print("note: --plot draws a propeller aircraft's curves; for a jet see "
                      "`python -m flightsim.validate --aircraft ID --report DIR`", file=sys.stderr)
            print(json.dumps(result) if args.json else text)
            return 0
        label = power_label(sim, getattr(args, "power", None))
        if args.test == "level":
            t, _ = max_level_speed(args.aircraft, args.altitude_m, args.power, sim=sim)
            result = {"aircraft": args.aircraft, "altitude_m": float(args.altitude_m),
                      "max_tas_kmh": round(t.tas_ms * KMH, 2), "power": label}
            text = f"{args.aircraft}: {result['max_tas_kmh']:.1f} km/h TAS at {args.altitude_m:.0f} m ({label})"
        elif args.test == "climb" and what == "glider":
            t, r = glider_best_climb(sim, args.altitude_m)
            result = {"aircraft": args.aircraft, "altitude_m": float(args.altitude_m),
                      "best_climb_ms": round(r, 3), "tas_kmh": round(t.tas_ms * KMH, 2), "glider": True}
            text = (f"{args.aircraft}: a glider: its best climb in still air is its least sink, {r:.2f} m/s at "
                    f"{result['tas_kmh']:.1f} km/h TAS, {args.altitude_m:.0f} m")
        elif args.test == "climb":
            t, r, _ = best_climb(args.aircraft, args.altitude_m, args.power, sim=sim)
            result = {"aircraft": args.aircraft, "altitude_m": float(args.altitude_m),
                      "best_climb_ms": round(r, 3), "tas_kmh": round(t.tas_ms * KMH, 2), "power": label}
            text = (f"{args.aircraft}: best climb {r:.2f} m/s at {result['tas_kmh']:.1f} km/h TAS, "
                    f"{args.altitude_m:.0f} m ({label})")
        elif args.test == "ceiling":
            h, _ = service_ceiling(args.aircraft, args.power, sim=sim)
            result = {"aircraft": args.aircraft, "service_ceiling_m": round(h, 1), "power": label}
            text = f"{args.aircraft}: service ceiling {h:.0f} m ({h / 0.3048:.0f} ft, {label})"
        elif args.test == "stall":
            clean, _ = stall_speed(args.aircraft, False, sim=sim)
            landing, _ = stall_speed(args.aircraft, True, sim=sim)
            result = {"aircraft": args.aircraft, "stall_clean_kmh": round(clean, 2),
                      "stall_landing_kmh": round(landing, 2)}
            text = f"{args.aircraft}: stall {clean:.1f} km/h clean, {landing:.1f} km/h gear and flaps down (EAS)"
        else:
            result = curves(args.aircraft, args.mass_kg, args.altitudes_m)
            text = "\n".join(
                f"{p:9s} {r['altitude_m']:7.0f} m  {r.get('max_tas_kmh') or 0:6.1f} km/h  "
                f"climb {r.get('best_climb_ms') or 0:5.2f} m/s  gear {r.get('gear', '-')}"
                for p, rows in result["powers"].items() for r in rows)
        if args.plot:
            perf = result if args.test == "performance" else curves(args.aircraft, args.mass_kg)
            pp = load_aircraft(args.aircraft).powerplant or {}
            plot_performance(perf, pp.get("reference_points", []), args.plot)
    except (DataError, RuntimeError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else text)
    return 0
