"""The game's window: pyglet's event loop around the game flow (menu, flying, switching).

The physics runs in its own 50 Hz thread (flightsim.physics_thread); the window only posts
ControlInputs to the mailbox and draws the state interpolated between the last two
snapshots at now - 20 ms.
"""
from __future__ import annotations

import logging
import time

from .display import open_window


def play(args) -> int:
    """The window on ``args.scenario`` (the command line resolved it): flying at once when it was
    named, else under the start menu."""
    win, ctx = open_window(args.width, args.height)
    import pyglet
    from pyglet.window import key
    from .flow import GameFlow
    from .input.bindings import action_for, actions_of_symbol, help_text, resolve_keys
    from .input.joystick import POLL_INTERVAL_S, JoystickManager
    from .input.mixer import InputMixer
    from .menu import MenuNavigator, resolve_menu_keys
    from .settings import load_settings
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    settings = load_settings()
    flow = GameFlow(ctx, settings, view=args.view, quality=args.quality, live=True, audio=True)
    keymap = resolve_keys(key)
    menu_keys = resolve_menu_keys(key)
    joysticks = JoystickManager(has_engine=True)
    mixer = InputMixer(None, joysticks)
    flow.mixer = mixer                                 # the flow hands it each new aircraft's keyboard
    navigator = MenuNavigator()
    flow.start(args.scenario, args.aircraft, menu=args.open_menu)
    joysticks.poll()                                   # hot-plug: looked for again once a second
    pyglet.clock.schedule_interval(lambda _dt: joysticks.poll(), POLL_INTERVAL_S)
    state = {"last": time.monotonic(), "frames": 0, "t_fps": time.monotonic(), "closed": False}

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
        if flow.menu is not None:
            if action == "quit":
                state["closed"] = True
                win.close()
            elif sym in menu_keys:
                menu_command(menu_keys[sym])
            elif action in ("fullscreen", "help"):
                flow.app_action(action, win)
            return pyglet.event.EVENT_HANDLED          # (pyglet's own Esc would close the window)
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

    @win.event
    def on_mouse_drag(x, y, dx, dy, buttons, mods):
        c = flow.game.cameras
        if flow.game.view_mode == "cockpit":
            c.look_yaw = max(-2.6, min(2.6, c.look_yaw + dx * 0.005))
            c.look_pitch = max(-1.2, min(1.3, c.look_pitch + dy * 0.005))
        else:
            c.orbit_yaw += dx * 0.006
            c.orbit_pitch = max(-1.4, min(1.4, c.orbit_pitch - dy * 0.006))

    @win.event
    def on_mouse_scroll(x, y, sx, sy):
        c = flow.game.cameras
        c.orbit_dist = max(3.0, min(400.0, c.orbit_dist * (0.9 ** sy)))

    @win.event
    def on_draw():
        now = time.monotonic()
        dt = now - state["last"]
        state["last"] = now
        if state["closed"]:
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
        w, h = win.get_framebuffer_size()
        ctx.screen.viewport = (0, 0, w, h)
        flow.draw(ctx.screen, now, dt)
        if flow.world.physics.error is not None:
            raise flow.world.physics.error

    @win.event
    def on_close():
        state["closed"] = True
        flow.close()
        joysticks.close()

    try:
        pyglet.app.run(1 / 120)
    except KeyboardInterrupt:          # Ctrl-C in the terminal: leave as cleanly as the close box
        pass
    finally:
        flow.close()
    st = flow.world.physics.stats()
    print(f"physics: {st['ticks']} ticks, {st['physics_hz']:.1f} Hz, {st['late_ticks_pct']:.2f}% late, "
          f"{st['dropped_ticks']} dropped ({st['dropped_sim_s']:.2f} s of simulated time), "
          f"{flow.switches} scenario switches")
    return 0
