"""The procedural world heightfield (numpy only, deterministic from a seed).

One array serves both ground contact (passed to the kernels as ``terrain`` with the
placement in the env vector) and the renderer: heights in metres above sea level,
rows = north, columns = east, sample [0, 0] at ``origin_ne_m``.

The default world is 40.96 x 40.96 km at 40 m spacing (1024 x 1024 cells): rolling hills from fractal value noise,
a long ridge west of the airfield facing the prevailing westerly, a river valley east
of it that ends in a lake, higher broken hills to the north-east, and the airfield
itself on ground flattened to one elevation near the origin. Lakes are flat in the
heightfield (water level), so the glider that ditches stops on the surface it sees.
"""
from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from .. import cache_root
from ..physics.state import make_env

WATER_LEVEL_M = 240.0
LINE_SAMPLES_MAX = 4096     # a line of sight is judged at most at so many points (80 km at half a 40 m cell)


@dataclass(frozen=True)
class AirfieldSpec:
    """A runway centred at (north, east) on flat ground; heading in degrees true."""
    north_m: float = 0.0
    east_m: float = 0.0
    elevation_m: float = 320.0
    heading_deg: float = 350.0       # runway 35 / 17
    length_m: float = 900.0
    width_m: float = 30.0
    flat_radius_m: float = 900.0     # fully flat out to here (beyond the runway's half length)
    blend_m: float = 700.0           # then blending back into the hills

    @property
    def heading_rad(self) -> float:
        return math.radians(self.heading_deg)

    def axes(self):
        """Unit vectors (north, east) along the runway and to its right."""
        h = self.heading_rad
        return np.array([math.cos(h), math.sin(h)]), np.array([-math.sin(h), math.cos(h)])

    def to_world(self, along_m, right_m):
        f, r = self.axes()
        return (self.north_m + f[0] * along_m + r[0] * right_m, self.east_m + f[1] * along_m + r[1] * right_m)

    def from_world(self, north_m, east_m):
        """(along, right) of a point in the runway's axes (to_world's inverse): along from the
        runway's centre toward its heading, right of the centreline. Works on arrays."""
        f, r = self.axes()
        dn, de = north_m - self.north_m, east_m - self.east_m
        return dn * f[0] + de * f[1], dn * r[0] + de * r[1]


@dataclass
class Terrain:
    heights_m: np.ndarray            # (rows = north, cols = east), float64, C-contiguous
    origin_ne_m: tuple
    spacing_m: float
    water_level_m: float
    seed: int
    airfield: AirfieldSpec = field(default_factory=AirfieldSpec)

    @property
    def shape(self):
        return self.heights_m.shape

    @property
    def size_ne_m(self):
        return ((self.shape[0] - 1) * self.spacing_m, (self.shape[1] - 1) * self.spacing_m)

    def fingerprint(self) -> str:
        """A digest of the heightfield and its placement: what is built from a terrain (its
        scenery, world/scenery.py) is built once per terrain, not once per world on it."""
        h = hashlib.blake2b(np.ascontiguousarray(self.heights_m).tobytes(), digest_size=16)
        h.update(repr((self.origin_ne_m, self.spacing_m, self.water_level_m, self.seed, self.airfield)).encode())
        return h.hexdigest()

    def env(self, **kw) -> np.ndarray:
        """The kernels' env vector with this heightfield's placement."""
        return make_env(terrain_origin_ne_m=self.origin_ne_m, terrain_spacing_m=self.spacing_m, **kw)

    def height_at(self, north_m, east_m):
        """Bilinear height (m ASL), the same interpolation as physics.ground.terrain_height.
        One point (Python or numpy floats) is worked out with Python's floats, the same
        operations in the same order as the arrays' (the same bits), in a tenth of the time:
        scenery placement and the world's tick ask for one point at a time."""
        if isinstance(north_m, (float, int)) and isinstance(east_m, (float, int)):
            h = self.heights_m
            x = (float(north_m) - self.origin_ne_m[0]) / self.spacing_m
            y = (float(east_m) - self.origin_ne_m[1]) / self.spacing_m
            if x == x and y == y:                           # (NaN: the arrays' path says what it does)
                x = min(max(x, 0.0), h.shape[0] - 1.000001)
                y = min(max(y, 0.0), h.shape[1] - 1.000001)
                i = int(x)
                j = int(y)
                fx = x - i
                fy = y - j
                h00, h10 = float(h[i, j]), float(h[i + 1, j])
                h01, h11 = float(h[i, j + 1]), float(h[i + 1, j + 1])
                return (h00 * (1 - fx) + h10 * fx) * (1 - fy) + (h01 * (1 - fx) + h11 * fx) * fy
        n = np.asarray(north_m, dtype=np.float64)
        e = np.asarray(east_m, dtype=np.float64)
        h = self.heights_m
        x = np.clip((n - self.origin_ne_m[0]) / self.spacing_m, 0.0, h.shape[0] - 1.000001)
        y = np.clip((e - self.origin_ne_m[1]) / self.spacing_m, 0.0, h.shape[1] - 1.000001)
        i = x.astype(np.int64)
        j = y.astype(np.int64)
        fx = x - i
        fy = y - j
        out = ((h[i, j] * (1 - fx) + h[i + 1, j] * fx) * (1 - fy) + (h[i, j + 1] * (1 - fx) + h[i + 1, j + 1] * fx) * fy)
        return float(out) if out.ndim == 0 else out

    def slope_at(self, north_m, east_m, d=None):
        d = d or self.spacing_m
        gn = (self.height_at(north_m + d, east_m) - self.height_at(north_m - d, east_m)) / (2 * d)
        ge = (self.height_at(north_m, east_m + d) - self.height_at(north_m, east_m - d)) / (2 * d)
        return np.hypot(gn, ge)

    def is_water(self, north_m, east_m):
        return self.height_at(north_m, east_m) <= self.water_level_m + 0.01

    @cached_property
    def top_m(self) -> float:
        """The highest ground, m above sea level."""
        return float(np.max(self.heights_m))

    def underground(self, pos_ned_m) -> bool:
        """Is a point (NED, m: down is minus the altitude) below the ground? (Not a number: no.)"""
        n, e, d = (float(x) for x in pos_ned_m[:3])
        if not (math.isfinite(n) and math.isfinite(e) and math.isfinite(d)):
            return False
        return -d < self.height_at(n, e)

    def line_clear(self, a_ned_m, b_ned_m) -> bool:
        """Does the straight line between two points (NED, m) pass above the ground all the way?
        A sensor's line of sight, a missile's path over a step. Sampled every half grid spacing
        between the ends (the ends themselves are not judged: an aircraft on the runway sees the sky);
        a line wholly above the highest ground is clear at once."""
        a = np.asarray(a_ned_m, dtype=np.float64)
        b = np.asarray(b_ned_m, dtype=np.float64)
        if -max(float(a[2]), float(b[2])) > self.top_m or not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
            return True                    # (a point that is not a number hides nothing)
        d = b - a
        n = min(max(2, int(math.ceil(math.hypot(float(d[0]), float(d[1])) / (0.5 * self.spacing_m)))), LINE_SAMPLES_MAX)
        s = np.arange(1, n) / n
        pts = a[None, :] + s[:, None] * d[None, :]
        return bool(np.all(-pts[:, 2] > self.height_at(pts[:, 0], pts[:, 1])))


# ---------------------------------------------------------------------------- noise
def _smooth(t):
    return t * t * t * (t * (t * 6 - 15) + 10)


def value_noise(rng: np.random.Generator, n_pts: int, cell: float) -> np.ndarray:
    """A square (n_pts x n_pts) field of smooth value noise with lattice spacing ``cell`` samples, in -1..1."""
    m = int(math.ceil((n_pts - 1) / cell)) + 2
    lat = rng.uniform(-1.0, 1.0, (m, m))
    u = np.arange(n_pts) / cell
    i = u.astype(np.int64)
    f = _smooth(u - i)
    rows = lat[i] * (1 - f)[:, None] + lat[i + 1] * f[:, None]      # (n_pts, m)
    return rows[:, i] * (1 - f)[None, :] + rows[:, i + 1] * f[None, :]


def fbm(rng, n_pts, cell, octaves, gain=0.5, lacunarity=2.0, ridged=False):
    out = np.zeros((n_pts, n_pts))
    amp = 1.0
    total = 0.0
    for _ in range(octaves):
        v = value_noise(rng, n_pts, cell)
        if ridged:
            v = 1.0 - np.abs(v)
            v = v * v
        out += amp * v
        total += amp
        amp *= gain
        cell = max(cell / lacunarity, 1.5)
    return out / total


@lru_cache(maxsize=4)
def generate(seed: int = 7, size_m: float = 40960.0, spacing_m: float = 40.0,
             airfield: AirfieldSpec = AirfieldSpec()) -> Terrain:
    """The default world. Deterministic: the same seed gives the same array, bit for bit.

    The heightfield takes about half a second to make; it is kept on disk (cache_root()/terrain,
    named by a hash of this file and the arguments) and read back in milliseconds on later
    starts. An unreadable cache file is made again."""
    n = int(round(size_m / spacing_m)) + 1
    half = (n - 1) * spacing_m / 2
    origin = (-half, -half)
    digest = hashlib.sha1(Path(__file__).read_bytes() + repr((seed, size_m, spacing_m, airfield)).encode())
    path = cache_root() / "terrain" / f"{digest.hexdigest()[:20]}.npy"
    heights = None
    try:
        heights = np.load(path)
        if heights.shape != (n, n) or heights.dtype != np.float64:
            heights = None
    except (OSError, ValueError):
        pass
    if heights is None:
        heights = heightfield(seed, n, origin, spacing_m, airfield)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                np.save(f, heights)
            os.replace(tmp, path)
        except OSError:             # a read-only home: made afresh each start, never an error
            pass
    return Terrain(heights, origin, spacing_m, WATER_LEVEL_M, seed, airfield)


LAKE_NE_M = (-9000.0, 6500.0)       # the lake the river runs into


def river_centre_e(north_m):
    """East (m) of the river valley's middle at these norths: it meanders north to south
    (world/network.py lays the river along it)."""
    N = np.asarray(north_m, dtype=np.float64)
    return 5200.0 + 900.0 * np.sin(N / 3100.0) + 400.0 * np.sin(N / 1300.0 + 1.0)


def heightfield(seed: int, n: int, origin, spacing_m: float, airfield: AirfieldSpec) -> np.ndarray:
    """The default world's heights (n x n, rows north, columns east, from ``origin``)."""
    rng = np.random.default_rng(seed)
    coords = origin[0] + spacing_m * np.arange(n)
    N = coords[:, None]            # north, per row
    E = coords[None, :]            # east, per column

    base = 330.0
    hills = fbm(rng, n, 9000.0 / spacing_m, 4) * 170.0
    detail = fbm(rng, n, 1200.0 / spacing_m, 4, gain=0.45) * 35.0
    h = base + hills + detail

    # broken high hills to the north-east (ridged noise, faded in with distance)
    peaks = np.clip(fbm(rng, n, 5000.0 / spacing_m, 5, gain=0.55) * 1.6 + 0.35, 0.0, None) ** 1.6
    ne = np.clip(((N - 6000.0) + (E - 6000.0)) / 14000.0, 0.0, 1.0)
    h += ne * ne * peaks * 420.0

    # the ridge: a long escarpment west of the airfield, running NNE, steep face to the west
    ang = math.radians(20.0)
    along = N * math.cos(ang) + (E + 6500.0) * math.sin(ang)
    across = -N * math.sin(ang) + (E + 6500.0) * math.cos(ang)
    crest = 420.0 * (0.8 + 0.2 * value_noise(rng, n, 3000.0 / spacing_m))
    profile = np.where(across < 0, np.exp(-(across / 700.0) ** 2), np.exp(-(across / 1800.0) ** 2))
    extent = 1.0 / (1.0 + np.exp((np.abs(along) - 15000.0) / 1500.0))
    h += crest * profile * extent

    # a river valley east of the airfield, meandering north-south, into a lake in the south-east
    d = np.abs(E - river_centre_e(N))
    valley_depth = 110.0 + 25.0 * value_noise(rng, n, 4000.0 / spacing_m)
    h -= valley_depth * np.exp(-(d / 900.0) ** 2)
    lake_n, lake_e = LAKE_NE_M
    r2 = ((N - lake_n) / 2400.0) ** 2 + ((E - lake_e) / 1500.0) ** 2
    water = WATER_LEVEL_M
    lake = np.exp(-r2 ** 2)
    h = h * (1 - lake) + (water - 25.0) * lake
    # water only in that basin: elsewhere the valley floor stays land above the water level
    h = np.where(r2 < 1.6, h, np.maximum(h, water + 2.0))
    h = np.maximum(h, water)

    # the airfield: flat at its elevation, blended smoothly back into the hills
    a, b = (np.abs(x) for x in airfield.from_world(N, E))
    dist = np.hypot(np.maximum(a - airfield.length_m / 2, 0.0), np.maximum(b - 150.0, 0.0))
    w = np.clip((dist - (airfield.flat_radius_m - airfield.length_m / 2)) / airfield.blend_m, 0.0, 1.0)
    w = _smooth(w)
    h = airfield.elevation_m * (1 - w) + h * w
    return np.ascontiguousarray(h, dtype=np.float64)


def small(seed: int = 7) -> Terrain:
    """A 20 km world at 80 m spacing for fast tests (the ridge and hills, cut to the middle)."""
    return generate(seed, 20480.0, 80.0)
