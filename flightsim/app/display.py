"""Getting something to draw on: the game's window, or an offscreen context with no display.

Both need OpenGL 3.3 (moderngl's shaders are GLSL 330). Where there is no display to open a
window on, or the driver offers less than GL 3.3, ``DisplayError`` says so in one line,
with the ways out, instead of pyglet's or moderngl's traceback.
"""
from __future__ import annotations

import os
import sys

GL_REQUIRED = (3, 3)
NO_DISPLAY_HELP = ("run it under a virtual display: xvfb-run -a python3 run.py (apt-get install xvfb), "
                   "or without a window: python3 run.py --headless-telemetry, or python3 run.py --frames 60 "
                   "--screenshot shot.png")


class DisplayError(RuntimeError):
    """No window or no GL 3.3 context can be had here; the message says what to do."""


def _no_display_reason() -> str | None:
    """Why no window can be opened here, when that can be told without trying (Linux / BSD only:
    a window needs an X or Wayland display)."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd")) and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display to open the game window on (DISPLAY is not set)"
    return None


def _cannot_connect(e: Exception) -> str:
    if "NoSuchDisplay" in type(e).__name__:
        return f"cannot connect to the display {os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')!r}"
    return f"cannot open a window ({type(e).__name__}: {e})"


def _import_pyglet_window(headless: bool):
    import pyglet
    if headless:
        pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    try:
        import pyglet.window  # noqa: F401  (never pyglet.input headless: it fails there)
    except Exception as e:       # pyglet's NoSuchDisplayException and its kin, by platform
        raise DisplayError(f"{_cannot_connect(e)}; {NO_DISPLAY_HELP}") from None
    return pyglet


def check_gl(ctx) -> None:
    """Refuse a context older than GL 3.3 (a driver without it, or software GL too old)."""
    major, minor = divmod(int(ctx.version_code), 100)
    minor //= 10
    if (major, minor) < GL_REQUIRED:
        raise DisplayError(f"OpenGL {major}.{minor} found, the game needs {GL_REQUIRED[0]}.{GL_REQUIRED[1]} "
                           f"({ctx.info.get('GL_RENDERER', 'unknown renderer')}); update the graphics driver, "
                           "or run without graphics: python3 run.py --headless-telemetry")


def _window(pyglet, attempts, failed):
    """The first of ``attempts`` (Window keyword sets) that opens; DisplayError if none does.
    pyglet compiles GLSL 3.3 shaders of its own for every window: where that fails (its
    ShaderException, a BaseException), the GL is too old for the game."""
    from pyglet.graphics.shader import ShaderException
    errors = []
    for kw in attempts:
        try:
            return pyglet.window.Window(**kw)
        except (Exception, ShaderException) as e:
            errors.append(e)
    gl = [e for e in errors if isinstance(e, ShaderException) or type(e).__name__ == "ContextException"]
    if gl:        # the display answered; its OpenGL could not make a 3.3 context or run pyglet's shaders
        raise DisplayError(f"no OpenGL {GL_REQUIRED[0]}.{GL_REQUIRED[1]} here ({type(gl[0]).__name__}: "
                           f"{str(gl[0]).strip().splitlines()[0]}); update the graphics driver, or run without "
                           "graphics: python3 run.py --headless-telemetry") from None
    raise DisplayError(failed(errors[-1])) from None


def require_display() -> None:
    """DisplayError at once where it is plain that no window can open (before anything is built)."""
    reason = _no_display_reason()
    if reason:
        raise DisplayError(f"{reason}; {NO_DISPLAY_HELP}")


def open_window(width: int, height: int, caption: str = "flightsim"):
    """The game's window (resizable, vsync) with a GL 3.3 context: (window, moderngl context)."""
    require_display()
    pyglet = _import_pyglet_window(headless=False)
    base = dict(width=width, height=height, caption=caption, resizable=True, vsync=True)
    config = pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)
    win = _window(pyglet, [dict(base, config=config), base], lambda e: f"{_cannot_connect(e)}; {NO_DISPLAY_HELP}")
    return win, _context(win)


def headless_window(width: int, height: int):
    """An invisible offscreen window (EGL, no display needed): its context draws headless."""
    pyglet = _import_pyglet_window(headless=True)
    base = dict(width=width, height=height, visible=False)
    # 8 bits a channel: EGL's default pick can be RGB565, which bands every gradient
    config = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, depth_size=24)
    return _window(pyglet, [dict(base, config=config), base],
                   lambda e: f"no offscreen OpenGL here ({type(e).__name__}: {e}); "
                             "fly without graphics: python3 run.py --headless-telemetry")


def headless_context(width: int, height: int):
    """(offscreen window, moderngl context) for screenshots and benchmarks."""
    win = headless_window(width, height)
    return win, _context(win)


def _context(win):
    import moderngl
    try:
        ctx = moderngl.create_context()
    except Exception as e:
        try:
            win.close()
        except Exception:
            pass
        raise DisplayError(f"no OpenGL {GL_REQUIRED[0]}.{GL_REQUIRED[1]} context ({e}); update the graphics driver, "
                           "or run without graphics: python3 run.py --headless-telemetry") from None
    try:
        check_gl(ctx)
    except DisplayError:
        win.close()
        raise
    return ctx
