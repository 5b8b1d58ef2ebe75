"""The game's flow around the flying: start menu, Esc menu, switching scenario, restart,
crash, time acceleration, remembered settings. The worlds and the transitions between the
app's states (``GameFlow.mode``); each state's input and drawing is flightsim.app.screens's,
which calls down into this module and never the other way.

    start ──(no --scenario)──► MENU over the remembered scenario, paused
      │                          │ choose a scenario / Enter
      └──(--scenario NAME)──► FLYING ◄──────┘
                               │  Esc / gamepad Back: MENU (paused): resume, restart, another scenario, quit
                               │  a crash: after CRASH_MENU_DELAY_S the menu opens on "Restart"
                               │  T / Shift+T: time acceleration x1 -> x2 -> x4 (physics steps per tick)
      MENU ──(a recorded flight)──► REPLAY: the recording flies (flightsim.recording.player):
                               │  play / pause, 0.25x..16x, seek, any view; Enter or the menu's
                               └─ "Take over": FLYING on from that moment (recorded as a new flight)

One ``World`` (physics thread, terrain, weather) and one ``Game`` (renderer, HUD,
instruments, cameras, sound) per scenario. Choosing another scenario stops the old
physics thread (joined, checked), builds the new World and Game -- another aircraft
needs another mesh, instrument panel, HUD and engine sound -- and releases the old
Game's GL objects (flightsim.render.release), so switching any number of times holds
the same GL memory. With ``recordings_dir`` (the window) every World flown is recorded there
(unless the setting ``record_flights`` is off), from before its first step, and the menu
lists those recordings to replay. ``live=False`` is the offscreen mode: nothing is started, the caller
steps ``world.physics.tick`` (tests, ``--screenshot``). ``background=True`` (the window)
builds each World -- terrain, the aircraft compiled and trimmed -- in a thread of its own
while the window's event loop runs on: ``loading_progress`` says what is being built until
``update`` installs it (the Game's GL objects are made on the window's thread).
"""
from __future__ import annotations

import logging
import threading
import time

from ..aircraft_data.schema import DataError
from ..input.joystick import aircraft_has_engine
from ..recording.format import NotARecording
from ..recording.replay import VersionMismatch
from ..sim import CannotFly
from ..world.assembly import World
from ..world.scenario import UnsuitableAircraft
from .actions import app_action
from .game import Game, preload_modules
from .menu import Menu
from .settings import Settings, save_settings

log = logging.getLogger("flightsim.app.flow")

# what a scenario or a recording can be refused for: said in the menu, the old flight stays
REFUSED = (DataError, UnsuitableAircraft, CannotFly, NotARecording, VersionMismatch, OSError)

CRASH_MENU_DELAY_S = 3.0
REPLAY_SEEK_S = {"back": -10.0, "forward": 10.0, "back_long": -60.0, "forward_long": 60.0}
# the app actions that mean something else in a replay (None: nothing)
REPLAY_APP_ACTIONS = {"pause": "play_pause", "time_faster": "faster", "time_slower": "slower", "release": None}


WORLD_BUILD_S = 1.5            # a World's build, warm, on a 2-core machine: paces the loading bar


def _make_world(scenario, aircraft):
    return World(aircraft, scenario)


class WorldBuild:
    """A World built off the window's thread; ``done`` once built or failed (``error``).
    ``after(world)`` runs there too once it is built (the recording started, or a replay's
    player made: its result is ``player``)."""

    def __init__(self, factory, scenario, aircraft, *, paused: bool, menu: bool, switch: bool, after=None, looks=None):
        self.scenario, self.paused, self.menu, self.switch = scenario, paused, menu, switch
        self.looks = looks
        self.t0 = time.monotonic()
        self.world = None
        self.player = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(factory, scenario, aircraft, after), daemon=True,
                                        name="world-build")
        self._thread.start()

    looks = None            # GameFlow's: makes the aircraft's looks (meshes, painted atlases) off the window's thread

    def _run(self, factory, scenario, aircraft, after):
        try:
            self.world = factory(scenario, aircraft)
            if after is not None:
                self.player = after(self.world)
            preload_modules()
            if self.looks is not None:
                self.looks(self.world)
        except BaseException as e:        # handed to the window's thread by GameFlow.update
            self.error = e

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def wait(self, timeout=None) -> None:
        self._thread.join(timeout)


class GameFlow:
    def __init__(self, ctx, settings: Settings | None = None, *, view: str | None = None, quality: str | None = None,
                 live: bool = False, audio: bool = False, save: bool = True, settings_file=None,
                 world_factory=None, background: bool = False, pilot=None, recordings_dir=None):
        self.ctx = ctx
        self.recordings_dir = recordings_dir     # where flights are recorded and listed (None: nowhere)
        self.replay = None                       # the ReplayPlayer flying the World, in a replay
        self.pilot = pilot           # a script's pilot flies every World (PhysicsThread.pilot)
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
        from .online import Online
        self.online = Online(self)          # multiplayer: the menu's lines and the session (online.py)
        self.background = background
        self.building: WorldBuild | None = None
        self.world = None
        self.game = None
        self.menu: Menu | None = None
        self.mixer = None              # the window's InputMixer (keys + joysticks), when there is one
        self.fresh = False             # built or restarted, not flown yet (the start menu's backdrop)
        self.switches = 0
        self.menu_opened = 0           # how many menus have opened (the menu screen's backdrop restarts its turn)
        self._crash_seen = None
        self._auto_quality = "low"
        if ctx is not None:
            from ..render.renderer import auto_quality
            try:
                self._auto_quality = auto_quality(ctx)
            except Exception:            # a stand-in context in tests
                pass

    # ------------------------------------------------------------------ the app's state
    @property
    def mode(self) -> str:
        """Which of the app's states is current (flightsim.app.screens draws it and reads its
        input): "loading" until the first World is built, "menu" while a menu is open, "replay"
        while a recording flies, "crash" from a crash until its menu opens, else "flying"."""
        if self.game is None:
            return "loading"
        if self.menu is not None:
            return "menu"
        if self.replay is not None:
            return "replay"
        if self.crash_pending is not None:
            return "crash"
        return "flying"

    @property
    def crash_pending(self):
        """The crash (flightsim.instruments.state.LandingEvent) whose menu has not opened yet, or None."""
        ev = self.game.instruments.event if self.game is not None else None
        if ev is not None and ev.kind == "crash" and ev is not self._crash_seen:
            return ev
        return None

    # ------------------------------------------------------------------ worlds
    @property
    def scenario_name(self) -> str | None:
        return None if self.world is None else self.world.scenario.name

    def start(self, scenario: str, aircraft: str | None = None, menu: bool = False) -> None:
        """The first scenario: flying at once, or (``menu``) paused under the start menu."""
        if self.background:
            self.building = WorldBuild(self.world_factory, scenario, aircraft, paused=menu, menu=menu, switch=False,
                                       after=self._begin_recording, looks=self._prepare_looks)
            return
        self._install(self.world_factory(scenario, aircraft), paused=menu)
        if menu:
            self.open_menu("start")

    def livery_for(self, compiled) -> str | None:
        """The livery the player chose for this aircraft (settings), if any."""
        return self.settings.liveries.get(compiled.spec.id)

    def _prepare_looks(self, world) -> None:
        """The player's and the AI's aircraft's looks made now, on the world build's thread (the
        painted atlases are cached on disk: a first use paints, a later one reads)."""
        from ..render.model import looks
        quality = self.settings.quality if self.settings.quality != "auto" else self._auto_quality
        mine = looks.look(world.compiled, quality, livery=self.livery_for(world.compiled))
        combat = getattr(world, "combat", None)
        if combat is not None and combat.opponent_compiled is not None:
            looks.look(combat.opponent_compiled, quality,
                       not_side=mine.livery.side if mine is not None else "allied")

    def switch(self, scenario: str) -> None:
        """Leave the current flight for ``scenario`` (its own aircraft), flying at once. In the
        background the menu stays up, saying so, until the new World is built."""
        if self.background:
            self.building = WorldBuild(self.world_factory, scenario, None, paused=False, menu=False, switch=True,
                                       after=self._begin_recording, looks=self._prepare_looks)
            if self.menu is not None:
                self.menu.message = f"loading {scenario} ..."
                self.menu.alert = False
            return
        self._install(self.world_factory(scenario, None), paused=False)    # a bad file raises: the old flight stays
        self.menu = None
        self.switches += 1

    def open_replay(self, path) -> None:
        """Replay a recorded flight from its start (its World rebuilt as it was recorded). A file
        that is not a recording, or was recorded with other data or code, is refused in the menu."""
        made = {}

        def build(_scenario, _aircraft):
            from ..recording.format import read_recording
            from ..recording.replay import VersionMismatch, build_world, version_differences
            rec = made["rec"] = read_recording(path)
            diff = version_differences(rec)
            if diff:
                raise VersionMismatch("recorded with another version: " + "; ".join(diff))
            return build_world(rec)

        def player(world):
            from ..recording.player import ReplayPlayer
            return ReplayPlayer(made["rec"], world)

        name = f"the recording {getattr(path, 'name', str(path).rsplit('/', 1)[-1])}"
        if self.background:
            self.building = WorldBuild(build, name, None, paused=False, menu=False, switch=True, after=player,
                                       looks=self._prepare_looks)
            if self.menu is not None:
                self.menu.message = f"loading {name} ..."
                self.menu.alert = False
            return
        world = build(None, None)
        self._install(world, paused=False, player=player(world))
        self.menu = None
        self.switches += 1

    def _begin_recording(self, world):
        """Record ``world``'s flight (before its first step) into the recordings directory."""
        if self.recordings_dir is None or not self.settings.record_flights or world.physics.recorder is not None:
            return None
        from ..recording.library import KEEP, new_recording_path, prune
        from ..recording.recorder import start_recording
        try:
            prune(self.recordings_dir, KEEP - 1)
            start_recording(world, new_recording_path(self.recordings_dir, world.scenario.path.stem))
        except OSError as e:
            log.warning("this flight is not recorded: %s", e)
        return None

    @staticmethod
    def _end_recording(world) -> None:
        """Close the (stopped) world's recording; one with no step flown is deleted."""
        rec = world.physics.recorder
        if rec is None:
            return
        world.physics.recorder = None
        rec.close()
        if rec.step == 0:
            try:
                rec.path.unlink()
            except OSError:
                pass

    def _finish_build(self) -> None:
        """Install a World the background built (on the window's thread: the Game makes GL objects)."""
        b = self.building
        if b is None or not b.done:
            return
        self.building = None
        if b.error is not None:
            if b.switch and self.menu is not None and isinstance(b.error, REFUSED):
                log.warning("%s", b.error)          # refused data: say why, stay in the menu, the old flight stays
                self.menu.message = f"cannot fly {b.scenario}: {b.error}"
                self.menu.alert = True
                return
            raise b.error
        self._install(b.world, paused=b.paused, player=b.player)
        if b.switch:
            self.menu = None
            self.switches += 1
        elif b.menu:
            self.open_menu("start")

    def loading_progress(self, now_s: float | None = None):
        """What the start-up screen shows while the first World is built (None once there is one)."""
        b = self.building
        if b is None or self.world is not None:
            return None
        from ..render.loading import Progress
        t = (time.monotonic() if now_s is None else now_s) - b.t0
        return Progress(title="Building the world", message=f"{b.scenario}: the terrain, the aircraft and its trim",
                        fraction=min(0.95, t / WORLD_BUILD_S), stage="")

    def _install(self, world, paused: bool, player=None) -> None:
        """Make ``world`` the one flown (``player``: a replay flies it), its Game drawn; the old
        World's physics stopped, its recording closed, its Game's GL released."""
        from ..render.release import release_gl
        if player is None:
            self._begin_recording(world)
        old_world, old_game = self.world, self.game
        view = self.settings.view if old_game is None else old_game.view_mode
        telemetry = bool(old_game is not None and old_game.hud.show_telemetry)
        if self.pilot is not None:
            world.physics.pilot = self.pilot
        try:
            game = Game(self.ctx, world, view, self.settings.quality, livery=self.livery_for(world.compiled))
        except BaseException:
            world.physics.stop()
            raise
        if old_world is not None:
            old_world.physics.stop()
            if old_world.physics.alive:
                raise RuntimeError(f"the physics thread of {old_world.scenario.name} did not stop")
            self._end_recording(old_world)
            self.online.retire_done()        # a session given up with that World: closed now it has stopped
        if old_game is not None:
            if old_game.audio is not None:
                old_game.audio.close()
            release_gl(old_game, keep=(self.ctx,))
        self.world, self.game = world, game
        world.physics.driver = player
        self.replay = game.replay = player
        game.hud.show_telemetry = telemetry
        if self.audio_enabled:
            from ..audio.engine import AudioEngine, engine_cylinders
            game.audio = AudioEngine(game.instrument_spec, cylinders=engine_cylinders(world.compiled))
            # (no audio device: silence, never an error)
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
        """Back to the scenario's start (a new epoch: the instruments and the crash start afresh);
        in a replay, the replay from its start."""
        if self.replay is not None:
            self.replay.seek_to(0)
            self.replay.playing = True
            self.fresh = True
            return
        self.world.reset()
        if self.mixer is not None:
            self.mixer.reset(self.world.initial_inputs)
        ev = self.game.instruments.event          # until the new epoch reaches the instruments, the old
        if ev is not None and ev.kind == "crash":  # crash is still theirs: it must not open the menu again
            self._crash_seen = ev
        self.fresh = True

    # ------------------------------------------------------------------ replay
    def take_over(self) -> None:
        """The pilot flies on from where the replay is (recorded as a new flight: the replayed
        part, then what is flown)."""
        player = self.replay
        if player is None:
            return
        factory = None
        if self.recordings_dir is not None and self.settings.record_flights:
            from ..recording.library import new_recording_path
            from ..recording.recorder import Recorder
            d, name = self.recordings_dir, self.world.scenario.path.stem
            factory = lambda rec, steps: Recorder.continuing(rec, steps, new_recording_path(d, name))  # noqa: E731
        player.take_over(factory)
        self.replay = self.game.replay = None
        if self.mixer is not None:
            snap = self.world.buffer.read()[1]
            self.mixer.reset(snap.controls if snap is not None else self.world.initial_inputs)

    def replay_command(self, cmd: str) -> None:
        """A replay key (flightsim.input.bindings.REPLAY_ROWS): play / pause, seek, speed, take over."""
        p = self.replay
        if p is None:
            return
        if cmd == "play_pause":
            p.toggle_play()
        elif cmd in REPLAY_SEEK_S:
            p.seek_by(REPLAY_SEEK_S[cmd])
        elif cmd == "start":
            p.seek_to(0)
        elif cmd == "end":
            p.seek_to(p.steps)
        elif cmd in ("faster", "slower"):
            p.faster(1 if cmd == "faster" else -1)
        elif cmd == "take_over":
            self.take_over()
        else:
            raise ValueError(f"not a replay command: {cmd!r}")

    def set_time_scale(self, factor: int) -> None:
        self.world.physics.set_time_scale(factor)

    @property
    def time_scale(self) -> int:
        return self.world.physics.time_scale

    # ------------------------------------------------------------------ menu
    def open_menu(self, reason: str = "pause", message: str = "") -> None:
        if self.menu is not None:
            return
        from ..world.scenario import scenario_catalogue
        online = reason == "pause" and getattr(self.world, "net", None) is not None
        if not online:                      # (online the others fly on, and so do we: hands off)
            self.world.physics.pause()
        if self.mixer is not None:
            self.mixer.release_keys()
        name = self.scenario_name
        if not message:
            if reason == "start":
                message = "choose a scenario"
            elif reason == "pause":
                message = (f"online: {name} ({self.world.compiled.name}) flies on, hands off" if online
                           else f"paused: {name} ({self.world.compiled.name})")
        if self.replay is not None and reason == "pause":
            message = f"replay paused: {name} ({self.world.compiled.name})"
        recordings = []
        if self.recordings_dir is not None:
            from ..recording.library import list_recordings
            from .menu import RECORDINGS_SHOWN
            recordings = list_recordings(self.recordings_dir, RECORDINGS_SHOWN)
        scenarios, refused = scenario_catalogue()
        if refused and message == "choose a scenario":
            message += f" ({len(refused)} scenario file{'s' if len(refused) > 1 else ''} refused: listed at the end)"
        self.menu = Menu.build(scenarios, current=name, reason=reason, message=message, preselect=name,
                               recordings=recordings, replaying=self.replay is not None, livery=self._livery_item(),
                               refused=refused, multiplayer=self.online.menu_args())
        self.menu_opened += 1

    def _livery_item(self):
        """The menu's paint line for the aircraft flown: (label, detail), or None (one scheme only)."""
        from ..render.model import looks
        if self.world is None or self.game is None:
            return None
        liveries = looks.liveries_of(self.world.compiled)
        if len(liveries) < 2:
            return None
        current = self.game.renderer.aircraft.get("livery")
        name = current.name if current is not None else liveries[0].name
        return (f"Paint: {name}", f"Left / Right: {len(liveries)} schemes for the {self.world.compiled.name}")

    def change_livery(self, step: int) -> None:
        """The next or previous paint scheme on the aircraft flown (remembered per aircraft); the
        AI's aircraft takes the other side's."""
        from ..render.model import looks
        compiled = self.world.compiled
        liveries = looks.liveries_of(compiled)
        cur = self.game.renderer.aircraft.get("livery")
        ids = [lv.id for lv in liveries]
        i = ids.index(cur.id) if cur is not None and cur.id in ids else 0
        new = ids[(i + step) % len(ids)]
        self.settings.liveries = dict(self.settings.liveries, **{compiled.spec.id: new})
        self.game.set_livery(new)
        if self.menu is not None and self.menu.item.kind == "livery":
            label, detail = self._livery_item()
            from .menu import MenuItem
            self.menu.items[self.menu.selected] = MenuItem("livery", label, detail)
        self.sync_settings()

    def close_menu(self) -> None:
        self.menu = None
        if self.mixer is not None and self.mixer.joysticks is not None:
            self.mixer.joysticks.forget_levels()          # levers apply again where they are now
        self.world.physics.resume()          # leaving the menu flies on (also after a P pause)
        self.fresh = False

    def menu_command(self, cmd: str) -> str | None:
        """A menu key / button; returns the choice made ("fly", "resume", "restart", "quit") if any.
        While a World is being built the selection moves, but only Quit is taken."""
        if self.menu is None:
            return None
        if self.building is not None:
            ch = self.menu.command(cmd)
            return "quit" if ch is not None and ch.action == "quit" else None
        ch = self.menu.command(cmd)
        if ch is None:
            return None
        if ch.action in ("mp_set", "online", "offline"):
            return self.online.choose(ch)
        if ch.action == "resume":
            self.close_menu()
        elif ch.action == "restart":
            self.restart()
            self.close_menu()
        elif ch.action == "take_over":
            self.take_over()
            self.close_menu()
        elif ch.action == "livery":
            self.change_livery(ch.step)
        elif ch.action == "replay":
            try:
                self.open_replay(ch.path)
            except REFUSED as e:
                log.warning("%s", e)
                self.menu.message = f"cannot replay: {e}"
                self.menu.alert = True
                return None
        elif ch.action == "fly":
            if ch.scenario == self.scenario_name and self.replay is None:   # the same again: nothing rebuilt
                if not self.fresh:
                    self.restart()
                self.close_menu()
            else:
                try:
                    self.switch(ch.scenario)
                except (DataError, UnsuitableAircraft, CannotFly) as e:     # refused data: say why, stay in the menu
                    log.warning("%s", e)
                    self.menu.message = f"cannot fly {ch.scenario}: {e}"
                    self.menu.alert = True
                    return None
        return ch.action

    def menu_text(self, chars: str) -> None:
        """Typed characters, for the menu's line being edited (the Multiplayer lines)."""
        if self.menu is not None:
            self.menu.text(chars)

    # ------------------------------------------------------------------ app actions
    def app_action(self, action: str, win=None) -> None:
        """A key or button that is not a flight control (flightsim.app.actions), for the World
        flown; Esc's menu is the flow's own (a replay reads P, T and O as its own keys)."""
        if self.game is None:                   # still building the first World: only the window's own
            if action in ("fullscreen", "quit") and win is not None:
                app_action(action, None, None, win, self.mixer)
            return
        if action == "reset":
            self.restart()
            return
        if self.replay is not None and action in REPLAY_APP_ACTIONS:     # P, T / Shift+T, O in a replay
            cmd = REPLAY_APP_ACTIONS[action]
            if cmd is not None:
                self.replay_command(cmd)
            return
        if app_action(action, self.game, self.world, win, self.mixer) == "menu":
            self.open_menu("pause")
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
        """A World built in the background is installed; after a crash, the menu opens on
        "Restart" (the message stays on the HUD until then)."""
        self._finish_build()
        if self.game is None:
            return
        if self.menu is None and not self.world.physics.paused:
            self.fresh = False
        if self.menu is not None or self.replay is not None:     # (a replayed crash is only watched)
            return
        ev = self.crash_pending
        if ev is not None and now_s - self.game.instruments.event_real_s >= CRASH_MENU_DELAY_S:
            self._crash_seen = ev
            self.open_menu("crash", f"{ev.text}  -  restart, or choose another scenario")

    def close(self) -> None:
        """Leaving: the physics stops, the settings are saved, the sound closes."""
        if self.world is not None:
            self.world.physics.stop()
            self._end_recording(self.world)
        self.sync_settings()
        self.online.close()
        if self.game is not None and self.game.audio is not None:
            self.game.audio.close()
