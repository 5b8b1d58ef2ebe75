"""Heads-up display and overlays: which instruments each view shows, plus the messages.

    cockpit   the 3D cockpit's gunsight or HUD on its glass (flightsim.render.cockpit3d)
    panel     the 2D instrument panel (flightsim.render.cockpit)
    hud       the fighter HUD (flightsim.render.fighter_hud)
    chase, orbit, tower   compact readouts in the corners

and in every view: the title line, F1 help, F2 telemetry (seed 001's readout), the stall
warning, pause and time-acceleration indicators, and the landing / crash message with
the touchdown sink rate. Reads the interpolated Pose, its newest Snapshot and the
``Instruments`` (flightsim.instruments.state) only.
"""
from __future__ import annotations

import math

from ..instruments import values as V
from ..instruments.spec import InstrumentSpec
from .canvas import Canvas
from .glutil import program
from .overlay import MONO, SANS, ShapeBuffer, TextBank, pixel_projection

HELP = """flightsim - keys (F1 closes)

Arrow keys / W S A D   pitch and roll (Up/W = nose down)
Q / E                  rudder left / right
B                      airbrakes out / in
Page Up / Page Down    pitch trim nose up / down
Space                  wheel brake        G  gear up/down
P                      pause              R  reset
T / Shift+T            time x1, x2, x4 / back
F1  this help          F11 fullscreen     Esc menu
mouse drag             look around (cockpit) / orbit"""

# appended to whatever key list the window gives (flightsim.input.bindings.help_text)
VIEWS_HELP = """
Views  (1-6; C / V next / previous)
  1 cockpit  3D cockpit: numpad looks round,
             Z / Shift+Z zoom, the gunsight
  6 panel    2D instrument panel, yaw string
  2 chase    behind the aircraft
  3 orbit    around it (drag; wheel zooms)
  4 tower    control tower, else fly-by
  5 hud      fighter head-up display

Instruments
  F2  telemetry: TAS, pitch, altitude,
      vertical rate, elevator, power,
      flaps, stall, distance, time, rate
  M   variometer sound on / off"""


class _HelpText:
    """The F1 text; the window may replace ``.text`` with its generated key list."""

    def __init__(self, text):
        self.text = text


WHITE = (255, 255, 255, 240)
RED = (255, 70, 50, 255)
AMBER = (255, 190, 40, 255)
GREEN_MSG = (120, 255, 140, 255)


class Hud:
    def __init__(self, ctx, aircraft_name: str = "", spec: InstrumentSpec | None = None):
        import pyglet  # the window layer: only imported where a window exists
        self.pyglet = pyglet
        self.ctx = ctx
        self.spec = spec or InstrumentSpec(name=aircraft_name)
        self.prog = program(ctx, "hud_vs.glsl", "hud_fs.glsl")
        self.shapes = ShapeBuffer(ctx, self.prog, 2048)
        self.text = TextBank()
        self.help_text = TextBank()
        self.help = _HelpText(HELP)
        self.aircraft_name = aircraft_name
        self.show_help = False
        self.show_telemetry = False
        self.vario_muted = False
        self.time_scale = None          # set by the game when the physics runs faster or slower than real time
        self.cable = None               # winch cable: None (no winch), else (attached, last event, release
        #                                 height above the launch point m or None)
        self.instruction = None         # a first solo's instructor's words (the game sets them each frame)
        self.combat_frame = None        # the combat's published frame: its weapons view (render/weapons_hud.py)
        self.funnel = None              # the gun funnel (render/gun_funnel.py) where the aircraft has missiles and guns
        self._cable_note = None         # (text, detail, colour, shown since) after the cable goes
        self._cable_was = None
        self._cockpit = None
        self._fighter = None
        self.sight = None               # the 3D cockpit's sight: kind, its glass's corners (body axes)
        self.eye_body = None            # where the eye is in the aircraft (the camera rig's), for the sight
        self.cg = None
        self._own_instruments = None

    @property
    def cockpit(self):
        if self._cockpit is None:
            from .cockpit import CockpitPanel
            self._cockpit = CockpitPanel(self.ctx, self.spec, self.prog)
        return self._cockpit

    @property
    def fighter(self):
        if self._fighter is None:
            from .fighter_hud import FighterHud
            self._fighter = FighterHud(self.ctx, self.spec, self.prog)
        return self._fighter

    def draw(self, fbo, view, m_proj, pose, mode: str, extra: str = "", instruments=None, now_s: float = 0.0):
        w, h = fbo.viewport[2], fbo.viewport[3]
        with pixel_projection(w, h):
            self._draw(fbo, w, h, view, m_proj, pose, mode, extra, instruments, now_s)

    def covered_rows(self, w, h, view, pose, mode: str) -> int:
        """Rows from the window's bottom edge that this frame's overlay will cover opaquely
        (the cockpit panel when the pilot looks ahead): the renderer skips the scene there."""
        if pose is None or pose.snapshot is None or mode != "panel" or not self._looking_ahead(view, pose):
            return 0
        return self.cockpit.covered_rows(w, h)

    def _draw(self, fbo, w, h, view, m_proj, pose, mode, extra, instruments, now_s):
        ctx = self.ctx
        ctx.disable(ctx.DEPTH_TEST)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        k = min(h / 720.0, w / 1280.0)
        snap = pose.snapshot if pose is not None else None
        inst = instruments
        if inst is None and snap is not None:            # standalone use: keep our own instruments
            if self._own_instruments is None:
                from ..instruments.state import Instruments
                self._own_instruments = Instruments(self.spec)
            inst = self._own_instruments
            inst.update(snap, now_s)
        panel_top = 0.0
        if snap is not None and mode == "panel" and self._looking_ahead(view, pose):
            self.cockpit.cable = self.cable
            self.cockpit.draw(w, h, inst, snap, now_s, fbo)
            panel_top = self.cockpit.top_y
            ctx.enable(ctx.BLEND)
        elif snap is not None and mode == "cockpit" and self.sight is not None:
            self._draw_sight(fbo, w, h, view, m_proj, pose, inst, now_s)
            ctx.enable(ctx.BLEND)
        elif snap is not None and mode == "hud":
            self.fighter.draw(w, h, view, m_proj, pose, inst, now_s, fbo)
            ctx.enable(ctx.BLEND)
        # ------------------------------------------------------------ overlays common to all views
        cv = Canvas()
        tb = self.text
        tb.begin()
        size = max(8.0, 10.5 * k)
        title = f"{self.aircraft_name}   view: {mode}   {extra}   F1 help  F2 data"
        tb.put("title", title, 12 * k, h - 8 * k, size=size * 0.9, color=(235, 235, 235, 220), anchor_x="left",
               anchor_y="top", font=MONO)
        cv.rect(0, h - 26 * k, w, h, (0, 0, 0, 0.25))
        if self.instruction:                        # a first solo's instructor (instruments/instructor.py)
            tb.put("instruction", self.instruction, w / 2, h - 40 * k, size=size * 1.1, color=(255, 240, 170, 255),
                   anchor_y="top", font=SANS)
            iw, ih = tb.size("instruction")
            cv.rounded_rect(w / 2 - iw / 2 - 10 * k, h - 46 * k - ih, w / 2 + iw / 2 + 10 * k, h - 32 * k, 6 * k,
                            (0, 0, 0, 0.55))
        if snap is not None:
            if mode in ("chase", "orbit", "tower"):
                self._corner_readouts(cv, tb, snap, inst, w, h, k, size)
            if self.show_telemetry:
                txt = V.telemetry_text(snap, inst.start_ned, inst.sim_rate, inst.stall_level,
                                       powered=not self.spec.glider)
                x0, y1 = 10 * k, h - 34 * k
                tb.put("telemetry", txt, x0 + 10 * k, y1 - 8 * k, size=size * 0.95, color=(230, 255, 230, 255),
                       anchor_x="left", anchor_y="top", font=MONO, multiline_width=190 * k)
                th = tb.size("telemetry")[1]
                cv.rounded_rect(x0, y1 - th - 16 * k, x0 + 205 * k, y1, 6 * k, (0, 0, 0, 0.55))
            self._status(cv, tb, snap, inst, w, h, k, size, now_s)
            self._warnings(cv, tb, snap, inst, w, h, k, now_s, panel_top)
            if self.combat_frame is not None and getattr(self.combat_frame, "weapons", None) is not None:
                from .weapons_hud import draw_weapons
                if self.funnel is not None:
                    self.funnel.remember(snap)
                funnel = self.funnel if mode in ("hud", "cockpit") else None
                draw_weapons(cv, tb, self.combat_frame, view, m_proj, pose, w, h, k, size, now_s, funnel)
        tb.end()
        self.shapes.upload(cv.array())
        self.shapes.draw(w, h)
        tb.draw()
        if self.show_help:
            self._draw_help(w, h, k)
        ctx.disable(ctx.BLEND)

    # ------------------------------------------------------------------ the 3D cockpit's sight
    def _draw_sight(self, fbo, w, h, view, m_proj, pose, inst, now_s):
        """The reflector sight's reticle (or the F-15C's HUD), at infinity, seen only through
        the sight's glass."""
        import numpy as np

        from ..runtime.handoff import dcm
        from .cockpit3d import RETICLE, glass_rect, k14_lead, reticle_screen
        sight = self.sight
        R = dcm(pose.quat_wxyz)
        eye_body = np.asarray(self.eye_body if self.eye_body is not None else sight["centre"], dtype=np.float64)
        rect = glass_rect(sight, R, eye_body, view, m_proj, w, h)
        if rect is None:
            return
        x0, y0, x1, y1 = (int(round(v)) for v in rect)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        fbo.scissor = (x0, y0, x1 - x0, y1 - y0)
        try:
            if sight["kind"] == "hud":
                self.fighter.draw(w, h, view, m_proj, pose, inst, now_s, fbo)
            else:
                depression = math.radians(self.fighter.gun_depression_deg) if self._fighter is not None else 0.0
                lead = k14_lead(pose.snapshot.omega_body_rads) if sight["kind"] == "k14" else (0.0, 0.0)
                segs = reticle_screen(sight["kind"], R, depression, view, m_proj, w, h, lead)
                segs = segs[~np.any(np.isnan(segs), axis=1)]
                if len(segs):
                    cv = Canvas()
                    r, g, b = RETICLE.get(sight["kind"], (1.0, 0.6, 0.25))
                    k = min(h / 720.0, w / 1280.0)
                    cv.lines(segs[:, 0:2], segs[:, 2:4], max(1.6 * k, 1.2), (r, g, b, 0.85))
                    self.shapes.upload(cv.array())
                    self.shapes.draw(w, h)
        finally:
            fbo.scissor = None

    # ------------------------------------------------------------------ pieces
    @staticmethod
    def _looking_ahead(view, pose, limit_deg: float = 25.0) -> bool:
        """The panel is in front of the pilot: hidden while the mouse looks around the cockpit."""
        if view is None or pose is None:
            return True
        import numpy as np

        from ..runtime.handoff import dcm
        nose = dcm(pose.quat_wxyz)[:, 0]
        return float(np.dot(nose, np.asarray(view.forward))) > math.cos(math.radians(limit_deg))

    def _draw_help(self, w, h, k):
        """The key list (the window's, from the bindings table) and, beside it, the views."""
        keys = self.help.text.rstrip()
        views = VIEWS_HELP.strip("\n")
        if "F2" in keys:                          # the key list already has the instrument keys
            views = views.split("\n\nInstruments")[0]
        if "Views" in keys:
            views = ""
        size = max(7.0, 10.0 * k)
        tb = self.help_text
        tb.begin()
        tb.put("help", keys, 0, 0, size=size, color=WHITE, anchor_x="left", anchor_y="top", font=MONO,
               multiline_width=int(w * 0.62))
        tb.put("views", views, 0, 0, size=size, color=(210, 235, 255, 255), anchor_x="left", anchor_y="top",
               font=MONO, multiline_width=int(w * 0.40))
        tb.end()
        (aw, ah), (bw_, bh_) = tb.size("help"), tb.size("views")
        gap = 28 * k
        bw = aw + (gap + bw_ if views else 0)
        bh = max(ah, bh_ if views else 0)
        x0, y1 = (w - bw) / 2, (h + bh) / 2
        tb.put("help", keys, x0, y1, size=size, color=WHITE, anchor_x="left", anchor_y="top", font=MONO,
               multiline_width=int(w * 0.62))
        tb.put("views", views, x0 + aw + gap, y1, size=size, color=(210, 235, 255, 255),
               anchor_x="left", anchor_y="top", font=MONO, multiline_width=int(w * 0.40))
        hv = Canvas()
        pad = 16 * k
        hv.rounded_rect(x0 - pad, y1 - bh - pad, x0 + bw + pad, y1 + pad, 10 * k, (0, 0, 0, 0.86))
        self.shapes.upload(hv.array())
        self.shapes.draw(w, h)
        tb.draw()

    def _corner_readouts(self, cv, tb, s, inst, w, h, k, size):
        spec = self.spec
        roll, pitch, yaw = s.euler_rad
        left = (f"IAS  {spec.speed(V.ias_kmh(s)):6.0f} {spec.speed_label}\n"
                f"TAS  {spec.speed(V.tas_kmh(s)):6.0f} {spec.speed_label}\n"
                f"ALT  {spec.altitude(s.altitude_m):6.0f} {spec.altitude_label}\n"
                f"AGL  {spec.altitude(s.height_agl_m):6.0f} {spec.altitude_label}\n"
                # a glider's total-energy vario; a powered aircraft's plain vertical speed (the
                # cockpit's VSI): a pull-up trading speed for height is not a 5,000 m/min sink
                + (f"VARIO {spec.vertical_speed(inst.vario.value):+5.1f} {spec.vs_label}" if spec.glider else
                   f"VS    {spec.vertical_speed(inst.vsi.value):+5.0f} {spec.vs_label}"))
        right = (f"HDG {inst.heading:5.0f}\nG  {inst.g:+5.2f}\nAoA {math.degrees(s.alpha_rad):5.1f}\n"
                 f"BRK {s.airbrake * 100:4.0f}%\n" + (
                     f"STAB {spec.stabilizer_deg(float(s.controls.pitch_trim)):+4.1f}\u00b0"
                     if spec.stabilizer_travel_deg else f"TRIM {s.controls.pitch_trim:+5.2f}"))
        cv.rounded_rect(6 * k, 6 * k, 250 * k, 128 * k, 5 * k, (0, 0, 0, 0.45))
        cv.rounded_rect(w - 200 * k, 6 * k, w - 6 * k, 128 * k, 5 * k, (0, 0, 0, 0.45))
        tb.put("left", left, 14 * k, 120 * k, size=size, color=WHITE, anchor_x="left", anchor_y="top", font=MONO,
               multiline_width=236 * k)
        tb.put("right", right, w - 190 * k, 120 * k, size=size, color=WHITE, anchor_x="left", anchor_y="top",
               font=MONO, multiline_width=180 * k)

    def _status(self, cv, tb, s, inst, w, h, k, size, now_s):
        """Top right: pause, time acceleration, sound mute."""
        items = []
        rate = self.time_scale
        if rate is None and inst.sim_rate is not None and not s.paused and inst.sim_rate < 0.85:
            # real time set, less achieved (more is only ever the tail of an acceleration just ended)
            rate = inst.sim_rate
        if s.paused:
            items.append(("PAUSED", AMBER))
        elif rate is not None and abs(rate - 1.0) > 0.05:
            if abs(rate - round(rate)) < 0.05:            # the set acceleration: x2, x4
                txt = f"TIME x{round(rate)}"
                got = inst.sim_rate
                if got is not None and got < 0.85 * rate:  # the machine cannot keep up: say what it manages
                    txt += f" ({got:.1f})"
            else:
                txt = f"TIME x{rate:.1f}" if rate >= 1 else f"TIME x{rate:.2f}"
            items.append((txt, AMBER))
        if self.vario_muted and self.spec.glider:
            items.append(("VARIO MUTED", (200, 200, 200, 255)))
        # systems damage: the warning lights (instruments.values.warning_lights), red ones flashing
        for txt, level in V.warning_lights(s):
            if level == "red" and int(now_s * 2.5) % 2:
                items.append((txt, (120, 30, 25, 255)))
            else:
                items.append((txt, RED if level == "red" else AMBER))
        y = h - 42 * k
        for i, (txt, col) in enumerate(items):
            x1 = w - 12 * k
            cv.rounded_rect(x1 - 150 * k, y - 13 * k, x1, y + 13 * k, 4 * k, (0, 0, 0, 0.55))
            tb.put(("status", i), txt, x1 - 75 * k, y, size=size, color=col, bold=True, font=MONO)
            y -= 32 * k
        if s.paused:       # and a big one in the middle
            tb.put("paused_big", "PAUSED", w / 2, h * 0.80, size=max(12.0, 26 * k), color=AMBER, bold=True,
                   font=SANS)

    def _cable_message(self, now_s: float, show_s: float = 6.0):
        """(text, detail, colour) for a few seconds after the winch cable goes, else None."""
        cable = self.cable
        attached = None if cable is None else bool(cable[0])
        if self._cable_was and attached is False:
            event, height = cable[1], (cable[2] if len(cable) > 2 else None)
            where = "" if height is None else f" at {height:.0f} m"
            if event == "weak link broke":
                self._cable_note = ("WEAK LINK BROKE" + where, "lower the nose at once to flying speed; land ahead or "
                                    "fly a short circuit", AMBER, now_s)
            else:
                self._cable_note = ("CABLE RELEASED" + where if event != "back-release" else "BACK-RELEASE" + where,
                                    "lower the nose to the glide", GREEN_MSG, now_s)
        if attached:
            self._cable_note = None
        self._cable_was = attached
        note = self._cable_note
        if note is None or now_s - note[3] > show_s:
            return None
        return note[:3]

    def _warnings(self, cv, tb, s, inst, w, h, k, now_s, panel_top):
        lvl = inst.stall_level
        y_warn = max(h * 0.66, panel_top + 230 * k)
        if lvl == 2:          # steady text on a flashing box
            on = (now_s * 3.0) % 1.0 < 0.6
            cv.rounded_rect(w / 2 - 95 * k, y_warn - 26 * k, w / 2 + 95 * k, y_warn + 26 * k, 8 * k,
                            (0.75, 0.05, 0.03, 0.85) if on else (0.0, 0.0, 0.0, 0.55))
            tb.put("stall", "STALL", w / 2, y_warn, size=max(12.0, 30 * k), color=(255, 255, 255, 255) if on else RED,
                   bold=True, font=SANS)
        elif lvl == 1:
            tb.put("stall", "STALL WARNING", w / 2, y_warn, size=max(10.0, 18 * k), color=AMBER, bold=True, font=SANS)
        ev = inst.message(now_s)
        note = self._cable_message(now_s)
        if ev is None and note is not None:     # the cable gone: released, back-released, or the link broke
            text, sub, col = note
            y = max(h * 0.56, panel_top + 140 * k)
            cv.rounded_rect(w / 2 - 250 * k, y - 38 * k, w / 2 + 250 * k, y + 26 * k, 8 * k, (0, 0, 0, 0.6))
            tb.put("event", text, w / 2, y + 6 * k, size=max(10.0, 20 * k), color=col, bold=True, font=SANS)
            tb.put("event_sub", sub, w / 2, y - 22 * k, size=max(8.0, 11 * k), color=(220, 220, 220, 255),
                   font=SANS)
        if ev is not None:
            col = {"touchdown": GREEN_MSG, "hard": AMBER, "crash": RED, "strike": AMBER}[ev.kind]
            y = max(h * 0.56, panel_top + 140 * k)
            sub = f"{self.spec.speed(ev.ias_kmh):.0f} {self.spec.speed_label} at contact"
            if ev.kind == "crash":
                sub += "  -  R restart, Esc menu"
            cv.rounded_rect(w / 2 - 250 * k, y - 38 * k, w / 2 + 250 * k, y + 26 * k, 8 * k, (0, 0, 0, 0.6))
            tb.put("event", ev.text, w / 2, y + 6 * k, size=max(10.0, 20 * k), color=col, bold=True, font=SANS)
            tb.put("event_sub", sub, w / 2, y - 22 * k, size=max(8.0, 11 * k), color=(220, 220, 220, 255),
                   font=SANS)
