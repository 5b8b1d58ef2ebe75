"""Automatic slats in the generated 3D model: each slatted section's leading edge is a part
of its own that runs out forward and down by the physics' slat position, carried from the
state through the snapshot and the interpolated pose. Shown on a copy of the P-51D with
slats on its wingtips and outer aileron sections (a fixture, not a real slatted wing)."""
import dataclasses
import math
import shutil

import numpy as np
import pytest

from flightsim import AIRCRAFT_DIR
from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.physics.named_model import AircraftData
from flightsim.render import aircraft_mesh as AM
from flightsim.runtime.handoff import interpolate, make_snapshot

SLATTED = ("wing_tip", "wing_aileron_outer")


def slatted_p51d(root) -> str:
    """A P-51D copy whose wingtip and outer aileron sections carry automatic slats (the open
    table: each section's own, under another name)."""
    d = root / "p51d_slats"
    shutil.copytree(AIRCRAFT_DIR / "p51d", d)
    ac = (d / "aircraft.toml").read_text()
    for sec, af in (("wing_tip", "p51d_tip"), ("wing_aileron_outer", "p51d_tip_aileron")):
        closed = (d / "airfoils" / f"{af}.toml").read_text()
        (d / "airfoils" / f"{af}_slat.toml").write_text(closed.replace('name = "', 'name = "slat open, ', 1))
        old = f'name = "{sec}"\nairfoil = "{af}"'
        assert old in ac
        ac = ac.replace(old, old + f'\nslat_airfoil = "{af}_slat"\nslat_open_alpha_deg = 9.0\n'
                                   'slat_close_alpha_deg = 6.0\nslat_travel_s = 0.2')
    (d / "aircraft.toml").write_text(ac)
    return str(d)


@pytest.fixture(scope="module")
def slatted(tmp_path_factory):
    return compile_aircraft(slatted_p51d(tmp_path_factory.mktemp("ac")))


def _slat_sections(c):
    return [k for k, s in enumerate(c.sections) if s.spec["slat_airfoil"] is not None]


def test_each_slatted_section_has_its_slat_part(slatted):
    m = AM.build(slatted)
    ks = _slat_sections(slatted)
    assert len(ks) == 2 * len(SLATTED)                          # mirrored: left and right
    slats = [p for p in m.parts if p.kind == "slat"]
    assert sorted(p.section for p in slats) == ks
    assert len(m.parts) <= AM.MAX_PARTS
    # still every control surface, and the span is the data's
    assert sum(p.kind == "control" for p in m.parts) == sum(1 for s in slatted.sections if s.spec["control"])
    lo, hi = m.vertices[:, :3].min(0), m.vertices[:, :3].max(0)
    assert hi[1] - lo[1] == pytest.approx(slatted.wing_span_m, rel=0.05)
    # an unslatted aircraft has none
    assert not any(p.kind == "slat" for p in AM.build(compile_aircraft("p51d")).parts)


def test_slat_vertices_run_out_forward_and_down_when_open(slatted):
    m = AM.build(slatted)
    n = len(slatted.sections)
    defl = np.zeros(n)
    closed = m.part_transforms(defl, 0.0, 0.0)
    assert np.allclose(closed, m.part_transforms(defl, 0.0, 0.0, np.zeros(n)))   # none given: closed
    opened = m.part_transforms(defl, 0.0, 0.0, np.ones(n))
    half = m.part_transforms(defl, 0.0, 0.0, np.full(n, 0.5))
    v = m.vertices.astype(np.float64)
    part = v[:, 9].round().astype(int)
    droop = math.radians(AM.SLAT_DROOP_DEG)
    for i, p in enumerate(m.parts):
        if p.kind != "slat":
            if p.kind in ("rigid", "gear"):
                assert np.allclose(opened[i], closed[i])
            continue
        s = slatted.sections[p.section]
        chord = s.spec["chord_m"]
        assert np.allclose(closed[i], np.eye(4))                 # position 0: where the wing's nose is
        pts = np.c_[v[part == i, :3], np.ones(int(np.sum(part == i)))]
        assert len(pts) > 20
        moved = (pts @ opened[i].T)[:, :3] - pts[:, :3]
        fwd = moved @ s.chord_ax
        down = -(moved @ s.normal)
        F, D = AM.SLAT_OUT_FORWARD * chord, AM.SLAT_OUT_DOWN * chord
        nose_drop = AM.SLAT_CHORD * chord * math.sin(droop)     # the droop about its trailing edge
        assert np.all((fwd > 0.85 * F) & (fwd < 1.1 * F))
        assert np.all((down > 0.9 * D) & (down < 1.05 * (D + nose_drop)))
        nose = int(np.argmax(pts[:, :3] @ s.chord_ax))
        assert down[nose] == pytest.approx(D + nose_drop, rel=0.05)
        assert fwd[nose] == pytest.approx(F, rel=0.05)
        # half open: half the way at the pivot
        piv = (half[i] @ np.append(p.pivot, 1.0))[:3] - p.pivot
        assert np.allclose(piv, 0.5 * p.open_m)


def test_section_slat_positions_read_the_state(slatted):
    """Per section, in the order of the slatted sections: the physics' own slat readout while
    they run open in a pull (partly open on the way), 0 for every other section."""
    from flightsim.physics.state import flat_terrain
    from flightsim.sim import Sim
    data = AircraftData(slatted.model)
    ks = _slat_sections(slatted)
    sim = Sim(slatted, terrain=flat_terrain(-1.0e6))
    sim.spawn_trimmed_level(420.0 / 3.6, 3000.0)
    c = sim.controls.copy()
    c.pitch = 1.0
    partly = False
    for _ in range(100):
        sim.step(c.array)
        got = data.section_slat_positions(sim.state)
        assert got.shape == (len(slatted.sections),)
        assert np.array_equal(got[ks], sim.slat_positions[:len(ks)])
        assert np.all(np.delete(got, ks) == 0.0)
        partly |= bool(np.any((got > 0.0) & (got < 1.0)))
    assert partly and np.all(got[ks] == 1.0)
    assert np.all(AircraftData.blank([[0.0] * 4] * 3).section_slat_positions(sim.state) == 0.0)


def test_a_snapshot_pulled_to_high_alpha_carries_open_slats(slatted):
    from flightsim.physics.state import flat_terrain
    from flightsim.sim import Sim
    sim = Sim(slatted, terrain=flat_terrain(-1.0e6))
    sim.spawn_trimmed_level(420.0 / 3.6, 3000.0)
    sim.fly(1.0)
    ks = _slat_sections(slatted)
    cruise = make_snapshot(sim.state, sim.ctrl, sim.diag, sim.model, wall_s=sim.time_s)
    assert np.all(cruise.slat_positions == 0.0)
    c = sim.controls.copy()
    c.pitch = 1.0
    sim.fly(1.5, c.array)
    prev = make_snapshot(sim.state, c.array, sim.diag, sim.model, wall_s=sim.time_s)
    sim.step(c.array)
    snap = make_snapshot(sim.state, c.array, sim.diag, sim.model, wall_s=sim.time_s)
    assert snap.slat_positions.shape == (len(slatted.sections),)
    assert np.all(snap.slat_positions[ks] == 1.0)
    assert np.all(np.delete(snap.slat_positions, ks) == 0.0)
    with pytest.raises(ValueError):
        snap.slat_positions[0] = 0.5                             # read-only, like the rest
    # the pose between a closed and an open snapshot is half way
    mid = interpolate(dataclasses.replace(prev, slat_positions=cruise.slat_positions), snap, 0.5)
    assert np.allclose(mid.slat_positions[ks], 0.5)
    # and the mesh's slats are out
    m = AM.build(slatted)
    t = m.part_transforms(interpolate(prev, snap, 1.0).deflections_rad, 0.0, 0.0, snap.slat_positions)
    for i, p in enumerate(m.parts):
        if p.kind == "slat":
            assert np.allclose(t[i, :3, 3] + t[i, :3, :3] @ p.pivot - p.pivot, p.open_m)
