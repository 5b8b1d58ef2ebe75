"""The game's drawing in one GL context: renderer, cameras, cockpit panel and HUD, instruments,
sound and the keyboard's controls for one World (flightsim.world.assembly)."""
from __future__ import annotations

import importlib
import math
from typing import TYPE_CHECKING

from ..runtime.handoff import DT

if TYPE_CHECKING:
    from ..world.assembly import World


DRAWING_MODULES = ("audio.engine", "input.keyboard", "instruments.spec", "instruments.state", "render.camera",
                   "render.combat_draw", "render.debrief", "render.hud", "render.renderer")


def preload_modules() -> None:
    """Import everything a Game draws with (renderer, HUD, cockpit, instruments, combat drawing,
    sound): the window's background world build does it, so that making the Game on the
    window's thread is only GL work."""
    for name in DRAWING_MODULES:
        importlib.import_module(f"flightsim.{name}")


class Game:
    """Everything drawn in one GL context: renderer, cameras, HUD, keyboard."""

    def __init__(self, ctx, world: World, view="chase", quality="auto", livery: str | None = None):
        from ..input.keyboard import KeyboardControls
        from ..render.buildings import tower_eye_ned
        from ..render.camera import CameraRig
        from ..render.hud import Hud
        from ..render.renderer import Renderer
        self.ctx = ctx
        self.world = world
        self.renderer = Renderer(ctx, world.compiled, world.terrain, quality=quality, livery=livery)
        if getattr(world, "combat", None) is not None:          # other aircraft, tracers, targets
            from ..render.combat_draw import CombatRenderer
            self.renderer.combat = CombatRenderer(ctx, self.renderer, world.combat.opponent_compiled)
        if getattr(world, "net", None) is not None:           # the other players (multiplayer over DIS)
            from ..render.remote_draw import RemoteRenderer
            self.renderer.remotes = RemoteRenderer(ctx, self.renderer)
        self.renderer.set_time_of_day(world.scenario.world.get("time_of_day_h", 13.0))
        from ..world.scenario import wind_ned
        self.renderer.set_wind(wind_ned(world.scenario.world))
        tower_ned = tower_eye_ned(self.renderer.scenery)
        model = self.renderer.aircraft.get("mesh")
        cockpit = getattr(model, "cockpit", None)
        self.cameras = CameraRig(world.compiled, world.terrain, tower_ned,
                                 eye_body=None if cockpit is None else cockpit["eye"])
        self.set_view(view)
        from ..instruments import spec as instrument_spec
        from ..instruments.state import Instruments
        self.instrument_spec = instrument_spec.load(world.compiled)
        self.instruments = Instruments(self.instrument_spec, [c["name"] for c in world.compiled.spec.contacts])
        self.hud = Hud(ctx, world.compiled.name, self.instrument_spec)
        self.cockpit3d = None       # the 3D cockpit's moving parts (render/cockpit3d.py), where the aircraft has one
        if cockpit is not None:
            from ..render.cockpit3d import PANEL_PX, Cockpit3D
            self.cockpit3d = Cockpit3D(ctx, model, self.hud.cockpit, self.renderer.shadow.defines(),
                                       self.renderer.q.get("panel_px", PANEL_PX))
            self.renderer.cockpit3d = self.cockpit3d
            self.hud.sight = cockpit["sight"]
        guns = getattr(world.compiled.spec, "guns", None)
        if guns:        # the HUD's gun cross where the guns are harmonised (aircraft data, [guns])
            self.hud.fighter.gun_depression_deg = guns["head"]["sight_depression_deg"]
            combat = getattr(world, "combat", None)
            if combat is not None and combat.missiles is not None:      # a jet's weapons: its gun funnel
                from ..physics.named_model import AircraftData
                from ..render.gun_funnel import GunFunnel
                self.hud.funnel = GunFunnel(AircraftData(world.compiled.model).guns)
        self.audio = None          # play() attaches a flightsim.audio.engine.AudioEngine
        self.replay = None         # the flow sets the ReplayPlayer when this is a replay (read only)
        self.replay_bar = None     # its bar (flightsim.render.replay_bar), made when first drawn
        self.keyboard = KeyboardControls(world.initial_inputs)
        from ..instruments.instructor import for_world
        self.instructor = for_world(world)          # a first solo's instructor ([instructor]), or None
        self.frame_times = []
        self._last = None
        self.fps = 0.0

    def set_livery(self, livery_id: str) -> None:
        """Repaint the player's aircraft (and the AI's in the other side's scheme)."""
        old = self.renderer.aircraft.get("drawer")
        self.renderer.set_aircraft(self.world.compiled, livery_id)
        if old is not None:
            old.release()
        combat = getattr(self.renderer, "combat", None)
        if combat is not None:
            combat.repaint(self.renderer)

    def set_view(self, mode):
        self.view_mode = mode
        self.cameras.mode = mode
        self.cameras.snap_target = None
        if mode in ("hud", "panel"):            # the HUD and the 2D panel: looking straight ahead
            self.cameras.look_yaw = self.cameras.look_pitch = 0.0
        elif mode == "cockpit":                 # the head at rest: a little down
            from ..render.camera import COCKPIT_PITCH_DEG
            self.cameras.look_yaw, self.cameras.look_pitch = 0.0, math.radians(COCKPIT_PITCH_DEG)

    @property
    def draw_mode(self) -> str:
        """What the HUD draws for the view: the 3D cockpit's sight ("cockpit"), the 2D panel
        ("panel": also the cockpit view of an aircraft without a 3D cockpit), ..."""
        if self.view_mode == "cockpit" and self.cockpit3d is None:
            return "panel"
        return self.view_mode

    def draw(self, fbo, now_s: float, dt_s: float):
        from ..runtime.handoff import pose_at
        pose = pose_at(self.world.buffer, now_s - DT)
        if pose is None:
            fbo.use()
            fbo.clear(0.5, 0.6, 0.7)
            return
        view = self.cameras.view(pose, dt_s)
        combat_r = getattr(self.renderer, "combat", None)
        if combat_r is not None:
            combat_r.update(self.world.combat.frames, pose)
        remotes_r = getattr(self.renderer, "remotes", None)
        if remotes_r is not None:
            remotes_r.update(self.world.net.frame)
            if combat_r is not None:
                combat_r.net_missiles = self.world.net.frame.munitions
        self.renderer.clouds = getattr(self.world, "clouds", None)     # the published cumulus (immutable)
        mode = self.draw_mode
        self.instruments.update(pose.snapshot, now_s)
        if self.cockpit3d is not None:
            show = mode == "cockpit"
            self.renderer.show_panel = show
            if show:
                self.cockpit3d.update_texture(self.instruments, pose.snapshot, now_s)
        self.hud.eye_body = self.cameras.eye_body + self.cameras.head_offset()
        covered = self.hud.covered_rows(fbo.viewport[2], fbo.viewport[3], view, pose, mode)
        # the HUD view is the clear one: the HUD over the world, no cockpit round it
        m_proj = self.renderer.render(fbo, view, pose, cockpit=self.view_mode in ("cockpit", "hud", "panel"),
                                      covered_rows=covered, own=self.view_mode != "hud")
        st = self.renderer.stats
        # the frame rate is measured by the window's loop only (a screenshot's clock is simulated)
        fps = f"{self.fps:4.0f} fps  " if self.fps > 0 else ""
        extra = f"{fps}{self.renderer.quality}  {st.triangles / 1000:.0f}k tris"
        if combat_r is not None:
            from ..render.combat_draw import hud_text
            extra += "   " + hud_text(combat_r.frame)
        if remotes_r is not None:
            from ..render.remote_draw import pilots_line
            extra += "   " + pilots_line(remotes_r.frame)
        # the physics publishes a paused snapshot when it pauses, and each snapshot its time acceleration
        scale = int(getattr(pose.snapshot, "time_scale", 1))
        self.hud.time_scale = None if scale == 1 else float(scale)
        winch = getattr(self.world, "winch", None)          # the cable-release indicator (read only)
        if winch is None:
            self.hud.cable = None
        else:
            height = None if winch.release_height_m is None else winch.release_height_m - self.world.spawn.altitude_m
            self.hud.cable = (bool(winch.attached), str(getattr(winch, "event", "")), height)
        self.hud.instruction = None if self.instructor is None else self.instructor.update(pose.snapshot)
        self.hud.combat_frame = None if combat_r is None else combat_r.frame
        self.hud.draw(fbo, view, m_proj, pose, mode, extra, self.instruments, now_s)
        from ..render.debrief import draw_debrief  # flight log; the debrief panel once landed and at rest
        draw_debrief(self, fbo, pose.snapshot)
        if self.replay is not None:
            if self.replay_bar is None:
                from ..render.replay_bar import ReplayBar
                self.replay_bar = ReplayBar(self.ctx)
            sc = self.world.scenario
            self.replay_bar.draw(fbo, self.replay, f"{sc.name}  ({self.world.compiled.name})",
                                 at_top=mode == "panel")
        if self.audio is not None:
            frame = self.hud.combat_frame
            self.audio.update(pose.snapshot, self.instruments, self.hud.cable,
                              None if frame is None else getattr(frame, "weapons", None))

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
