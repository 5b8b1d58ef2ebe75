"""flightsim's entry point. Until the window exists (issue 3): a headless flight with telemetry."""
from __future__ import annotations

import argparse
import json
import math
import time

from .physics import layout as L
from .physics.state import DT
from .sim import Sim
from .spec.schema import DataError


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python run.py", description="flightsim (headless until the window lands)")
    ap.add_argument("--aircraft", default="astir")
    ap.add_argument("--seconds", type=float, default=60.0, help="simulated seconds to fly")
    ap.add_argument("--altitude-m", type=float, default=600.0)
    ap.add_argument("--realtime", action="store_true", help="pace the 50 Hz steps to the wall clock")
    ap.add_argument("--json", action="store_true", help="telemetry as JSON lines")
    args = ap.parse_args(argv)
    try:
        sim = Sim(args.aircraft)
    except DataError as e:
        print(f"error: {e}")
        return 2
    ref = sim.compiled.spec.reference or {}
    v = (ref.get("best_glide_kmh") or 100.0) / 3.6
    sim.spawn_trimmed_glide(v, args.altitude_m)
    print(f"{sim.compiled.name}: {sim.compiled.mass_kg:.0f} kg, trimmed glide at {v * 3.6:.0f} km/h, "
          f"{args.altitude_m:.0f} m; flying {args.seconds:.0f} s headless", flush=True)
    t0 = time.perf_counter()
    for tick in range(int(args.seconds / DT)):
        if sim.step() != 0:
            print("non-finite state refused; stopping")
            return 1
        if args.realtime:
            delay = t0 + (tick + 1) * DT - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        if (tick + 1) % 50 == 0:
            t = sim.telemetry()
            print(json.dumps(t) if args.json else
                  f"t {t['t_s']:6.1f} s  alt {t['altitude_m']:7.1f} m  TAS {t['tas_kmh']:6.1f} km/h  "
                  f"vs {t['vs_ms']:6.2f} m/s  pitch {t['pitch_deg']:5.1f}  roll {t['roll_deg']:5.1f}  "
                  f"hdg {t['heading_deg']:5.1f}  alpha {t['alpha_deg']:5.2f}", flush=True)
        if sim.diag[L.D_ON_GROUND] > 0 or sim.state[L.S_STRIKE_INDEX] >= 0:
            print(f"on the ground after {sim.time_s:.1f} s")
            break
    return 0
