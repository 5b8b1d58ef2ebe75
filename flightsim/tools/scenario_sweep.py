"""Does each glider scenario's own pilot do what the scenario promises, over several thermal
seeds and winds? (issue 33)

    python -m flightsim.tools.scenario_sweep [--scenarios airfield,thermal] [--seeds 0,1,2]
                                             [--winds scenario,5@170,6@260] [--json]

Each flight is the game's own: the World, the scenario's autopilot reading snapshots and
posting its controls to the mailbox, the flight log judging the touchdown. ``--seeds`` are
added to the scenario's thermal seed (0: its own; scenarios without thermals fly once);
``--winds`` are ``speed@from`` in m/s and degrees, or ``scenario`` for the scenario's own.
Two scenarios fly their own set (``OWN_WINDS``): the ridge keeps its westerly (its lift is the
promise), and the winch launches into wind within a crosswind limit.

What each promises (``PROMISES``), judged by ``verdict``:

    airfield, downwind, winch, high, landing   a good or firm landing on the runway, no crash
                                               (and, but for ``landing``, in its first third)
    thermal                                    within 300 m of the lowest cloud base, no crash
    cross_country                              in two hours, round the turnpoints and home, or
                                               landed out (a field) with no crash (the
                                               Astir climbs 0.5-1.5 m/s in the scenario's
                                               2.8 m/s thermals: the 30 km and the landing
                                               take 45-87 minutes over 3 seeds and 4 winds)
    ridge                                      still airborne after 10 minutes
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time

from ..arg_types import integer_in, list_of

PROMISES = {
    "airfield": (600.0, "runway, first third"),
    "downwind": (400.0, "runway, first third"),
    "winch": (1200.0, "runway, first third"),
    "high": (1800.0, "runway, first third"),
    "landing": (200.0, "runway"),
    "thermal": (1500.0, "within 300 m of cloud base"),
    "cross_country": (7200.0, "task flown and home, or landed out, with no crash"),
    "ridge": (600.0, "airborne after 10 minutes"),
}
# winds a scenario keeps its promise in: the ridge needs its westerly; a winch launch is made
# into wind, within a crosswind limit (a wing dropped on the ground run means release)
OWN_WINDS = {"ridge": [None, (8.0, 250.0), (12.0, 290.0)],
             "winch": [None, (5.0, 310.0), (4.0, 30.0), (8.0, 350.0)]}


@dataclasses.dataclass
class Flight:
    scenario: str
    seed: int | None
    wind: tuple | None                 # (speed m/s, from deg), None: the scenario's own
    seconds: float
    crash: str | None
    touchdown: object | None           # flight_log.Touchdown
    airborne_end: bool
    max_altitude_m: float
    cloud_base_m: float | None
    turnpoints: tuple | None           # (reached, of)
    field: object | None               # the AirfieldSpec the circuit chose when it landed out
    landing_heading_deg: float | None
    length_m: float
    wall_s: float


def scenario_for(name: str, seed_offset: int = 0, wind=None):
    from ..world.scenario import find_scenario
    sc = find_scenario(name)
    if wind is not None:
        sc = dataclasses.replace(sc, world={**sc.world, "wind_speed_ms": float(wind[0]), "wind_from_deg": float(wind[1])})
    if seed_offset and int(sc.thermals.get("count", 0)) > 0:
        sc = dataclasses.replace(sc, thermals={**sc.thermals, "seed": int(sc.thermals["seed"]) + seed_offset})
    return sc


def fly(sc, seconds: float, small_world=False):
    """Fly a scenario with its own pilot until at rest, a crash or ``seconds``: (world, pilot, log, last snapshot)."""
    from ..pilots.autopilot import autopilot
    from ..world.assembly import World
    from ..world.flight_log import FlightLog
    world = World(scenario=sc, small_world=small_world)
    pilot = autopilot(world.scenario, world.terrain, world.winch, world.weather, powered=False)
    log = FlightLog(world.terrain.airfield)
    snap = world.buffer.read()[1]
    for k in range(int(round(seconds / 0.02))):
        w = world.winch
        log.update(snap, on_cable=bool(w is not None and w.attached),
                   release_altitude_m=None if w is None else w.release_height_m)
        world.mailbox.post(pilot(snap))
        world.physics.tick(k * 0.02)
        snap = world.buffer.read()[1]
        if log.at_rest or log.crash:
            break
    log.update(snap)
    return world, pilot, log, snap


def _circuit_of(pilot):
    """The CircuitPilot a scenario's pilot hands over to (or is), if any."""
    for p in (pilot, getattr(pilot, "soar", None)):
        if p is None:
            continue
        if hasattr(p, "plan_turn"):
            return p
        if getattr(p, "circuit", None) is not None:
            return p.circuit
    return None


def run(name: str, seed_offset: int = 0, wind=None) -> Flight:
    seconds = PROMISES[name][0]
    sc = scenario_for(name, seed_offset, wind)
    t0 = time.perf_counter()
    world, pilot, log, snap = fly(sc, seconds)
    wall = time.perf_counter() - t0
    thermals = getattr(world.weather, "thermals", [])
    base = float(min(th.base_m for th in thermals)) if len(thermals) else None
    tps = None
    if hasattr(pilot, "turnpoints"):
        tps = (min(pilot.leg, len(pilot.turnpoints)), len(pilot.turnpoints))
    circuit = _circuit_of(pilot)
    td = log.touchdown
    return Flight(name, seed_offset if len(thermals) else None, wind, float(snap.time_s), log.crash, td,
                  not snap.on_ground, float(log.max_alt_m), base, tps,
                  None if circuit is None else circuit.field,
                  None if circuit is None or td is None else float(circuit.af.heading_deg),
                  float(world.terrain.airfield.length_m), wall)


def verdict(f: Flight) -> tuple[bool, str]:
    """Whether the flight kept its scenario's promise, and what happened, in a line."""
    td = f.touchdown
    if f.crash:
        return False, f.crash
    what = f"airborne at {f.seconds:.0f} s" if td is None else td.text
    promise = PROMISES[f.scenario][1]
    if promise.startswith("runway"):
        ok = td is not None and td.place == "runway" and td.grade in ("good", "firm")
        if ok and "first third" in promise:
            sign = 1.0 if abs(((f.landing_heading_deg or 0.0) - 350.0 + 180.0) % 360.0 - 180.0) < 90.0 else -1.0
            from_threshold = f.length_m / 2 + sign * td.along_m
            ok = 0.0 <= from_threshold <= f.length_m / 3
            what += f", {from_threshold:.0f} m past the threshold"
        return ok, what
    if f.scenario == "thermal":
        below = f.cloud_base_m - f.max_altitude_m
        where = f"{below:.0f} m under" if below >= 0.0 else f"{-below:.0f} m over"
        return below <= 300.0, what + f"; highest {where} the lowest cloud base"
    if f.scenario == "cross_country":
        # round the turnpoints and back home, or landed out: either way down safely
        landed = td is not None and td.grade in ("good", "firm")
        rounded = f.turnpoints is not None and f.turnpoints[0] >= f.turnpoints[1]
        home = landed and td.place in ("runway", "airfield")
        how = "task flown" if rounded and home else "landed out" if landed else "not down"
        where = "" if f.field is None else " in a field"
        return landed, what + f"{where}; turnpoints {f.turnpoints[0]}/{f.turnpoints[1]}, {how}"
    if f.scenario == "ridge":
        return f.airborne_end and f.seconds >= 599.0, what
    return True, what


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flightsim.tools.scenario_sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenarios", type=list_of(str), default=list(PROMISES))
    ap.add_argument("--seeds", type=list_of(integer_in(0, 1_000_000, "(a seed offset)")), default=[0, 1, 2])
    ap.add_argument("--winds", type=list_of(str), default=["scenario", "5@170", "6@260", "8@350"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    unknown = [s for s in args.scenarios if s not in PROMISES]
    if unknown:
        ap.error(f"--scenarios: no promise known for {', '.join(unknown)} (known: {', '.join(PROMISES)})")
    winds = []
    for w in args.winds:
        if w == "scenario":
            winds.append(None)
            continue
        try:
            speed, frm = (float(x) for x in w.split("@"))
        except ValueError:
            ap.error(f"--winds: {w!r} is not speed@from (m/s, degrees) or 'scenario'")
        if not (0.0 <= speed <= 25.0 and 0.0 <= frm <= 360.0) or not math.isfinite(speed + frm):
            ap.error(f"--winds: {w!r} out of range (0-25 m/s, 0-360 degrees)")
        winds.append((speed, frm))
    rows, kept = [], 0
    for name in args.scenarios:
        from ..world.scenario import find_scenario
        has_thermals = int(find_scenario(name).thermals.get("count", 0)) > 0
        for seed in (args.seeds if has_thermals else [0]):
            for wind in OWN_WINDS.get(name, winds):
                f = run(name, seed, wind)
                ok, what = verdict(f)
                kept += ok
                rows.append(dict(scenario=name, seed=f.seed, wind=None if wind is None else list(wind), ok=ok,
                                 outcome=what, seconds=round(f.seconds, 1), wall_s=round(f.wall_s, 1)))
                if not args.json:
                    w = "its own" if wind is None else f"{wind[0]:g} m/s from {wind[1]:g}"
                    s = "" if f.seed is None else f" seed +{seed}"
                    at = "" if f.touchdown is None else f" (at rest at {f.seconds:.0f} s)"
                    print(f"{'ok  ' if ok else 'FAIL'} {name:14s}{s:9s} wind {w:20s} {what}{at}", flush=True)
    if args.json:
        print(json.dumps(dict(flights=rows, kept=kept, of=len(rows)), indent=1))
    else:
        print(f"{kept} of {len(rows)} flights kept their scenario's promise")
    return 0 if kept == len(rows) else 1


if __name__ == "__main__":
    import sys

    from ..commands import tool_exit
    sys.exit(tool_exit(main))

