"""The game flow offscreen, for real (Mesa EGL): every scenario renders, the menu draws, the
menu switches scenario (threads and GL objects handled), pause, crash, time acceleration,
settings remembered. Drawn into a 320x180 offscreen framebuffer in the process's one GL
context (tests/render/conftest.py)."""
import os
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from flightsim.physics.named import AircraftView
from flightsim.world.scenario import scenario_names

W, H = 320, 180
# the PNGs, to look at: $FLIGHTSIM_SHOTS, else <tmp>/flightsim-shots
OUT = Path(os.environ.get("FLIGHTSIM_SHOTS") or Path(tempfile.gettempdir()) / "flightsim-shots")
_KEEP = []


_TARGET = {}


@pytest.fixture(scope="module")
def gl(gl_session):
    """The process's GL context (tests/render/conftest.py), drawing into a W x H framebuffer."""
    from tests.render.conftest import offscreen
    ctx = gl_session[1]
    _TARGET[id(ctx)] = offscreen(ctx, W, H)
    return ctx


def target(ctx):
    """The 320x180 offscreen framebuffer everything here draws into."""
    fbo = _TARGET[id(ctx)]
    fbo.viewport = (0, 0, W, H)
    return fbo


def grab(ctx):
    ctx.finish()
    fbo = _TARGET[id(ctx)]
    return np.frombuffer(fbo.read(components=3, alignment=1), np.uint8).reshape(H, W, 3)[::-1]


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "flightsim" / "settings.toml"


def _flow(ctx, **kw):
    from flightsim.app.flow import GameFlow
    kw.setdefault("view", "chase")
    kw.setdefault("quality", "low")
    kw.setdefault("save", False)
    return GameFlow(ctx, **kw)


_SCREENS = {}


def screens_of(flow):
    """The app's states drawing this flow (flightsim.app.screens), made once per flow."""
    from flightsim.app.screens import Screens
    if id(flow) not in _SCREENS or _SCREENS[id(flow)].flow is not flow:
        _SCREENS[id(flow)] = Screens(flow)
    return _SCREENS[id(flow)]


class Clock:
    """A 60 fps frame clock stepping the physics by hand (deterministic, no thread)."""

    def __init__(self, flow):
        self.flow = flow
        self.t = flow.world.buffer.read()[1].wall_s
        self.tick_wall = self.t

    def frames(self, n, dt=1 / 60):
        flow = self.flow
        for _ in range(n):
            self.t += dt
            while self.tick_wall + 0.02 <= self.t:
                self.tick_wall += 0.02
                if not flow.world.physics.paused:
                    flow.world.physics.tick(self.tick_wall)
            flow.update(self.t)
            screens_of(flow).draw(target(flow.ctx), self.t, dt)
        return grab(flow.ctx)


def _skyish(px):
    p = px.astype(int)
    return (p[..., 2] > p[..., 0] + 30) & (p[..., 2] > 150)


def _save(name, img):
    from flightsim.render.png import write_png
    OUT.mkdir(parents=True, exist_ok=True)
    write_png(OUT / name, img)


# ---------------------------------------------------------------------------- every scenario
@pytest.fixture(scope="module")
def tour(gl):
    """One flow for the whole tour: each scenario is a switch from the one before."""
    flow = _flow(gl)
    yield flow
    flow.close()


@pytest.mark.parametrize("name", scenario_names())
def test_each_scenario_renders(tour, name):
    if tour.world is None:
        tour.start(name)
    else:
        tour.switch(name)
    img = Clock(tour).frames(4)
    _save(f"scenario_{name}.png", img)
    assert tour.world.scenario.name == name
    assert tour.game.world is tour.world
    # under the title line (and under a first solo's instructor's words, drawn there)
    sky = img[40:55, 70:-70] if tour.world.scenario.instructor else img[10:30, 70:-70]
    ground = img[-28:, 70:-70]                  # between the corner readouts
    assert _skyish(sky).mean() > 0.85, name
    assert _skyish(ground).mean() < 0.1, name
    # the aircraft in the middle of the chase view: the same view drawn without it differs there
    from flightsim.runtime.handoff import pose_at
    game = tour.game
    pose = pose_at(tour.world.buffer, 1e12)
    view = game.cameras.view(pose, 0.0)
    shots = []
    for p in (pose, None):
        game.renderer.render(target(tour.ctx), view, p)
        shots.append(grab(tour.ctx).astype(int))
    changed = np.abs(shots[0] - shots[1]).max(axis=-1) > 30
    mid = changed[int(H * 0.25):int(H * 0.8), int(W * 0.15):int(W * 0.85)]
    assert mid.sum() > 40 and mid.sum() > 0.75 * changed.sum(), name


# ---------------------------------------------------------------------------- the menu
def _amber(px):
    p = px.astype(int)
    return (p[..., 0] > 200) & (p[..., 1] > 140) & (p[..., 1] < 210) & (p[..., 2] < 90)


def test_menu_draws_readable_items_and_follows_the_selection(gl, config):
    flow = _flow(gl)
    try:
        flow.start("winch", menu=True)
        ctx = gl
        fbo = ctx.framebuffer(color_attachments=[ctx.texture((1280, 720), 3)],
                              depth_attachment=ctx.depth_renderbuffer((1280, 720)))
        fbo.viewport = (0, 0, 1280, 720)
        t = flow.world.buffer.read()[1].wall_s
        screens_of(flow).draw(fbo, t + 0.1, 1 / 60)
        ctx.finish()
        img = np.frombuffer(fbo.read(components=3, alignment=1), np.uint8).reshape(720, 1280, 3)[::-1]
        _save("menu_1280x720.png", img)
        view = screens_of(flow).menu.view
        menu = flow.menu
        assert menu.item.scenario == "winch" and flow.world.physics.paused
        x0, y0, x1, y1 = (int(round(v)) for v in view.selected_rect)
        bar = img[720 - y1 + 3:720 - y0 - 3, x0 + 8:x1 - 8]
        assert _amber(bar).mean() > 0.6                          # the selection bar ...
        dark_text = (bar.astype(int).max(axis=-1) < 80).mean()
        assert 0.03 < dark_text < 0.4                            # ... with dark letters on it
        panel = img[720 - (y1 + 200):720 - (y1 + 40), x0 + 30:x0 + 220]   # rows above it: white names
        white = panel.min(axis=-1) > 200
        assert 0.02 < white.mean() < 0.4
        # every row the panel shows has its text (a list longer than the panel scrolls: 35 items at 720 px)
        assert view.rows_shown >= min(len(menu.items), 15) and len(view.text) >= view.rows_shown + 3
        # the selection moves down one row when asked
        flow.menu_command("down")
        screens_of(flow).draw(fbo, t + 0.2, 1 / 60)
        ctx.finish()
        x0b, y0b, x1b, y1b = view.selected_rect
        assert abs((y0 - y0b) - 60.0) < 1.5                      # two 30 px rows down: over the heading
        from flightsim.world.scenario import all_scenarios
        first_fighter = min(sc.name for sc in all_scenarios() if sc.kind == "fighter")
        assert flow.menu.item.scenario == first_fighter          # past the Fighters heading
        img2 = np.frombuffer(fbo.read(components=3, alignment=1), np.uint8).reshape(720, 1280, 3)[::-1]
        assert _amber(img2[720 - y1 + 3:720 - y0 - 3, x0 + 8:x1 - 8]).mean() < 0.1   # the old row is plain now
        # the scene turns behind the panel: the right half shows sky and ground, not a blank
        right = img[:, 900:]
        assert _skyish(right[:200]).mean() > 0.5
        # another menu over the same view (rows change kind): every name in one size, headings in theirs
        flow.close_menu()
        flow.open_menu("pause")
        screens_of(flow).draw(fbo, t + 0.3, 1 / 60)
        ctx.finish()
        items = {it.label: it.kind for it in flow.menu.items}
        items.update({it.label.upper(): "heading" for it in flow.menu.items if it.kind == "heading"})
        sizes = {}
        for (_, size, _), text in view.text.shown().items():     # PanelView's keys: (key, size, bold)
            if text in items:
                sizes.setdefault(items[text] == "heading", set()).add(size)
        assert len(sizes[True]) == 1 and len(sizes[False]) == 1 and sizes[True] != sizes[False], sizes
        img3 = np.frombuffer(fbo.read(components=3, alignment=1), np.uint8).reshape(720, 1280, 3)[::-1]
        _save("menu_pause_1280x720.png", img3)
        fbo.release()
    finally:
        flow.close()


def test_start_menu_flies_the_backdrop_scenario_without_rebuilding(gl, config):
    flow = _flow(gl)
    try:
        flow.start("airfield", menu=True)
        world = flow.world
        assert flow.world.physics.paused and flow.fresh
        assert flow.menu_command("select") == "fly"            # airfield, preselected
        assert flow.menu is None and flow.world is world and not world.physics.paused
        clock = Clock(flow)
        img = clock.frames(12)
        assert _skyish(img[20:50, 70:-70]).mean() > 0.9
        epoch, t_s = world.buffer.read()[1].epoch, world.buffer.read()[1].time_s
        assert t_s > 0.1
        flow.open_menu("pause")                                 # mid-flight: the same scenario again
        while not (flow.menu.item.kind == "scenario" and flow.menu.item.scenario == "airfield"):
            flow.menu_command("down")
        assert flow.menu_command("select") == "fly"
        clock.frames(2)
        s = world.buffer.read()[1]
        assert flow.world is world and flow.switches == 0       # restarted, not rebuilt
        assert s.epoch == epoch + 1 and s.time_s < t_s
    finally:
        flow.close()


# ---------------------------------------------------------------------------- switching
def test_menu_switches_scenario_end_to_end_with_threads(gl, config):
    """Live: threads running at 50 Hz, drawn on the wall clock, switched through the menu."""
    flow = _flow(gl, live=True)
    try:
        flow.start("airfield")
        old_world, old_game = flow.world, flow.game
        assert old_world.physics.alive
        assert old_world.buffer.wait_for(old_world.buffer.tick + 5, timeout=10.0)
        for _ in range(3):
            screens_of(flow).draw(target(gl), time.monotonic(), 1 / 60)
        before = grab(gl)
        glider_tris = old_game.renderer.aircraft["mesh"].n_triangles
        flow.app_action("menu")                                 # Esc
        assert flow.menu is not None and old_world.physics.paused
        while flow.menu.item.scenario != "fighter_air":
            flow.menu_command("down")
        assert flow.menu_command("select") == "fly"
        assert flow.menu is None
        assert not old_world.physics.alive                      # the old thread was stopped and joined
        world = flow.world
        assert world is not old_world and world.physics.alive and not world.physics.paused
        assert world.scenario.name == "fighter_air" and "Mustang" in world.compiled.name
        assert flow.game is not old_game and flow.game.world is world
        assert flow.game.renderer.aircraft["mesh"].n_triangles != glider_tris
        assert flow.mixer is None or flow.mixer.keyboard is flow.game.keyboard
        t0 = world.buffer.read()[1].time_s
        assert world.buffer.wait_for(world.buffer.tick + 10, timeout=10.0)
        assert world.buffer.read()[1].time_s > t0               # the new flight is flying
        for _ in range(3):
            screens_of(flow).draw(target(gl), time.monotonic(), 1 / 60)
        after = grab(gl)
        _save("switch_before.png", before)
        _save("switch_after.png", after)
        # the sky is still sky, and the aircraft in the middle changed: the glider's thin white
        # wing against the Mustang's broad metal wings and painted nose
        assert _skyish(after[20:50, 70:-70]).mean() > 0.8
        mid = (slice(int(H * 0.3), int(H * 0.75)), slice(int(W * 0.3), int(W * 0.7)))
        diff = np.abs(after[mid].astype(int) - before[mid].astype(int)).max(axis=-1) > 40
        assert diff.mean() > 0.05
        assert "Mustang" in flow.game.hud.text.text("title")
        # and on, switching live a few more times: each old thread stops, each new one flies
        for name in ("winch", "fighter_takeoff", "ridge", "airfield"):
            old = flow.world
            flow.app_action("menu")
            while not (flow.menu.item.kind == "scenario" and flow.menu.item.scenario == name):
                flow.menu_command("down")
            t = time.monotonic()
            flow.menu_command("select")
            assert time.monotonic() - t < 20.0
            assert not old.physics.alive and flow.world.physics.alive
            assert flow.world.buffer.wait_for(flow.world.buffer.tick + 3, timeout=10.0)
            screens_of(flow).draw(target(gl), time.monotonic(), 1 / 60)
        assert flow.switches == 5
        assert sum(th.name == "physics" and th.is_alive() for th in threading.enumerate()) == 1
    finally:
        flow.close()
    assert not flow.world.physics.alive


def _live_gl_objects(ctx, prog):
    """How many GL objects of each kind exist now: every name below a fresh one, asked glIs*.
    (Mesa does not hand out freed names again at once, so the names alone say nothing.)"""
    from pyglet import gl as pgl
    b, t, v = ctx.buffer(reserve=16), ctx.texture((4, 4), 3), ctx.vertex_array(prog, [])
    hi = {"buffers": b.glo, "textures": t.glo, "vertex arrays": v.glo}
    for o in (b, t, v):
        o.release()
    return {"buffers": sum(bool(pgl.glIsBuffer(i)) for i in range(1, hi["buffers"])),
            "textures": sum(bool(pgl.glIsTexture(i)) for i in range(1, hi["textures"])),
            "vertex arrays": sum(bool(pgl.glIsVertexArray(i)) for i in range(1, hi["vertex arrays"])),
            "programs": sum(bool(pgl.glIsProgram(i)) for i in range(1, 4000)),
            "framebuffers": sum(bool(pgl.glIsFramebuffer(i)) for i in range(1, 500)),
            "renderbuffers": sum(bool(pgl.glIsRenderbuffer(i)) for i in range(1, 500))}


def test_switching_ten_times_holds_gl_memory(gl, config):
    """Without the cycle collector: a switch must give its GL objects back itself. (pyglet
    frees a dropped batch's buffers only when its reference cycles are collected, and a
    collection on the physics thread merely queues the deletion: CI once counted +9.)"""
    import gc
    flow = _flow(gl)
    gc.collect()
    gc.disable()
    try:
        flow.start("airfield")
        clock = Clock(flow)

        def switch(name):
            nonlocal clock
            flow.open_menu("pause")
            clock.frames(1)                                   # the menu drawn over the old scene
            flow.switch(name)
            clock = Clock(flow)
            clock.frames(2)
            if name == "fighter_air":                         # the fighter's cockpit panel and HUD too
                flow.game.set_view("cockpit")
                clock.frames(1)
                flow.game.set_view("hud")
                clock.frames(1)
                flow.game.set_view("chase")

        for name in ("fighter_air", "airfield"):              # warm up: caches, fonts, the menu view
            switch(name)
        first = _live_gl_objects(gl, screens_of(flow).menu.view.prog)
        for i in range(10):
            switch("fighter_air" if i % 2 == 0 else "airfield")
        last = _live_gl_objects(gl, screens_of(flow).menu.view.prog)
        assert flow.switches == 12
        # a switch builds ~170 buffers, ~15 textures, ~20 vertex arrays: a leak would show tenfold
        assert first["buffers"] > 50 and first["textures"] > 3
        for kind in first:
            assert last[kind] <= first[kind] + 2, (kind, first, last)
    finally:
        gc.enable()
        flow.close()


def test_a_refused_scenario_keeps_the_flight_and_says_why(gl, config, monkeypatch):
    from flightsim.aircraft_data.schema import DataError
    flow = _flow(gl)
    try:
        flow.start("airfield")
        world = flow.world
        real = flow.world_factory

        def factory(name, aircraft):
            if name == "winch":
                raise DataError(Path("scenarios/winch.toml"), "start.type", "broken for the test")
            return real(name, aircraft)
        flow.world_factory = factory
        flow.open_menu("pause")
        while flow.menu.item.scenario != "winch":
            flow.menu_command("down")
        assert flow.menu_command("select") is None
        assert flow.world is world and flow.menu is not None
        assert "broken for the test" in flow.menu.message and flow.menu.alert
        assert flow.menu_command("back") == "resume" and not world.physics.paused
    finally:
        flow.close()


# ---------------------------------------------------------------------------- pause, crash, time
def test_pause_shows_paused_from_the_physics_snapshot(gl, config):
    flow = _flow(gl)
    try:
        flow.start("airfield")
        clock = Clock(flow)
        clock.frames(5)
        flow.app_action("pause")
        assert flow.world.buffer.read()[1].paused              # published by the physics, not faked
        clock.frames(3)
        hud = flow.game.hud
        assert hud.text.text("paused_big") == "PAUSED"
        assert flow.game.instruments.sim_rate is None
        tick = flow.world.buffer.tick
        clock.frames(10)
        assert flow.world.buffer.tick == tick
        flow.app_action("pause")
        clock.frames(6)
        assert flow.world.buffer.tick > tick and not flow.world.buffer.read()[1].paused
        assert hud.text.text("paused_big") is None
    finally:
        flow.close()


def test_time_acceleration_runs_faster_and_the_hud_says_so(gl, config):
    flow = _flow(gl)
    try:
        flow.start("airfield")
        clock = Clock(flow)
        clock.frames(3)
        flow.app_action("time_faster")
        flow.app_action("time_faster")
        assert flow.time_scale == 4
        s0 = flow.world.buffer.read()[1]
        img = clock.frames(30)                                  # 0.5 s of frames = 25 ticks
        s1 = flow.world.buffer.read()[1]
        assert s1.time_scale == 4
        assert s1.time_s - s0.time_s == pytest.approx(4 * 0.02 * (s1.wall_s - s0.wall_s) / 0.02, abs=1e-9)
        status = [text for key, text in flow.game.hud.text.shown().items() if isinstance(key, tuple)
                  and key[0] == "status"]
        assert status and status[0].startswith("TIME x4")
        _save("time_x4.png", img)
        flow.app_action("time_slower")
        flow.app_action("time_slower")
        clock.frames(3)
        assert flow.world.buffer.read()[1].time_scale == 1
        # a new scenario starts in real time
        flow.app_action("time_faster")
        flow.switch("high")
        assert flow.time_scale == 1
    finally:
        flow.close()


def _dive_into_the_ground(world):
    """Put the aircraft 3 m above the ground, level, sinking at 12 m/s (the judge is armed)."""
    a = AircraftView(world.physics.state)
    n, e, _ = a.position_ned_m
    g = world.terrain.height_at(n, e)
    a.set_position_ned(n, e, -(g + 3.0))
    u, v, _ = a.velocity_body_ms
    a.set_velocity_body(u, v, 12.0)


def test_crash_message_then_the_menu_offers_restart(gl, config):
    flow = _flow(gl)
    try:
        flow.start("airfield")
        clock = Clock(flow)
        clock.frames(6)
        spawn = flow.world.spawn.position_ned_m
        _dive_into_the_ground(flow.world)
        img = clock.frames(20)
        ev = flow.game.instruments.event
        assert ev is not None and ev.kind == "crash", ev
        assert flow.menu is None                                 # the message first ...
        assert "CRASH" in (flow.game.hud.text.text("event") or "")
        _save("crash_message.png", img)
        clock.frames(13, dt=0.25)                                # ... then, 3 s on, the menu
        assert flow.menu is not None and flow.menu.reason == "crash"
        assert flow.menu.item.kind == "restart" and "CRASH" in flow.menu.message
        assert flow.world.physics.paused
        img = clock.frames(1)
        _save("crash_menu.png", img)
        epoch = flow.world.buffer.read()[1].epoch
        assert flow.menu_command("select") == "restart"
        assert flow.menu is None and not flow.world.physics.paused
        clock.frames(3)
        s = flow.world.buffer.read()[1]
        assert s.epoch == epoch + 1
        assert np.linalg.norm(s.position_ned_m - spawn) < 5.0   # back at the start
        clock.frames(14, dt=0.25)                                # 3.5 s on
        assert flow.menu is None and flow.game.instruments.event is None   # the crash is forgotten
    finally:
        flow.close()


# ---------------------------------------------------------------------------- liveries
def test_the_livery_chosen_in_the_menu_is_flown_remembered_and_the_ai_wears_the_other_side(gl, config):
    """p51d_vs_bf109: the P-51D in its first US scheme and the Bf 109 in a Luftwaffe one; the
    menu's paint line moves the P-51D to its next scheme at once and the settings remember it;
    fighter_combat (P-51D against a P-51D) gives the AI the captured Mustang in German marks."""
    from flightsim.app.settings import load_settings
    flow = _flow(gl, view=None, quality=None, save=True, settings=load_settings())
    try:
        flow.start("p51d_vs_bf109")
        Clock(flow).frames(2)
        mine = flow.game.renderer.aircraft["livery"]
        theirs = flow.game.renderer.combat.opp["drawer"].look.livery
        assert mine.side == "allied" and mine.nation == "usaaf" and theirs.side == "axis"
        flow.open_menu("pause")
        while flow.menu.item.kind != "livery":
            flow.menu_command("down")
        assert "Paint: " + mine.name == flow.menu.item.label
        assert flow.menu_command("right") == "livery"
        new = flow.game.renderer.aircraft["livery"]
        assert new.id != mine.id and flow.menu.item.label == "Paint: " + new.name
        Clock(flow).frames(2)                                   # it draws
    finally:
        flow.close()
    assert load_settings().liveries["p51d"] == new.id
    flow = _flow(gl, view=None, quality=None, save=False, settings=load_settings())
    try:
        flow.start("fighter_combat")
        Clock(flow).frames(2)
        assert flow.game.renderer.aircraft["livery"].id == new.id          # remembered
        assert flow.game.renderer.combat.opp["drawer"].look.livery.side == "axis"
    finally:
        flow.close()


# ---------------------------------------------------------------------------- settings
def test_settings_remembered_between_runs(gl, config):
    from flightsim.app.settings import load_settings
    flow = _flow(gl, view=None, quality=None, save=True, settings=load_settings())
    try:
        flow.start("ridge")
        Clock(flow).frames(2)
        flow.app_action("view_cockpit")
        flow.app_action("vario_sound")
        flow.app_action("time_faster")
    finally:
        flow.close()
    s = load_settings()
    assert (s.last_scenario, s.view, s.vario_muted, s.quality) == ("ridge", "cockpit", True, "auto")
    # the next run: the remembered view and mute, in real time
    flow = _flow(gl, view=None, quality=None, save=True, settings=load_settings())
    try:
        flow.start(s.last_scenario, menu=True)
        assert flow.menu.item.scenario == "ridge"
        assert flow.game.view_mode == "cockpit" and flow.game.hud.vario_muted and flow.time_scale == 1
    finally:
        flow.close()
    config.write_text("view = [[[")                             # corrupt: defaults, no crash
    flow = _flow(gl, view=None, quality=None, save=False, settings=load_settings())
    try:
        flow.start("airfield")
        assert flow.game.view_mode == "chase" and not flow.game.hud.vario_muted
    finally:
        flow.close()


def test_headless_screenshot_without_scenario_flies_the_remembered_one(tmp_path):
    import subprocess
    import sys
    conf = tmp_path / "config" / "flightsim"
    conf.mkdir(parents=True)
    (conf / "settings.toml").write_text('last_scenario = "fighter_air"\n')
    out = tmp_path / "shot.png"
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"))
    r = subprocess.run([sys.executable, "run.py", "--frames", "2", "--screenshot", str(out), "--width", "320",
                        "--height", "180", "--menu"], capture_output=True, text=True, timeout=600, env=env,
                       cwd=Path(__file__).resolve().parents[2])
    if r.returncode != 0 and "EGL" in r.stderr:
        pytest.skip("no offscreen GL")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "fighter_air" in r.stdout and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (conf / "settings.toml").read_text() == 'last_scenario = "fighter_air"\n'   # headless never writes


# ---------------------------------------------------------------------------- building in the background
def test_the_window_builds_worlds_in_the_background_and_draws_meanwhile(gl, config):
    """background=True (the window): start() returns at once, the loading screen is drawn while
    the World is built on another thread, update() installs it and opens the start menu; a
    switch from the menu keeps the menu (saying so) until the new World is ready."""
    import threading as th
    gate = th.Event()
    from flightsim.app.flow import _make_world

    def slow_factory(name, aircraft):
        gate.wait(10.0)                          # held until the test has drawn a loading frame
        return _make_world(name, aircraft)
    flow = _flow(gl, background=True, world_factory=slow_factory)
    try:
        t = time.monotonic()
        flow.start("airfield", menu=True)
        assert time.monotonic() - t < 0.2 and flow.world is None and flow.game is None
        p = flow.loading_progress()
        assert p.title == "Building the world" and "airfield" in p.message
        flow.update(time.monotonic())
        screens_of(flow).draw(target(gl), time.monotonic(), 1 / 60)             # the loading screen, no world needed
        img = grab(gl)
        _save("loading.png", img)
        assert screens_of(flow).loading.view.bar_rect is not None
        assert img.std() > 10                                        # a panel and a bar on the sky, not a blank
        gate.set()
        flow.building.wait(20.0)
        flow.update(time.monotonic())
        assert flow.world is not None and flow.game is not None and flow.menu is not None
        assert flow.world.scenario.name == "airfield"
        old = flow.world
        while flow.menu.item.scenario != "fighter_air":
            flow.menu_command("down")
        assert flow.menu_command("select") == "fly"
        assert flow.world is old and flow.menu is not None and "loading fighter_air" in flow.menu.message
        assert flow.menu_command("down") is None                     # the menu waits while it loads
        flow.building.wait(20.0)
        flow.update(time.monotonic())
        assert flow.world is not old and flow.world.scenario.name == "fighter_air" and flow.menu is None
        assert flow.switches == 1
    finally:
        gate.set()
        flow.close()


def test_a_background_build_that_fails_keeps_the_flight_and_says_why(gl, config):
    from flightsim.app.flow import _make_world
    from flightsim.world.scenario import UnsuitableAircraft

    def factory(name, aircraft):
        if name == "winch":
            raise UnsuitableAircraft("broken for the test")
        return _make_world(name, aircraft)
    flow = _flow(gl, background=True, world_factory=factory)
    try:
        flow.start("airfield", menu=True)
        flow.building.wait(20.0)
        flow.update(time.monotonic())
        world = flow.world
        while flow.menu.item.scenario != "winch":
            flow.menu_command("down")
        flow.menu_command("select")
        flow.building.wait(20.0)
        flow.update(time.monotonic())
        assert flow.world is world and flow.menu is not None and flow.menu.alert
        assert "broken for the test" in flow.menu.message
    finally:
        flow.close()
