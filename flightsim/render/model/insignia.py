"""National markings as layers of colour over a marking's own plane.

Each function takes points (h, w) in metres from the marking's centre (h toward the
marking's right as one faces it, w up) and its size, and returns the layers to paint, in
order: (rgb, coverage 0..1), anti-aliased over ``aa`` metres. Proportions are the
published standards:

- RAF roundels (Air Ministry Orders; the 1942-47 schemes): type C1 (fuselage sides)
  yellow 36 : blue 32 : white 16 : red 12 (diameters); type C (under the wings) the C1
  without its yellow; type B (upper wings) blue with a red centre of 2/5 the diameter.
  Fin flash C1: 24 in wide, 27 in tall, red 11 : white 2 : blue 11, red forward.
- US star-and-bar (AN-I-9b, 1943-47): a blue disc of radius R with a white five-pointed
  star touching it, white bars R long and R/2 high either side (their top edge level with
  the top of the star's side points), the whole outlined R/8 in insignia blue; from 1947
  (star_and_bar_1947) a red stripe R/6 high through each bar.
- Luftwaffe Balkenkreuz: a black cross whose arms are a fifth of its size wide, with
  white flanks a tenth wide; the 1943-45 outline cross (balkenkreuz_outline) is the flanks
  alone over the camouflage, black centre left out. No swastika is drawn, ever.
"""
from __future__ import annotations

import math

import numpy as np

RAF_RED = (0.72, 0.12, 0.10)
RAF_BLUE = (0.13, 0.16, 0.34)
RAF_YELLOW = (0.92, 0.74, 0.12)
WHITE = (0.93, 0.93, 0.90)
US_BLUE = (0.10, 0.16, 0.33)
US_RED = (0.70, 0.12, 0.14)
BLACK = (0.05, 0.05, 0.05)


def _disc(h, w, r, aa):
    return np.clip((r - np.hypot(h, w)) / aa + 0.5, 0.0, 1.0)


def _rect(h, w, h0, h1, w0, w1, aa):
    ch = np.clip(np.minimum(h - h0, h1 - h) / aa + 0.5, 0.0, 1.0)
    cw = np.clip(np.minimum(w - w0, w1 - w) / aa + 0.5, 0.0, 1.0)
    return ch * cw


def _star(h, w, r, aa):
    """A five-pointed star, one point up, its points on a circle of radius r."""
    ang = np.arctan2(h, w)                       # from up, clockwise
    rad = np.hypot(h, w)
    inner = r * math.sin(math.radians(18)) / math.sin(math.radians(126))   # the regular star's inner radius
    seg = (ang + 2 * np.pi) % (2 * np.pi / 5) - np.pi / 5                  # -36..36 deg within a point
    # the edge of a point: the line from the tip (angle 0, r) to the notch (angle 36 deg, inner)
    tip = np.array([0.0, r])
    notch = np.array([inner * math.sin(math.radians(36)), inner * math.cos(math.radians(36))])
    px = rad * np.sin(np.abs(seg))
    py = rad * np.cos(np.abs(seg))
    e = notch - tip
    n = np.array([e[1], -e[0]]) / np.linalg.norm(e)     # the edge's outward normal (away from the axis)
    d = (px - tip[0]) * n[0] + (py - tip[1]) * n[1]
    return np.clip(-d / aa + 0.5, 0.0, 1.0)


def roundel(kind, h, w, size, aa):
    r = 0.5 * size
    if kind == "roundel_c1":
        rings = ((RAF_YELLOW, 1.0), (RAF_BLUE, 32 / 36), (WHITE, 16 / 36), (RAF_RED, 12 / 36))
    elif kind == "roundel_c":
        rings = ((RAF_BLUE, 1.0), (WHITE, 16 / 32), (RAF_RED, 12 / 32))
    else:                                           # roundel_b
        rings = ((RAF_BLUE, 1.0), (RAF_RED, 0.4))
    return [(c, _disc(h, w, r * f, aa)) for c, f in rings]


def fin_flash(h, w, size, aa, forward_sign):
    """Red forward: forward_sign says which way h points relative to the nose (+1: h is forward)."""
    height = size
    width = size * 24 / 27
    u = h * forward_sign                           # + toward the nose
    half = 0.5 * width
    red = _rect(u, w, half - width * 11 / 24, half, -0.5 * height, 0.5 * height, aa)
    white = _rect(u, w, -half + width * 11 / 24, half - width * 11 / 24, -0.5 * height, 0.5 * height, aa)
    blue = _rect(u, w, -half, -half + width * 11 / 24, -0.5 * height, 0.5 * height, aa)
    return [(RAF_RED, red), (WHITE, white), (RAF_BLUE, blue)]


def star_and_bar(h, w, size, aa, red_stripe=False):
    R = 0.5 * size
    bar_top = R * math.sin(math.radians(18))
    bars = _rect(h, w, -2 * R, 2 * R, bar_top - 0.5 * R, bar_top, aa)
    disc = _disc(h, w, R, aa)
    outline = np.maximum(_rect(h, w, -2 * R - R / 8, 2 * R + R / 8, bar_top - 0.5 * R - R / 8, bar_top + R / 8, aa),
                         _disc(h, w, R + R / 8, aa))
    layers = [(US_BLUE, outline), (WHITE, bars), (US_BLUE, disc), (WHITE, _star(h, w, R, aa) * disc)]
    if red_stripe:
        mid = bar_top - 0.25 * R
        stripe = _rect(h, w, -2 * R, 2 * R, mid - R / 12, mid + R / 12, aa) * (1.0 - _disc(h, w, R, aa))
        layers.append((US_RED, stripe))
    return layers


def balkenkreuz(h, w, size, aa, outline_only=False):
    half = 0.5 * size
    a = 0.1 * size            # half the black arm's width
    b = 0.2 * size            # half the arm's width with its white flanks
    white = np.maximum(_rect(h, w, -half, half, -b, b, aa), _rect(h, w, -b, b, -half, half, aa))
    black = np.maximum(_rect(h, w, -half, half, -a, a, aa), _rect(h, w, -a, a, -half, half, aa))
    if outline_only:
        return [(WHITE, white * (1.0 - black))]
    return [(WHITE, white), (BLACK, black)]


def stab_chevron_circle(h, w, size, aa, forward_sign):
    """A Luftwaffe staff officer's marking: a black chevron pointing forward and a circle behind
    it, both edged white; size is their height."""
    u = h * forward_sign                           # + toward the nose
    half = 0.5 * size
    tip, back, arm = 0.95 * size, 0.55 * size, 0.2 * size     # the point, how far back the arms run, their width
    edge = 0.06 * size
    k = (tip - u) - np.abs(w) * back / half        # 0 along the chevron's front edge, growing aft
    inside_w = np.abs(w) < half
    black = np.clip(np.minimum(k, arm - k) / aa + 0.5, 0.0, 1.0) * inside_w
    white = np.clip(np.minimum(k + edge, arm + edge - k) / aa + 0.5, 0.0, 1.0) * (np.abs(w) < half + edge)
    cu, r = -0.3 * size, 0.32 * size
    return [(WHITE, np.maximum(white, _disc(u - cu, w, r + edge, aa))),
            (BLACK, np.maximum(black, _disc(u - cu, w, r, aa)))]


def layers(kind: str, h, w, size: float, aa: float, forward_sign: float = 1.0):
    """The layers of a marking of this kind (aircraft_data.livery.MARKING_KINDS but text)."""
    if kind.startswith("roundel"):
        return roundel(kind, h, w, size, aa)
    if kind == "fin_flash_c1":
        return fin_flash(h, w, size, aa, forward_sign)
    if kind == "star_and_bar":
        return star_and_bar(h, w, size, aa)
    if kind == "star_and_bar_1947":
        return star_and_bar(h, w, size, aa, red_stripe=True)
    if kind == "balkenkreuz":
        return balkenkreuz(h, w, size, aa)
    if kind == "balkenkreuz_outline":
        return balkenkreuz(h, w, size, aa, outline_only=True)
    if kind == "stab_chevron_circle":
        return stab_chevron_circle(h, w, size, aa, forward_sign)
    raise ValueError(f"no marking {kind!r}")


def extent(kind: str, size: float) -> tuple[float, float]:
    """Half width and half height of the marking's box (m)."""
    if kind.startswith("star_and_bar"):
        return 2.2 * 0.5 * size, 0.65 * size
    if kind == "fin_flash_c1":
        return 0.5 * size * 24 / 27 + 0.01, 0.5 * size + 0.01
    if kind == "stab_chevron_circle":
        return 1.05 * size, 0.6 * size
    return 0.5 * size + 0.01, 0.5 * size + 0.01
