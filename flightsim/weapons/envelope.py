"""A missile's launch envelope from its own physics (issue 35).

    python -m flightsim.weapons envelope --weapon aim120c --altitude-m 6000 --launch-mach 0.9 \\
        --target-mach 0.9 [--target-g 7] [--target f15c] [--json] [--plot FILE.png]

The launcher flies level at ``launch_mach`` toward the target, both at ``altitude_m``; the missile
leaves with the launcher's velocity, guided from the rail (flightsim/physics/missile.py) against a
target flying level at ``target_mach``:

* ``rmax_head_on_km``: the longest launch range at which it hits a target flying straight at the
  launcher;
* ``rmax_tail_on_km``: the same with the target flying straight away;
* ``rmin_km``: the shortest launch range at which it hits the head-on target (inside it the fuze is
  not yet armed, or the seeker cannot turn fast enough);
* ``no_escape_km``: the longest launch range at which it still hits a target that turns away at
  launch (level, at ``target_g``) and runs at ``target_mach``;
* ``burnout_mach``: the missile's Mach number at motor burnout in a level shot from the launch
  conditions; ``max_g``: the load factor it can pull then (its lift at the trim angle limit, or
  its airframe's g limit, the smaller).

Each range is bisected to ``RANGE_TOL_M`` between a hit and a miss; a hit is a fuze detonation
within the warhead's lethal radius.
"""
from __future__ import annotations

import copy
import math

import numpy as np

from ..physics import missile as M
from ..physics.atmosphere import isa
from .data import load_missile

DT = 0.02                  # the physics tick (50 Hz)
RANGE_TOL_M = 100.0
MAX_RANGE_M = 300000.0
TARGET_G = 7.0             # the default turn of a target running from the missile


def _flight(missile, altitude_m, launch_mach, target_mach, range_m, aspect, target_g=0.0, track_len=0):
    """One shot: (status, missile state, track (ticks, 6): missile and target positions NED)."""
    sound = isa(altitude_m)[3]
    model = missile.model
    ms = np.zeros(M.N_MS)
    pos = np.array([0.0, 0.0, -altitude_m])
    vel = np.array([launch_mach * sound, 0.0, 0.0])
    tpos = np.array([range_m, 0.0, -altitude_m])
    M.launch(ms, model, pos, vel, tpos)
    heading = {"head_on": math.pi, "tail_on": 0.0, "turning_away": math.pi}[aspect]
    turn_g = target_g if aspect == "turning_away" else 0.0
    track = np.zeros((track_len, 6))
    t_max = missile.guidance["self_destruct_s"] + 1.0
    status, ticks = M.fly_engagement(ms, model, tpos, np.zeros(3), heading, target_mach * sound, turn_g, 0.0,
                                     DT, t_max, M.G0, track)
    return int(status), ms, track[:min(ticks, track_len)]


def _hits(missile, altitude_m, launch_mach, target_mach, range_m, aspect, target_g=0.0) -> bool:
    return _flight(missile, altitude_m, launch_mach, target_mach, range_m, aspect, target_g)[0] == M.ST_HIT


def bisect_range(hit_at, lo_hit: float, hi_miss: float, tol_m: float = RANGE_TOL_M, rel_tol: float = 0.0) -> float:
    """The boundary between a hit at lo_hit and a miss at hi_miss (either way round), to ``tol_m`` or
    ``rel_tol`` of the range, the larger (the launch zone's coarser search: weapons/dlz.py)."""
    a, b = lo_hit, hi_miss
    while abs(b - a) > max(tol_m, rel_tol * max(a, b)):
        mid = 0.5 * (a + b)
        if hit_at(mid):
            a = mid
        else:
            b = mid
    return a


def _some_hit(hit_at) -> float | None:
    for r in (3000.0, 5000.0, 2000.0, 8000.0, 1200.0, 12000.0, 20000.0):
        if hit_at(r):
            return r
    return None


def _rmax(hit_at, start: float) -> float:
    hi = start
    while hit_at(hi):
        hi *= 1.5
        if hi > MAX_RANGE_M:
            return MAX_RANGE_M
    return bisect_range(hit_at, hi / 1.5, hi)


def envelope(weapon: str, altitude_m: float, launch_mach: float, target_mach: float,
             target_g: float = TARGET_G, target: str | None = None) -> dict:
    """The JSON of ``python -m flightsim.weapons envelope`` (module docstring). With ``target`` (an
    aircraft with a [signature]) an infrared missile's maximum ranges are also held to its seeker's
    lock range on that target at launch (flightsim/weapons/infrared.py): nose-on for the head-on and
    no-escape shots, tail-on for the tail chase."""
    missile = load_missile(weapon)
    out = {"weapon": missile.id, "altitude_m": altitude_m, "launch_mach": launch_mach, "target_mach": target_mach}
    start = head_on_start(missile, altitude_m, launch_mach, target_mach)
    for key, aspect in (("rmax_head_on_km", "head_on"), ("rmax_tail_on_km", "tail_on"), ("rmin_km", "rmin"),
                        ("no_escape_km", "turning_away")):
        out[key] = range_limit(missile, altitude_m, launch_mach, target_mach, aspect, target_g, start) / 1000.0
    if target is not None:
        out.update(_lock_limits(missile, target, out))
    bo_mach, max_g = burnout(missile, altitude_m, launch_mach)
    out["burnout_mach"] = bo_mach
    out["max_g"] = max_g
    out["target_g"] = target_g
    out["weapon_name"] = missile.missile["name"]
    return out


def _lock_limits(missile, target: str, out: dict) -> dict:
    """The seeker's lock ranges on ``target`` and the maximum ranges held to them (an infrared
    missile with lock data; a radar missile's are the launcher's business: unchanged)."""
    from ..aircraft_data.loader import load_aircraft
    from .infrared import ir_value, lock_range_m
    spec = load_aircraft(target)
    add: dict = {"target": spec.id}
    if missile.missile["seeker"] != "infrared" or missile.seeker["lock_range_m"] <= 0.0:
        return add
    if spec.signature is None or spec.signature.get("ir_value") is None:
        raise RuntimeError(f"{spec.id} has no [signature] ir_value: the seeker's lock range on it is unknown")
    head = lock_range_m(missile.seeker, ir_value(spec.signature, [-1.0, 0.0, 0.0])) / 1000.0
    tail = lock_range_m(missile.seeker, ir_value(spec.signature, [1.0, 0.0, 0.0])) / 1000.0
    add.update(lock_range_head_on_km=head, lock_range_tail_on_km=tail,
               kinematic_rmax_head_on_km=out["rmax_head_on_km"], kinematic_rmax_tail_on_km=out["rmax_tail_on_km"],
               rmax_head_on_km=min(out["rmax_head_on_km"], head), rmax_tail_on_km=min(out["rmax_tail_on_km"], tail),
               no_escape_km=min(out["no_escape_km"], head))
    return add


def range_limit(missile, altitude_m: float, launch_mach: float, target_mach: float, aspect: str,
                target_g: float = TARGET_G, head_start: float | None = None) -> float:
    """One of the envelope's ranges (m): the maximum ``head_on``, ``tail_on`` or ``turning_away`` (no
    escape), or ``rmin`` (the shortest head-on hit). ``head_start``: a range known to hit head-on
    (head_on_start's), not searched for again."""
    shot = "head_on" if aspect == "rmin" else aspect
    hit = lambda r: _hits(missile, altitude_m, launch_mach, target_mach, r, shot, target_g)  # noqa: E731
    if shot == "head_on":
        start = head_start if head_start is not None else head_on_start(missile, altitude_m, launch_mach, target_mach)
    else:
        start = _some_hit(hit)
        if start is None:
            return 0.0
    if aspect == "rmin":
        return 50.0 if hit(50.0) else bisect_range(hit, start, 50.0)
    return _rmax(hit, start)


def head_on_start(missile, altitude_m: float, launch_mach: float, target_mach: float) -> float:
    """A launch range that hits a head-on target; refused where none from 1.2 to 20 km does."""
    start = _some_hit(lambda r: _hits(missile, altitude_m, launch_mach, target_mach, r, "head_on"))
    if start is None:
        raise RuntimeError(f"{missile.id} hits a head-on target at no range from 1.2 to 20 km at {altitude_m:.0f} m")
    return start


def burnout(missile, altitude_m: float, launch_mach: float) -> tuple[float, float]:
    """(Mach at burnout, the load factor it can pull then) of a level shot from the launch
    conditions (a target far ahead, still; no loft)."""
    level = copy.copy(missile)
    level.model = missile.model.copy()
    level.model[M.MD_LOFT_RANGE] = 0.0
    status, ms, _ = _flight(level, altitude_m, launch_mach, 0.0, 1.0e6, "head_on")
    mach = float(ms[M.MS_BURNOUT_MACH])
    model = missile.model
    _, _, rho, sound = isa(-ms[M.MS_POS + 2])
    v = mach * sound
    n_t, n_m = int(model[M.MD_N_THRUST]), int(model[M.MD_N_MACH])
    o = M.MD_TABLES + 2 * n_t
    cna = float(np.interp(mach, model[o:o + n_m], model[o + 3 * n_m:o + 4 * n_m]))
    mass = model[M.MD_MASS0] - model[M.MD_PROPELLANT]
    lift_g = cna * model[M.MD_ALPHA_MAX] * 0.5 * rho * v * v * model[M.MD_S_REF] / (mass * M.G0)
    return mach, float(min(lift_g, model[M.MD_G_LIMIT]))


def plot_envelope(result: dict, path: str) -> None:
    """The four limiting shots, missile (solid) and target (dotted): from above, and in profile."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    missile = load_missile(result["weapon"])
    fig, (top, side) = plt.subplots(2, 1, figsize=(9, 8))
    for key, aspect, g, colour in (("rmax_head_on_km", "head_on", 0.0, "C0"), ("rmax_tail_on_km", "tail_on", 0.0, "C1"),
                                   ("no_escape_km", "turning_away", result["target_g"], "C2"),
                                   ("rmin_km", "head_on", 0.0, "C3")):
        r = result[key] * 1000.0
        if r <= 0.0:
            continue
        _, _, tr = _flight(missile, result["altitude_m"], result["launch_mach"], result["target_mach"], r, aspect, g,
                           track_len=20000)
        label = f"{key[:-3]}: {result[key]:.1f} km"
        top.plot(tr[:, 0] / 1000.0, tr[:, 1] / 1000.0, colour, label=label)
        top.plot(tr[:, 3] / 1000.0, tr[:, 4] / 1000.0, colour, ls=":", lw=1)
        side.plot(tr[:, 0] / 1000.0, -tr[:, 2] / 1000.0, colour, label=label)
        side.plot(tr[:, 3] / 1000.0, -tr[:, 5] / 1000.0, colour, ls=":", lw=1)
    top.set_ylabel("east, km (from above)")
    side.set_xlabel("north (downrange), km")
    side.set_ylabel("altitude, km")
    top.set_title(f"{result['weapon_name']}: launch M {result['launch_mach']:.2f}, target M {result['target_mach']:.2f}, "
                  f"{result['altitude_m']:.0f} m (missile solid, target dotted)")
    top.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
