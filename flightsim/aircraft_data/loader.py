"""Aircraft and airfoil files -> validated specs (see docs/aircraft_format.md)."""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import AIRCRAFT_DIR
from ..physics.layout import MODEL_COLS
from .damage import DAMAGE_TABLES, load_damage
from .flight_control import load_flight_control
from .guns import GUN_TABLES, load_guns
from .powerplant import POWERPLANT_TABLES, load_powerplant
from .references import References, load_references
from .schema import (
    DataError,
    Field,
    between,
    named_records,
    non_negative,
    num,
    positive,
    read_toml,
    validate_table,
)
from .sensors import SENSOR_TABLES, load_sensors

log = logging.getLogger("flightsim.aircraft_data")

GROUPS = ("wing", "htail", "vtail", "body")
L_MACH_MAX = MODEL_COLS - 1        # a Mach table's row holds its length, then the values
CONTROLS = ("aileron", "elevator", "rudder", "flap", "stabilator")   # stabilator: all-moving, pitch and roll

AIRCRAFT_KEYS = {
    "name": Field("str"),
    "kind": Field("enum", choices=("glider", "powered")),
    "datum": Field("str"),
    "vne_kmh": num(check=positive),
    "sources": Field("strlist", required=False, default=[]),
    "description": Field("str", required=False, default=""),
    "control_limit_mach": num(False, None, between(0.3, 1.5)),   # controls lose effect beyond it
    "winch_hook_m": Field("vec3", required=False, default=None),   # launch hook (gliders), body axes
    "winch_launch_kmh": num(False, None, positive),    # the IAS a winch launch is driven for (gliders)
    # air starts in scenarios written for another kind of aircraft (a game setting, TAS): default a
    # glider's best glide ([reference] best_glide_kmh); a powered aircraft must give it
    "air_start_kmh": num(False, None, positive),
    # the take-off a pilot flies (the game's take-off autopilot): rotate and climb away at these IAS
    # (default a fighter's: 160 and 270 km/h)
    "rotate_kmh": num(False, None, positive),
    "climb_kmh": num(False, None, positive),
    # where the performance tools search (flightsim.tools.perf): the true airspeeds over which the
    # best climb is looked for, and the altitudes between which the ceiling is; default a
    # fighter's (220-560 km/h, 8,000-16,000 m)
    "climb_scan_kmh": Field("numlist", required=False, default=None, check=lambda v: _low_high(v, "km/h")),
    "ceiling_search_m": Field("numlist", required=False, default=None, check=lambda v: _low_high(v, "m")),
}


def _low_high(v, unit):
    """A [low, high] pair, low below high, both positive."""
    if len(v) != 2 or not 0.0 < v[0] < v[1]:
        return f"must be [low, high] in {unit}, 0 < low < high; got {v!r}"
    return None

SECTION_KEYS = {
    "name": Field("str"),
    "airfoil": Field("str"),
    "group": Field("enum", choices=GROUPS),
    "position_m": Field("vec3"),
    "span_m": num(check=positive),
    "chord_m": num(check=positive),
    "incidence_deg": num(False, 0.0, between(-30, 30)),
    "dihedral_deg": num(False, 0.0, between(-90, 90)),
    "mirror": Field("bool", required=False, default=False),
    "mass_kg": num(False, 0.0, non_negative),
    "control": Field("enum", required=False, default=None, choices=CONTROLS),
    "control_max_deg": num(False, None, between(0.1, 90)),
    # a stabilator's differential travel at full roll command (it also rolls the aircraft)
    "roll_max_deg": num(False, None, between(0.1, 45)),
    "airbrake_dcd": num(False, 0.0, non_negative),
    "airbrake_dcl": num(False, 0.0, between(-3, 0)),
    # wing twist (seed 000): the wing's torsional stiffness at this section, as the moment about
    # its elastic axis that twists it one degree (0: rigid), and where that axis lies
    "torsional_stiffness_nm_per_deg": num(False, 0.0, non_negative),
    "elastic_axis_chord_fraction": num(False, 0.30, between(0.1, 0.7)),
    # an automatic leading-edge slat: the section's table with it open, the local angles of
    # attack at which the airflow pulls it open and lets it close, its travel time
    "slat_airfoil": Field("str", required=False, default=None),
    "slat_open_alpha_deg": num(False, 12.0, between(0.0, 30.0)),
    "slat_close_alpha_deg": num(False, 9.0, between(-5.0, 30.0)),
    "slat_travel_s": num(False, 0.3, between(0.02, 5.0)),
}
MASS_KEYS = {
    "name": Field("str"),
    "mass_kg": num(check=positive),
    "position_m": Field("vec3"),
    "size_m": Field("vec3", required=False, default=(0.0, 0.0, 0.0),
                    check=lambda v: None if min(v) >= 0 else f"sizes must not be negative, got {list(v)}"),
}
GEAR_KEYS = {
    "name": Field("str"),
    "position_m": Field("vec3"),
    "stiffness_n_per_m": num(check=positive),
    "damping_n_s_per_m": num(check=non_negative),
    "rolling_mu": num(check=between(0, 2)),
    "brake_mu": num(False, 0.0, between(0, 2)),
    "side_mu": num(check=between(0, 2)),
    "steering_max_deg": num(False, 0.0, between(0, 90)),
    "brake_side": Field("enum", required=False, default="both", choices=("both", "left", "right")),
    "drag_area_m2": num(False, 0.0, non_negative),
    "retractable": Field("bool", required=False, default=False),
}
CONTROL_AXES = ("elevator", "aileron", "rudder")
CONTROL_AXIS_KEYS = {
    "max_force_n": num(check=positive),
    "full_deflection_ias_kmh": num(check=positive),
    "time_constant_s": num(False, 0.08, between(0.005, 2.0)),
    "travel_time_s": num(False, 0.3, between(0.02, 10.0)),
    # the hinge moment grows as deflection^m (m = 1: linear; m > 1: light at small deflections, as
    # beveled, sealed ailerons are): above the full-deflection speed the pilot's force holds the
    # deflection fraction (q_full / q)^(1/m)
    "hinge_moment_exponent": num(False, 1.0, between(0.5, 4.0)),
    # tabs (seed 000): a geared (balance) tab takes this fraction of the hinge moment off at any
    # deflection; a spring tab, deflected by the pilot's force through a spring, carries half
    # the hinge moment at this IAS and more above it (the force per degree levels off instead
    # of growing as q); the tabs' own lift, against the surface's, costs this fraction of the
    # surface's effect when they carry the whole hinge moment
    "geared_tab_ease": num(False, 0.0, between(0.0, 0.9)),
    "spring_tab_half_ias_kmh": num(False, 0.0, non_negative),
    "tab_effectiveness_loss": num(False, 0.0, between(0.0, 0.6)),
}
# [controls.stabilizer_trim]: the pitch trim moves the whole horizontal tail's incidence (the
# Bf 109's adjustable stabilizer) instead of the elevator's neutral point (a trim tab)
STAB_TRIM_KEYS = {
    "nose_up_deg": num(check=between(0.0, 15.0)),        # incidence change at full nose-up trim (leading edge down)
    "nose_down_deg": num(check=between(0.0, 15.0)),      # at full nose-down trim (leading edge up)
    "travel_time_s": num(False, 10.0, between(0.1, 120.0)),   # from one end to the other
}
CONTROL_KEYS = {
    "flap_travel_s": num(False, 1.0, between(0.02, 120.0)),
    "airbrake_travel_s": num(False, 1.0, between(0.02, 120.0)),
    "gear_travel_s": num(False, 1.0, between(0.02, 120.0)),
    "elevator": Field("table", required=False, default=None),
    "aileron": Field("table", required=False, default=None),
    "rudder": Field("table", required=False, default=None),
    "stabilizer_trim": Field("table", required=False, default=None),
}
# without a [controls] table: light-aircraft pilot forces, full travel up to VNE
DEFAULT_AXIS_FORCE_N = {"elevator": 250.0, "aileron": 130.0, "rudder": 600.0}
CONTACT_KEYS = {
    "name": Field("str"),
    "position_m": Field("vec3"),
    "friction_mu": num(False, 0.5, between(0, 2)),
}
AIRFOIL_KEYS = {
    "name": Field("str"),
    "source": Field("str"),
    "control_chord_fraction": num(False, 0.0, between(0, 0.6)),
    # the control surface as built against the one its +/-10 degree curves describe (a true-contour,
    # gap-sealed flap): a beveled or thickened trailing edge gives less lift, drag and moment change
    # per degree (NACA wind-tunnel work on ailerons, 1944); the curves' increments are scaled by it
    "control_effectiveness": num(False, 1.0, between(0.1, 1.0)),
    "alpha_deg": Field("numlist"),
    "thickness_ratio": num(False, None, between(0, 1)),
    "reynolds_number": num(False, None, positive),
    "notes": Field("str", required=False, default=""),
}
CURVE_KEYS = {"cl": Field("numlist"), "cd": Field("numlist"), "cm": Field("numlist")}
DEFLECTIONS = ("deflection_minus10_deg", "deflection_0_deg", "deflection_plus10_deg")
# optional: the curves at a control's full (positive) deflection, for a flap whose effect is
# not the +10 degree curve's extrapolated (lift gained less than linearly, drag more)
FULL_DEFLECTION = "deflection_full"
FULL_CURVE_KEYS = {**CURVE_KEYS, "deflection_deg": num(True, None, between(10.5, 90.0))}
# optional [mach]: the section's compressibility tabulated from subsonic to supersonic flow
# (physics/compress.mach_table); without it, compress.py's subsonic model from thickness_ratio
MACH_TABLE = "mach"
MACH_COLUMNS = ("lift_slope_ratio", "clmax_ratio", "cd_wave", "suction_loss", "ac_shift_chord")
MACH_KEYS = {"mach": Field("numlist"), **{k: Field("numlist") for k in MACH_COLUMNS}}
MACH_RANGES = {"lift_slope_ratio": (0.05, 5.0), "clmax_ratio": (0.05, 3.0), "cd_wave": (0.0, 1.0),
               "suction_loss": (0.0, 1.0), "ac_shift_chord": (-0.5, 0.5)}


@dataclass
class Airfoil:
    name: str
    path: Path
    source: str
    control_chord_fraction: float
    alpha_deg: np.ndarray
    curves: np.ndarray          # (3 deflections, 3 coefficients cl/cd/cm, n)
    has_control_curves: bool
    reynolds_number: float | None = None
    thickness_ratio: float | None = None
    full_curve: np.ndarray | None = None      # (3 coefficients, n) at the control's full deflection
    full_deflection_deg: float | None = None
    mach: dict | None = None                  # [mach]: "mach" and MACH_COLUMNS, numpy arrays


@dataclass
class AircraftSpec:
    id: str
    path: Path
    aircraft: dict
    sections: list[dict]
    masses: list[dict]
    gear: list[dict]
    contacts: list[dict]
    reference: dict | None
    airfoils: dict[str, Airfoil] = field(default_factory=dict)
    controls: dict = field(default_factory=dict)
    powerplant: dict | None = None    # engine, supercharger, propeller, tanks, coolers (spec.powerplant)
    references: References | None = None   # the published figures (references.toml, spec.references)
    guns: dict | None = None          # [guns] harmonisation and the [[gun]] records (spec.guns)
    damage: dict | None = None        # [damage], [[component]] hit boxes, [[store]] records (spec.damage)
    flight_control: dict | None = None   # [flight_control]: a fly-by-wire law (spec.flight_control)
    signature: dict | None = None     # [signature]: radar cross-section and infrared value (sensors.py)
    radar: dict | None = None         # [radar]: what it sees with (sensors.py)

    @property
    def nose_wheel(self) -> bool:
        """A tricycle undercarriage: the wheel on the centreline is ahead of the main wheels (a
        tail-dragger's is behind them)."""
        centre = [g["position_m"][0] for g in self.gear if abs(g["position_m"][1]) < 0.1]
        mains = [g["position_m"][0] for g in self.gear if abs(g["position_m"][1]) >= 0.1]
        return bool(centre and mains and max(centre) > max(mains))


def _curves(tab: dict, name: str, alpha, path: Path) -> np.ndarray:
    """The cl, cd, cm rows of one deflection's table, checked against alpha_deg: as long, no
    negative drag, the same value at -180 and 180 degrees."""
    out = np.empty((3, len(alpha)))
    for c, coef in enumerate(("cl", "cd", "cm")):
        values = tab[coef]
        if len(values) != len(alpha):
            raise DataError(path, f"{name}.{coef}", f"has {len(values)} values but alpha_deg has {len(alpha)}")
        if coef == "cd" and min(values) < 0:
            raise DataError(path, f"{name}.cd", f"drag coefficient must not be negative (min {min(values)})")
        if abs(values[0] - values[-1]) > 1e-6:
            raise DataError(path, f"{name}.{coef}", f"values at -180 and 180 degrees must be equal (the same angle), "
                                                    f"got {values[0]} and {values[-1]}")
        out[c] = values
    return out


def load_airfoil(path: Path) -> Airfoil:
    """The airfoil file, validated, once per path and content (a World, a tool and each test
    load an aircraft's dozen airfoils again; 10 ms each): the Airfoil is shared, its arrays
    read-only. A file that cannot be read, or bad data, is refused as before (nothing kept)."""
    try:
        content = Path(path).read_bytes()
    except OSError:
        return _load_airfoil(Path(path))           # (the refusal names the file: read_toml)
    return _airfoil_kept(str(path), content)


@functools.lru_cache(maxsize=128)
def _airfoil_kept(path: str, content: bytes) -> Airfoil:
    af = _load_airfoil(Path(path))
    for a in (af.alpha_deg, af.curves, af.full_curve, *(af.mach or {}).values()):
        if a is not None:
            a.setflags(write=False)
    return af


def _load_airfoil(path: Path) -> Airfoil:
    data = read_toml(path)
    if "airfoil" not in data:
        raise DataError(path, "airfoil", "missing required table [airfoil]")
    for key in data:
        if key != "airfoil" and key not in DEFLECTIONS and key not in (FULL_DEFLECTION, MACH_TABLE):
            raise DataError(path, key, f"unknown table (allowed: airfoil, {', '.join(DEFLECTIONS)}, "
                                       f"{FULL_DEFLECTION}, {MACH_TABLE})")
    head = validate_table(data["airfoil"], AIRFOIL_KEYS, path, "airfoil")
    alpha = np.array(head["alpha_deg"])
    if len(alpha) < 8:
        raise DataError(path, "airfoil.alpha_deg", f"needs at least 8 points, got {len(alpha)}")
    steps = np.diff(alpha)
    if np.any(steps <= 0):
        i = int(np.argmax(steps <= 0))
        raise DataError(path, "airfoil.alpha_deg",
                        f"must be strictly increasing; entry {i + 1} ({alpha[i + 1]}) follows {alpha[i]}")
    if alpha[0] != -180.0 or alpha[-1] != 180.0:
        raise DataError(path, "airfoil.alpha_deg",
                        f"must run from -180 to 180 degrees, runs from {alpha[0]} to {alpha[-1]}")
    if "deflection_0_deg" not in data:
        raise DataError(path, "deflection_0_deg", "missing required table [deflection_0_deg]")
    curves = np.empty((3, 3, len(alpha)))
    present = []
    for d, name in enumerate(DEFLECTIONS):
        if name not in data:
            continue
        present.append(name)
        curves[d] = _curves(validate_table(data[name], CURVE_KEYS, path, name), name, alpha, path)
    has_ctrl = len(present) == 3
    if len(present) == 2:
        missing = [n for n in DEFLECTIONS if n not in present][0]
        raise DataError(path, missing, "missing: give both +10 and -10 degree deflection curves, or neither")
    if not has_ctrl:
        curves[0] = curves[1]
        curves[2] = curves[1]
    full = full_deg = None
    if FULL_DEFLECTION in data:
        if not has_ctrl:
            raise DataError(path, FULL_DEFLECTION, "needs the +10 and -10 degree curves too")
        tab = validate_table(data[FULL_DEFLECTION], FULL_CURVE_KEYS, path, FULL_DEFLECTION)
        full_deg = tab["deflection_deg"]
        full = _curves(tab, FULL_DEFLECTION, alpha, path)
    eta = head["control_effectiveness"]
    if eta != 1.0:
        for d in (0, 2):
            curves[d] = curves[1] + eta * (curves[d] - curves[1])
        if full is not None:
            full = curves[1] + eta * (full - curves[1])
    mach = _mach_table(data[MACH_TABLE], path) if MACH_TABLE in data else None
    return Airfoil(head["name"], path, head["source"], head["control_chord_fraction"], alpha, curves, has_ctrl,
                   head["reynolds_number"], head["thickness_ratio"], full, full_deg, mach)


def _mach_table(data, path: Path) -> dict:
    """[mach]: Mach numbers from 0 (strictly increasing) and each column as long, within range."""
    tab = validate_table(data, MACH_KEYS, path, MACH_TABLE)
    mach = np.array(tab["mach"], float)
    if not 2 <= len(mach) <= L_MACH_MAX:
        raise DataError(path, "mach.mach", f"needs 2 to {L_MACH_MAX} Mach numbers, got {len(mach)}")
    if mach[0] != 0.0 or np.any(np.diff(mach) <= 0):
        raise DataError(path, "mach.mach", "must start at 0 and increase strictly")
    out = {"mach": mach}
    for k in MACH_COLUMNS:
        v = np.array(tab[k], float)
        if len(v) != len(mach):
            raise DataError(path, f"mach.{k}", f"has {len(v)} values but mach has {len(mach)}")
        lo, hi = MACH_RANGES[k]
        if v.min() < lo or v.max() > hi:
            raise DataError(path, f"mach.{k}", f"values must lie between {lo} and {hi}, got {v.min()} .. {v.max()}")
        out[k] = v
    if abs(out["lift_slope_ratio"][0] - 1.0) > 1e-9 or abs(out["clmax_ratio"][0] - 1.0) > 1e-9:
        raise DataError(path, "mach", "lift_slope_ratio and clmax_ratio are 1 at Mach 0 (the table's own curves)")
    return out


def _controls(data, head: dict, path: Path) -> dict:
    """[controls]: actuator travel times and, per axis, [controls.elevator|aileron|rudder]."""
    ctl = validate_table(data, CONTROL_KEYS, path, "controls")
    for axis in CONTROL_AXES:
        sub = ctl[axis]
        if sub is None:
            sub = {"max_force_n": DEFAULT_AXIS_FORCE_N[axis], "full_deflection_ias_kmh": head["vne_kmh"]}
        ctl[axis] = validate_table(sub, CONTROL_AXIS_KEYS, path, f"controls.{axis}")
    if ctl["stabilizer_trim"] is not None:
        ctl["stabilizer_trim"] = validate_table(ctl["stabilizer_trim"], STAB_TRIM_KEYS, path,
                                                "controls.stabilizer_trim")
    return ctl


def aircraft_path(name_or_path: str | Path) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".toml" and p.exists():
        return p
    if p.is_dir() and (p / "aircraft.toml").exists():
        return p / "aircraft.toml"
    cand = AIRCRAFT_DIR / str(name_or_path) / "aircraft.toml"
    if cand.exists():
        return cand
    known = ", ".join(list_aircraft()) or "none"
    raise DataError(cand, "", f"no aircraft named {str(name_or_path)!r} (known: {known})")


def list_aircraft() -> list[str]:
    return sorted(p.parent.name for p in AIRCRAFT_DIR.glob("*/aircraft.toml"))


def load_aircraft(name_or_path: str | Path) -> AircraftSpec:
    path = aircraft_path(name_or_path)
    data = read_toml(path)
    allowed = {"aircraft", "section", "mass", "gear", "contact", "controls", "flight_control", *POWERPLANT_TABLES,
               *GUN_TABLES, *DAMAGE_TABLES, *SENSOR_TABLES}
    for key in data:
        if key in ("reference", "reference_point"):
            raise DataError(path, key, "published figures live in references.toml beside aircraft.toml "
                                       "(flightsim/aircraft_data/references.py)")
        if key not in allowed:
            raise DataError(path, key, f"unknown table (allowed: {', '.join(sorted(allowed))})")
    if "aircraft" not in data:
        raise DataError(path, "aircraft", "missing required table [aircraft]")
    head = validate_table(data["aircraft"], AIRCRAFT_KEYS, path, "aircraft")
    sections = named_records(data, "section", SECTION_KEYS, path, True)
    masses = named_records(data, "mass", MASS_KEYS, path, False)
    gear = named_records(data, "gear", GEAR_KEYS, path, False)
    contacts = named_records(data, "contact", CONTACT_KEYS, path, False)
    try:
        references = load_references(path.parent / "references.toml")
    except DataError as e:          # the published figures are for validating: the aircraft flies without them
        log.warning("%s (%s flies without its published figures)", e, path.parent.name)
        references = References(None, error=e)

    spec = AircraftSpec(path.parent.name, path, head, sections, masses, gear, contacts, references.reference_dict())
    spec.references = references
    spec.controls = _controls(data.get("controls", {}), head, path)
    spec.powerplant = load_powerplant(data, path, head, spec.airfoils, load_airfoil)
    if spec.powerplant is not None:
        spec.powerplant["reference_points"] = references.reference_points()
    spec.flight_control = load_flight_control(data, path)
    spec.guns = load_guns(data, path)
    spec.damage = load_damage(data, path, spec.powerplant)
    spec.signature, spec.radar = load_sensors(data, path)
    airfoil_dir = path.parent / "airfoils"
    for s in sections:
        if s["control"] is not None and s["control_max_deg"] is None:
            raise DataError(path, s["_where"] + ".control_max_deg", f"missing: needed with control = {s['control']!r}")
        if s["control"] is None and s["control_max_deg"] is not None:
            raise DataError(path, s["_where"] + ".control_max_deg", "given without a control")
        if (s["roll_max_deg"] is not None) != (s["control"] == "stabilator"):
            raise DataError(path, s["_where"] + ".roll_max_deg",
                            "a stabilator needs roll_max_deg (its differential travel)" if s["control"] == "stabilator"
                            else "only a stabilator has roll_max_deg")
        for key in ("airfoil", "slat_airfoil"):
            name = s[key]
            if name is None:
                continue
            if name not in spec.airfoils:
                afile = airfoil_dir / f"{name}.toml"
                if not afile.exists():
                    known = ", ".join(sorted(p.stem for p in airfoil_dir.glob("*.toml"))) or "none"
                    raise DataError(path, s["_where"] + "." + key,
                                    f"unknown airfoil {name!r}: no file {afile} (known: {known})")
                spec.airfoils[name] = load_airfoil(afile)
            af = spec.airfoils[name]
            if s["control"] is not None and not af.has_control_curves:
                raise DataError(path, s["_where"] + (".control" if key == "airfoil" else ".slat_airfoil"),
                                f"airfoil {name!r} has no +/-10 degree deflection curves for its {s['control']}")
        if s["slat_airfoil"] is not None and s["slat_close_alpha_deg"] >= s["slat_open_alpha_deg"]:
            raise DataError(path, s["_where"] + ".slat_close_alpha_deg",
                            f"must be below slat_open_alpha_deg ({s['slat_open_alpha_deg']}), "
                            f"got {s['slat_close_alpha_deg']}")
    total = sum(m["mass_kg"] for m in masses) + sum(s["mass_kg"] * (2 if s["mirror"] else 1) for s in sections)
    if total <= 0:
        raise DataError(path, "mass", "the aircraft has no mass: give [[mass]] items or section mass_kg")
    return spec
