"""GL and text plumbing for the 2-D overlays (cockpit panel, HUD, messages).

``ShapeBuffer`` draws a Canvas's triangles (one buffer, one draw call) through the
pixel-space hud shader. ``TextBank`` keeps pyglet labels by key and touches a label
only when its text, position or colour really changes: pyglet re-lays-out text on every
``.text`` assignment, which is far too slow to do for dozens of labels every frame.
"""
from __future__ import annotations

import numpy as np

from .glutil import program, set_uniform
from .glyph_text import GlyphText

SANS = ("DejaVu Sans", "Liberation Sans", "Arial", "sans-serif")
SANS_CONDENSED = ("DejaVu Sans Condensed", "DejaVu Sans", "Liberation Sans Narrow", "Arial Narrow", "sans-serif")
MONO = ("DejaVu Sans Mono", "Liberation Mono", "Courier New", "monospace")


class pixel_projection:
    """While drawing overlays: pyglet text placed in framebuffer pixels.

    pyglet projects text in window coordinates; the overlays lay everything out in the
    target framebuffer's pixels, which differ on a HiDPI screen or in an offscreen target
    of another size. When they differ, the current window's projection is swapped for the
    duration (a uniform-block write) and restored after."""

    def __init__(self, w: int, h: int):
        self.w, self.h = int(w), int(h)
        self.win = None
        self.old = None

    def __enter__(self):
        import pyglet
        cur = pyglet.gl.current_context
        win = next((x for x in list(pyglet.app.windows) if getattr(x, "context", None) is cur), None)
        if win is not None and (win.width, win.height) != (self.w, self.h):
            from pyglet.math import Mat4
            self.win, self.old = win, win.projection
            win.projection = Mat4.orthogonal_projection(0, self.w, 0, self.h, -255, 255)
        return self

    def __exit__(self, *exc):
        if self.win is not None:
            self.win.projection = self.old
        return False


class ShapeBuffer:
    """A vertex buffer of (x, y, r, g, b, a) pixel-space triangles."""

    def __init__(self, ctx, prog=None, reserve_vertices: int = 8192):
        self.ctx = ctx
        self.prog = prog or program(ctx, "hud_vs.glsl", "hud_fs.glsl")
        self.capacity = reserve_vertices
        self.buf = ctx.buffer(reserve=self.capacity * 24, dynamic=True)
        self.vao = ctx.vertex_array(self.prog, [(self.buf, "2f 4f", "in_pos", "in_color")])
        self.count = 0

    def upload(self, verts: np.ndarray) -> None:
        verts = np.ascontiguousarray(verts, dtype="f4")
        n = len(verts)
        if n > self.capacity:
            self.capacity = int(n * 1.5)
            self.buf.orphan(self.capacity * 24)
        else:
            self.buf.orphan(self.capacity * 24)     # a fresh store: never wait on last frame's draw
        if n:
            self.buf.write(verts.tobytes())
        self.count = n

    def draw(self, w: int, h: int, set_blend: bool = True) -> None:
        if self.count == 0:
            return
        ctx = self.ctx
        ctx.enable(ctx.BLEND)
        if set_blend:
            ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        set_uniform(self.prog, "u_screen", (float(w), float(h)))
        self.vao.render(mode=ctx.TRIANGLES, vertices=self.count)


class CachedLayer:
    """Static overlay shapes and text drawn once into a texture; then one quad a frame.

    Software GL pays per vertex and per blended pixel: a panel of 50 000 feathered
    vertices and 80 labels costs ~10 ms a frame on llvmpipe, its cached copy well under
    one. The texture holds premultiplied colour; its alpha is redrawn from the shapes
    alone because pyglet's text blending (SRC_ALPHA for alpha too) would thin it."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.prog = program(ctx, "layer_vs.glsl", "layer_fs.glsl")
        self.vao = ctx.vertex_array(self.prog, [])
        self.tex = None
        self.fbo = None
        self.size = None
        self.rect = (0.0, 0.0, 0.0, 0.0)
        self.opaque_h = 0           # rows from the bottom the layer covers opaquely, full width

    def build(self, w: int, h: int, shapes: ShapeBuffer, texts, rect, target, opaque_h: int = 0) -> None:
        """Draw shapes and texts into the layer; rect is the part draw() shows, and the rows
        below opaque_h (from the window's bottom edge) are opaque across the whole width:
        they are copied without blending, and the scene behind them need not be drawn."""
        ctx = self.ctx
        if self.size != (w, h):
            if self.fbo is not None:
                self.fbo.release()
                self.tex.release()
            self.tex = ctx.texture((w, h), 4)
            self.tex.filter = (ctx.NEAREST, ctx.NEAREST)
            self.fbo = ctx.framebuffer(color_attachments=[self.tex])
            self.size = (w, h)
        premult = (ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA, ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)
        fbo = self.fbo
        fbo.use()
        fbo.viewport = (0, 0, w, h)
        fbo.clear(0.0, 0.0, 0.0, 0.0)
        ctx.disable(ctx.DEPTH_TEST)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = premult
        shapes.draw(w, h, set_blend=False)
        for t in texts:
            t.draw()
        fbo.color_mask = (False, False, False, True)
        fbo.use()
        fbo.clear(0.0, 0.0, 0.0, 0.0)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = premult
        shapes.draw(w, h, set_blend=False)
        fbo.color_mask = (True, True, True, True)
        fbo.use()
        target.use()
        self.rect = tuple(float(v) for v in rect)
        self.opaque_h = int(max(0, min(opaque_h, self.rect[3]))) if self.rect[0] <= 0 and self.rect[2] >= w else 0

    def covered_rows(self, w: int, h: int) -> int:
        """Rows from the bottom that draw() covers opaquely at this window size (0 if the layer
        was built for another size)."""
        return self.opaque_h if self.size == (w, h) else 0

    def draw(self, w: int, h: int) -> None:
        if self.tex is None:
            return
        ctx = self.ctx
        self.tex.use(0)
        set_uniform(self.prog, "u_layer", 0)
        set_uniform(self.prog, "u_screen", (float(w), float(h)))
        x0, y0, x1, y1 = self.rect
        split = self.covered_rows(w, h)
        if split > y0:
            # the opaque rows as a plain copy: llvmpipe blends a pixel at about twice the cost
            ctx.disable(ctx.BLEND)
            set_uniform(self.prog, "u_rect", (x0, y0, x1, float(split)))
            self.vao.render(mode=ctx.TRIANGLE_STRIP, vertices=4)
            y0 = float(split)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA
        if y1 > y0:
            set_uniform(self.prog, "u_rect", (x0, y0, x1, y1))
            self.vao.render(mode=ctx.TRIANGLE_STRIP, vertices=4)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA


def free_batch(batch) -> None:
    """Delete the GL buffers and vertex arrays of a pyglet batch's vertex domains; the batch
    is empty afterwards (usable again: it makes new domains as labels are added)."""
    for domains in batch.group_map.values():
        for domain in domains.values():
            for buf in domain.attrib_name_buffers.values():
                if buf.id is not None:
                    buf.delete()
            index = getattr(domain, "index_buffer", None)
            if index is not None and index.id is not None:
                index.delete()
            if getattr(domain.vao, "_id", None) is not None:
                domain.vao.delete()
    batch.group_map.clear()
    batch.group_children.clear()
    batch.top_groups.clear()
    batch.invalidate()


class TextBank:
    """Text by key, touched only when it changes; untouched keys are hidden at ``end()``.
    A single unturned line (nearly all of them) is drawn from the font's glyph atlas
    (glyph_text.GlyphText: no layout, one draw call); a wrapped or turned one is a pyglet
    label in one batch."""

    def __init__(self):
        import pyglet
        self.pyglet = pyglet
        self.batch = pyglet.graphics.Batch()
        self.labels: dict = {}
        self.state: dict = {}
        self.lines = GlyphText()
        self._used: set = set()

    def begin(self) -> None:
        self._used = set()
        self.lines.begin()

    def put(self, key, text, x, y, size=11.0, color=(240, 240, 240, 255), anchor_x="center", anchor_y="center",
            bold=False, font=SANS, rotation=0.0, multiline_width=None, align="left") -> None:
        self._used.add(key)
        x, y = int(round(x)), int(round(y))
        if (not rotation and (multiline_width or "\n" not in text) and align == "left"
                and self.lines.put(key, text, x, y, size, tuple(color), anchor_x, anchor_y, bold, font,
                                   int(multiline_width) if multiline_width else None)):
            st = self.state.get(key)
            if st is not None and st[4]:         # was a label (wrapped or turned) until now
                self.labels[key].visible = False
                st[4] = False
            return
        lab = self.labels.get(key)
        if lab is None:
            kw = dict(multiline=True, width=int(multiline_width), align=align) if multiline_width else {}
            lab = self.pyglet.text.Label(text, x=x, y=y, font_name=font, font_size=size, anchor_x=anchor_x,
                                         anchor_y=anchor_y, weight="bold" if bold else "normal",
                                         color=tuple(color), batch=self.batch, rotation=rotation, **kw)
            self.labels[key] = lab
            self.state[key] = [text, x, y, tuple(color), True, rotation]
            return
        st = self.state[key]
        if st[0] != text:
            lab.text = text
            st[0] = text
        if st[1] != x or st[2] != y:
            lab.position = (x, y, 0)
            st[1], st[2] = x, y
        if st[3] != tuple(color):
            lab.color = tuple(color)
            st[3] = tuple(color)
        if st[5] != rotation:
            lab.rotation = rotation
            st[5] = rotation
        if not st[4]:
            lab.visible = True
            st[4] = True

    def end(self) -> None:
        for key, lab in self.labels.items():
            st = self.state[key]
            if key not in self._used and st[4]:
                lab.visible = False
                st[4] = False

    def clear(self) -> None:
        for lab in self.labels.values():
            lab.delete()
        self.labels.clear()
        self.state.clear()
        self.lines.clear()

    def release(self) -> int:
        """Delete the labels and lines and give back the batch's GL buffers and vertex arrays
        now. (pyglet frees them only when the batch's reference cycles are collected, and a
        collection on another thread only queues the deletion.) Returns how many there were."""
        n = len(self.labels) + len(self.lines.lines)
        self.clear()
        free_batch(self.batch)
        self.lines.release()
        return n

    def draw(self) -> None:
        """The labels and this frame's lines (those put since the last draw)."""
        self.batch.draw()
        self.lines.draw()

    def shown(self) -> dict:
        """Key -> text of everything shown (put since the last begin())."""
        out = {k: st[0] for k, st in self.state.items() if st[4]}
        out.update((k, self.lines.lines[k][0][0]) for k in self._used if k in self.lines.lines)
        return out

    def size(self, key) -> tuple:
        """(width, height) in pixels of what is shown under key ((0, 0): nothing)."""
        if key in self._used and key in self.lines.lines:
            return tuple(int(v) for v in self.lines.lines[key][2])
        st = self.state.get(key)
        if st is None or not st[4]:
            return 0, 0
        lab = self.labels[key]
        return int(lab.content_width), int(lab.content_height)

    def text(self, key) -> str | None:
        """The text shown under key (None: not shown)."""
        return self.shown().get(key)

    def __len__(self):
        """How many are shown."""
        return len(self.shown())


class PanelView:
    """A 2-D screen drawn in framebuffer pixels over whatever is below (the menu, the start-up
    screen): shapes (a Canvas) and labels (a TextBank) in one pass, scaled by
    ``k = min(h / 720, w / 1280)`` like the HUD. A subclass draws in ``_draw(w, h, k, cv, put, ...)``."""

    def __init__(self, ctx, max_shapes: int):
        self.ctx = ctx
        self.prog = program(ctx, "hud_vs.glsl", "hud_fs.glsl")
        self.shapes = ShapeBuffer(ctx, self.prog, max_shapes)
        self.text = TextBank()

    def _paint(self, fbo, *args) -> None:
        from .canvas import Canvas
        ctx = self.ctx
        w, h = fbo.viewport[2], fbo.viewport[3]
        tb = self.text

        def put(key, text, x, y, size, bold=False, **kw):
            # a pyglet label keeps the font it was made with: the key carries size and weight,
            # so a label that changes style (another menu) or a resized window gets its own
            kw.setdefault("font", SANS)
            tb.put((key, round(size, 2), bool(bold)), text, x, y, size=size, bold=bold, **kw)

        with pixel_projection(w, h):
            ctx.disable(ctx.DEPTH_TEST)
            ctx.enable(ctx.BLEND)
            ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
            cv = Canvas()
            tb.begin()
            self._draw(w, h, min(h / 720.0, w / 1280.0), cv, put, *args)
            tb.end()
            self.shapes.upload(cv.array())
            self.shapes.draw(w, h)
            tb.draw()
            ctx.disable(ctx.BLEND)

    def _draw(self, w, h, k, cv, put, *args) -> None:
        raise NotImplementedError
