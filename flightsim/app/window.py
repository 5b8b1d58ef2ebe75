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
import time

from .display import open_window, require_display


def play(args, pilot=None) -> int:
    """The window on ``args.scenario`` (the command line resolved it): flying at once when it was
    named, else under the start menu. ``pilot``: a script's pilot flying instead of the player
    (PhysicsThread.pilot)."""
    require_display()
    return GameWindow(args, pilot).run()


class GameWindow:
    """The window's side of the game: it owns the pyglet window, the keyboard and joystick input
    and the frame loop. Each event goes to the app's current state (flightsim.app.screens: loading,
    menu, flying, replay, crash), which reads it and draws, and says when the window must close;
    the flow (flow.py) under them holds the worlds. Its ``on_*`` methods are the window's event handlers (pushed onto the window's
    handler stack)."""

    def __init__(self, args, pilot=None):
        from ..recording.library import recordings_dir
        from .flow import GameFlow
        from .prepare import is_prepared
        from .settings import load_settings
        self.args = args
        settings = load_settings()
        if args.keys is not None:                  # --keys: this layout, remembered for the next start
            settings.keys = args.keys
        # GL comes with the window; the World does not need it: on a prepared machine its build
        # starts now, beside the window's opening. Every flight is recorded (setting record_flights).
        self.flow = flow = GameFlow(None, settings, view=args.view, quality=args.quality, live=True, audio=True,
                                    background=True, pilot=pilot, recordings_dir=recordings_dir())
        if getattr(args, "net", None) is not None:      # --multiplayer: online from the start (flightsim/app/online.py)
            from ..net.session import describe, open_session
            net = open_session(args.net)
            print(describe(args.net, net.link.port), flush=True)
            flow.online.attach(net)
        prepared = is_prepared()
        if prepared:
            self.start()
        self.win, self.ctx = open_window(args.width, args.height)
        flow.ctx = self.ctx
        import pyglet
        from pyglet.window import key

        from ..input import bindings
        from ..input.bindings import replay_keymap, resolve_keys
        from ..input.joystick import POLL_INTERVAL_S, JoystickManager
        from ..input.mixer import InputMixer
        from .menu import MenuNavigator, resolve_menu_keys
        from .screens import Screens, WindowInput
        from .startup import PrepareProcess
        self.pyglet, self.key, self.bindings = pyglet, key, bindings
        logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
        self.keymap = resolve_keys(key, settings.keys)
        self.joysticks = JoystickManager(has_engine=True)
        self.mixer = InputMixer(None, self.joysticks)
        flow.mixer = self.mixer                        # the flow hands it each new aircraft's keyboard
        io = WindowInput(bindings=bindings, key=key, keymap=self.keymap, keys_profile=settings.keys,
                         menu_keys=resolve_menu_keys(key),
                         replay_keys=replay_keymap(key), mixer=self.mixer, joysticks=self.joysticks,
                         navigator=MenuNavigator(), win=self.win)
        now = time.monotonic()
        self.last, self.frames, self.t_fps = now, 0, now
        self.closed = False
        # the first start on this machine: the flight model compiled in a child process first
        preparer = None if prepared else PrepareProcess()
        if not prepared:
            print("preparing the flight model for this machine (first start only) ...", flush=True)
        self.screens = Screens(flow, io, preparer=preparer, start=self.start)
        self.joysticks.poll()                          # hot-plug: looked for again once a second
        pyglet.clock.schedule_interval(lambda _dt: self.joysticks.poll(), POLL_INTERVAL_S)
        self.win.push_handlers(self)

    def start(self) -> None:
        """The first World's build begins (once the flight model is prepared)."""
        self.flow.start(self.args.scenario, self.args.aircraft, menu=self.args.open_menu)

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """pyglet's event loop until the window closes; the physics thread's figures then."""
        flow = self.flow
        try:
            self.pyglet.app.run(1 / 120)
        except KeyboardInterrupt:          # Ctrl-C in the terminal: leave as cleanly as the close box
            pass
        finally:
            self.screens.loading.cancel()
            flow.close()
        if flow.world is None:                # closed before the first World was ready
            return 0
        st = flow.world.physics.stats()
        print(f"physics: {st['ticks']} ticks, {st['physics_hz']:.1f} Hz, {st['late_ticks_pct']:.2f}% late, "
              f"{st['dropped_ticks']} dropped ({st['dropped_sim_s']:.2f} s of simulated time), "
              f"{flow.switches} scenario switches")
        return 0

    def close(self):
        self.closed = True
        self.win.close()

    # ------------------------------------------------------------------ keys and mouse: to the current state
    def on_key_press(self, sym, mods):
        shift = bool(mods & self.key.MOD_SHIFT)
        action = self.bindings.action_for(self.keymap, sym, shift)
        what = self.screens.current.key(action, sym, shift)
        if what is None:
            return None
        if what == "close":
            self.close()
        return self.pyglet.event.EVENT_HANDLED

    def on_key_release(self, sym, mods):
        for action in self.bindings.actions_of_symbol(self.keymap, sym):
            self.mixer.release(action, f"key{sym}")

    def on_deactivate(self):                   # focus lost: a key held now would never be released
        self.mixer.release_keys()

    def on_text(self, text):                   # typed characters: the menu's edited line takes them
        if self.screens.current.name == "menu":
            self.flow.menu_text(text)

    def on_mouse_press(self, x, y, button, mods):
        self.screens.current.press(x, y)

    def on_mouse_drag(self, x, y, dx, dy, buttons, mods):
        self.screens.current.drag(x, y, dx, dy)

    def on_mouse_scroll(self, x, y, sx, sy):
        self.screens.current.scroll(sy)

    # ------------------------------------------------------------------ frames
    def on_draw(self):
        now = time.monotonic()
        dt = now - self.last
        self.last = now
        if self.closed:
            return
        w, h = self.win.get_framebuffer_size()
        self.ctx.screen.viewport = (0, 0, w, h)
        flow = self.flow
        if not self.screens.current.frame(dt):     # this frame's input: the menu's, or the controls
            self.close()
            return
        flow.update(now)                             # a World built is installed; a crash's menu opens
        screen = self.screens.current
        screen.draw(self.ctx.screen, now, dt)
        if screen.name == "loading":
            self.screens.wait_loading()
            return
        self.frames += 1
        if now - self.t_fps > 0.5:
            flow.game.fps = self.frames / (now - self.t_fps)
            self.frames, self.t_fps = 0, now
        if flow.world.physics.error is not None:
            raise flow.world.physics.error

    def on_close(self):
        self.closed = True
        self.screens.loading.cancel()          # closed while preparing: the child goes too, at once
        self.flow.close()
        self.joysticks.close()
