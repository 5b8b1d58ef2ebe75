"""The debrief panel: drawn once the aircraft has come to rest after its landing (or crash).

``draw_debrief(game, fbo, snapshot)`` is the one call Game.draw makes: it feeds the
game's FlightLog (flightsim/world/flight_log.py) with the newest snapshot -- and the
winch's release height, read like the HUD's cable indicator reads the winch -- and,
when the log says the aircraft is at rest after a touchdown, draws the debrief: flight
time, the highest point, the distance, the winch release, the best climb and the
landing's grade with its notes; after a combat, the score and what was hit on each
aircraft (world.combat.debrief_lines). The panel stays until the flight is reset (a new
snapshot epoch starts a new log).
"""
from __future__ import annotations

from .canvas import Canvas
from .overlay import MONO, ShapeBuffer, TextBank, pixel_projection

GRADE_COLOURS = {"good": (120, 230, 120, 255), "firm": (210, 230, 120, 255), "hard": (250, 190, 90, 255),
                 "damage": (250, 110, 80, 255), "crash": (255, 80, 80, 255)}


class DebriefPanel:
    def __init__(self, ctx):
        self.ctx = ctx
        self.shapes = ShapeBuffer(ctx, reserve_vertices=512)
        self.text = TextBank()
        self.shown = False

    def draw(self, fbo, log, extra_lines=()) -> bool:
        """Draw the debrief if the flight has ended at rest; returns whether it was drawn.
        ``extra_lines``: more to list (the combat's: what was hit)."""
        self.shown = bool(log is not None and log.at_rest and log.touchdown is not None)
        if not self.shown:
            return False
        w, h = fbo.viewport[2], fbo.viewport[3]
        k = min(h / 720.0, w / 1280.0)
        size = max(8.0, 12.0 * k)
        lines = log.debrief_lines() + list(extra_lines)
        grade = log.grade or ""
        ctx = self.ctx
        with pixel_projection(w, h):
            ctx.disable(ctx.DEPTH_TEST)
            tb = self.text
            tb.begin()
            body = "\n".join(lines[1:])
            tb.put("title", "DEBRIEF", 0, 0, size=size * 1.3, color=(255, 255, 255, 255), anchor_x="left",
                   anchor_y="top", bold=True, font=MONO)
            tb.put("grade", grade.upper(), 0, 0, size=size * 1.3, color=GRADE_COLOURS.get(grade, (255, 255, 255, 255)),
                   anchor_x="right", anchor_y="top", bold=True, font=MONO)
            tb.put("body", body, 0, 0, size=size, color=(235, 240, 245, 255), anchor_x="left", anchor_y="top",
                   font=MONO, multiline_width=int(w * 0.7))
            tb.put("hint", "R: fly again", 0, 0, size=size * 0.85, color=(200, 210, 220, 255), anchor_x="left",
                   anchor_y="top", font=MONO)
            tb.end()
            body_w, body_h = tb.size("body")
            title_h = tb.size("title")[1] + 8 * k
            hint_h = tb.size("hint")[1] + 8 * k
            bw = max(body_w, 300 * k)
            bh = body_h + title_h + hint_h
            x0, y1 = (w - bw) / 2, (h + bh) / 2
            tb.put("title", "DEBRIEF", x0, y1, size=size * 1.3, color=(255, 255, 255, 255), anchor_x="left",
                   anchor_y="top", bold=True, font=MONO)
            tb.put("grade", grade.upper(), x0 + bw, y1, size=size * 1.3,
                   color=GRADE_COLOURS.get(grade, (255, 255, 255, 255)), anchor_x="right", anchor_y="top", bold=True,
                   font=MONO)
            tb.put("body", body, x0, y1 - title_h, size=size, color=(235, 240, 245, 255), anchor_x="left",
                   anchor_y="top", font=MONO, multiline_width=int(w * 0.7))
            tb.put("hint", "R: fly again", x0, y1 - bh + hint_h - 4 * k, size=size * 0.85, color=(200, 210, 220, 255),
                   anchor_x="left", anchor_y="top", font=MONO)
            cv = Canvas()
            pad = 18 * k
            cv.rounded_rect(x0 - pad, y1 - bh - pad, x0 + bw + pad, y1 + pad, 10 * k, (0.02, 0.04, 0.08, 0.82))
            self.shapes.upload(cv.array())
            self.shapes.draw(w, h)
            tb.draw()
            ctx.disable(ctx.BLEND)
        return True


def draw_debrief(game, fbo, snapshot) -> bool:
    """Feed the game's flight log and draw the debrief panel when the flight has ended."""
    log = getattr(game, "flight_log", None)
    if log is None:
        from ..world.flight_log import FlightLog
        log = game.flight_log = FlightLog(game.world.terrain.airfield)
        game.debrief_panel = DebriefPanel(game.ctx)
    winch = getattr(game.world, "winch", None)
    log.update(snapshot, on_cable=bool(winch is not None and winch.attached),
               release_altitude_m=None if winch is None else winch.release_height_m)
    combat = getattr(game.world, "combat", None)
    extra = []
    if combat is not None:
        from ..world.combat import debrief_lines
        extra = debrief_lines(combat.frame)
    instructor = getattr(game, "instructor", None)      # a first solo's scores
    if instructor is not None:
        instructor.judged(log.touchdown)
        extra = extra + instructor.debrief_lines()
    return game.debrief_panel.draw(fbo, log, extra)
