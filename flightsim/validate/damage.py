"""Cards for systems damage and stores (issue 18), flown in the full 6-DOF model.

* ``radiator_hit``: trimmed level at a power setting (military: at the level top speed that
  power gives, the radiators' best airflow; cruise: the same at the cruise setting), a round
  through one or more radiators (physics/damage.apply_hit, as a bullet that struck the box),
  then hands off, controls as trimmed: when the coolant is gone, when the temperature passes
  the book limit, when the engine has lost 10 % of its power, when it seizes; the series.
* ``tank_hit``: the same start, a round into one tank: the fuel lost after 10 s and 60 s, and
  whether the leak has stopped (a self-sealing tank closing a small hole).
* ``tank_fire``: a tank set burning: when it exploded (or burned out), what went.
* ``store_release``: trimmed straight with stores on at an IAS, the mass, CG and inertia and
  the response to an abrupt full aileron (roll rate after 0.3 s and 1 s, time to 45 deg of bank)
  and to an elevator step of a fifth of the stick's force (pitch rate after 0.5 s); then the
  stores released in that straight flight, re-trimmed, and the same again.
* ``coolant_loss_endurance``: all the coolant gone at once in level flight at a power: how long
  the dry engine runs.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..aircraft_data.compile import compile_aircraft
from ..aircraft_data.damage import set_loadout
from ..physics.damage import apply_hit, damage_summary, drain, explode, start_fire
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from ..physics.state import flat_terrain
from ..sim import Sim
from .flight import trim_straight
from .performance import level_speed

DT = 0.02


class _Always:
    """A 'random' generator for the cards: every chance outcome happens (or, with 1.0, none)."""
    def __init__(self, value=0.0):
        self.value = value

    def random(self):
        return self.value


def _sim(aircraft, stores=()) -> Sim:
    comp = compile_aircraft(aircraft)
    if stores:
        set_loadout(comp.model, comp.spec, list(stores))
    return Sim(comp, terrain=flat_terrain(-1.0e6))


def _parts(sim, name):
    return AircraftData(sim.model).parts_of(name)


CRUISE_SHARE = 0.8      # cruise: level at this share of the military level speed, the throttle as trimmed
LEAST_POWER_STEP_KMH = 5.0   # "power as low as possible": the IAS sweep for the least power that holds level


def trimmed_at_power(aircraft, power: str, altitude_m: float, stores=(), share: float | None = None) -> tuple[Sim, float]:
    """The aircraft trimmed level (returns it and the IAS, km/h): 'military' or 'wep' at the top
    speed that power gives here (the throttle full), 'cruise' at CRUISE_SHARE of the military
    top speed with the throttle the trim finds (about half power)."""
    cond: dict[str, Any] = {"altitude_m": altitude_m, "power": "military" if power == "cruise" else power, "mass_kg": None}
    tas_kmh = level_speed(aircraft, cond)
    sim = _sim(aircraft, stores)
    from ..physics.atmosphere import isa
    if share is None:
        share = CRUISE_SHARE if power == "cruise" else 0.99
    ias = share * tas_kmh * math.sqrt(float(isa(altitude_m)[2]) / 1.225)
    if trim_straight(sim, ias, altitude_m, "clean", cond["power"]) is None:
        raise RuntimeError(f"{aircraft}: no level flight at {ias:.0f} km/h IAS with {power} power")
    return sim, ias


def least_power_level(aircraft, altitude_m: float) -> tuple[Sim, float]:
    """The aircraft trimmed level at the least shaft power that holds it there ("power as low as
    possible"): the propeller's rpm lever at its least governed rpm (less friction, the same air
    burned in fewer, fuller strokes) and the speed of least power, found in LEAST_POWER_STEP_KMH
    steps from 1.2 times the 1 g stall. Returns the placed Sim and the IAS (km/h)."""
    from ..tools.perf import stall_speed
    sim = _sim(aircraft, ())
    vs = stall_speed(None, False, sim=Sim(sim.compiled))[0]
    best = None
    ias = 1.2 * vs
    while ias < 3.0 * vs:
        t = trim_straight(sim, ias, altitude_m, "clean", "military", prop_rpm=0.0)
        if t is not None:
            p = AircraftView(t.state, t.diag).shaft_power_w
            if best is not None and p > best[0]:
                break                       # past the bottom of the power curve
            best = (p, ias)
        ias += LEAST_POWER_STEP_KMH
    if best is None:
        raise RuntimeError(f"{aircraft}: no level flight at {altitude_m:.0f} m with the rpm lever back")
    trim_straight(sim, best[1], altitude_m, "clean", "military", prop_rpm=0.0)
    return sim, best[1]


def radiator_hit(aircraft, power: str = "military", altitude_m: float = 2000.0, calibre_mm: float = 12.7,
                 kind: str = "incendiary", radiators=(0,), max_s: float = 1800.0) -> dict:
    sim, ias = trimmed_at_power(aircraft, power, altitude_m)
    rad = _parts(sim, "radiator")
    rng = _Always(1.0)                     # no chance outcomes: a radiator hit has none
    said = [apply_hit(sim.model, sim.state, rad[r], calibre_mm, kind, rng) for r in radiators]
    c = sim.controls.array.copy()
    t_limit = AircraftData(sim.model).coolant_limit_k
    power0 = None
    out: dict[str, Any] = {"aircraft": aircraft, "power": power, "ias_kmh": ias, "altitude_m": altitude_m, "hit": said,
           "coolant_out_s": None, "over_limit_s": None, "power_down_10pct_s": None, "seized_s": None}
    rows = []
    n = int(round(max_s / DT))
    for k in range(n):
        sim.step(c)
        t = (k + 1) * DT
        s = damage_summary(sim.model, sim.state, sim.diag)
        shaft = sim.shaft_power_w
        if power0 is None:
            power0 = shaft
        if k % 50 == 0:
            rows.append((t, s["coolant_left"], sim.coolant_k - 273.15, sim.oil_k - 273.15,
                         shaft / 1000.0, s["engine_wear"], sim.engine_rpm, sim.altitude_m, sim.ias_kmh))
        if out["coolant_out_s"] is None and s["coolant_left"] <= 1e-6:
            out["coolant_out_s"] = t
        if out["over_limit_s"] is None and sim.coolant_k > t_limit:
            out["over_limit_s"] = t
        if out["power_down_10pct_s"] is None and s["engine_health"] < 0.9:
            out["power_down_10pct_s"] = t
        if s["seized"]:
            out["seized_s"] = t
            break
    out["initial_power_kw"] = None if power0 is None else power0 / 1000.0
    out["series"] = np.array(rows)
    out["max_coolant_c"] = float(out["series"][:, 2].max())
    return out


def tank_hit(aircraft, tank: int, calibre_mm: float, kind: str = "ap", seconds: float = 60.0,
             altitude_m: float = 2000.0) -> dict:
    """A round into tank ``tank`` (no fire: the chance outcomes do not happen) from trimmed cruise."""
    sim, ias = trimmed_at_power(aircraft, "cruise", altitude_m)
    tanks = _parts(sim, "tank")
    said = apply_hit(sim.model, sim.state, tanks[tank], calibre_mm, kind, _Always(1.0))
    used0 = float(sim.fuel_used_kg[tank])
    c = sim.controls.array.copy()
    out: dict[str, Any] = {"hit": said, "lost_10s_kg": None}
    burn_before = sim.fuel_flow_kgs
    for k in range(int(round(seconds / DT))):
        sim.step(c)
        if k + 1 == int(round(10.0 / DT)):
            out["lost_10s_kg"] = float(sim.fuel_used_kg[tank]) - used0
    out["lost_kg"] = float(sim.fuel_used_kg[tank]) - used0
    out["leak_now_kg_s"] = sim.fuel_leak_kgs
    out["engine_burn_kg_s"] = float(burn_before)
    return out


def tank_fire(aircraft, tank: int, seconds: float = 120.0, altitude_m: float = 2000.0, empty: bool = False) -> dict:
    """Tank ``tank`` set burning in trimmed cruise (``empty``: drained first): when it exploded
    or burned out, what the world took, and the mass before and after."""
    sim, ias = trimmed_at_power(aircraft, "cruise", altitude_m)
    if empty:
        drain(sim.model, sim.state, tank)
    start_fire(sim.model, sim.state, tank)
    mass0 = AircraftData(sim.model).mass_kg
    c = sim.controls.array.copy()
    out: dict[str, Any] = {"exploded_s": None, "burned_out_s": None, "what": "", "mass_before_kg": mass0}
    for k in range(int(round(seconds / DT))):
        sim.step(c)
        t = (k + 1) * DT
        what = explode(sim.model, sim.state)
        if what:
            out["exploded_s"] = t
            out["what"] = what
            sim.step(c)
            break
        if sim.tank_fire_s[tank] < 0.0 and out["burned_out_s"] is None:
            out["burned_out_s"] = t
            break
    out["mass_after_kg"] = AircraftData(sim.model).mass_kg
    out["sections_gone"] = int(np.sum(AircraftData(sim.model).section_damage >= 1.0))
    out["sim"] = sim
    return out


PITCH_STEP = 0.2        # the elevator step of the pitch response, of the stick's force


def _response(sim, trim, ias_kmh, altitude_m) -> dict:
    """From the trimmed state: full right aileron (roll rate after 0.3 s and 1 s, time to 45 deg),
    and from the same trim an elevator step of PITCH_STEP (pitch rate after 0.5 s)."""
    start = sim.state.copy()
    base = sim.controls.copy()
    c = base.copy()
    c.roll = 1.0
    p1 = None
    p03 = None
    t45 = None
    bank = 0.0
    for k in range(int(round(3.0 / DT))):
        sim.step(c.array)
        p = sim.roll_rate_dps
        bank += p * DT
        if k + 1 == int(round(0.3 / DT)):
            p03 = p
        if k + 1 == int(round(1.0 / DT)):
            p1 = p
        if t45 is None and bank >= 45.0:
            t45 = (k + 1) * DT
    sim.state[:] = start
    c = base.copy()
    c.pitch = min(1.0, base.pitch + PITCH_STEP)
    for k in range(int(round(0.5 / DT))):
        sim.step(c.array)
    q05 = sim.pitch_rate_dps
    sim.state[:] = start
    d = AircraftData(sim.model)
    inertia = d.inertia_kgm2
    return {"mass_kg": d.mass_kg, "cg_m": d.cg_m.copy(),
            "ixx": float(inertia[0, 0]), "iyy": float(inertia[1, 1]), "izz": float(inertia[2, 2]),
            "roll_rate_03s_dps": p03, "roll_rate_1s_dps": p1, "time_to_45_s": t45, "pitch_rate_05s_dps": q05}


def store_release(aircraft, stores, ias_kmh: float = 400.0, altitude_m: float = 2000.0, power: str = "military"):
    """Mass, CG, inertia and the roll and pitch response before and after the stores go."""
    sim = _sim(aircraft, stores)
    t = trim_straight(sim, ias_kmh, altitude_m, "clean", power)
    if t is None:
        raise RuntimeError(f"{aircraft} with {stores}: no straight flight at {ias_kmh} km/h IAS")
    before = _response(sim, t, ias_kmh, altitude_m)
    # release in that straight flight: one step with the release held
    c = sim.controls.copy()
    c.drop_tanks = 1.0
    c.drop_bombs = 1.0
    sim.step(c.array)
    released = AircraftData(sim.model).mass_kg
    sim.step(sim.controls.array)
    mass_next_cycle = AircraftData(sim.model).mass_kg
    # the same aircraft without them, trimmed again (a trim starts from a fresh state, so the
    # loadout itself is emptied: what the release did)
    set_loadout(sim.model, sim.compiled.spec, [])
    t2 = trim_straight(sim, ias_kmh, altitude_m, "clean", power)
    if t2 is None:
        raise RuntimeError(f"{aircraft}: no straight flight at {ias_kmh} km/h IAS after the release")
    after = _response(sim, t2, ias_kmh, altitude_m)
    return {"stores": list(stores), "ias_kmh": ias_kmh, "altitude_m": altitude_m, "before": before, "after": after,
            "mass_at_release_kg": float(released), "mass_next_cycle_kg": mass_next_cycle}


def tank_rows(aircraft) -> list:
    """(index, name, self-sealing calibre mm) of each internal tank (the drop tanks left out)."""
    spec = compile_aircraft(aircraft).spec
    return [(i, t["name"], t.get("self_sealing_mm", 0.0)) for i, t in enumerate((spec.powerplant or {}).get("tanks", []))
            if "store" not in t]


def coolant_loss_endurance(aircraft, power: str = "cruise", altitude_m: float = 2000.0, max_s: float = 3600.0):
    """All the coolant gone at once in level flight at this power ('cruise': the throttle the
    trim finds at CRUISE_SHARE of the military level speed; 'idle': the least that holds level,
    least_power_level): how long until the engine fails, and the temperatures on the way."""
    if power == "idle":
        sim, ias = least_power_level(aircraft, altitude_m)
    else:
        sim, ias = trimmed_at_power(aircraft, "cruise" if power == "cruise" else power, altitude_m)
    sim.set_coolant_lost(np.ones(AircraftData(sim.model).radiator_circuits))
    c = sim.controls.array.copy()
    out: dict[str, Any] = {"ias_kmh": ias, "failed_s": None, "power_kw": None, "max_oil_c": 0.0}
    for k in range(int(round(max_s / DT))):
        sim.step(c)
        if k == 0:
            out["power_kw"] = sim.shaft_power_w / 1000.0
        out["max_oil_c"] = max(out["max_oil_c"], sim.oil_k - 273.15)
        if sim.engine_seized > 0.5:
            out["failed_s"] = (k + 1) * DT
            break
    if out["failed_s"] is None:
        out["failed_s"] = float("inf")
    return out
