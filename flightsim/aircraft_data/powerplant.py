"""Powered aircraft: the [engine], [supercharger], [propeller], [[tank]], [radiator] and
[oil_cooler] tables (docs/aircraft_format.md; the performance targets are in references.toml),
validated on load and compiled into the powerplant rows of the model array
(flightsim.physics.layout, the "powered aircraft" block).

Compiling turns published figures into the components' own parameters, never results:
the supercharger's impeller work per stage comes from its critical altitude (the height
where, at the quoted rpm, it just delivers the quoted manifold pressure: PR = MAP / p(h)),
the closed-throttle air flow from the ground idle speed (enough flow that the engine just
turns the propeller at its fine-pitch stop there), the slipstream over each section from
where it sits behind the disc.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics import layout as L
from ..physics.atmosphere import isa
from ..physics.compress import clmax_loss_weight, wave_drag_peak
from .jet import compile_jets, load_jets
from .schema import DataError, Field, between, non_negative, num, positive, validate_table
from .tanks import append_plant, load_tanks, resummed

RPM = math.pi / 30.0          # rad/s per rpm
# fraction of the slipstream's swirl left at the tail once the wing (a stator behind the
# propeller) has taken out its share: Veldhuis, Propeller wing aerodynamic interference,
# PhD thesis TU Delft 2005, ch. 5 (swirl recovery by the wing); an axisymmetric body in a
# swirl centred on it feels no net side force, so the fuselage sections take only the
# axial slipstream
SWIRL_LEFT_BEHIND_WING = 0.5
INHG_PA = 3386.389

ENGINE_KEYS = {
    "name": Field("str"),
    "displacement_m3": num(check=positive),
    "compression_ratio": num(False, None, between(1.0, 20.0)),
    "volumetric_efficiency": num(check=between(0.3, 1.3)),
    "indicated_efficiency": num(check=between(0.05, 0.6)),
    "fuel_heating_value_j_per_kg": num(False, 43.5e6, positive),
    "fuel_air_ratio_rich": num(check=between(0.03, 0.2)),
    "fuel_air_ratio_lean": num(check=between(0.03, 0.2)),
    "fuel_air_ratio_stoich": num(False, 0.0667, between(0.03, 0.2)),
    "enrichment_manifold_pressure_pa": num(check=positive),
    "max_rpm": num(check=positive),
    "idle_rpm": num(check=positive),
    "firing_rpm": num(False, 250.0, positive),
    "military_manifold_pressure_pa": num(check=positive),
    "wep_manifold_pressure_pa": num(False, None, positive),
    # the highest rpm the governor holds without war emergency power, where the military
    # (climb and combat) rating is below the take-off rpm (DB 605 A: 2,600 at 1.30 ata,
    # 2,800 at 1.42); none: max_rpm
    "military_rpm": num(False, None, positive),
    "friction_mep_zero_rpm_pa": num(check=non_negative),
    "friction_mep_rated_pa": num(check=non_negative),
    "exhaust_back_pressure_ratio": num(False, 1.0, between(0.5, 2.0)),
    "propeller_gear_ratio": num(check=between(0.1, 2.0)),
    "rotating_inertia_kg_m2": num(check=positive),
    "crankshaft_counter_rotating": Field("bool", required=False, default=False),
    "starter_torque_n_m": num(False, 0.0, non_negative),
    "exhaust_jet_velocity_ms": num(False, 0.0, non_negative),
    "exhaust_position_m": Field("vec3"),
    "rated_power_w": num(check=positive),
    "coolant_heat_fraction": num(False, 0.25, between(0.0, 0.6)),
    "oil_heat_fraction": num(False, 0.06, between(0.0, 0.3)),
    # a float carburettor with a manual mixture lever and carburettor heat (physics/carburettor.py):
    # "automatic" (the default) schedules the mixture by manifold pressure (the fuel_air_ratio_*
    # keys); "carburettor" meters full rich (fuel_air_ratio_rich) at sea level, richer higher up
    "mixture": Field("enum", required=False, default="automatic", choices=("automatic", "carburettor")),
    "cylinders": num(False, 12.0, between(1, 28)),       # the engine sound's firing frequency (audio/synth.py)
    "carb_heat_rise_k": num(False, 50.0, between(0.0, 150.0)),     # 14 CFR 23.1093(a)(1): 90 F at 75 % power
    "carb_ice_block_kg": num(False, 0.06, positive),
    "egt_peak_rise_k": num(False, 820.0, between(100.0, 1500.0)),
    "notes": Field("str", required=False, default=""),
}
SUPERCHARGER_KEYS = {
    "name": Field("str", required=False, default="supercharger"),
    "stages": num(False, 1.0, between(1, 3)),
    # "gears": fixed gear ratios (one, or two with the aneroid switch); "fluid_coupling": the
    # DB 601/605's barometrically controlled coupling, the impeller slipping to just the capped
    # boost below the full-throttle height (critical_altitude_low_m), locked above it
    "drive": Field("enum", required=False, default="gears", choices=("gears", "fluid_coupling")),
    "stage_efficiency": num(check=between(0.3, 0.95)),
    "critical_manifold_pressure_pa": num(check=positive),
    "critical_rpm": num(check=positive),
    "critical_altitude_low_m": num(check=between(-500.0, 15000.0)),
    "critical_altitude_high_m": num(False, None, between(-500.0, 20000.0)),
    "shift_up_altitude_m": num(False, None, between(0.0, 20000.0)),
    "shift_down_altitude_m": num(False, None, between(0.0, 20000.0)),
    "aftercooler_effectiveness": num(False, 0.0, between(0.0, 1.0)),
    "aftercooler_coolant_temperature_k": num(False, 330.0, between(200.0, 450.0)),
    "ram_recovery": num(False, 0.7, between(0.0, 1.0)),
    "drive_efficiency": num(False, 0.95, between(0.5, 1.0)),
    "notes": Field("str", required=False, default=""),
}
PROPELLER_KEYS = {
    "name": Field("str"),
    "position_m": Field("vec3"),
    "rotation": Field("enum", choices=("clockwise", "anticlockwise")),   # seen from the cockpit
    "diameter_m": num(check=positive),
    "blades": num(check=between(1, 8)),
    "inertia_kg_m2": num(check=positive),
    "hub_radius_m": num(check=positive),
    "fine_pitch_deg": num(check=between(-20.0, 60.0)),
    "coarse_pitch_deg": num(check=between(0.0, 80.0)),
    "feather_deg": num(False, 0.0, between(0.0, 95.0)),
    "pitch_rate_deg_s": num(check=between(0.5, 60.0)),
    "governor_min_rpm": num(check=positive),
    "governor_max_rpm": num(check=positive),
    "governor_gain_per_s": num(check=between(0.01, 100.0)),
    "governor_lead_s": num(False, 0.0, between(0.0, 2.0)),
    "station_r_fraction": Field("numlist"),
    "station_chord_m": Field("numlist"),
    "station_twist_deg": Field("numlist"),
    "station_thickness_ratio": Field("numlist"),
    "station_airfoil": Field("strlist"),
    "notes": Field("str", required=False, default=""),
}
COOLER_KEYS = {
    "name": Field("str", required=False, default=""),
    "position_m": Field("vec3"),
    "face_area_m2": num(check=positive),
    "effectiveness": num(check=between(0.05, 1.0)),
    "drag_area_closed_m2": num(check=non_negative),
    "drag_area_open_m2": num(check=non_negative),
    "flap_open_temperature_k": num(check=between(250.0, 500.0)),
    "flap_range_k": num(check=between(1.0, 200.0)),
    "heat_capacity_j_per_k": num(check=positive),
    "duct_speed_ratio": num(False, 0.3, between(0.01, 1.0)),
}
POWERPLANT_TABLES = ("engine", "supercharger", "propeller", "tank", "radiator", "oil_cooler", "jet_engine", "jet")


def _check_engine(engine: dict, path) -> dict:
    """[engine]'s speeds and pressures in their order."""
    if engine["idle_rpm"] >= engine["max_rpm"]:
        raise DataError(path, "engine.idle_rpm", f"must be below max_rpm ({engine['max_rpm']})")
    if engine["firing_rpm"] >= engine["idle_rpm"]:
        raise DataError(path, "engine.firing_rpm", f"must be below idle_rpm ({engine['idle_rpm']})")
    if engine["wep_manifold_pressure_pa"] is not None and \
            engine["wep_manifold_pressure_pa"] < engine["military_manifold_pressure_pa"]:
        raise DataError(path, "engine.wep_manifold_pressure_pa", "must not be below military_manifold_pressure_pa")
    if engine["enrichment_manifold_pressure_pa"] >= engine["military_manifold_pressure_pa"]:
        raise DataError(path, "engine.enrichment_manifold_pressure_pa", "must be below military_manifold_pressure_pa")
    if engine["military_rpm"] is not None and not engine["idle_rpm"] < engine["military_rpm"] <= engine["max_rpm"]:
        raise DataError(path, "engine.military_rpm", "must lie above idle_rpm and not beyond max_rpm")
    return engine


def _check_supercharger(sc: dict, path) -> dict:
    """[supercharger]: a second gear's altitudes and its switch's hysteresis; a fluid coupling's one stage."""
    two_speed = sc["critical_altitude_high_m"] is not None
    if two_speed:
        if sc["critical_altitude_high_m"] <= sc["critical_altitude_low_m"]:
            raise DataError(path, "supercharger.critical_altitude_high_m", "must be above critical_altitude_low_m")
        for k in ("shift_up_altitude_m", "shift_down_altitude_m"):
            if sc[k] is None:
                raise DataError(path, "supercharger." + k, "missing: needed with a two-speed supercharger")
        if sc["shift_down_altitude_m"] >= sc["shift_up_altitude_m"]:
            raise DataError(path, "supercharger.shift_down_altitude_m",
                            "must be below shift_up_altitude_m (the switch's hysteresis)")
    if sc["drive"] == "fluid_coupling":
        if two_speed:
            raise DataError(path, "supercharger.critical_altitude_high_m",
                            "a fluid-coupled supercharger has no second gear (its coupling slips instead)")
        if int(round(sc["stages"])) != 1:
            raise DataError(path, "supercharger.stages", "a fluid-coupled supercharger has one stage")
    return sc


def _check_propeller(prop: dict, engine: dict, path) -> dict:
    """[propeller]: its blade stations from hub to tip, its pitch stops, its governor within the engine's speed."""
    n = len(prop["station_r_fraction"])
    if not 2 <= n <= L.N_PROP_ST_MAX:
        raise DataError(path, "propeller.station_r_fraction", f"needs 2 to {L.N_PROP_ST_MAX} stations, got {n}")
    for k in ("station_chord_m", "station_twist_deg", "station_thickness_ratio", "station_airfoil"):
        if len(prop[k]) != n:
            raise DataError(path, "propeller." + k, f"has {len(prop[k])} entries, station_r_fraction has {n}")
    r = np.array(prop["station_r_fraction"])
    hub = prop["hub_radius_m"] / (0.5 * prop["diameter_m"])
    if np.any(np.diff(r) <= 0) or r[0] <= hub or r[-1] >= 1.0:
        raise DataError(path, "propeller.station_r_fraction",
                        f"must increase strictly between the hub ({hub:.3f}) and the tip (1.0)")
    if prop["coarse_pitch_deg"] <= prop["fine_pitch_deg"]:
        raise DataError(path, "propeller.coarse_pitch_deg", "must be above fine_pitch_deg")
    if prop["feather_deg"] and prop["feather_deg"] <= prop["coarse_pitch_deg"]:
        raise DataError(path, "propeller.feather_deg", "must be above coarse_pitch_deg (or 0: cannot feather)")
    if prop["governor_max_rpm"] <= prop["governor_min_rpm"] or prop["governor_max_rpm"] > engine["max_rpm"] * 1.1:
        raise DataError(path, "propeller.governor_max_rpm",
                        "must be above governor_min_rpm and not beyond the engine's max_rpm")
    return prop


def _load_blade_airfoils(prop: dict, path, airfoils: dict, load_airfoil) -> None:
    """The blade sections' airfoils, read from the aircraft's airfoils/ folder into ``airfoils``."""
    airfoil_dir = path.parent / "airfoils"
    for name in prop["station_airfoil"]:
        if name not in airfoils:
            afile = airfoil_dir / f"{name}.toml"
            if not afile.exists():
                raise DataError(path, "propeller.station_airfoil", f"unknown airfoil {name!r}: no file {afile}")
            airfoils[name] = load_airfoil(afile)


def load_powerplant(data: dict, path, head: dict, airfoils: dict, load_airfoil) -> dict | None:
    """Validate the powerplant tables of an aircraft file. ``airfoils`` (name -> Airfoil)
    receives the propeller's blade sections, read with ``load_airfoil`` from the aircraft's
    airfoils/ folder. Returns None for an aircraft without an engine."""
    present = [k for k in POWERPLANT_TABLES if k in data]
    if head["kind"] != "powered":
        if present:
            raise DataError(path, present[0], "only an aircraft of kind = 'powered' has a powerplant")
        return None
    if "jet_engine" in data:
        # jet engines instead of the engine, supercharger, propeller and coolers (spec/jet.py)
        piston = [k for k in ("engine", "supercharger", "propeller", "radiator", "oil_cooler") if k in data]
        if piston:
            raise DataError(path, piston[0], "an aircraft with [jet_engine] has no piston engine or propeller tables")
        out = load_jets(data, path)
        out["tanks"] = load_tanks(data, path)
        return out
    if "jet" in data:
        raise DataError(path, "jet", "[[jet]] installs the [jet_engine], which is missing")
    for need in ("engine", "supercharger", "propeller", "radiator", "oil_cooler"):
        if need not in data:
            raise DataError(path, need, f"missing required table [{need}] (kind = 'powered')")
    engine = _check_engine(validate_table(data["engine"], ENGINE_KEYS, path, "engine"), path)
    sc = _check_supercharger(validate_table(data["supercharger"], SUPERCHARGER_KEYS, path, "supercharger"), path)
    prop = _check_propeller(validate_table(data["propeller"], PROPELLER_KEYS, path, "propeller"), engine, path)
    rad = validate_table(data["radiator"], COOLER_KEYS, path, "radiator")
    oil = validate_table(data["oil_cooler"], COOLER_KEYS, path, "oil_cooler")
    tanks = load_tanks(data, path)
    _load_blade_airfoils(prop, path, airfoils, load_airfoil)
    return {"engine": engine, "supercharger": sc, "propeller": prop, "tanks": tanks, "radiator": rad,
            "oil_cooler": oil}


# ------------------------------------------------------------------ compiling

def stage_work(pressure_ratio: float, stages: int, eff: float, t_in: float) -> float:
    """Specific work per stage (J/kg) for n equal-work stages in series to reach a pressure
    ratio from inlet temperature t_in (the inverse of engine.supercharger_stages)."""
    lo, hi = 0.0, 5.0e5
    for _ in range(200):
        w = 0.5 * (lo + hi)
        pr, t = 1.0, t_in
        for _s in range(stages):
            pr *= (1.0 + eff * w / (1005.0 * t)) ** 3.5
            t += w / 1005.0
        if pr < pressure_ratio:
            lo = w
        else:
            hi = w
    return 0.5 * (lo + hi)


def _station_edges(r_center: np.ndarray, hub: float, tip: float) -> np.ndarray:
    mids = 0.5 * (r_center[1:] + r_center[:-1])
    return np.concatenate([[hub], mids, [tip]])


def _wash(sec, hub, radius, sense, station_r, body_box=None):
    """Slipstream at a section: (station index or -1, axial factor, swirl y, swirl z).

    The slipstream is the cylinder behind the disc (radius contracted to 0.95 R); the part
    of the strip inside it sees the axial induced velocity grown from v_i at the disc to
    2 v_i far behind, v_i (1 + x / sqrt(x^2 + R^2)) (actuator disc), and the swirl left
    behind the disc, 2 w_i, turning with the propeller. A lifting strip's span inside the
    fuselage (body_box: half width, top, bottom) is shielded by it."""
    dx = hub[0] - sec.pos[0]
    if dx <= 0.0:
        return -1, 0.0, 0.0, 0.0
    t = np.linspace(-0.5, 0.5, 41) * sec.spec["span_m"]
    pts = sec.pos[None, :] + t[:, None] * sec.span_ax[None, :]
    dy = pts[:, 1] - hub[1]
    dz = pts[:, 2] - hub[2]
    d = np.hypot(dy, dz)
    inside = d < 0.95 * radius
    if body_box is not None:
        half, top, bottom = body_box
        inside &= ~((np.abs(pts[:, 1]) < half) & (pts[:, 2] > top) & (pts[:, 2] < bottom))
    frac = float(np.mean(inside))
    if frac <= 0.0:
        return -1, 0.0, 0.0, 0.0
    r_mean = float(np.mean(d[inside]))
    k = int(np.argmin(np.abs(station_r - r_mean)))
    axial = frac * (1.0 + dx / math.hypot(dx, radius))
    # swirl direction: the propeller's spin vector along +x body (sense) crossed with r
    dd = np.maximum(d[inside], 1e-6)
    ty = np.mean(-sense * dz[inside] / dd)
    tz = np.mean(sense * dy[inside] / dd)
    return k, axial, float(2.0 * frac * ty), float(2.0 * frac * tz)


def attached_slope(tables, t) -> float:
    """Attached lift-curve slope (per rad) of table t: its chord from -2 to +6 degrees, held
    at 1 or more (the Mach stall stretch divides by it)."""
    i_lo = int(round((-2.0 - L.TABLE_ALPHA_MIN_DEG) / L.TABLE_STEP_DEG))
    i_hi = int(round((6.0 - L.TABLE_ALPHA_MIN_DEG) / L.TABLE_STEP_DEG))
    slope = (tables[t, L.T_CL + 1, i_hi] - tables[t, L.T_CL + 1, i_lo]) / math.radians(8.0)
    return max(float(slope), 1.0)


def _box(m, size):
    lx, ly, lz = size
    return np.diag([m * (ly * ly + lz * lz) / 12, m * (lx * lx + lz * lz) / 12, m * (lx * lx + ly * ly) / 12])


def compile_powerplant(spec, model, names, tables, secs, mass, cg, inertia, stall_angles):
    """Append the powerplant rows to ``model``; set the sections' compressibility and
    slipstream columns. Returns (model, mass, cg, inertia) with the fuel included. A piston
    plant is built part by part: engine, supercharger, propeller and its blade stations,
    coolers, tanks (append_plant), the slipstream, then the idle air flow."""
    pp = spec.powerplant or {}
    _section_compressibility(spec, model, secs, tables)
    if "jet_engine" in pp:
        return compile_jets(pp, model, mass, cg, inertia)
    if "engine" not in pp:
        return model, mass, cg, inertia
    eng, sc, prop, tanks = pp["engine"], pp["supercharger"], pp["propeller"], pp["tanks"]
    path = spec.path
    n_st = len(prop["station_r_fraction"])
    n_t = len(tanks)
    rows = np.zeros((L.PLANT_STATIONS + n_st + n_t, L.MODEL_COLS))
    w_max = eng["max_rpm"] * RPM
    _engine_row(rows[L.PLANT_ENGINE], eng, w_max)
    _supercharger_row(rows[L.PLANT_SC], sc, w_max, path)
    radius, sense, r_c = _propeller_rows(rows, prop, eng, names, tables, stall_angles)
    _cooler_row(rows[L.PLANT_COOL], pp["radiator"], pp["oil_cooler"])
    # the dry aircraft (everything but the fuel) and the tanks
    model, base = append_plant(model, rows, n_st, tanks, mass, cg, inertia)
    _slipstream(model, secs, prop, radius, sense, r_c)
    # mass with the fuel on board (the kernel re-sums this every step as fuel burns)
    mass, cg, inertia = resummed(model)
    _idle_flow(model, tables, base, path)
    return model, mass, cg, inertia


def _section_compressibility(spec, model, secs, tables) -> None:
    """Every section's compressibility columns (thickness, wave-drag peak, CLmax loss, lift
    slope) and the aircraft's control limit Mach."""
    for k, s in enumerate(secs):
        row = int(model[0, L.H_ROW_SECTION]) + k
        tc = spec.airfoils[s.spec["airfoil"]].thickness_ratio
        model[row, L.SEC_THICKNESS] = tc if tc else 0.0
        model[row, L.SEC_WAVE_PEAK] = wave_drag_peak(tc) if tc else 0.0
        model[row, L.SEC_LE_LOSS] = clmax_loss_weight(tc)
        model[row, L.SEC_SLOPE_INV] = 1.0 / attached_slope(tables, int(model[row, L.SEC_TABLE]))
        model[row, L.SEC_WASH_K] = -1.0
    model[0, L.H_CONTROL_MACH] = spec.aircraft.get("control_limit_mach") or 0.0


def _engine_row(E, eng, w_max) -> None:
    """The engine's row: displacement, efficiencies, mixture, boost limits, friction, exhaust."""
    map_mil = eng["military_manifold_pressure_pa"]
    map_wep = eng["wep_manifold_pressure_pa"] or map_mil
    E[L.EN_DISP] = eng["displacement_m3"]
    E[L.EN_VOL_EFF] = eng["volumetric_efficiency"]
    E[L.EN_IND_EFF] = eng["indicated_efficiency"]
    E[L.EN_LHV] = eng["fuel_heating_value_j_per_kg"]
    E[L.EN_FAR_RICH] = eng["fuel_air_ratio_rich"]
    E[L.EN_FAR_LEAN] = eng["fuel_air_ratio_lean"]
    E[L.EN_FAR_STOICH] = eng["fuel_air_ratio_stoich"]
    E[L.EN_ENRICH_MAP] = eng["enrichment_manifold_pressure_pa"]
    E[L.EN_OMEGA_MAX] = w_max
    E[L.EN_OMEGA_IDLE] = eng["idle_rpm"] * RPM
    E[L.EN_MAP_MIL] = map_mil
    E[L.EN_MAP_WEP] = map_wep
    E[L.EN_FMEP0] = eng["friction_mep_zero_rpm_pa"]
    E[L.EN_FMEP2] = eng["friction_mep_rated_pa"] - eng["friction_mep_zero_rpm_pa"]
    E[L.EN_EXH_BACK] = eng["exhaust_back_pressure_ratio"]
    E[L.EN_GEAR] = eng["propeller_gear_ratio"]
    E[L.EN_INERTIA] = eng["rotating_inertia_kg_m2"]
    E[L.EN_STARTER_TORQUE] = eng["starter_torque_n_m"]
    E[L.EN_OMEGA_FIRE] = eng["firing_rpm"] * RPM
    E[L.EN_EXH_VJ] = eng["exhaust_jet_velocity_ms"]
    E[L.EN_CRANK_SENSE] = -1.0 if eng["crankshaft_counter_rotating"] else 1.0
    E[L.EN_RATED_POWER] = eng["rated_power_w"]
    E[L.EN_EXH_POS:L.EN_EXH_POS + 3] = eng["exhaust_position_m"]
    E[L.EN_HEAT_COOLANT] = eng["coolant_heat_fraction"]
    E[L.EN_HEAT_OIL] = eng["oil_heat_fraction"]
    if eng["mixture"] == "carburettor":          # (an automatic mixture's row keeps these 0)
        E[L.EN_CARBURETTOR] = 1.0
        E[L.EN_CARB_HEAT_RISE] = eng["carb_heat_rise_k"]
        E[L.EN_ICE_BLOCK_KG] = eng["carb_ice_block_kg"]
        E[L.EN_EGT_PEAK_RISE] = eng["egt_peak_rise_k"]
    E[L.EN_IDLE_FLOW] = 0.05                     # replaced below, once the propeller exists


def _supercharger_row(S, sc, w_max, path) -> None:
    """The supercharger's row: the impeller work of each gear from its critical altitude."""
    # impeller work from the critical altitudes (static, no ram)
    stages = int(round(sc["stages"]))
    eff = sc["stage_efficiency"]
    rpm_ratio = w_max / (sc["critical_rpm"] * RPM)
    S[L.SC_STAGES] = stages
    S[L.SC_EFF] = eff
    for key, col in (("critical_altitude_low_m", L.SC_WORK_LOW), ("critical_altitude_high_m", L.SC_WORK_HIGH)):
        h = sc[key]
        if h is None:
            continue
        t_h, p_h, _, _ = isa(h)
        pr = sc["critical_manifold_pressure_pa"] / p_h
        if pr <= 1.0:
            raise DataError(path, "supercharger." + key,
                            "at this altitude the ambient pressure already exceeds the critical manifold pressure")
        S[col] = stage_work(pr, stages, eff, t_h) * rpm_ratio ** 2
    if sc["critical_altitude_high_m"] is not None:
        S[L.SC_UP_PA] = isa(sc["shift_up_altitude_m"])[1]
        S[L.SC_DOWN_PA] = isa(sc["shift_down_altitude_m"])[1]
    S[L.SC_AC_EFF] = sc["aftercooler_effectiveness"]
    S[L.SC_AC_T] = sc["aftercooler_coolant_temperature_k"]
    S[L.SC_RAM] = sc["ram_recovery"]
    S[L.SC_DRIVE_EFF] = sc["drive_efficiency"]
    S[L.SC_FLUID] = 1.0 if sc["drive"] == "fluid_coupling" else 0.0


def _propeller_rows(rows, prop, eng, names, tables, stall_angles):
    """The propeller's row and one row per blade station; returns (radius, sense, station radii)."""
    P = rows[L.PLANT_PROP]
    n_st = len(prop["station_r_fraction"])
    radius = 0.5 * prop["diameter_m"]
    sense = 1.0 if prop["rotation"] == "clockwise" else -1.0
    P[L.PR_POS:L.PR_POS + 3] = prop["position_m"]
    P[L.PR_SENSE] = sense
    P[L.PR_RADIUS] = radius
    P[L.PR_BLADES] = prop["blades"]
    P[L.PR_INERTIA] = prop["inertia_kg_m2"]
    P[L.PR_PITCH_MIN] = math.radians(prop["fine_pitch_deg"])
    P[L.PR_PITCH_MAX] = math.radians(prop["coarse_pitch_deg"])
    P[L.PR_FEATHER] = math.radians(prop["feather_deg"])
    P[L.PR_PITCH_RATE] = math.radians(prop["pitch_rate_deg_s"])
    P[L.PR_GOV_GAIN] = prop["governor_gain_per_s"]
    P[L.PR_GOV_MIN] = prop["governor_min_rpm"] * RPM
    P[L.PR_GOV_MAX] = prop["governor_max_rpm"] * RPM
    if eng["military_rpm"] is not None:
        P[L.PR_GOV_MIL] = min(eng["military_rpm"], prop["governor_max_rpm"]) * RPM
    P[L.PR_GOV_LEAD] = prop["governor_lead_s"]
    P[L.PR_HUB_R] = prop["hub_radius_m"]
    r_c = np.array(prop["station_r_fraction"]) * radius
    edges = _station_edges(r_c, prop["hub_radius_m"], radius)
    for k in range(n_st):
        row = rows[L.PLANT_STATIONS + k]
        row[L.PS_R] = r_c[k]
        row[L.PS_DR] = edges[k + 1] - edges[k]
        row[L.PS_CHORD] = prop["station_chord_m"][k]
        row[L.PS_TWIST] = math.radians(prop["station_twist_deg"][k])
        t = names.index(prop["station_airfoil"][k])
        row[L.PS_TABLE] = t
        row[L.PS_TC] = prop["station_thickness_ratio"][k]
        row[L.PS_WAVE_PEAK] = wave_drag_peak(prop["station_thickness_ratio"][k])
        row[L.PS_LE_LOSS] = clmax_loss_weight(prop["station_thickness_ratio"][k])
        row[L.PS_SLOPE_INV] = 1.0 / attached_slope(tables, t)
        row[L.PS_STALL], row[L.PS_NEG_STALL] = stall_angles[t]
    return radius, sense, r_c


RADIATOR_FLAPS = {"open": 1.0, "closed": 0.0}    # a flight test's radiator flaps held, not the thermostat's
FLAP_HOLD_RANGE_K = 1e9


def hold_radiator_flaps(model, setting: str) -> None:
    """Hold the coolant radiator's exit flap ("open" or "closed", as a flight test flew it with
    the flaps' override) instead of the thermostat's schedule: the schedule's range made so wide
    that the flap reads the held position at any coolant temperature. Changes ``model`` in place."""
    if setting not in RADIATOR_FLAPS:
        raise ValueError(f"radiator flaps {setting!r}: hold them 'open' or 'closed'")
    if model[0, L.H_ROW_PLANT] <= 0 or model[0, L.H_N_JETS] > 0:
        raise ValueError("the aircraft has no coolant radiator to hold")
    row = int(model[0, L.H_ROW_PLANT]) + L.PLANT_COOL
    model[row, L.CL_RAD + L.CL_T_RANGE] = FLAP_HOLD_RANGE_K
    model[row, L.CL_RAD + L.CL_T_OPEN] = -RADIATOR_FLAPS[setting] * FLAP_HOLD_RANGE_K


def _cooler_row(C, rad, oil) -> None:
    """The radiator's and the oil cooler's columns: face area, effectiveness, flap drag and schedule."""
    for c, cooler in ((L.CL_RAD, rad), (L.CL_OIL, oil)):
        C[c + L.CL_AREA] = cooler["face_area_m2"]
        C[c + L.CL_EFF] = cooler["effectiveness"]
        C[c + L.CL_CDA_MIN] = cooler["drag_area_closed_m2"]
        C[c + L.CL_CDA_MAX] = cooler["drag_area_open_m2"]
        C[c + L.CL_T_OPEN] = cooler["flap_open_temperature_k"]
        C[c + L.CL_T_RANGE] = cooler["flap_range_k"]
        C[c + L.CL_HEAT_CAP] = cooler["heat_capacity_j_per_k"]
        C[c + L.CL_DUCT] = cooler["duct_speed_ratio"]
    C[L.CL_POS:L.CL_POS + 3] = rad["position_m"]


def _slipstream(model, secs, prop, radius, sense, r_c) -> None:
    """The slipstream over the sections behind the disc: each section's wash and swirl columns."""
    hub = np.array(prop["position_m"])
    body_box = None
    bodies = [s for s in secs if s.spec["group"] == "body"]
    if bodies:
        half = max(0.5 * b.spec["span_m"] for b in bodies if abs(b.span_ax[1]) > 0.7) if any(
            abs(b.span_ax[1]) > 0.7 for b in bodies) else 0.0
        vert = [b for b in bodies if abs(b.span_ax[2]) > 0.7]
        if half > 0 and vert:
            v = vert[0]
            body_box = (half, v.pos[2] - 0.5 * v.spec["span_m"], v.pos[2] + 0.5 * v.spec["span_m"])
    for k, s in enumerate(secs):
        row = int(model[0, L.H_ROW_SECTION]) + k
        group = s.spec["group"]
        ki, ax, swy, swz = _wash(s, hub, radius, sense, r_c, body_box if group != "body" else None)
        if group == "body":
            swirl_factor = 0.0
        else:
            # the swirl turns a surface's flow one way on one side of the axis and the other
            # way on the other: the lift it adds is a patch as wide as the slipstream, whose
            # own trailing vortices (at the slipstream's edges) take back much of the angle
            # change. Lifting line for that patch, aspect ratio A = width / chord, antisymmetric
            # (second harmonic, twice the induced angle per unit lift): the section sees
            # 1 / (1 + 2 a0 / (pi A)) of the swirl, a0 = 2 pi. The wing straightens the
            # slipstream ahead of the tail.
            width = 0.95 * radius * (1.0 if group == "vtail" else 2.0)
            patch_ar = width / s.spec["chord_m"]
            swirl_factor = 1.0 / (1.0 + 4.0 / patch_ar)
            if group in ("htail", "vtail"):
                swirl_factor *= SWIRL_LEFT_BEHIND_WING
        swy *= swirl_factor
        swz *= swirl_factor
        model[row, L.SEC_WASH_K] = ki
        model[row, L.SEC_WASH_AX] = ax
        model[row, L.SEC_WASH_SWY] = swy
        model[row, L.SEC_WASH_SWZ] = swz


def _idle_flow(model, tables, base, path) -> None:
    """The closed-throttle air flow that idles the engine at its idle rpm (bisected)."""
    # closed-throttle air flow: the engine just turns the propeller at fine pitch at the
    # ground idle speed, standing still at sea level
    from ..physics.plant_trim import idle_balance
    lo, hi = 1e-4, 0.5
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        model[base + L.PLANT_ENGINE, L.EN_IDLE_FLOW] = mid
        if idle_balance(model, tables) < 0.0:
            lo = mid
        else:
            hi = mid
    if hi >= 0.5 - 1e-6:
        raise DataError(path, "engine.idle_rpm",
                        "the engine cannot idle at this speed with the propeller at its fine-pitch stop")
    model[base + L.PLANT_ENGINE, L.EN_IDLE_FLOW] = 0.5 * (lo + hi)


