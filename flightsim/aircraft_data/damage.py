"""Systems damage and stores as aircraft data: the [damage] table, [[component]] hit boxes and
[[store]] records (docs/aircraft_format.md), validated on load and compiled into the model
rows of the "systems damage and stores" block (flightsim.physics.layout).

* ``[damage]``: the coolant and oil carried, the pressures that drive a leak, the book
  temperature limits and the failure temperatures, how fast heat and oil starvation wear
  the engine out, how a tank fire burns, spreads and explodes.
* ``[[component]]``: a box (body axes from the datum) per component a round can strike:
  the engine, each coolant radiator (one or two: two share the heat load equally), the oil
  cooler, the pilot, armour (with the calibre it stops), the control runs. The fuel tanks'
  boxes are their [[tank]] boxes and the propeller's its disc: both are added here.
* ``[[store]]``: bombs, drop tanks and missiles (mass, box, drag area; a drop tank's fuel). A
  drop tank becomes a fuel tank fed first, carried by its store. A missile store is a row of
  ``count`` rounds of one ``weapon`` (its mass and drag each round's), launched one at a time
  by the world. ``loaded`` is the default loadout; a scenario chooses its own (``set_loadout``;
  its missiles find their rows through ``missile_loadout``). An aircraft may have stores without
  the [damage] table (a jet's missiles).
"""
from __future__ import annotations

import math

import numpy as np

from .. import WEAPON_DIR
from ..physics import layout as L
from .schema import DataError, Field, between, named_records, non_negative, num, positive, validate_table
from .tanks import resummed

_SIZE = Field("vec3", check=lambda v: None if min(v) > 0 else f"sizes must be greater than 0, got {list(v)}")
DAMAGE_KEYS = {
    "coolant_kg": num(check=positive),
    "coolant_pressure_pa": num(check=positive),               # above ambient: drives a leak
    "coolant_specific_heat_j_per_kg_k": num(False, 3400.0, between(1500.0, 4300.0)),
    "oil_kg": num(check=positive),
    "oil_pressure_pa": num(check=positive),                   # normal (gauge) at cruise rpm and above
    "oil_specific_heat_j_per_kg_k": num(False, 2000.0, between(1500.0, 2600.0)),
    "oil_pressure_full_rpm": num(check=positive),
    "coolant_limit_k": num(check=between(330.0, 450.0)),      # the manual's combat maximum
    "engine_failure_k": num(check=between(350.0, 700.0)),     # engine temperature at which it seizes
    "oil_limit_k": num(check=between(320.0, 420.0)),
    "oil_failure_k": num(check=between(340.0, 520.0)),
    "wear_s": num(False, 120.0, between(5.0, 3600.0)),        # halfway to failure, this long wears it out
    "bearing_wear_s": num(False, 60.0, between(5.0, 3600.0)),  # no oil pressure at full rpm, this long
    # a block past its coolant limit heats the oil (piston crowns, bearings): W per K past the limit
    "block_to_oil_w_per_k": num(False, 2000.0, between(0.0, 50000.0)),
    "tank_fire_burn_kg_s": num(False, 0.3, between(0.0, 10.0)),
    "tank_fire_explosion_s": num(False, 20.0, between(1.0, 600.0)),
    "tank_fire_spread_s": num(False, 8.0, between(0.5, 600.0)),
    "tank_fire_spread_m": num(False, 1.5, between(0.0, 20.0)),
    "fuselage_half_width_m": num(False, 0.5, between(0.1, 3.0)),   # tanks within this of the centre line are in the fuselage
    # two radiators: "shared" one coolant circuit through both (a hole in either drains it all), or
    # "separate" circuits (the Bf 109 F/G: a hit one is cut off, the other still cools, seed 000)
    "coolant_circuits": Field("enum", required=False, default="shared", choices=("shared", "separate")),
    "notes": Field("str", required=False, default=""),
}
COMPONENT_PARTS = ("engine", "radiator", "oil_cooler", "pilot", "armour", "elevator_linkage",
                   "aileron_linkage", "rudder_linkage")
COMPONENT_KEYS = {
    "name": Field("str"),
    "part": Field("enum", choices=COMPONENT_PARTS),
    "position_m": Field("vec3"),                              # box centre
    "size_m": _SIZE,
    "stops_calibre_mm": num(False, 0.0, between(0.0, 40.0)),  # armour: the largest calibre it stops
}
STORE_KEYS = {
    "name": Field("str"),
    "kind": Field("enum", choices=("bomb", "drop_tank", "missile")),
    "station": Field("str"),                                  # where it hangs: one store per station in a loadout
    "mass_kg": num(check=positive),                           # a drop tank: empty; a missile store: each round
    "weapon": Field("str", required=False, default=""),       # a missile store: the weapon's id (weapons/ID/)
    "count": num(False, 1.0, between(1, 16)),                 # a missile store: its rounds (mass, drag each)
    "rounds_m": Field("numgrid", required=False, default=None),   # a missile store: where each round hangs, drawn
    "position_m": Field("vec3"),
    "size_m": _SIZE,
    "drag_area_m2": num(check=non_negative),
    "fuel_kg": num(False, 0.0, non_negative),                 # a drop tank's fuel
    "loaded": Field("bool", required=False, default=False),   # carried unless a scenario says otherwise
    "notes": Field("str", required=False, default=""),
}
DAMAGE_TABLES = ("damage", "component", "store")


def load_damage(data: dict, path, powerplant: dict | None) -> dict | None:
    """The validated [damage], [[component]] and [[store]] tables, or None. Drop tanks are
    added to the powerplant's tanks (fed first, carried by their store)."""
    present = [k for k in DAMAGE_TABLES if k in data]
    if not present:
        return None
    if powerplant is None:
        raise DataError(path, present[0], "systems damage and stores need a powerplant (kind = 'powered')")
    if "damage" not in data and "component" in data:
        raise DataError(path, "damage", "missing: [[component]] needs the [damage] table")
    dmg, parts = _systems(data, path, powerplant) if "damage" in data else (None, [])
    stores = named_records(data, "store", STORE_KEYS, path, False)
    if len(stores) > L.N_STORE_MAX:
        raise DataError(path, "store", f"at most {L.N_STORE_MAX} stores, got {len(stores)}")
    tanks = powerplant["tanks"]
    on: dict = {}
    for s in stores:
        if s["loaded"]:
            if s["station"] in on:
                raise DataError(path, s["_where"] + ".loaded", f"station {s['station']!r} already carries {on[s['station']]!r}")
            on[s["station"]] = s["name"]
    for k, s in enumerate(stores):
        _check_missile_store(s, path)
        if s["kind"] == "drop_tank":
            if s["fuel_kg"] <= 0:
                raise DataError(path, s["_where"] + ".fuel_kg", "a drop tank needs its fuel (fuel_kg > 0)")
            if len(tanks) >= L.N_TANK_MAX:
                raise DataError(path, s["_where"], f"at most {L.N_TANK_MAX} tanks with the drop tanks")
            tanks.append({"name": s["name"], "position_m": s["position_m"], "capacity_kg": s["fuel_kg"],
                          "fuel_kg": s["fuel_kg"], "size_m": s["size_m"], "feed_priority": -1.0,
                          "self_sealing_mm": 0.0, "store": k, "_where": s["_where"]})
        elif s["fuel_kg"] > 0:
            raise DataError(path, s["_where"] + ".fuel_kg", "only a drop tank carries fuel")
    return {"damage": dmg, "components": parts, "stores": stores}


def _check_missile_store(s: dict, path) -> None:
    """A missile store names its weapon and holds a whole number of rounds; no other store does either."""
    if s["kind"] == "missile":
        if not s["weapon"]:
            raise DataError(path, s["_where"] + ".weapon", "a missile store names its weapon (an id under weapons/)")
        if not (WEAPON_DIR / s["weapon"] / "missile.toml").is_file():
            known = sorted(p.parent.name for p in WEAPON_DIR.glob("*/missile.toml"))
            raise DataError(path, s["_where"] + ".weapon", f"no weapon named {s['weapon']!r} (known: {', '.join(known)})")
        if s["count"] != int(s["count"]):
            raise DataError(path, s["_where"] + ".count", f"a whole number of rounds, got {s['count']!r}")
        r = s["rounds_m"]
        if r is not None and (len(r) != s["count"] or len(r[0]) != 3):
            raise DataError(path, s["_where"] + ".rounds_m", f"one [x, y, z] per round ({int(s['count'])}), "
                                                             f"got {len(r)} of {len(r[0])}")
    elif s["weapon"] or s["count"] != 1 or s["rounds_m"] is not None:
        raise DataError(path, s["_where"] + (".weapon" if s["weapon"] else ".count" if s["count"] != 1 else ".rounds_m"),
                        f"only a missile store has a weapon and a count of rounds (this is a {s['kind']})")


def _systems(data: dict, path, powerplant: dict) -> tuple[dict, list]:
    """The validated [damage] table and [[component]] boxes."""
    dmg = validate_table(data["damage"], DAMAGE_KEYS, path, "damage")
    if dmg["engine_failure_k"] <= dmg["coolant_limit_k"]:
        raise DataError(path, "damage.engine_failure_k", "must be above coolant_limit_k")
    if dmg["oil_failure_k"] <= dmg["oil_limit_k"]:
        raise DataError(path, "damage.oil_failure_k", "must be above oil_limit_k")
    parts = named_records(data, "component", COMPONENT_KEYS, path, False)
    n_rad = sum(1 for p in parts if p["part"] == "radiator")
    if not 1 <= n_rad <= L.N_RAD_MAX:
        raise DataError(path, "component", f"give 1 to {L.N_RAD_MAX} [[component]] boxes with part = 'radiator' "
                                           f"(got {n_rad}): each carries an equal share of the heat load")
    for need in ("engine", "pilot"):
        if not any(p["part"] == need for p in parts):
            raise DataError(path, "component", f"no [[component]] with part = '{need}'")
    cap = powerplant["radiator"]["heat_capacity_j_per_k"]
    coolant_cap = dmg["coolant_kg"] * dmg["coolant_specific_heat_j_per_kg_k"]
    if coolant_cap >= 0.9 * cap:
        raise DataError(path, "damage.coolant_kg",
                        f"{dmg['coolant_kg']} kg of coolant hold {coolant_cap:.0f} J/K, more than 90 % of the "
                        f"radiator circuit's heat_capacity_j_per_k ({cap:.0f}): the engine's metal needs the rest")
    oil_cap = powerplant["oil_cooler"]["heat_capacity_j_per_k"]
    if dmg["oil_kg"] * dmg["oil_specific_heat_j_per_kg_k"] >= 0.9 * oil_cap:
        raise DataError(path, "damage.oil_kg", "the oil holds more than 90 % of the oil circuit's heat capacity")
    return dmg, parts


def compile_damage(spec, model, mass, cg, inertia):
    """Append the damage constants row, the hit-box rows and the store rows (an aircraft with
    stores alone, no [damage]: the store rows only). Returns (model, mass, cg, inertia) with the
    loaded stores included."""
    d = getattr(spec, "damage", None)
    if not d:
        return model, mass, cg, inertia
    dmg, parts, stores = d["damage"], d["components"], d["stores"]
    pp = spec.powerplant
    boxes = _hit_boxes(parts, pp) if dmg is not None else []
    head = [_damage_row(dmg, parts, pp)] if dmg is not None else []
    rows = head + [_box_row(*box) for box in boxes] + _store_rows(stores, pp, model)
    if not rows:
        return model, mass, cg, inertia
    base = model.shape[0]
    model = np.vstack([model, np.array(rows)])
    model[0, L.H_ROW_DMG] = base if head else 0
    model[0, L.H_ROW_PART] = base + 1 if head else 0
    model[0, L.H_N_PARTS] = len(boxes)
    model[0, L.H_ROW_STORE] = base + len(head) + len(boxes) if stores else 0
    model[0, L.H_N_STORES] = len(stores)
    model[0, L.H_STORES_LOADED] = sum(1 for st in stores if st["loaded"])
    return model, *resummed(model)


def _damage_row(dmg: dict, parts: list, pp: dict) -> np.ndarray:
    """The damage constants: coolant and oil (masses, pressures, limits, heat), wear, fire."""
    D = np.zeros(L.MODEL_COLS)
    rad_cap = pp["radiator"]["heat_capacity_j_per_k"]
    oil_cap = pp["oil_cooler"]["heat_capacity_j_per_k"]
    D[L.DM_COOLANT_KG] = dmg["coolant_kg"]
    D[L.DM_COOLANT_DP] = dmg["coolant_pressure_pa"]
    D[L.DM_OIL_KG] = dmg["oil_kg"]
    D[L.DM_OIL_DP] = dmg["oil_pressure_pa"]
    D[L.DM_T_LIMIT] = dmg["coolant_limit_k"]
    D[L.DM_T_FAIL] = dmg["engine_failure_k"]
    D[L.DM_OIL_T_LIMIT] = dmg["oil_limit_k"]
    D[L.DM_OIL_T_FAIL] = dmg["oil_failure_k"]
    D[L.DM_METAL_CAP] = rad_cap - dmg["coolant_kg"] * dmg["coolant_specific_heat_j_per_kg_k"]
    D[L.DM_OIL_METAL_CAP] = oil_cap - dmg["oil_kg"] * dmg["oil_specific_heat_j_per_kg_k"]
    D[L.DM_WEAR_S] = dmg["wear_s"]
    D[L.DM_N_CORES] = sum(1 for p in parts if p["part"] == "radiator")
    D[L.DM_FIRE_BURN] = dmg["tank_fire_burn_kg_s"]
    D[L.DM_FIRE_EXPLODE_S] = dmg["tank_fire_explosion_s"]
    D[L.DM_FIRE_SPREAD_S] = dmg["tank_fire_spread_s"]
    D[L.DM_FIRE_SPREAD_M] = dmg["tank_fire_spread_m"]
    D[L.DM_OIL_RPM] = dmg["oil_pressure_full_rpm"] * math.pi / 30.0
    D[L.DM_BEARING_S] = dmg["bearing_wear_s"]
    D[L.DM_BLOCK_OIL] = dmg["block_to_oil_w_per_k"]
    D[L.DM_COOLANT_CP] = dmg["coolant_specific_heat_j_per_kg_k"]
    D[L.DM_OIL_CP] = dmg["oil_specific_heat_j_per_kg_k"]
    D[L.DM_FUSELAGE_HALF_Y] = dmg["fuselage_half_width_m"]
    D[L.DM_SHARED] = 1.0 if dmg["coolant_circuits"] == "shared" else 0.0
    return D


PART_KINDS = {"engine": L.PART_ENGINE, "radiator": L.PART_RADIATOR, "oil_cooler": L.PART_OIL_COOLER,
              "pilot": L.PART_PILOT, "armour": L.PART_ARMOUR, "elevator_linkage": L.PART_LINK_PITCH,
              "aileron_linkage": L.PART_LINK_ROLL, "rudder_linkage": L.PART_LINK_YAW}


def _hit_boxes(parts: list, pp: dict) -> list:
    """(kind, index, position, size, calibre it stops) of the components, the tanks and the propeller's disc."""
    boxes = []
    n_rad = 0
    for p in parts:
        idx = 0
        if p["part"] == "radiator":
            idx = n_rad
            n_rad += 1
        boxes.append((PART_KINDS[p["part"]], idx, p["position_m"], p["size_m"], p["stops_calibre_mm"]))
    for i, t in enumerate(pp["tanks"]):
        boxes.append((L.PART_TANK, i, t["position_m"], t["size_m"], 0.0))
    prop = pp["propeller"]
    r = 0.5 * prop["diameter_m"]
    boxes.append((L.PART_PROPELLER, 0, prop["position_m"], (0.25, 2 * r, 2 * r), 0.0))
    return boxes


def _box_row(kind, idx, pos, size, stops) -> np.ndarray:
    row = np.zeros(L.MODEL_COLS)
    row[L.PT_KIND] = kind
    row[L.PT_INDEX] = idx
    row[L.PT_POS:L.PT_POS + 3] = pos
    row[L.PT_HALF:L.PT_HALF + 3] = 0.5 * np.asarray(size, dtype=float)
    row[L.PT_STOPS] = stops
    return row


def _store_rows(stores: list, pp: dict, model) -> list:
    """A row per store: its kind, mass, place, size, drag, the tank it carries, whether loaded."""
    base_plant = int(model[0, L.H_ROW_PLANT])
    tank0 = base_plant + L.PLANT_STATIONS + int(model[0, L.H_N_PROP_ST])
    tank_of = {t["store"]: i for i, t in enumerate(pp["tanks"]) if "store" in t}
    rows = []
    for k, s in enumerate(stores):
        row = np.zeros(L.MODEL_COLS)
        row[L.ST_KIND] = {"drop_tank": L.STORE_DROP_TANK, "missile": L.STORE_MISSILE}.get(s["kind"], L.STORE_BOMB)
        row[L.ST_CAPACITY] = s["count"]
        _hang(row, s, s["count"])
        row[L.ST_POS:L.ST_POS + 3] = s["position_m"]
        row[L.ST_SIZE:L.ST_SIZE + 3] = s["size_m"]
        if k in tank_of:
            row[L.ST_TANK] = tank_of[k] + 1
            row[L.ST_TANK_ROW] = tank0 + tank_of[k]
        row[L.ST_LOADED] = 1.0 if s["loaded"] else 0.0
        rows.append(row)
    return rows


def _hang(row, s: dict, n) -> None:
    """A store row's rounds for this flight and their mass and drag (the file's per-round figures)."""
    row[L.ST_COUNT] = n
    row[L.ST_MASS] = s["mass_kg"] * n          # a missile row: all its rounds
    row[L.ST_CDA] = s["drag_area_m2"] * n


def stores_of(spec) -> list[dict]:
    """An aircraft's [[store]] records, in the model's store order (none without stores)."""
    d = getattr(spec, "damage", None)
    return d["stores"] if d else []


def store_names(spec) -> list[str]:
    return [s["name"] for s in stores_of(spec)]


def set_loadout(model, spec, names, where="stores", path=None) -> None:
    """Carry exactly the named stores on this flight (a scenario's ``stores``); unknown names
    and two stores on one station are refused (naming ``path``, default the aircraft file,
    and ``where``). The mass is re-summed."""
    path = path or spec.path
    known = store_names(spec)
    for n in names:
        if n not in known:
            raise DataError(path, where, f"no [[store]] named {n!r} on {spec.id} (known: {', '.join(known) or 'none'})")
    station = {s["name"]: s["station"] for s in stores_of(spec)}
    taken: dict = {}
    for n in names:
        if station[n] in taken:
            raise DataError(path, where, f"{n!r} and {taken[station[n]]!r} both hang on station {station[n]!r}")
        taken[station[n]] = n
    r0 = int(model[0, L.H_ROW_STORE])
    for k, n in enumerate(known):
        model[r0 + k, L.ST_LOADED] = 1.0 if n in names else 0.0
    if known:
        model[0, L.H_STORES_LOADED] = len(names)
        resummed(model)


def missile_loadout(spec, missiles, path=None, where: str = "missiles") -> tuple[list[str], dict]:
    """The missile stores that carry a scenario's missiles (weapon ids, one per round): for each
    weapon in its first-named order, its [[store]] rows in the file's order whose station is still
    free, filled until its rounds are hung. Returns the stores' names (for set_loadout) and, for a
    row carrying fewer rounds than it holds, {store index: rounds hung} (for hang_rounds). An
    aircraft with no missile store carries its missiles as before, outside its physics (nothing
    returned); one whose rows cannot hang them all is refused, naming ``path`` and ``where``."""
    stores = stores_of(spec)
    if not any(s["kind"] == "missile" for s in stores) or not missiles:
        return [], {}
    need: dict = {}
    for w in missiles:
        need[w] = need.get(w, 0) + 1
    taken: set = set()
    names: list[str] = []
    partial: dict = {}
    for w, n in need.items():
        for k, s in enumerate(stores):
            if n <= 0:
                break
            if s["kind"] != "missile" or s["weapon"] != w or s["station"] in taken:
                continue
            hung = min(n, int(s["count"]))
            n -= hung
            taken.add(s["station"])
            names.append(s["name"])
            if hung < s["count"]:
                partial[k] = hung
        if n > 0:
            raise DataError(path or spec.path, where, f"{n} x {w} find no free missile station on {spec.id} "
                            f"(its missile stores: {', '.join(s['name'] for s in stores if s['kind'] == 'missile')})")
    return names, partial


def hang_rounds(model, spec, rounds: dict) -> None:
    """Each missile store row's rounds for this flight: ``rounds`` ({store index: rounds}, from
    missile_loadout) where it carries fewer than it holds, else its full count; its mass and drag
    follow (the file's per-round figures). Before set_loadout, which re-sums the mass."""
    r0 = int(model[0, L.H_ROW_STORE])
    for k, s in enumerate(stores_of(spec)):
        if s["kind"] == "missile":
            _hang(model[r0 + k], s, rounds.get(k, s["count"]))


def set_stores_and_missiles(model, spec, stores, missiles, path=None, where: str = "stores",
                            where_missiles: str = "missiles") -> None:
    """A flight's whole loadout: the named bombs and drop tanks, and the missile stores that carry
    its missiles (missile_loadout, hang_rounds), then set_loadout."""
    names, rounds = missile_loadout(spec, missiles, path, where_missiles)
    hang_rounds(model, spec, rounds)
    set_loadout(model, spec, list(stores) + names, where, path)
