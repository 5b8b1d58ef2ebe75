"""Text drawn straight from pyglet's glyph atlases (a line, or left-aligned lines that fit
their width), all of a frame's text in one buffer and one draw call per atlas.

A pyglet Label re-lays-out its whole document when its text changes: 1-3 ms a change in
Python, and the HUD changes several readouts every frame (on a GPU that was the largest
part of a frame). Here a line's quads are computed from the font's cached glyphs (their
size, advance and place in the atlas) only when its text, place, colour or style changes,
and placed exactly as a pyglet Label would place the same line (the same anchors, the same
integer pixels), so the two can stand side by side. Lines that wrap or turn stay labels
(overlay.TextBank decides).
"""
from __future__ import annotations

import numpy as np

from .glutil import program, set_uniform

FLOATS = 8                    # x, y, u, v, r, g, b, a


def _font(cache: dict, name, size: float, bold: bool):
    key = (name, float(size), bool(bold))
    f = cache.get(key)
    if f is None:
        import pyglet
        f = cache[key] = pyglet.font.load(name, size, weight="bold" if bold else "normal")
    return f


def line_quads(font, text: str, x: int, y: int, color, anchor_x: str, anchor_y: str, width=None):
    """([(atlas texture, (6 n, 8) float32 vertices)], (width, height) px) of a text (one pair per atlas
    its glyphs lie in, nearly always one), placed as pyglet's Label places it: anchor_x at
    the left, centre or right of its advance width (of ``width`` for a multi-line label),
    anchor_y at its top, baseline or bottom, or at pyglet's centre (of one line: ascent // 2
    - descent // 4 below the top). Lines after the first (``\\n``, with a width: a multi-line
    label) follow at the font's ascent - descent, left-aligned. None where a line is wider
    than ``width``: pyglet would wrap it (the caller keeps a Label for that)."""
    rows = text.split("\n") if width else [text]
    glyph_rows = [font.get_glyphs(r)[0] for r in rows]
    widths = [sum(g.advance for g in gs) for gs in glyph_rows]
    if width and max(widths) > width:
        return None
    box = int(width) if width else widths[0]
    left = {"left": 0, "center": -(box // 2), "right": -box}[anchor_x]
    asc, desc = font.ascent, font.descent
    step = asc - desc
    height = step * len(rows)
    if len(rows) == 1:
        top = {"top": 0, "baseline": asc, "bottom": height, "center": asc // 2 - desc // 4}[anchor_y]
    else:
        top = {"top": 0, "baseline": asc, "bottom": height, "center": height // 2}[anchor_y]
    by_atlas = {}
    for i, glyphs in enumerate(glyph_rows):
        base = y + top - asc - i * step
        pen = x + left
        for g in glyphs:
            q = _QUADS.get(g, _UNSEEN)
            if q is _UNSEEN:
                q = _QUADS[g] = _glyph_quad(g)
            if q is not None:
                by_atlas.setdefault(g.owner, []).append((q, pen, base))
            pen += g.advance
    rgba = np.asarray(color, dtype="f4") / 255.0
    out = []
    for atlas, items in by_atlas.items():
        v = np.empty((len(items), 6, FLOATS), dtype="f4")
        v[:, :, :4] = np.stack([q for q, _, _ in items])
        v[:, :, 0] += np.array([p for _, p, _ in items], dtype="f4")[:, None]
        v[:, :, 1] += np.array([b for _, _, b in items], dtype="f4")[:, None]
        v[:, :, 4:] = rgba
        out.append((atlas, v.reshape(-1, FLOATS)))
    return out, (max(widths), height)


_QUADS: dict = {}            # a glyph's two triangles about its pen position: (6, 4) x, y, u, v (None: blank)
_UNSEEN = object()


def _glyph_quad(g):
    x0, y0, x1, y1 = g.vertices
    if not (x1 > x0 and y1 > y0):
        return None
    t = g.tex_coords
    return np.array(((x0, y0, t[0], t[1]), (x1, y0, t[3], t[4]), (x1, y1, t[6], t[7]),
                     (x0, y0, t[0], t[1]), (x1, y1, t[6], t[7]), (x0, y1, t[9], t[10])), dtype="f4")


class GlyphText:
    """Text by key; ``put`` each frame what to show (a key put twice shows the last), ``draw``
    it (what was not put since the last draw or ``begin`` is not drawn)."""

    def __init__(self):
        self.ctx = None
        self.fonts: dict = {}
        self.lines: dict = {}        # key -> (state, [(atlas, vertices)], (width, height) px)
        self.shown: dict = {}        # key -> [(atlas, vertices)]: this frame's
        self.capacity = 0
        self.buf = self.vao = self.prog = None
        self.textures: dict = {}     # atlas GL name -> moderngl texture over it

    def put(self, key, text, x, y, size, color, anchor_x, anchor_y, bold, font, width=None) -> bool:
        """Show text under key this frame; False (nothing shown) where a line would wrap."""
        state = (text, x, y, color, size, bold, font, anchor_x, anchor_y, width)
        line = self.lines.get(key)
        if line is None or line[0] != state:
            placed = line_quads(_font(self.fonts, font, size, bold), text, x, y, color, anchor_x, anchor_y, width)
            if placed is None:
                self.lines.pop(key, None)
                self.shown.pop(key, None)
                return False
            line = self.lines[key] = (state, *placed)
        self.shown[key] = line[1]
        return True

    def begin(self) -> None:
        self.shown = {}

    def clear(self) -> None:
        """Forget every line (their quads are made again when next put)."""
        self.lines.clear()
        self.shown = {}

    def _gl(self):
        import moderngl
        self.ctx = moderngl.get_context()
        self.prog = program(self.ctx, "glyph_vs.glsl", "glyph_fs.glsl")

    def draw(self) -> None:
        shown, self.shown = [q for quads in self.shown.values() for q in quads], {}
        if not shown:
            return
        if self.ctx is None:
            self._gl()
        ctx = self.ctx
        by_atlas: dict = {}
        for atlas, verts in shown:
            by_atlas.setdefault(atlas, []).append(verts)
        runs = [(atlas, np.concatenate(v)) for atlas, v in by_atlas.items()]
        total = sum(len(v) for _, v in runs)
        if total > self.capacity:
            if self.buf is not None:
                self.vao.release()
                self.buf.release()
            self.capacity = max(4096, 2 * total)
            self.buf = ctx.buffer(reserve=self.capacity * FLOATS * 4, dynamic=True)
            self.vao = ctx.vertex_array(self.prog, [(self.buf, "2f 2f 4f", "in_pos", "in_uv", "in_color")])
        self.buf.orphan(self.capacity * FLOATS * 4)
        self.buf.write(np.concatenate([v for _, v in runs]).tobytes())
        vp = ctx.viewport
        set_uniform(self.prog, "u_screen", (float(vp[2]), float(vp[3])))
        set_uniform(self.prog, "u_glyphs", 0)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        first = 0
        for atlas, v in runs:
            tex = self.textures.get(atlas.id)
            if tex is None:
                tex = self.textures[atlas.id] = ctx.external_texture(atlas.id, (atlas.width, atlas.height), 4, 0, "f1")
            tex.use(0)
            self.vao.render(vertices=len(v), first=first)
            first += len(v)
        ctx.disable(ctx.BLEND)

    def release(self) -> None:
        """Give back the GL buffer and program (the atlases are pyglet's own)."""
        for o in (self.vao, self.buf, self.prog):
            if o is not None:
                o.release()
        self.buf = self.vao = self.prog = self.ctx = None
        self.capacity = 0
        self.textures.clear()
        self.clear()
