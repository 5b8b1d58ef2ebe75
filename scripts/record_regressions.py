"""Record the test suite's regression flights (tests/recording/flights/, issue 16).

    python scripts/record_regressions.py            all of them
    python scripts/record_regressions.py spin_recovery

Each is a short flight through a scenario, flown by a pilot written here (the autopilot, a
scripted spin, the AI's gunnery on the player's side) and recorded as the game records
one. tests/recording/test_regressions.py re-simulates each with the code of the day and
compares every snapshot bit for bit: a change anywhere in the flight model, the world or
the aircraft data that moves a single bit fails it. When a change is meant to alter the
flying, record them again with this script and say so in the commit.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flightsim.runtime.handoff import DT  # noqa: E402

OUT = ROOT / "tests" / "recording" / "flights"


def _euler(snap):
    w, x, y, z = snap.quat_wxyz
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    return roll, pitch


def spin_pilot(world):
    """The Astir from 1800 m: a 2.5 s pull to the stall, full back stick and left rudder
    into an incipient spin, held 6 s; then the standard recovery (full opposite rudder,
    stick forward until the rotation stops) and a pull-out to level flight."""
    base = world.initial_inputs
    phase = {"now": "entry"}

    def pilot(t, snap):
        r = float(snap.omega_body_rads[2])
        if t < 2.0:
            return base
        if t < 4.5:
            return base.replace(pitch=min(1.0, (t - 2.0) / 2.5))
        if phase["now"] == "entry":
            if t < 11.0:
                return base.replace(pitch=1.0, yaw=-1.0)
            phase["now"] = "recover"
        if phase["now"] == "recover":
            if abs(r) < 0.15:
                phase["now"] = "pull out"
            else:
                return base.replace(pitch=-0.3, yaw=1.0)
        roll, pitch = _euler(snap)
        q = float(snap.omega_body_rads[1])
        return base.replace(yaw=0.0, roll=float(np.clip(-1.5 * roll, -1, 1)),
                            pitch=float(np.clip(2.0 * (0.0 - pitch) - 0.5 * q, -0.4, 0.6)))
    return pilot


def autopilot_of(world):
    from flightsim.pilots.autopilot import autopilot
    ap = autopilot(world.scenario, world.terrain, world.winch, world.weather, powered=world.sim.powered)
    return lambda t, snap: ap(snap)


def gun_pass_pilot(world):
    """The P-51D in fighter_combat flown by the game's own AI pilot against the opponent: it
    closes, aims and fires when its lead point is in the gun cone."""
    from flightsim.pilots.ai import AirData
    from flightsim.world.combat import fighter_ai
    ph = world.physics
    ai = fighter_ai(world.compiled, ph.ctrl.copy(), {"max_g": 6.0, "gun_range_m": 600.0, "floor_m": 300.0})
    opp = world.combat.opp_sim

    def pilot(t, snap):
        pos = snap.position_ned_m
        me = AirData.from_sim(ph.state, ph.diag, world.terrain.height_at(pos[0], pos[1]))
        return ai(me, opp.position_ned_m, opp.body_to_ned() @ opp.velocity_body_ms)
    return pilot


FLIGHTS = {
    # name: (scenario, seconds, pilot factory)
    "winch_launch": ("winch", 45.0, autopilot_of),
    "spin_recovery": ("high", 30.0, spin_pilot),
    "p51d_takeoff": ("fighter_takeoff", 40.0, autopilot_of),
    "gun_pass": ("fighter_combat", 30.0, gun_pass_pilot),
    # the C172: its take-off run on the nose wheel (the ground friction), and its carburettor icing
    # in moist air with the autopilot's carburettor heat (issue 34)
    "c172_takeoff": ("c172_circuits", 40.0, autopilot_of),
    "c172_carb_ice": ("c172_carb_ice", 45.0, autopilot_of),
}


def record(name: str) -> Path:
    from flightsim.recording.recorder import start_recording
    from flightsim.world.assembly import World
    scenario, seconds, make_pilot = FLIGHTS[name]
    world = World(None, scenario)
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / f"{name}.fsrec"
    rec = start_recording(world, out)
    pilot = make_pilot(world)
    ph = world.physics
    try:
        for k in range(int(round(seconds / DT))):
            snap = world.buffer.read()[1]
            world.mailbox.post(pilot(k * DT, snap))
            ph.tick(k * DT)
    finally:
        rec.close()
    snap = world.buffer.read()[1]
    extra = ""
    if world.combat is not None:
        f = world.combat.frames[1]
        extra = f", hits scored {f.hits_scored}, taken {f.hits_taken}, rounds left {f.player_ammo}"
    print(f"{out}: {rec.step} steps, {out.stat().st_size} bytes; ends at "
          f"{snap.altitude_m:.0f} m, {snap.ias_ms * 3.6:.0f} km/h IAS{extra}")
    return out


if __name__ == "__main__":
    for n in sys.argv[1:] or list(FLIGHTS):
        record(n)
