"""Text from the glyph atlas (render/glyph_text.py through overlay.TextBank): placed where a
pyglet Label puts the same text, drawn once per key a frame, measured for panels that fit
round it, and handed back to a Label where it would wrap."""
import numpy as np

from flightsim.render.overlay import MONO, TextBank, pixel_projection
from tests.render.conftest import offscreen


def _draw(ctx, tb, w=320, h=120):
    fbo = offscreen(ctx, w, h)
    fbo.use()
    fbo.clear(0.0, 0.0, 0.0)
    with pixel_projection(w, h):                # as the overlays draw: in the target's pixels
        tb.draw()
    ctx.finish()
    img = np.frombuffer(fbo.read(components=3), np.uint8).reshape(h, w, 3)
    return img.max(axis=-1) > 100          # rows from the bottom


def _box(mask):
    ys, xs = np.nonzero(mask)
    return xs.min(), xs.max(), ys.min(), ys.max()


def test_lines_sit_where_a_label_puts_them(gl_session):
    import pyglet
    _, ctx = gl_session
    tb = TextBank()
    tb.begin()
    tb.put("a", "IAS 253 mph", 160, 60, size=12, font=MONO, anchor_x="center", anchor_y="center")
    tb.end()
    ours = _box(_draw(ctx, tb))
    batch = pyglet.graphics.Batch()
    lab = pyglet.text.Label("IAS 253 mph", x=160, y=60, font_name=MONO, font_size=12, anchor_x="center",
                            anchor_y="center", batch=batch)

    class Labels:
        def draw(self):
            batch.draw()
    theirs = _box(_draw(ctx, Labels()))
    lab.delete()
    assert ours == theirs


def test_a_key_put_twice_is_drawn_once_where_it_was_put_last(gl_session):
    _, ctx = gl_session
    tb = TextBank()
    tb.begin()
    tb.put("t", "DEBRIEF", 0, 0, size=12, anchor_x="left", anchor_y="bottom")      # measured first ...
    tb.end()
    w, h = tb.size("t")
    assert 40 < w < 120 and 10 < h < 30
    tb.put("t", "DEBRIEF", 200, 50, size=12, anchor_x="left", anchor_y="bottom")   # ... then placed
    x0, x1, y0, y1 = _box(_draw(ctx, tb))
    assert x0 >= 199 and y0 >= 49                   # nothing left at the origin
    assert not _draw(ctx, tb).any()                 # drawn once: not again unless put again


def test_multi_line_text_that_would_wrap_stays_a_label(gl_session):
    _, ctx = gl_session
    tb = TextBank()
    tb.begin()
    tb.put("fits", "ALT 1000 m\nVS  +2 m/s", 10, 100, size=10, anchor_x="left", anchor_y="top", multiline_width=200)
    tb.put("wraps", "a line far too long for the narrow width it is given", 10, 50, size=10, anchor_x="left",
           anchor_y="top", multiline_width=60)
    tb.end()
    assert "fits" in tb.lines.lines and "fits" not in tb.labels
    assert "wraps" in tb.labels and "wraps" not in tb.lines.lines
    assert tb.size("fits")[1] > 20                  # two lines' height
    assert set(tb.shown()) == {"fits", "wraps"}
    tb.release()
