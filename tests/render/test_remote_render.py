"""Another player's aircraft drawn for real (offscreen Mesa EGL, issue 36): a Bf 109 flown by a
second World over DIS on loopback appears in the P-51's chase view with its own model."""
import numpy as np

from tests.net.test_session import _free_port as _port
from tests.render.test_screenshots import gl  # noqa: F401  (the offscreen GL fixture)

SIZE = (640, 360)


def _render(ctx, with_remote: bool, path=None):
    from flightsim.app.game import Game
    from flightsim.net.session import NetConfig, open_session
    from flightsim.physics.named import AircraftView
    from flightsim.render.png import read_pixels, write_png
    from flightsim.world.assembly import World
    t = [5000.0]
    clock = lambda: t[0]  # noqa: E731
    pa, pb = _port(), _port()
    a = open_session(NetConfig.parse(pa, f"127.0.0.1:{pb}", "RED1", 1, bind_host="127.0.0.1"), clock)
    b = open_session(NetConfig.parse(pb, f"127.0.0.1:{pa}" if with_remote else "", "BLUE2", 1,
                                     bind_host="127.0.0.1"), clock)
    try:
        wa = World("p51d", "airfield", net=a)
        wb = World("bf109", "airfield", net=b)
        va, vb = AircraftView(wa.physics.state), AircraftView(wb.physics.state)
        p = va.position_ned_m
        R = va.body_to_ned()
        ahead = p + 45.0 * R[:, 0] + 8.0 * R[:, 1] - 3.0 * R[:, 2]      # ahead, right, a little above
        vb.set_position_ned(*ahead)
        game = Game(ctx, wa, "chase", "low")
        fbo = ctx.simple_framebuffer(SIZE)
        fbo.viewport = (0, 0, *SIZE)
        for _ in range(30):
            t[0] += 0.02
            wa.physics.tick(t[0])
            wb.physics.tick(t[0])
            game.draw(fbo, wa.buffer.read()[1].wall_s + 0.02, 0.02)
        ctx.finish()
        img = read_pixels(ctx, fbo)
        if path:
            write_png(path, img)
        return img, game, a.frame
    finally:
        a.close()
        b.close()


def test_a_remote_player_is_drawn(gl, tmp_path):  # noqa: F811
    img, game, frame = _render(gl, True, tmp_path / "remote.png")
    assert [r.aircraft for r in frame.remotes] == ["bf109"]
    assert game.renderer.remotes.drawn == 1
    img0, game0, frame0 = _render(gl, False)
    assert frame0.remotes == () and game0.renderer.remotes.drawn == 0
    # the Bf 109 covers part of the picture that is sky or ground without it
    changed = np.any(np.abs(img.astype(int) - img0.astype(int)) > 40, axis=2)
    assert changed.sum() > 120              # (about 250 px at 640x360: a fighter 45 m ahead of the chase camera's aircraft)


def test_going_online_and_offline_from_the_menu(gl, tmp_path):  # noqa: F811
    """The menu's Multiplayer lines: Fly online flies the scenario again in a World with a session
    (a second player on loopback is heard and drawn), the menu draws the pilots present, Go offline
    flies alone again and the session is closed once its World has stopped."""
    from flightsim.app.flow import GameFlow
    from flightsim.app.menu import Choice
    from flightsim.app.screens import Screens
    from flightsim.net.session import NetConfig, open_session
    from flightsim.render.png import read_pixels, write_png
    from flightsim.world.assembly import World
    pa, pb = _port(), _port()
    other = open_session(NetConfig.parse(pb, f"127.0.0.1:{pa}", "BLUE2", 1, bind_host="127.0.0.1"))
    flow = GameFlow(gl, view="chase", quality="low", save=False)
    try:
        flow.settings.mp_listen, flow.settings.mp_send, flow.settings.mp_callsign = pa, f"127.0.0.1:{pb}", "RED1"
        flow.start("fighter_air")
        assert flow.world.net is None
        flow.open_menu()
        flow.menu.selected = next(i for i, it in enumerate(flow.menu.items) if it.kind == "mp_online")
        assert flow.menu_command("select") == "online"
        if flow.building is not None:
            flow.building.wait()
        flow.update(0.0)
        session = flow.online.session
        assert session is not None and flow.world.net is session and flow.world.physics.max_time_scale == 1
        wb = World("spitfire", "fighter_air", small_world=True, net=other)
        wall = flow.world.buffer.read()[1].wall_s
        for _ in range(20):
            wall += 0.02
            wb.physics.tick(wall)
            flow.world.physics.tick(wall)
        assert [p.callsign for p in session.frame.peers] == ["BLUE2"]
        flow.open_menu()
        assert not flow.world.physics.paused and flow.menu.message.startswith("online: ")   # the others fly on
        item = {it.scenario: it.label for it in flow.menu.items if it.kind == "mp_field"}
        assert item["callsign"] == "Callsign: RED1" and item["listen"] == f"Port: {pa}"      # the session's own
        assert any(it.kind == "mp_peer" and "BLUE2" in it.label for it in flow.menu.items)
        fbo = gl.simple_framebuffer((640, 360))
        fbo.viewport = (0, 0, 640, 360)
        Screens(flow).draw(fbo, wall, 1 / 60)
        write_png(tmp_path / "menu_online.png", read_pixels(gl, fbo))
        flow.menu.selected = next(i for i, it in enumerate(flow.menu.items) if it.kind == "mp_online")
        assert flow.menu.item.label == "Go offline" and flow.menu_command("select") == "offline"
        if flow.building is not None:
            flow.building.wait()
        flow.update(0.0)
        assert flow.world.net is None and flow.online.session is None
        assert session.link.sock.fileno() == -1             # closed once its World stopped
    finally:
        flow.close()
        other.close()
