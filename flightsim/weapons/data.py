"""A missile's data file (weapons/<id>/missile.toml), validated on load, and the physics' model row
built from it (flightsim/physics/missile.py, ``MD_*``). Bad data is refused with a DataError naming
the file, the key and the problem."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import WEAPON_DIR
from ..aircraft_data.schema import DataError, Field, between, num, positive, read_toml, validate_table
from ..physics import missile as M

MISSILE_KEYS = {
    "name": Field("str"),
    "seeker": Field("enum", choices=("infrared", "radar", "semi_active")),
    "references": Field("strlist"),
    "length_m": num(check=between(0.5, 10.0)),
    "diameter_m": num(check=between(0.05, 1.0)),
    "span_m": num(check=between(0.05, 5.0)),
    "launch_mass_kg": num(check=between(5.0, 2000.0)),
    "propellant_kg": num(check=positive),
    "warhead_kg": num(check=positive),
}
MOTOR_KEYS = {"time_s": Field("numlist"), "thrust_n": Field("numlist")}
AERO_KEYS = {
    "mach": Field("numlist"),
    "cd0_coast": Field("numlist"),
    "cd0_boost": Field("numlist"),
    "normal_force_slope_per_deg": Field("numlist"),
    "alpha_max_deg": num(check=between(1.0, 60.0)),
    "g_limit": num(check=between(1.0, 100.0)),
}
SEEKER_KEYS = {
    "gimbal_limit_deg": num(check=between(1.0, 90.0)),
    "field_of_view_deg": num(check=between(0.1, 90.0)),
    "track_rate_deg_s": num(check=between(1.0, 200.0)),
    "active_range_m": num(check=between(0.0, 1.0e5)),
    # an infrared seeker's lock: the range against a target of infrared value 1 ahead, and its cap
    "lock_range_m": num(False, 0.0, between(0.0, 1.0e5)),
    "lock_range_cap_m": num(False, 0.0, between(0.0, 1.0e5)),
    # how easily flares (infrared) or chaff (radar) draw it off: DCS's ccm_k0, 1 a medium seeker, 0 immune
    # (world/decoys.py)
    "countermeasure_k": num(False, 1.0, between(0.0, 10.0)),
}
GUIDANCE_KEYS = {
    "navigation_gain": num(check=between(1.0, 10.0)),
    "arming_s": num(check=between(0.0, 10.0)),
    "self_destruct_s": num(check=between(5.0, 600.0)),
    "min_mach": num(check=between(0.1, 3.0)),
    "loft_launch_range_m": num(check=between(0.0, 1.0e6)),
    "loft_angle_deg": num(check=between(0.0, 60.0)),
    "loft_off_range_m": num(check=between(0.0, 1.0e6)),
    "loft_depression_deg": num(check=between(0.0, 90.0)),
}
FUZE_KEYS = {"proximity_m": num(check=between(0.1, 100.0)), "lethal_radius_m": num(check=between(0.1, 100.0))}
FIGURE_CARDS = {"burnout_mach": "Mach", "rmax_head_on": "km", "rmax_tail_on": "km", "rmin": "km", "no_escape": "km"}
FIGURE_KEYS = {
    "card": Field("enum", choices=tuple(FIGURE_CARDS)),
    "value": num(check=positive),
    "unit": Field("str", required=False, default=""),
    "low": num(False, None),                   # a range the source gives: low .. high
    "high": num(False, None),
    "source": Field("str"),
    "altitude_m": num(check=between(0.0, 25000.0)),
    "launch_mach": num(check=between(0.0, 3.0)),
    "target_mach": num(False, 0.0, between(0.0, 3.0)),
    "tolerance_pct": num(False, 5.0, between(0.1, 100.0)),
    "note": Field("str", required=False, default=""),
    "disagreement": Field("str", required=False, default=""),
    "cause": Field("str", required=False, default=""),
}
TABLES = {"missile": MISSILE_KEYS, "motor": MOTOR_KEYS, "aero": AERO_KEYS, "seeker": SEEKER_KEYS,
          "guidance": GUIDANCE_KEYS, "fuze": FUZE_KEYS}


@dataclass
class Missile:
    """A missile as its data file gives it (each table a dict), with its model row."""
    id: str
    path: Path
    missile: dict
    motor: dict
    aero: dict
    seeker: dict
    guidance: dict
    fuze: dict
    model: np.ndarray
    figures: list

    @property
    def total_impulse_ns(self) -> float:
        return float(self.model[M.MD_IMPULSE])

    @property
    def specific_impulse_s(self) -> float:
        return self.total_impulse_ns / (self.missile["propellant_kg"] * M.G0)

    @property
    def burn_time_s(self) -> float:
        return float(self.model[M.MD_BURN_END])


def list_weapons() -> list[str]:
    return sorted(p.parent.name for p in WEAPON_DIR.glob("*/missile.toml"))


def missile_path(weapon_id: str) -> Path:
    p = Path(weapon_id)
    if p.suffix == ".toml" and p.exists():
        return p
    cand = WEAPON_DIR / weapon_id / "missile.toml"
    if not cand.exists():
        raise DataError(cand, "", f"no weapon named {weapon_id!r} (known: {', '.join(list_weapons()) or 'none'})")
    return cand


def _increasing(path, key, xs):
    if any(b <= a for a, b in zip(xs, xs[1:])):
        raise DataError(path, key, f"must increase strictly, got {xs}")


def load_missile(weapon_id: str) -> Missile:
    """The missile's data file, checked: every table and key, the tables' lengths, the curves'
    order, the propellant within the launch mass."""
    path = missile_path(weapon_id)
    data = read_toml(path)
    for key in data:
        if key not in TABLES and key != "figure":
            raise DataError(path, key, f"unknown table (allowed: {', '.join(TABLES)}, [[figure]])")
    t = {}
    for name, schema in TABLES.items():
        if name not in data:
            raise DataError(path, name, f"missing required table [{name}]")
        t[name] = validate_table(data[name], schema, path, name)
    mi, mo, ae = t["missile"], t["motor"], t["aero"]
    if mi["propellant_kg"] + mi["warhead_kg"] >= mi["launch_mass_kg"]:
        raise DataError(path, "missile.propellant_kg", "the propellant and warhead weigh as much as the whole missile")
    if len(mo["time_s"]) != len(mo["thrust_n"]) or len(mo["time_s"]) < 2:
        raise DataError(path, "motor.thrust_n", "needs one thrust per time, at least two points")
    _increasing(path, "motor.time_s", mo["time_s"])
    if mo["time_s"][0] != 0.0:
        raise DataError(path, "motor.time_s", "must start at 0 (ignition)")
    if min(mo["thrust_n"]) < 0.0 or max(mo["thrust_n"]) <= 0.0:
        raise DataError(path, "motor.thrust_n", "thrust must be >= 0 and somewhere > 0")
    n = len(ae["mach"])
    _increasing(path, "aero.mach", ae["mach"])
    for key in ("cd0_coast", "cd0_boost", "normal_force_slope_per_deg"):
        if len(ae[key]) != n:
            raise DataError(path, f"aero.{key}", f"needs one value per Mach number ({n}), got {len(ae[key])}")
        if min(ae[key]) <= 0.0:
            raise DataError(path, f"aero.{key}", "must be > 0")
    return Missile(path.parent.name, path, mi, mo, ae, t["seeker"], t["guidance"], t["fuze"], _model_row(t),
                   _figures(path, data.get("figure", [])))


def _figures(path, items) -> list[dict]:
    """The [[figure]] validation cards, each checked; a card's unit must be its own."""
    if not isinstance(items, list):
        raise DataError(path, "figure", "must be an array of tables [[figure]]")
    out = []
    for i, item in enumerate(items):
        f = validate_table(item, FIGURE_KEYS, path, f"figure[{i}]")
        unit = FIGURE_CARDS[f["card"]]
        if f["unit"] and f["unit"] != unit:
            raise DataError(path, f"figure[{i}].unit", f"{f['card']} is in {unit}, not {f['unit']!r}")
        if (f["low"] is None) != (f["high"] is None) or (f["low"] is not None and not f["low"] <= f["value"] <= f["high"]):
            raise DataError(path, f"figure[{i}].low", "give low and high together, around the value")
        if f["card"] != "burnout_mach" and not f["target_mach"]:
            raise DataError(path, f"figure[{i}].target_mach", f"a {f['card']} figure needs the target's Mach number")
        f["unit"] = unit
        out.append(f)
    return out


def _model_row(t: dict) -> np.ndarray:
    mi, mo, ae, se, gu, fu = (t[k] for k in ("missile", "motor", "aero", "seeker", "guidance", "fuze"))
    n_t, n_m = len(mo["time_s"]), len(ae["mach"])
    row = np.zeros(M.MD_TABLES + 2 * n_t + 4 * n_m)
    row[M.MD_S_REF] = math.pi * mi["diameter_m"] ** 2 / 4.0
    row[M.MD_MASS0] = mi["launch_mass_kg"]
    row[M.MD_PROPELLANT] = mi["propellant_kg"]
    row[M.MD_IMPULSE] = float(np.trapezoid(mo["thrust_n"], mo["time_s"]))
    row[M.MD_ALPHA_MAX] = math.radians(ae["alpha_max_deg"])
    row[M.MD_G_LIMIT] = ae["g_limit"]
    row[M.MD_GIMBAL] = math.radians(se["gimbal_limit_deg"])
    row[M.MD_FOV] = math.radians(se["field_of_view_deg"])
    row[M.MD_TRACK_RATE] = math.radians(se["track_rate_deg_s"])
    row[M.MD_ACTIVE_RANGE] = se["active_range_m"]
    row[M.MD_NAV_GAIN] = gu["navigation_gain"]
    row[M.MD_ARMING_S] = gu["arming_s"]
    row[M.MD_SELF_DESTRUCT_S] = gu["self_destruct_s"]
    row[M.MD_MIN_MACH] = gu["min_mach"]
    row[M.MD_LOFT_RANGE] = gu["loft_launch_range_m"]
    row[M.MD_LOFT_ANGLE] = math.radians(gu["loft_angle_deg"])
    row[M.MD_LOFT_OFF] = gu["loft_off_range_m"]
    row[M.MD_LOFT_DEPRESSION] = math.radians(gu["loft_depression_deg"])
    row[M.MD_FUZE] = fu["proximity_m"]
    row[M.MD_LETHAL] = fu["lethal_radius_m"]
    row[M.MD_N_THRUST] = n_t
    row[M.MD_N_MACH] = n_m
    row[M.MD_BURN_END] = mo["time_s"][-1]
    o = M.MD_TABLES
    row[o:o + n_t] = mo["time_s"]
    row[o + n_t:o + 2 * n_t] = mo["thrust_n"]
    o += 2 * n_t
    row[o:o + n_m] = ae["mach"]
    row[o + n_m:o + 2 * n_m] = ae["cd0_boost"]
    row[o + 2 * n_m:o + 3 * n_m] = ae["cd0_coast"]
    row[o + 3 * n_m:o + 4 * n_m] = np.degrees(ae["normal_force_slope_per_deg"])     # per rad
    return row
