"""flightsim's entry point: the game window (default), headless screenshots, headless telemetry.

    python run.py                                  window 1280x720: the menu (choose a scenario)
    python run.py --scenario winch                 window, flying that scenario at once
    python run.py --frames 60 --screenshot a.png   render offscreen (no display), write a PNG
    python run.py --headless-telemetry             fly without graphics, print telemetry

The physics runs in its own 50 Hz thread (flightsim.physics_thread); the window only
posts ControlInputs to the mailbox and draws the state interpolated between the last
two snapshots at now - 20 ms. The menu, scenario switching, restart, crash, time
acceleration and the remembered settings are flightsim.flow.
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import struct
import sys
import time
import zlib

import numpy as np

from .physics import layout as L
from .physics.state import DT


# ---------------------------------------------------------------------------- world
class World:
    """Terrain, scenery, the compiled aircraft and the physics thread around one Sim."""

    def __init__(self, aircraft=None, scenario="airfield", small_world=False):
        from .handoff import ControlInputs, ControlMailbox, SnapshotBuffer
        from .physics_thread import PhysicsThread
        from .sim import Sim
        from .world import scenario as scn, terrain as ter
        from .world.weather import Weather
        from .world.winch import winch_for
        self.scenario = scn.find_scenario(scenario) if isinstance(scenario, str) else scenario
        sc = self.scenario
        aircraft = aircraft or sc.aircraft
        self.terrain = ter.small() if small_world else ter.generate()
        af = self.terrain.airfield
        self.weather = Weather(self.terrain, sc.world, sc.thermals, sc.ridge, (af.north_m, af.east_m))
        self.sim = Sim(aircraft, env=self.weather.env(), terrain=self.terrain.heights_m)
        self.spawn_state, ctrl = scn.spawn(self.sim, self.terrain, sc)
        self._make_winch = None
        if sc.start["type"] == "winch":
            w = sc.winch
            self._make_winch = lambda: winch_for(
                self.sim.compiled, self.terrain, self.spawn_state[:3],
                af.heading_rad + math.radians(sc.start["heading_offset_deg"]), w["cable_length_m"],
                weak_link_n=w["weak_link_n"], max_pull_n=w["max_pull_n"], free_speed_ms=w["free_speed_ms"])
        self.winch = self._make_winch() if self._make_winch else None
        # the trimmed elevator goes into the trim, so a centred stick holds the trimmed glide
        c = ControlInputs.from_array(ctrl)
        self.initial_inputs = c.replace(pitch=0.0, pitch_trim=max(-1.0, min(1.0, c.pitch + c.pitch_trim)))
        self.mailbox = ControlMailbox(self.initial_inputs)
        self.buffer = SnapshotBuffer()
        self.physics = PhysicsThread(self.sim.state, self.sim.env, self.sim.terrain, self.sim.model, self.sim.tables,
                                     self.mailbox, self.buffer)
        self.physics.hook = self._world_tick
        self.combat = None
        self._world_tick(self.physics.state, self.physics.env, 0.0)
        if getattr(sc, "has_combat", False):
            # air combat (issue 7): the AI opponent, bullets and targets, run in the same hook;
            # the renderer reads only its published frames (flightsim/world/combat.py)
            from .world.combat import Combat
            self.combat = Combat(self.sim, self.terrain, sc.opponent, sc.targets, sc.combat)

    def _world_tick(self, state, env, t_s):
        """Before every physics step (physics thread; 2 or 4 a tick under time acceleration): the air,
        the cable, the combat."""
        self.weather.update(env, t_s, state[0:3])
        clouds = self.weather.clouds(t_s)
        clouds.setflags(write=False)
        self.clouds = clouds            # read-only, swapped whole each tick: what the renderer draws
        if self.winch is not None:
            self.winch.update(env, state, self.physics.dt if hasattr(self, "physics") else 0.02,
                              self.sim.compiled.cg_m)
        if getattr(self, "combat", None) is not None:
            self.combat.tick(state, env, t_s)

    def release_cable(self):
        if self.winch is not None:
            self.winch.release()

    @property
    def compiled(self):
        return self.sim.compiled

    def reset(self):
        self.mailbox.post(self.initial_inputs)
        if self._make_winch is not None:
            self.winch = self._make_winch()     # back on a fresh cable
        self.physics.reset(self.spawn_state)
        if getattr(self, "combat", None) is not None:
            self.combat.request_reset()


# ---------------------------------------------------------------------------- PNG
def write_png(path, rgb: np.ndarray):
    """Write an (h, w, 3) uint8 image, top row first (stdlib zlib only)."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def read_pixels(ctx, fbo) -> np.ndarray:
    w, h = fbo.size
    data = fbo.read(components=3, alignment=1)
    _ = ctx.error       # reading an EGL pbuffer's default framebuffer flags GL_INVALID_OPERATION (the
    #                     pixels are right): clear it, or pyglet's next checked GL call raises it
    return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1]


# ---------------------------------------------------------------------------- game
class Game:
    """Everything drawn in one GL context: renderer, cameras, HUD, keyboard."""

    def __init__(self, ctx, world: World, view="chase", quality="auto"):
        from .input.keyboard import KeyboardControls
        from .render.camera import CameraRig
        from .render.hud import Hud
        from .render.renderer import Renderer
        self.ctx = ctx
        self.world = world
        self.renderer = Renderer(ctx, world.compiled, world.terrain, quality=quality)
        if getattr(world, "combat", None) is not None:          # other aircraft, tracers, targets
            from .render.combat_draw import CombatRenderer
            self.renderer.combat = CombatRenderer(ctx, self.renderer, world.combat.opponent_compiled)
        self.renderer.set_time_of_day(world.scenario.world.get("time_of_day_h", 13.0))
        af = world.terrain.airfield
        scen = self.renderer.scenery
        tower = next((b for b in scen.buildings if b.kind == "tower"), None)
        tower_ned = None if tower is None else (tower.north_m, tower.east_m, -tower.ground_m - tower.height_m - 3.0)
        self.cameras = CameraRig(world.compiled, world.terrain, tower_ned)
        self.cameras.mode = view
        self.view_mode = view
        from .instruments import spec as instrument_spec
        from .instruments.state import Instruments
        self.instrument_spec = instrument_spec.load(world.compiled)
        self.instruments = Instruments(self.instrument_spec, [c["name"] for c in world.compiled.spec.contacts])
        self.hud = Hud(ctx, world.compiled.name, self.instrument_spec)
        guns = getattr(world.compiled.spec, "guns", None)
        if guns:        # the HUD's gun cross where the guns are harmonised (aircraft data, [guns])
            self.hud.fighter.gun_depression_deg = guns["head"]["sight_depression_deg"]
        self.audio = None          # play() attaches a flightsim.audio.engine.AudioEngine
        self.keyboard = KeyboardControls(world.initial_inputs)
        self.frame_times = []
        self._last = None
        self.fps = 0.0

    def set_view(self, mode):
        self.view_mode = mode
        self.cameras.mode = mode
        if mode == "hud":
            self.cameras.look_yaw = self.cameras.look_pitch = 0.0

    def draw(self, fbo, now_s: float, dt_s: float):
        from .handoff import pose_at
        pose = pose_at(self.world.buffer, now_s - DT)
        if pose is None:
            fbo.use()
            fbo.clear(0.5, 0.6, 0.7)
            return
        view = self.cameras.view(pose, dt_s)
        combat_r = getattr(self.renderer, "combat", None)
        if combat_r is not None:
            combat_r.update(self.world.combat.frames, pose)
        self.renderer.clouds = getattr(self.world, "clouds", None)     # the published cumulus (immutable)
        covered = self.hud.covered_rows(fbo.viewport[2], fbo.viewport[3], view, pose, self.view_mode)
        m_proj = self.renderer.render(fbo, view, pose, cockpit=self.view_mode in ("cockpit", "hud"),
                                      covered_rows=covered)
        st = self.renderer.stats
        # the frame rate is measured by the window's loop only (a screenshot's clock is simulated)
        fps = f"{self.fps:4.0f} fps  " if self.fps > 0 else ""
        extra = f"{fps}{self.renderer.quality}  {st.triangles / 1000:.0f}k tris"
        if combat_r is not None:
            from .render.combat_draw import hud_text
            extra += "   " + hud_text(combat_r.frame)
        # the physics publishes a paused snapshot when it pauses, and each snapshot its time acceleration
        scale = int(getattr(pose.snapshot, "time_scale", 1))
        self.hud.time_scale = None if scale == 1 else float(scale)
        self.instruments.update(pose.snapshot, now_s)
        winch = getattr(self.world, "winch", None)          # the cable-release indicator (read only)
        self.hud.cable = None if winch is None else (bool(winch.attached), str(getattr(winch, "event", "")))
        self.hud.draw(fbo, view, m_proj, pose, self.view_mode, extra, self.instruments, now_s)
        from .render.debrief import draw_debrief       # flight log; the debrief panel once landed and at rest
        draw_debrief(self, fbo, pose.snapshot)
        if self.audio is not None:
            self.audio.update(pose.snapshot, self.instruments, self.hud.cable)

    def instrument_key(self, name: str):
        """The instruments' toggles (bindings: "telemetry" F2, "vario_sound" M)."""
        if name == "F2":
            self.hud.show_telemetry = not self.hud.show_telemetry
        elif name == "M":
            self.hud.vario_muted = (self.audio.toggle_vario_mute() if self.audio is not None
                                    else not self.hud.vario_muted)
        else:
            return None
        return True


def _headless_pyglet(width, height):
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    import pyglet.window  # noqa: F401  (never pyglet.input here: it fails headless)
    try:   # 8 bits a channel: EGL's default pick can be RGB565, which bands every gradient
        config = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, depth_size=24)
        return pyglet.window.Window(width, height, visible=False, config=config)
    except Exception:
        return pyglet.window.Window(width, height, visible=False)


def screenshot(args) -> int:
    """Render N frames offscreen on a simulated 60 fps clock (deterministic) and write a PNG.
    Without --scenario: the remembered scenario (else the default); --menu draws the menu over it."""
    win = _headless_pyglet(args.width, args.height)
    import moderngl
    from .flow import DEFAULT_SCENARIO, GameFlow
    from .settings import load_settings
    ctx = moderngl.create_context()
    settings = load_settings()
    flow = GameFlow(ctx, settings, view=args.view, quality=args.quality, live=False, save=False)
    flow.start(args.scenario or _remembered_scenario(settings) or DEFAULT_SCENARIO, args.aircraft,
               menu=bool(getattr(args, "menu", False)))
    world, game = flow.world, flow.game
    fbo = ctx.screen
    t0 = world.physics.buffer.read()[1].wall_s
    tick_wall = t0
    t = t0
    frame_dt = 1.0 / 60.0
    for _ in range(max(args.frames, 1)):
        t += frame_dt
        while tick_wall + DT <= t:
            tick_wall += DT
            if not world.physics.paused:
                world.physics.tick(tick_wall)
        flow.update(t)
        flow.draw(fbo, t, frame_dt)
    ctx.finish()
    img = read_pixels(ctx, fbo)
    if args.screenshot:
        write_png(args.screenshot, img)
        print(f"wrote {args.screenshot} ({args.width}x{args.height}, {args.frames} frames, {world.scenario.name}, "
              f"{game.renderer.quality}, {game.renderer.stats.triangles} triangles)")
    flow.close()
    try:
        win.close()
    except Exception:     # pyglet's headless context teardown can trip on a GL error flag: harmless here
        pass
    return 0


def _remembered_scenario(settings) -> str | None:
    """The last scenario flown, if it still exists."""
    name = settings.last_scenario
    if not name:
        return None
    from .world.scenario import scenario_names
    return name if name in scenario_names() else None


def aircraft_has_engine(compiled) -> bool:
    """Powered aircraft carry an [engine] table (docs/aircraft_format.md); a glider has none.
    Decides where a joystick's throttle lever goes (throttle, or a glider's airbrakes)."""
    spec = compiled.spec
    if any(getattr(spec, a, None) for a in ("engine", "engines", "powerplant")):
        return True
    try:
        from .spec.schema import read_toml
        return "engine" in read_toml(spec.path)
    except Exception:
        return True


def app_action(action: str, game, world, win, mixer, flow=None) -> None:
    """What the window does for an app action (a key or a joystick button; flightsim.input.bindings).
    ``flow`` (flightsim.flow.GameFlow) owns the menu."""
    from .flow import next_time_scale
    from .input.bindings import APP_ACTIONS, VIEW_ACTIONS
    if action in VIEW_ACTIONS:
        game.set_view(VIEW_ACTIONS[action])
    elif action in ("view_next", "view_prev"):
        order = ["cockpit", "chase", "orbit", "tower", "hud"]
        i = order.index(game.view_mode) if game.view_mode in order else 0
        game.set_view(order[(i + (1 if action == "view_next" else -1)) % len(order)])
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
        if flow is None:
            raise ValueError("the menu action needs the game flow")
        flow.open_menu("pause")
    elif action in ("time_faster", "time_slower"):
        ph = world.physics
        ph.set_time_scale(next_time_scale(ph.time_scale, 1 if action == "time_faster" else -1))
    elif action in ("telemetry", "vario_sound"):          # the instruments' own toggles
        toggle = getattr(game, "instrument_key", None)
        if toggle is not None:
            toggle("F2" if action == "telemetry" else "M")
    else:
        raise ValueError(f"not an app action: {action!r} (app actions: {', '.join(APP_ACTIONS)})")


def play(args) -> int:
    """The window. Without --scenario the start menu opens over the remembered scenario."""
    import pyglet
    from pyglet.window import key, mouse  # noqa: F401
    import moderngl
    from .flow import DEFAULT_SCENARIO, GameFlow
    from .input.bindings import action_for, actions_of_symbol, help_text, resolve_keys
    from .input.joystick import POLL_INTERVAL_S, JoystickManager
    from .input.mixer import InputMixer
    from .menu import MenuNavigator, resolve_menu_keys
    from .settings import load_settings
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    config = None
    try:
        config = pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)
        win = pyglet.window.Window(args.width, args.height, caption="flightsim", resizable=True, vsync=True, config=config)
    except Exception:
        win = pyglet.window.Window(args.width, args.height, caption="flightsim", resizable=True, vsync=True)
    ctx = moderngl.create_context()
    settings = load_settings()
    flow = GameFlow(ctx, settings, view=args.view, quality=args.quality, live=True, audio=True)
    keymap = resolve_keys(key)
    menu_keys = resolve_menu_keys(key)
    joysticks = JoystickManager(has_engine=True)
    mixer = InputMixer(None, joysticks)
    flow.mixer = mixer                                 # the flow hands it each new aircraft's keyboard
    navigator = MenuNavigator()
    if args.scenario:
        flow.start(args.scenario, args.aircraft)
    else:
        flow.start(_remembered_scenario(settings) or DEFAULT_SCENARIO, args.aircraft, menu=True)
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
                app_action(action, flow.game, flow.world, win, mixer, flow=flow)
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


# ---------------------------------------------------------------------------- telemetry (no graphics)
def telemetry(args) -> int:
    from .sim import Sim
    from .spec.schema import DataError
    try:
        sim = Sim(args.aircraft or "astir")
    except DataError as e:
        print(f"error: {e}")
        return 2
    ref = sim.compiled.spec.reference or {}
    if sim.powered:          # a powered aircraft starts in trimmed level cruise, a glider in its best glide
        v = (ref.get("cruise_kmh") or 400.0) / 3.6
        sim.spawn_trimmed_level(v, args.altitude_m)
        how = "trimmed level flight"
    else:
        v = (ref.get("best_glide_kmh") or 100.0) / 3.6
        sim.spawn_trimmed_glide(v, args.altitude_m)
        how = "trimmed glide"
    print(f"{sim.compiled.name}: {sim.compiled.mass_kg:.0f} kg, {how} at {v * 3.6:.0f} km/h, "
          f"{args.altitude_m:.0f} m; flying {args.seconds:.0f} s headless", flush=True)
    t0 = time.perf_counter()
    for tick in range(int(args.seconds / DT)):
        if sim.step() != 0:
            print("non-finite state refused; stopping")
            return 1
        if args.realtime:
            delay = t0 + (tick + 1) * DT - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        if (tick + 1) % 50 == 0:
            t = sim.telemetry()
            print(json.dumps(t) if args.json else
                  f"t {t['t_s']:6.1f} s  alt {t['altitude_m']:7.1f} m  TAS {t['tas_kmh']:6.1f} km/h  "
                  f"vs {t['vs_ms']:6.2f} m/s  pitch {t['pitch_deg']:5.1f}  roll {t['roll_deg']:5.1f}  "
                  f"hdg {t['heading_deg']:5.1f}  alpha {t['alpha_deg']:5.2f}", flush=True)
        if sim.diag[L.D_ON_GROUND] > 0 or sim.state[L.S_STRIKE_INDEX] >= 0:
            print(f"on the ground after {sim.time_s:.1f} s")
            break
    return 0


def parser():
    from .render.camera import VIEWS
    ap = argparse.ArgumentParser(prog="python run.py", description="flightsim")
    ap.add_argument("--aircraft", default=None, help="aircraft in aircraft/ (default: the scenario's)")
    ap.add_argument("--scenario", default=None,
                    help="a scenario in scenarios/ (--list-scenarios), or glider / fighter for each kind's default; "
                         "without it the window opens the menu, headless runs fly the last scenario flown "
                         "(else airfield)")
    ap.add_argument("--list-scenarios", action="store_true", help="print one line per scenario and exit")
    ap.add_argument("--names-only", action="store_true", help="with --list-scenarios: just the names")
    ap.add_argument("--view", default=None, choices=VIEWS, help="default: the last view used (else chase)")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--quality", default=None, choices=("auto", "low", "medium", "high"),
                    help="default: as last time (else auto)")
    ap.add_argument("--frames", type=int, default=None, help="render N frames offscreen and exit (with --screenshot)")
    ap.add_argument("--screenshot", default=None, help="PNG to write after --frames frames")
    ap.add_argument("--menu", action="store_true", help="with --screenshot: draw the start menu over the scene")
    ap.add_argument("--headless-telemetry", action="store_true", help="no graphics: fly and print telemetry")
    ap.add_argument("--seconds", type=float, default=60.0, help="telemetry: simulated seconds to fly")
    ap.add_argument("--altitude-m", type=float, default=600.0, help="telemetry: start altitude")
    ap.add_argument("--realtime", action="store_true", help="telemetry: pace the steps to the wall clock")
    ap.add_argument("--json", action="store_true", help="telemetry as JSON lines")
    return ap


def list_scenarios(names_only: bool) -> int:
    from .spec.schema import DataError
    from .world.scenario import load_scenario, scenario_paths
    for p in scenario_paths():
        if names_only:
            print(p.stem)
            continue
        try:
            sc = load_scenario(p)
            tag = f" [default {sc.kind}]" if sc.default else ""
            print(f"{sc.name:16s} {sc.kind:8s} {sc.aircraft:6s} {sc.description}{tag}")
        except DataError as e:
            print(f"{p.stem:16s} (refused: {e})")
    return 0


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.list_scenarios:
        return list_scenarios(args.names_only)
    from .spec.schema import DataError
    from .world.scenario import find_scenario
    try:
        if args.scenario is not None:
            find_scenario(args.scenario)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.headless_telemetry:
        return telemetry(args)
    if args.frames is not None or args.screenshot:
        if args.frames is None:
            args.frames = 30
        return screenshot(args)
    return play(args)
