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
    return GameWindow(args, pilot).run()


class GameWindow:
    """The window's side of the game: it owns the pyglet window, the keyboard and joystick input
    and the frame loop, and hands everything else to the flow (flow.py): the menu's commands,
    the app's actions, the World's building and drawing. Its ``on_*`` methods are the window's
    event handlers (pushed onto the window's handler stack)."""

    def __init__(self, args, pilot=None):
        from ..recording.library import recordings_dir
        from .flow import GameFlow
        from .prepare import is_prepared
        from .settings import load_settings
        self.args = args
        settings = load_settings()
        # GL comes with the window; the World does not need it: on a prepared machine its build
        # starts now, beside the window's opening. Every flight is recorded (setting record_flights).
        self.flow = flow = GameFlow(None, settings, view=args.view, quality=args.quality, live=True, audio=True,
                                    background=True, pilot=pilot, recordings_dir=recordings_dir())
        prepared = is_prepared()
        if prepared:
            flow.start(args.scenario, args.aircraft, menu=args.open_menu)
        self.win, self.ctx = open_window(args.width, args.height)
        flow.ctx = self.ctx
        import pyglet
        from pyglet.window import key

        from ..input import bindings
        from ..input.bindings import replay_keymap, resolve_keys
        from ..input.joystick import POLL_INTERVAL_S, JoystickManager
        from ..input.mixer import InputMixer
        from .menu import MenuNavigator, resolve_menu_keys
        from .startup import PrepareProcess
        self.pyglet, self.key, self.bindings = pyglet, key, bindings
        logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
        self.keymap = resolve_keys(key)
        self.menu_keys = resolve_menu_keys(key)
        self.replay_keys = replay_keymap(key)
        self.joysticks = JoystickManager(has_engine=True)
        self.mixer = InputMixer(None, self.joysticks)
        flow.mixer = self.mixer                        # the flow hands it each new aircraft's keyboard
        self.navigator = MenuNavigator()
        now = time.monotonic()
        self.last, self.frames, self.t_fps = now, 0, now
        self.closed = self.told = self.scrubbing = False
        # the first start on this machine: the flight model compiled in a child process first
        self.preparer = None if prepared else PrepareProcess()
        if not prepared:
            print("preparing the flight model for this machine (first start only) ...", flush=True)
        self.joysticks.poll()                          # hot-plug: looked for again once a second
        pyglet.clock.schedule_interval(lambda _dt: self.joysticks.poll(), POLL_INTERVAL_S)
        self.win.push_handlers(self)

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """pyglet's event loop until the window closes; the physics thread's figures then."""
        flow = self.flow
        try:
            self.pyglet.app.run(1 / 120)
        except KeyboardInterrupt:          # Ctrl-C in the terminal: leave as cleanly as the close box
            pass
        finally:
            if self.preparer is not None:
                self.preparer.cancel()
            flow.close()
        if flow.world is None:                # closed before the first World was ready
            return 0
        st = flow.world.physics.stats()
        print(f"physics: {st['ticks']} ticks, {st['physics_hz']:.1f} Hz, {st['late_ticks_pct']:.2f}% late, "
              f"{st['dropped_ticks']} dropped ({st['dropped_sim_s']:.2f} s of simulated time), "
              f"{flow.switches} scenario switches")
        return 0

    def loading(self) -> bool:
        return self.preparer is not None or self.flow.game is None

    def close(self):
        self.closed = True
        self.win.close()

    def app_actions(self):
        flow = self.flow
        for action in self.mixer.take_app_actions():
            if flow.menu is not None:                  # the menu opened on an earlier action this frame
                continue
            game = flow.game
            if action == "help" and not game.hud.show_help and hasattr(game.hud, "help"):
                game.hud.help.text = self.bindings.help_text(self.mixer.devices)
            if action == "quit":
                self.closed = True
            flow.app_action(action, self.win)
            if self.closed:
                return

    def menu_command(self, cmd) -> bool:
        """A menu command; True when it quits (the window is closed: draw nothing more)."""
        if self.flow.menu_command(cmd) == "quit":
            self.close()
            return True
        if self.flow.menu is None:
            self.navigator.reset()
        return False

    # ------------------------------------------------------------------ keys
    def on_key_press(self, sym, mods):
        action_for = self.bindings.action_for
        key, flow, handled = self.key, self.flow, self.pyglet.event.EVENT_HANDLED
        shift = bool(mods & key.MOD_SHIFT)
        action = action_for(self.keymap, sym, shift)
        if self.loading():                             # preparing / building: Esc leaves, F11 still works
            if action == "quit" or sym == key.ESCAPE:
                self.close()
            elif action == "fullscreen":
                self.win.set_fullscreen(not self.win.fullscreen)
            return handled
        if flow.menu is not None:
            if action == "quit":
                self.close()
            elif sym in self.menu_keys:
                self.menu_command(self.menu_keys[sym])
            elif action in ("fullscreen", "help"):
                flow.app_action(action, self.win)
            return handled                             # (pyglet's own Esc would close the window)
        if flow.replay is not None:                    # a replay: its keys; no flight controls
            cmd = action_for(self.replay_keys, sym, shift)
            if cmd is not None:
                flow.replay_command(cmd)
                return handled
            if action in self.bindings.FLIGHT_ACTIONS:
                return handled
        if action is None:
            return None
        self.mixer.press(action, f"key{sym}")
        self.app_actions()
        return handled

    def on_key_release(self, sym, mods):
        for action in self.bindings.actions_of_symbol(self.keymap, sym):
            self.mixer.release(action, f"key{sym}")

    def on_deactivate(self):                   # focus lost: a key held now would never be released
        self.mixer.release_keys()

    # ------------------------------------------------------------------ mouse: look, orbit, scrub
    def bar_point(self, x, y):
        """The replay bar under the mouse (window -> framebuffer pixels), or None."""
        flow = self.flow
        bar = getattr(flow.game, "replay_bar", None) if flow.replay is not None and flow.menu is None else None
        if bar is None:
            return None
        r = self.win.get_framebuffer_size()[0] / max(self.win.width, 1)
        return bar, x * r, y * r

    def on_mouse_press(self, x, y, button, mods):
        hit = self.bar_point(x, y)
        if hit is not None and hit[0].hit(hit[1], hit[2]):
            self.scrubbing = True
            self.flow.replay.seek_fraction(hit[0].fraction_at(hit[1]))

    def on_mouse_release(self, x, y, button, mods):
        self.scrubbing = False

    def on_mouse_drag(self, x, y, dx, dy, buttons, mods):
        flow = self.flow
        if flow.game is None:
            return
        if self.scrubbing:
            hit = self.bar_point(x, y)
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

    def on_mouse_scroll(self, x, y, sx, sy):
        if self.flow.game is None:
            return
        c = self.flow.game.cameras
        if self.flow.game.view_mode in ("cockpit", "panel", "hud"):
            c.zoom_by(0.9 ** sy)
        else:
            c.orbit_dist = max(3.0, min(400.0, c.orbit_dist * (0.9 ** sy)))

    # ------------------------------------------------------------------ frames
    def on_draw(self):
        now = time.monotonic()
        dt = now - self.last
        self.last = now
        if self.closed:
            return
        w, h = self.win.get_framebuffer_size()
        self.ctx.screen.viewport = (0, 0, w, h)
        if self.preparer is not None and not self._preparing_done():
            return
        flow = self.flow
        if flow.game is None:                     # the first World is being built
            flow.update(now)
            if flow.game is None:
                flow.draw(self.ctx.screen, now, dt)
                time.sleep(LOADING_FRAME_S)
                return
        if not self._read_inputs(dt):
            return
        flow.update(now)
        self.frames += 1
        if now - self.t_fps > 0.5:
            flow.game.fps = self.frames / (now - self.t_fps)
            self.frames, self.t_fps = 0, now
        flow.draw(self.ctx.screen, now, dt)
        if flow.world.physics.error is not None:
            raise flow.world.physics.error

    def _preparing_done(self) -> bool:
        """The first start's preparing: its progress drawn while it runs (False), the first World
        started once it is done (True)."""
        prep = self.preparer
        if prep.done:
            print(f"flight model prepared in {prep.seconds or 0.0:.0f} s", flush=True)
            self.preparer = None
            self.flow.start(self.args.scenario, self.args.aircraft, menu=self.args.open_menu)
            return True
        if prep.failed and not self.told:
            print(f"flightsim: preparing the flight model failed: {prep.error}", file=sys.stderr)
            self.told = True
        self.flow.draw_progress(self.ctx.screen, prep.progress())
        time.sleep(LOADING_FRAME_S)       # (the GIL and the core to the child and the builders)
        return False

    def _read_inputs(self, dt) -> bool:
        """The joysticks and keyboard for this frame: the menu's commands, or the flight controls
        posted to the mailbox and the app's actions. False when they closed the window."""
        flow = self.flow
        if flow.menu is not None:                 # joystick / gamepad choose in the menu
            for cmd in self.navigator.commands(self.joysticks.read(dt), dt):
                if self.menu_command(cmd):
                    return False
                if flow.menu is None:
                    break
            return True
        flow.world.mailbox.post(self.mixer.update(dt))   # keyboard + joysticks: the next physics tick reads it
        self.app_actions()                               # views, pause, menu ... from joystick buttons
        return not self.closed

    def on_close(self):
        self.closed = True
        if self.preparer is not None:         # closed while preparing: the child goes too, at once
            self.preparer.cancel()
        self.flow.close()
        self.joysticks.close()
