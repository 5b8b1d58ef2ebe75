"""Drawing the menu (flightsim.app.menu) over the 3-D scene: a dimmed backdrop, a panel, the
scenarios under their headings, the selection as an amber bar, the keys along the bottom.

Laid out in framebuffer pixels scaled by ``k = min(h / 720, w / 1280)`` like the HUD, so it
reads the same at any window size; a list longer than the panel scrolls to keep the
selection in view.
"""
from __future__ import annotations

from .overlay import PanelView

AMBER_BAR = (0.98, 0.70, 0.18, 0.95)
HEAD = (140, 200, 255, 255)
NAME = (250, 250, 250, 255)
DETAIL = (185, 192, 205, 255)
DARK = (20, 20, 24, 255)
RED = (255, 95, 75, 255)
HINT = "Up / Down choose    Enter fly    Esc back    Shift+Esc quit    joystick: hat or stick, trigger / A"


def _fit(text: str, px: float, size_pt: float, bold: bool = False) -> str:
    """Cut text to about ``px`` pixels wide (DejaVu Sans averages ~0.55 em a character, its bold
    ~0.60: "Paint: LSV Gifhorn" ran into the detail beside it when bold was counted as plain)."""
    per_char = (0.60 if bold else 0.55) * size_pt * 96.0 / 72.0
    n = max(int(px / max(per_char, 1e-6)), 4)
    return text if len(text) <= n else text[:n - 1].rstrip() + "\u2026"


class MenuView(PanelView):
    def __init__(self, ctx):
        super().__init__(ctx, 1024)
        self.top = 0                     # first row shown (scrolling)
        self.rows_shown = 0
        self.selected_rect = None        # (x0, y0, x1, y1) of the selection bar, framebuffer pixels (y up)

    def draw(self, fbo, menu) -> None:
        self._paint(fbo, menu)

    def _draw(self, w, h, k, cv, put, menu):
        cv.rect(0, 0, w, h, (0.0, 0.02, 0.05, 0.25))
        # the panel on the left, the aircraft turning in the space to its right
        pw = min(w - 24 * k, 800 * k)
        x0 = max(12 * k, min(40 * k, (w - pw) / 2))
        x1 = x0 + pw
        cx = (x0 + x1) / 2
        s_name = max(8.0, 14 * k)
        s_detail = max(7.0, 11 * k)
        s_head = max(7.0, 11.5 * k)
        s_title = max(11.0, 26 * k)
        s_msg = max(8.0, 13 * k)
        s_hint = max(7.0, 10 * k)
        px = 96.0 / 72.0                      # points to pixels
        row_h = max(30 * k, 1.5 * s_name * px)    # never closer than the letters are tall
        n = len(menu.items)
        t_title = max(34 * k, 1.05 * s_title * px)
        t_msg = t_title + max(32 * k, 1.4 * s_msg * px)
        head_h = t_msg + max(30 * k, 1.2 * s_msg * px)
        foot_h = max(52 * k, 2.6 * s_hint * px)
        y_top = h - 24 * k
        y_bot = max(24 * k, y_top - head_h - n * row_h - foot_h)
        cv.rounded_rect(x0, y_bot, x1, y_top, 12 * k, (0.03, 0.04, 0.07, 0.80))
        # title and the line under it
        put("title", menu.title, cx, y_top - t_title, size=s_title, color=NAME, bold=True)
        y = y_top - t_msg
        if menu.message:
            alert = menu.reason == "crash" or getattr(menu, "alert", False)
            col = RED if alert else (255, 200, 90, 255)
            put("message", _fit(menu.message, pw - 40 * k, s_msg), cx, y, size=s_msg, color=col, bold=alert)
        y = y_top - head_h
        cv.rect(x0 + 20 * k, y, x1 - 20 * k, y + 1.5 * k, (1.0, 1.0, 1.0, 0.25))
        # the rows
        foot = y_bot + foot_h - 12 * k
        fit = max(int((y - 8 * k - foot + 1e-6) // row_h), 3)
        sel = menu.selected
        if n <= fit:
            self.top = 0
        else:
            if sel < self.top + 1:
                self.top = max(sel - 1, 0)
            elif sel > self.top + fit - 2:
                self.top = min(sel - fit + 2, n - fit)
        self.rows_shown = min(fit, n)
        name_x = x0 + 44 * k
        detail_x = x0 + max(250 * k, 0.3 * pw)
        yy = y - 8 * k
        self.selected_rect = None
        for r in range(self.top, self.top + self.rows_shown):
            it = menu.items[r]
            yc = yy - row_h / 2
            if it.kind == "heading":
                put(("row", r), it.label.upper(), x0 + 26 * k, yc - 3 * k, size=s_head, color=HEAD, bold=True,
                       anchor_x="left")
                cv.rect(x0 + 26 * k, yc - 0.4 * row_h, x1 - 26 * k, yc - 0.4 * row_h + max(k, 1.0),
                        (0.55, 0.78, 1.0, 0.35))
            else:
                on = r == sel
                if on:
                    rect = (x0 + 18 * k, yc - row_h / 2 + 2 * k, x1 - 18 * k, yc + row_h / 2 - 2 * k)
                    cv.rounded_rect(*rect, 5 * k, AMBER_BAR)
                    self.selected_rect = rect
                # the paint line's scheme names are long: its name takes the row, its hint the right end
                livery = it.kind == "livery"
                name_w = 0.62 * (x1 - 26 * k - name_x) if livery else detail_x - name_x - 10 * k
                put(("row", r), _fit(it.label, name_w, s_name, bold=True), name_x, yc, size=s_name,
                       color=DARK if on else NAME, bold=True, anchor_x="left")
                if it.detail:
                    dx = name_x + name_w + 10 * k if livery else detail_x
                    put(("detail", r), _fit(it.detail, x1 - 26 * k - dx, s_detail), dx, yc,
                           size=s_detail, color=DARK if on else DETAIL, anchor_x="left")
            yy -= row_h
        if self.top > 0:
            put("more_up", "\u25b2", x1 - 36 * k, y - 14 * k, size=s_detail, color=DETAIL)
        if self.top + self.rows_shown < n:
            put("more_down", "\u25bc", x1 - 36 * k, foot + 6 * k, size=s_detail, color=DETAIL)
        put("hint", _fit(HINT, pw - 30 * k, s_hint), cx, y_bot + 0.4 * foot_h, size=s_hint,
               color=DETAIL)
