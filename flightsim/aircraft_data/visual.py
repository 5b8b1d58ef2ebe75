"""``visual.toml``: how an aircraft is shaped for the eye (docs/visual_format.md).

Validated like every data file: a bad value is refused with the file, the key and the
problem. Nothing here is drawn; flightsim/render/model/ lofts the skins from it. An
aircraft without the file is drawn from its physics sections (render/aircraft_mesh.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .schema import DataError, Field, between, non_negative, num, positive, read_toml, validate_table

VISUAL_FILE = "visual.toml"
GROUPS = ("wing", "htail", "vtail")
SIGHTS = ("gm2", "k14", "revi16b", "hud", "none")
FINISHES = ("paint", "metal", "dark", "glass")
EXHAUST_KINDS = ("stub", "pipe", "nozzle")


def _rgb(v):
    if isinstance(v, str) and v == "paint":
        return None
    if not isinstance(v, list) or len(v) != 3 or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                         and 0 <= x <= 255 for x in v):
        return f"must be \"paint\" or an sRGB colour [r, g, b] (0-255), got {v!r}"
    return None


def _pair(lo, hi):
    def check(v):
        if len(v) != 2:
            return f"must be two numbers (root, tip), got {len(v)}"
        bad = [x for x in v if not lo <= x <= hi]
        return f"values must lie between {lo} and {hi}, got {bad[0]}" if bad else None
    return check


HEAD_KEYS = {
    "sources": Field("strlist"),
    "notes": Field("str", required=False, default=""),
    "length_m": num(check=positive),
    "span_m": num(check=positive),
    "height_m": num(check=positive),
    "height_attitude": Field("enum", required=False, default="level", choices=("three_point", "level")),
    # false where height_m is the shape's own (no published figure fits a stated attitude): not a check
    "height_published": Field("bool", required=False, default=True),
}
STATION_KEYS = {
    "x_m": num(),
    "top_m": num(),
    "bottom_m": num(),
    "half_width_m": num(check=non_negative),
    "widest_m": num(False, None),
    "n_top": num(False, 2.0, between(1.0, 12.0)),
    "n_bottom": num(False, 2.0, between(1.0, 12.0)),
}
CANOPY_STATION_KEYS = {
    "x_m": num(),
    "top_m": num(),
    "sill_m": num(),
    "half_width_m": num(check=non_negative),
    "n": num(False, 2.0, between(1.0, 12.0)),
}
FUSELAGE_KEYS = {"stations": Field("list")}
BODY_KEYS = {
    "name": Field("str"),
    "y_m": num(False, 0.0),
    "mirror": Field("bool", required=False, default=False),
    "stations": Field("list"),
    "mouth": Field("bool", required=False, default=False),
    "exit": Field("bool", required=False, default=False),
    "finish": Field("enum", required=False, default="paint", choices=FINISHES),
}
SPINNER_KEYS = {
    "tip_x_m": num(),
    "base_x_m": num(),
    "radius_m": num(check=positive),
    "z_m": num(False, 0.0),
}
PROPELLER_KEYS = {
    "blade_root_chord_m": num(check=positive),
    "blade_max_chord_m": num(check=positive),
    "blade_tip_chord_m": num(check=positive),
    "tip": Field("enum", required=False, default="round", choices=("round", "square")),
}
CANOPY_KEYS = {
    "stations": Field("list"),
    "windscreen": Field("numlist", required=False, default=None),
    "frames_x_m": Field("numlist", required=False, default=None),
    "centre_bar": Field("bool", required=False, default=False),
    "side_bars": Field("list", required=False, default=None),
    "armour_glass": Field("bool", required=False, default=False),
    "frame_colour": Field("any", required=False, default="paint", check=_rgb),
}
SURFACE_KEYS = {
    "name": Field("str"),
    "group": Field("enum", choices=GROUPS),
    "mirror": Field("bool", required=False, default=False),
    "root_yz_m": Field("numlist", check=lambda v: None if len(v) == 2 else f"must be [y, z], got {len(v)} numbers"),
    "dihedral_deg": num(False, 0.0, between(-90.0, 180.0)),
    "thickness": Field("numlist", check=_pair(0.02, 0.4)),
    "camber": num(False, 0.0, between(0.0, 0.1)),
    "incidence_deg": Field("numlist", required=False, default=[0.0, 0.0], check=_pair(-15.0, 15.0)),
    "planform": Field("numgrid"),
    "control": Field("list", required=False, default=None),
    "airbrake": Field("list", required=False, default=None),
}
CONTROL_KEYS = {
    "control": Field("str"),
    "from_m": num(check=non_negative),
    "to_m": num(check=positive),
    "chord_fraction": num(check=between(0.05, 1.0)),      # 1: all-moving (it turns about pivot_x_m)
    "pivot_x_m": num(False, None),
    "kind": Field("enum", required=False, default="plain", choices=("plain", "split")),
}
AIRBRAKE_KEYS = {
    "from_m": num(check=non_negative),
    "to_m": num(check=positive),
    "chord_at": num(check=between(0.1, 0.9)),
    "height_m": num(check=positive),
    "faces": Field("enum", required=False, default="both", choices=("upper", "lower", "both")),
}
EXHAUST_KEYS = {
    "x_m": Field("numlist"),
    "y_m": num(False, 0.0),
    "z_m": num(False, 0.0),
    "mirror": Field("bool", required=False, default=False),
    "length_m": num(check=positive),
    "radius_m": num(check=positive),
    "kind": Field("enum", required=False, default="stub", choices=EXHAUST_KINDS),
}
BARREL_KEYS = {
    "x_m": num(),
    "y_m": num(False, 0.0),
    "z_m": num(False, 0.0),
    "length_m": num(check=positive),
    "radius_m": num(check=positive),
    "mirror": Field("bool", required=False, default=False),
}
STRUT_KEYS = {
    "from_m": Field("vec3"),
    "to_m": Field("vec3"),
    "radius_m": num(check=positive),
    "mirror": Field("bool", required=False, default=False),
}
GEAR_KEYS = {"leg": Field("list")}
LEG_KEYS = {
    "name": Field("str"),
    "hinge": Field("vec3"),
    "retract_axis": Field("vec3", required=False, default=(1.0, 0.0, 0.0)),
    "retract_deg": num(False, 0.0, between(-180.0, 180.0)),
    "wheel_radius_m": num(check=positive),
    "tyre_width_m": num(check=positive),
    "door": Field("bool", required=False, default=False),
    "skid": Field("bool", required=False, default=False),     # a skid shoe, not a wheel
}
COCKPIT_KEYS = {
    "eye": Field("vec3"),
    "panel_x_m": num(),
    "panel_top_m": num(),
    "panel_half_width_m": num(check=positive),
    "sight": Field("enum", required=False, default="none", choices=SIGHTS),
    "sight_at": Field("vec3", required=False, default=None),
    "armour_plate": Field("bool", required=False, default=False),
}
TOP_TABLES = {"visual", "fuselage", "spinner", "propeller", "canopy", "surface", "body", "exhaust", "barrel",
              "strut", "gear", "cockpit"}


@dataclass(frozen=True)
class Station:
    x_m: float
    top_m: float
    bottom_m: float
    half_width_m: float
    widest_m: float
    n_top: float
    n_bottom: float


@dataclass(frozen=True)
class Body:
    name: str
    stations: tuple            # of Station, nose first (x decreasing)
    y_m: float = 0.0
    mirror: bool = False
    mouth: bool = False
    exit: bool = False
    finish: str = "paint"


@dataclass(frozen=True)
class CanopyStation:
    x_m: float
    top_m: float
    sill_m: float
    half_width_m: float
    n: float


@dataclass(frozen=True)
class Canopy:
    stations: tuple
    windscreen: tuple | None
    frames_x_m: tuple
    centre_bar: bool
    side_bars: tuple
    armour_glass: bool
    frame_colour: tuple | None      # None: the livery's paint


@dataclass(frozen=True)
class SurfaceControl:
    control: str
    from_m: float
    to_m: float
    chord_fraction: float
    pivot_x_m: float | None = None      # all-moving: the body x of its pivot line
    kind: str = "plain"                 # "split": only the lower skin turns down (a split flap)


@dataclass(frozen=True)
class SurfaceAirbrake:
    from_m: float
    to_m: float
    chord_at: float
    height_m: float
    faces: str


@dataclass(frozen=True)
class Surface:
    name: str
    group: str
    mirror: bool
    root_yz_m: tuple
    dihedral_deg: float
    thickness: tuple
    camber: float
    incidence_deg: tuple
    planform: np.ndarray            # (n, 3): span m, leading-edge x, trailing-edge x
    controls: tuple = ()
    airbrakes: tuple = ()

    @property
    def span_m(self) -> float:
        return float(self.planform[-1, 0])

    @property
    def closed_tip(self) -> bool:
        return abs(self.planform[-1, 1] - self.planform[-1, 2]) < 1e-6


@dataclass(frozen=True)
class Exhaust:
    x_m: tuple
    y_m: float
    z_m: float
    mirror: bool
    length_m: float
    radius_m: float
    kind: str


@dataclass(frozen=True)
class Barrel:
    x_m: float
    y_m: float
    z_m: float
    length_m: float
    radius_m: float
    mirror: bool


@dataclass(frozen=True)
class Strut:
    from_m: tuple
    to_m: tuple
    radius_m: float
    mirror: bool


@dataclass(frozen=True)
class GearLeg:
    name: str
    hinge: tuple
    retract_axis: tuple
    retract_deg: float
    wheel_radius_m: float
    tyre_width_m: float
    door: bool
    skid: bool = False


@dataclass(frozen=True)
class Cockpit:
    eye: tuple
    panel_x_m: float
    panel_top_m: float
    panel_half_width_m: float
    sight: str
    sight_at: tuple | None
    armour_plate: bool


@dataclass(frozen=True)
class Spinner:
    tip_x_m: float
    base_x_m: float
    radius_m: float
    z_m: float


@dataclass(frozen=True)
class PropellerLook:
    blade_root_chord_m: float
    blade_max_chord_m: float
    blade_tip_chord_m: float
    tip: str


@dataclass
class VisualSpec:
    path: Path
    sources: list
    length_m: float
    span_m: float
    height_m: float
    height_attitude: str
    fuselage: Body
    height_published: bool = True
    canopy: Canopy | None = None
    spinner: Spinner | None = None
    propeller: PropellerLook | None = None
    surfaces: list = field(default_factory=list)
    bodies: list = field(default_factory=list)
    exhausts: list = field(default_factory=list)
    barrels: list = field(default_factory=list)
    struts: list = field(default_factory=list)
    gear: dict = field(default_factory=dict)        # physics gear name -> GearLeg
    cockpit: Cockpit | None = None
    notes: str = ""


def _records(value, schema, path, where):
    """A list of tables (inline or [[array]]), each validated."""
    if not isinstance(value, list) or not value:
        raise DataError(path, where, "must be a non-empty list of tables")
    return [validate_table(item, schema, path, f"{where}[{i}]") for i, item in enumerate(value)]


def _stations(value, path, where) -> tuple:
    rows = _records(value, STATION_KEYS, path, where)
    if len(rows) < 2:
        raise DataError(path, where, f"needs at least 2 stations, got {len(rows)}")
    out = []
    for i, r in enumerate(rows):
        if r["bottom_m"] < r["top_m"]:
            raise DataError(path, f"{where}[{i}]", f"bottom_m ({r['bottom_m']}) is above top_m ({r['top_m']}): "
                                                   "z points down, so the top has the smaller z")
        widest = 0.5 * (r["top_m"] + r["bottom_m"]) if r["widest_m"] is None else r["widest_m"]
        if not r["top_m"] <= widest <= r["bottom_m"]:
            raise DataError(path, f"{where}[{i}].widest_m", f"must lie between top_m and bottom_m, got {widest}")
        out.append(Station(r["x_m"], r["top_m"], r["bottom_m"], r["half_width_m"], widest, r["n_top"], r["n_bottom"]))
    xs = [s.x_m for s in out]
    if any(b >= a for a, b in zip(xs, xs[1:])):
        i = next(k for k in range(1, len(xs)) if xs[k] >= xs[k - 1])
        raise DataError(path, f"{where}[{i}].x_m", f"stations run nose to tail (x decreasing); {xs[i]} follows {xs[i - 1]}")
    return tuple(out)


def _canopy(data, path) -> Canopy:
    c = validate_table(data, CANOPY_KEYS, path, "canopy")
    rows = _records(c["stations"], CANOPY_STATION_KEYS, path, "canopy.stations")
    st = tuple(CanopyStation(r["x_m"], r["top_m"], r["sill_m"], r["half_width_m"], r["n"]) for r in rows)
    for i, s in enumerate(st):
        if s.top_m > s.sill_m:
            raise DataError(path, f"canopy.stations[{i}]", f"top_m ({s.top_m}) is below sill_m ({s.sill_m}): "
                                                           "z points down, the glass's top has the smaller z")
    xs = [s.x_m for s in st]
    if len(st) < 2 or any(b >= a for a, b in zip(xs, xs[1:])):
        raise DataError(path, "canopy.stations", "needs 2 or more stations, nose to tail (x decreasing)")
    ws = c["windscreen"]
    if ws is not None and len(ws) != 2:
        raise DataError(path, "canopy.windscreen", f"must be [x front, x rear], got {len(ws)} numbers")
    bars = c["side_bars"] or []
    if not all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in bars):
        raise DataError(path, "canopy.side_bars", "must be a list of z values (m)")
    fc = c["frame_colour"]
    return Canopy(st, None if ws is None else (ws[0], ws[1]), tuple(c["frames_x_m"] or ()), c["centre_bar"],
                  tuple(float(b) for b in bars), c["armour_glass"], None if fc == "paint" else tuple(float(x) for x in fc))


def _surface(data, path, where) -> Surface:
    s = validate_table(data, SURFACE_KEYS, path, where)
    pf = np.array(s["planform"], dtype=np.float64)
    if pf.shape[1] != 3:
        raise DataError(path, f"{where}.planform", f"rows must be [span m, leading-edge x, trailing-edge x], "
                                                   f"got {pf.shape[1]} numbers a row")
    if len(pf) < 2:
        raise DataError(path, f"{where}.planform", "needs at least 2 rows (root and tip)")
    if pf[0, 0] != 0.0 or np.any(np.diff(pf[:, 0]) <= 0):
        raise DataError(path, f"{where}.planform", "the span column starts at 0 (the root) and increases strictly")
    bad = np.nonzero(pf[:, 2] > pf[:, 1] + 1e-9)[0]
    if len(bad):
        raise DataError(path, f"{where}.planform[{bad[0]}]", "the trailing edge must lie aft of the leading edge "
                                                             "(a smaller x)")
    if np.any(pf[:-1, 1] - pf[:-1, 2] < 1e-3):
        raise DataError(path, f"{where}.planform", "only the last row (the tip) may have zero chord")
    controls = []
    for i, c in enumerate(_records(s["control"], CONTROL_KEYS, path, f"{where}.control") if s["control"] else []):
        if c["to_m"] <= c["from_m"] or c["to_m"] > pf[-1, 0] + 1e-6:
            raise DataError(path, f"{where}.control[{i}]", f"from_m < to_m <= the span {pf[-1, 0]} m, got "
                                                           f"{c['from_m']}..{c['to_m']}")
        if c["chord_fraction"] > 0.6 and c["pivot_x_m"] is None:
            raise DataError(path, f"{where}.control[{i}].pivot_x_m", "an all-moving surface (chord_fraction over 0.6) "
                                                                    "needs the x of its pivot")
        controls.append(SurfaceControl(c["control"], c["from_m"], c["to_m"], c["chord_fraction"], c["pivot_x_m"],
                                       c["kind"]))
    brakes = []
    for i, b in enumerate(_records(s["airbrake"], AIRBRAKE_KEYS, path, f"{where}.airbrake") if s["airbrake"] else []):
        if b["to_m"] <= b["from_m"] or b["to_m"] > pf[-1, 0] + 1e-6:
            raise DataError(path, f"{where}.airbrake[{i}]", f"from_m < to_m <= the span {pf[-1, 0]} m, got "
                                                            f"{b['from_m']}..{b['to_m']}")
        brakes.append(SurfaceAirbrake(b["from_m"], b["to_m"], b["chord_at"], b["height_m"], b["faces"]))
    return Surface(s["name"], s["group"], s["mirror"], tuple(s["root_yz_m"]), s["dihedral_deg"], tuple(s["thickness"]),
                   s["camber"], tuple(s["incidence_deg"]), pf, tuple(controls), tuple(brakes))


def _list_of_tables(data, key, path):
    items = data.get(key)
    if items is None:
        return []
    if not isinstance(items, list):
        raise DataError(path, key, f"must be an array of tables [[{key}]]")
    return items


def visual_path(aircraft_toml: Path) -> Path:
    return Path(aircraft_toml).parent / VISUAL_FILE


def load_visual(path: str | Path) -> VisualSpec:
    """Read and check a visual.toml; DataError (file, key, problem) on anything wrong."""
    path = Path(path)
    data = read_toml(path)
    for key in data:
        if key not in TOP_TABLES:
            raise DataError(path, key, f"unknown table (allowed: {', '.join(sorted(TOP_TABLES))})")
    if "visual" not in data:
        raise DataError(path, "visual", "missing required table [visual]")
    head = validate_table(data["visual"], HEAD_KEYS, path, "visual")
    if "fuselage" not in data:
        raise DataError(path, "fuselage", "missing required table [fuselage]")
    fus = validate_table(data["fuselage"], FUSELAGE_KEYS, path, "fuselage")
    spec = VisualSpec(path, head["sources"], head["length_m"], head["span_m"], head["height_m"],
                      head["height_attitude"], Body("fuselage", _stations(fus["stations"], path, "fuselage.stations")),
                      head["height_published"], notes=head["notes"])
    if "spinner" in data:
        s = validate_table(data["spinner"], SPINNER_KEYS, path, "spinner")
        if s["base_x_m"] >= s["tip_x_m"]:
            raise DataError(path, "spinner.base_x_m", "must lie aft of tip_x_m (a smaller x)")
        spec.spinner = Spinner(s["tip_x_m"], s["base_x_m"], s["radius_m"], s["z_m"])
    if "propeller" in data:
        spec.propeller = PropellerLook(**validate_table(data["propeller"], PROPELLER_KEYS, path, "propeller"))
    if "canopy" in data:
        spec.canopy = _canopy(data["canopy"], path)
    names = set()
    for i, item in enumerate(_list_of_tables(data, "surface", path)):
        srf = _surface(item, path, f"surface[{i}]")
        if srf.name in names:
            raise DataError(path, f"surface[{i}].name", f"duplicate name {srf.name!r}")
        names.add(srf.name)
        spec.surfaces.append(srf)
    for i, item in enumerate(_list_of_tables(data, "body", path)):
        b = validate_table(item, BODY_KEYS, path, f"body[{i}]")
        spec.bodies.append(Body(b["name"], _stations(b["stations"], path, f"body[{i}].stations"), b["y_m"], b["mirror"],
                                b["mouth"], b["exit"], b["finish"]))
    for i, item in enumerate(_list_of_tables(data, "exhaust", path)):
        e = validate_table(item, EXHAUST_KEYS, path, f"exhaust[{i}]")
        spec.exhausts.append(Exhaust(tuple(e["x_m"]), e["y_m"], e["z_m"], e["mirror"], e["length_m"], e["radius_m"],
                                     e["kind"]))
    for i, item in enumerate(_list_of_tables(data, "barrel", path)):
        spec.barrels.append(Barrel(**validate_table(item, BARREL_KEYS, path, f"barrel[{i}]")))
    for i, item in enumerate(_list_of_tables(data, "strut", path)):
        spec.struts.append(Strut(**validate_table(item, STRUT_KEYS, path, f"strut[{i}]")))
    if "gear" in data:
        g = validate_table(data["gear"], GEAR_KEYS, path, "gear")
        for i, leg in enumerate(_records(g["leg"], LEG_KEYS, path, "gear.leg")):
            axis = np.asarray(leg["retract_axis"])
            if np.linalg.norm(axis) < 1e-9:
                raise DataError(path, f"gear.leg[{i}].retract_axis", "must not be zero")
            spec.gear[leg["name"]] = GearLeg(leg["name"], leg["hinge"], tuple(axis / np.linalg.norm(axis)),
                                             leg["retract_deg"], leg["wheel_radius_m"], leg["tyre_width_m"], leg["door"],
                                             leg["skid"])
    if "cockpit" in data:
        spec.cockpit = Cockpit(**validate_table(data["cockpit"], COCKPIT_KEYS, path, "cockpit"))
    return spec


def check_against_aircraft(visual: VisualSpec, aircraft) -> None:
    """Cross-checks with the physics data: every gear leg names a physics [[gear]], every
    surface control names a control its group's sections have."""
    path = visual.path
    gear_names = {g["name"] for g in aircraft.gear}
    for name in visual.gear:
        if name not in gear_names:
            raise DataError(path, f"gear.leg '{name}'", f"no [[gear]] of that name in aircraft.toml "
                                                        f"(known: {', '.join(sorted(gear_names))})")
    for i, s in enumerate(visual.surfaces):
        have = {sec["control"] for sec in aircraft.sections if sec["group"] == s.group and sec["control"]}
        for k, c in enumerate(s.controls):
            if c.control not in have:
                raise DataError(path, f"surface[{i}].control[{k}].control",
                                f"{c.control!r}: the {s.group} sections have no such control "
                                f"(they have: {', '.join(sorted(have)) or 'none'})")
