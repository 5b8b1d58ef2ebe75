"""Fuel tanks ([[tank]], any powered aircraft: piston or jet) and the fresh mass re-sum the
powerplant, gun and damage compilers share."""
from __future__ import annotations

import numpy as np

from ..physics import layout as L
from .schema import DataError, Field, between, non_negative, num, positive, validate_table

TANK_KEYS = {
    "name": Field("str"),
    "position_m": Field("vec3"),
    "capacity_kg": num(check=positive),
    "fuel_kg": num(check=non_negative),
    "size_m": Field("vec3", check=lambda v: None if min(v) > 0 else f"sizes must be greater than 0, got {list(v)}"),
    "feed_priority": num(False, 0.0, between(0, 99)),
    # a self-sealing tank closes holes up to this calibre, mm (0: not self-sealing; physics/damage.py)
    "self_sealing_mm": num(False, 0.0, between(0.0, 40.0)),
}


def _records(data, key, schema, path):
    items = data.get(key, [])
    if not isinstance(items, list):
        raise DataError(path, key, f"must be an array of tables [[{key}]]")
    out = []
    for i, item in enumerate(items):
        label = f"{key}[{i}]"
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            label += f" '{item['name']}'"
        rec = validate_table(item, schema, path, label)
        rec["_where"] = label
        out.append(rec)
    return out


def load_tanks(data, path) -> list[dict]:
    tanks = _records(data, "tank", TANK_KEYS, path)
    if len(tanks) > L.N_TANK_MAX:
        raise DataError(path, "tank", f"at most {L.N_TANK_MAX} tanks, got {len(tanks)}")
    names = set()
    for t in tanks:
        if t["name"] in names:
            raise DataError(path, t["_where"] + ".name", f"duplicate name {t['name']!r}")
        names.add(t["name"])
        if t["fuel_kg"] > t["capacity_kg"] + 1e-9:
            raise DataError(path, t["_where"] + ".fuel_kg",
                            f"{t['fuel_kg']} kg does not fit in a {t['capacity_kg']} kg tank")
    return tanks


def tank_rows(rows, tanks):
    """Fill one model row per tank (layout TK_*)."""
    for i, t in enumerate(tanks):
        row = rows[i]
        row[L.TK_POS:L.TK_POS + 3] = t["position_m"]
        row[L.TK_FUEL] = t["fuel_kg"]
        row[L.TK_CAPACITY] = t["capacity_kg"]
        row[L.TK_SIZE:L.TK_SIZE + 3] = t["size_m"]
        row[L.TK_PRIORITY] = t["feed_priority"]
        row[L.TK_SEAL_MM] = t.get("self_sealing_mm", 0.0)
        row[L.TK_STORE] = t["store"] + 1 if "store" in t else 0.0     # a drop tank: carried by its store


def append_plant(model, rows, n_st, tanks, mass, cg, inertia):
    """Finish the powerplant block ``rows`` (PLANT_STATIONS + n_st blade stations + the tanks; the
    engine, supercharger, propeller and cooler rows the caller's, zero for jets): the dry aircraft
    (everything but the fuel: the mass re-sum's dry row, spec/guns.py adds the ammunition) and one
    row per tank; append it to ``model`` and point the header at it. Returns (model, its first row)."""
    base = model.shape[0]
    D = rows[L.PLANT_DRY]
    D[L.M_MASS] = mass
    D[L.M_CG:L.M_CG + 3] = cg
    D[L.M_INERTIA:L.M_INERTIA + 9] = inertia.ravel()
    tank_rows(rows[L.PLANT_STATIONS + n_st:], tanks)
    model = np.vstack([model, rows])
    model[0, L.H_ROW_PLANT] = base
    model[0, L.H_N_PROP_ST] = n_st
    model[0, L.H_N_TANKS] = len(tanks)
    model[0, L.H_ROW_DRY] = base + L.PLANT_DRY
    return model, base


def resummed(model):
    """(mass kg, CG, inertia tensor) of a compiled model with a fresh state (the loadout on, the
    tanks and belts full), re-summed by the kernel (physics.plant_mass.resum_mass) into ROW_MASS."""
    from ..physics.plant_mass import resum_mass
    resum_mass(model, np.zeros(L.N_STATE))
    return (float(model[L.ROW_MASS, L.M_MASS]), model[L.ROW_MASS, L.M_CG:L.M_CG + 3].copy(),
            model[L.ROW_MASS, L.M_INERTIA:L.M_INERTIA + 9].reshape(3, 3).copy())


