"""Frames to PNG files: reading a framebuffer's pixels and writing them (stdlib zlib only)."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def write_png(path, rgb: np.ndarray):
    """Write an (h, w, 3) uint8 image, top row first (stdlib zlib only)."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def read_pixels(ctx, fbo) -> np.ndarray:
    w, h = fbo.size
    data = fbo.read(components=3, alignment=1)
    _ = ctx.error       # reading an EGL pbuffer's default framebuffer flags GL_INVALID_OPERATION (the
    #                     pixels are right): clear it, or pyglet's next checked GL call raises it
    return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1]
