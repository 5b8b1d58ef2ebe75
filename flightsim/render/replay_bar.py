"""The replay bar: drawn along the bottom while a recorded flight plays back.

Along the top in the cockpit view, under the status line, where the instrument panel is not.
What it shows, from the ReplayPlayer (flightsim.recording.player; read only): play or
paused, the speed, the time flown of the whole, a track to click or drag (the part the
replay has already been through, where a seek is quick, a shade lighter), whether the
snapshots passed so far matched the recording bit for bit, and the keys.

``track_rect`` is the track in framebuffer pixels (x0, y0, x1, y1, y up) for the window's
mouse; ``fraction_at(x)`` turns a pixel into a place in the flight.
"""
from __future__ import annotations

from .canvas import Canvas
from .overlay import MONO, SANS, ShapeBuffer, TextBank, pixel_projection

AMBER = (0.98, 0.70, 0.18, 1.0)
HINT = "Space play/pause   ←/→ 10 s (Shift 60 s)   ↑/↓ speed   Enter take over"


def clock(seconds: float) -> str:
    s = max(0.0, seconds)
    h, rest = divmod(int(s), 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def speed_text(speed: float) -> str:
    return f"x{speed:g}"


def status_text(player) -> str:
    if player.seeking_to is not None:
        return "SEEKING"
    if player.at_end:
        return "END"
    return f"PLAY {speed_text(player.speed)}" if player.playing else "PAUSED"


def check_text(player) -> tuple[str, tuple]:
    """Bit-exactness so far: green while every snapshot passed matched, red from a difference."""
    if player.mismatch is not None:
        return f"differs from the recording at {player.mismatch * player.rec.dt_s:.1f} s", (255, 95, 75, 255)
    n = len(player.rec.snapshots)
    return f"bit-exact {player.verified}/{n} snapshots", (120, 230, 120, 255)


class ReplayBar:
    def __init__(self, ctx):
        self.ctx = ctx
        self.shapes = ShapeBuffer(ctx, reserve_vertices=512)
        self.text = TextBank()
        self.track_rect = (0.0, 0.0, 0.0, 0.0)

    def fraction_at(self, x: float) -> float:
        x0, _, x1, _ = self.track_rect
        return 0.0 if x1 <= x0 else min(max((x - x0) / (x1 - x0), 0.0), 1.0)

    def hit(self, x: float, y: float, slack: float = 10.0) -> bool:
        x0, y0, x1, y1 = self.track_rect
        return x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack

    def draw(self, fbo, player, title: str, at_top: bool = False) -> None:
        """``at_top``: under the status line (the cockpit view, whose panel fills the bottom)."""
        w, h = fbo.viewport[2], fbo.viewport[3]
        k = min(h / 720.0, w / 1280.0)
        size = max(8.0, 12.0 * k)
        pw = min(w - 24 * k, 760 * k)           # between the HUD's corner readouts
        x0, x1 = (w - pw) / 2, (w + pw) / 2
        y0 = h - 40 * k - 74 * k if at_top else 14 * k
        y1 = y0 + 74 * k
        pad = 14 * k
        tx0, tx1 = x0 + pad, x1 - pad
        ty0, ty1 = y0 + 28 * k, y0 + 36 * k
        self.track_rect = (tx0, ty0, tx1, ty1)
        total = max(player.steps, 1)
        at = (player.seeking_to if player.seeking_to is not None else player.step) / total
        done = player.step / total
        known = player.furthest / total
        cv = Canvas()
        cv.rounded_rect(x0, y0, x1, y1, 8 * k, (0.02, 0.04, 0.08, 0.78))
        cv.rect(tx0, ty0, tx1, ty1, (1.0, 1.0, 1.0, 0.18))
        cv.rect(tx0, ty0, tx0 + (tx1 - tx0) * min(known, 1.0), ty1, (1.0, 1.0, 1.0, 0.30))
        cv.rect(tx0, ty0, tx0 + (tx1 - tx0) * done, ty1, AMBER)
        kx = tx0 + (tx1 - tx0) * at
        cv.rect(kx - 3 * k, ty0 - 6 * k, kx + 3 * k, ty1 + 6 * k, (1.0, 1.0, 1.0, 0.95))
        check, check_col = check_text(player)
        ctx = self.ctx
        with pixel_projection(w, h):
            ctx.disable(ctx.DEPTH_TEST)
            tb = self.text
            tb.begin()
            top = y1 - 8 * k
            tb.put("status", f"REPLAY  {status_text(player)}", tx0, top, size=size, color=(255, 200, 90, 255),
                   anchor_x="left", anchor_y="top", bold=True, font=MONO)
            tb.put("title", title, (x0 + x1) / 2, top, size=size * 0.95, color=(235, 240, 245, 255), anchor_y="top",
                   font=SANS)
            tb.put("time", f"{clock(player.time_s)} / {clock(player.length_s)}", tx1, top, size=size,
                   color=(250, 250, 250, 255), anchor_x="right", anchor_y="top", font=MONO)
            tb.put("check", check, tx0, y0 + 8 * k, size=size * 0.8, color=check_col, anchor_x="left",
                   anchor_y="bottom", font=SANS)
            tb.put("hint", HINT, tx1, y0 + 8 * k, size=size * 0.75, color=(185, 192, 205, 255), anchor_x="right",
                   anchor_y="bottom", font=SANS)
            tb.end()
            self.shapes.upload(cv.array())
            self.shapes.draw(w, h)
            tb.draw()
            ctx.disable(ctx.BLEND)
