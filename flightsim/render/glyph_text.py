"""Single-line text drawn straight from pyglet's glyph atlases, all of a frame's lines in
one buffer and one draw call per atlas.

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


def line_quads(font, text: str, x: int, y: int, color, anchor_x: str, anchor_y: str) -> list:
    """[(atlas texture, (6 n, 8) float32 vertices)] of one line (one pair per atlas its glyphs
    lie in, nearly always one), placed as pyglet's Label places it: anchor_x at the left,
    centre or right of its advance width; anchor_y at its top, baseline or bottom, or at
    pyglet's centre of one line (ascent // 2 - descent // 4 below the top's anchor)."""
    glyphs, _ = font.get_glyphs(text)
    width = sum(g.advance for g in glyphs)
    left = {"left": 0, "center": -(width // 2), "right": -width}[anchor_x]
    asc, desc = font.ascent, font.descent
    top = {"top": 0, "baseline": asc, "bottom": asc - desc, "center": asc // 2 - desc // 4}[anchor_y]
    base = y + top - asc
    rgba = tuple(float(c) / 255.0 for c in color)
    quads: dict = {}
    pen = x + left
    for g in glyphs:
        x0, y0, x1, y1 = g.vertices
        if x1 > x0 and y1 > y0:
            t = g.tex_coords
            a, b, c, d = pen + x0, base + y0, pen + x1, base + y1
            quads.setdefault(g.owner, []).extend((
                (a, b, t[0], t[1], *rgba), (c, b, t[3], t[4], *rgba), (c, d, t[6], t[7], *rgba),
                (a, b, t[0], t[1], *rgba), (c, d, t[6], t[7], *rgba), (a, d, t[9], t[10], *rgba)))
        pen += g.advance
    return [(atlas, np.array(v, dtype="f4")) for atlas, v in quads.items()]


class GlyphText:
    """Lines by key; ``put`` each frame the lines to show, ``draw`` them (the untouched ones
    since the last draw are not drawn)."""

    def __init__(self):
        self.ctx = None
        self.fonts: dict = {}
        self.lines: dict = {}        # key -> (state, [(atlas, vertices)])
        self.shown: list = []
        self.capacity = 0
        self.buf = self.vao = self.prog = None
        self.textures: dict = {}     # atlas GL name -> moderngl texture over it

    def put(self, key, text, x, y, size, color, anchor_x, anchor_y, bold, font) -> None:
        state = (text, x, y, color, size, bold, font, anchor_x, anchor_y)
        line = self.lines.get(key)
        if line is None or line[0] != state:
            quads = line_quads(_font(self.fonts, font, size, bold), text, x, y, color, anchor_x, anchor_y)
            line = self.lines[key] = (state, quads)
        self.shown.extend(line[1])

    def forget(self, key) -> None:
        self.lines.pop(key, None)


    def _gl(self):
        import moderngl
        self.ctx = moderngl.get_context()
        self.prog = program(self.ctx, "glyph_vs.glsl", "glyph_fs.glsl")

    def draw(self) -> None:
        shown, self.shown = self.shown, []
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
        self.lines.clear()
        self.shown = []
