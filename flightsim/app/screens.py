"""The app's states, each owning its input and its drawing: loading, menu, flying, replay, crash.

    window.py (pyglet's events)
        │  the key, the mouse, the frame: to the state the flow is in
        ▼
    screens.py: Loading · MenuScreen · Flying · Replaying · Crashed
        │  what the input means there, and how that state is drawn
        ▼
    flow.py: GameFlow, the worlds and the transitions between the states (GameFlow.mode)
        │
        ▼
    game.py (one World's drawing), menu.py, actions.py, the World

Calls go down only: a state asks the flow for a transition (``flow.open_menu``,
``flow.menu_command``...) and the flow never calls a state; the flow's ``mode`` says which
state is current, so the states hold nothing of their own but their GL views. A key handler
returns "close" when the window must close, instead of reaching up; the other window actions
(fullscreen) go down through the flow's app actions with the window handed along.

    loading ──(the first World built)──► menu (no --scenario) or flying
    flying ──Esc──► menu ──resume / restart / a scenario──► flying
    flying ──a crash──► crash ──(CRASH_MENU_DELAY_S)──► menu, on "Restart"
    menu ──a recorded flight──► replay ──Enter / "Take over"──► flying
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..runtime.handoff import DT, pose_at

LOADING_FRAME_S = 1.0 / 30.0     # the loading screen's frame: the rest of the time is the builders'
LOOK_VIEWS = ("cockpit", "panel", "hud")      # the views a drag looks round in (the others orbit)


@dataclass
class WindowInput:
    """What the window hands the states to read input with: the key maps (flightsim.input.bindings
    and the menu's), the keyboard and joystick mixer, the joysticks and the menu navigator.
    All None offscreen (a screenshot, a test), where only drawing is asked for."""
    bindings: Any = None
    key: Any = None                 # pyglet.window.key
    keymap: dict = field(default_factory=dict)
    keys_profile: str = "standard"  # the keyboard layout the keymap is (flightsim.input.bindings.KEY_PROFILES)
    menu_keys: dict = field(default_factory=dict)
    replay_keys: dict = field(default_factory=dict)
    mixer: Any = None
    joysticks: Any = None
    navigator: Any = None
    win: Any = None


class Screen:
    """One app state: ``key`` (a key press: returns "close" when the window must close, else
    whether it was handled), ``frame`` (the frame's input; False once it closed the window),
    ``drag`` and ``scroll`` (the mouse), ``draw``."""
    name = ""

    def __init__(self, flow, io: WindowInput):
        self.flow, self.io = flow, io

    def key(self, action: str | None, sym: int, shift: bool):
        return None

    def frame(self, dt: float) -> bool:
        return True

    def press(self, x: float, y: float) -> None:
        pass

    def drag(self, x: float, y: float, dx: float, dy: float) -> None:
        pass

    def scroll(self, sy: float) -> None:
        pass

    def draw(self, fbo, now_s: float, dt_s: float) -> None:
        raise NotImplementedError


class Loading(Screen):
    """Preparing the flight model (a machine's first start, in a child process) or building the
    first World: a progress bar; Esc leaves, F11 still works."""
    name = "loading"

    def __init__(self, flow, io: WindowInput, preparer=None, start=None):
        super().__init__(flow, io)
        self.preparer = preparer          # flightsim.app.startup.PrepareProcess, on a first start
        self.start = start                # starts the first World once prepared
        self.view = None                  # flightsim.render.loading.LoadingView, made when first drawn
        self.told = False

    def key(self, action, sym, shift):
        if action == "quit" or (self.io.key is not None and sym == self.io.key.ESCAPE):
            return "close"
        if action == "fullscreen":
            self.flow.app_action(action, self.io.win)
        return True

    def frame(self, dt):
        prep = self.preparer
        if prep is not None:
            if prep.done:
                print(f"flight model prepared in {prep.seconds or 0.0:.0f} s", flush=True)
                self.preparer = None
                if self.start is not None:
                    self.start()
            elif prep.failed and not self.told:
                import sys
                print(f"flightsim: preparing the flight model failed: {prep.error}", file=sys.stderr)
                self.told = True
        return True

    @property
    def preparing(self) -> bool:
        return self.preparer is not None

    def cancel(self) -> None:
        """The window closes: a preparing child goes too, at once."""
        if self.preparer is not None:
            self.preparer.cancel()

    def draw(self, fbo, now_s, dt_s):
        from ..render.loading import LoadingView, Progress
        if self.view is None:
            self.view = LoadingView(self.flow.ctx)
        progress = self.preparer.progress() if self.preparer is not None else self.flow.loading_progress(now_s)
        self.view.draw(fbo, progress if progress is not None else Progress(title="Starting"))


class MenuScreen(Screen):
    """The start, Esc and crash menu over the paused World turning slowly behind it."""
    name = "menu"

    def __init__(self, flow, io):
        super().__init__(flow, io)
        self.view = None                  # flightsim.render.menu.MenuView, made when first drawn
        self.t0 = None                    # the flow's menu_opened this backdrop turns for
        self.turn_t0 = 0.0                # when its turn began

    def key(self, action, sym, shift):
        if action == "quit":
            return "close"
        menu = self.flow.menu
        if getattr(menu, "editing", None) is not None:
            # typing a Multiplayer line: the characters come as text (the window's on_text); only
            # Enter, Esc and Backspace are commands (Space and the letter keys type)
            cmd = self.io.menu_keys.get(sym)
            if cmd in ("select", "back", "erase") and not (self.io.key is not None and sym == self.io.key.SPACE):
                return self.command(cmd)
            return True
        if sym in self.io.menu_keys:
            return self.command(self.io.menu_keys[sym])
        if action in ("fullscreen", "help"):
            self.flow.app_action(action, self.io.win)
        return True                       # (pyglet's own Esc would close the window)

    def command(self, cmd: str):
        """A menu command: "close" when it quits."""
        if self.flow.menu_command(cmd) == "quit":
            return "close"
        if self.flow.menu is None and self.io.navigator is not None:
            self.io.navigator.reset()
        return True

    def frame(self, dt):
        """The joystick or gamepad chooses in the menu."""
        if self.io.navigator is None:
            return True
        for cmd in self.io.navigator.commands(self.io.joysticks.read(dt), dt):
            if self.command(cmd) == "close":
                return False
            if self.flow.menu is None:
                break
        return True

    def draw(self, fbo, now_s, dt_s):
        flow = self.flow
        if flow.menu_opened != self.t0:   # a menu opened since: its backdrop turns from the start again
            self.t0 = flow.menu_opened
            self.turn_t0 = now_s
        game = flow.game
        pose = pose_at(flow.world.buffer, now_s - DT)
        fbo.use()
        if pose is None:
            fbo.clear(0.25, 0.3, 0.4)
        else:
            view = self.camera(pose, now_s - self.turn_t0)
            game.renderer.render(fbo, view, pose, cockpit=False)
            if game.audio is not None:
                game.audio.update(pose.snapshot, game.instruments, None)
        if self.view is None:
            from ..render.menu import MenuView
            self.view = MenuView(flow.ctx)
        self.view.draw(fbo, flow.menu)

    def camera(self, pose, t_s: float):
        """Behind the aircraft's quarter, turning slowly round it (a tenth of a radian a second)."""
        from ..render.camera import look_at
        from ..runtime.handoff import dcm
        flow = self.flow
        R = dcm(pose.quat_wxyz)
        pos = np.asarray(pose.position_ned_m, dtype=np.float64)
        hdg = math.atan2(R[1, 0], R[0, 0])
        yaw = hdg + math.radians(140.0) + 0.1 * t_s        # from ahead and to the left, then round
        pitch = math.radians(16.0)
        dist = 1.8 * flow.game.cameras.size_m
        eye = pos - np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw),
                              math.sin(pitch)]) * dist              # NED: above is -z
        g = flow.world.terrain.height_at(eye[0], eye[1])
        eye[2] = min(eye[2], -g - 1.5)
        v = look_at(eye, pos, near_m=0.3)
        # aim left of the aircraft, so it turns in the space right of the menu panel
        return look_at(eye, pos - v.right * 0.55 * np.linalg.norm(pos - eye), near_m=0.3)


class Flying(Screen):
    """The player flies: keys and joysticks to the control mailbox, app actions (views, pause,
    Esc ...) to the flow; the mouse looks round the cockpit or orbits the outside views."""
    name = "flying"
    takes_flight_controls = True

    def key(self, action, sym, shift):
        if action is None:
            return None
        b = self.io.bindings
        if (action in b.FLIGHT_ACTIONS or action in b.SET_ACTIONS) and not self.takes_flight_controls:
            return True
        self.io.mixer.press(action, f"key{sym}")
        return self.app_actions()

    def app_actions(self):
        """The app actions pressed (keys, joystick buttons) this frame, in order; "close" once one
        quits."""
        flow = self.flow
        for action in self.io.mixer.take_app_actions():
            if flow.menu is not None:                  # the menu opened on an earlier action this frame
                continue
            game = flow.game
            if action == "help" and not game.hud.show_help and hasattr(game.hud, "help"):
                game.hud.help.text = self.io.bindings.help_text(self.io.mixer.devices, self.io.keys_profile)
            if action == "quit":                       # the window closes (and the flow with it)
                return "close"
            flow.app_action(action, self.io.win)
        return True

    def frame(self, dt):
        """The joysticks and keyboard for this frame, posted to the mailbox the next physics tick
        reads; the app's actions from joystick buttons."""
        controls = self.io.mixer.update(dt)
        if self.takes_flight_controls:
            self.flow.world.mailbox.post(controls)
        return self.app_actions() != "close"

    def drag(self, x, y, dx, dy):
        c = self.flow.game.cameras
        if self.flow.game.view_mode in LOOK_VIEWS:
            c.snap_target = None
            c.look_yaw = max(-2.9, min(2.9, c.look_yaw + dx * 0.005 * c.zoom))
            c.look_pitch = max(-1.2, min(1.4, c.look_pitch + dy * 0.005 * c.zoom))
        else:
            c.orbit_yaw += dx * 0.006
            c.orbit_pitch = max(-1.4, min(1.4, c.orbit_pitch - dy * 0.006))

    def scroll(self, sy):
        c = self.flow.game.cameras
        if self.flow.game.view_mode in LOOK_VIEWS:
            c.zoom_by(0.9 ** sy)
        else:
            c.orbit_dist = max(3.0, min(400.0, c.orbit_dist * (0.9 ** sy)))

    def draw(self, fbo, now_s, dt_s):
        self.flow.game.draw(fbo, now_s, dt_s)


class Crashed(Flying):
    """After a crash, until the menu opens on "Restart" (flow.CRASH_MENU_DELAY_S): the wreck is
    drawn with the crash's message on the HUD, and the input is the flying's (what is left of the
    aircraft is still the physics' to move, and Esc, R and the views still work)."""
    name = "crash"


class Replaying(Flying):
    """A recorded flight plays: its keys (play / pause, seek, speed, take over), any view, and the
    replay bar's scrubbing with the mouse; no flight controls."""
    name = "replay"
    takes_flight_controls = False

    def __init__(self, flow, io):
        super().__init__(flow, io)
        self.scrubbing = False

    def key(self, action, sym, shift):
        cmd = self.io.bindings.action_for(self.io.replay_keys, sym, shift)
        if cmd is not None:
            self.flow.replay_command(cmd)
            return True
        return super().key(action, sym, shift)

    def bar_point(self, x, y):
        """The replay bar under the mouse (window -> framebuffer pixels), or None."""
        bar = self.flow.game.replay_bar
        win = self.io.win
        if bar is None or win is None:
            return None
        r = win.get_framebuffer_size()[0] / max(win.width, 1)
        return bar, x * r, y * r

    def press(self, x, y):
        hit = self.bar_point(x, y)
        self.scrubbing = hit is not None and hit[0].hit(hit[1], hit[2])
        if self.scrubbing:
            self.flow.replay.seek_fraction(hit[0].fraction_at(hit[1]))

    def drag(self, x, y, dx, dy):
        hit = self.bar_point(x, y) if self.scrubbing else None
        if hit is not None:
            self.flow.replay.seek_fraction(hit[0].fraction_at(hit[1]))
            return
        super().drag(x, y, dx, dy)


class Screens:
    """One of each state for one flow; ``current`` is the one the flow's mode says."""

    def __init__(self, flow, io: WindowInput | None = None, preparer=None, start=None):
        self.flow = flow
        io = io or WindowInput()
        self.loading = Loading(flow, io, preparer, start)
        self.menu = MenuScreen(flow, io)
        self.by_mode = {s.name: s for s in (self.loading, self.menu, Flying(flow, io), Crashed(flow, io),
                                            Replaying(flow, io))}

    @property
    def current(self) -> Screen:
        return self.loading if self.loading.preparing else self.by_mode[self.flow.mode]

    def draw(self, fbo, now_s: float, dt_s: float) -> None:
        self.current.draw(fbo, now_s, dt_s)

    def wait_loading(self) -> None:
        """Loading: the GIL and the core to the preparing child and the builders between frames."""
        time.sleep(LOADING_FRAME_S)
