"""The wind tunnel (seed 000's automated benchmarking of an aircraft's performance).

    python -m flightsim.tunnel polar --aircraft astir [--mass-kg M] [--json] [--plot FILE.png]
    python -m flightsim.tunnel roll --aircraft NAME [--altitude-m H] [--json] [--plot FILE.png]
                                    [--compare-tabs [--spring-tab-ias KMH]]
    python -m flightsim.tunnel level|climb --aircraft p51d --altitude-m H [--power wep|military] [--json] [--plot FILE.png]
    python -m flightsim.tunnel ceiling --aircraft p51d [--power military|wep] [--json] [--plot FILE.png]
    python -m flightsim.tunnel stall|performance --aircraft p51d [--json] [--plot FILE.png]
    python -m flightsim.tunnel performance --aircraft p51d [--altitudes-m 0,3000,6000] [--json]
    python -m flightsim.tunnel turn --aircraft f15c --altitude-m H [--power max|military] [--json] [--plot FILE.png]
    python -m flightsim.tunnel breakdown --aircraft spitfire --altitude-m H [--power wep|military] [--json]
    python -m flightsim.tunnel propeller --aircraft p51d [--blade-angle-deg 25,35,45] [--altitude-m H] [--json]
    python -m flightsim.tunnel downwash --aircraft p51d [--ias-kmh V] [--altitude-m H] [--json]

``polar``: steady wings-level glides at sea level ISA in still air, airbrakes in, from
the stall to Vne. Every point is a trim of the full blade-element model (the same
kernel the game flies), not a formula: the tunnel finds alpha, flight-path angle and
elevator for which the aircraft flies on unchanged.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from ..aircraft_data.compile import aircraft_with_mass
from ..aircraft_data.loader import load_aircraft
from ..aircraft_data.schema import DataError
from ..arg_types import ALTITUDE_M, BLADE_ANGLES_DEG, MASS_KG
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from ..physics.state import make_ctrl
from ..sim import Sim
from .glide_sweep import one_g_stall, stall_sweep

KMH = 3.6


def polar(aircraft="astir", mass_kg=None, step_kmh=5.0, engine_off=False):
    """The glide polar at sea level; a powered aircraft's at idle, or with ``engine_off`` its engine
    stopped by the cut-off and the propeller windmilling (a flight manual's engine-failure glide).
    Below some speed a cut engine's friction stops the propeller (a stopped propeller drags less
    than a windmilling one); a pilot gliding at the manual's speed keeps it turning, so the engine-off
    best glide and least sink are taken over the glides whose propeller turns, and
    ``propeller_stops_below_kmh`` says where it stops."""
    compiled = aircraft_with_mass(aircraft, mass_kg)
    sim = Sim(compiled)
    vne_kmh = compiled.spec.aircraft["vne_kmh"]
    clean = make_ctrl(gear_up=1.0, cutoff=1.0 if engine_off else 0.0)   # airbrakes in, a retractable gear up
    front, stall = stall_sweep(sim, vne_kmh / KMH, clean)
    trimmer = sim.trimmer(0.0, clean, plant_in_jacobian=False)
    # the alpha sweep gives good starting points for trims at any speed on the front side
    v_sweep = np.array([t.tas_ms for t in front])[::-1]
    guesses = np.array([(t.alpha_rad, t.gamma_rad, t.pitch_cmd) for t in front])[::-1]

    def glide_curve(speeds_kmh):
        out = []
        for v in speeds_kmh:
            v_ms = v / KMH
            guess = tuple(np.interp(v_ms, v_sweep, guesses[:, k]) for k in range(3))
            t = trimmer.glide(v_ms, guess)
            if t.ok and t.within_travel:
                out.append(t)
        return out

    slowest_kmh = stall.tas_ms * KMH     # the slowest steady glide: the polar's first point
    stall_1g_ms, stall_1g = one_g_stall(front)
    # to the placard speed, or to the fastest steady glide where that is slower (a jet at idle)
    top_kmh = min(vne_kmh, front[0].tas_ms * KMH)
    first = math.floor(slowest_kmh / step_kmh + 1) * step_kmh
    points = [stall] + glide_curve(np.arange(first, top_kmh + 1e-6, step_kmh))
    fine = [stall] + glide_curve(np.arange(slowest_kmh + 0.5, top_kmh + 1e-6, 0.5))
    stops_below_kmh = None
    if engine_off:
        # windmilling: faster than the engine could fire at (below it the rotor only creeps, about
        # 100 rpm on the C172 just above where it stops: the torques of a stopped propeller)
        firing_rpm = AircraftData(compiled.model).firing_rpm
        turning = [t for t in fine if AircraftView(t.state, t.diag).engine_rpm > firing_rpm]
        if turning and len(turning) < len(fine):
            stops_below_kmh = min(t.tas_ms for t in turning) * KMH
        fine = turning or fine
    best = max(fine, key=lambda t: t.glide_ratio)
    minsink = min(fine, key=lambda t: t.sink_ms)
    return {
        "aircraft": aircraft,
        "mass_kg": round(float(compiled.mass_kg), 2),
        "points": [{"tas_kmh": round(t.tas_ms * KMH, 2), "sink_ms": round(t.sink_ms, 4),
                    "glide_ratio": round(t.glide_ratio, 3), "alpha_deg": round(math.degrees(t.alpha_rad), 3),
                    "elevator_cmd": round(t.pitch_cmd, 4)} for t in points],
        "best_glide": {"tas_kmh": round(best.tas_ms * KMH, 2), "glide_ratio": round(best.glide_ratio, 3)},
        "min_sink": {"tas_kmh": round(minsink.tas_ms * KMH, 2), "sink_ms": round(minsink.sink_ms, 4)},
        "stall_kmh": round(stall_1g_ms * KMH, 2),          # corrected to 1 g (glide_sweep.one_g_stall)
        "stall_alpha_deg": round(math.degrees(stall_1g.alpha_rad), 2),
        "stall_limited_by": "elevator travel" if abs(stall_1g.pitch_cmd) > 0.98 else "maximum lift",
        "slowest_glide_kmh": round(slowest_kmh, 2),
        "propeller_stops_below_kmh": None if stops_below_kmh is None else round(stops_below_kmh, 2),
        "cg_m": [round(float(x), 4) for x in compiled.cg_m],
    }


def plot_polar(result: dict, reference: dict | None, path: str):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    v = [p["tas_kmh"] for p in result["points"]]
    w = [p["sink_ms"] for p in result["points"]]
    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)
    ax.plot(v, w, "-", color="tab:blue", lw=2, label=f"flightsim model ({result['mass_kg']:.0f} kg)")
    ax.plot(result["best_glide"]["tas_kmh"], result["best_glide"]["tas_kmh"] / 3.6 / result["best_glide"]["glide_ratio"],
            "o", color="tab:blue", label=f"model best glide {result['best_glide']['glide_ratio']:.1f}")
    ax.plot(result["min_sink"]["tas_kmh"], result["min_sink"]["sink_ms"], "s", color="tab:blue",
            label=f"model min sink {result['min_sink']['sink_ms']:.2f} m/s")
    if reference:
        if reference.get("polar_kmh"):
            ax.plot(reference["polar_kmh"], reference["polar_sink_ms"], "x", color="tab:red", ms=8,
                    label=f"published ({reference['mass_kg']:.0f} kg)")
        if reference.get("best_glide_kmh"):
            ax.plot(reference["best_glide_kmh"], reference["best_glide_kmh"] / 3.6 / reference["best_glide_ratio"],
                    "o", mfc="none", color="tab:red", ms=10, label=f"published best glide {reference['best_glide_ratio']:.1f}")
        if reference.get("min_sink_kmh"):
            ax.plot(reference["min_sink_kmh"], reference["min_sink_ms"], "s", mfc="none", color="tab:red", ms=10,
                    label=f"published min sink {reference['min_sink_ms']:.2f} m/s")
        if reference.get("stall_kmh"):
            ax.axvline(reference["stall_kmh"], color="tab:red", ls=":", label="published stall")
    ax.axvline(result["stall_kmh"], color="tab:blue", ls=":", label="model stall")
    ax.set_xlabel("true airspeed, km/h (sea level ISA)")
    ax.set_ylabel("sink rate, m/s")
    ax.invert_yaxis()
    ax.grid(alpha=0.3)
    ax.set_title(f"{result['aircraft']}: glide polar, airbrakes in, no wind")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _parser() -> argparse.ArgumentParser:
    """Every card's subcommand: the glider's here, the powered aircraft's (perf), the turn (maneuver)."""
    ap = argparse.ArgumentParser(prog="python -m flightsim.tunnel", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="test", required=True)
    p = sub.add_parser("polar", help="glide polar from steady wings-level glides")
    p.add_argument("--aircraft", default="astir")
    p.add_argument("--mass-kg", type=MASS_KG, default=None)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw the polar beside the cited reference points")
    r = sub.add_parser("roll", help="steady roll rate against speed with full lateral stick force")
    r.add_argument("--aircraft", default="astir")
    r.add_argument("--altitude-m", type=ALTITUDE_M, default=0.0)
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument("--plot", metavar="FILE.png", help="draw the roll-rate curve")
    r.add_argument("--compare-tabs", action="store_true",
                   help="also the same aircraft without its aileron tabs (or with --spring-tab-ias, with that spring tab)")
    r.add_argument("--spring-tab-ias", type=float, default=None, metavar="KMH",
                   help="with --compare-tabs: the spring tab to compare with, carrying half the hinge moment at this IAS")
    from . import maneuver, perf
    perf.add_parsers(sub)          # powered aircraft: level, climb, ceiling, stall, performance
    maneuver.add_parser(sub)       # turn rates against speed, the corner speed
    b = sub.add_parser("breakdown", help="the power budget of a propeller aircraft's best climb, term by term")
    b.add_argument("--aircraft", default="p51d")
    b.add_argument("--altitude-m", type=ALTITUDE_M, default=0.0)
    b.add_argument("--power", choices=("wep", "military"), default="wep")
    b.add_argument("--mass-kg", type=MASS_KG, default=None)
    b.add_argument("--json", action="store_true", help="print one JSON object")
    m = sub.add_parser("propeller", help="the propeller's thrust and power coefficients and efficiency against "
                                         "the advance ratio at fixed blade angles")
    m.add_argument("--aircraft", default="p51d")
    m.add_argument("--blade-angle-deg", type=BLADE_ANGLES_DEG, default=None,
                   help="comma-separated blade angles at 0.75 R (default: the fine-pitch stop, +10 and +20 deg)")
    m.add_argument("--altitude-m", type=ALTITUDE_M, default=1000.0)
    m.add_argument("--json", action="store_true", help="print one JSON object")
    d = sub.add_parser("downwash", help="the downwash at the tail, flaps up and down: the model's beside "
                                        "NACA Report 648/651's method")
    d.add_argument("--aircraft", default="p51d")
    d.add_argument("--ias-kmh", type=float, default=None, help="default: the aircraft's trim_change_flaps card")
    d.add_argument("--altitude-m", type=ALTITUDE_M, default=None)
    d.add_argument("--json", action="store_true", help="print one JSON object")
    return ap


def _refused(e: Exception) -> int:
    print(f"error: {e}", file=sys.stderr)
    return 2


def _answer(args, compute, show) -> int:
    """A research card's answer: compute() refused in one line, else its JSON or show() of it."""
    try:
        result = compute()
    except (DataError, RuntimeError, ValueError) as e:
        return _refused(e)
    if args.json:
        print(json.dumps(result))
    else:
        show(result)
    return 0


def _run_breakdown(args) -> int:
    from .breakdown import climb_breakdown, print_breakdown
    return _answer(args, lambda: climb_breakdown(args.aircraft, args.altitude_m, args.power, args.mass_kg),
                   print_breakdown)


def _run_propeller(args) -> int:
    from .propmap import print_map, propeller_map
    return _answer(args, lambda: propeller_map(args.aircraft, args.blade_angle_deg, args.altitude_m), print_map)


def _run_downwash(args) -> int:
    from .downwash import downwash_card, print_downwash
    return _answer(args, lambda: downwash_card(args.aircraft, args.ias_kmh, args.altitude_m), print_downwash)


def _run_turn(args) -> int:
    from . import maneuver
    try:
        return maneuver.run_turn(args)
    except DataError as e:
        return _refused(e)


def _run_roll(args) -> int:
    from .rollrig import plot_roll, roll_comparison, roll_curve
    try:
        if args.compare_tabs:
            result = roll_comparison(args.aircraft, args.altitude_m, args.spring_tab_ias)
        else:
            result = roll_curve(args.aircraft, args.altitude_m)
    except DataError as e:
        return _refused(e)
    if args.plot:
        plot_roll(result, args.plot)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['aircraft']}: roll rate with {result['max_lateral_force_n']:.0f} N lateral stick force, "
          f"{result['altitude_m']:.0f} m")
    other = {p["ias_kmh"]: p for p in result["compare"]["points"]} if result.get("compare") else {}
    if other:
        print(f"  as its data gives it: {result['tabs']};  beside it: {result['compare']['tabs']}")
    for pt in result["points"]:
        line = (f"  {pt['ias_kmh']:6.0f} km/h IAS  {pt['roll_rate_dps']:6.1f} deg/s  "
                f"aileron {100 * pt['aileron_fraction']:3.0f}%")
        o = other.get(pt["ias_kmh"])
        if o is not None:
            line += f"   |  {o['roll_rate_dps']:6.1f} deg/s  aileron {100 * o['aileron_fraction']:3.0f}%"
        print(line)
    return 0


def _run_polar(args) -> int:
    try:
        result = polar(args.aircraft, args.mass_kg)
        if args.plot:
            plot_polar(result, load_aircraft(args.aircraft).reference, args.plot)
    except DataError as e:
        return _refused(e)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['aircraft']} at {result['mass_kg']:.0f} kg, sea level ISA")
    print(f"  stall {result['stall_kmh']:.1f} km/h ({result['stall_limited_by']})")
    print(f"  best glide {result['best_glide']['glide_ratio']:.1f} at {result['best_glide']['tas_kmh']:.1f} km/h")
    print(f"  min sink {result['min_sink']['sink_ms']:.3f} m/s at {result['min_sink']['tas_kmh']:.1f} km/h")
    for pt in result["points"]:
        print(f"  {pt['tas_kmh']:7.1f} km/h  sink {pt['sink_ms']:6.3f} m/s  L/D {pt['glide_ratio']:6.2f}")
    return 0


RUNNERS = {"breakdown": _run_breakdown, "propeller": _run_propeller, "downwash": _run_downwash, "turn": _run_turn,
           "roll": _run_roll, "polar": _run_polar}


def main(argv=None):
    args = _parser().parse_args(argv)
    # every kernel compiled in prepare's order first (as the game and the validation do): compiled
    # lazily in the order a card calls them, results move in their last bits (flightsim/__init__.py)
    from ..app.prepare import ensure_prepared
    ensure_prepared(sys.stderr)
    from . import perf
    if args.test in perf.COMMANDS:
        return perf.run(args)
    return RUNNERS[args.test](args)


if __name__ == "__main__":
    from ..commands import tool_exit
    sys.exit(tool_exit(main))
