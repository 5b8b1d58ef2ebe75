"""The paint: a livery (aircraft_data.livery) painted into an aircraft's texture atlas, texel by texel,
from each texel's true position and normal on the skin (render/model/skin.py).

Because every texel knows where it is on the aircraft, a scheme is painted the way the
real ones were specified, in plan and side views: the upper and lower colours split by the
surface's facing and, on the sides, by the demarcation line; camouflage patches from a
noise field in body space (continuous across the wing root and the fuselage), splinter
patterns in plan view, mottling down the sides; bands round the fuselage and across the
wings; national markings and codes placed in side or plan view, so a roundel on a
tapering fuselage stays round; panel lines where a real skin has its joints.

The alpha channel carries the finish for the shader: below 0.5 paint (0 matte .. 0.5
glossy), from 0.5 metal (0.5 dull .. 1 polished). The atlas is cached on disk by a hash of
the shape, the livery and this module's version, so it is painted once per machine.
"""
from __future__ import annotations

import hashlib
import math
import zlib
from pathlib import Path

import numpy as np

from ... import cache_root
from . import font, insignia
from .skin import texel_grid
from .surfaces import chord_of_v

PAINT_VERSION = 1
MATTE, SATIN, GLOSS = 0.12, 0.25, 0.45
DULL_METAL, POLISHED = 0.62, 0.92
SOLID = {                         # kind: (rgb, finish)
    "dark": ((0.045, 0.045, 0.05), MATTE),
    "metal": ((0.55, 0.56, 0.58), 0.7),
    "exhaust": ((0.20, 0.14, 0.11), 0.58),
    "nozzle": ((0.42, 0.40, 0.38), 0.68),
    "tyre": ((0.05, 0.05, 0.05), 0.05),
    "pilot": ((0.30, 0.22, 0.14), MATTE),
    "bomb": ((0.30, 0.33, 0.22), MATTE),
    "tank": ((0.66, 0.67, 0.69), 0.75),
    "missile": ((0.78, 0.79, 0.80), SATIN),    # a carried missile's light grey
}
INTERIOR = {                       # cockpit and wheel-well paint, by nation
    "raf": (0.33, 0.37, 0.30),     # RAF interior grey-green
    "usaaf": (0.38, 0.40, 0.22),   # interior green / zinc chromate
    "luftwaffe": (0.30, 0.31, 0.31),   # RLM 66 schwarzgrau
    "usaf": (0.36, 0.38, 0.38),
    "civil": (0.75, 0.75, 0.72),
}
SURFACE_KINDS = ("wing", "htail", "vtail")
BODY_KINDS = ("fuselage", "body", "frame", "door")


# ---------------------------------------------------------------------------- noise
def _hash3(ix, iy, iz, seed):
    h = (ix.astype(np.int64) * 73856093) ^ (iy.astype(np.int64) * 19349663) ^ (iz.astype(np.int64) * 83492791) \
        ^ (seed * 2654435761)
    h = (h ^ (h >> 13)) * 1274126177
    h = h ^ (h >> 16)
    return (h & 0xFFFFFF).astype(np.float64) / float(0xFFFFFF)


def value_noise3(p, seed=0):
    """Smooth value noise in 0..1 at points p (..., 3)."""
    f = np.floor(p)
    t = p - f
    t = t * t * (3 - 2 * t)
    i = f.astype(np.int64)
    out = 0.0
    for dx in (0, 1):
        wx = t[..., 0] if dx else 1 - t[..., 0]
        for dy in (0, 1):
            wy = t[..., 1] if dy else 1 - t[..., 1]
            for dz in (0, 1):
                wz = t[..., 2] if dz else 1 - t[..., 2]
                out = out + wx * wy * wz * _hash3(i[..., 0] + dx, i[..., 1] + dy, i[..., 2] + dz, seed)
    return out


def fbm3(p, seed=0, octaves=3):
    total, amp, norm = 0.0, 1.0, 0.0
    for k in range(octaves):
        total = total + amp * value_noise3(p * (2.0 ** k), seed + 17 * k)
        norm += amp
        amp *= 0.5
    return total / norm


def _smooth(edge, x, width):
    return np.clip((x - edge) / max(width, 1e-9) + 0.5, 0.0, 1.0)


# ---------------------------------------------------------------------------- the scheme
def _upper_weight(livery, P, N, kind):
    """1 where the upper colours go, 0 the lower (soft over a couple of centimetres)."""
    nz = N[..., 2]
    x = P[..., 0]
    dem = livery.demarcation
    zdem = np.interp(-x, -dem[:, 0], dem[:, 1])
    side_rule = _smooth(0.0, zdem - P[..., 2], 0.02)
    if kind in ("wing", "htail"):
        face_rule = _smooth(0.0, -nz, 0.12)
        return face_rule
    facing = np.clip((np.abs(nz) - 0.55) / 0.2, 0.0, 1.0)      # 1 on the top and the belly, 0 on the sides
    face_rule = _smooth(0.0, -nz, 0.1)
    return facing * face_rule + (1 - facing) * side_rule


def _camouflage(livery, P, N, kind, texel_m, field):
    cols = np.asarray(livery.upper, dtype=np.float64)
    base = np.broadcast_to(cols[0], P.shape).copy()
    if len(cols) == 1 or livery.pattern == "none":
        return base
    seed = livery.pattern_seed
    scale = livery.pattern_scale_m
    if livery.pattern == "disruptive":
        n = field.noise(lambda Q: fbm3(Q / scale + seed * 3.7, seed, octaves=3))
        # equal shares for the colours: quantiles of the noise (about 0.5 for two)
        edges = np.linspace(0.0, 1.0, len(cols) + 1)[1:-1]
        qs = 0.5 + (edges - 0.5) * 0.55
        out = base
        for k, q in enumerate(qs):
            w = _smooth(q, n, max(texel_m / scale * 2.0, 0.006))
            out = out + (cols[k + 1] - out) * w[..., None]
        return out
    # mottle: splinter (straight-edged patches) on the plan-view surfaces
    rng = np.random.default_rng(seed)
    parity = np.zeros(P.shape[:-1])
    for _ in range(7):
        ang = rng.uniform(0, np.pi)
        off = rng.uniform(-0.6, 0.6) * scale * 2.5
        d = (P[..., 0] + 3.0) * math.cos(ang) + P[..., 1] * math.sin(ang) - off
        parity = parity + _smooth(0.0, d, texel_m * 1.5)
    frac = 0.5 - 0.5 * np.cos(np.pi * parity)
    return base + (cols[min(1, len(cols) - 1)] - base) * frac[..., None]


def _mottle(livery, P, colour, texel_m, field):
    """Soft spots of the upper colours over the sides, thinning out down to mottle_from_z_m."""
    cols = np.asarray(livery.upper, dtype=np.float64)
    seed = livery.pattern_seed + 101
    s = max(0.35 * livery.pattern_scale_m, 0.05)
    n1 = field.noise(lambda Q: value_noise3(Q / (0.18 * s) + 11.0, seed))
    n2 = field.noise(lambda Q: value_noise3(Q / (0.25 * s) + 5.0, seed + 3))
    top = -1.2
    depth = np.clip((P[..., 2] - top) / max(livery.mottle_from_z_m - top, 0.05), 0.0, 1.0)
    density = 0.55 * (1.0 - depth)
    spot = _smooth(1.0 - density, n1, 0.12)
    pick = (n2 > 0.5)[..., None]
    tint = np.where(pick, cols[0], cols[min(1, len(cols) - 1)])
    return colour + (tint - colour) * spot[..., None]


def _bands(livery, P, N, kind, colour, u, v, meta):
    for b in livery.bands:
        if b.faces == "upper":
            face = _smooth(0.0, -N[..., 2], 0.1)
        elif b.faces == "lower":
            face = _smooth(0.0, N[..., 2], 0.1) if kind in SURFACE_KINDS else _smooth(0.0, P[..., 2] - _widest(P, meta), 0.02)
        else:
            face = 1.0
        lo, hi = min(b.from_m, b.to_m), max(b.from_m, b.to_m)
        if b.on == "fuselage" and kind in ("fuselage", "frame", "body"):
            x = P[..., 0]
            w = _smooth(lo, x, 0.004) * _smooth(-hi, -x, 0.004)
        elif b.on in ("wing", "wing_leading_edge") and kind == "wing":
            y = np.abs(P[..., 1])
            w = _smooth(lo, y, 0.004) * _smooth(-hi, -y, 0.004)
            if b.on == "wing_leading_edge":
                c, _ = chord_of_v(v)
                shape = meta.get("shape")
                if b.depth_m is not None and shape is not None:     # so deep back from the edge
                    chord = shape.chord(np.clip(u, 0.0, 1.0) * shape.span_m)
                    w = w * _smooth(0.0, b.depth_m - c * chord, 0.004)
                else:
                    w = w * _smooth(0.0, 0.07 - c, 0.005)
        elif b.on == "tail" and kind == "htail":
            y = np.abs(P[..., 1])
            w = _smooth(lo, y, 0.004) * _smooth(-hi, -y, 0.004)
        elif b.on == "fin" and kind == "vtail":
            zz = -P[..., 2]
            w = _smooth(lo, zz, 0.004) * _smooth(-hi, -zz, 0.004)
        else:
            continue
        w = w * face
        colour = colour + (np.asarray(b.colour) - colour) * np.asarray(w)[..., None]
    return colour


def _widest(P, meta):
    """z of the widest line of the body under each point (0 where the skin is no loft)."""
    loft = meta.get("loft")
    return np.zeros(P.shape[:-1]) if loft is None else loft.widest(P[..., 0])


def _markings(livery, P, N, kind, colour, texel_m, paint_mask):
    """Markings over the paint; paint_mask (0/1) says where they count as paint, not metal."""
    aa = texel_m * 1.2
    for m in livery.markings:
        if m.on in ("fuselage", "fin"):
            if (m.on == "fuselage" and kind not in ("fuselage", "frame", "door", "body")) or \
                    (m.on == "fin" and kind != "vtail"):
                continue
            ny = N[..., 1]
            left = _smooth(0.0, -ny, 0.15)
            right = _smooth(0.0, ny, 0.15)
            sides = []
            if m.sides in ("left", "both"):
                sides.append((left, -1.0))
            if m.sides in ("right", "both"):
                sides.append((right, 1.0))
            for mask, sgn in sides:
                # facing the side: on the left the nose is on the viewer's left, on the right on his right
                h = (P[..., 0] - m.x_m) * sgn
                w = -(P[..., 2] - m.z_m)
                colour = _paint_mark(m, h, w, aa, mask, colour, paint_mask, forward_sign=sgn)
        else:
            want = "wing" if m.on.startswith("wing") else "htail"
            if kind != want:
                continue
            upper = m.on.endswith("upper")
            face = _smooth(0.0, -N[..., 2] if upper else N[..., 2], 0.1)
            for sgn in ((-1.0,) if m.sides == "left" else (1.0,) if m.sides == "right" else (-1.0, 1.0)):
                mask = face * (np.sign(P[..., 1]) == sgn)
                # plan view: h across the span (outboard to the right seen from above on the right wing),
                # w toward the nose
                h = (np.abs(P[..., 1]) - m.y_m) * (1.0 if upper else -1.0)
                w = P[..., 0] - m.x_m
                colour = _paint_mark(m, h, w, aa, mask, colour, paint_mask, forward_sign=1.0)
    return colour


def _paint_mark(m, h, w, aa, mask, colour, paint_mask, forward_sign):
    """One marking laid over colour (a new array) where it falls; only the block of texels
    round it is touched (a roundel covers a few percent of its skin)."""
    if m.kind == "text":
        scale = font.GLYPH_H / m.size_m
        width = font.text_width(m.text) / scale
        box = (np.abs(h) < 0.5 * width + 0.02) & (np.abs(w) < 0.5 * m.size_m + 0.02) & (mask > 0)
    else:
        eh, ew = insignia.extent(m.kind, m.size_m)
        box = (np.abs(h) < eh) & (np.abs(w) < ew) & (mask > 0)
    if not np.any(box):
        return colour
    rows = np.flatnonzero(box.any(axis=1))
    cols = np.flatnonzero(box.any(axis=0))
    sl = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    inside, sub_mask = box[sl], mask[sl]
    colour = colour.copy()
    block = colour[sl]
    if m.kind == "text":
        gx = (h[box] + 0.5 * width) * scale
        gy = (w[box] + 0.5 * m.size_m) * scale
        layers = [(m.colour, font.coverage(gx, gy, font.segments(m.text), 0.5 * font.STROKE, aa * scale))]
    else:
        layers = insignia.layers(m.kind, h[box], w[box], m.size_m, aa, forward_sign)
    for rgb, cov in layers:
        a = np.zeros(inside.shape)
        a[inside] = cov
        a = a * sub_mask
        paint_mask[sl] = np.maximum(paint_mask[sl], a)
        block += (np.asarray(rgb) - block) * a[..., None]
    return colour


def _panel_lines(P, N, kind, u, v, texel_m, meta):
    """0..1 darkening where the skin has its joints."""
    width = max(0.004, 0.7 * texel_m)
    line = np.zeros(P.shape[:-1])
    if kind in ("fuselage", "body"):
        x = P[..., 0]
        pitch = 0.48
        d = np.abs((x / pitch) - np.round(x / pitch)) * pitch
        line = np.maximum(line, _smooth(0.0, width - d, width))
        z = P[..., 2]
        wz = meta["loft"].widest(x) if "loft" in meta else 0.0
        d2 = np.abs(z - (wz - 0.18))
        line = np.maximum(line, 0.7 * _smooth(0.0, width - d2, width))
    elif kind in SURFACE_KINDS:
        span = np.abs(P[..., 1]) if kind != "vtail" else -P[..., 2]
        pitch = 0.55
        d = np.abs((span / pitch) - np.round(span / pitch)) * pitch
        line = np.maximum(line, 0.8 * _smooth(0.0, width - d, width))
        c, _ = chord_of_v(v)
        shape = meta.get("shape")
        if shape is not None:
            chord = shape.chord(np.clip(u, 0.0, 1.0) * shape.span_m)
            for spar in (0.12, 0.62):
                dd = np.abs(c - spar) * chord
                line = np.maximum(line, 0.8 * _smooth(0.0, width - dd, width))
    return line


# ---------------------------------------------------------------------------- one skin
COARSE = 4          # geometry and noise are smooth: computed every COARSE texels, then interpolated


def _coarse_index(n: int, k: int) -> np.ndarray:
    idx = np.arange(0, n, k)
    return idx if idx[-1] == n - 1 else np.append(idx, n - 1)


def _upsample(c: np.ndarray, ia: np.ndarray, ib: np.ndarray, shape) -> np.ndarray:
    """Bilinear from values c at rows ia and columns ib of a grid back to the whole grid."""
    def axis(n, idx):
        j = np.clip(np.searchsorted(idx, np.arange(n), side="right") - 1, 0, len(idx) - 2) if len(idx) > 1 \
            else np.zeros(n, int)
        if len(idx) == 1:
            return j, j, np.zeros(n)
        w = (np.arange(n) - idx[j]) / (idx[j + 1] - idx[j])
        return j, j + 1, w
    a0, a1, wa = axis(shape[0], ia)
    b0, b1, wb = axis(shape[1], ib)
    extra = (None,) * (c.ndim - 2)
    wa = wa[(slice(None), None) + extra]
    wb = wb[(None, slice(None)) + extra]
    across = c[:, b0] * (1 - wb) + c[:, b1] * wb        # the coarse rows first, then between them
    return across[a0] * (1 - wa) + across[a1] * wa


class _Field:
    """A skin's texels: positions and normals (computed coarse, interpolated), and the smooth
    noise fields the painter asks for, the same way."""

    def __init__(self, skin, U, V):
        self.shape = U.shape
        k = COARSE if min(U.shape) > 4 * COARSE else 1
        self.ia = _coarse_index(U.shape[0], k)
        self.ib = _coarse_index(U.shape[1], k)
        Uc, Vc = U[np.ix_(self.ia, self.ib)], V[np.ix_(self.ia, self.ib)]
        self.Pc = skin.points(Uc, Vc)
        Nc = skin.normals(Uc, Vc)
        self.P = self.up(self.Pc)
        N = self.up(Nc)
        self.N = N / np.maximum(np.linalg.norm(N, axis=-1, keepdims=True), 1e-9)

    def up(self, c):
        if c.shape[:2] == self.shape:
            return c
        return _upsample(c, self.ia, self.ib, self.shape)

    def noise(self, f):
        """f(coarse positions) -> a smooth field, interpolated to every texel."""
        return self.up(f(self.Pc))


def paint_skin(skin, livery, U, V, texel_m: float, frame_colour=None):
    """RGBA (..., 4) for texels at (U, V) of one skin."""
    kind = skin.kind
    out = _unpainted(skin, livery, U, V)
    if out is not None:
        return out
    field = _Field(skin, U, V)
    P, N = field.P, field.N
    out = np.empty(U.shape + (4,))
    if kind in ("spinner", "blade"):
        return _propeller(skin, livery, U, V, out)
    finish = skin.meta.get("finish", "paint")
    if finish in ("dark", "metal"):
        rgb, fin = SOLID[finish]
        out[..., :3] = rgb
        out[..., 3] = fin
        return out
    colour = _scheme(livery, P, N, kind, U.shape, texel_m, field, frame_colour)
    colour = _bands(livery, P, N, kind, colour, U, V, skin.meta)
    paint_mask = np.zeros(U.shape)
    before = colour           # the scheme before its markings (metal: what is bare)
    colour = _markings(livery, P, N, kind, colour, texel_m, paint_mask)
    lines = _panel_lines(P, N, kind, U, V, texel_m, skin.meta)
    grime = field.noise(lambda Q: fbm3(Q * 1.7 + 3.0, 77, octaves=2))
    colour = colour * (0.96 + 0.08 * grime)[..., None] * (1.0 - 0.28 * lines)[..., None]
    out[..., :3] = np.clip(colour, 0.0, 1.0)
    if livery.finish == "metal":
        _metal_finish(out, livery, P, before, paint_mask, lines)
    else:
        out[..., 3] = MATTE if livery.nation != "civil" else GLOSS
    return out


def _unpainted(skin, livery, U, V):
    """The skins in one colour (exhausts with their heat tint, the interior, the glass), or None."""
    kind = skin.kind
    shape = U.shape
    if kind in SOLID:
        rgb, fin = SOLID[kind]
        out = np.empty(shape + (4,))
        out[..., :3] = rgb
        out[..., 3] = fin
        if kind in ("exhaust", "nozzle"):
            P = skin.points(U, V)
            heat = value_noise3(P * 40.0, 5)
            out[..., :3] *= (0.8 + 0.4 * heat)[..., None]
        return out
    if kind in ("interior", "interior_dark"):
        rgb = np.asarray(INTERIOR.get(livery.nation, INTERIOR["civil"]))
        out = np.empty(shape + (4,))
        out[..., :3] = rgb * (0.35 if kind == "interior_dark" else 1.0)
        out[..., 3] = MATTE
        return out
    if kind == "glass":
        out = np.zeros(shape + (4,))
        out[..., :3] = 0.5
        return out
    return None


def _propeller(skin, livery, U, V, out):
    """The spinner (with the 1944 Luftwaffe spiral where the livery has it) and the blades' tips."""
    if skin.kind == "spinner":
        out[..., :3] = livery.spinner
        if livery.spinner_spiral is not None:          # the 1944 Luftwaffe spiral: one turn, tip to base
            band = ((V + 0.85 * U) % 1.0)
            w = _smooth(0.0, 0.16 * (0.25 + 0.75 * U) - band, 0.01)
            out[..., :3] = out[..., :3] + (np.asarray(livery.spinner_spiral) - out[..., :3]) * w[..., None]
        out[..., 3] = SATIN
        return out
    r0, R = skin.meta["r0"], skin.meta["R"]
    r = r0 + (R - r0) * U
    tip = r > R - livery.propeller_tip_m
    out[..., :3] = np.where(tip[..., None], livery.propeller_tip, livery.propeller_blade)
    out[..., 3] = MATTE
    return out


def _scheme(livery, P, N, kind, shape, texel_m, field, frame_colour):
    """The scheme's colours before bands and markings: the lower and upper colours split at the
    demarcation, the camouflage above, a mottle on the sides (and below, fading out)."""
    up = _upper_weight(livery, P, N, "frame" if kind in ("frame", "door") else kind)
    if kind == "door":
        up = np.zeros(shape)
    lower = np.asarray(livery.lower, dtype=np.float64)
    upper_col = _camouflage(livery, P, N, kind, texel_m, field)
    if livery.pattern == "mottle" and kind in ("fuselage", "vtail", "frame", "body"):
        sides = 1.0 - np.clip((np.abs(N[..., 2]) - 0.55) / 0.2, 0.0, 1.0)
        side_col = _mottle(livery, P, lower, texel_m, field)
        upper_col = upper_col + (side_col - upper_col) * sides[..., None]
    colour = lower + (upper_col - lower) * up[..., None]
    if livery.pattern == "mottle" and kind in ("fuselage", "vtail", "body"):
        # the mottle runs below the demarcation too, fading out at mottle_from_z_m
        below = (1 - up) * (1.0 - np.clip((np.abs(N[..., 2]) - 0.55) / 0.2, 0.0, 1.0))
        colour = colour + (_mottle(livery, P, lower, texel_m, field) - colour) * below[..., None]
    if kind == "frame" and frame_colour is not None:
        colour = np.broadcast_to(np.asarray(frame_colour), colour.shape).copy()
    return colour


def _metal_finish(out, livery, P, before, paint_mask, lines) -> None:
    """Bare metal is the lower colour (a natural-metal scheme's aluminium); whatever else was
    painted on it (an anti-glare panel, a coloured nose, olive drab upper surfaces, the
    markings) is paint. Each panel a shade of its own."""
    bare = np.asarray(livery.lower)
    painted = np.clip(np.max(np.abs(before - bare), axis=-1) / 0.06, 0.0, 1.0)
    painted = np.maximum(painted, paint_mask)
    cell = np.floor(P / np.array([0.48, 0.6, 0.6]))
    shade = _hash3(cell[..., 0].astype(np.int64), cell[..., 1].astype(np.int64), cell[..., 2].astype(np.int64), 9)
    out[..., :3] *= (1.0 + 0.035 * (shade - 0.5) * (1 - painted))[..., None]
    out[..., 3] = (DULL_METAL + (POLISHED - DULL_METAL) * shade) * (1 - painted) + SATIN * painted
    out[..., 3] = np.where(lines > 0.5, DULL_METAL * (1 - painted) + SATIN * painted, out[..., 3])


# ---------------------------------------------------------------------------- the atlas
def paint_atlas(model, livery, size_px: int, frame_colour=None) -> np.ndarray:
    """The whole atlas (size_px, size_px, 4) uint8 for one livery."""
    atlas = np.zeros((size_px, size_px, 4), dtype=np.uint8)
    density = None
    for skin in model.skins:
        if skin.rect is None:
            continue
        U, V, ii, jj = texel_grid(skin, size_px)
        if density is None:
            density = skin.rect[2] * size_px / max(skin.size_m[0], 1e-6)
        texel_m = 1.0 / max(density, 1e-6)
        rgba = paint_skin(skin, livery, U, V, texel_m, frame_colour)
        atlas[np.ix_(jj, ii)] = np.clip(np.transpose(rgba, (1, 0, 2)) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return atlas


def shape_digest(aircraft_dir: Path) -> hashlib._Hash:
    """A hash of what an aircraft's model is made from: its data files (the physics' sections,
    visual.toml) and the code that lofts them. A change to either makes a new model and atlas."""
    h = hashlib.sha1()
    d = Path(aircraft_dir)
    for f in sorted(list(d.glob("*.toml")) + list(d.glob("airfoils/*.toml"))):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    from . import exterior, fittings, loft, parts, skin, surfaces
    for mod in (exterior, fittings, loft, parts, skin, surfaces):
        h.update(Path(mod.__file__).read_bytes())
    return h


def cache_key(visual_path: Path, livery, size_px: int, detail: str) -> str:
    h = shape_digest(Path(visual_path).parent)
    h.update(livery.key().encode())
    h.update(f"{PAINT_VERSION}:{size_px}:{detail}".encode())
    for mod in (__file__, font.__file__, insignia.__file__):
        h.update(Path(mod).read_bytes())
    return h.hexdigest()[:20]


def _atlas_file(visual_path: Path, livery, size_px: int, detail: str) -> Path:
    return cache_root() / "paint" / f"{cache_key(visual_path, livery, size_px, detail)}.rgba.z"


def read_cached_atlas(visual_path: Path, livery, size_px: int, detail: str) -> np.ndarray | None:
    """The atlas painted before for this livery (None: not painted on this machine yet, or the
    file is not whole)."""
    try:
        raw = zlib.decompress(_atlas_file(visual_path, livery, size_px, detail).read_bytes())
    except (OSError, zlib.error):
        return None
    arr = np.frombuffer(raw, dtype=np.uint8)
    return arr.reshape(size_px, size_px, 4) if arr.size == size_px * size_px * 4 else None


def cached_atlas(model, livery, visual_path: Path, size_px: int, detail: str, frame_colour=None) -> np.ndarray:
    """The painted atlas from the cache, or painted now (model: with its skins) and cached."""
    atlas = read_cached_atlas(visual_path, livery, size_px, detail)
    if atlas is not None:
        return atlas
    f = _atlas_file(visual_path, livery, size_px, detail)
    folder = f.parent
    atlas = paint_atlas(model, livery, size_px, frame_colour)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = f.with_suffix(".tmp")
        tmp.write_bytes(zlib.compress(atlas.tobytes(), 6))
        tmp.replace(f)
    except OSError:
        pass
    return atlas
