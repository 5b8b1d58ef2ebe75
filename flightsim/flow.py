"""The game's flow around the flying: start menu, Esc menu, switching scenario, restart,
crash, time acceleration, remembered settings.

    start ──(no --scenario)──► MENU over the remembered scenario, paused
      │                          │ choose a scenario / Enter
      └──(--scenario NAME)──► FLYING ◄──────┘
                               │  Esc / gamepad Back: MENU (paused): resume, restart, another scenario, quit
                               │  a crash: after CRASH_MENU_DELAY_S the menu opens on "Restart"
                               │  T / Shift+T: time acceleration x1 -> x2 -> x4 (physics steps per tick)

One ``World`` (physics thread, terrain, weather) and one ``Game`` (renderer, HUD,
instruments, cameras, sound) per scenario. Choosing another scenario stops the old
physics thread (joined, checked), builds the new World and Game -- another aircraft
needs another mesh, instrument panel, HUD and engine sound -- and releases the old
Game's GL objects (flightsim.render.release), so switching any number of times holds
the same GL memory. ``live=False`` is the offscreen mode: nothing is started, the caller
steps ``world.physics.tick`` (tests, ``--screenshot``).
"""
from __future__ import annotations

import logging
import math

import numpy as np

from .actions import app_action
from .game import Game
from .handoff import DT, pose_at
from .input.joystick import aircraft_has_engine
from .menu import Menu
from .settings import Settings, save_settings
from .world.assembly import World

log = logging.getLogger("flightsim.flow")

CRASH_MENU_DELAY_S = 3.0


def _make_world(scenario, aircraft):
    return World(aircraft, scenario)


class GameFlow:
    def __init__(self, ctx, settings: Settings | None = None, *, view: str | None = None, quality: str | None = None,
                 live: bool = False, audio: bool = False, save: bool = True, settings_file=None,
                 world_factory=None):
        self.ctx = ctx
        self.settings = settings.copy() if settings is not None else Settings()
        if view:
            self.settings.view = view
        if quality:
            self.settings.quality = quality
        self.settings_file = settings_file
        self.save_enabled = save
        self._saved = settings.copy() if settings is not None else None
        self.live = live
        self.audio_enabled = audio
        self.world_factory = world_factory or _make_world
        self.world = None
        self.game = None
        self.menu: Menu | None = None
        self.mixer = None              # the window's InputMixer (keys + joysticks), when there is one
        self.fresh = False             # built or restarted, not flown yet (the start menu's backdrop)
        self.switches = 0
        self._menu_view = None
        self._menu_t0 = 0.0
        self._crash_seen = None

    # ------------------------------------------------------------------ worlds
    @property
    def scenario_name(self) -> str | None:
        return None if self.world is None else self.world.scenario.name

    def start(self, scenario: str, aircraft: str | None = None, menu: bool = False) -> None:
        """The first scenario: flying at once, or (``menu``) paused under the start menu."""
        self._load(scenario, aircraft, paused=menu)
        if menu:
            self.open_menu("start")

    def switch(self, scenario: str) -> None:
        """Leave the current flight for ``scenario`` (its own aircraft), flying at once."""
        self._load(scenario, None, paused=False)
        self.menu = None
        self.switches += 1

    def _load(self, scenario, aircraft, paused: bool) -> None:
        from .render.release import release_gl
        old_world, old_game = self.world, self.game
        view = self.settings.view if old_game is None else old_game.view_mode
        telemetry = bool(old_game is not None and old_game.hud.show_telemetry)
        world = self.world_factory(scenario, aircraft)     # a bad file raises here: the old flight stays
        try:
            game = Game(self.ctx, world, view, self.settings.quality)
        except BaseException:
            world.physics.stop()
            raise
        if old_world is not None:
            old_world.physics.stop()
            if old_world.physics.alive:
                raise RuntimeError(f"the physics thread of {old_world.scenario.name} did not stop")
        if old_game is not None:
            if old_game.audio is not None:
                old_game.audio.close()
            release_gl(old_game, keep=(self.ctx,))
        self.world, self.game = world, game
        game.hud.show_telemetry = telemetry
        if self.audio_enabled:
            from .audio.engine import AudioEngine
            game.audio = AudioEngine(game.instrument_spec)   # no audio device: silence, never an error
        if game.hud.vario_muted != self.settings.vario_muted:
            game.instrument_key("M")
        if self.mixer is not None:
            self.mixer.keyboard = game.keyboard
            self.mixer.reset(world.initial_inputs)
            if self.mixer.joysticks is not None:
                self.mixer.joysticks.has_engine = aircraft_has_engine(world.compiled)
        self._crash_seen = None
        self.fresh = True
        if paused:
            world.physics.pause()
        if self.live:
            world.physics.start()
        self.sync_settings()

    def restart(self) -> None:
        """Back to the scenario's start (a new epoch: the instruments and the crash start afresh)."""
        self.world.reset()
        if self.mixer is not None:
            self.mixer.reset(self.world.initial_inputs)
        ev = self.game.instruments.event          # until the new epoch reaches the instruments, the old
        if ev is not None and ev.kind == "crash":  # crash is still theirs: it must not open the menu again
            self._crash_seen = ev
        self.fresh = True

    def set_time_scale(self, factor: int) -> None:
        self.world.physics.set_time_scale(factor)

    @property
    def time_scale(self) -> int:
        return self.world.physics.time_scale

    # ------------------------------------------------------------------ menu
    def open_menu(self, reason: str = "pause", message: str = "") -> None:
        if self.menu is not None:
            return
        from .world.scenario import all_scenarios
        self.world.physics.pause()
        if self.mixer is not None:
            self.mixer.release_keys()
        name = self.scenario_name
        if not message:
            if reason == "start":
                message = "choose a scenario"
            elif reason == "pause":
                message = f"paused: {name} ({self.world.compiled.name})"
        self.menu = Menu.build(all_scenarios(), current=name, reason=reason, message=message, preselect=name)
        self._menu_t0 = None

    def close_menu(self) -> None:
        self.menu = None
        if self.mixer is not None and self.mixer.joysticks is not None:
            self.mixer.joysticks.forget_levels()          # levers apply again where they are now
        self.world.physics.resume()          # leaving the menu flies on (also after a P pause)
        self.fresh = False

    def menu_command(self, cmd: str) -> str | None:
        """A menu key / button; returns the choice made ("fly", "resume", "restart", "quit") if any."""
        if self.menu is None:
            return None
        ch = self.menu.command(cmd)
        if ch is None:
            return None
        if ch.action == "resume":
            self.close_menu()
        elif ch.action == "restart":
            self.restart()
            self.close_menu()
        elif ch.action == "fly":
            if ch.scenario == self.scenario_name:     # the same again: from its start, nothing rebuilt
                if not self.fresh:
                    self.restart()
                self.close_menu()
            else:
                from .spec.schema import DataError
                try:
                    self.switch(ch.scenario)
                except DataError as e:               # refused data: say why, stay in the menu
                    log.warning("%s", e)
                    self.menu.message = f"cannot fly {ch.scenario}: {e}"
                    self.menu.alert = True
                    return None
        return ch.action

    # ------------------------------------------------------------------ app actions
    def app_action(self, action: str, win=None) -> None:
        if action == "reset":
            self.restart()
            return
        app_action(action, self.game, self.world, win, self.mixer, flow=self)
        self.sync_settings()

    def sync_settings(self) -> None:
        """Remember what changed (view, vario sound, the scenario); written at once."""
        s = self.settings
        if self.game is not None:
            s.view = self.game.view_mode
            s.vario_muted = bool(self.game.hud.vario_muted)
        if self.world is not None:
            s.last_scenario = self.world.scenario.name
        if self.save_enabled and s != self._saved:
            if save_settings(s, self.settings_file) is not None:
                self._saved = s.copy()

    # ------------------------------------------------------------------ per frame
    def update(self, now_s: float) -> None:
        """After a crash, the menu opens on "Restart" (the message stays on the HUD until then)."""
        if self.game is None:
            return
        if self.menu is None and not self.world.physics.paused:
            self.fresh = False
        if self.menu is not None:
            return
        inst = self.game.instruments
        ev = inst.event
        if ev is not None and ev.kind == "crash" and ev is not self._crash_seen:
            if now_s - inst.event_real_s >= CRASH_MENU_DELAY_S:
                self._crash_seen = ev
                self.open_menu("crash", f"{ev.text}  -  restart, or choose another scenario")

    def draw(self, fbo, now_s: float, dt_s: float) -> None:
        if self.menu is None:
            self.game.draw(fbo, now_s, dt_s)
            return
        game = self.game
        pose = pose_at(self.world.buffer, now_s - DT)
        fbo.use()
        if pose is None:
            fbo.clear(0.25, 0.3, 0.4)
        else:
            if self._menu_t0 is None:
                self._menu_t0 = now_s
            view = self.menu_camera(pose, now_s - self._menu_t0)
            game.renderer.render(fbo, view, pose, cockpit=False)
            if game.audio is not None:
                game.audio.update(pose.snapshot, game.instruments, None)
        if self._menu_view is None:
            from .render.menu import MenuView
            self._menu_view = MenuView(self.ctx)
        self._menu_view.draw(fbo, self.menu)

    def menu_camera(self, pose, t_s: float):
        """Behind the aircraft's quarter, turning slowly round it (a tenth of a radian a second)."""
        from .handoff import dcm
        from .render.camera import look_at
        R = dcm(pose.quat_wxyz)
        pos = np.asarray(pose.position_ned_m, dtype=np.float64)
        hdg = math.atan2(R[1, 0], R[0, 0])
        yaw = hdg + math.radians(140.0) + 0.1 * t_s        # from ahead and to the left, then round
        pitch = math.radians(16.0)
        dist = 1.8 * self.game.cameras.size_m
        eye = pos - np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw),
                              math.sin(pitch)]) * dist              # NED: above is -z
        g = self.world.terrain.height_at(eye[0], eye[1])
        eye[2] = min(eye[2], -g - 1.5)
        v = look_at(eye, pos, near_m=0.3)
        # aim left of the aircraft, so it turns in the space right of the menu panel
        return look_at(eye, pos - v.right * 0.55 * np.linalg.norm(pos - eye), near_m=0.3)

    def close(self) -> None:
        """Leaving: the physics stops, the settings are saved, the sound closes."""
        if self.world is not None:
            self.world.physics.stop()
        self.sync_settings()
        if self.game is not None and self.game.audio is not None:
            self.game.audio.close()
