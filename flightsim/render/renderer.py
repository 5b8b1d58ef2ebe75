"""The scene: sky, terrain (terrain_draw.py), roads (ribbons.py), buildings (buildings.py),
instanced trees, clouds, the aircraft (aircraft_draw.py) with their shadows (shadows.py),
effects (effects.py), drawn from an interpolated Pose through a View at a preset's detail
(presets.py).

Everything is given to GL in NED metres relative to the eye (float32 stays precise
tens of kilometres out); the View's matrix turns NED into GL axes. Draw order is
near to far (aircraft, scenery, trees, terrain) and the sky last where nothing was
drawn, so software rasterisers shade each pixel about once.
"""
from __future__ import annotations

import numpy as np

from ..runtime.handoff import Pose, dcm
from . import aircraft_mesh
from .buildings import scenery_chunks, tree_mesh, windsock_mesh
from .camera import View
from .glutil import mat4, program, set_scene, set_uniform, translate
from .presets import FrameStats, auto_quality, preset
from .shadows import SunShadow
from .terrain_draw import TerrainRenderer
from .tree_select import TreeCells

IDENTITY_QUAT = np.array([1.0, 0.0, 0.0, 0.0])
ZERO3 = np.zeros(3)


def _finish_releasing_gil(ctx):
    """glFinish through ctypes (which drops the GIL while the GL driver works), else moderngl's."""
    global _gl_finish
    if _gl_finish is None:
        try:
            from pyglet import gl
            _gl_finish = gl.glFinish
        except Exception:
            _gl_finish = False
    if _gl_finish:
        _gl_finish()
    else:
        ctx.finish()


_gl_finish = None


def _read_only_mesh(mesh):
    """(vertices, chunks) with the vertices read-only: kept per terrain, shared by the renderers."""
    mesh[0].setflags(write=False)
    return mesh


# ---------------------------------------------------------------------------- the scene
class Renderer:
    def __init__(self, ctx, compiled, terrain, scenery=None, quality="auto", livery=None):
        from ..world import scenery as scenery_mod
        self.ctx = ctx
        self.quality = auto_quality(ctx) if quality in (None, "auto") else quality
        self.q = preset(ctx, self.quality)
        self._own = True            # the player's aircraft drawn (render(own=False): the HUD view)
        self.terrain = terrain
        # the sun's shadow map (medium, high); the low preset lays a flat shadow on the ground instead
        self.shadow = SunShadow(ctx, int(self.q.get("shadow_px") or 1), int(self.q.get("shadow_taps", 1)))
        self.scenery = scenery if scenery is not None else scenery_mod.build(terrain)
        forest = scenery_mod.forest_alpha(terrain) if hasattr(scenery_mod, "forest_alpha") else None
        self.terrain_r = TerrainRenderer(ctx, terrain, forest, self.quality)
        self.sky_prog = program(ctx, "sky_vs.glsl", "sky_fs.glsl")
        self.sky_vao = ctx.vertex_array(self.sky_prog, [])
        self.mesh_prog = program(ctx, "mesh_vs.glsl", "mesh_fs.glsl")
        self.tree_prog = program(ctx, "tree_vs.glsl", "mesh_fs.glsl")
        # scenery (static, world coordinates)
        if scenery is None:          # the terrain's own scenery: its meshes are kept with it
            sv, self.scenery_chunks = scenery_mod.kept("scenery meshes", terrain,
                                                       lambda: _read_only_mesh(scenery_chunks(self.scenery, terrain)))
        else:
            sv, self.scenery_chunks = scenery_chunks(self.scenery, terrain)
        self.scenery_vao = ctx.vertex_array(self.mesh_prog, [(ctx.buffer(sv.tobytes()), "3f 3f 3f 1f",
                                                              "in_position", "in_normal", "in_color", "in_part")])
        self.scenery_tris = len(sv) // 3
        n, e = self.scenery.landmarks.get("windsock", (0.0, 0.0))
        self._sock_top = np.array([n, e, -terrain.height_at(n, e) - 6.0])
        self.sock_vao = None
        self.set_wind((0.0, 0.0, 0.0))
        # the roads, the railway, the river and the town's streets on the ground
        from .ribbons import RibbonRenderer
        lines = (self.scenery.network.lines() if self.scenery.network is not None else []) + list(self.scenery.streets)
        from types import SimpleNamespace
        self.ribbons = RibbonRenderer(ctx, SimpleNamespace(lines=lambda: lines), terrain, self.quality,
                                      self.shadow.defines() if self.q.get("terrain_shadow") else None)
        # trees: one unit mesh, instances chosen each frame near the eye
        tm = tree_mesh(self.q["tree_sides"])
        self.tree_tris = len(tm) // 3
        self.tree_cells = TreeCells(self.scenery.trees)
        self._trees_chosen = None       # (eye, forward, count) when the instances were last chosen
        self.tree_inst = ctx.buffer(reserve=self.q["max_trees"] * 24, dynamic=True)
        self.tree_vao = ctx.vertex_array(self.tree_prog, [
            (ctx.buffer(tm.astype("f4").tobytes()), "3f 3f", "in_position", "in_normal"),
            (self.tree_inst, "4f 2f/i", "in_inst", "in_inst2")])
        self.aircraft = {}
        self._frame_t = None
        self.set_aircraft(compiled, livery)
        self.set_time_of_day(13.0)
        self.stats = FrameStats()
        self._identity_parts = np.tile(np.eye(4, dtype="f4"), (aircraft_mesh.MAX_PARTS, 1, 1)).tobytes()
        # reduced-resolution scene target (software GL pays per pixel), stretched onto the window
        self.render_scale = float(self.q.get("scale", 1.0))
        self._scene_fbo = None
        self.upscale_prog = program(ctx, "upscale_vs.glsl", "upscale_fs.glsl")
        self.upscale_vao = ctx.vertex_array(self.upscale_prog, [])

    def _scene_target(self, w, h):
        """The offscreen colour + depth target for a window of w x h at the render scale."""
        sw, sh = max(int(round(w * self.render_scale)), 1), max(int(round(h * self.render_scale)), 1)
        if self._scene_fbo is None or self._scene_fbo.size != (sw, sh):
            if self._scene_fbo is not None:
                for a in (*self._scene_fbo.color_attachments, self._scene_fbo.depth_attachment):
                    a.release()
                self._scene_fbo.release()
            ctx = self.ctx
            tex = ctx.texture((sw, sh), 4)      # RGBA8: llvmpipe samples it ~1.5 ms a frame faster than RGB8
            # stretched with a bilinear filter: smooth edges, not a staircase of doubled pixels
            tex.filter = (ctx.LINEAR, ctx.LINEAR)
            tex.repeat_x = tex.repeat_y = False
            self._scene_fbo = ctx.framebuffer(color_attachments=[tex], depth_attachment=ctx.depth_renderbuffer((sw, sh)))
        return self._scene_fbo

    def set_aircraft(self, compiled, livery=None):
        """The player's aircraft: its look (visual.toml and the livery, render/model/) where it has
        one, else the slab model from its physics sections (aircraft_mesh)."""
        from .aircraft_draw import AircraftDrawer
        from .model import looks
        cg = np.asarray(compiled.cg_m, dtype=np.float64)
        lk = looks.look(compiled, self.quality, livery=livery)
        if lk is not None:
            drawer = AircraftDrawer(self.ctx, lk, cg, low=self.quality == "low", shadow_defines=self.shadow.defines(),
                                    anisotropy=self.q.get("anisotropy", 1.0))
            self.aircraft = {"mesh": lk.model, "drawer": drawer, "cg": cg, "livery": lk.livery}
            from .effects import Effects
            muzzles = None
            if getattr(compiled.spec, "guns", None):
                from ..world.combat import gun_muzzles
                muzzles = gun_muzzles(compiled)
            if getattr(self, "effects", None) is not None:
                self.effects.release()
            self.effects = Effects(self.ctx, lk.model, cg, muzzles)
            return
        m = aircraft_mesh.build(compiled)
        vao = self.ctx.vertex_array(self.mesh_prog, [(self.ctx.buffer(m.vertices.tobytes()), "3f 3f 3f 1f",
                                                      "in_position", "in_normal", "in_color", "in_part")])
        self.aircraft = {"mesh": m, "vao": vao, "cg": cg, "livery": None}

    def set_wind(self, wind_ned_ms) -> None:
        """The windsock shows the scenario's wind (the steady wind: render-side, no physics)."""
        sv = windsock_mesh(self._sock_top, wind_ned_ms)
        if self.sock_vao is not None:
            self.sock_vao.release()
            self.sock_buf.release()
        self.sock_buf = self.ctx.buffer(sv.tobytes())
        self.sock_vao = self.ctx.vertex_array(self.mesh_prog, [(self.sock_buf, "3f 3f 3f 1f",
                                                               "in_position", "in_normal", "in_color", "in_part")])
        self.sock_tris = len(sv) // 3

    def set_time_of_day(self, hours: float):
        """The sun and sky for local solar time ``hours`` (a scenario's time_of_day_h)."""
        from .sun import light_at
        self.light = light_at(float(hours))
        self.sun_ned = np.array(self.light.sun_ned)

    def _common(self):
        li = self.light
        return {"u_sun_ned": tuple(self.sun_ned), "u_fog_density": self.q["fog"],
                "u_sky_zenith": li.sky_zenith, "u_sky_horizon": li.sky_horizon,
                "u_sun_color": li.sun_color, "u_ambient": li.ambient}

    def render(self, fbo, view: View, pose: Pose | None, cockpit: bool = False, covered_rows: int = 0,
               own: bool = True):
        """Draw the scene into fbo (at the preset's render scale, then stretched); returns the
        projection. The bottom covered_rows rows of the window are left undrawn: an opaque
        overlay (the cockpit panel) covers them. own=False leaves the player's aircraft out
        (the HUD view), its shadow on the ground kept."""
        self._own = own
        ctx = self.ctx
        fbo.use()
        w, h = fbo.viewport[2], fbo.viewport[3]     # the window's current size (ctx.screen's .size is stale)
        fbo.viewport = (0, 0, w, h)
        covered = int(max(0, min(covered_rows, h - 1)))
        if self.render_scale >= 0.999:
            return self._render_scene(fbo, w, h, view, pose, cockpit, covered)
        target = self._scene_target(w, h)
        target.use()
        target.viewport = (0, 0, *target.size)
        # the scene's rows below the cover, less one for the stretch's rounding
        m_proj = self._render_scene(target, w, h, view, pose, cockpit,
                                    max(int(covered * target.size[1] / h) - 1, 0))
        # sampling the scene waits for it to be drawn: wait here, with the GIL released, not
        # inside a moderngl call that holds it (the physics thread would miss its ticks)
        _finish_releasing_gil(ctx)
        fbo.use()
        fbo.viewport = (0, 0, w, h)
        ctx.disable(ctx.DEPTH_TEST)
        if covered:
            fbo.scissor = (0, covered, w, h - covered)
        target.color_attachments[0].use(0)
        set_uniform(self.upscale_prog, "u_scene", 0)
        self.upscale_vao.render(vertices=3)
        if covered:
            fbo.scissor = None
        ctx.enable(ctx.DEPTH_TEST)
        return m_proj

    def _render_scene(self, fbo, w, h, view: View, pose: Pose | None, cockpit: bool, covered: int = 0):
        ctx = self.ctx
        aspect = w / max(h, 1)
        m_proj = view.m_proj(aspect)
        m_view = view.m_view
        common = self._common()
        ctx.enable_only(ctx.DEPTH_TEST)
        ctx.depth_func = "<"
        fbo.clear(0.7, 0.8, 0.9, 1.0, depth=1.0)
        tris = 0
        eye = view.eye_ned_m
        self._shadow_pass(fbo, view, pose, cockpit)
        if covered:          # rows under an opaque overlay: not rasterised at all
            vw, vh = fbo.viewport[2], fbo.viewport[3]
            fbo.scissor = (0, covered, vw, max(vh - covered, 1))
        # aircraft first (nearest)
        if pose is not None and self._own:
            tris += self._draw_aircraft(view, m_proj, pose, common, cockpit)
            ck = getattr(self, "cockpit3d", None)
            if ck is not None and getattr(self, "show_panel", False) and self._frame_parts is not None:
                tris += ck.draw(view, m_proj, common, self._frame_parts[1], self.shadow)
        combat = getattr(self, "combat", None)      # other aircraft, tracers, targets (render/combat_draw.py)
        if combat is not None:
            tris += combat.draw(view, m_proj, common)
        remotes = getattr(self, "remotes", None)    # other players' aircraft (render/remote_draw.py)
        if remotes is not None:
            tris += remotes.draw(view, m_proj, common)
        # scenery
        p = self.mesh_prog
        set_scene(p, m_proj, m_view, common, model=translate(-eye))
        set_uniform(p, "u_parts", self._identity_parts)
        set_uniform(p, "u_gloss", 0.0)
        tris += self._draw_scenery(view) + self.sock_tris
        self.sock_vao.render()
        tris += self._draw_trees(view, m_proj, common)
        tris += self.terrain_r.draw(view, m_proj, common, self.terrain.airfield,
                                    self.shadow if self.q.get("shadow_px") else None)
        tris += self.terrain_r.draw_numbers(view, m_proj, common)
        pixel_rad = view.fovy_rad / max(fbo.viewport[3], 1)
        tris += self.ribbons.draw(view, m_proj, common, self.shadow, pixel_rad)
        if not self.q.get("terrain_shadow") and pose is not None and getattr(self, "_frame_parts", None) is not None:
            tris += self._flat_shadow(view, m_proj, pose)
        # sky where nothing was drawn
        ctx.depth_func = "<="
        sp = self.sky_prog
        rot = m_proj @ m_view
        set_uniform(sp, "u_ned_from_clip", np.linalg.inv(rot))
        for k, v in common.items():
            set_uniform(sp, k, v)
        self.sky_vao.render(vertices=3)
        ctx.depth_func = "<"
        clouds = getattr(self, "clouds", None)      # the World's published cumulus, read only (render/clouds.py)
        if clouds is not None and len(clouds):
            if getattr(self, "clouds_r", None) is None:
                from .clouds import CloudRenderer
                self.clouds_r = CloudRenderer(ctx, volumetric=self.quality == "high", noise_tex=self.terrain_r.noise_tex)
            tris += self.clouds_r.draw(view, m_proj, common, clouds)
        tris += self._draw_trails(fbo, view, m_proj, common, pose, combat)
        tris += self._draw_effects(view, m_proj, common, pose, combat)
        tris += self._draw_glass(view, m_proj, common, pose, cockpit, combat)
        if covered:
            fbo.scissor = None
        self.stats.triangles = tris + 1
        self.stats.terrain_nodes = self.terrain_r.stats.terrain_nodes
        self.stats.terrain_triangles = self.terrain_r.stats.terrain_triangles
        return m_proj

    def _draw_effects(self, view, m_proj, common, pose, combat) -> int:
        """Exhaust smoke, muzzle flashes, sparks and debris, dust, vapour, contrails, the jets'
        flames (render/effects.py)."""
        fx = getattr(self, "effects", None)
        if fx is None or pose is None:
            return 0
        frame = combat.frame if combat is not None else None
        opp = combat.opponent_view if combat is not None else None
        snap = pose.snapshot
        fx.update(snap.time_s + pose.alpha * 0.02, pose, frame, opp)
        flames = []
        m = self.aircraft["mesh"]
        if m.nozzles and (snap.afterburner > 0.0 or snap.jet_spool > 0.0):
            R = dcm(pose.quat_wxyz)
            pos = np.asarray(pose.position_ned_m, dtype=np.float64)
            cg = self.aircraft["cg"]
            noz = [(pos + (np.asarray(p) - cg) @ R.T, r) for p, r in m.nozzles]
            flames.append((noz, -R[:, 0], float(snap.afterburner), float(snap.jet_spool)))
        if opp is not None and opp.visible and combat.opp is not None and "drawer" in combat.opp:
            om = combat.opp["mesh"]
            if om.nozzles and opp.afterburner > 0.0:
                R = dcm(opp.quat_wxyz)
                pos = np.asarray(opp.position_ned_m, dtype=np.float64)
                noz = [(pos + (np.asarray(p) - combat.opp["cg"]) @ R.T, r) for p, r in om.nozzles]
                flames.append((noz, -R[:, 0], float(opp.afterburner), 1.0))
        remotes = getattr(self, "remotes", None)
        if remotes is not None:
            flames += remotes.flames()
        fx.nozzle_glow(flames)
        return fx.draw(view, m_proj, common, snap.time_s, flames)

    def _draw_trails(self, fbo, view, m_proj, common, pose, combat) -> int:
        """Coolant vapour, oil smoke, fuel mist and fire behind a damaged aircraft (render/damage_fx.py)."""
        own = pose.snapshot.smoke if pose is not None else ()
        frame = combat.frame if combat is not None else None
        other = frame.opponent_smoke if frame is not None else ()
        remotes = getattr(self, "remotes", None)
        far = remotes.trails() if remotes is not None else []
        fx = getattr(self, "trails_r", None)
        if fx is None:
            if not own and not other and not far:
                return 0
            from .damage_fx import TrailRenderer
            fx = self.trails_r = TrailRenderer(self.ctx)
        t = pose.snapshot.time_s if pose is not None else (frame.tick * 0.02 if frame is not None else 0.0)
        tr = fx.trails
        if t < getattr(self, "_trail_t", -1.0):
            tr.clear()                      # a reset: time went back
        self._trail_t = t
        if own:
            tr.emit("player", own, pose.position_ned_m, pose.quat_wxyz, self.aircraft["cg"], t)
        o = combat.opponent_view if combat is not None else None
        if other and o is not None and o.visible and combat.opp is not None:
            tr.emit("opponent", other, o.position_ned_m, o.quat_wxyz, combat.opp["cg"], t)
        for who, sources, pos in far:
            tr.emit(who, sources, pos, IDENTITY_QUAT, ZERO3, t)
        return fx.draw(fbo, view, m_proj, common, t)

    def _pose_parts(self, pose: Pose, view, cockpit):
        """The player's drawer, model matrix and part matrices for this frame (the propeller
        turned by the time since the last frame)."""
        a = self.aircraft
        dr = a["drawer"]
        snap = pose.snapshot
        t = snap.time_s + pose.alpha * 0.02
        dt = 0.0 if self._frame_t is None or t < self._frame_t else min(t - self._frame_t, 0.1)
        self._frame_t = t
        dr.spin(snap.engine_rpm, dt)
        model = dr.model_matrix(pose.position_ned_m, pose.quat_wxyz, view.eye_ned_m)
        parts = dr.parts(pose.deflections_rad, pose.airbrake, pose.gear_up, pose.slat_positions,
                         snap.section_damage, snap.stores_on, cockpit=cockpit)
        return dr, model, parts

    def _shadow_pass(self, fbo, view, pose, cockpit):
        """The sun's shadow map round the player's aircraft (its own shadow and the one it casts
        on the ground); none with the sun below the horizon."""
        sh = self.shadow
        sh.on = False
        if pose is None or "drawer" not in self.aircraft:
            self._frame_parts = None
            return
        if self.sun_ned[2] > -0.02 or not self.q.get("shadow_px"):
            self._frame_parts = self._pose_parts(pose, view, cockpit)
            return
        dr, model, parts = self._pose_parts(pose, view, cockpit)
        self._frame_parts = (dr, model, parts)
        rel = np.asarray(pose.position_ned_m, dtype=np.float64) - view.eye_ned_m
        clip = sh.begin(self.sun_ned, rel, 0.62 * dr.model.extent_m + 1.0)
        dr.draw_depth(sh.prog, clip, model, parts)
        combat = getattr(self, "combat", None)
        if combat is not None:
            combat.draw_depth(sh, view)
        fbo.use()

    def _draw_scenery(self, view) -> int:
        """The buildings of the 1 km cells in the preset's range and not behind the eye."""
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        fwd = np.asarray(view.forward, dtype=np.float64)
        rng = self.q.get("buildings_m", 20000.0)
        from .ribbons import runs
        spans = []
        for first, count, centre, radius in self.scenery_chunks:
            rel = centre - eye
            d = float(np.linalg.norm(rel))
            if d - radius > rng or float(rel @ fwd) < -radius:
                continue
            spans.append((first, count))
        n = 0
        for first, count in runs(spans):
            self.scenery_vao.render(vertices=count, first=first)
            n += count // 3
        return n

    def _flat_shadow(self, view, m_proj, pose) -> int:
        """The low preset's shadow of the aircraft: its skin flattened along the sun's rays onto
        the ground below it, drawn once per pixel (render/aircraft_draw.py)."""
        pos = np.asarray(pose.position_ned_m, dtype=np.float64)
        g = self.terrain.height_at(pos[0], pos[1])
        if -pos[2] - g > 400.0 or self.sun_ned[2] > -0.05:
            return 0
        dr, model, parts = self._frame_parts
        return dr.draw_flat_shadow(view, m_proj, model, parts, self.sun_ned, -g - view.eye_ned_m[2])

    def _draw_glass(self, view, m_proj, common, pose, cockpit, combat) -> int:
        tris = 0
        if combat is not None and hasattr(combat, "draw_glass"):
            tris += combat.draw_glass(view, m_proj, common)
        fp = getattr(self, "_frame_parts", None)
        if pose is not None and fp is not None and self._own and (not cockpit or self.q.get("inside_glass", True)):
            dr, model, parts = fp
            tris += dr.draw_glass(view, m_proj, common, model, parts, inside=cockpit)
        return tris

    def _draw_aircraft(self, view, m_proj, pose: Pose, common, cockpit):
        a = self.aircraft
        if "drawer" in a:
            fp = getattr(self, "_frame_parts", None)
            if fp is None:
                fp = self._frame_parts = self._pose_parts(pose, view, cockpit)
            dr, model, parts = fp
            return dr.draw(view, m_proj, common, model, parts, shadow=self.shadow)
        mesh = a["mesh"]
        p = self.mesh_prog
        R = dcm(pose.quat_wxyz)
        model = mat4(R, np.asarray(pose.position_ned_m) - view.eye_ned_m) @ translate(-a["cg"])
        set_scene(p, m_proj, view.m_view, common, model=model)
        parts = mesh.part_transforms(pose.deflections_rad, pose.airbrake, pose.gear_up, pose.slat_positions,
                                     pose.snapshot.section_damage, pose.snapshot.stores_on)
        if cockpit:
            for k in mesh.fuselage_parts:
                parts[k, :3, :3] = 0.0
        set_uniform(p, "u_parts", np.ascontiguousarray(np.transpose(parts, (0, 2, 1)).astype("f4")).tobytes())
        set_uniform(p, "u_gloss", 0.5)
        a["vao"].render()
        return mesh.n_triangles

    def _draw_trees(self, view, m_proj, common):
        """The trees near the eye, instanced. They are chosen again only when the eye has moved
        40 m or turned about 11 degrees since the last choice; in between the shader moves the
        same instances by the eye's travel (u_shift)."""
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        fwd = np.asarray(view.forward, dtype=np.float64)
        chosen = self._trees_chosen
        if chosen is None or float(np.sum((eye - chosen[0]) ** 2)) > 40.0 ** 2 or float(fwd @ chosen[1]) < 0.98:
            inst = self.tree_cells.select(eye, fwd, self.q["trees_m"], self.q["max_trees"])
            if len(inst):
                self.tree_inst.orphan(self.q["max_trees"] * 24)
                self.tree_inst.write(inst.tobytes())
            chosen = self._trees_chosen = (eye.copy(), fwd.copy(), len(inst))
        n = chosen[2]
        if n == 0:
            return 0
        p = self.tree_prog
        set_uniform(p, "u_shift", tuple(float(v) for v in chosen[0] - eye))
        set_scene(p, m_proj, view.m_view, common)
        set_uniform(p, "u_gloss", 0.0)
        self.tree_vao.render(instances=n)
        self.stats.trees = n
        return n * self.tree_tris
