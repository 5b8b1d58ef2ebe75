"""What the game does for an app action: a key or a joystick button that is not a flight
control (views, pause, reset, help, calibrate, fullscreen, quit, menu, time acceleration,
the instruments' toggles; flightsim.input.bindings names them)."""
from __future__ import annotations

from ..input.bindings import APP_ACTIONS, LOOK_ACTIONS, VIEW_ACTIONS

VIEW_ORDER = ["cockpit", "chase", "orbit", "tower", "hud", "panel"]
ZOOM_STEP = 0.8
TIME_SCALES = (1, 2, 4)


def next_time_scale(current: int, step: int) -> int:
    """x1 -> x2 -> x4 (step +1) and back (step -1), stopping at the ends."""
    i = TIME_SCALES.index(current) if current in TIME_SCALES else 0
    return TIME_SCALES[min(max(i + step, 0), len(TIME_SCALES) - 1)]


def app_action(action: str, game, world, win, mixer) -> str | None:
    """What the window does for an app action (a key or a joystick button; flightsim.input.bindings).
    The menu is the caller's (flightsim.app.flow.GameFlow): "menu" is returned for it to open."""
    if action in VIEW_ACTIONS:
        game.set_view(VIEW_ACTIONS[action])
    elif action in ("view_next", "view_prev"):
        i = VIEW_ORDER.index(game.view_mode) if game.view_mode in VIEW_ORDER else 0
        game.set_view(VIEW_ORDER[(i + (1 if action == "view_next" else -1)) % len(VIEW_ORDER)])
    elif action in LOOK_ACTIONS:
        game.cameras.snap(action)
    elif action in ("zoom_in", "zoom_out"):
        game.cameras.zoom_by(ZOOM_STEP if action == "zoom_in" else 1.0 / ZOOM_STEP)
    elif action == "pause":
        world.physics.resume() if world.physics.paused else world.physics.pause()
    elif action == "release":
        world.release_cable()
    elif action == "reset":
        world.reset()
        mixer.reset(world.initial_inputs)
    elif action == "help":
        game.hud.show_help = not game.hud.show_help
    elif action == "calibrate":
        if mixer.joysticks is not None:
            mixer.joysticks.toggle_calibration()
    elif action == "fullscreen":
        win.set_fullscreen(not win.fullscreen)
    elif action == "quit":
        win.close()
    elif action == "menu":
        return "menu"
    elif action in ("time_faster", "time_slower"):
        ph = world.physics
        # (a multiplayer world holds real time: its physics' max_time_scale is 1)
        wanted = next_time_scale(ph.time_scale, 1 if action == "time_faster" else -1)
        ph.set_time_scale(min(wanted, getattr(ph, "max_time_scale", wanted)))
    elif action in ("telemetry", "vario_sound"):          # the instruments' own toggles
        toggle = getattr(game, "instrument_key", None)
        if toggle is not None:
            toggle("F2" if action == "telemetry" else "M")
    else:
        raise ValueError(f"not an app action: {action!r} (app actions: {', '.join(APP_ACTIONS)})")
    return None
