"""Game flow without graphics: the paused snapshot, time acceleration in the physics thread,
the menu's model and joystick navigation, the remembered settings, the app actions.
(The offscreen end-to-end tests are tests/render/test_game_flow_render.py.)"""
import logging
import time
from types import SimpleNamespace

import numpy as np
import pytest

from flightsim.physics.named import AircraftView
from flightsim.runtime.handoff import ControlInputs, ControlMailbox, pose_at
from flightsim.runtime.physics_thread import PhysicsThread
from flightsim.sim import Sim


@pytest.fixture
def profile_dir(tmp_path, monkeypatch):
    d = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(d))
    return d / "flightsim" / "devices"


def _thread(trainer_path, **kw):
    sim = Sim(trainer_path)
    sim.spawn_trimmed_glide(30.0, 1500.0)
    sim.step()
    mb = ControlMailbox(ControlInputs.from_array(sim.ctrl))
    return PhysicsThread(sim.state, sim.env, sim.terrain, sim.model, sim.tables, mb, **kw), sim


# ---------------------------------------------------------------------------- pause
def test_thread_publishes_a_paused_snapshot_and_resumes_without_a_jump(trainer_path):
    th, _ = _thread(trainer_path)
    th.start()
    try:
        assert th.buffer.wait_for(5, timeout=5.0)
        th.pause()
        time.sleep(0.15)
        prev, curr = th.buffer.read()
        assert curr.paused and not prev.paused            # the last state again, marked paused
        assert curr.tick == prev.tick
        assert np.array_equal(curr.position_ned_m, prev.position_ned_m)
        n = th.buffer.published
        time.sleep(0.2)
        assert th.buffer.published == n                   # nothing more while paused
        paused_pos = curr.position_ned_m.copy()
        th.resume()
        assert th.buffer.wait_for(curr.tick + 1, timeout=2.0)
        first = [s for s in th.buffer.read() if s.tick == curr.tick + 1][0]
        assert not first.paused
        step_m = np.linalg.norm(first.position_ned_m - paused_pos)
        assert 0.3 < step_m < 1.0                         # one 20 ms step at 30 m/s: 0.6 m, no catch-up burst
    finally:
        th.stop()
    st = th.stats()
    assert abs(st["physics_hz"] - 50.0) < 5.0           # the paused time is not counted as running


def test_pause_when_stepped_by_hand_publishes_at_once(trainer_path):
    th, _ = _thread(trainer_path)
    for k in range(3):
        th.tick(0.02 * (k + 1))
    th.pause()
    prev, curr = th.buffer.read()
    assert curr.paused and curr.tick == prev.tick and curr.wall_s == prev.wall_s
    pose = pose_at(th.buffer, 10.0)
    assert pose.snapshot.paused


def test_reset_while_paused_shows_at_once(trainer_path):
    th, sim = _thread(trainer_path)
    start = th.state.copy()
    th.start()
    try:
        th.buffer.wait_for(10, timeout=5.0)
        th.pause()
        time.sleep(0.1)
        th.reset(start)
        deadline = time.monotonic() + 2.0
        while th.buffer.read()[1].epoch == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        s = th.buffer.read()[1]
        assert s.epoch == 1 and s.paused
        assert np.allclose(s.position_ned_m, AircraftView(start).position_ned_m)
    finally:
        th.stop()


# ---------------------------------------------------------------------------- time acceleration
def test_x2_advances_sim_time_twice_as_fast_per_tick(trainer_path):
    th, _ = _thread(trainer_path)
    t0 = th.buffer.read()[1].time_s
    for k in range(10):
        th.tick(0.02 * (k + 1))
    t1 = th.buffer.read()[1].time_s
    th.set_time_scale(2)
    for k in range(10, 20):
        th.tick(0.02 * (k + 1))
    prev, curr = th.buffer.read()
    assert t1 - t0 == pytest.approx(0.2)
    assert curr.time_s - t1 == pytest.approx(0.4)
    assert curr.time_scale == 2 and curr.tick - prev.tick == 2
    assert curr.wall_s - prev.wall_s == pytest.approx(0.02)   # still one snapshot per 20 ms tick
    assert th.stats()["steps"] == 30 and th.ticks == 20


def test_world_hook_runs_before_every_step(trainer_path):
    th, _ = _thread(trainer_path)
    seen = []
    th.hook = lambda state, env, t_s: seen.append((t_s, AircraftView(state).tick))
    th.set_time_scale(4)
    for k in range(5):
        th.tick(0.02 * (k + 1))
    assert len(seen) == 20
    ticks = [tk for _, tk in seen]
    assert ticks == list(range(ticks[0], ticks[0] + 20))         # once per step, each on the state it precedes
    assert all(t == pytest.approx(tk * 0.02) for t, tk in seen)


def test_x4_is_the_same_flight_as_four_real_time_ticks(trainer_path):
    """Acceleration changes nothing but the pace: 1 tick at x4 == 4 ticks at x1, bit for bit."""
    a, _ = _thread(trainer_path)
    b, _ = _thread(trainer_path)
    for m in (a, b):
        m.mailbox.post(ControlInputs(roll=0.3, pitch=0.2))
    for k in range(4):
        a.tick(0.02 * (k + 1))
    b.set_time_scale(4)
    b.tick(0.02)
    assert np.array_equal(a.state, b.state)


def test_time_scale_refuses_nonsense(trainer_path):
    th, _ = _thread(trainer_path)
    for bad in (0, -1, 1.5, 99):
        with pytest.raises(ValueError):
            th.set_time_scale(bad)
    assert th.time_scale == 1


class _SlowHook:
    """A world that takes 25 ms per step: at x4 a tick needs 100 ms of a 20 ms budget."""

    def __call__(self, state, env, t_s):
        time.sleep(0.025)


def test_x4_on_a_slow_machine_drops_time_and_counts_it(trainer_path):
    th, _ = _thread(trainer_path, max_catchup=5)
    th.hook = _SlowHook()
    th.set_time_scale(4)
    th.start()
    time.sleep(1.0)
    th.stop()
    st = th.stats()
    assert st["ticks"] <= 12                            # ~10 ticks of 100 ms fit in a second, no burst
    assert st["dropped_ticks"] >= 20                    # 50 were due
    assert st["dropped_sim_s"] == pytest.approx(st["dropped_ticks"] * 0.02 * 4)
    assert st["max_lateness_ms"] < (5 + 1) * 20 + 150   # the catch-up cap holds: never further behind
    assert st["sim_rate"] < 1.5                         # it managed what it could, and says so


def test_time_keys_cycle_x1_x2_x4_and_back():
    from flightsim.app.actions import app_action, next_time_scale
    assert [next_time_scale(s, 1) for s in (1, 2, 4)] == [2, 4, 4]
    assert [next_time_scale(s, -1) for s in (1, 2, 4)] == [1, 1, 2]
    ph = SimpleNamespace(time_scale=1)
    ph.set_time_scale = lambda f: setattr(ph, "time_scale", f)
    world = SimpleNamespace(physics=ph)
    seen = []
    for a in ("time_faster", "time_faster", "time_faster", "time_slower", "time_slower", "time_slower"):
        app_action(a, None, world, None, None)
        seen.append(ph.time_scale)
    assert seen == [2, 4, 4, 2, 1, 1]


# ---------------------------------------------------------------------------- menu
SCEN = [SimpleNamespace(name=n, kind=k, description=f"{n} text", aircraft="x")
        for n, k in (("airfield", "glider"), ("winch", "glider"), ("fighter_air", "fighter"))]


def test_refused_scenario_files_are_listed_and_never_hide_the_good_ones(tmp_path, monkeypatch):
    from flightsim.app.menu import Menu
    from flightsim.world import scenario as sc_mod
    d = tmp_path / "scenarios"
    d.mkdir()
    for p in sc_mod.scenario_paths()[:2]:
        (d / p.name).write_bytes(p.read_bytes())
    (d / "x.toml").write_bytes(bytes(range(256)) * 8)
    monkeypatch.setattr(sc_mod, "SCENARIO_DIR", d)
    good, refused = sc_mod.scenario_catalogue()
    assert len(good) == 2 and [p.name for p, _ in refused] == ["x.toml"] and "UTF-8" in refused[0][1]
    m = Menu.build(good, current=None, reason="start", refused=refused)
    rows = [(it.kind, it.label) for it in m.items]
    assert ("heading", "Scenario files refused") in rows and ("refused", "x") in rows
    for _ in range(len(m.items) + 2):                    # never selected: the cursor steps over it
        m.command("down")
        assert m.item.kind != "refused"


def test_start_menu_lists_scenarios_by_kind_and_chooses():
    from flightsim.app.menu import Choice, Menu
    m = Menu.build(SCEN, current="winch", reason="start")
    kinds = [(it.kind, it.label) for it in m.items]
    assert kinds == [("heading", "Gliders"), ("scenario", "airfield"), ("scenario", "winch"),
                     ("heading", "Fighters"), ("scenario", "fighter_air"), ("quit", "Quit")]
    assert m.item.scenario == "winch"                    # the remembered one is preselected
    assert m.command("back") is None                     # nothing to go back to
    m.command("down")
    assert m.item.scenario == "fighter_air"              # the heading is skipped
    assert m.command("select") == Choice("fly", "fighter_air")
    m.command("down")
    m.command("down")
    assert m.item.scenario == "airfield"                 # wrapped round past Quit and the heading
    m.command("up")
    assert m.command("select") == Choice("quit")
    with pytest.raises(ValueError):
        m.command("sideways")


def test_in_flight_menu_resumes_or_restarts():
    from flightsim.app.menu import Choice, Menu
    m = Menu.build(SCEN, current="airfield", reason="pause")
    assert m.item.kind == "resume" and m.command("select") == Choice("resume")
    assert m.command("back") == Choice("resume")
    m.command("down")
    assert m.command("select") == Choice("restart")
    c = Menu.build(SCEN, current="airfield", reason="crash", message="CRASH")
    assert c.item.kind == "restart" and not any(it.kind == "resume" for it in c.items)


def test_the_menu_changes_the_livery_with_left_and_right():
    from flightsim.app.menu import Choice, Menu
    m = Menu.build(SCEN, current="airfield", reason="pause", livery=("Paint: one", "3 schemes"))
    assert [it.kind for it in m.items[:3]] == ["resume", "restart", "livery"]
    m.command("down")
    m.command("down")
    assert m.item.kind == "livery" and m.item.label == "Paint: one"
    assert m.command("right") == Choice("livery", step=1)
    assert m.command("left") == Choice("livery", step=-1)
    assert m.command("select") == Choice("livery", step=1)
    m.command("up")
    assert m.command("left") is None                      # elsewhere Left / Right do nothing
    assert not any(it.kind == "livery" for it in Menu.build(SCEN, current="airfield", reason="pause").items)


def test_joystick_hat_buttons_and_stick_navigate_the_menu(profile_dir):
    from flightsim.app.menu import MenuNavigator
    from flightsim.input.joystick import JoystickManager
    from tests.input.devices import MemoryBackend, make_gamepad, make_stick
    js, c = make_stick()
    gp, g = make_gamepad()
    m = JoystickManager(MemoryBackend([js], [gp]), profile_dir)
    m.poll()
    nav = MenuNavigator()

    def cmds(dt=0.02):
        return nav.commands(m.read(dt), dt)

    assert cmds() == []
    c["hat_y"].value = 1                                 # hat down (evdev raw +1, inverted): down
    assert cmds() == ["down"]
    c["hat_y"].value = 0
    c["b0"].value = True                                 # the trigger chooses (it is the brake in flight)
    assert cmds() == ["select"]
    c["b0"].value = False
    cmds()
    g["back"].value = True                               # gamepad Back: back
    assert cmds() == ["back"]
    g["back"].value = False
    g["a"].value = True
    assert cmds() == ["select"]
    g["a"].value = False
    cmds()
    c["y"].value = 0                                     # stick pushed fully forward: up, then repeats
    assert cmds() == ["up"]
    assert cmds(0.2) == []                               # held: waits the repeat delay ...
    assert cmds(0.25) == ["up"]                          # ... then repeats
    assert cmds(0.15) == ["up"]
    c["y"].value = 512                                   # centred: stops
    assert cmds(0.5) == []


def test_gamepad_back_opens_the_menu_in_flight(profile_dir):
    from flightsim.input.joystick import JoystickManager
    from flightsim.input.keyboard import KeyboardControls
    from flightsim.input.mixer import InputMixer
    from tests.input.devices import MemoryBackend, make_gamepad
    gp, g = make_gamepad()
    m = JoystickManager(MemoryBackend([], [gp]), profile_dir)
    m.poll()
    mix = InputMixer(KeyboardControls(), m)
    g["back"].value = True
    mix.update(0.02)
    assert mix.take_app_actions() == ["menu"]


def test_esc_is_the_menu_and_shift_esc_quits():
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    from pyglet.window import key

    from flightsim.app.menu import resolve_menu_keys
    from flightsim.input.bindings import action_for, resolve_keys
    km = resolve_keys(key)
    assert action_for(km, key.ESCAPE, False) == "menu"
    assert action_for(km, key.ESCAPE, True) == "quit"
    assert action_for(km, key.T, False) == "time_faster" and action_for(km, key.T, True) == "time_slower"
    mk = resolve_menu_keys(key)
    assert mk[key.UP] == "up" and mk[key.DOWN] == "down" and mk[key.RETURN] == "select" and mk[key.ESCAPE] == "back"


# ---------------------------------------------------------------------------- settings
def test_settings_roundtrip_in_the_config_dir(tmp_path, monkeypatch):
    from flightsim.app.settings import Settings, load_settings, save_settings, settings_path
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "flightsim" / "settings.toml"
    assert load_settings() == Settings()                 # no file yet: defaults, silently
    s = Settings(last_scenario="ridge", view="cockpit", quality="low", vario_muted=True)
    assert save_settings(s) == settings_path()
    assert load_settings() == s
    assert "time" not in settings_path().read_text()     # time acceleration is never remembered


@pytest.mark.parametrize("text", ['view = "upside-down"\n', 'vario_muted = "yes"\n', 'colour = "red"\n',
                                  '\x00\xff garbage'])
def test_corrupt_settings_give_defaults_and_one_log_line(tmp_path, caplog, text):
    """(Files with good keys beside the bad: tests/test_settings.py.)"""
    from flightsim.app.settings import Settings, load_settings
    p = tmp_path / "settings.toml"
    p.write_text(text, encoding="utf-8", errors="surrogateescape") if "\x00" not in text else p.write_bytes(
        text.encode("latin-1"))
    with caplog.at_level(logging.WARNING, logger="flightsim.app.settings"):
        s = load_settings(p)
    assert s == Settings()
    lines = [r for r in caplog.records if r.name == "flightsim.app.settings"]
    assert len(lines) == 1 and str(p) in lines[0].getMessage()


def test_settings_that_cannot_be_written_are_not_an_error(tmp_path, caplog):
    from flightsim.app.settings import Settings, save_settings
    blocker = tmp_path / "file"
    blocker.write_text("")
    with caplog.at_level(logging.WARNING, logger="flightsim.app.settings"):
        assert save_settings(Settings(), blocker / "sub" / "settings.toml") is None
    assert len(caplog.records) == 1


def test_cli_defaults_leave_room_for_the_menu_and_the_remembered_settings():
    from flightsim.app.cli import main, parser
    a = parser().parse_args([])
    assert a.scenario is None and a.view is None and a.quality is None and not a.menu
    a = parser().parse_args(["--scenario", "winch", "--view", "cockpit", "--quality", "low", "--frames", "2"])
    assert (a.scenario, a.view, a.quality, a.frames) == ("winch", "cockpit", "low", 2)
    assert main(["--scenario", "no_such_scenario", "--frames", "1"]) == 2
