"""The cockpit panel, the fighter HUD and the overlays, drawn by the game's own path into
real offscreen GL at 1280x720, and checked pixel by pixel where the layout puts them."""
import numpy as np
import pytest

W, H = 1280, 720
K = min(H / 720.0, W / 1280.0)
CX = W / 2


@pytest.fixture(scope="module")
def gl(gl_session):
    """The process's GL context (tests/render/conftest.py) and a 1280x720 framebuffer."""
    from tests.render.conftest import offscreen
    win, ctx = gl_session
    return win, ctx, offscreen(ctx, W, H, 4)


_KEEP = []


def _draw_frames(gl, world, game, frames, after=None):
    from flightsim.render.png import read_pixels
    win, ctx, fbo = gl
    t = world.buffer.read()[1].wall_s
    for i in range(frames):
        t += 1 / 60
        while world.buffer.read()[1].wall_s + 0.02 <= t:
            world.physics.tick(world.buffer.read()[1].wall_s + 0.02)
        if after and i == frames - 1:
            after(game, world, t)
        fbo.use()
        fbo.viewport = (0, 0, W, H)
        game.draw(fbo, t, 1 / 60)
    ctx.finish()
    _KEEP.append(game)
    return read_pixels(ctx, fbo).astype(int)


def _render(gl, view, scenario="airfield", frames=4, setup=None, after=None, aircraft="astir"):
    from flightsim.app.game import Game
    from flightsim.world.assembly import World
    win, ctx, fbo = gl
    win.switch_to()
    world = World(aircraft, scenario)
    game = Game(ctx, world, view, "low")
    if setup:
        setup(game, world)
    return _draw_frames(gl, world, game, frames, after), game


def _at(img, x, y):
    """Pixel at window coordinates (origin bottom left, like the layout)."""
    return img[H - 1 - int(round(y)), int(round(x))]


def _patch(img, x, y, r=3):
    """The (2r+1)^2 pixels around a window-coordinate point."""
    row, col = H - 1 - int(round(y)), int(round(x))
    return img[row - r:row + r + 1, col - r:col + r + 1]


def _disc(img, x, y, r0, r1):
    """Pixels of an annulus around a window-coordinate centre."""
    yy, xx = np.mgrid[0:H, 0:W]
    d = np.hypot(xx - x, (H - 1 - yy) - y)
    return img[(d >= r0) & (d <= r1)]


def _green(p):
    return (p[..., 1] > 140) & (p[..., 0] < 90) & (p[..., 2] < 120)


def _yellow(p):
    return (p[..., 0] > 200) & (p[..., 1] > 160) & (p[..., 2] < 90)


def _red(p):
    return (p[..., 0] > 170) & (p[..., 1] < 70) & (p[..., 2] < 70)


def _white(p):
    return p.min(axis=-1) > 200


def _dark(p):
    return p.max(axis=-1) < 45


@pytest.fixture(scope="module")
def cockpit(gl):
    return _render(gl, "panel")


def test_cockpit_gauge_faces_scales_and_needles(cockpit):
    img, game = cockpit
    r = 86 * K
    for x in (CX - 232 * K, CX, CX + 232 * K):          # airspeed, vario, altimeter
        face = _disc(img, x, 124 * K, 0.15 * r, 0.95 * r)
        assert _dark(face).mean() > 0.55                 # a black face ...
        assert _white(face).sum() > 400                  # ... with white numerals, ticks and a needle
        bezel = _disc(img, x, 124 * K, 1.02 * r, 1.08 * r)
        assert (bezel.max(axis=-1) < 110).mean() > 0.9 and not _dark(bezel).all()


def test_cockpit_airspeed_arcs_from_the_flight_manual(cockpit):
    img, game = cockpit
    r = 86 * K
    band = _disc(img, CX - 232 * K, 124 * K, 0.89 * r, 0.97 * r)
    assert _green(band).sum() > 300 and _yellow(band).sum() > 200 and _red(band).sum() > 5
    # the green arc is on the right (70-170 km/h), the yellow on the left (170-250)
    d = game.hud.cockpit.g["asi"]
    gx, gy = d.point(122.5, 0.93)      # between the 5 km/h ticks
    yx, yy = d.point(212.5, 0.93)
    assert gx > d.cx and yx < d.cx
    assert _green(_patch(img, gx, gy, 1)).mean() > 0.5 and _yellow(_patch(img, yx, yy, 1)).mean() > 0.5
    # the needle points at the indicated airspeed: white pixels along its direction
    from flightsim.instruments import values as V
    ias = V.ias_kmh(game.world.buffer.read()[1])
    nx, ny = d.point(ias, 0.6)
    assert _white(img[H - 1 - int(ny) - 2:H - 1 - int(ny) + 3, int(nx) - 2:int(nx) + 3]).any()


def test_cockpit_compass_slip_ball_yaw_string_and_lamps(cockpit):
    img, game = cockpit
    panel = game.hud.cockpit
    x, y, w2, h2 = panel.g["compass"]
    box = img[H - int(y + h2) + 2:H - int(y - h2) - 2, int(x - w2) + 2:int(x + w2) - 2]
    assert _dark(box).mean() > 0.5 and _white(box).sum() > 40 and _red(box).sum() > 10   # card, lubber line
    # slip ball: a pale tube with a dark ball in the middle (a steady glide is balanced)
    sx, cyc, R, lim, br = panel.g["slip"]
    tube = _disc(img, sx, cyc, R - 6 * K, R + 6 * K)
    assert ((tube[..., 0] > 140) & (tube[..., 2] > 110)).sum() > 300
    assert _dark(_at(img, sx, cyc - R))
    # the yaw string: red wool above the panel, near the middle
    x0, y0, L = panel.g["string"]
    strip = img[H - int(y0 + L):H - int(y0), int(x0 - 30 * K):int(x0 + 30 * K)]
    wool = (strip[..., 0] > 170) & (strip[..., 1] < 120) & (strip[..., 2] < 100)
    assert wool.sum() > 60
    # lamps: GEAR DOWN lit green
    gear = next(l for l in panel.g["lamps"] if l[0] == "gear")
    assert _green(img[H - int(gear[2] + 8):H - int(gear[2] - 8), int(gear[1] - 40):int(gear[1] + 40)]).mean() > 0.5


def test_cockpit_panel_covers_the_bottom_and_leaves_the_sky(cockpit):
    img, game = cockpit
    top = game.hud.cockpit.top_y
    assert 200 * K < top < 260 * K
    below = img[H - int(top * 0.5):, :]
    assert (below.max(axis=-1) < 120).mean() > 0.85
    sky = img[40:int(H - top - 60), 50:-50]
    assert ((sky[..., 2] > sky[..., 0] + 30) & (sky[..., 2] > 150)).mean() > 0.8


def test_cockpit_panel_rows_skip_the_scene_unseen(gl):
    """The rows the panel covers opaquely are not drawn by the scene (software GL pays per
    pixel): the frame is the same as one drawn in full, and the layer really is opaque there."""
    from flightsim.render.png import read_pixels
    img, game = _render(gl, "panel")
    win, ctx, fbo = gl
    covered = game.hud.cockpit.covered_rows(W, H)
    assert 190 * K < covered < game.hud.cockpit.top_y
    layer = np.frombuffer(game.hud.cockpit.layer.tex.read(), np.uint8).reshape(H, W, 4)
    assert (layer[:covered, :, 3] == 255).all()           # texture rows from the bottom
    # the same frame with the scene drawn under the panel too
    seen = []
    orig = game.renderer.render
    game.renderer.render = lambda *a, **k: seen.append(k.get("covered_rows")) or orig(*a, **dict(k, covered_rows=0))
    t = game.world.buffer.read()[1].wall_s
    fbo.use()
    fbo.viewport = (0, 0, W, H)
    game.draw(fbo, t, 1 / 60)
    full = read_pixels(ctx, fbo).astype(int)
    game.renderer.render = orig
    fbo.use()
    game.draw(fbo, t, 1 / 60)
    skipped = read_pixels(ctx, fbo).astype(int)
    assert seen == [covered]
    assert np.abs(full - skipped).max() == 0
    # ... and the scene really is left out: with the panel layer hidden, the rows keep the
    # magenta they were cleared to (but for the needles and labels drawn over the panel)
    game.hud.cockpit.layer.tex, keep = None, game.hud.cockpit.layer.tex
    try:
        fbo.use()
        fbo.clear(1.0, 0.0, 1.0, 1.0)
        game.draw(fbo, t, 1 / 60)
        bare = read_pixels(ctx, fbo).astype(int)
    finally:
        game.hud.cockpit.layer.tex = keep

    def magenta(p):
        return (p[..., 0] > 240) & (p[..., 1] < 15) & (p[..., 2] > 240)
    assert magenta(bare[H - covered + 1:, :]).mean() > 0.8
    assert not magenta(bare[:H - covered - 1, :]).any() and not magenta(full).any()


@pytest.fixture(scope="module")
def hud(gl):
    return _render(gl, "hud")


def test_hud_symbology_is_green_and_where_it_belongs(hud):
    img, game = hud
    green = (img[..., 1] > 180) & (img[..., 0] < 170) & (img[..., 1] > img[..., 2] + 20)
    assert green.sum() > 3000
    # heading tape at the top, airspeed tape left, altitude tape right, ladder in the middle
    assert green[: int(110 * K), int(CX - 200 * K):int(CX + 200 * K)].sum() > 200
    assert green[int(H / 2 - 130 * K):int(H / 2 + 130 * K), int(CX - 420 * K):int(CX - 250 * K)].sum() > 200
    assert green[int(H / 2 - 130 * K):int(H / 2 + 130 * K), int(CX + 250 * K):int(CX + 420 * K)].sum() > 200
    assert green[int(H / 2 - 200 * K):int(H / 2 + 200 * K), int(CX - 200 * K):int(CX + 200 * K)].sum() > 400
    # no cockpit panel in the HUD view
    assert (img[H - int(100 * K):, :].max(axis=-1) > 60).mean() > 0.5


def test_hud_flight_path_marker_and_gun_cross_near_the_boresight(hud):
    img, game = hud
    green = (img[..., 1] > 180) & (img[..., 0] < 170) & (img[..., 1] > img[..., 2] + 20)
    c = green[int(H / 2 - 60 * K):int(H / 2 + 60 * K), int(CX - 60 * K):int(CX + 60 * K)]
    assert c.sum() > 80


def _messages(game, world, t):
    from flightsim.instruments.state import LandingEvent
    game.hud.show_telemetry = True
    game.instruments.event = LandingEvent("crash", 6.3, 95.0, 12.0, "CRASHED  sink 6.3 m/s")
    game.instruments.event_real_s = t


def test_telemetry_overlay_and_crash_message(gl):
    img, game = _render(gl, "chase", after=_messages)
    tele = img[int(40 * K):int(330 * K), int(12 * K):int(210 * K)]
    assert (tele.max(axis=-1) < 110).mean() > 0.4          # the dark box ...
    assert (tele.min(axis=-1) > 200).sum() > 300           # ... with its text
    msg = img[H - int(H * 0.56 + 30 * K):H - int(H * 0.56 - 30 * K), int(CX - 240 * K):int(CX + 240 * K)]
    assert _red(msg).sum() > 150


def test_help_overlay_lists_the_views(gl):
    def setup(game, world):
        game.hud.show_help = True
    img, game = _render(gl, "chase", setup=setup)
    body = game.hud.help_text.text("help") + game.hud.help_text.text("views")
    for view in ("cockpit", "chase", "orbit", "tower", "hud", "panel"):
        assert view in body
    assert "F2" in body and "M " in body
    mid = img[H // 2 - int(100 * K):H // 2 + int(100 * K), int(CX - 200 * K):int(CX + 200 * K)]
    assert (mid.max(axis=-1) < 60).mean() > 0.4 and _white(mid).sum() > 500


def test_pause_and_stall_indicators(gl):
    def after(game, world, t):
        world.physics.pause()          # (a paused thread publishes nothing: the game marks the snapshot)
        game.instruments.stall.level = 2
        game.instruments.stall._until = 1e9
    img, game = _render(gl, "panel", after=after)
    amber = (img[..., 0] > 200) & (img[..., 1] > 140) & (img[..., 1] < 220) & (img[..., 2] < 90)
    assert amber[: int(H * 0.3)].sum() > 150                # PAUSED (top right box and the big one)
    lamp = next(l for l in game.hud.cockpit.g["lamps"] if l[0] == "stall")
    box = img[H - int(lamp[2] + 8):H - int(lamp[2] - 8), int(lamp[1] - 40):int(lamp[1] + 40)]
    assert (box[..., 0] > box[..., 1] + 60).mean() > 0.5   # the STALL lamp is lit red


def test_overlays_are_cheap(gl):
    """The instruments must not cost the frame rate: the cockpit overlay's draw (panel,
    text, messages) stays a few milliseconds on software GL, and touches no label text
    when nothing changed."""
    import time
    img, game = _render(gl, "panel", frames=2)
    win, ctx, fbo = gl
    from flightsim.runtime.handoff import pose_at
    world = game.world
    t = world.buffer.read()[1].wall_s + 0.05
    pose = pose_at(world.buffer, t)
    view = game.cameras.view(pose, 1 / 60)
    m_proj = view.m_proj(W / H)
    times = []
    for i in range(12):
        t0 = time.perf_counter()
        fbo.use()
        game.hud.draw(fbo, view, m_proj, pose, "panel", "", game.instruments, t + i / 60)
        ctx.finish()
        times.append(time.perf_counter() - t0)
    assert sorted(times)[len(times) // 2] < 0.025
    static = game.hud.cockpit.static.count
    assert static > 1000 and game.hud.cockpit.dynamic.count < static


def _p51d_available():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    return (root / "aircraft" / "p51d" / "aircraft.toml").exists() and (root / "scenarios" / "fighter_air.toml").exists()


@pytest.mark.skipif(not _p51d_available(), reason="no P-51D or fighter scenario yet")
def test_fighter_cockpit_and_hud_show_the_engine_gauges(gl):
    out = {view: _render(gl, view, "fighter_air", aircraft="p51d") for view in ("panel", "hud")}
    img, game = out["panel"]
    spec = game.instrument_spec
    assert not spec.glider and spec.speed_unit == "mph" and spec.altitude_unit == "ft"
    engine = game.hud.cockpit.g["engine"]
    assert {f for f, _ in engine} >= {"rpm", "manifold_pressure_inhg", "fuel_kg"}
    for field, d in engine:
        face = _disc(img, d.cx, d.cy, 0.2 * d.r, 0.9 * d.r)
        assert _dark(face).mean() > 0.5 and _white(face).sum() > 30, field
    img, game = out["hud"]
    gauges = game.hud.fighter._gauges
    assert len(gauges) >= 3
    for field, d in gauges:
        assert _dark(_disc(img, d.cx, d.cy, 0.2 * d.r, 0.9 * d.r)).mean() > 0.5, field


def test_chase_readouts_give_a_fighter_its_vertical_speed_and_a_glider_its_te_vario(gl):
    """Pulling up trades speed for height: the glider's total-energy vario reads the energy lost,
    the fighter's overlay reads the climb itself (the VSI the cockpit panel shows)."""
    def pull(game, world):
        world.mailbox.post(world.initial_inputs.replace(pitch=1.0))       # stick fully back (nose up)
    for aircraft, scenario, word in (("p51d", "fighter_air", "VS "), ("astir", "airfield", "VARIO")):
        img, game = _render(gl, "chase", scenario=scenario, aircraft=aircraft, frames=60, setup=pull)
        text = game.hud.text.text("left")
        line = next(x for x in text.splitlines() if x.startswith(("VS", "VARIO")))
        assert line.startswith(word), line
        if aircraft == "p51d":
            inst = game.instruments
            assert inst.vsi.value > 0.0 and inst.vario.value < inst.vsi.value - 5.0   # climbing, energy falling
            assert line.split()[1].startswith("+")


def test_the_game_says_when_the_weak_link_breaks_and_when_the_cable_is_released(gl):
    def after_break(game, world, t):
        w = world.winch
        w.attached, w.event = False, "weak link broke"
        w.release_height_m = -float(world.spawn_state[2]) + 212.0
    img, game = _render(gl, "chase", scenario="winch", frames=3)
    world = game.world
    _draw_frames(gl, world, game, 2, after=after_break)
    label = game.hud.text.text("event")
    assert label == "WEAK LINK BROKE at 212 m" and "lower the nose" in game.hud.text.text("event_sub")
    img, game = _render(gl, "chase", scenario="winch", frames=3)
    def after_release(game, world, t):
        world.winch.attached, world.winch.event = False, "released"
        world.winch.release_height_m = -float(world.spawn_state[2]) + 380.0
    _draw_frames(gl, game.world, game, 2, after=after_release)
    assert game.hud.text.text("event") == "CABLE RELEASED at 380 m"


def test_the_jet_hud_gives_its_energy_cues_and_the_corner_speed(gl):
    """The F-15C in the HUD view (issue 19): specific excess power, thrust state, fuel and the g limit
    in force among the left-hand numbers, the corner-speed bracket on the speed tape (an air start at
    800 km/h, about 335 kt IAS at 5 km: the corner, about 390 kt there, is on the tape), knots."""
    img, game = _render(gl, "hud", scenario="f15c_air", aircraft="f15c", frames=6)
    fh = game.hud._fighter
    texts = list(fh.text.main.shown().values())
    left = [t for t in texts if t.startswith(("Ps", "PWR", "MIL", "AB", "FUEL", "GLIM"))]
    assert any(t.startswith("Ps") for t in left) and any(t.startswith("FUEL") for t in left)
    assert any(t.startswith("GLIM 9.0") for t in left)
    assert any(t == "C" for t in texts)                       # the corner-speed marker
    assert "KT" in texts
    green = (img[..., 1] > 180) & (img[..., 0] < 170) & (img[..., 1] > img[..., 2] + 20)
    assert green.sum() > 3000
