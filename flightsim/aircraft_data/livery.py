"""``liveries.toml``: an aircraft's paint schemes (docs/visual_format.md).

Each ``[[livery]]`` is checked on load (file, key, problem on anything wrong) and its
colour names resolved to 0..1 RGB here, so the painter (render/model/paint.py)
only paints.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .schema import DataError, Field, between, num, positive, read_toml, validate_table

LIVERY_FILE = "liveries.toml"
SIDES = ("allied", "axis")
NATIONS = ("raf", "usaaf", "luftwaffe", "usaf", "civil")
PATTERNS = ("disruptive", "mottle", "none")
BAND_ON = ("fuselage", "wing", "tail", "wing_leading_edge", "fin")
FACES = ("all", "upper", "lower")
MARKING_KINDS = ("roundel_b", "roundel_c", "roundel_c1", "fin_flash_c1", "star_and_bar", "star_and_bar_1947",
                 "balkenkreuz", "balkenkreuz_outline", "stab_chevron_circle", "text")
MARKING_ON = ("fuselage", "fin", "wing_upper", "wing_lower", "tail_upper", "tail_lower")
MARKING_SIDES = ("left", "right", "both")
DEFAULT_PROPELLER = {"blade": [28, 28, 28], "tip": [225, 190, 35], "tip_m": 0.12}

LIVERY_KEYS = {
    "id": Field("str", check=lambda v: None if v.replace("_", "").replace("-", "").isalnum()
                else f"must be letters, digits, '_' and '-', got {v!r}"),
    "name": Field("str"),
    "side": Field("enum", choices=SIDES),
    "nation": Field("enum", choices=NATIONS),
    "sources": Field("strlist", required=False, default=[]),
    "notes": Field("str", required=False, default=""),
    "finish": Field("enum", required=False, default="paint", choices=("paint", "metal")),
    "colours": Field("table"),
    "upper": Field("any"),
    "pattern": Field("enum", required=False, default="none", choices=PATTERNS),
    "pattern_scale_m": num(False, 2.0, between(0.05, 20.0)),
    "pattern_seed": Field("any", required=False, default=1),
    "lower": Field("any"),
    "demarcation": Field("numgrid", required=False, default=None),
    "mottle_from_z_m": num(False, None),
    "spinner": Field("any", required=False, default=None),
    "spinner_spiral": Field("any", required=False, default=None),     # a spiral stripe round the spinner
    "propeller": Field("table", required=False, default=None),
    "band": Field("list", required=False, default=None),
    "marking": Field("list", required=False, default=None),
}
PROPELLER_KEYS = {"blade": Field("any"), "tip": Field("any", required=False, default=None),
                  "tip_m": num(False, 0.0, between(0.0, 1.0))}
BAND_KEYS = {
    "on": Field("enum", choices=BAND_ON),
    "from_m": num(),
    "to_m": num(),
    "colour": Field("any"),
    "faces": Field("enum", required=False, default="all", choices=FACES),
    "depth_m": num(False, None, between(0.01, 2.0)),     # a leading-edge strip's depth back from the edge
}
MARKING_KEYS = {
    "kind": Field("enum", choices=MARKING_KINDS),
    "on": Field("enum", choices=MARKING_ON),
    "x_m": num(),
    "y_m": num(False, 0.0),
    "z_m": num(False, 0.0),
    "size_m": num(check=positive),
    "sides": Field("enum", required=False, default="both", choices=MARKING_SIDES),
    "text": Field("str", required=False, default=None),
    "colour": Field("any", required=False, default=None),
}
FONT_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789- ")


def rgb01(rgb255) -> np.ndarray:
    """An sRGB 0-255 triple as 0..1 (the renderer lights colours as they are displayed, as the
    rest of the scene's)."""
    return np.asarray(rgb255, dtype=np.float64) / 255.0


@dataclass(frozen=True)
class Band:
    on: str
    from_m: float
    to_m: float
    colour: tuple
    faces: str
    depth_m: float | None = None


@dataclass(frozen=True)
class Marking:
    kind: str
    on: str
    x_m: float
    y_m: float
    z_m: float
    size_m: float
    sides: str
    text: str | None = None
    colour: tuple | None = None


@dataclass
class Livery:
    id: str
    name: str
    side: str
    nation: str
    finish: str
    upper: tuple                 # 0..1 RGB rows: the upper colours, the first the base
    lower: tuple
    pattern: str
    pattern_scale_m: float
    pattern_seed: int
    demarcation: np.ndarray      # (n, 2) x, z on the fuselage side, x decreasing
    mottle_from_z_m: float | None
    spinner: tuple
    spinner_spiral: tuple | None
    propeller_blade: tuple
    propeller_tip: tuple
    propeller_tip_m: float
    bands: list = field(default_factory=list)
    markings: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    path: Path | None = None
    colours: dict = field(default_factory=dict)   # name -> 0..1 RGB (every named colour)

    def key(self) -> str:
        """What the painted texture depends on (the cache key's part from the data)."""
        return repr((self.id, self.finish, self.upper, self.lower, self.pattern, self.pattern_scale_m,
                     self.pattern_seed, self.demarcation.round(5).tolist(), self.mottle_from_z_m, self.spinner,
                     self.spinner_spiral,
                     self.propeller_blade, self.propeller_tip, self.propeller_tip_m, self.bands, self.markings))


def _colour(v, names: dict, path: Path, key: str) -> tuple:
    if isinstance(v, str):
        if v not in names:
            raise DataError(path, key, f"unknown colour {v!r} (this livery's colours: {', '.join(sorted(names))})")
        return names[v]
    if isinstance(v, list) and len(v) == 3 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                   and 0 <= x <= 255 for x in v):
        return tuple(float(x) for x in rgb01(v))
    raise DataError(path, key, f"must be a colour name from 'colours' or [r, g, b] (sRGB 0-255), got {v!r}")


def _livery(item, path: Path, where: str) -> Livery:
    d = validate_table(item, LIVERY_KEYS, path, where)
    names = {}
    for name, rgb in d["colours"].items():
        names[name] = _colour(rgb, {}, path, f"{where}.colours.{name}")
    upper = d["upper"] if isinstance(d["upper"], list) and d["upper"] and not all(
        isinstance(x, (int, float)) for x in d["upper"]) else [d["upper"]]
    up = tuple(_colour(c, names, path, f"{where}.upper[{i}]") for i, c in enumerate(upper))
    if len(up) > 4:
        raise DataError(path, f"{where}.upper", f"at most 4 upper colours, got {len(up)}")
    lower = _colour(d["lower"], names, path, f"{where}.lower")
    seed = d["pattern_seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DataError(path, f"{where}.pattern_seed", f"must be a whole number >= 0, got {seed!r}")
    dem = np.array(d["demarcation"] if d["demarcation"] is not None else [[1e3, 0.0], [-1e3, 0.0]], dtype=np.float64)
    if dem.shape[1] != 2 or len(dem) < 2:
        raise DataError(path, f"{where}.demarcation", "must be 2 or more [x, z] points")
    if np.any(np.diff(dem[:, 0]) >= 0):
        raise DataError(path, f"{where}.demarcation", "points run nose to tail (x decreasing)")
    if d["pattern"] == "mottle" and d["mottle_from_z_m"] is None:
        raise DataError(path, f"{where}.mottle_from_z_m", "a mottled scheme says how far down the sides it runs")
    spinner = _colour(d["spinner"], names, path, f"{where}.spinner") if d["spinner"] is not None else up[0]
    prop = validate_table(d["propeller"] if d["propeller"] is not None else DEFAULT_PROPELLER, PROPELLER_KEYS, path,
                          f"{where}.propeller")
    blade = _colour(prop["blade"], names, path, f"{where}.propeller.blade")
    tip = _colour(prop["tip"], names, path, f"{where}.propeller.tip") if prop["tip"] is not None else blade
    bands = []
    for i, b in enumerate(d["band"] or []):
        r = validate_table(b, BAND_KEYS, path, f"{where}.band[{i}]")
        bands.append(Band(r["on"], r["from_m"], r["to_m"], _colour(r["colour"], names, path, f"{where}.band[{i}].colour"),
                          r["faces"], r["depth_m"]))
    marks = []
    for i, m in enumerate(d["marking"] or []):
        w = f"{where}.marking[{i}]"
        r = validate_table(m, MARKING_KEYS, path, w)
        colour = None
        if r["kind"] == "text":
            if not r["text"]:
                raise DataError(path, f"{w}.text", "a text marking needs its text")
            bad = sorted(set(r["text"].upper()) - FONT_CHARS)
            if bad:
                raise DataError(path, f"{w}.text", f"the stencil font has A-Z, 0-9, '-' and ' ', not {''.join(bad)!r}")
            if r["colour"] is None:
                raise DataError(path, f"{w}.colour", "a text marking needs its colour")
        if r["colour"] is not None:
            colour = _colour(r["colour"], names, path, f"{w}.colour")
        marks.append(Marking(r["kind"], r["on"], r["x_m"], r["y_m"], r["z_m"], r["size_m"], r["sides"],
                             r["text"].upper() if r["text"] else None, colour))
    spiral = _colour(d["spinner_spiral"], names, path, f"{where}.spinner_spiral") if d["spinner_spiral"] is not None \
        else None
    return Livery(d["id"], d["name"], d["side"], d["nation"], d["finish"], up, lower, d["pattern"], d["pattern_scale_m"],
                  seed, dem, d["mottle_from_z_m"], spinner, spiral, blade, tip, prop["tip_m"], bands, marks, d["sources"],
                  path, names)


def livery_path(aircraft_toml: Path) -> Path:
    return Path(aircraft_toml).parent / LIVERY_FILE


def load_liveries(path: str | Path) -> list[Livery]:
    """Every [[livery]] of a liveries.toml, checked; ids unique."""
    path = Path(path)
    data = read_toml(path)
    for key in data:
        if key != "livery":
            raise DataError(path, key, "unknown table (allowed: livery)")
    items = data.get("livery")
    if not isinstance(items, list) or not items:
        raise DataError(path, "livery", "missing: at least one [[livery]] is needed")
    out: list = []
    for i, item in enumerate(items):
        label = f"livery[{i}]"
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            label += f" '{item['id']}'"
        lv = _livery(item, path, label)
        if any(o.id == lv.id for o in out):
            raise DataError(path, f"{label}.id", f"duplicate id {lv.id!r}")
        out.append(lv)
    return out


def default_livery(path: Path | None = None) -> Livery:
    """The paint of an aircraft with no liveries.toml: white, orange tips, no markings."""
    white = tuple(float(x) for x in rgb01([238, 238, 232]))
    return Livery("plain", "plain white", "allied", "civil", "paint", (white,), white, "none", 2.0, 1,
                  np.array([[1e3, 0.0], [-1e3, 0.0]]), None, white, None, tuple(rgb01([30, 30, 30])),
                  tuple(rgb01([225, 190, 35])), 0.1, path=path)


def choose(liveries: list[Livery], wanted: str | None = None, side: str | None = None,
           not_side: str | None = None) -> Livery:
    """The livery by id when given and known; else the first on ``side``, or the first not on
    ``not_side`` (the AI's aircraft in a same-type fight); else the first."""
    if wanted is not None:
        for lv in liveries:
            if lv.id == wanted:
                return lv
    if side is not None:
        for lv in liveries:
            if lv.side == side:
                return lv
    if not_side is not None:
        for lv in liveries:
            if lv.side != not_side:
                return lv
    return liveries[0]
