"""Recorded flights from the command line.

    python -m flightsim.replay FILE                      what the recording holds
    python -m flightsim.replay FILE --verify             re-simulate, compare every snapshot bit for bit
    python -m flightsim.replay FILE --export igc|acmi|csv [-o OUT]
    python -m flightsim.replay FILE --plot OUT.png       altitude, speed, vario and g against time

A file that is not a recording, or holds anything a recorder does not write, is refused in
one line naming the file, where in it and what is wrong (exit 2); a damaged one replays up to
the damage and says where it stops; one made with other aircraft data, another scenario file
or other code is named and not replayed (exit 3; --force replays it anyway, for a look, never
as a verification). An export or plot compares the snapshots as it re-simulates: a flight that
does not replay as recorded, or whose re-simulation is not finite numbers, is not written
(exit 1) unless --force, which writes it, leaves out the rows that are not finite and says in
one line what was wrong. The output path is checked before anything is re-simulated: its
folder must exist (none is made).
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
    ap.add_argument("--force", action="store_true",
                    help="export or plot even if the versions differ or the flight does not replay as recorded")
    args = ap.parse_args(argv)

    from ..aircraft_data.schema import DataError
    from ..paths import OutputPathError
    from ..world.scenario import UnsuitableAircraft
    from .export import check_output
    from .format import NotARecording, read_recording
    from .replay import VersionMismatch, verify
    try:
        rec = read_recording(args.file)
        out: Path | None = None
        if args.export:
            out = check_output(args.output or Path(args.file).with_suffix("." + args.export),
                               "--output" if args.output else "--export", source=args.file)
        if args.plot:
            check_output(args.plot, "--plot", source=args.file, plot=True)
    except (NotARecording, OutputPathError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    h = rec.header
    print(f"{args.file}: {h['aircraft_name']} in {h.get('scenario_name', h['scenario'])}, recorded "
          f"{h['created_utc']}, {rec.seconds:.1f} s ({rec.steps} steps, {len(rec.snapshots)} snapshots)")
    if rec.damage:
        print(f"damaged: {rec.damage}; replaying the {rec.seconds:.1f} s before it")
    if args.verify or args.export or args.plot:
        # re-simulated with every kernel compiled in prepare's order, as the game that recorded it
        # was: compiled lazily in another order, the flight moves in its last bits and would not verify
        from ..app.prepare import ensure_prepared
        ensure_prepared(sys.stderr)
    try:
        if args.verify:
            v = verify(rec)
            print(("verified: " if v.ok else "MISMATCH: ") + str(v))
            return 0 if v.ok else 1
        if args.export or args.plot:
            from .export import export, flight_table, not_finite, plot
            table = flight_table(rec, check_versions=not args.force)
            verdict, unfinite = table["verdict"], not_finite(table)
            wrong = [] if verdict.ok else [f"it does not replay as recorded ({verdict})"]
            wrong += [unfinite] if unfinite else []
            if wrong and not args.force:
                print(f"refused: {args.file}: {'; '.join(wrong)}; nothing written (--force writes it anyway)",
                      file=sys.stderr)
                return 1
            if wrong:
                print(f"warning: {args.file}: {'; '.join(wrong)}; written anyway (--force)"
                      + (", those rows left out" if unfinite else ""), file=sys.stderr)
            target = out
            try:
                if args.export and out is not None:         # (checked above for an export)
                    export(rec, table, args.export, out)
                    print(f"wrote {out} ({out.stat().st_size} bytes)")
                if args.plot:
                    target = args.plot
                    plot(rec, table, args.plot)
                    print(f"wrote {args.plot}")
            except OSError as e:
                print(f"error: {target}: cannot be written ({e.strerror or e})", file=sys.stderr)
                return 2
    except VersionMismatch as e:
        print(f"refused: {e}", file=sys.stderr)
        return 3
    except (NotARecording, DataError, UnsuitableAircraft) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    from ..commands import tool_exit
    sys.exit(tool_exit(main))
