"""Flying with no graphics at all: the aircraft stepped headless, telemetry printed."""
from __future__ import annotations

import json
import time

from .physics import layout as L
from .physics.state import DT


def telemetry(args) -> int:
    from .sim import Sim
    from .spec.schema import DataError
    try:
        sim = Sim(args.aircraft or "astir")
    except DataError as e:
        print(f"error: {e}")
        return 2
    ref = sim.compiled.spec.reference or {}
    if sim.powered:          # a powered aircraft starts in trimmed level cruise, a glider in its best glide
        v = (ref.get("cruise_kmh") or 400.0) / 3.6
        sim.spawn_trimmed_level(v, args.altitude_m)
        how = "trimmed level flight"
    else:
        v = (ref.get("best_glide_kmh") or 100.0) / 3.6
        sim.spawn_trimmed_glide(v, args.altitude_m)
        how = "trimmed glide"
    print(f"{sim.compiled.name}: {sim.compiled.mass_kg:.0f} kg, {how} at {v * 3.6:.0f} km/h, "
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
