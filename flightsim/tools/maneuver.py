"""A jet fighter's energy-maneuverability figures from the full model (issue 19, seed 002's corner
speed and energy management), in the wind tunnel's way: every point is the same derivative kernel
the game flies, at one speed, altitude, power and load factor, in still ISA air.

* **A pull** (``Rig.pull``): wings level, the aircraft at the angle of attack and stabilator
  position where the force normal to the flight path is ``n`` times the weight and the pitching
  moment is zero (the engines settled at the power's throttle; the pitch rate's own damping, small,
  left out). Its **specific excess power** is ``Ps = V (T - D) / W``: the rate it gains energy
  height, m/s.
* **Sustained turn**: the largest load factor with ``Ps = 0`` at that speed; turn rate
  ``g sqrt(n^2 - 1) / V``.
* **Instantaneous turn**: the largest load factor the aircraft can pull at that speed: the
  flight-control law's g limit, or below the corner speed what the wing gives at the law's
  angle-of-attack limit (or at the stabilator's stop). The **corner speed** is the slowest speed
  where the limit can be reached: the instantaneous turn's peak.
* **Level speed**: the fastest speed with ``Ps >= 0`` at 1 g; **climb**: the largest ``Ps`` at
  1 g over speed (the energy method: the rate of climb at constant true airspeed); **ceiling**:
  where that best ``Ps`` falls to a given rate; **acceleration time**: ``dt = V dV / (g Ps)``
  integrated at 1 g along the level flight path.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..arg_types import ALTITUDE_M, MASS_KG
from ..physics.atmosphere import isa
from ..physics.named_model import AircraftData
from ..physics.state import make_ctrl

G0 = 9.80665
POWERS = ("max", "military", "idle")


def throttle_for(data: AircraftData, power: str) -> float:
    """The throttle of a power setting: full (afterburner), the military detent, or idle."""
    if power in ("max", "wep"):
        return 1.0
    if power == "military":
        return data.military_throttle
    if power == "idle":
        return 0.0
    raise ValueError(f"power must be one of {', '.join(POWERS)}, got {power!r}")


@dataclass
class Pull:
    ok: bool               # a solution within the stabilator's travel
    tas_ms: float
    n: float               # load factor normal to the flight path
    alpha_rad: float
    pitch_cmd: float
    ps_ms: float           # specific excess power, m/s

    @property
    def turn_rate_dps(self) -> float:
        return math.degrees(G0 * math.sqrt(max(self.n * self.n - 1.0, 0.0)) / self.tas_ms)


class Rig:
    """Pulls of one aircraft at one altitude and power (a Sim's trimmer underneath)."""

    def __init__(self, sim, altitude_m: float, power: str = "max"):
        self.sim = sim
        self.data = AircraftData(sim.compiled.model)
        self.altitude_m = altitude_m
        self.throttle = throttle_for(self.data, power)
        if self.data.powered and not self.data.jets:
            # a piston engine: full throttle with the propeller lever up, WEP for "max"
            ctrl = make_ctrl(gear_up=1.0, throttle=self.throttle, prop_rpm=1.0,
                             wep=1.0 if power in ("max", "wep") else 0.0)
        else:
            ctrl = make_ctrl(gear_up=1.0, throttle=self.throttle)
        self.trimmer = sim.trimmer(altitude_m, ctrl, plant_in_jacobian=False)
        self.weight_n = sim.compiled.mass_kg * G0
        self.sound_ms = isa(altitude_m)[3]
        self.alpha_max = self.data.alpha_limit_rad if self.data.fly_by_wire else math.radians(25.0)
        # the load factor a pull stops at: the law's limit, else the limit load factor the aircraft's
        # g-meter is marked with (its instruments.toml, each figure cited there)
        if self.data.fly_by_wire:
            self.g_max = self.data.g_limits[0]
        else:
            from ..instruments.spec import load as instrument_spec
            self.g_max = instrument_spec(sim.compiled).g_limit_max
        # the pitch command's reach: with stabilizer trim the stabilizer's travel and the elevator's
        self.travel = 2.0 if self.trimmer.stab_trim else 1.0

    def _eval(self, tas, alpha, pitch_cmd, plant=None):
        """(n normal to the path, pitch acceleration, Ps) of this point (``plant``: the powerplant
        as balanced at this airspeed and angle of attack, Trimmer.last_plant)."""
        f, pitch_acc = self.trimmer.forces(tas, alpha, 0.0, pitch_cmd, self.throttle, plant)
        ca, sa = math.cos(alpha), math.sin(alpha)
        along = f[0] * ca + f[2] * sa            # along the velocity (body x-z plane)
        normal = f[0] * sa - f[2] * ca           # perpendicular to it, up
        return normal / self.weight_n, pitch_acc, tas * along / self.weight_n

    def trim_moment(self, tas, alpha, guess=0.0):
        """The stabilator position with no pitching moment at this angle of attack: (pitch_cmd, n, Ps)."""
        x = guess
        h = 1e-3
        # the stabilator does not move the engine and propeller's balance: the plant is balanced
        # once at this airspeed and angle of attack and held for every position tried
        n, m, ps = self._eval(tas, alpha, x)
        plant = self.trimmer.last_plant
        for _ in range(20):
            if abs(m) < 1e-7:
                break
            m2 = self._eval(tas, alpha, x + h, plant)[1]
            d = (m2 - m) / h
            if abs(d) < 1e-12:
                break
            x = min(max(x - m / d, -3.0), 3.0)
            n, m, ps = self._eval(tas, alpha, x, plant)       # (n, m, ps are always those of x)
        return x, n, ps, abs(m) < 1e-4

    def pull(self, tas_ms: float, n: float, guess: tuple[float, float] = (0.05, 0.0)) -> Pull:
        """The point at load factor n: angle of attack found by the secant method on n(alpha)."""
        a0, x = guess
        a1 = a0 + 0.01
        x, n0, _, _ = self.trim_moment(tas_ms, a0, x)
        for _ in range(30):
            x1, n1, ps1, ok = self.trim_moment(tas_ms, a1, x)
            if abs(n1 - n) < 1e-5 or abs(n1 - n0) < 1e-12:
                break
            a2 = a1 + (n - n1) * (a1 - a0) / (n1 - n0)
            a2 = min(max(a2, -0.5), self.alpha_max + 0.2)
            a0, n0, a1, x = a1, n1, a2, x1
        x1, n1, ps1, ok = self.trim_moment(tas_ms, a1, x)
        return Pull(ok and abs(x1) <= self.travel and abs(n1 - n) < 1e-3, tas_ms, n1, a1, x1, ps1)

    def max_pull(self, tas_ms: float) -> Pull:
        """The most the aircraft can pull at this speed: at the law's angle-of-attack limit (or the
        highest angle the stabilator can hold), capped at the positive g limit. Without a law, the
        wing's maximum lift within the elevator's travel (_max_lift_pull)."""
        g_max = self.g_max
        if not self.data.fly_by_wire:
            p = self._max_lift_pull(tas_ms)
            if p.ok and p.n > g_max:
                return self._pull_below(tas_ms, g_max, p.alpha_rad, p.pitch_cmd)
            return p
        a = self.alpha_max
        x, n, ps, ok = self.trim_moment(tas_ms, a, 0.2)
        while (not ok or abs(x) > 1.0) and a > 0.05:
            a -= math.radians(0.5)
            x, n, ps, ok = self.trim_moment(tas_ms, a, 0.2)
        if n > g_max:
            return self._pull_below(tas_ms, g_max, a, x)
        return Pull(ok and abs(x) <= self.travel, tas_ms, n, a, x, ps)

    def _max_lift_pull(self, tas_ms: float) -> Pull:
        """The largest load factor over the angle of attack whose pitching moment the elevator can
        still balance: a scan up in 1 degree steps until the load factor falls past its peak (the
        stall) or the elevator runs out of travel, then 0.1 degree steps round the peak."""
        best = None
        x = 0.0
        step = math.radians(1.0)

        def at(a, x0):
            x1, n1, ps1, ok1 = self.trim_moment(tas_ms, a, x0)
            ok1 = ok1 and abs(x1) <= self.travel
            return Pull(ok1, tas_ms, n1, a, x1, ps1)
        a = 0.0
        while a <= self.alpha_max:
            p = at(a, x)
            if p.ok:
                x = p.pitch_cmd
                if best is None or p.n > best.n:
                    best = p
                elif p.n < best.n - 0.05 * abs(best.n):
                    break                              # well past the peak: stalled
            elif best is not None:
                break                                  # out of elevator travel
            a += step
        if best is None:
            return Pull(False, tas_ms, 0.0, 0.0, 0.0, 0.0)
        for a in np.arange(best.alpha_rad - step, best.alpha_rad + step + 1e-9, math.radians(0.1)):
            p = at(float(a), best.pitch_cmd)
            if p.ok and p.n > best.n:
                best = p
        return best

    def _pull_below(self, tas_ms: float, n: float, a_hi: float, x_hi: float) -> Pull:
        """The load factor n at an angle of attack below a_hi (where it is exceeded): bisection on
        the angle (the load factor rises with it there), the secant's safe twin."""
        lo, hi = 0.0, a_hi
        x = x_hi
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            x, nm, ps, ok = self.trim_moment(tas_ms, mid, 0.2)
            if nm < n:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-6:
                break
        p = self.pull(tas_ms, n, (0.5 * (lo + hi), x))
        if p.ok:
            return p
        a = 0.5 * (lo + hi)
        x, nm, ps, ok = self.trim_moment(tas_ms, a, 0.2)
        return Pull(ok and abs(x) <= self.travel and abs(nm - n) < 0.02, tas_ms, nm, a, x, ps)

    def sustained(self, tas_ms: float) -> Pull | None:
        """The largest load factor at Ps = 0 (None where even 1 g loses energy)."""
        lo = self.pull(tas_ms, 1.0)
        if not lo.ok or lo.ps_ms < 0.0:
            return None
        top = self.max_pull(tas_ms)
        if top.ps_ms >= 0.0:
            return top
        a, b = lo, top
        for _ in range(40):
            mid = self.pull(tas_ms, 0.5 * (a.n + b.n), (a.alpha_rad, a.pitch_cmd))
            if mid.ps_ms >= 0.0:
                a = mid
            else:
                b = mid
            if b.n - a.n < 2e-3:
                break
        return a


# --------------------------------------------------------------------------- figures

def sim_for(aircraft: str, mass_kg: float | None = None, stores=()):
    """The aircraft at mass_kg in all, carrying the named stores."""
    from ..aircraft_data.compile import aircraft_with_mass
    from ..sim import Sim
    return Sim(aircraft_with_mass(aircraft, mass_kg, stores))


def level_mach(sim, altitude_m: float, power: str = "max", mach_hi: float = 2.6) -> float:
    """The fastest Mach number with Ps >= 0 at 1 g (scanned down from mach_hi, then bisected)."""
    rig = Rig(sim, altitude_m, power)
    a = rig.sound_ms
    m = mach_hi
    prev = None
    while m > 0.2:
        p = rig.pull(m * a, 1.0)
        if p.ok and p.ps_ms >= 0.0:
            break
        prev = m
        m -= 0.05
    else:
        raise RuntimeError(f"no level flight found at {altitude_m:.0f} m with {power} power")
    if prev is None:
        return m
    lo, hi = m, prev
    for _ in range(20):
        mid = 0.5 * (lo + hi)
        p = rig.pull(mid * a, 1.0)
        if p.ok and p.ps_ms >= 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def best_ps(sim, altitude_m: float, power: str = "max", machs=None) -> tuple[float, float]:
    """(largest Ps at 1 g over Mach, m/s; that Mach)."""
    rig = Rig(sim, altitude_m, power)
    machs = np.arange(0.3, 2.45, 0.05) if machs is None else machs
    best = (-1e9, 0.0)
    for m in machs:
        p = rig.pull(m * rig.sound_ms, 1.0)
        if p.ok and p.ps_ms > best[0]:
            best = (p.ps_ms, float(m))
    # refine around the best Mach
    m0 = best[1]
    for m in np.linspace(m0 - 0.05, m0 + 0.05, 11):
        p = rig.pull(m * rig.sound_ms, 1.0)
        if p.ok and p.ps_ms > best[0]:
            best = (p.ps_ms, float(m))
    return best


def ceiling(sim, power: str, rate_ms: float, lo_m: float = 9000.0, hi_m: float = 21000.0) -> float:
    """Altitude (m) where the best Ps at 1 g falls to rate_ms (bisection)."""
    def excess(h):
        return best_ps(sim, h, power, np.arange(0.6, 2.45, 0.1))[0] - rate_ms
    if excess(lo_m) < 0:
        raise RuntimeError(f"the best climb is below {rate_ms} m/s already at {lo_m:.0f} m")
    for _ in range(14):
        mid = 0.5 * (lo_m + hi_m)
        if excess(mid) > 0:
            lo_m = mid
        else:
            hi_m = mid
    return 0.5 * (lo_m + hi_m)


def acceleration_time(sim, altitude_m: float, mach_from: float, mach_to: float, power: str = "max",
                      steps: int = 40) -> float:
    """Seconds of level 1 g flight from mach_from to mach_to: the integral of V dV / (g Ps)."""
    rig = Rig(sim, altitude_m, power)
    a = rig.sound_ms
    vs = np.linspace(mach_from * a, mach_to * a, steps + 1)
    inv = []
    for v in vs:
        p = rig.pull(v, 1.0)
        if not p.ok or p.ps_ms <= 0.0:
            raise RuntimeError(f"no excess power at M {v / a:.2f}, {altitude_m:.0f} m")
        inv.append(v / (G0 * p.ps_ms))
    return float(np.trapezoid(inv, vs))


def stall_tas_ms(rig: Rig) -> float:
    """The 1 g stall speed (TAS) at the rig's altitude and power, from the largest pull: the load
    factor the wing gives at a speed grows as its square, so V_s = V / sqrt(n_max(V)); flown at a
    speed near the stall so the g limit does not cap it (three passes, each at 1.6 times the last
    estimate)."""
    rho = isa(rig.altitude_m)[2]
    v = 0.4 * rig.sim.compiled.spec.aircraft["vne_kmh"] / 3.6 * math.sqrt(1.225 / rho)
    vs = v
    for _ in range(3):
        p = rig.max_pull(v)
        if not p.ok or p.n <= 0.0:
            raise RuntimeError(f"no pull could be trimmed at {v * 3.6:.0f} km/h TAS, {rig.altitude_m:.0f} m")
        vs = v / math.sqrt(p.n)
        v = 1.6 * vs
    return vs


def sweep_machs(rig: Rig, points: int = 24) -> np.ndarray:
    """The turn sweep's speeds: from just above the aircraft's own 1 g stall speed at that altitude
    (5 %) up to its placard speed (vne_kmh, indicated) or M 2, in ``points`` even steps."""
    a = rig.sound_ms
    rho = isa(rig.altitude_m)[2]
    vmax = min(rig.sim.compiled.spec.aircraft["vne_kmh"] / 3.6 * math.sqrt(1.225 / rho), 2.0 * a)
    v0 = 1.05 * stall_tas_ms(rig)
    if v0 >= vmax:
        raise RuntimeError(f"the stall speed is above the placard speed at {rig.altitude_m:.0f} m")
    return np.linspace(v0, vmax, points) / a


def turn_curve(sim, altitude_m: float, power: str = "max", machs=None) -> dict:
    """Sustained and instantaneous turn rates against Mach, and the corner speed."""
    rig = Rig(sim, altitude_m, power)
    a = rig.sound_ms
    rho = isa(altitude_m)[2]
    if machs is None:
        machs = sweep_machs(rig)
    machs = np.asarray(machs)
    rows = []
    for m in machs:
        v = m * a
        inst = rig.max_pull(v)
        sus = rig.sustained(v)
        rows.append({"mach": float(m), "tas_kmh": v * 3.6, "ias_kmh": v * math.sqrt(rho / 1.225) * 3.6,
                     "instantaneous_g": inst.n if inst.ok else None,
                     "instantaneous_dps": inst.turn_rate_dps if inst.ok else None,
                     "sustained_g": sus.n if sus else None,
                     "sustained_dps": sus.turn_rate_dps if sus else None})
    inst_rows = [r for r in rows if r["instantaneous_dps"] is not None]
    peak = max(inst_rows, key=lambda r: r["instantaneous_dps"]) if inst_rows else None
    sus_rows = [r for r in rows if r["sustained_dps"] is not None]
    best_sus = max(sus_rows, key=lambda r: r["sustained_dps"]) if sus_rows else None
    corner = corner_speed(rig, machs[0] * a, machs[-1] * a)
    return {"altitude_m": altitude_m, "power": power if rig.data.powered else "none (a glider)",
            "mass_kg": sim.compiled.mass_kg, "g_limit": rig.g_max, "rows": rows,
            "instantaneous_peak": peak, "sustained_peak": best_sus, "corner": corner}


def corner_speed(rig: Rig, v_lo: float | None = None, v_hi: float | None = None) -> dict | None:
    """The slowest speed at which the aircraft reaches its g limit (bisection on the max pull between
    v_lo and v_hi, TAS m/s; by default M 0.15 to 1.5); None where it cannot reach it by v_hi."""
    g_max = rig.g_max
    a = rig.sound_ms
    lo, hi = (0.15 * a if v_lo is None else v_lo), (1.5 * a if v_hi is None else v_hi)
    if rig.max_pull(hi).n < g_max - 1e-3:
        return None
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if rig.max_pull(mid).n >= g_max - 1e-3:
            hi = mid
        else:
            lo = mid
    v = hi
    p = rig.max_pull(v)
    rho = isa(rig.altitude_m)[2]
    return {"mach": v / a, "tas_kmh": v * 3.6, "ias_kmh": v * math.sqrt(rho / 1.225) * 3.6,
            "g": p.n, "turn_rate_dps": p.turn_rate_dps}



# --------------------------------------------------------------------------- the tunnel's turn test
def add_parser(sub):
    t = sub.add_parser("turn", help="a jet's sustained and instantaneous turn rate against speed, and its corner speed")
    t.add_argument("--aircraft", default="f15c")
    t.add_argument("--altitude-m", type=ALTITUDE_M, default=0.0)
    t.add_argument("--power", default="max", choices=POWERS)
    t.add_argument("--mass-kg", type=MASS_KG, default=None)
    t.add_argument("--json", action="store_true", help="print one JSON object")
    t.add_argument("--plot", metavar="FILE.png", help="draw the turn-rate curves (the energy-maneuverability diagram)")


def run_turn(args) -> int:
    sim = sim_for(args.aircraft, args.mass_kg)
    result = turn_curve(sim, args.altitude_m, args.power)
    result["aircraft"] = sim.compiled.name
    if args.plot:
        plot_turn(result, args.plot)
    if args.json:
        import json
        print(json.dumps(result))
        return 0
    c = result["corner"]
    print(f"{result['aircraft']} at {result['mass_kg']:.0f} kg, {result['altitude_m']:.0f} m ISA, "
          f"{args.power + ' power' if sim.powered else 'no engine'}; pulls to {result['g_limit']:.1f} g at most")
    if not sim.powered:
        print("  a glider sustains no turn in still air: every turn costs height (the instantaneous turn only)")
    if c:
        print(f"  corner speed {c['ias_kmh']:.0f} km/h IAS (M {c['mach']:.2f}): {c['g']:.1f} g, {c['turn_rate_dps']:.1f} deg/s")
    s = result["sustained_peak"]
    if s:
        print(f"  best sustained turn {s['sustained_dps']:.1f} deg/s at M {s['mach']:.2f} ({s['sustained_g']:.1f} g)")
    for r in result["rows"]:
        inst = f"{r['instantaneous_dps']:5.1f} deg/s {r['instantaneous_g']:4.1f} g" if r["instantaneous_dps"] else "  -"
        sus = f"{r['sustained_dps']:5.1f} deg/s {r['sustained_g']:4.1f} g" if r["sustained_dps"] else "  -"
        print(f"  M {r['mach']:4.2f}  {r['ias_kmh']:6.0f} km/h IAS   instantaneous {inst}   sustained {sus}")
    return 0


def plot_turn(result: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = result["rows"]
    fig, ax = plt.subplots(figsize=(8, 5.5))
    x = [r["ias_kmh"] for r in rows]
    ax.plot(x, [r["instantaneous_dps"] or np.nan for r in rows], "-", color="C3", label="instantaneous (g or lift limit)")
    ax.plot(x, [r["sustained_dps"] or np.nan for r in rows], "-", color="C0", label="sustained (Ps = 0)")
    c = result["corner"]
    if c:
        ax.axvline(c["ias_kmh"], color="0.5", ls="--")
        ax.annotate(f"corner {c['ias_kmh']:.0f} km/h IAS\n{c['turn_rate_dps']:.1f} deg/s at {c['g']:.0f} g",
                    (c["ias_kmh"], c["turn_rate_dps"]), textcoords="offset points", xytext=(12, -34), fontsize=9)
    ax.set_xlabel("indicated airspeed, km/h")
    ax.set_ylabel("turn rate, deg/s")
    ax.set_title(f"{result.get('aircraft', '')}: {result['altitude_m']:.0f} m, {result['power']} power, "
                 f"{result['mass_kg']:.0f} kg")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
