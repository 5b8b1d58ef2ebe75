"""Real offscreen GL (Mesa EGL, no display): the game's own draw path, pixels checked."""
import numpy as np
import pytest

W, H = 480, 270


@pytest.fixture(scope="module")
def gl(gl_session):
    """The process's GL context (tests/render/conftest.py), drawing into a W x H framebuffer."""
    from tests.render.conftest import offscreen
    ctx = gl_session[1]
    _FBO[ctx] = offscreen(ctx, W, H)
    return ctx


_FBO = {}


def target(ctx):
    fbo = _FBO[ctx]
    fbo.viewport = (0, 0, W, H)
    return fbo


def _render(ctx, scenario, view, frames=4, setup=None):
    from flightsim.app.game import Game
    from flightsim.render.png import read_pixels
    from flightsim.world.assembly import World
    world = World("astir", scenario)
    game = Game(ctx, world, view, "low")
    if setup:
        setup(game)
    t = world.buffer.read()[1].wall_s
    for i in range(frames):
        t += 1 / 60
        while world.buffer.read()[1].wall_s + 0.02 <= t:
            world.physics.tick(world.buffer.read()[1].wall_s + 0.02)
        game.draw(target(ctx), t, 1 / 60)
    ctx.finish()
    return read_pixels(ctx, target(ctx)), game


def _blueish(px):
    return (px[..., 2].astype(int) > px[..., 0].astype(int) + 30) & (px[..., 2] > 150)


def _greenish(px):
    p = px.astype(int)
    return (p[..., 1] > p[..., 2] + 5) & (p[..., 1] >= p[..., 0] - 5)


def test_chase_sky_ground_aircraft(gl):
    img, game = _render(gl, "airfield", "chase")
    top = img[30:90, 80:-80]        # under the title line
    bottom = img[int(H * 0.8):, 150:-150]
    assert _blueish(top).mean() > 0.9
    assert _greenish(bottom).mean() > 0.6
    # the white glider near the middle of the chase view
    mid = img[int(H * 0.35):int(H * 0.75), int(W * 0.3):int(W * 0.7)].astype(int)
    white = (mid.min(axis=-1) > 200)
    assert white.sum() > 60
    assert game.renderer.stats.triangles > 1000


def test_runway_visible_at_the_airfield(gl):
    img, _ = _render(gl, "runway", "chase")
    p = img[int(H * 0.55):, :].astype(int)
    grey = (np.abs(p[..., 0] - p[..., 1]) < 8) & (np.abs(p[..., 1] - p[..., 2]) < 10) & (p[..., 0] > 50) & (p[..., 0] < 130)
    assert grey.mean() > 0.05
    marking = (p.min(axis=-1) > 200)
    assert marking.sum() > 20


def test_cockpit_and_hud_views_render(gl):
    img, _ = _render(gl, "airfield", "hud")
    assert _blueish(img[30:int(H * 0.3), 60:-60]).mean() > 0.5
    green_hud = (img[..., 1] > 200) & (img[..., 0] < 150) & (img[..., 2] < 170)
    assert green_hud.sum() > 50          # the pitch ladder


def test_the_hud_view_is_clear_of_the_cockpit(gl):
    """The HUD view is the HUD over the world: none of the cockpit (frame, panel, sight, the
    canopy's glass) drawn round it, as the cockpit view draws it."""
    _, hud = _render(gl, "airfield", "hud")
    _, cockpit = _render(gl, "airfield", "cockpit")
    model = hud.renderer.aircraft["drawer"].model
    drawn_hud, drawn_cockpit = hud.renderer.stats.triangles, cockpit.renderer.stats.triangles
    assert drawn_cockpit - drawn_hud >= 0.9 * len(model.indices)


def test_screenshot_cli(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "shot.png"
    r = subprocess.run([sys.executable, "run.py", "--frames", "3", "--screenshot", str(out), "--width", "320",
                        "--height", "180", "--view", "orbit"], capture_output=True, text=True, timeout=300,
                       cwd=__import__("pathlib").Path(__file__).resolve().parents[2])
    if r.returncode != 0 and "EGL" in r.stderr:
        pytest.skip("no offscreen GL")
    assert r.returncode == 0, r.stderr[-2000:]
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_compiled_terrain_selection_matches_the_numpy_walk(gl):
    """The compiled quadtree walk picks exactly the nodes the numpy original does."""
    from flightsim.app.game import Game
    from flightsim.world.assembly import World
    world = World("astir", "airfield")
    game = Game(gl, world, "chase", "low")
    tr = game.renderer.terrain_r
    snap = world.buffer.read()[1]
    from flightsim.runtime.handoff import interpolate
    pose = interpolate(snap, snap, 0.0)
    from flightsim.render.camera import look_at
    rng = np.random.default_rng(3)
    views = [game.cameras.view(pose, 1 / 60)]
    for k in range(6):       # look around from other places, heights and directions
        eye = np.array([rng.uniform(-15000, 15000), rng.uniform(-15000, 15000), -rng.uniform(200, 3000)])
        hdg, dive = rng.uniform(0, 2 * np.pi), rng.uniform(0.05, 0.6)
        views.append(look_at(eye, eye + 1000 * np.array([np.cos(hdg), np.sin(hdg), dive])))
    for view in views:
        vp = view.m_proj(16 / 9) @ view.m_view
        fast = {tuple(int(v) for v in row) for row in tr.select(view, vp)}
        ref = {tuple(int(v) for v in row) for row in tr.select_reference(view, vp)}
        assert len(fast) > 10
        assert fast == ref


def test_time_of_day_changes_the_light(gl):
    """The same view at 13:00 and at 19:00 (a scenario's time_of_day_h): the evening scene is
    darker and its horizon warmer; at night the sky is dark."""
    def at(hours):
        return lambda game: game.renderer.set_time_of_day(hours)
    noon, _ = _render(gl, "airfield", "chase", setup=at(13.0))
    evening, _ = _render(gl, "airfield", "chase", setup=at(19.0))
    night, _ = _render(gl, "airfield", "chase", setup=at(23.0))
    ground = (slice(int(H * 0.8), None), slice(150, -150))
    assert evening[ground].mean() < 0.75 * noon[ground].mean()
    band = evening[int(H * 0.42):int(H * 0.47)].reshape(-1, 3).astype(float).mean(axis=0)   # just above the horizon
    nband = noon[int(H * 0.42):int(H * 0.47)].reshape(-1, 3).astype(float).mean(axis=0)
    assert band[0] / band[2] > nband[0] / nband[2] + 0.05
    assert night[30:90].mean() < 0.3 * noon[30:90].mean()


def test_cockpit_view_shows_the_ground_to_the_horizon(gl):
    """From the cockpit (near plane 0.1 m) the landscape reaches the horizon: the sky is
    drawn only where nothing else was (at the far plane), not over distant terrain. The
    glider at 820 m in a trimmed glide (pitch +1.3 deg) sees the horizon just below the
    middle of the picture, well above the panel (top at 0.68 of the height)."""
    img, _ = _render(gl, "airfield", "cockpit")
    band = img[int(H * 0.56):int(H * 0.64), 40:-40]
    assert _blueish(band).mean() < 0.1
    assert _blueish(img[int(H * 0.15):int(H * 0.35), 40:-40]).mean() > 0.9
