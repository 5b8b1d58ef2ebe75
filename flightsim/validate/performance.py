"""Performance cards: steady-state figures, each a trim of the full model (the wind tunnel's rigs,
flightsim.tools.tunnel and flightsim.tools.perf, reused): speed, climb and ceiling of a powered aircraft,
the engine's rated power, stall speeds, a glider's polar; and the time to climb, the best
climb integrated over height (how a flight test's climb is reduced).

Each card takes the figure's condition (flightsim.aircraft_data.references) and returns the model's value
in the card's unit; results are kept per aircraft and weight, so the figures that share a
polar or a sweep fly it once.
"""
from __future__ import annotations

import math
from functools import lru_cache

from ..aircraft_data.compile import aircraft_with_mass
from ..physics.atmosphere import isa
from ..physics.engine import engine_point
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from ..physics.state import make_ctrl
from ..sim import Sim
from ..tools import perf
from ..tools.tunnel import polar

KMH = 3.6


@lru_cache(maxsize=8)
def _sim(aircraft: str, mass_kg: float | None, radiator_flaps: str = "automatic") -> Sim:
    """The aircraft at the figure's weight, its radiator flaps on their thermostat or held as the
    figure's test flew them."""
    return Sim(aircraft_with_mass(aircraft, mass_kg, radiator_flaps=radiator_flaps))


def _radiator_flaps(cond) -> str:
    """The figure's radiator flaps: held as its test held them, else the thermostat's."""
    return cond.get("radiator_flaps") or "automatic"


def _figure_sim(aircraft: str, cond) -> Sim:
    return _sim(aircraft, cond["mass_kg"], _radiator_flaps(cond))


@lru_cache(maxsize=8)
def glide_polar(aircraft: str, mass_kg: float | None, engine_off: bool = False) -> dict:
    """The glide polar (tunnel.polar): a powered aircraft's at idle, or with ``engine_off`` (a
    condition's power "off") its engine cut and the propeller windmilling, as a flight manual's
    engine-failure glide."""
    return polar(aircraft, mass_kg, engine_off=engine_off)


CRUISE_POWER = 0.75      # "cruise" power in a level-speed card: a flight manual's 75 % of the rated brake power


@lru_cache(maxsize=16)
def _max_level(aircraft: str, mass_kg: float | None, altitude_m: float, power: str, radiator_flaps: str):
    """The maximum level speed's trim (perf.max_level_speed), flown once for the figures that read it."""
    return perf.max_level_speed(aircraft, altitude_m, power, sim=_sim(aircraft, mass_kg, radiator_flaps))[0]


def _max_level_for(aircraft, cond):
    return _max_level(aircraft, cond["mass_kg"], cond["altitude_m"], cond["power"] or "wep", _radiator_flaps(cond))


def level_speed(aircraft, cond) -> float:
    if cond["power"] == "cruise":
        t, _ = perf.level_speed_at_power(aircraft, cond["altitude_m"], CRUISE_POWER, sim=_figure_sim(aircraft, cond))
        return t.tas_ms * KMH
    return _max_level_for(aircraft, cond).tas_ms * KMH


def fuel_flow(aircraft, cond) -> float:
    """Fuel flow (kg/h) in the maximum level speed's trim at the condition's power and altitude (a
    flight test's "all-out level" consumption): the engine's air flow and efficiency, checked apart
    from its power."""
    t = _max_level_for(aircraft, cond)
    return AircraftView(t.state, t.diag).fuel_flow_kgs * 3600.0


def best_climb(aircraft, cond) -> float:
    return perf.best_climb(aircraft, cond["altitude_m"], cond["power"] or "wep", sim=_figure_sim(aircraft, cond))[1]


def service_ceiling(aircraft, cond) -> float:
    return perf.service_ceiling(aircraft, cond["power"] or "military", sim=_figure_sim(aircraft, cond))[0]


def engine_power(aircraft, cond) -> float:
    """Brake power (kW) at full throttle, static (no ram), at the rating's rpm (the governor's
    top: without WEP its military rpm where the engine has one), in the supercharger gear the
    aneroid switch selects at that altitude (low below its shift-up height, high above)."""
    c = _sim(aircraft, cond["mass_kg"]).compiled
    t, p, _, _ = isa(cond["altitude_m"])
    data = AircraftData(c.model)
    wep = cond["power"] == "wep"
    out = engine_point(c.model, data.engine_row, data.rating_rpm_rads(wep), 1.0, float(wep),
                       data.supercharger_gear_at(p), p, t, 0.0)
    return out[1] / 1000.0


def stall_speed(aircraft, cond) -> float:
    """1 g stall speed (EAS, km/h): the slowest steady glide, power off, in the configuration."""
    sim = _sim(aircraft, cond["mass_kg"])
    if sim.powered:
        return perf.stall_speed(aircraft, cond["config"] == "landing", sim=sim)[0]
    return glide_polar(aircraft, cond["mass_kg"])["stall_kmh"]


def best_glide_ratio(aircraft, cond) -> float:
    return glide_polar(aircraft, cond["mass_kg"], cond.get("power") == "off")["best_glide"]["glide_ratio"]


def best_glide_speed(aircraft, cond) -> float:
    return glide_polar(aircraft, cond["mass_kg"], cond.get("power") == "off")["best_glide"]["tas_kmh"]


def min_sink(aircraft, cond) -> float:
    return glide_polar(aircraft, cond["mass_kg"])["min_sink"]["sink_ms"]


def min_sink_speed(aircraft, cond) -> float:
    return glide_polar(aircraft, cond["mass_kg"])["min_sink"]["tas_kmh"]


def glide_sink(aircraft, cond) -> float:
    """Sink rate (m/s) in a steady glide at this true airspeed, sea level ISA, airbrakes in."""
    sim = _sim(aircraft, cond["mass_kg"])
    t = sim.trimmer(cond["altitude_m"] or 0.0, make_ctrl(gear_up=1.0), plant_in_jacobian=False).glide(cond["tas_kmh"] / KMH)
    if not t.ok:
        raise RuntimeError(f"no steady glide at {cond['tas_kmh']:.0f} km/h")
    return t.sink_ms


def climb_profile(aircraft, cond, step_m: float = 500.0) -> dict:
    """The best climb against height and the time to climb from ``altitude_m`` to
    ``altitude_to_m``: dt = dh / rate, the rate at each height from the best-climb trim (a
    climb at the scheduled indicated airspeed, flightsim.tools.perf)."""
    sim = _sim(aircraft, cond["mass_kg"])
    h0, h1 = cond["altitude_m"], cond["altitude_to_m"]
    heights = [h0 + k * step_m for k in range(int(math.ceil((h1 - h0) / step_m)) + 1)]
    heights[-1] = h1
    rates = [perf.best_climb(aircraft, h, cond["power"] or "military", sim=sim)[1] for h in heights]
    t = sum(0.5 * (heights[k + 1] - heights[k]) * (1.0 / rates[k] + 1.0 / rates[k + 1])
            for k in range(len(heights) - 1))
    return {"time_s": t, "altitude_m": heights, "climb_ms": rates}


def time_to_climb(aircraft, cond) -> float:
    return climb_profile(aircraft, cond)["time_s"]
