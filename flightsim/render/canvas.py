"""Antialiased 2-D shapes as plain coloured triangles (numpy only; no GL here).

Software GL (llvmpipe) has no multisampling to spare, so every shape carries its own
one-pixel feather: a thin strip along each edge whose alpha falls from the shape's to
zero. Edges then look smooth at any angle for the price of a few extra triangles, and a
whole instrument panel is still one vertex buffer and one draw call.

Coordinates are window pixels, origin bottom left (the hud shader's convention); angles
are radians counter-clockwise from +x. Colours are (r, g, b, a) floats in 0..1.
``Canvas.array()`` gives the (n, 6) float32 vertices: x, y, r, g, b, a.
"""
from __future__ import annotations

import math

import numpy as np

FEATHER = 1.0
_STAMPS: dict = {}
_ROUNDED: dict = {}      # rounded_rect's triangles by its arguments


def _rgba(c) -> np.ndarray:
    c = tuple(float(x) for x in c)
    return np.array(c if len(c) == 4 else c + (1.0,), dtype=np.float64)


def _clear(c) -> np.ndarray:
    out = _rgba(c).copy()
    out[3] = 0.0
    return out


class Canvas:
    def __init__(self, feather: float = FEATHER):
        self.f = float(feather)
        self._parts: list[np.ndarray] = []

    def clear(self) -> None:
        self._parts = []

    def __len__(self) -> int:
        return sum(len(p) for p in self._parts)

    def array(self) -> np.ndarray:
        if not self._parts:
            return np.zeros((0, 6), dtype=np.float32)
        return np.concatenate(self._parts).astype(np.float32)

    def extend(self, other: Canvas) -> None:
        self._parts += other._parts

    def add_array(self, verts: np.ndarray) -> None:
        """Append ready-made vertices (n, 6)."""
        if len(verts):
            self._parts.append(np.asarray(verts, dtype=np.float64))

    def stamp(self, key, build, x: float = 0.0, y: float = 0.0, angle: float = 0.0) -> None:
        """A shape built once around the origin by ``build(canvas)`` (cached under ``key``),
        rotated by ``angle`` and moved to (x, y): the cheap way to draw needles, balls and
        handles every frame (one small matrix product instead of rebuilding the geometry)."""
        t = _STAMPS.get(key)
        if t is None:
            c = Canvas(self.f)
            build(c)
            t = _STAMPS[key] = c.array().astype(np.float64)
        if not len(t):
            return
        out = t.copy()
        if angle:
            ca, sa = math.cos(angle), math.sin(angle)
            xy = t[:, :2]
            out[:, 0] = xy[:, 0] * ca - xy[:, 1] * sa
            out[:, 1] = xy[:, 0] * sa + xy[:, 1] * ca
        out[:, 0] += x
        out[:, 1] += y
        self._parts.append(out)

    # ------------------------------------------------------------------ raw triangles
    def _emit(self, xy: np.ndarray, rgba: np.ndarray) -> None:
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        out = np.empty((len(xy), 6))
        out[:, :2] = xy
        out[:, 2:] = rgba            # one colour (4,) or one per vertex (n, 4)
        self._parts.append(out)

    def _quads(self, a, b, c, d, ca, cb, cc, cd) -> None:
        """Quads (a, b, c, d), each argument (n, 2) / (n, 4) or (4,): triangles a-b-c and a-c-d."""
        n = len(a)
        out = np.empty((n, 6, 6))
        for i, (p, col) in enumerate(((a, ca), (b, cb), (c, cc), (a, ca), (c, cc), (d, cd))):
            out[:, i, :2] = p
            out[:, i, 2:] = col
        self._parts.append(out.reshape(-1, 6))

    # ------------------------------------------------------------------ round things
    def sector(self, cx, cy, r0, r1, a0, a1, color, color_out=None, segments=None) -> None:
        """Ring sector between radii r0 < r1 and angles a0..a1 (r0 = 0: a pie slice / disc).

        ``color_out`` shades radially from ``color`` at r0 to it at r1."""
        f = self.f
        ci = _rgba(color)
        co = ci if color_out is None else _rgba(color_out)
        span = a1 - a0
        n = segments or max(6, int(math.ceil(abs(span) * max(r1, 1.0) / 3.0)))
        a = np.linspace(a0, a1, n + 1)
        u = np.stack([np.cos(a), np.sin(a)], axis=1)
        c = np.array([cx, cy], dtype=np.float64)

        def ring(r):
            return c + u * r

        ri = r0 + f / 2 if r0 > 0 else 0.0
        ro = max(r1 - f / 2, ri)
        p_in, p_out = ring(ri), ring(ro)
        self._quads(p_in[:-1], p_out[:-1], p_out[1:], p_in[1:], ci, co, co, ci)
        q = ring(r1 + f / 2)
        self._quads(p_out[:-1], q[:-1], q[1:], p_out[1:], co, _clear(co), _clear(co), co)
        if r0 > 0:
            q = ring(max(r0 - f / 2, 0.0))
            self._quads(q[:-1], p_in[:-1], p_in[1:], q[1:], _clear(ci), ci, ci, _clear(ci))

    def disc(self, cx, cy, r, color, color_edge=None) -> None:
        self.sector(cx, cy, 0.0, r, 0.0, 2 * math.pi, color, color_edge)

    def ring(self, cx, cy, r, width, color) -> None:
        self.sector(cx, cy, r - width / 2, r + width / 2, 0.0, 2 * math.pi, color)

    # ------------------------------------------------------------------ lines
    def lines(self, p0, p1, width, color, caps: bool = True) -> None:
        """Straight segments p0[i] -> p1[i] of ``width`` pixels (one width, or one per segment),
        feathered along both sides (and the ends, with ``caps``; a polyline's inner joints have
        none, so they do not dim)."""
        p0 = np.asarray(p0, dtype=np.float64).reshape(-1, 2)
        p1 = np.asarray(p1, dtype=np.float64).reshape(-1, 2)
        if len(p0) == 0:
            return
        f = self.f
        col = _rgba(color)
        d = p1 - p0
        ln = np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        u = d / ln
        nrm = np.stack([-u[:, 1], u[:, 0]], axis=1)
        if np.ndim(width):             # one width per segment
            width = np.asarray(width, dtype=np.float64).reshape(-1, 1)
            core = np.maximum(width / 2.0 - f / 2, 0.0)
            if np.any(width < f):      # hairlines: coverage as alpha
                col = np.repeat(col[None, :], len(p0), axis=0)
                col[:, 3:] *= np.minimum(width / f, 1.0)
        else:
            core = max(width / 2.0 - f / 2, 0.0)
            if width < f:              # hairline: coverage as alpha
                col = col.copy()
                col[3] *= width / f
        outer = core + f
        clear = col.copy()
        clear[..., 3] = 0.0
        a0, a1 = p0 - u * (f / 2), p1 + u * (f / 2)
        e0, e1 = (p0 + u * (f / 2), p1 - u * (f / 2)) if caps else (p0, p1)
        # the core (body minus the end feathers)
        self._quads(e0 - nrm * core, e1 - nrm * core, e1 + nrm * core, e0 + nrm * core, col, col, col, col)
        # side feathers
        for s in (1.0, -1.0):
            self._quads(e0 + s * nrm * core, e1 + s * nrm * core, e1 + s * nrm * outer, e0 + s * nrm * outer,
                        col, col, clear, clear)
        # end feathers
        for e, a in ((e0, a0), (e1, a1)) if caps else ():
            self._quads(e - nrm * core, e + nrm * core, a + nrm * core, a - nrm * core, col, col, clear, clear)

    def polyline(self, pts, width, color, closed=False) -> None:
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if closed:
            pts = np.concatenate([pts, pts[:1]])
        self.lines(pts[:-1], pts[1:], width, color, caps=False)
        if not closed and len(pts) > 1:        # feather the two free ends only
            f = self.f
            for a, b in ((pts[1], pts[0]), (pts[-2], pts[-1])):
                d = b - a
                u = d / max(float(np.linalg.norm(d)), 1e-9)
                self.lines([b - u * f / 2], [b + u * f / 2], width, color)

    def arc(self, cx, cy, r, a0, a1, width, color) -> None:
        self.sector(cx, cy, r - width / 2, r + width / 2, a0, a1, color)

    # ------------------------------------------------------------------ polygons
    def polygon(self, pts, color, color_edge=None) -> None:
        """Convex polygon (counter-clockwise or clockwise), feathered outline."""
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        n = len(p)
        if n < 3:
            return
        f = self.f
        # orientation: make it counter-clockwise
        area = 0.5 * float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]))
        if area < 0:
            p = p[::-1]
        col = _rgba(color)
        edge = col if color_edge is None else _rgba(color_edge)
        e_next = np.roll(p, -1, axis=0) - p
        e_next /= np.maximum(np.linalg.norm(e_next, axis=1, keepdims=True), 1e-9)
        out_n = np.stack([e_next[:, 1], -e_next[:, 0]], axis=1)       # outward normal of edge i -> i+1
        prev_n = np.roll(out_n, 1, axis=0)
        m = out_n + prev_n
        m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
        cosh = np.maximum(np.sum(m * out_n, axis=1, keepdims=True), 0.5)   # miter, limited to 2x
        inner = p - m * (f / 2) / cosh
        outer = p + m * (f / 2) / cosh
        centre = inner.mean(axis=0)
        # core: a fan from the centroid (convex)
        nxt = np.roll(inner, -1, axis=0)
        cen = np.broadcast_to(centre, inner.shape)
        xy = np.stack([cen, inner, nxt], axis=1).reshape(-1, 2)
        colr = np.stack([np.broadcast_to(col, (n, 4)), np.broadcast_to(edge, (n, 4)),
                         np.broadcast_to(edge, (n, 4))], axis=1).reshape(-1, 4)
        self._emit(xy, colr)
        self._quads(inner, np.roll(inner, -1, axis=0), np.roll(outer, -1, axis=0), outer, edge, edge,
                    _clear(edge), _clear(edge))

    def rect(self, x0, y0, x1, y1, color, color_top=None) -> None:
        if color_top is None:
            # polygon()'s triangles for an axis-aligned rectangle, written out (the general
            # path's dozen numpy calls cost ~0.2 ms per rectangle): the core inset by half the
            # feather, fanned from the centre, and a feather strip outset by half of it
            h = self.f / 2
            x0, x1 = min(x0, x1), max(x0, x1)
            y0, y1 = min(y0, y1), max(y0, y1)
            inner = np.array([[x0 + h, y0 + h], [x1 - h, y0 + h], [x1 - h, y1 - h], [x0 + h, y1 - h]])
            outer = np.array([[x0 - h, y0 - h], [x1 + h, y0 - h], [x1 + h, y1 + h], [x0 - h, y1 + h]])
            col = _rgba(color)
            centre = inner.mean(axis=0)
            nxt = np.roll(inner, -1, axis=0)
            self._emit(np.stack([np.broadcast_to(centre, (4, 2)), inner, nxt], axis=1).reshape(-1, 2), col)
            self._quads(inner, nxt, np.roll(outer, -1, axis=0), outer, col, col, _clear(col), _clear(col))
            return
        # vertical gradient (no feather: used for large backgrounds)
        cb, ct = _rgba(color), _rgba(color_top)
        self._quads(np.array([[x0, y0]]), np.array([[x1, y0]]), np.array([[x1, y1]]), np.array([[x0, y1]]),
                    cb, cb, ct, ct)

    def rounded_rect(self, x0, y0, x1, y1, r, color, segments=4) -> None:
        """A rounded rectangle; the same one asked again (the overlays' panels, every frame) is
        the cached triangles of the first."""
        key = (x0, y0, x1, y1, r, tuple(float(c) for c in _rgba(color)), segments, self.f)
        tris = _ROUNDED.get(key)
        if tris is None:
            c = Canvas(self.f)
            c._rounded_rect(x0, y0, x1, y1, r, color, segments)
            if len(_ROUNDED) > 256:
                _ROUNDED.clear()
            tris = _ROUNDED[key] = np.concatenate(c._parts) if c._parts else np.zeros((0, 6))
        if len(tris):
            self._parts.append(tris)

    def _rounded_rect(self, x0, y0, x1, y1, r, color, segments) -> None:
        r = min(r, (x1 - x0) / 2, (y1 - y0) / 2)
        pts = []
        for cx, cy, a in ((x1 - r, y0 + r, -math.pi / 2), (x1 - r, y1 - r, 0.0), (x0 + r, y1 - r, math.pi / 2),
                          (x0 + r, y0 + r, math.pi)):
            for k in range(segments + 1):
                t = a + (math.pi / 2) * k / segments
                pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        self.polygon(pts, color)

    def strip(self, upper, lower, color_upper, color_lower=None, feather_top=True) -> None:
        """Quads between two polylines of equal length (a curved band); the upper edge feathered."""
        up = np.asarray(upper, dtype=np.float64).reshape(-1, 2)
        lo = np.asarray(lower, dtype=np.float64).reshape(-1, 2)
        cu = _rgba(color_upper)
        cl = cu if color_lower is None else _rgba(color_lower)
        self._quads(lo[:-1], lo[1:], up[1:], up[:-1], cl, cl, cu, cu)
        if feather_top:
            top = up + np.array([0.0, self.f])
            self._quads(up[:-1], up[1:], top[1:], top[:-1], cu, cu, _clear(cu), _clear(cu))

    def triangle(self, p0, p1, p2, color) -> None:
        self.polygon([p0, p1, p2], color)


def dial_angle(frac: float, start_deg: float, sweep_deg: float) -> float:
    """Screen angle (rad, CCW from +x) of a dial position: ``frac`` 0..1 of a clockwise sweep
    that starts ``start_deg`` clockwise from 12 o'clock."""
    return math.radians(90.0 - (start_deg + frac * sweep_deg))


def polar(cx, cy, r, ang) -> tuple[float, float]:
    return cx + r * math.cos(ang), cy + r * math.sin(ang)
