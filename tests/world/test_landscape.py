"""The lines on the land and the places people live (world/network.py, world/settlements.py,
world/scenery.py): the roads join every village, the town and the airfield, the railway
keeps to gentle grades, the river runs down its valley into the lake, houses stand along
the roads and never on one, on water or on the airfield, and the woods are cut for them."""
import numpy as np
import pytest

from flightsim.world import network as NW
from flightsim.world import scenery as S
from flightsim.world import terrain as T


@pytest.fixture(scope="module")
def world():
    t = T.generate()
    return t, S.build(t)


def _dist_to(lines, p):
    return min(float(np.min(np.hypot(ln.points[:, 0] - p[0], ln.points[:, 1] - p[1]))) for ln in lines)


def test_the_roads_join_every_place(world):
    t, sc = world
    net = sc.network
    assert len(net.roads) >= len(net.nodes) - 2
    for name, p in net.nodes.items():
        if name == "station":
            assert _dist_to(net.rail, p) < 1.0
        else:
            assert _dist_to(net.roads, p) < 30.0, name
    # a graph of the roads' ends: every node reachable from the airfield
    ends = {}
    for k, ln in enumerate(net.roads):
        for p in (ln.points[0], ln.points[-1]):
            name = min(net.nodes, key=lambda n: np.hypot(*(np.asarray(net.nodes[n]) - p)))
            ends.setdefault(k, set()).add(name)
    reached, grew = {"airfield"}, True
    while grew:
        grew = False
        for names in ends.values():
            if names & reached and not names <= reached:
                reached |= names
                grew = True
    assert reached >= {n for n in net.nodes if n != "station"}


def test_the_railway_keeps_to_gentle_grades_and_the_roads_to_passable_ones(world):
    t, sc = world
    for lines, limit in ((sc.network.rail, 0.05), (sc.network.roads, 0.14)):
        for ln in lines:
            p = ln.points
            s = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(p, axis=0).T))])
            at = np.arange(0.0, s[-1], 200.0)              # every 200 m along it
            n, e = np.interp(at, s, p[:, 0]), np.interp(at, s, p[:, 1])
            grade = np.abs(np.diff(t.height_at(n, e))) / 200.0
            assert np.percentile(grade, 95) < limit, (ln.kind, float(np.percentile(grade, 95)))


def test_the_river_runs_down_its_valley_into_the_lake(world):
    t, sc = world
    (river,) = sc.network.river
    p = river.points
    assert np.all(np.diff(p[:, 0]) < 0)                              # north to south
    mid = p[: len(p) // 2]
    assert np.max(np.abs(mid[:, 1] - T.river_centre_e(mid[:, 0]))) < 50.0
    end = p[-1]
    assert t.is_water(*end) or np.hypot(end[0] - T.LAKE_NE_M[0], end[1] - T.LAKE_NE_M[1]) < 2500.0
    assert river.width_m[-1] > river.width_m[0]                      # it widens downstream


def test_houses_stand_along_the_roads_not_on_them(world):
    t, sc = world
    houses = [b for b in sc.buildings if b.kind == "house"]
    town = sc.landmarks["town"]
    in_town = [b for b in houses if np.hypot(b.north_m - town[0], b.east_m - town[1]) < 600]
    assert len(in_town) > 300
    from flightsim.world.settlements import distance_to_lines, segments_of
    segs = segments_of(sc.network.roads)
    af = t.airfield
    f, r = af.axes()
    for b in houses:
        assert not t.is_water(b.north_m, b.east_m)
        assert distance_to_lines(segs, b.north_m, b.east_m) > 6.0      # clear of the road's 7 m (and its verge)
        dn, de = b.north_m - af.north_m, b.east_m - af.east_m
        assert abs(dn * f[0] + de * f[1]) > af.length_m / 2 or abs(dn * r[0] + de * r[1]) > 300
    village = [b for b in houses if np.hypot(b.north_m + 3500, b.east_m - 2600) < 450]
    assert len(village) >= 10


def test_the_woods_are_cut_for_the_roads_and_the_airfield_has_its_clearing(world):
    t, sc = world
    roads = np.concatenate([ln.points for ln in sc.network.roads])
    trees = sc.trees
    sample = trees[:: max(len(trees) // 4000, 1)]
    d = np.min(np.hypot(sample[:, 0][:, None] - roads[None, ::10, 0], sample[:, 1][:, None] - roads[None, ::10, 1]),
               axis=1)
    assert np.min(d) > 5.0
    alpha = S.forest_alpha(t)
    i, j = np.round((np.array([t.airfield.north_m, t.airfield.east_m]) - np.array(t.origin_ne_m)) / t.spacing_m).astype(int)
    assert alpha[i - 5:i + 6, j - 5:j + 6].max() == 0.0


def test_the_network_is_made_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    t = T.small()
    villages = [(-3500.0, 2600.0), (4200.0, -2500.0)]
    a = NW.build(t, villages)
    assert list((tmp_path / "flightsim" / "terrain").glob("network-*.npz"))
    b = NW.build(t, villages)
    assert [ln.kind for ln in a.lines()] == [ln.kind for ln in b.lines()]
    for x, y in zip(a.lines(), b.lines()):
        assert np.array_equal(x.points, y.points) and np.array_equal(x.width_m, y.width_m)


def test_the_forest_floor_has_the_trees_smooth_edge_not_its_grids_blocks(world):
    """The forest noise is 129 x 129 over the world; read nearest-sample it cut the woods into
    blocks of 4 heightfield samples and more (the blocky forests seen from 3 km). Bilinear, the
    floor changes between any two neighbours at the edge, and the trees stand on it."""
    t, sc = world
    alpha = S.forest_alpha(t)
    edge = (alpha[:, :-1] > 0.05) & (alpha[:, :-1] < 0.95)
    same = np.isclose(alpha[:, 1:], alpha[:, :-1], atol=1e-9) & edge
    assert edge.sum() > 1000
    assert same.sum() / edge.sum() < 0.02
    # every tree on a forest floor (the floor at its point, bilinear between samples)
    o, sp = t.origin_ne_m, t.spacing_m
    u = (sc.trees[:, 0] - o[0]) / sp
    v = (sc.trees[:, 1] - o[1]) / sp
    i, j = u.astype(int), v.astype(int)
    fu, fv = u - i, v - j
    a = (alpha[i, j] * (1 - fu) * (1 - fv) + alpha[i + 1, j] * fu * (1 - fv)
         + alpha[i, j + 1] * (1 - fu) * fv + alpha[i + 1, j + 1] * fu * fv)
    assert np.mean(a > 0.4) > 0.99
