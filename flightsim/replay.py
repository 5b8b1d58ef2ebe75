"""Recorded flights from the command line.

    python -m flightsim.replay FILE                      what the recording holds
    python -m flightsim.replay FILE --verify             re-simulate, compare every snapshot bit for bit
    python -m flightsim.replay FILE --export igc|acmi|csv [-o OUT]
    python -m flightsim.replay FILE --plot OUT.png       altitude, speed, vario and g against time

A file that is not a recording is refused in one line; a damaged one replays up to the
damage and says where it stops; one made with other aircraft data, another scenario file
or other code is named and not replayed (--force replays it anyway, for a look, never as
a verification).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flightsim.replay", description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--verify", action="store_true", help="re-simulate and compare the snapshots bit for bit")
    ap.add_argument("--export", choices=("igc", "acmi", "csv"), help="write the flight in this format")
    ap.add_argument("-o", "--output", help="output file (default: the recording's name with the format's suffix)")
    ap.add_argument("--plot", metavar="OUT.png", help="altitude, speed, vario and g against time")
    ap.add_argument("--force", action="store_true", help="export or plot even if the versions differ")
    args = ap.parse_args(argv)

    from .recording.format import NotARecording, read_recording
    from .recording.replay import VersionMismatch, verify
    try:
        rec = read_recording(args.file)
    except (NotARecording, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    h = rec.header
    print(f"{args.file}: {h['aircraft_name']} in {h.get('scenario_name', h['scenario'])}, recorded "
          f"{h['created_utc']}, {rec.seconds:.1f} s ({rec.steps} steps, {len(rec.snapshots)} snapshots)")
    if rec.damage:
        print(f"damaged: {rec.damage}; replaying the {rec.seconds:.1f} s before it")
    try:
        if args.verify:
            v = verify(rec)
            print(("verified: " if v.ok else "MISMATCH: ") + str(v))
            return 0 if v.ok else 1
        if args.export or args.plot:
            from .recording.export import export, flight_table, plot
            table = flight_table(rec, check_versions=not args.force)
            if args.export:
                out = Path(args.output or Path(args.file).with_suffix("." + args.export))
                export(rec, table, args.export, out)
                print(f"wrote {out} ({out.stat().st_size} bytes)")
            if args.plot:
                plot(rec, table, args.plot)
                print(f"wrote {args.plot}")
    except VersionMismatch as e:
        print(f"refused: {e}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
