"""Terrain level-of-detail selection, compiled: the quadtree walk of TerrainRenderer.select.

The walk visits a few hundred nodes a frame; done with numpy arrays per level it cost
several milliseconds of Python every frame (a sixth of a 60 fps frame on a 2-core
machine). Here it is one small compiled loop with an explicit stack.

Levels are packed into one array: ``lo``/``hi`` hold every level's min/max heights
row-major one after another, ``offsets[l]`` where level l starts and ``shapes[l]`` its
(rows, cols).
"""
import math

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def select_nodes(lo, hi, offsets, shapes, root_cells, grid, origin_n, origin_e, spacing,
                 eye, vp, split_factor, fog_far, out):
    """Fill out[k] = (first row, first column, step, distance) for the nodes to draw;
    returns their number. vp is the 4x4 view-projection (row-major, NED relative to the eye)."""
    n_levels = offsets.shape[0]
    n0r = shapes[0, 0]
    n0c = shapes[0, 1]
    cap = 4096
    stack = np.empty((cap, 3), np.int64)   # level, row, col
    top = 0
    for r in range(-1, n0r + 1):
        for c in range(-1, n0c + 1):
            stack[top, 0] = 0
            stack[top, 1] = r
            stack[top, 2] = c
            top += 1
    count = 0
    while top > 0:
        top -= 1
        lev = stack[top, 0]
        r = stack[top, 1]
        c = stack[top, 2]
        rows = shapes[lev, 0]
        cols = shapes[lev, 1]
        size_cells = root_cells >> lev
        size_m = size_cells * spacing
        inside = 0 <= r < rows and 0 <= c < cols
        rc = min(max(r, 0), rows - 1)
        cc = min(max(c, 0), cols - 1)
        k = offsets[lev] + rc * cols + cc
        zmin = lo[k]
        zmax = hi[k]
        n_lo = origin_n + r * size_m
        e_lo = origin_e + c * size_m
        dn = max(max(n_lo - eye[0], eye[0] - (n_lo + size_m)), 0.0)
        de = max(max(e_lo - eye[1], eye[1] - (e_lo + size_m)), 0.0)
        dz = max(max(-zmax - eye[2], eye[2] + zmin), 0.0)
        dist = math.sqrt(dn * dn + de * de + dz * dz)
        if dist > fog_far:
            continue
        # frustum: all 8 corners outside one clip plane -> culled
        out_lo = np.zeros(3, np.int64)
        out_hi = np.zeros(3, np.int64)
        for i in range(2):
            x = n_lo + i * size_m - eye[0]
            for j in range(2):
                y = e_lo + j * size_m - eye[1]
                for m in range(2):
                    z = (-zmax - 30.0 if m == 0 else -zmin + 30.0) - eye[2]
                    w = vp[3, 0] * x + vp[3, 1] * y + vp[3, 2] * z + vp[3, 3]
                    for a in range(3):
                        v = vp[a, 0] * x + vp[a, 1] * y + vp[a, 2] * z + vp[a, 3]
                        if v > w:
                            out_hi[a] += 1
                        if v < -w:
                            out_lo[a] += 1
        culled = False
        for a in range(3):
            if out_hi[a] == 8 or out_lo[a] == 8:
                culled = True
        if culled:
            continue
        if inside and dist < split_factor * size_m and lev + 1 < n_levels and top + 4 <= cap:
            for i in range(2):
                for j in range(2):
                    stack[top, 0] = lev + 1
                    stack[top, 1] = 2 * r + i
                    stack[top, 2] = 2 * c + j
                    top += 1
            continue
        if count < out.shape[0]:
            out[count, 0] = r * size_cells
            out[count, 1] = c * size_cells
            out[count, 2] = size_cells // grid
            out[count, 3] = dist
            count += 1
    return count


def pack_levels(levels):
    """[(lo, hi), ...] per level -> (lo, hi, offsets, shapes) for select_nodes."""
    offsets = np.zeros(len(levels), np.int64)
    shapes = np.zeros((len(levels), 2), np.int64)
    n = 0
    for i, (lo, _hi) in enumerate(levels):
        offsets[i] = n
        shapes[i] = lo.shape
        n += lo.size
    lo = np.concatenate([np.ascontiguousarray(a, np.float64).ravel() for a, _ in levels])
    hi = np.concatenate([np.ascontiguousarray(b, np.float64).ravel() for _, b in levels])
    return lo, hi, offsets, shapes
