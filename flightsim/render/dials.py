"""Round-instrument building blocks on a Canvas: faces, scales, colour bands, needles.

A ``Dial`` maps a value (in the instrument's display units) to a needle angle through
piecewise-linear breakpoints, so non-linear scales (an airspeed indicator's expanded low
end) are data. Numerals go through a TextBank. numpy + the canvas only: no GL here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .canvas import Canvas, dial_angle

FACE = (0.035, 0.035, 0.04, 1.0)
BEZEL_HI = (0.30, 0.30, 0.32, 1.0)
BEZEL_LO = (0.10, 0.10, 0.11, 1.0)
WHITE = (0.94, 0.94, 0.92, 1.0)
GREY = (0.55, 0.55, 0.55, 1.0)
GREEN = (0.10, 0.72, 0.25, 1.0)
YELLOW = (0.98, 0.80, 0.08, 1.0)
RED = (0.90, 0.10, 0.08, 1.0)
BLUE = (0.20, 0.45, 0.95, 1.0)
ORANGE = (1.0, 0.55, 0.10, 1.0)
ARC_COLOURS = {"green": GREEN, "yellow": YELLOW, "white": WHITE, "red": RED, "blue": BLUE}
TEXT = (238, 238, 232, 255)
TEXT_DIM = (170, 170, 165, 255)


@dataclass
class Dial:
    cx: float
    cy: float
    r: float
    values: tuple          # breakpoints, display units, increasing
    fracs: tuple           # their positions along the sweep, 0..1
    start_deg: float       # where frac 0 sits, clockwise from 12 o'clock
    sweep_deg: float       # clockwise sweep to frac 1

    def frac(self, v: float) -> float:
        return float(np.interp(v, self.values, self.fracs))

    def angle(self, v: float) -> float:
        return dial_angle(self.frac(v), self.start_deg, self.sweep_deg)

    def point(self, v: float, rr: float) -> tuple[float, float]:
        a = self.angle(v)
        return self.cx + rr * self.r * math.cos(a), self.cy + rr * self.r * math.sin(a)

    @classmethod
    def linear(cls, cx, cy, r, vmin, vmax, start_deg, sweep_deg) -> Dial:
        return cls(cx, cy, r, (vmin, vmax), (0.0, 1.0), start_deg, sweep_deg)


def face(cv: Canvas, d: Dial, screws: bool = True) -> None:
    """Bezel, black face and the four mounting screws of a panel instrument."""
    cx, cy, r = d.cx, d.cy, d.r
    if screws:
        s = 1.08 * r
        for dx, dy in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            cv.disc(cx + dx * s * 0.92, cy + dy * s * 0.92, max(0.055 * r, 3.0), (0.20, 0.20, 0.21, 1.0))
            cv.lines([(cx + dx * s * 0.92 - 0.035 * r, cy + dy * s * 0.92)],
                     [(cx + dx * s * 0.92 + 0.035 * r, cy + dy * s * 0.92)], 1.2, (0.06, 0.06, 0.06, 1.0))
    cv.sector(cx, cy, r * 0.985, r * 1.10, 0, 2 * math.pi, BEZEL_LO, BEZEL_HI)
    cv.ring(cx, cy, r * 1.10, 1.2, (0.02, 0.02, 0.02, 1.0))
    cv.disc(cx, cy, r, FACE)


def ticks(cv: Canvas, d: Dial, vals, r_out: float, length: float, width: float, color=WHITE) -> None:
    vals = list(vals)
    if not vals:
        return
    a = np.array([d.angle(v) for v in vals])
    u = np.stack([np.cos(a), np.sin(a)], axis=1)
    c = np.array([d.cx, d.cy])
    cv.lines(c + u * (r_out * d.r), c + u * ((r_out - length) * d.r), width, color)


def band(cv: Canvas, d: Dial, v0: float, v1: float, r_in: float, r_out: float, color) -> None:
    a0, a1 = d.angle(v0), d.angle(v1)
    cv.sector(d.cx, d.cy, r_in * d.r, r_out * d.r, min(a0, a1), max(a0, a1), color)


def radial(cv: Canvas, d: Dial, v: float, r_in: float, r_out: float, width: float, color) -> None:
    cv.lines([d.point(v, r_in)], [d.point(v, r_out)], width, color)


def triangle_mark(cv: Canvas, d: Dial, v: float, r_base: float, r_tip: float, half_width: float, color) -> None:
    a = d.angle(v)
    u = np.array([math.cos(a), math.sin(a)])
    n = np.array([-u[1], u[0]])
    c = np.array([d.cx, d.cy])
    base = c + u * r_base * d.r
    cv.polygon([base + n * half_width, base - n * half_width, c + u * r_tip * d.r], color)


def numerals(bank, key: str, d: Dial, vals, labels, rr: float, size: float, color=TEXT, bold=True,
             font=None) -> None:
    from .overlay import SANS_CONDENSED
    for v, lab in zip(vals, labels):
        x, y = d.point(v, rr)
        bank.put((key, v), lab, x, y, size=size, color=color, bold=bold, font=font or SANS_CONDENSED)


def needle(cv: Canvas, cx: float, cy: float, ang: float, length: float, width: float, tail: float = 0.0,
           color=WHITE, hub: float | None = None) -> None:
    """A tapered pointer from the centre at angle ``ang`` (rad), with a counterweight tail
    (built once per shape, then only rotated and moved)."""
    key = ("needle", round(length, 2), round(width, 2), round(tail, 2), tuple(color))

    def build(c):
        w = width / 2
        c.polygon([(-tail, -w * 0.9), (length * 0.80, -w * 0.55), (length, 0.0), (length * 0.80, w * 0.55),
                   (-tail, w * 0.9)], color)
    cv.stamp(key, build, cx, cy, ang)
    if hub:
        def build_hub(c):
            c.disc(0.0, 0.0, hub, (0.12, 0.12, 0.12, 1.0))
            c.disc(0.0, 0.0, hub * 0.45, (0.55, 0.55, 0.55, 1.0))
        cv.stamp(("hub", round(hub, 2)), build_hub, cx, cy)


def nice_step(span: float, target_count: int) -> float:
    """A 1-2-5 step giving about ``target_count`` intervals over ``span``."""
    raw = span / max(target_count, 1)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def fmt(v: float) -> str:
    """A scale numeral: whole numbers without a point, others shortest (0.6, 1.2, -5; never -0)."""
    if abs(v) < 1e-6:
        return "0"
    return f"{v:.0f}" if abs(v - round(v)) < 1e-6 else f"{v:g}"


def small_gauge(cv: Canvas, bank, key, d: Dial, spec, unit_label: str, title: str, size: float = 0.0) -> None:
    """A 57 mm style engine / G gauge face: colour bands, ticks, a few numerals, the title
    above the hub and the unit below it. Text sizes follow the radius (``size`` caps them)."""
    face(cv, d, screws=False)
    lo, hi = d.values[0], d.values[-1]
    if getattr(spec, "green", None):
        band(cv, d, *spec.green, 0.80, 0.95, GREEN)
    if getattr(spec, "yellow", None):
        band(cv, d, *spec.yellow, 0.80, 0.95, YELLOW)
    if getattr(spec, "red_at", None) is not None:
        radial(cv, d, spec.red_at, 0.70, 0.98, max(2.0, d.r * 0.05), RED)
    step = getattr(spec, "step", None) or nice_step(hi - lo, 20)
    lab = getattr(spec, "label_every", None) or nice_step(hi - lo, 4)
    vals = np.arange(lo, hi + step * 0.01, step)
    major = [v for v in vals if abs(v / lab - round(v / lab)) < 1e-6]
    ticks(cv, d, vals, 0.97, 0.10, max(1.0, d.r / 40))
    ticks(cv, d, major, 0.97, 0.18, max(1.6, d.r / 22))
    pt = 0.75 * 0.25 * d.r              # numerals a quarter of the radius high
    if size:
        pt = min(pt, size)
    numerals(bank, key, d, major, [fmt(v) for v in major], 0.60, pt)
    bank.put((key, "title"), title, d.cx, d.cy + 0.24 * d.r, size=pt * 0.68, color=TEXT_DIM, bold=True)
    if unit_label:
        bank.put((key, "unit"), unit_label, d.cx, d.cy - 0.32 * d.r, size=pt * 0.72, color=TEXT_DIM, bold=False)
