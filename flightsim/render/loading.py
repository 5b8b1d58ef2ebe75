"""Drawing the start-up screen: what is being prepared, a progress bar, the stage by name.

Shown while the first start on a machine compiles the flight model (flightsim.app.prepare, in a
child process) and while a world is built (terrain, trim) off the window's thread; laid out
like the menu (flightsim.render.menu), scaled by ``k = min(h / 720, w / 1280)``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .overlay import PanelView

SKY = (0.10, 0.16, 0.26)
NAME = (250, 250, 250, 255)
DETAIL = (185, 192, 205, 255)
AMBER = (0.98, 0.70, 0.18, 0.95)
RED = (255, 95, 75, 255)


@dataclass
class Progress:
    """What the screen shows: a title, a line under it, the fraction done (0..1), the stage."""
    title: str = "Preparing the flight model"
    message: str = ""
    fraction: float = 0.0
    stage: str = ""
    hint: str = "Close the window to quit"
    failed: bool = False


class LoadingView(PanelView):
    def __init__(self, ctx):
        super().__init__(ctx, 256)
        self.bar_rect = None        # (x0, y0, x1, y1) of the filled part, framebuffer pixels (y up)

    def draw(self, fbo, progress: Progress) -> None:
        fbo.use()
        fbo.clear(*SKY)
        self._paint(fbo, progress)

    def _draw(self, w, h, k, cv, put, p: Progress):
        # the horizon: a darker ground below a lighter band, the panel above it
        cv.rect(0, 0, w, 0.38 * h, (0.13, 0.20, 0.12, 1.0))
        cv.rect(0, 0.38 * h, w, 0.38 * h + 3 * k, (0.55, 0.65, 0.75, 0.5))
        px = 96.0 / 72.0                           # points to pixels
        s_brand, s_title, s_msg = max(12.0, 30 * k), max(9.0, 16 * k), max(7.0, 11 * k)
        s_stage, s_hint = max(7.0, 11.5 * k), max(7.0, 10 * k)
        # rows from the top, never closer than the letters are tall
        gaps = [max(44 * k, 1.1 * s_brand * px), max(48 * k, 1.5 * s_title * px), max(32 * k, 1.6 * s_msg * px),
                max(40 * k, 1.8 * s_msg * px), max(34 * k, 1.8 * s_stage * px), max(36 * k, 2.0 * s_hint * px)]
        pw = min(w - 40 * k, 760 * k)
        x0 = (w - pw) / 2
        x1 = x0 + pw
        cx = w / 2
        height = sum(gaps) + 16 * k
        y1 = 0.5 * h + 0.55 * height
        y0 = y1 - height
        cv.rounded_rect(x0, y0, x1, y1, 12 * k, (0.03, 0.04, 0.07, 0.82))
        y = y1 - gaps[0]
        put("brand", "flightsim", cx, y, s_brand, bold=True, color=NAME)
        y -= gaps[1]
        put("title", p.title, cx, y, s_title, bold=True, color=RED if p.failed else NAME)
        y -= gaps[2]
        if p.message:
            put("message", p.message, cx, y, s_msg, color=DETAIL)
        # the bar
        y -= gaps[3]
        bx0, bx1 = x0 + 40 * k, x1 - 40 * k
        by0, by1 = y - 8 * k, y + 8 * k
        cv.rounded_rect(bx0, by0, bx1, by1, 6 * k, (1.0, 1.0, 1.0, 0.14))
        f = min(max(p.fraction, 0.0), 1.0)
        self.bar_rect = None
        if f > 0.0:
            fx = bx0 + max(f * (bx1 - bx0), 12 * k)
            cv.rounded_rect(bx0, by0, fx, by1, 6 * k, AMBER)
            self.bar_rect = (bx0, by0, fx, by1)
        y -= gaps[4]
        if p.stage:
            put("stage", p.stage, cx, y, s_stage, color=NAME)
        put("hint", p.hint, cx, y0 + 0.5 * gaps[5], s_hint, color=DETAIL)
