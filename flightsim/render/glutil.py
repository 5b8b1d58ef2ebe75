"""Shader loading (files in shaders/, with #include), uniforms written only when they change, and
the matrices (pyrr's, as numpy arrays for column vectors; written to GL column-major by
``mat_bytes``)."""
from __future__ import annotations

import math
import re
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from pyrr import matrix33, matrix44

SHADER_DIR = Path(__file__).resolve().parents[2] / "shaders"
_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*$', re.M)


def shader_source(name: str) -> str:
    src = (SHADER_DIR / name).read_text()
    return _INCLUDE.sub(lambda m: shader_source(m.group(1)), src)


def program(ctx, vs: str, fs: str, defines: dict | None = None):
    """A program from two shader files; ``defines`` become #define lines after #version (a
    preset's choices made at compile time: software GL runs both sides of every branch, so a
    feature a preset leaves out must not be in its shader at all)."""
    def src(name):
        text = shader_source(name)
        if defines:
            head, _, rest = text.partition("\n")
            text = head + "\n" + "".join(f"#define {k} {int(v) if isinstance(v, bool) else v}\n"
                                          for k, v in defines.items()) + rest
        return text
    return ctx.program(vertex_shader=src(vs), fragment_shader=src(fs))


def set_uniform(prog, name, value):
    """Set a uniform if the program has it (the GLSL compiler drops unused ones). A value equal
    to the one this function last wrote to that uniform is not written again: most of a
    frame's uniforms (the sun, the fog, the sky, a part's colour) are the last frame's, and
    each write is a trip through moderngl's Python. The program's ``extra`` holds, by name,
    the uniform (None: dropped) and its last value, so every uniform is written through here
    (bytes are written as they are: an array uniform such as the parts' matrices)."""
    cache = prog.extra
    if cache is None:
        cache = prog.extra = {}
    slot = cache.get(name)
    if slot is None:
        slot = cache[name] = [prog[name] if name in prog else None, None]
    u = slot[0]
    if u is None:
        return
    if isinstance(value, (bytes, np.ndarray)):
        if isinstance(value, bytes) or value.ndim == 2:
            data = value if isinstance(value, bytes) else mat_bytes(value)
            if data != slot[1]:
                u.write(data)
                slot[1] = data
            return
        value = tuple(value.tolist())
    if slot[1] is None or not _same(slot[1], value):
        u.value = value
        slot[1] = value


def _same(a, b) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except (TypeError, ValueError):
        return False


def set_scene(prog, m_proj, m_view, common=None, model=None):
    """The uniforms every scene program shares: projection, view, the model matrix (where the
    program draws one object) and the frame's common values (sun, fog, sky; Renderer._common)."""
    set_uniform(prog, "m_proj", m_proj)
    set_uniform(prog, "m_view", m_view)
    if model is not None:
        set_uniform(prog, "m_model", model)
    for k, v in (common or {}).items():
        set_uniform(prog, k, v)


@contextmanager
def see_through(ctx, additive: bool = False):
    """What is drawn inside is blended and tested against the scene's depth without writing it
    (glass, smoke, clouds, decals: they hide nothing behind them): alpha blending, or added
    light with ``additive``. Afterwards depth writes are on, blending off and its function alpha."""
    ctx.enable(ctx.BLEND)
    ctx.blend_func = (ctx.SRC_ALPHA, ctx.ONE) if additive else (ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA)
    ctx.depth_mask = False
    try:
        yield
    finally:
        ctx.depth_mask = True
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        ctx.disable(ctx.BLEND)


def mat_bytes(m: np.ndarray) -> bytes:
    return np.ascontiguousarray(np.asarray(m, dtype=np.float32).T).tobytes()


# The matrices below are pyrr's. pyrr builds them for row vectors (v @ M); the renderer multiplies
# column vectors (M @ v, as GLSL does), so each is pyrr's transposed (equal to the hand-written
# formulas they replaced within 2e-15, and bit for bit once made float32 for the GPU).
def perspective(fovy_rad: float, aspect: float, near: float, far: float) -> np.ndarray:
    """OpenGL's perspective projection (clip z -1 at near, +1 at far)."""
    return matrix44.create_perspective_projection(math.degrees(fovy_rad), aspect, near, far, dtype=np.float64).T


def translate(v) -> np.ndarray:
    """The 4x4 translation by v."""
    return matrix44.create_from_translation(np.asarray(v, dtype=np.float64), dtype=np.float64).T


def mat4(r3: np.ndarray, t=(0.0, 0.0, 0.0)) -> np.ndarray:
    """The 4x4 of a 3x3 rotation followed by a translation."""
    m = np.eye(4)
    m[:3, :3] = r3
    m[:3, 3] = t
    return m


def axis_angle(axis, angle: float) -> np.ndarray:
    """The rotation by angle (rad, right-handed) about axis (any length but zero)."""
    a = np.asarray(axis, dtype=np.float64)
    return matrix33.create_from_axis_rotation(a / np.linalg.norm(a), angle, dtype=np.float64).T


def vertex_array(ctx, prog, buffer, layout, index_buffer=None):
    """A vertex array over one interleaved buffer; layout: (format, attribute name) pairs such
    as ("3f", "in_position"). Attributes the program's compiler dropped (unused) are skipped
    as padding, so one buffer serves programs that read less of it."""
    fmt, names = [], []
    for f, name in layout:
        if name in prog:
            fmt.append(f)
            names.append(name)
        else:
            n = int(f[:-1] or 1)
            fmt.append(f"{n * 4}x")
    return ctx.vertex_array(prog, [(buffer, " ".join(fmt), *names)], index_buffer)
