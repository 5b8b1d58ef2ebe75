"""The air's and the ground's effects (render/effects.py) from what the physics publishes, and
the landscape's drawn parts: the roads as ribbons, the runway's numbers, the windsock in the
scenario's wind, the town from the air, the 3D cockpit's panel and gunsight."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from flightsim.render.effects import KIND_NAMES, Effects
from flightsim.render.renderer import windsock_mesh
from flightsim.runtime.handoff import ControlInputs

W, H = 480, 270


@pytest.fixture(scope="module")
def ctx(gl_session):
    return gl_session[1]


@pytest.fixture(scope="module")
def p51(ctx):
    from flightsim.aircraft_data.compile import compile_aircraft
    from flightsim.aircraft_data.loader import load_aircraft
    from flightsim.render.model import looks
    from flightsim.world.combat import gun_muzzles
    comp = compile_aircraft(load_aircraft("p51d"))
    lk = looks.look(comp, "low")
    return comp, lk, Effects(ctx, lk.model, comp.cg_m, gun_muzzles(comp))


def _pose(t, vel=(100.0, 0.0, 0.0), **snap):
    base = dict(time_s=t, engine_rpm=0.0, engine_load=0.0, altitude_m=1000.0, tas_ms=100.0, nz_g=1.0,
                on_ground=0, strike_index=-1, strike_speed_ms=0.0, controls=ControlInputs())
    base.update(snap)
    return SimpleNamespace(snapshot=SimpleNamespace(**base), quat_wxyz=np.array([1.0, 0, 0, 0]),
                           position_ned_m=np.array([0.0, 0.0, -1000.0]) + np.array(vel) * t,
                           velocity_ned_ms=np.array(vel))


def _count(fx, kind):
    idx = fx.p.alive(fx.t)
    return int(np.sum(fx.p.kind[idx] == KIND_NAMES.index(kind)))


def test_a_running_engine_smokes_at_its_exhaust_stubs(p51):
    comp, lk, fx = p51
    fx.p.clear()
    fx.t = None
    for k in range(30):
        fx.update(k * 0.02, _pose(k * 0.02, engine_rpm=2700.0, engine_load=0.9))
    assert _count(fx, "exhaust") > 5
    stubs = np.array([p for p, d in lk.model.exhausts]) - comp.cg_m + np.array([100.0 * fx.t, 0.0, 0.0])
    idx = fx.p.alive(fx.t)
    pos = fx.p.pos[idx[fx.p.kind[idx] == KIND_NAMES.index("exhaust")]]
    # left behind by the aircraft flying on at 100 m/s: beside the nose and behind the stubs, not elsewhere
    assert np.all(np.abs(pos[:, 1]) < np.abs(stubs[:, 1]).max() + 4.0)
    assert np.all(pos[:, 0] < stubs[:, 0].max() + 0.5)


def test_a_hard_pull_leaves_vapour_at_the_tips_and_height_a_contrail(p51):
    comp, lk, fx = p51
    fx.p.clear()
    fx.t = None
    for k in range(10):
        fx.update(k * 0.02, _pose(k * 0.02, nz_g=6.5))
    assert _count(fx, "vapour") >= 4 and _count(fx, "contrail") == 0
    fx.p.clear()
    fx.t = None
    for k in range(10):
        fx.update(k * 0.02, _pose(k * 0.02, altitude_m=10500.0, engine_rpm=2700.0))
    assert _count(fx, "contrail") >= 2


def test_touchdown_throws_dust_and_a_crash_breaks_the_aircraft_up(p51):
    comp, lk, fx = p51
    fx.p.clear()
    fx.t = None
    fx.update(0.0, _pose(0.0, on_ground=0, vel=(40.0, 0.0, 1.0)))
    fx.update(0.02, _pose(0.02, on_ground=1, vel=(40.0, 0.0, 1.0)))
    assert _count(fx, "dust") >= 10
    fx.update(0.04, _pose(0.04, on_ground=1, strike_index=3, strike_speed_ms=45.0))
    assert _count(fx, "fireball") > 0 and _count(fx, "debris") > 20 and _count(fx, "blast_smoke") > 0
    n = _count(fx, "fireball")
    fx.update(0.06, _pose(0.06, on_ground=1, strike_index=3, strike_speed_ms=45.0))
    assert _count(fx, "fireball") == n                       # once, not every frame it lies there
    # the debris falls
    z0 = fx.p.pos[fx.p.kind == KIND_NAMES.index("debris")][:, 2].mean()
    for k in range(50):
        fx.update(0.08 + k * 0.02, None)
    z1 = fx.p.pos[fx.p.kind == KIND_NAMES.index("debris")][:, 2].mean()
    assert z1 > z0 + 2.0


def test_the_guns_flash_at_their_muzzles_only_while_firing_with_rounds(p51):
    comp, lk, fx = p51
    fx.p.clear()
    fx.t = None
    frame = SimpleNamespace(player_ammo=1800, hits=(), tick=1)
    firing = ControlInputs(fire=1.0)
    fx.update(0.0, _pose(0.0, controls=firing), frame)
    assert _count(fx, "flash") == 6                           # six .50s
    fx.p.clear()
    fx.update(0.02, _pose(0.02, controls=firing), SimpleNamespace(player_ammo=0, hits=(), tick=2))
    assert _count(fx, "flash") == 0


def test_a_hit_on_an_aircraft_throws_sparks_and_debris(p51):
    """(A fresh hit on an aircraft stopped the window: one point, two debris velocities.)"""
    comp, lk, fx = p51
    fx.p.clear()
    frame = SimpleNamespace(player_ammo=0, hits=(((100.0, 0.0, -1000.0), "aircraft", 0.0),), tick=3)
    fx.update(0.04, _pose(0.04), frame)
    assert _count(fx, "spark") == 6 and _count(fx, "debris") == 2


def test_a_missiles_warhead_smokes_and_one_in_the_ground_throws_earth(p51):
    comp, lk, fx = p51
    fx.p.clear()
    frame = SimpleNamespace(player_ammo=0, hits=(((100.0, 0.0, -1000.0), "burst", 0.0),), tick=4)
    fx.update(0.06, _pose(0.06), frame)
    assert _count(fx, "spark") == 6 and _count(fx, "blast_smoke") == 4 and _count(fx, "dust") == 0
    fx.p.clear()
    frame = SimpleNamespace(player_ammo=0, hits=(((100.0, 0.0, -400.0), "ground", 0.0),), tick=5)
    fx.update(0.08, _pose(0.08), frame)
    assert _count(fx, "dust") == 8 and _count(fx, "blast_smoke") == 4 and _count(fx, "debris") == 0


def test_effects_draw_blended_and_the_afterburner_burns(ctx, p51):
    from flightsim.render.camera import look_at
    from flightsim.render.sun import light_at
    from tests.render.conftest import offscreen
    comp, lk, fx = p51
    fbo = offscreen(ctx, W, H)
    li = light_at(13.0)
    common = {"u_sun_ned": tuple(li.sun_ned), "u_fog_density": 1 / 20000, "u_sky_zenith": li.sky_zenith,
              "u_sky_horizon": li.sky_horizon, "u_sun_color": li.sun_color, "u_ambient": li.ambient}
    fx.p.clear()
    fx.t = None
    fx.update(0.0, None)
    fx.explode(0.0, np.array([0.0, 0.0, -1000.0]), np.zeros(3))
    fx.update(0.2, None)
    view = look_at(np.array([-60.0, 0.0, -1000.0]), np.array([0.0, 0.0, -1000.0]))
    fbo.use()
    fbo.clear(0.4, 0.6, 0.9, 1.0, depth=1.0)
    flames = [([(np.array([-8.0, 0.0, -1000.0]), 0.5)], np.array([-1.0, 0.0, 0.0]), 1.0, 1.0)]
    tris = fx.draw(view, view.m_proj(W / H), common, 0.2, flames)
    img = np.frombuffer(fbo.read(components=3), np.uint8).reshape(H, W, 3)
    assert tris > 100
    fire = (img[..., 0] > 200) & (img[..., 2] < 150)
    assert fire.sum() > 200                                   # the fireball and the flame


def test_the_windsock_points_downwind_and_hangs_in_a_calm():
    top = np.array([0.0, 0.0, -326.0])
    for wind, expect in (((0.0, 8.0, 0.0), (0.0, 1.0)), ((-6.0, 0.0, 0.0), (-1.0, 0.0))):
        v = windsock_mesh(top, wind)[:, :3]
        tip = v[np.argmax(np.linalg.norm(v[:, :2] - top[:2], axis=1))]
        d = (tip[:2] - top[:2]) / np.linalg.norm(tip[:2] - top[:2])
        assert d @ np.array(expect) > 0.95
    v = windsock_mesh(top, (0.0, 0.0, 0.0))[:, :3]
    assert v[:, 2].max() - top[2] > 2.5                       # hanging down beside the pole
    assert np.linalg.norm(v[:, :2] - top[:2], axis=1).max() < 1.5


def test_the_airfield_from_the_air_has_its_numbers_roads_and_town(ctx):
    """Looking down at the runway's south end: the white 35 on it; looking at the town: its
    roofs; a road crossing the fields as a grey ribbon."""
    from flightsim.aircraft_data.compile import compile_aircraft
    from flightsim.aircraft_data.loader import load_aircraft
    from flightsim.render.camera import View
    from flightsim.render.renderer import Renderer
    from flightsim.world import terrain as T
    from tests.render.conftest import offscreen
    t = T.generate()
    r = Renderer(ctx, compile_aircraft(load_aircraft("astir")), t, quality="low")
    fbo = offscreen(ctx, W, H)
    af = t.airfield
    f, rr = af.axes()

    def shot(eye, target, fov=40.0):
        eye, target = np.asarray(eye, float), np.asarray(target, float)
        fwd = (target - eye) / np.linalg.norm(target - eye)
        right = np.cross([0.0, 0.0, 1.0], fwd)
        right = right / np.linalg.norm(right) if np.linalg.norm(right) > 1e-6 else np.array([0.0, 1.0, 0.0])
        view = View(eye, fwd, right, np.cross(fwd, right), math.radians(fov), 1.0)
        fbo.use()
        r.render(fbo, view, None)
        return np.frombuffer(fbo.read(components=3), np.uint8).reshape(H, W, 3)[::-1]
    g = af.elevation_m
    n0, e0 = af.to_world(-af.length_m / 2 + 94.0, 0.0)             # the number at the south end
    img = shot((n0 - f[0] * 60.0, e0 - f[1] * 60.0, -(g + 60.0)), (n0, e0, -g), 35.0)
    mid = img[H // 3: 2 * H // 3, W // 3: 2 * W // 3]
    assert (mid.min(axis=-1) > 170).mean() > 0.05                # white paint on the dark runway
    town = r.scenery.landmarks["town"]
    img = shot((town[0] - 600.0, town[1] - 600.0, -(t.height_at(*town) + 350.0)), (town[0], town[1], -t.height_at(*town)),
               30.0)
    roofs = (img[..., 0] > img[..., 1] + 40) & (img[..., 0] > 100)
    assert roofs[H // 4: 3 * H // 4, W // 4: 3 * W // 4].mean() > 0.02
    assert r.ribbons.drawn > 0


def test_the_tower_view_looks_out_of_the_cabs_windows_at_the_runway():
    """The controller stands in the tower's cab under its roof; nothing of the scenery (the cab's
    own walls included) stands between the eye and the runway or the apron."""
    from flightsim.render.buildings import scenery_mesh, tower_eye_ned
    from flightsim.world import scenery as S
    from flightsim.world import terrain as T
    t = T.generate()
    sc = S.build(t)
    eye = tower_eye_ned(sc)
    tri = scenery_mesh(sc, t)[:, :3].astype(np.float64).reshape(-1, 3, 3)

    def blocked(p):
        """Does the segment eye -> p cross a triangle (Moller-Trumbore, all triangles at once)?"""
        d = p - eye
        e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
        h = np.cross(d, e2)
        a = np.einsum("ij,ij->i", e1, h)
        ok = np.abs(a) > 1e-9
        f = np.where(ok, 1.0 / np.where(ok, a, 1.0), 0.0)
        s = eye - tri[:, 0]
        u = f * np.einsum("ij,ij->i", s, h)
        q = np.cross(s, e1)
        v = f * (q @ d)
        w = f * np.einsum("ij,ij->i", e2, q)
        return bool(np.any(ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (w > 1e-6) & (w < 1 - 1e-6)))

    af = t.airfield
    for along in (-600.0, -300.0, 0.0, 300.0, 600.0):
        n, e = af.to_world(along, 0.0)
        assert not blocked(np.array([n, e, -t.height_at(n, e) - 2.0])), along
    n, e = af.to_world(-90.0, 95.0)            # the apron before the hangars
    assert not blocked(np.array([n, e, -t.height_at(n, e) - 2.0]))
    assert blocked(eye + np.array([0.0, 0.0, -5.0]))        # the cab's roof over the controller
