"""Fields a glider can land in: the flat, treeless, dry ground the world knows.

A glider pilot low across country picks a field long enough, flat, free of trees and water,
laid out into wind, with a clear approach, and within reach. ``FieldFinder`` does the same
from the terrain's heights and the forest noise the trees are scattered by (scenery.py): it
lays a strip of ``length_m`` on a grid of candidate centres within reach, and keeps those
where the ground along and beside the strip varies less than ``flat_m`` and slopes less than
``slope`` along or across it, no sample is water or forest, and the approach (``approach_m``
before the strip) stays under a 1:``approach_ratio`` line from its threshold. The field
chosen is the one reached with the most height to spare (the glide there at ``glide_ratio``,
the wind along the way counted): an ``AirfieldSpec`` a CircuitPilot can fly its circuit to.

Numpy only; one search takes a few tenths of a second (the pilot asks once).
"""
from __future__ import annotations

import math

import numpy as np

from ..pilots.flying import glide_loss_m
from .scenery import FOREST_THRESHOLD, forest_density, forest_density_at
from .terrain import AirfieldSpec, Terrain


class FieldFinder:
    def __init__(self, terrain: Terrain, length_m=500.0, width_m=40.0, flat_m=5.0, slope=0.02, approach_m=800.0,
                 approach_ratio=10.0, spacing_m=150.0, glide_ratio=22.0, circuit_m=150.0):
        self.terrain = terrain
        self.length_m = length_m
        self.width_m = width_m
        self.flat_m = flat_m
        self.slope = slope
        self.approach_m = approach_m
        self.approach_ratio = approach_ratio
        self.spacing_m = spacing_m
        self.glide_ratio = glide_ratio
        self.circuit_m = circuit_m
        self._forest = None

    def headings(self, wind_ne_ms) -> list[list[float]]:
        """Landing headings to try, rad, in order of preference: into wind (when there is
        one), then those of the eight points with no tailwind, then the rest (a crosswind or even
        downwind landing in a field beats none)."""
        w = np.asarray(wind_ne_ms, dtype=np.float64)
        eight = [k * math.pi / 4.0 for k in range(8)]
        if float(np.hypot(*w)) <= 2.0:
            return [eight]
        no_tail = [hd for hd in eight if math.cos(hd) * w[0] + math.sin(hd) * w[1] <= 0.5]
        return [[math.atan2(-w[1], -w[0])], no_tail, [hd for hd in eight if hd not in no_tail]]

    def candidates(self, pos_ne, reach_m, heading_rad) -> tuple[np.ndarray, np.ndarray]:
        """(centres (n, 2), elevations (n,)) of the strips on the grid within reach that are
        fit to land on along ``heading_rad``."""
        t = self.terrain
        pos = np.asarray(pos_ne, dtype=np.float64)
        g = np.arange(-reach_m, reach_m + 1.0, self.spacing_m)
        cn, ce = np.meshgrid(pos[0] + g, pos[1] + g, indexing="ij")
        keep = np.hypot(cn - pos[0], ce - pos[1]) <= reach_m
        lo, hi = np.array(t.origin_ne_m) + 500.0, np.array(t.origin_ne_m) + np.array(t.size_ne_m) - 500.0
        keep &= (cn > lo[0]) & (cn < hi[0]) & (ce > lo[1]) & (ce < hi[1])
        c = np.column_stack([cn[keep], ce[keep]])
        if len(c) == 0:
            return c, np.zeros(0)
        f = np.array([math.cos(heading_rad), math.sin(heading_rad)])
        r = np.array([-f[1], f[0]])
        L2 = self.length_m / 2
        along = np.arange(-L2, L2 + 1.0, 50.0)
        across = np.array([-self.width_m / 2, 0.0, self.width_m / 2])
        off = (along[:, None, None] * f + across[None, :, None] * r).reshape(-1, 2)
        pts = c[:, None, :] + off[None, :, :]
        h = t.height_at(pts[..., 0], pts[..., 1])
        ok = (h.max(axis=1) - h.min(axis=1) < self.flat_m) & (h.min(axis=1) > t.water_level_m + 1.0)
        # no bank across it (a wingtip on the ground) nor a step along it (the nose or the tail)
        grid = h.reshape(len(c), len(along), len(across))
        ok &= np.abs(grid[:, :, -1] - grid[:, :, 0]).max(axis=1) < self.slope * self.width_m
        ok &= np.abs(np.diff(grid[:, :, 1], axis=1)).max(axis=1) < self.slope * 50.0
        if self._forest is None:
            self._forest = forest_density(t)
        dens = forest_density_at(t, self._forest, pts[..., 0], pts[..., 1])
        ok &= dens.max(axis=1) < FOREST_THRESHOLD - 0.02
        elev = h.mean(axis=1)
        # the approach: clear of the ground under a 1:approach_ratio line from the threshold
        back = np.arange(100.0, self.approach_m + 1.0, 100.0)
        app = c[:, None, :] - (L2 + back)[None, :, None] * f
        ha = t.height_at(app[..., 0], app[..., 1])
        ok &= np.all(ha - elev[:, None] < back[None, :] / self.approach_ratio - 10.0, axis=1)
        return c[ok], elev[ok]

    def __call__(self, pos_ne, altitude_m, wind_ne_ms, reach_m) -> AirfieldSpec | None:
        """The field to land in from here (the most height to spare); none within ``reach_m``,
        the best within twice, then four times it; None when there is none even there."""
        pos = np.asarray(pos_ne, dtype=np.float64)
        w = np.asarray(wind_ne_ms, dtype=np.float64)
        # none within the reach asked: the best a little beyond it beats the hills (each reach
        # searched once: at least 600 m, at most 12 km)
        for reach in sorted({min(max(k * reach_m, 600.0), 12000.0) for k in (1.0, 2.0, 4.0)}):
            found = self._best(pos, altitude_m, w, reach)
            if found is not None:
                return found
        return None

    def _best(self, pos, altitude_m, w, reach) -> AirfieldSpec | None:
        best, best_margin = None, -math.inf
        for choice in self.headings(w):
            for hdg in choice:
                c, elev = self.candidates(pos, reach, hdg)
                if len(c) == 0:
                    continue
                d = c - pos
                dist = np.hypot(d[:, 0], d[:, 1])
                tail = (d @ w) / np.maximum(dist, 1.0)
                # the glide there at about 95 km/h
                margin = altitude_m - elev - glide_loss_m(dist, tail, 26.0, self.glide_ratio) - self.circuit_m
                k = int(np.argmax(margin))
                if margin[k] > best_margin:
                    best, best_margin = (c[k], elev[k], hdg), float(margin[k])
            if best is not None:
                break
        if best is None:
            return None
        (n, e), elev, hdg = best
        return AirfieldSpec(north_m=float(n), east_m=float(e), elevation_m=float(elev),
                            heading_deg=math.degrees(hdg) % 360.0, length_m=self.length_m, width_m=self.width_m)
