"""Drawing damage (issue 18): the trails a damaged aircraft leaves, shot-away sections and
released stores hidden on the generated mesh (numpy only: no GL needed)."""
import numpy as np

from flightsim.aircraft_data.compile import compile_aircraft
from flightsim.render import aircraft_mesh
from flightsim.render.damage_fx import PUFFS, Trails


def test_stores_show_while_on_and_shot_away_sections_vanish():
    comp = compile_aircraft("p51d")
    mesh = aircraft_mesh.build(comp)
    stores = [k for k, p in enumerate(mesh.parts) if p.kind == "store"]
    sections = {p.section: k for k, p in enumerate(mesh.parts) if p.kind == "section"}
    assert len(stores) == 4 and len(sections) > 10
    n = len(comp.sections)
    dmg = np.zeros(n)
    wingtip = max((i for i in sections if comp.sections[i].spec["group"] == "wing"),
                  key=lambda i: comp.sections[i].pos[1])
    dmg[wingtip] = 1.0
    t = mesh.part_transforms(np.zeros(n), 0.0, 1.0, None, dmg, np.array([1.0, 0.0, 0.0, 0.0]))
    assert np.allclose(t[stores[0]], np.eye(4))                        # carried: drawn where it hangs
    assert all(np.allclose(t[k][:3, :3], 0.0) for k in stores[1:])     # not carried: collapsed
    assert np.allclose(t[sections[wingtip]][:3, :3], 0.0)              # shot away: not drawn
    others = [k for i, k in sections.items() if i != wingtip]
    assert all(np.allclose(t[k], np.eye(4)) for k in others)
    # no damage and no stores given (an aircraft without them): every section drawn, stores hidden
    t = mesh.part_transforms(np.zeros(n), 0.0, 1.0)
    assert all(np.allclose(t[k], np.eye(4)) for k in sections.values())


def test_trails_are_left_where_the_aircraft_was_and_fade():
    tr = Trails()
    src = (("coolant", (-4.9, 0.0, 0.85), 0.6), ("fire", (-3.45, 2.03, 0.52), 1.0))
    q = np.array([1.0, 0.0, 0.0, 0.0])
    for k in range(50):                      # 1 s at 50 Hz, flying north at 120 m/s
        tr.emit("player", src, np.array([120.0 * 0.02 * k, 0.0, -1000.0]), q, np.zeros(3), 0.02 * k)
    v = tr.quads(np.array([0.0, -50.0, -1000.0]), 1.0)
    assert v.shape[1] == 9 and len(v) % 6 == 0 and len(v) > 0
    n_fire = np.sum((tr.kind == tr.kinds.index("fire")) & (1.0 - tr.born < PUFFS["fire"][3]))
    n_smoke = np.sum(tr.kind == tr.kinds.index("smoke"))
    assert n_fire > 5 and n_smoke > 5                                 # a fire trails flame and black smoke
    # puffs stay where they were left: the oldest coolant puff is near the start of the track
    c = tr.pos[tr.kind == tr.kinds.index("coolant")]
    assert c[:, 0].min() < 5.0 and c[:, 0].max() > 100.0
    # long after, all faded
    assert len(tr.quads(np.zeros(3), 60.0)) == 0
