"""``python -m flightsim.validate --aircraft ID [--json] [--report DIR] [--jsbsim]``

Flies every card of ``aircraft/<ID>/references.toml`` and compares: a table on the console (a
line per card as it is flown), or with ``--json`` one JSON object on stdout (the progress lines
go to stderr); ``--report DIR`` also writes DIR/<ID>.html with its plots. Exit status 0 when
every figure is within its tolerance or explained, and every statement passes or is explained;
``--jsbsim`` adds the side-by-side with JSBSim's model of it (validate/jsbsim_side.py: the
JSON's ``"jsbsim"`` rows, the report's overlays); it does not change the exit status;
1 otherwise; 2 for a usage error (an unknown aircraft, one with no references.toml).
"""
from __future__ import annotations

import argparse
import json
import sys

from ..aircraft_data.loader import list_aircraft
from ..aircraft_data.schema import DataError
from ..app.prepare import ensure_prepared


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flightsim.validate",
                                 description="Fly an aircraft's flight-test cards and compare with the published "
                                             "figures in aircraft/<id>/references.toml.")
    ap.add_argument("--aircraft", required=True, help="aircraft id: " + ", ".join(list_aircraft()))
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    ap.add_argument("--report", metavar="DIR", help="write DIR/<id>.html with a plot per card")
    ap.add_argument("--jsbsim", action="store_true",
                    help="also fly JSBSim's model of the aircraft beside ours on identical inputs (the bench extra)")
    args = ap.parse_args(argv)
    if args.aircraft not in list_aircraft():
        print(f"validate: unknown aircraft {args.aircraft!r} (known: {', '.join(list_aircraft())})", file=sys.stderr)
        return 2
    if args.jsbsim:
        from .jsbsim_side import PAIRS
        if args.aircraft not in PAIRS:
            print(f"validate: --jsbsim: no JSBSim model is paired with {args.aircraft!r} (paired: {', '.join(PAIRS)})",
                  file=sys.stderr)
            return 2
    out = sys.stderr if args.json else sys.stdout
    ensure_prepared(out)

    from .run import validate
    try:
        result = validate(args.aircraft, log=lambda line: print(line, file=out, flush=True))
    except (FileNotFoundError, DataError) as e:
        print(f"validate: {e}", file=sys.stderr)
        return 2
    if args.jsbsim:
        from .jsbsim_side import curves, side_by_side
        try:
            rows, histories = side_by_side(args.aircraft, log=lambda line: print(line, file=out, flush=True))
        except RuntimeError as e:
            print(f"validate: --jsbsim: {e}", file=sys.stderr)
            return 2
        result["jsbsim"] = rows
        result.setdefault("curves", {})["jsbsim"] = curves(histories)
    if args.report:
        from .report import write_report
        page = write_report(result, args.report)
        print(f"report: {page}", file=out)
    s = result["summary"]
    if args.json:
        public = {k: v for k, v in result.items() if k != "curves"}
        print(json.dumps(public, default=float))
    else:
        print(f"{args.aircraft}: {s['figures']} figures, {s['behaviours']} statements, "
              f"{', '.join(f'{n} {k}' for k, n in sorted(s['by_status'].items()))}; "
              f"unexplained {s['unexplained']}; {s['seconds']:.0f} s")
    return 0 if s["unexplained"] == 0 else 1


if __name__ == "__main__":
    from ..commands import tool_exit
    sys.exit(tool_exit(main))
