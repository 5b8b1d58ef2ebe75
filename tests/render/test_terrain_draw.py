"""The terrain's draw (render/terrain_draw.py) on real offscreen GL: skirts only where the level
of detail changes, and the airfield's and the water's shader variants only where they are needed,
drawing the same ground as before."""
import numpy as np
import pytest

W, H = 960, 540
MAGENTA = (1.0, 0.0, 1.0)


@pytest.fixture(scope="module")
def scene(gl_session):
    from flightsim.render.terrain_draw import TerrainRenderer
    from flightsim.world.assembly import World
    from tests.render.conftest import offscreen
    ctx = gl_session[1]
    world = World("astir", "ridge")
    rend = {q: TerrainRenderer(ctx, world.terrain, None, q) for q in ("low", "medium")}
    return ctx, world, rend, offscreen(ctx, W, H)


COMMON = {"u_sun_ned": (0.3, 0.2, -0.93), "u_sky_zenith": (0.25, 0.45, 0.85), "u_sky_horizon": (0.7, 0.8, 0.9),
          "u_sun_color": (1.0, 0.97, 0.9), "u_ambient": (0.5, 0.55, 0.6)}


def _views(world, n=8, seed=5):
    """Low eyes over the hills looking along them, and high ones looking down."""
    from flightsim.render.camera import look_at
    rng = np.random.default_rng(seed)
    t = world.terrain
    out = []
    for k in range(n):
        n_m, e_m = rng.uniform(-12000, 12000, 2)
        g = t.height_at(n_m, e_m)
        agl = rng.uniform(60.0, 400.0) if k % 2 == 0 else rng.uniform(1500.0, 4000.0)
        eye = np.array([n_m, e_m, -(g + agl)])
        hdg, dive = rng.uniform(0, 2 * np.pi), (rng.uniform(0.02, 0.15) if k % 2 == 0 else rng.uniform(0.3, 0.8))
        out.append(look_at(eye, eye + 1000 * np.array([np.cos(hdg), np.sin(hdg), dive])))
    return out


def _terrain_only(ctx, fbo, tr, view):
    """The terrain alone over a magenta clear (no sky): (H, W, 3) uint8."""
    from flightsim.render.png import read_pixels
    fbo.use()
    fbo.viewport = (0, 0, W, H)
    ctx.enable_only(ctx.DEPTH_TEST)
    fbo.clear(*MAGENTA, 1.0, depth=1.0)
    tr.draw(view, view.m_proj(W / H), dict(COMMON, u_fog_density=tr.q["fog"]), tr.terrain.airfield)
    ctx.finish()
    return read_pixels(ctx, fbo)


def _holes(img) -> int:
    """Magenta pixels with ground above them in their column: gaps in the ground (cracks)."""
    px = img.astype(int)
    void = (px[..., 0] > 240) & (px[..., 1] < 15) & (px[..., 2] > 240)
    ground = ~void
    # rows run top to bottom in read_pixels' image: ground anywhere above a void pixel
    above = np.maximum.accumulate(ground, axis=0)
    return int(np.sum(void[1:] & above[:-1]))


@pytest.mark.parametrize("quality", ["low", "medium"])
def test_no_cracks_where_the_level_of_detail_changes(scene, quality, monkeypatch):
    """Skirts hang only from edges between nodes of different sizes, and no view over the hills
    shows a gap in the ground; with no skirts at all the same views do (the check can fail)."""
    import flightsim.render.terrain_draw as td
    ctx, world, rend, fbo = scene
    r = rend[quality]
    views = _views(world)
    holes = [_holes(_terrain_only(ctx, fbo, r, v)) for v in views]
    hung = r.stats.skirts
    assert sum(holes) == 0, holes
    assert 0 < hung < 4 * r.stats.terrain_nodes     # some edges, not all
    monkeypatch.setattr(td, "skirt_edges", lambda inst, *a: np.zeros((len(inst), 4), bool))
    bare = [_holes(_terrain_only(ctx, fbo, r, v)) for v in views]
    assert sum(bare) > 0, bare


def test_the_variants_draw_the_ground_the_full_shader_draws(scene, monkeypatch):
    """Every node drawn by the shader with the airfield and the water in it, or each by its own
    variant: the same picture, over the airfield, the lake and the hills."""
    import flightsim.render.terrain_draw as td
    from flightsim.render.camera import look_at
    ctx, world, rend, fbo = scene
    t = world.terrain
    af = t.airfield
    wet = np.argwhere(t.heights_m <= t.water_level_m)
    rw, cw = wet[len(wet) // 2]
    lake = (t.origin_ne_m[0] + rw * t.spacing_m, t.origin_ne_m[1] + cw * t.spacing_m)
    g = t.height_at(af.north_m, af.east_m)
    views = [look_at(np.array([af.north_m - 2500.0, af.east_m - 800.0, -(g + 300.0)]),
                     np.array([af.north_m, af.east_m, -g])),
             look_at(np.array([lake[0] - 2000.0, lake[1] - 2000.0, -(t.water_level_m + 250.0)]),
                     np.array([lake[0], lake[1], -t.water_level_m]))] + _views(world, 4, seed=9)
    for quality in ("low", "medium"):
        r = rend[quality]
        mine = [_terrain_only(ctx, fbo, r, v) for v in views]
        with monkeypatch.context() as m:
            m.setattr(td, "node_variants", lambda inst, *a: np.full(len(inst), td.VARIANTS.index((1, 1))))
            full = [_terrain_only(ctx, fbo, r, v) for v in views]
        for a, b in zip(mine, full):
            diff = np.abs(a.astype(int) - b.astype(int)).max(axis=2)
            # the variants go out in their own draw calls, so the nodes' order changes: where two
            # distant surfaces tie in depth (a 24-bit buffer at 5 km resolves about 3 m) the other
            # may win a pixel. A handful of such pixels; the rest identical.
            assert np.sum(diff > 2) <= 20, (quality, int(np.sum(diff > 2)))
            assert np.mean(diff > 0) < 1e-3


def test_node_variants(scene):
    """A node on the runway takes the airfield's paint, one far from it does not; a node down to
    the lake's level takes the water."""
    from flightsim.render.terrain_draw import VARIANTS, node_variants
    _, world, rend, _ = scene
    tr = rend["medium"]
    t = world.terrain
    af = t.airfield
    step = 1
    size = tr.GRID * step
    r0 = (int((af.north_m - t.origin_ne_m[0]) / t.spacing_m) // size) * size
    c0 = (int((af.east_m - t.origin_ne_m[1]) / t.spacing_m) // size) * size
    far = (r0 + 40 * size, c0 + 40 * size)
    inst = np.array([(r0, c0, step), (far[0], far[1], step)], float)
    v = node_variants(inst, np.array([1e4, 1e4]), tr.GRID, t, af)
    assert VARIANTS[v[0]] == (1, 0) and VARIANTS[v[1]] == (0, 0)
    v = node_variants(inst, np.array([t.water_level_m - 1.0, t.water_level_m + 30.0]), tr.GRID, t, af)
    assert VARIANTS[v[0]] == (1, 1) and VARIANTS[v[1]] == (0, 0)
    low = tr.lowest_ground(inst)
    assert low[0] == pytest.approx(t.heights_m[r0:r0 + size + 1, c0:c0 + size + 1].min())
