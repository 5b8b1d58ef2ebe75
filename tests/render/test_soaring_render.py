"""Cumulus clouds over the thermals, drawn for real offscreen (Mesa EGL)."""
import numpy as np
import pytest

W, H = 480, 270


@pytest.fixture(scope="module")
def gl(gl_session):
    """The process's GL context (tests/render/conftest.py), drawing into a W x H framebuffer."""
    from tests.render.conftest import offscreen
    ctx = gl_session[1]
    ctx.target_fbo = offscreen(ctx, W, H)
    return ctx


_KEEP = []


def test_cloud_puffs_sit_on_a_flat_base_and_keep_their_shape():
    from flightsim.render.clouds import cloud_puffs
    a = cloud_puffs((100.0, 200.0, 2000.0, 600.0, 1234.0))
    b = cloud_puffs((100.0, 200.0, 2000.0, 600.0, 1234.0))
    assert np.array_equal(a, b)                                  # the key fixes the shape
    assert not np.array_equal(a, cloud_puffs((100.0, 200.0, 2000.0, 600.0, 99.0)))
    bottoms = -(a[:, 2] + a[:, 3])                               # lowest point of each puff, m ASL
    assert np.all(-a[:, 2] > 2000.0)                             # every centre above the base
    assert bottoms.min() < 2000.0 and np.all(a[:, 4] == -2000.0)  # cut flat at the base in the shader
    assert np.all(np.hypot(a[:, 0] - 100.0, a[:, 1] - 200.0) < 600.0)


def _scene(ctx, with_clouds):
    from flightsim.app.game import Game
    from flightsim.render.camera import look_at
    from flightsim.render.png import read_pixels
    from flightsim.runtime.handoff import pose_at
    from flightsim.world.assembly import World
    world = World("astir", "thermal", small_world=True)
    game = Game(ctx, world, "chase", "low")
    pose = pose_at(world.buffer, world.buffer.read()[1].wall_s)
    clouds = world.clouds                       # what the World publishes each tick (read-only)
    assert not clouds.flags.writeable and len(clouds) > 3
    c = clouds[int(np.argmax(clouds[:, 3]))]    # the biggest cumulus
    # stand 2 km off it, 400 m under its base, and look at its middle
    eye = np.array([c[0] - 2000.0, c[1], -(c[2] - 400.0)])
    view = look_at(eye, np.array([c[0], c[1], -(c[2] + 0.3 * c[3])]))
    game.renderer.clouds = clouds if with_clouds else None
    fbo = ctx.target_fbo
    fbo.use()
    fbo.viewport = (0, 0, W, H)
    game.renderer.render(fbo, view, pose)
    ctx.finish()
    return read_pixels(ctx, fbo), game


def test_cumulus_drawn_white_above_the_horizon(gl, tmp_path):
    from flightsim.render.png import write_png
    img, game = _scene(gl, True)
    write_png(tmp_path / "cloud.png", img)
    bare, _ = _scene(gl, False)
    p = img.astype(int)
    mid = p[H // 4:3 * H // 4, W // 4:3 * W // 4]                # around the cloud we look at (above the horizon)
    whiteish = (mid.min(axis=-1) > 185) & (mid.max(axis=-1) - mid.min(axis=-1) < 40)
    assert whiteish.mean() > 0.08, whiteish.mean()
    # all of it above the horizon (the ground starts in the bottom fifth of this view)
    rows = np.nonzero(whiteish.any(axis=1))[0] + H // 4
    assert rows.max() < int(0.8 * H)
    # sunlit tops brighter than the flat grey bases
    ys, xs = np.nonzero(whiteish)
    cloud = p[H // 4:3 * H // 4, W // 4:3 * W // 4]
    lum = cloud.sum(axis=-1)
    col = slice(xs.min(), xs.max() + 1)
    span = (cloud[..., 2] - cloud[..., 0] < 45)[:, col].any(axis=1).nonzero()[0]
    assert lum[span.min():span.min() + 4, col].max() > lum[span.max() - 3:span.max() + 1, col].max() + 20
    b = bare.astype(int)[H // 4:3 * H // 4, W // 4:3 * W // 4]
    sky = (b[..., 2] > b[..., 0] + 30)
    assert sky.mean() > 0.9                                     # without them: blue sky there
    assert ((b.min(axis=-1) > 185) & (b.max(axis=-1) - b.min(axis=-1) < 40)).mean() < 0.02
    # the base is flat and shaded darker than the sunlit top
    assert game.renderer.clouds_r.puffs > 20
    assert game.renderer.stats.triangles < 200000


def test_debrief_panel_after_the_landing_scenario(gl, tmp_path):
    """landing.toml flown by its autopilot through the mailbox; the game's flight log is fed
    every tick (as Game.draw does every frame) and the frame after the glider stops shows
    the debrief panel with the landing's grade."""
    from flightsim.app.game import Game
    from flightsim.pilots.autopilot import autopilot
    from flightsim.render.png import read_pixels, write_png
    from flightsim.world.assembly import World
    from flightsim.world.flight_log import FlightLog
    world = World("astir", "landing", small_world=True)
    game = Game(gl, world, "chase", "low")
    pilot = autopilot(world.scenario, world.terrain)
    game.flight_log = FlightLog(world.terrain.airfield)
    from flightsim.render.debrief import DebriefPanel
    game.debrief_panel = DebriefPanel(gl)
    t = world.buffer.read()[1].wall_s
    for k in range(int(110 / 0.02)):
        snap = world.buffer.read()[1]
        game.flight_log.update(snap)
        world.mailbox.post(pilot(snap))
        t += 0.02
        world.physics.tick(t)
        if game.flight_log.at_rest:
            break
    assert game.flight_log.at_rest and game.flight_log.grade in ("good", "firm")
    fbo = gl.target_fbo
    fbo.use()
    fbo.viewport = (0, 0, W, H)
    game.draw(fbo, t + 0.02, 1 / 60)
    gl.finish()
    img = read_pixels(gl, fbo)
    write_png(tmp_path / "debrief.png", img)
    assert game.debrief_panel.shown
    mid = img[H // 3:2 * H // 3, W // 3:2 * W // 3].astype(int)
    dark = mid.max(axis=-1) < 60                    # the panel's dark ground under the text
    bright = mid.min(axis=-1) > 200                 # its text
    assert dark.mean() > 0.4 and bright.mean() > 0.01
