"""The window's side: every app action a key or button can send is handled."""
from types import SimpleNamespace

import pytest

from flightsim.app.actions import app_action
from flightsim.input.bindings import APP_ACTIONS
from flightsim.input.joystick import JoystickManager, aircraft_has_engine
from flightsim.input.keyboard import KeyboardControls
from flightsim.input.mixer import InputMixer
from flightsim.runtime.handoff import ControlInputs

from .devices import MemoryBackend, make_stick


def fakes(profile_dir):
    game = SimpleNamespace(view_mode="chase", hud=SimpleNamespace(show_help=False), toggled=[])
    game.set_view = lambda m: setattr(game, "view_mode", m)
    game.cameras = SimpleNamespace(snaps=[], zoom=1.0)
    game.cameras.snap = game.cameras.snaps.append
    game.cameras.zoom_by = lambda f: setattr(game.cameras, "zoom", game.cameras.zoom * f)
    game.instrument_key = game.toggled.append
    physics = SimpleNamespace(paused=False, time_scale=1)
    physics.set_time_scale = lambda f: setattr(physics, "time_scale", f)
    physics.pause = lambda: setattr(physics, "paused", True)
    physics.resume = lambda: setattr(physics, "paused", False)
    start = ControlInputs(pitch_trim=0.1)
    world = SimpleNamespace(physics=physics, initial_inputs=start, resets=[])
    world.reset = lambda: world.resets.append(1)
    world.releases = []
    world.release_cable = lambda: world.releases.append(1)
    win = SimpleNamespace(fullscreen=False, closed=False)
    win.set_fullscreen = lambda f: setattr(win, "fullscreen", f)
    win.close = lambda: setattr(win, "closed", True)
    mixer = InputMixer(KeyboardControls(), JoystickManager(MemoryBackend(), profile_dir))
    return game, world, win, mixer


def test_every_app_action_does_its_thing(profile_dir):
    game, world, win, mixer = fakes(profile_dir)
    for a in APP_ACTIONS:
        app_action(a, game, world, win, mixer)                   # none unhandled
    game, world, win, mixer = fakes(profile_dir)
    app_action("view_next", game, world, win, mixer)
    assert game.view_mode == "orbit"
    app_action("view_prev", game, world, win, mixer)
    app_action("view_prev", game, world, win, mixer)
    assert game.view_mode == "cockpit"
    app_action("view_hud", game, world, win, mixer)
    assert game.view_mode == "hud"
    app_action("view_panel", game, world, win, mixer)
    assert game.view_mode == "panel"
    app_action("look_back", game, world, win, mixer)
    app_action("look_front", game, world, win, mixer)
    assert game.cameras.snaps == ["look_back", "look_front"]
    app_action("zoom_in", game, world, win, mixer)
    assert game.cameras.zoom < 1.0
    app_action("pause", game, world, win, mixer)
    assert world.physics.paused
    app_action("pause", game, world, win, mixer)
    assert not world.physics.paused
    mixer.press("roll_left")
    mixer.update(0.5)
    app_action("release", game, world, win, mixer)
    assert world.releases == [1]
    app_action("reset", game, world, win, mixer)
    assert world.resets == [1] and mixer.update(0.02) == ControlInputs(pitch_trim=0.1)
    app_action("help", game, world, win, mixer)
    assert game.hud.show_help
    app_action("calibrate", game, world, win, mixer)
    assert not mixer.joysticks.calibrating                  # nothing to calibrate
    mixer.joysticks.backend.joystick_list.append(make_stick()[0])
    mixer.joysticks.poll()
    app_action("calibrate", game, world, win, mixer)
    assert mixer.joysticks.calibrating
    app_action("calibrate", game, world, win, mixer)
    assert not mixer.joysticks.calibrating
    app_action("fullscreen", game, world, win, mixer)
    assert win.fullscreen
    app_action("telemetry", game, world, win, mixer)
    app_action("vario_sound", game, world, win, mixer)
    assert game.toggled == ["F2", "M"]
    # the menu is the game flow's (flightsim.app.flow): asked for, not opened here
    assert app_action("menu", game, world, win, mixer) == "menu"
    app_action("time_faster", game, world, win, mixer)
    app_action("time_faster", game, world, win, mixer)
    assert world.physics.time_scale == 4
    app_action("time_slower", game, world, win, mixer)
    assert world.physics.time_scale == 2
    app_action("quit", game, world, win, mixer)
    assert win.closed
    with pytest.raises(ValueError):
        app_action("pitch_up", game, world, win, mixer)


def test_focus_loss_releases_keys_not_buttons(profile_dir):
    game, world, win, mixer = fakes(profile_dir)
    mixer.press("brake", "key32")
    mixer.press("trim_up", "dev1")
    mixer.release_keys()
    c = mixer.update(0.1)
    assert c.brake_left == 0.0 and c.pitch_trim > 0.0


def test_glider_has_no_engine():
    from flightsim.aircraft_data.compile import compile_aircraft
    assert aircraft_has_engine(compile_aircraft("astir")) is False


def test_powered_aircraft_has_an_engine(tmp_path):
    toml = tmp_path / "aircraft.toml"
    toml.write_text('[aircraft]\nname = "X"\n\n[engine]\nname = "V-1650-7"\n')
    assert aircraft_has_engine(SimpleNamespace(spec=SimpleNamespace(path=toml))) is True
    toml.write_text('[aircraft]\nname = "X"\n')
    assert aircraft_has_engine(SimpleNamespace(spec=SimpleNamespace(path=toml))) is False
