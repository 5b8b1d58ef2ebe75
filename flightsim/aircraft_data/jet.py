"""[jet_engine] and [[jet]]: afterburning turbofans instead of an engine and propeller.

The engine type is written once ([jet_engine]: ratings, fuel consumption, spool and
afterburner times, and its deck of net thrust against Mach and altitude); each [[jet]] installs
it at a nozzle. The fuel tanks are the powered aircraft's [[tank]] records. Compiled into the
powerplant block (its dry row and tank rows; no propeller) and the jet rows (layout JE_*, JT_*).
"""
from __future__ import annotations

import numpy as np

from ..physics import layout as L
from .schema import DataError, Field, between, non_negative, num, positive, validate_table
from .tanks import append_plant, resummed

JET_ENGINE_KEYS = {
    "name": Field("str"),
    "military_thrust_n": num(check=positive),          # net, installed deck's sea-level static value
    "afterburner_thrust_n": num(check=positive),
    "idle_thrust_fraction": num(False, 0.05, between(0.0, 0.3)),
    "idle_airflow_kg_s": num(False, 0.0, non_negative),
    "tsfc_military_kg_per_n_h": num(check=between(0.01, 0.3)),
    "tsfc_afterburner_kg_per_n_h": num(check=between(0.01, 0.5)),
    "tsfc_mach_factor": num(False, 0.3, between(0.0, 2.0)),
    "spool_up_s": num(check=between(0.05, 20.0)),           # time constant, idle toward military
    "spool_down_s": num(check=between(0.05, 20.0)),
    "afterburner_light_s": num(check=between(0.05, 20.0)),  # off to full afterburner
    "afterburner_min_spool": num(False, 0.95, between(0.5, 1.0)),
    "military_throttle": num(False, 0.8, between(0.3, 0.98)),   # the detent: afterburner above it
    "windmill_drag_area_m2": num(False, 0.0, non_negative),
    "deck_mach": Field("numlist"),
    "deck_altitude_m": Field("numlist"),
    "military_thrust_ratio": Field("numgrid"),              # one row per deck Mach, one column per altitude
    "afterburner_thrust_ratio": Field("numgrid"),
    "notes": Field("str", required=False, default=""),
}
JET_KEYS = {
    "name": Field("str"),
    "position_m": Field("vec3"),                            # nozzle exit, body axes from the datum
    "thrust_axis": Field("vec3", required=False, default=(1.0, 0.0, 0.0)),
    "mass_kg": num(False, 0.0, non_negative),               # (the engine's mass goes in a [[mass]] item)
}


def load_jets(data: dict, path) -> dict:
    """[jet_engine] and its [[jet]] installations, validated (the caller adds the tanks)."""
    if "jet" not in data:
        raise DataError(path, "jet", "missing: [jet_engine] needs at least one [[jet]] installing it")
    eng = validate_table(data["jet_engine"], JET_ENGINE_KEYS, path, "jet_engine")
    items = data["jet"]
    if not isinstance(items, list) or not 1 <= len(items) <= L.N_JET_MAX:
        raise DataError(path, "jet", f"give 1 to {L.N_JET_MAX} [[jet]] tables")
    jets = []
    for i, item in enumerate(items):
        rec = validate_table(item, JET_KEYS, path, f"jet[{i}]")
        axis = np.array(rec["thrust_axis"])
        if np.linalg.norm(axis) < 1e-6:
            raise DataError(path, f"jet[{i}].thrust_axis", "must not be zero")
        rec["thrust_axis"] = tuple(axis / np.linalg.norm(axis))
        jets.append(rec)
    mach = np.array(eng["deck_mach"])
    alt = np.array(eng["deck_altitude_m"])
    for key, v in (("deck_mach", mach), ("deck_altitude_m", alt)):
        if len(v) < 2 or np.any(np.diff(v) <= 0):
            raise DataError(path, f"jet_engine.{key}", "needs at least 2 values, strictly increasing")
    if len(alt) > L.MODEL_COLS - 1:
        raise DataError(path, "jet_engine.deck_altitude_m", f"at most {L.MODEL_COLS - 1} altitudes")
    for key in ("military_thrust_ratio", "afterburner_thrust_ratio"):
        grid = np.array(eng[key])
        if grid.shape != (len(mach), len(alt)):
            raise DataError(path, f"jet_engine.{key}",
                            f"must have {len(mach)} rows (deck_mach) of {len(alt)} values (deck_altitude_m), "
                            f"got {grid.shape[0]} of {grid.shape[1]}")
        if grid.min() < 0.0:
            raise DataError(path, f"jet_engine.{key}", "thrust ratios must not be negative")
        eng[key] = grid
    if eng["afterburner_thrust_n"] <= eng["military_thrust_n"]:
        raise DataError(path, "jet_engine.afterburner_thrust_n", "must exceed military_thrust_n")
    return {"jet_engine": eng, "jets": jets}


def compile_jets(pp: dict, model, mass, cg, inertia):
    """Append the powerplant block (dry row, tank rows; no engine or propeller) and the jet rows."""
    eng, jets, tanks = pp["jet_engine"], pp["jets"], pp["tanks"]
    model, _ = append_plant(model, np.zeros((L.PLANT_STATIONS + len(tanks), L.MODEL_COLS)), 0, tanks, mass, cg,
                            inertia)
    mach, alt = eng["deck_mach"], eng["deck_altitude_m"]
    n_m, n_a = len(mach), len(alt)
    jr = np.zeros((1 + len(jets) + 1 + 2 * n_m, L.MODEL_COLS))
    E = jr[L.JET_ROW_ENGINE]
    E[L.JE_MIL_N] = eng["military_thrust_n"]
    E[L.JE_AB_N] = eng["afterburner_thrust_n"]
    E[L.JE_IDLE_FRAC] = eng["idle_thrust_fraction"]
    E[L.JE_IDLE_AIR] = eng["idle_airflow_kg_s"]
    E[L.JE_TSFC_MIL] = eng["tsfc_military_kg_per_n_h"] / 3600.0
    E[L.JE_TSFC_AB] = eng["tsfc_afterburner_kg_per_n_h"] / 3600.0
    E[L.JE_TSFC_MACH] = eng["tsfc_mach_factor"]
    E[L.JE_SPOOL_UP] = eng["spool_up_s"]
    E[L.JE_SPOOL_DOWN] = eng["spool_down_s"]
    E[L.JE_AB_RATE] = 1.0 / eng["afterburner_light_s"]
    E[L.JE_DETENT] = eng["military_throttle"]
    E[L.JE_AB_SPOOL] = eng["afterburner_min_spool"]
    E[L.JE_WINDMILL_CDA] = eng["windmill_drag_area_m2"]
    E[L.JE_N_MACH] = n_m
    E[L.JE_N_ALT] = n_a
    for k, j in enumerate(jets):
        r = jr[L.JET_ROW_INSTALL + k]
        r[L.JT_POS:L.JT_POS + 3] = j["position_m"]
        r[L.JT_AXIS:L.JT_AXIS + 3] = j["thrust_axis"]
    a0 = L.JET_ROW_INSTALL + len(jets)
    jr[a0, :n_a] = alt
    for b, key in enumerate(("military_thrust_ratio", "afterburner_thrust_ratio")):
        for i in range(n_m):
            r = jr[a0 + 1 + b * n_m + i]
            r[0] = mach[i]
            r[1:1 + n_a] = eng[key][i]
    row_jet = model.shape[0]
    model = np.vstack([model, jr])
    model[0, L.H_ROW_JET] = row_jet
    model[0, L.H_N_JETS] = len(jets)
    mass, cg, inertia = resummed(model)
    return model, mass, cg, inertia
