"""``python -m flightsim.weapons``: the guided weapons' tools.

    python -m flightsim.weapons envelope --weapon ID --altitude-m H --launch-mach M --target-mach MT
                                         [--target-g G] [--target AIRCRAFT] [--json] [--plot F]
    python -m flightsim.weapons validate --weapon ID [--json]
    python -m flightsim.weapons list

``envelope``: maximum range head-on and tail-on, minimum range and the no-escape range, flown from
the missile's own physics (flightsim/weapons/envelope.py says how each is found).
"""
from __future__ import annotations

import argparse
import json
import sys

from ..aircraft_data.schema import DataError
from ..arg_types import number_in

MACH = number_in(0.0, 3.0, "Mach")
SHOT_ALTITUDE_M = number_in(0.0, 25000.0, "m")     # the envelope's ground is sea level: below it a missile starts underground


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m flightsim.weapons", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("envelope", help="a missile's launch envelope from its physics")
    e.add_argument("--weapon", required=True, help="a weapon's id (python -m flightsim.weapons list)")
    e.add_argument("--altitude-m", type=SHOT_ALTITUDE_M, required=True,
                   help="the shot's height, 0-25,000 m (the tool flies over flat ground at sea level)")
    e.add_argument("--launch-mach", type=MACH, required=True)
    e.add_argument("--target-mach", type=MACH, required=True)
    e.add_argument("--target-g", type=number_in(1.0, 12.0, "g"), default=None,
                   help="the no-escape target's turn away (default 7 g)")
    e.add_argument("--target", default=None, metavar="AIRCRAFT",
                   help="an infrared missile's ranges held to its seeker's lock range on this aircraft")
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.add_argument("--plot", metavar="FILE.png", help="draw the four limiting shots")
    v = sub.add_parser("validate", help="a missile's figures against what is published")
    v.add_argument("--weapon", required=True)
    v.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_parser("list", help="the weapons with a data file")
    return ap


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    from .data import list_weapons
    if args.command == "list":
        for w in list_weapons():
            print(w)
        return 0
    if args.command == "validate":
        return _validate(args)
    from ..paths import OutputPathError, check_output
    from .envelope import TARGET_G, envelope, plot_envelope
    try:
        if args.plot:
            check_output(args.plot, "--plot")
        r = envelope(args.weapon, args.altitude_m, args.launch_mach, args.target_mach,
                     TARGET_G if args.target_g is None else args.target_g, args.target)
        if args.plot:
            plot_envelope(r, args.plot)
    except (DataError, OutputPathError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['weapon_name']}: launched at M {r['launch_mach']:.2f}, {r['altitude_m']:.0f} m, "
          f"against a target at M {r['target_mach']:.2f}")
    print(f"  maximum range, head-on   {r['rmax_head_on_km']:7.1f} km")
    print(f"  maximum range, tail-on   {r['rmax_tail_on_km']:7.1f} km")
    print(f"  no-escape range          {r['no_escape_km']:7.1f} km  (the target turning away at {r['target_g']:.0f} g)")
    print(f"  minimum range            {r['rmin_km']:7.2f} km")
    print(f"  at burnout               M {r['burnout_mach']:.2f}, {r['max_g']:.0f} g available")
    if "lock_range_head_on_km" in r:
        print(f"  seeker lock on {r['target']}: {r['lock_range_head_on_km']:.1f} km nose-on, "
              f"{r['lock_range_tail_on_km']:.1f} km tail-on (kinematic reach {r['kinematic_rmax_head_on_km']:.1f} / "
              f"{r['kinematic_rmax_tail_on_km']:.1f} km)")
    return 0


def _validate(args) -> int:
    from .validate import print_validation, validate
    try:
        r = validate(args.weapon)
    except (DataError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r))
    else:
        print_validation(r)
    return 1 if r["summary"]["unexplained"] else 0


if __name__ == "__main__":
    from ..commands import tool_exit
    sys.exit(tool_exit(main))
