"""The game's window: pyglet's event loop around the game flow (menu, flying, switching).

The window opens at once. On a machine's first start the flight model is prepared in a child
process (flightsim.app.startup) while the window shows the stages on a progress bar; every World
is then built in a background thread (flightsim.app.flow) while the window draws the loading
screen, so the event loop never waits on a compile, a terrain or a trim, and closing the
window ends it all at once. The physics runs in its own 50 Hz thread
(flightsim.runtime.physics_thread); the window only posts ControlInputs to the mailbox and draws the
state interpolated between the last two snapshots at now - 20 ms.
"""
from __future__ import annotations

import logging
import sys
import time

from .display import open_window, require_display

LOADING_FRAME_S = 1.0 / 30.0     # the loading screen's frame: the rest of the time is the builders'


def play(args, pilot=None) -> int:
    """The window on ``args.scenario`` (the command line resolved it): flying at once when it was
    named, else under the start menu. ``pilot``: a script's pilot flying instead of the player
    (PhysicsThread.pilot)."""
    require_display()
    from ..recording.library import recordings_dir
    from .flow import GameFlow
    from .prepare import is_prepared
    from .settings import load_settings
    settings = load_settings()
    # GL comes with the window; the World does not need it: on a prepared machine its build
    # starts now, beside the window's opening. Every flight is recorded (setting record_flights).
    flow = GameFlow(None, settings, view=args.view, quality=args.quality, live=True, audio=True, background=True,
                    pilot=pilot, recordings_dir=recordings_dir())
    prepared = is_prepared()
    if prepared:
        flow.start(args.scenario, args.aircraft, menu=args.open_menu)
    win, ctx = open_window(args.width, args.height)
    flow.ctx = ctx
    import pyglet
    from pyglet.window import key

    from ..input.bindings import FLIGHT_ACTIONS, action_for, actions_of_symbol, help_text, replay_keymap, resolve_keys
    from ..input.joystick import POLL_INTERVAL_S, JoystickManager
    from ..input.mixer import InputMixer
    from .menu import MenuNavigator, resolve_menu_keys
    from .startup import PrepareProcess
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    keymap = resolve_keys(key)
    menu_keys = resolve_menu_keys(key)
    replay_keys = replay_keymap(key)
    joysticks = JoystickManager(has_engine=True)
    mixer = InputMixer(None, joysticks)
    flow.mixer = mixer                                 # the flow hands it each new aircraft's keyboard
    navigator = MenuNavigator()
    # the first start on this machine: the flight model compiled in a child process first
    state = {"last": time.monotonic(), "frames": 0, "t_fps": time.monotonic(), "closed": False,
             "preparer": None if prepared else PrepareProcess(), "told": False, "scrubbing": False}
    if not prepared:
        print("preparing the flight model for this machine (first start only) ...", flush=True)
    joysticks.poll()                                   # hot-plug: looked for again once a second
    pyglet.clock.schedule_interval(lambda _dt: joysticks.poll(), POLL_INTERVAL_S)

    def loading() -> bool:
        return state["preparer"] is not None or flow.game is None

    def close():
        state["closed"] = True
        win.close()

    def app_actions():
        for action in mixer.take_app_actions():
            if flow.menu is not None:                  # the menu opened on an earlier action this frame
                continue
            game = flow.game
            if action == "help" and not game.hud.show_help and hasattr(game.hud, "help"):
                game.hud.help.text = help_text(mixer.devices)
            if action == "quit":
                state["closed"] = True
            flow.app_action(action, win)
            if state["closed"]:
                return

    def menu_command(cmd) -> bool:
        """A menu command; True when it quits (the window is closed: draw nothing more)."""
        if flow.menu_command(cmd) == "quit":
            state["closed"] = True
            win.close()
            return True
        if flow.menu is None:
            navigator.reset()
        return False

    @win.event
    def on_key_press(sym, mods):
        shift = bool(mods & key.MOD_SHIFT)
        action = action_for(keymap, sym, shift)
        if loading():                                  # preparing / building: Esc leaves, F11 still works
            if action == "quit" or sym == key.ESCAPE:
                close()
            elif action == "fullscreen":
                win.set_fullscreen(not win.fullscreen)
            return pyglet.event.EVENT_HANDLED
        if flow.menu is not None:
            if action == "quit":
                state["closed"] = True
                win.close()
            elif sym in menu_keys:
                menu_command(menu_keys[sym])
            elif action in ("fullscreen", "help"):
                flow.app_action(action, win)
            return pyglet.event.EVENT_HANDLED          # (pyglet's own Esc would close the window)
        if flow.replay is not None:                    # a replay: its keys; no flight controls
            cmd = action_for(replay_keys, sym, shift)
            if cmd is not None:
                flow.replay_command(cmd)
                return pyglet.event.EVENT_HANDLED
            if action in FLIGHT_ACTIONS:
                return pyglet.event.EVENT_HANDLED
        if action is None:
            return None
        mixer.press(action, f"key{sym}")
        app_actions()
        return pyglet.event.EVENT_HANDLED

    @win.event
    def on_key_release(sym, mods):
        for action in actions_of_symbol(keymap, sym):
            mixer.release(action, f"key{sym}")

    @win.event
    def on_deactivate():                        # focus lost: a key held now would never be released
        mixer.release_keys()

    def bar_point(x, y):
        """The replay bar under the mouse (window -> framebuffer pixels), or None."""
        bar = getattr(flow.game, "replay_bar", None) if flow.replay is not None and flow.menu is None else None
        if bar is None:
            return None
        r = win.get_framebuffer_size()[0] / max(win.width, 1)
        return bar, x * r, y * r

    @win.event
    def on_mouse_press(x, y, button, mods):
        hit = bar_point(x, y)
        if hit is not None and hit[0].hit(hit[1], hit[2]):
            state["scrubbing"] = True
            flow.replay.seek_fraction(hit[0].fraction_at(hit[1]))

    @win.event
    def on_mouse_release(x, y, button, mods):
        state["scrubbing"] = False

    @win.event
    def on_mouse_drag(x, y, dx, dy, buttons, mods):
        if flow.game is None:
            return
        if state["scrubbing"]:
            hit = bar_point(x, y)
            if hit is not None:
                flow.replay.seek_fraction(hit[0].fraction_at(hit[1]))
                return
        c = flow.game.cameras
        if flow.game.view_mode in ("cockpit", "panel", "hud"):
            c.snap_target = None
            c.look_yaw = max(-2.9, min(2.9, c.look_yaw + dx * 0.005 * c.zoom))
            c.look_pitch = max(-1.2, min(1.4, c.look_pitch + dy * 0.005 * c.zoom))
        else:
            c.orbit_yaw += dx * 0.006
            c.orbit_pitch = max(-1.4, min(1.4, c.orbit_pitch - dy * 0.006))

    @win.event
    def on_mouse_scroll(x, y, sx, sy):
        if flow.game is None:
            return
        c = flow.game.cameras
        if flow.game.view_mode in ("cockpit", "panel", "hud"):
            c.zoom_by(0.9 ** sy)
        else:
            c.orbit_dist = max(3.0, min(400.0, c.orbit_dist * (0.9 ** sy)))

    @win.event
    def on_draw():
        now = time.monotonic()
        dt = now - state["last"]
        state["last"] = now
        if state["closed"]:
            return
        w, h = win.get_framebuffer_size()
        ctx.screen.viewport = (0, 0, w, h)
        prep = state["preparer"]
        if prep is not None:
            if prep.done:
                print(f"flight model prepared in {prep.seconds or 0.0:.0f} s", flush=True)
                state["preparer"] = None
                flow.start(args.scenario, args.aircraft, menu=args.open_menu)
            else:
                if prep.failed and not state["told"]:
                    print(f"flightsim: preparing the flight model failed: {prep.error}", file=sys.stderr)
                    state["told"] = True
                flow.draw_progress(ctx.screen, prep.progress())
                time.sleep(LOADING_FRAME_S)       # (the GIL and the core to the child and the builders)
                return
        if flow.game is None:                     # the first World is being built
            flow.update(now)
            if flow.game is None:
                flow.draw(ctx.screen, now, dt)
                time.sleep(LOADING_FRAME_S)
                return
        if flow.menu is not None:                 # joystick / gamepad choose in the menu
            for cmd in navigator.commands(joysticks.read(dt), dt):
                if menu_command(cmd):
                    return
                if flow.menu is None:
                    break
        else:
            flow.world.mailbox.post(mixer.update(dt))   # keyboard + joysticks: the next physics tick reads it
            app_actions()                               # views, pause, menu ... from joystick buttons
            if state["closed"]:
                return
        flow.update(now)
        state["frames"] += 1
        if now - state["t_fps"] > 0.5:
            flow.game.fps = state["frames"] / (now - state["t_fps"])
            state["frames"], state["t_fps"] = 0, now
        flow.draw(ctx.screen, now, dt)
        if flow.world.physics.error is not None:
            raise flow.world.physics.error

    @win.event
    def on_close():
        state["closed"] = True
        if state["preparer"] is not None:         # closed while preparing: the child goes too, at once
            state["preparer"].cancel()
        flow.close()
        joysticks.close()

    try:
        pyglet.app.run(1 / 120)
    except KeyboardInterrupt:          # Ctrl-C in the terminal: leave as cleanly as the close box
        pass
    finally:
        if state["preparer"] is not None:
            state["preparer"].cancel()
        flow.close()
    if flow.world is None:                # closed before the first World was ready
        return 0
    st = flow.world.physics.stats()
    print(f"physics: {st['ticks']} ticks, {st['physics_hz']:.1f} Hz, {st['late_ticks_pct']:.2f}% late, "
          f"{st['dropped_ticks']} dropped ({st['dropped_sim_s']:.2f} s of simulated time), "
          f"{flow.switches} scenario switches")
    return 0
