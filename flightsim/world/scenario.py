"""Starting situations: where and how the aircraft starts, relative to the world's airfield."""
from __future__ import annotations

import math

import numpy as np

SCENARIOS = {
    "airfield": "trimmed glide 3 km out on the extended centreline, 500 m above the field, heading for it",
    "downwind": "trimmed glide abeam the field on a downwind leg, 300 m above it",
    "ridge": "trimmed glide along the ridge west of the field, just above the crest",
    "high": "trimmed glide 1800 m above the field",
    "runway": "parked at the runway threshold, brakes on",
}


def best_glide_ms(compiled) -> float:
    ref = compiled.spec.reference or {}
    return (ref.get("best_glide_kmh") or 100.0) / 3.6


def spawn(sim, terrain, name: str = "airfield"):
    """Put ``sim`` into the scenario; returns (state, ctrl) copies for resets."""
    af = terrain.airfield
    v = best_glide_ms(sim.compiled)
    hdg = af.heading_rad
    if name == "runway":
        n, e = af.to_world(-af.length_m / 2 + 40.0, 0.0)
        sim.spawn_on_ground(n, e, hdg, settle_s=2.0)
    elif name in ("airfield", "downwind", "high", "ridge"):
        if name == "airfield":
            n, e = af.to_world(-af.length_m / 2 - 3000.0, 0.0)
            alt, h = af.elevation_m + 500.0, hdg
        elif name == "downwind":
            n, e = af.to_world(af.length_m / 2, 500.0)
            alt, h = af.elevation_m + 300.0, hdg + math.pi
        elif name == "high":
            n, e = af.to_world(-2000.0, 0.0)
            alt, h = af.elevation_m + 1800.0, hdg
        else:
            n, e = -4000.0, -7400.0 - (-4000.0) * math.tan(math.radians(20.0))
            alt = max(terrain.height_at(n, e), terrain.height_at(n, e + 800)) + 180.0
            h = math.radians(20.0)
        alt = max(alt, terrain.height_at(n, e) + 150.0)
        sim.spawn_trimmed_glide(v, alt, h, n, e)
    else:
        raise KeyError(f"unknown scenario {name!r} (known: {', '.join(SCENARIOS)})")
    return sim.state.copy(), sim.ctrl.copy()
