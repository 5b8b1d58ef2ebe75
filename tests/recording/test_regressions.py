"""The kept regression flights (issue 16): four short recorded flights re-simulated with
today's code must match every recorded snapshot bit for bit.

    winch_launch    the Astir's winch launch flown by the autopilot, released at the top (45 s)
    spin_recovery   the Astir stalled into an incipient spin and recovered (30 s)
    p51d_takeoff    the P-51D's take-off run and climb-out by the autopilot (40 s)
    gun_pass        the P-51D flown by the game's AI gunnery against the opponent (30 s)

They are recorded by scripts/record_regressions.py. A failure means the flying changed: a
bit anywhere in the flight model, the world, the AI or the aircraft data. If the change was
meant, record them again with that script and say so in the commit; the failure message
names what differs from the recording's versions.
"""
import math
from pathlib import Path

import numpy as np
import pytest

from flightsim.physics.named import AircraftView
from flightsim.recording.format import read_recording
from flightsim.recording.replay import matches, resimulate, version_differences

FLIGHTS = Path(__file__).parent / "flights"
NAMES = ("winch_launch", "spin_recovery", "p51d_takeoff", "gun_pass", "c172_takeoff", "c172_carb_ice")


def _fly(name):
    """Re-simulate; returns (recording, snapshots matched, first mismatch, per-step readouts)."""
    rec = read_recording(FLIGHTS / f"{name}.fsrec")
    assert rec.damage is None
    matched, first, seen = 0, None, []
    for k, world in resimulate(rec, check_versions=False):
        ph = world.physics
        a = AircraftView(ph.state, ph.diag, rec.dt_s)
        combat = world.combat.frame if getattr(world, "combat", None) is not None else None
        seen.append((a.altitude_m, a.ias_kmh, math.degrees(a.body_rates_rads[2]), a.euler_deg[0], a.euler_deg[1],
                     a.gear_on_ground, 0 if combat is None else combat.hits_scored))
        snap = rec.snapshots.get(k)
        if snap is not None:
            if matches(snap, ph.state):
                matched += 1
            elif first is None:
                first = (k, float(np.nanmax(np.abs(ph.state - snap))))
    return rec, matched, first, np.array(seen)


@pytest.mark.parametrize("name", NAMES)
def test_a_kept_flight_replays_bit_for_bit(name):
    rec, matched, first, seen = _fly(name)
    why = "; ".join(version_differences(rec)) or "no version differs"
    assert first is None and matched == len(rec.snapshots) >= 6, (
        f"{name}: {matched}/{len(rec.snapshots)} snapshots match, first difference after step {first and first[0]} "
        f"(largest {first and first[1]:.3g}); {why}. If the flying was meant to change, run "
        f"python scripts/record_regressions.py {name}")
    # and the flight is what its name says
    alt, ias, yaw_rate, roll, pitch, on_ground, hits = seen.T
    if name == "winch_launch":
        assert any(ev["kind"] == "release_cable" for evs in rec.events.values() for ev in evs)
        assert alt.max() - alt[0] > 250.0
    elif name == "spin_recovery":
        assert yaw_rate[:550].min() < -40.0                      # the incipient spin, to the left
        assert abs(yaw_rate[-50:]).max() < 3.0 and abs(roll[-1]) < 10.0 and abs(pitch[-1]) < 10.0
    elif name == "p51d_takeoff":
        assert on_ground[0] and not on_ground[-1] and alt[-1] - alt[0] > 100.0
    elif name == "gun_pass":
        assert hits[-1] >= 5                                     # the guns found the opponent
    elif name == "c172_takeoff":
        assert on_ground[0] and not on_ground[-1] and alt[-1] - alt[0] > 50.0
    elif name == "c172_carb_ice":                                # ice, then the autopilot's carburettor heat
        from flightsim.physics.named import control_index
        heat = [float(c[control_index("carb_heat")]) for c in rec.controls]
        assert heat[0] == 0.0 and max(heat) == 1.0 and abs(alt - alt[0]).max() < 150.0


def test_the_gun_pass_exports_its_bullets_to_acmi(tmp_path):
    from flightsim.recording.export import export, flight_table
    rec = read_recording(FLIGHTS / "gun_pass.fsrec")
    out = tmp_path / "gun_pass.acmi"
    export(rec, flight_table(rec, check_versions=False), "acmi", out)
    text = out.read_text()
    assert text.count("Type=Weapon+Projectile+Bullet") > 50
    assert "Type=Air+FixedWing" in text


def test_the_flight_model_does_not_depend_on_what_the_process_ran_before(tmp_path):
    """A P-51D World built and flown in a fresh process, and in one that flew an Astir first,
    must be the same to the bit (with LLVM's reassoc flag they were not: flightsim/physics/jit.py)."""
    import subprocess
    import sys
    code = """
import sys, numpy as np
from flightsim.world.assembly import World
if sys.argv[1] == "astir first":
    from flightsim.sim import Sim
    s = Sim("astir"); s.spawn_trimmed_glide(25.0); s.fly(1.0)
w = World(None, "fighter_takeoff")
w.mailbox.post(w.initial_inputs.replace(throttle=1.0, brake_left=0.0, brake_right=0.0))
for k in range(100):
    w.physics.tick(k * 0.02)
np.save(sys.argv[2], np.concatenate([w.physics.state, w.physics.model.ravel()]))
"""
    out = {}
    for mode in ("fresh", "astir first"):
        out[mode] = tmp_path / f"{mode.replace(' ', '_')}.npy"
        subprocess.run([sys.executable, "-c", code, mode, str(out[mode])], check=True, timeout=300)
    assert np.load(out["fresh"]).tobytes() == np.load(out["astir first"]).tobytes()
