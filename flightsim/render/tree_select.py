"""Which trees a frame draws: the nearest within the preset's range and not behind the eye.

The world has tens of thousands of trees. Measuring every one each frame cost a millisecond
of Python a frame (more than drawing them on a GPU), so the trees are sorted once into
square cells and a frame chooses whole cells: those within range and not behind the eye,
nearest first, until the preset's tree budget is spent. Only the chosen cells' rows are
then copied and moved to the eye's frame.
"""
from __future__ import annotations

import numpy as np

CELL_M = 250.0


class TreeCells:
    """trees: (N, 6) rows of north, east, ground height (up, m), height, crown radius, tint."""

    def __init__(self, trees: np.ndarray, cell_m: float = CELL_M):
        t = np.asarray(trees, dtype=np.float64).reshape(-1, 6)
        if len(t) == 0:
            self.centre = np.zeros((0, 2))
            self.first = self.count = np.zeros(0, dtype=np.int64)
            self.rows = np.zeros((0, 6))
            self.radius_m = 0.0
            return
        ij = np.floor(t[:, :2] / cell_m).astype(np.int64)
        key = (ij[:, 0] - ij[:, 0].min()) * (ij[:, 1].max() - ij[:, 1].min() + 1) + (ij[:, 1] - ij[:, 1].min())
        order = np.argsort(key, kind="stable")
        rows = t[order].copy()
        rows[:, 2] = -rows[:, 2] + 0.5          # NED down of the tree's foot (half a metre into the ground)
        self.rows = rows
        _, self.first, self.count = np.unique(key[order], return_index=True, return_counts=True)
        cells = ij[order][self.first]
        self.centre = (cells + 0.5) * cell_m
        self.radius_m = cell_m * 0.7072         # a cell's half diagonal

    def select(self, eye_ned_m, forward, range_m: float, max_trees: int) -> np.ndarray:
        """(n, 6) float32 instance rows for a frame: north, east, down relative to the eye,
        height, crown radius, tint; nearest cells first, at most max_trees rows."""
        if len(self.centre) == 0:
            return np.zeros((0, 6), dtype="f4")
        eye = np.asarray(eye_ned_m, dtype=np.float64)
        rel = self.centre - eye[:2]
        d = np.sqrt(rel[:, 0] ** 2 + rel[:, 1] ** 2)
        fwd = np.asarray(forward, dtype=np.float64)
        ahead = rel @ fwd[:2] > -30.0 - self.radius_m
        sel = np.nonzero((d - self.radius_m < range_m) & ahead)[0]
        if len(sel) == 0:
            return np.zeros((0, 6), dtype="f4")
        sel = sel[np.argsort(d[sel], kind="stable")]
        counts = self.count[sel]
        total = np.cumsum(counts)
        keep = int(np.searchsorted(total, max_trees, side="right"))
        parts = [self.rows[f:f + c] for f, c in zip(self.first[sel[:keep]], counts[:keep])]
        left = max_trees - (int(total[keep - 1]) if keep else 0)
        if keep < len(sel) and left > 0:       # the first cell that does not fit: its first rows
            f = int(self.first[sel[keep]])
            parts.append(self.rows[f:f + left])
        inst = np.concatenate(parts) if parts else np.zeros((0, 6))
        out = inst.astype("f4")
        out[:, 0] = inst[:, 0] - eye[0]
        out[:, 1] = inst[:, 1] - eye[1]
        out[:, 2] = inst[:, 2] - eye[2]
        return out
