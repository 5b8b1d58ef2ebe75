"""One offscreen GL context for every render test in the process.

moderngl cannot attach to a second headless (EGL) pyglet window in the same process, so
the window and its context are made once here; each test module draws into its own
framebuffer of the size it wants (``offscreen``), never into the window's default one."""
import pytest

_KEEP = []     # the window outlives every test: pyglet labels free GL objects when collected


@pytest.fixture(scope="session")
def gl_session():
    try:
        import moderngl
        import pyglet

        from flightsim.app.display import headless_window
        wins = list(pyglet.app.windows)
        if wins:
            win = wins[0]
            win.switch_to()
            ctx = moderngl.get_context()
        else:
            win = headless_window(320, 180)
            ctx = moderngl.create_context()
    except Exception as e:      # no EGL on this machine
        pytest.skip(f"no offscreen GL: {e}")
    _KEEP.append((win, ctx))
    return win, ctx


def offscreen(ctx, w, h, components=3):
    """A w x h colour + depth framebuffer with its viewport set."""
    fbo = ctx.framebuffer(color_attachments=[ctx.texture((w, h), components)],
                          depth_attachment=ctx.depth_renderbuffer((w, h)))
    fbo.viewport = (0, 0, w, h)
    _KEEP.append(fbo)
    return fbo
