"""flightsim's entry point: the game window (default), headless screenshots, headless telemetry.

    python run.py                                  window 1280x720, flying at once
    python run.py --frames 60 --screenshot a.png   render offscreen (no display), write a PNG
    python run.py --headless-telemetry             fly without graphics, print telemetry

The physics runs in its own 50 Hz thread (flightsim.physics.thread); the window only
posts ControlInputs to the mailbox and draws the state interpolated between the last
two snapshots at now - 20 ms.
"""
from __future__ import annotations

import argparse
import json
import math
import struct
import sys
import time
import zlib

import numpy as np

from .physics import layout as L
from .physics.state import DT

VIEW_KEYS = {"1": "cockpit", "2": "chase", "3": "orbit", "4": "tower", "5": "hud"}


# ---------------------------------------------------------------------------- world
class World:
    """Terrain, scenery, the compiled aircraft and the physics thread around one Sim."""

    def __init__(self, aircraft="astir", scenario="airfield", small_world=False):
        from .handoff import ControlInputs, ControlMailbox, SnapshotBuffer
        from .physics.thread import PhysicsThread
        from .sim import Sim
        from .world import scenario as scn, terrain as ter
        self.terrain = ter.small() if small_world else ter.generate()
        self.sim = Sim(aircraft, env=self.terrain.env(), terrain=self.terrain.heights_m)
        self.scenario = scenario
        self.spawn_state, ctrl = scn.spawn(self.sim, self.terrain, scenario)
        # the trimmed elevator goes into the trim, so a centred stick holds the trimmed glide
        c = ControlInputs.from_array(ctrl)
        self.initial_inputs = c.replace(pitch=0.0, pitch_trim=max(-1.0, min(1.0, c.pitch + c.pitch_trim)))
        self.mailbox = ControlMailbox(self.initial_inputs)
        self.buffer = SnapshotBuffer()
        self.physics = PhysicsThread(self.sim.state, self.sim.env, self.sim.terrain, self.sim.model, self.sim.tables,
                                     self.mailbox, self.buffer)

    @property
    def compiled(self):
        return self.sim.compiled

    def reset(self):
        self.mailbox.post(self.initial_inputs)
        self.physics.reset(self.spawn_state)


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
        af = world.terrain.airfield
        scen = self.renderer.scenery
        tower = next((b for b in scen.buildings if b.kind == "tower"), None)
        tower_ned = None if tower is None else (tower.north_m, tower.east_m, -tower.ground_m - tower.height_m - 3.0)
        self.cameras = CameraRig(world.compiled, world.terrain, tower_ned)
        self.cameras.mode = view
        self.view_mode = view
        self.hud = Hud(ctx, world.compiled.name)
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
        m_proj = self.renderer.render(fbo, view, pose, cockpit=self.view_mode in ("cockpit", "hud"))
        st = self.renderer.stats
        extra = f"{self.fps:4.0f} fps  {self.renderer.quality}  {st.triangles / 1000:.0f}k tris"
        self.hud.draw(fbo, view, m_proj, pose, self.view_mode, extra)


def _headless_pyglet(width, height):
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    import pyglet.window  # noqa: F401  (never pyglet.input here: it fails headless)
    return pyglet.window.Window(width, height, visible=False)


def screenshot(args) -> int:
    """Render N frames offscreen on a simulated 60 fps clock (deterministic) and write a PNG."""
    win = _headless_pyglet(args.width, args.height)
    import moderngl
    ctx = moderngl.create_context()
    world = World(args.aircraft, args.scenario)
    game = Game(ctx, world, args.view, args.quality)
    fbo = ctx.screen
    t0 = world.physics.buffer.read()[1].wall_s
    tick_wall = t0
    t = t0
    frame_dt = 1.0 / 60.0
    for _ in range(max(args.frames, 1)):
        t += frame_dt
        while tick_wall + DT <= t:
            tick_wall += DT
            world.physics.tick(tick_wall)
        game.draw(fbo, t, frame_dt)
    ctx.finish()
    img = read_pixels(ctx, fbo)
    if args.screenshot:
        write_png(args.screenshot, img)
        print(f"wrote {args.screenshot} ({args.width}x{args.height}, {args.frames} frames, "
              f"{game.renderer.quality}, {game.renderer.stats.triangles} triangles)")
    try:
        win.close()
    except Exception:     # pyglet's headless context teardown can trip on a GL error flag: harmless here
        pass
    return 0


def play(args) -> int:
    import pyglet
    from pyglet.window import key, mouse
    import moderngl
    config = None
    try:
        config = pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)
        win = pyglet.window.Window(args.width, args.height, caption="flightsim", resizable=True, vsync=True, config=config)
    except Exception:
        win = pyglet.window.Window(args.width, args.height, caption="flightsim", resizable=True, vsync=True)
    ctx = moderngl.create_context()
    world = World(args.aircraft, args.scenario)
    game = Game(ctx, world, args.view, args.quality)
    keys = {
        key.UP: "pitch_down", key.W: "pitch_down", key.DOWN: "pitch_up", key.S: "pitch_up",
        key.LEFT: "roll_left", key.A: "roll_left", key.RIGHT: "roll_right", key.D: "roll_right",
        key.Q: "yaw_left", key.E: "yaw_right", key.PAGEUP: "trim_up", key.PAGEDOWN: "trim_down",
        key.SPACE: "brake",
    }
    world.physics.start()
    state = {"last": time.monotonic(), "frames": 0, "t_fps": time.monotonic()}

    @win.event
    def on_key_press(sym, mods):
        if sym in keys:
            game.keyboard.press(keys[sym])
        elif sym == key.B:
            game.keyboard.press("airbrake")
        elif sym == key.G:
            game.keyboard.press("gear")
        elif sym == key.P:
            world.physics.resume() if world.physics.paused else world.physics.pause()
        elif sym == key.R:
            world.reset()
            game.keyboard.reset(world.initial_inputs)
        elif sym == key.F1:
            game.hud.show_help = not game.hud.show_help
        elif sym == key.F11:
            win.set_fullscreen(not win.fullscreen)
        elif sym in (key.C, key.V):
            order = ["cockpit", "chase", "orbit", "tower", "hud"]
            i = order.index(game.view_mode) if game.view_mode in order else 0
            game.set_view(order[(i + (1 if sym == key.C else -1)) % len(order)])
        elif chr(sym) in VIEW_KEYS if 0 < sym < 128 else False:
            game.set_view(VIEW_KEYS[chr(sym)])
        elif sym == key.ESCAPE:
            win.close()
            return pyglet.event.EVENT_HANDLED

    @win.event
    def on_key_release(sym, mods):
        if sym in keys:
            game.keyboard.release(keys[sym])

    @win.event
    def on_mouse_drag(x, y, dx, dy, buttons, mods):
        c = game.cameras
        if game.view_mode == "cockpit":
            c.look_yaw = max(-2.6, min(2.6, c.look_yaw + dx * 0.005))
            c.look_pitch = max(-1.2, min(1.3, c.look_pitch + dy * 0.005))
        else:
            c.orbit_yaw += dx * 0.006
            c.orbit_pitch = max(-1.4, min(1.4, c.orbit_pitch - dy * 0.006))

    @win.event
    def on_mouse_scroll(x, y, sx, sy):
        c = game.cameras
        c.orbit_dist = max(3.0, min(400.0, c.orbit_dist * (0.9 ** sy)))

    @win.event
    def on_draw():
        now = time.monotonic()
        dt = now - state["last"]
        state["last"] = now
        world.mailbox.post(game.keyboard.update(dt))
        state["frames"] += 1
        if now - state["t_fps"] > 0.5:
            game.fps = state["frames"] / (now - state["t_fps"])
            state["frames"], state["t_fps"] = 0, now
        w, h = win.get_framebuffer_size()
        ctx.screen.viewport = (0, 0, w, h)
        game.draw(ctx.screen, now, dt)
        if world.physics.error is not None:
            raise world.physics.error

    @win.event
    def on_close():
        world.physics.stop()

    try:
        pyglet.app.run(1 / 120)
    except KeyboardInterrupt:          # Ctrl-C in the terminal: leave as cleanly as the close box
        pass
    finally:
        world.physics.stop()
    st = world.physics.stats()
    print(f"physics: {st['ticks']} ticks, {st['physics_hz']:.1f} Hz, {st['late_ticks_pct']:.2f}% late, "
          f"{st['dropped_ticks']} dropped")
    return 0


# ---------------------------------------------------------------------------- telemetry (no graphics)
def telemetry(args) -> int:
    from .sim import Sim
    from .spec.schema import DataError
    try:
        sim = Sim(args.aircraft)
    except DataError as e:
        print(f"error: {e}")
        return 2
    ref = sim.compiled.spec.reference or {}
    v = (ref.get("best_glide_kmh") or 100.0) / 3.6
    sim.spawn_trimmed_glide(v, args.altitude_m)
    print(f"{sim.compiled.name}: {sim.compiled.mass_kg:.0f} kg, trimmed glide at {v * 3.6:.0f} km/h, "
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
    from .world.scenario import SCENARIOS
    ap = argparse.ArgumentParser(prog="python run.py", description="flightsim")
    ap.add_argument("--aircraft", default="astir")
    ap.add_argument("--scenario", default="airfield", choices=sorted(SCENARIOS))
    ap.add_argument("--view", default="chase", choices=VIEWS)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--quality", default="auto", choices=("auto", "low", "medium", "high"))
    ap.add_argument("--frames", type=int, default=None, help="render N frames offscreen and exit (with --screenshot)")
    ap.add_argument("--screenshot", default=None, help="PNG to write after --frames frames")
    ap.add_argument("--headless-telemetry", action="store_true", help="no graphics: fly and print telemetry")
    ap.add_argument("--seconds", type=float, default=60.0, help="telemetry: simulated seconds to fly")
    ap.add_argument("--altitude-m", type=float, default=600.0, help="telemetry: start altitude")
    ap.add_argument("--realtime", action="store_true", help="telemetry: pace the steps to the wall clock")
    ap.add_argument("--json", action="store_true", help="telemetry as JSON lines")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.headless_telemetry:
        return telemetry(args)
    if args.frames is not None or args.screenshot:
        if args.frames is None:
            args.frames = 30
        return screenshot(args)
    return play(args)
