"""Guns as aircraft data: the [guns] harmonisation table and the [[gun]] records
(docs/aircraft_format.md), validated on load and compiled into the gun rows of the model
array (flightsim.physics.layout, the "guns and battle damage" block).

Compiling turns published figures into what the kernels use, never results: the recoil
impulse per round from the bullet's and the propellant gas's momentum, the boresight of
each gun from its position and the harmonisation (the guns are aimed at a point on the
sight line ``convergence_m`` ahead, raised by the bullet's drop over that distance), the
bullet's drag constant from its G1 ballistic coefficient. The ammunition's weight is not
a [[mass]] item: it is carried by the guns and re-summed by the kernel as rounds are fired.
An aircraft without [[gun]] records (a glider) simply has none.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics import layout as L
from .schema import DataError, Field, between, named_records, non_negative, num, positive, validate_table

G0 = 9.80665
BC_LB_IN2_TO_KG_M2 = 0.45359237 / 0.0254 ** 2     # 703.07: a G1 BC of 1 lb/in2 in kg/m2

GUNS_KEYS = {
    "sight_position_m": Field("vec3"),                       # the pilot's eye behind the gunsight
    "convergence_m": num(check=between(50.0, 2000.0)),       # the guns' harmonisation range
    "sight_depression_deg": num(False, 0.0, between(-10.0, 10.0)),   # sight line below the body x axis
    "notes": Field("str", required=False, default=""),
}
GUN_KEYS = {
    "name": Field("str"),
    "position_m": Field("vec3"),                             # the muzzle, body axes from the datum
    "mirror": Field("bool", required=False, default=False),  # a twin on the left wing (y -> -y)
    "rounds_per_minute": num(check=between(1.0, 10000.0)),
    "muzzle_velocity_ms": num(check=between(50.0, 2000.0)),
    "bullet_mass_kg": num(check=between(1e-4, 10.0)),
    "propellant_mass_kg": num(False, 0.0, non_negative),
    "propellant_gas_velocity_ms": num(False, None, between(50.0, 5000.0)),
    "rounds": num(check=between(0.0, 10000.0)),
    "round_mass_kg": num(check=positive),                    # one linked round: bullet, case, powder, link
    "ammo_box_position_m": Field("vec3"),
    "ammo_box_size_m": Field("vec3", check=lambda v: None if min(v) > 0 else
                             f"sizes must be greater than 0, got {list(v)}"),
    "ballistic_coefficient_g1_lb_per_in2": num(check=between(0.05, 3.0)),
    "hit_damage_area_m2": num(check=between(0.0, 5.0)),      # lifting surface one hit spoils
    "calibre_mm": num(check=between(2.0, 40.0)),             # the hole it makes, what armour stops (physics/damage.py)
    # the round the belt is mostly loaded with: ball, ap (armour piercing), incendiary (API, B Mk VI),
    # he (a high-explosive or mine shell)
    "round": Field("enum", required=False, default="ball", choices=L.ROUND_NAMES),
    "notes": Field("str", required=False, default=""),
}
GUN_TABLES = ("guns", "gun")


def load_guns(data: dict, path) -> dict | None:
    """The validated [guns] table and [[gun]] records (mirrored twins expanded), or None."""
    items = data.get("gun")
    if items is None:
        if "guns" in data:
            raise DataError(path, "guns", "a [guns] table without any [[gun]]")
        return None
    if not isinstance(items, list):
        raise DataError(path, "gun", "must be an array of tables [[gun]]")
    if "guns" not in data:
        raise DataError(path, "guns", "missing: [[gun]] needs the [guns] table (sight_position_m, convergence_m)")
    head = validate_table(data["guns"], GUNS_KEYS, path, "guns")
    guns = []
    for g in named_records(data, "gun", GUN_KEYS, path, False):
        label = g["_where"]
        if g["rounds"] != int(g["rounds"]):
            raise DataError(path, label + ".rounds", f"must be a whole number of rounds, got {g['rounds']!r}")
        if g["propellant_mass_kg"] > 0 and g["propellant_gas_velocity_ms"] is None:
            raise DataError(path, label + ".propellant_gas_velocity_ms",
                            "missing: needed with propellant_mass_kg (the gas's share of the recoil)")
        if g["round_mass_kg"] < g["bullet_mass_kg"] + g["propellant_mass_kg"]:
            raise DataError(path, label + ".round_mass_kg",
                            f"{g['round_mass_kg']} kg is less than the bullet and propellant it holds "
                            f"({g['bullet_mass_kg'] + g['propellant_mass_kg']} kg)")
        if g["mirror"] and g["position_m"][1] <= 0:
            raise DataError(path, label + ".position_m", "a mirrored gun is given on the right side (y > 0)")
        if g["mirror"]:
            for side, suffix in ((1.0, "_right"), (-1.0, "_left")):
                twin = dict(g)
                twin["name"] = g["name"] + suffix
                twin["side"] = side
                x, y, z = g["position_m"]
                twin["position_m"] = (x, side * y, z)
                bx, by, bz = g["ammo_box_position_m"]
                twin["ammo_box_position_m"] = (bx, side * by, bz)
                guns.append(twin)
        else:
            y = g["position_m"][1]
            g["side"] = 0.0 if abs(y) < 0.3 else math.copysign(1.0, y)
            guns.append(g)
    if len(guns) > L.N_GUN_MAX:
        raise DataError(path, "gun", f"at most {L.N_GUN_MAX} guns (mirrored twins count), got {len(guns)}")
    return {"head": head, "guns": guns}


def boresight(muzzle, head) -> np.ndarray:
    """Unit boresight (body axes) of a gun harmonised to the sight line: aimed at the
    point ``convergence_m`` ahead of the sight along the sight line, raised by the drop of
    a bullet over that distance at its muzzle velocity (the aircraft's own speed adds to
    it in flight and drag takes some off: the two nearly cancel at the ranges guns are
    harmonised for)."""
    dep = math.radians(head["sight_depression_deg"])
    sight = np.array(head["sight_position_m"])
    rng = head["convergence_m"]
    aim = sight + rng * np.array([math.cos(dep), 0.0, math.sin(dep)])
    return aim - np.asarray(muzzle, dtype=float)


def compile_guns(spec, model, mass, cg, inertia):
    """Append the gun rows (and, without a powerplant, the dry-aircraft row the mass re-sum
    starts from). Returns (model, mass, cg, inertia) with the ammunition included."""
    g = getattr(spec, "guns", None)
    if not g:
        return model, mass, cg, inertia
    head, guns = g["head"], g["guns"]
    rows = []
    if int(model[0, L.H_ROW_DRY]) <= 0:
        dry = np.zeros(L.MODEL_COLS)
        dry[L.M_MASS] = mass
        dry[L.M_CG:L.M_CG + 3] = cg
        dry[L.M_INERTIA:L.M_INERTIA + 9] = np.asarray(inertia).ravel()
        rows.append(dry)
    for gun in guns:
        row = np.zeros(L.MODEL_COLS)
        muzzle = np.array(gun["position_m"])
        line = boresight(muzzle, head)
        dist = float(np.linalg.norm(line))
        t = dist / gun["muzzle_velocity_ms"]
        line[2] -= 0.5 * G0 * t * t            # up is -z: aim above the point by the drop
        row[L.GUN_POS:L.GUN_POS + 3] = muzzle
        row[L.GUN_DIR:L.GUN_DIR + 3] = line / np.linalg.norm(line)
        row[L.GUN_RATE] = gun["rounds_per_minute"] / 60.0
        row[L.GUN_MUZZLE_V] = gun["muzzle_velocity_ms"]
        row[L.GUN_BULLET_MASS] = gun["bullet_mass_kg"]
        gas = gun["propellant_mass_kg"] * (gun["propellant_gas_velocity_ms"] or 0.0)
        row[L.GUN_IMPULSE] = gun["bullet_mass_kg"] * gun["muzzle_velocity_ms"] + gas
        row[L.GUN_AMMO] = gun["rounds"]
        row[L.GUN_ROUND_MASS] = gun["round_mass_kg"]
        row[L.GUN_BOX_POS:L.GUN_BOX_POS + 3] = gun["ammo_box_position_m"]
        row[L.GUN_BOX_SIZE:L.GUN_BOX_SIZE + 3] = gun["ammo_box_size_m"]
        # G1 drag law: a = (pi/8) rho v^2 Cd_G1(M) / BC, BC in kg/m2 (physics/ballistics.py)
        bc = gun["ballistic_coefficient_g1_lb_per_in2"] * BC_LB_IN2_TO_KG_M2
        row[L.GUN_DRAG_K] = math.pi / 8.0 / bc
        row[L.GUN_HIT_AREA] = gun["hit_damage_area_m2"]
        row[L.GUN_SIDE] = gun["side"]
        row[L.GUN_CALIBRE_MM] = gun["calibre_mm"]
        row[L.GUN_ROUND_KIND] = L.ROUND_NAMES.index(gun["round"])
        rows.append(row)
    base = model.shape[0]
    model = np.vstack([model, np.array(rows)])
    if int(model[0, L.H_ROW_DRY]) <= 0:
        model[0, L.H_ROW_DRY] = base
        base += 1
    model[0, L.H_ROW_GUN] = base
    model[0, L.H_N_GUNS] = len(guns)
    from .tanks import resummed
    return (model, *resummed(model))


def gun_rows(model) -> np.ndarray:
    """The gun rows of a compiled model (a view; (0, MODEL_COLS) without guns)."""
    g0 = int(model[0, L.H_ROW_GUN])
    n = int(model[0, L.H_N_GUNS])
    return model[g0:g0 + n]
