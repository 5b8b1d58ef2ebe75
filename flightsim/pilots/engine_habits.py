"""A light-aircraft pilot's habits with a carburetted engine (physics/carburettor.py), round the
pilot that flies (autopilot.py wraps the powered pilots of an aircraft with a carburettor):

* **Mixture** (Cessna 172P POH, section 4): full rich for take-off and below 3,000 ft; above it
  leaned for the most rpm, which is the best-power mixture at that height.
* **Carburettor heat:** on when ice forms (the rpm sagging at a steady throttle; the pilot is
  taken to notice it once the ice blocks 5 % of the bore: the snapshot's ``carb_ice``), held a
  minute after the ice has gone; and on whenever the throttle is closed in the air (the POH's
  descent and before-landing checks: "carburetor heat ON, apply full heat before closing the
  throttle"); off at full throttle (a take-off, climb or go-around) unless ice is still there.
"""
from __future__ import annotations

from ..physics.carburettor import LEAN_ABOVE_M, lean_for_best_power
from ..runtime.handoff import ControlInputs

ICE_NOTICED = 0.05            # share of the bore blocked when the rpm drop is noticed
HEAT_HOLD_S = 60.0            # carburettor heat kept on after the ice has cleared
CLOSED_THROTTLE = 0.25        # at or below this throttle in the air: heat on (descent, approach)


def has_carburettor(aircraft_spec) -> bool:
    plant = getattr(aircraft_spec, "powerplant", None) or {}
    return (plant.get("engine") or {}).get("mixture") == "carburettor"


class CarburettorHabits:
    """Wraps a pilot (any callable snapshot -> ControlInputs); its other attributes read through."""

    def __init__(self, pilot, aircraft_spec):
        eng = aircraft_spec.powerplant["engine"]
        self.pilot = pilot
        self.far_rich = float(eng["fuel_air_ratio_rich"])
        self.far_stoich = float(eng["fuel_air_ratio_stoich"])
        self.heat_until_s = -1.0

    @property
    def name(self) -> str:
        return f"{type(self.pilot).__name__} (with carburettor heat and mixture)"

    def __getattr__(self, attr):
        return getattr(self.pilot, attr)

    def __call__(self, src, dt_s=None) -> ControlInputs:
        c = self.pilot(src, dt_s)
        t = float(src.time_s)
        airborne = not src.on_ground
        lean = lean_for_best_power(src.altitude_m, self.far_rich, self.far_stoich) \
            if airborne and src.altitude_m > LEAN_ABOVE_M else 0.0
        if getattr(src, "carb_ice", 0.0) > ICE_NOTICED:
            self.heat_until_s = t + HEAT_HOLD_S
        elif getattr(src, "carb_ice", 0.0) > 0.0 and self.heat_until_s > t:
            self.heat_until_s = t + HEAT_HOLD_S          # until it has all gone, and a minute more
        heat = self.heat_until_s > t or (airborne and c.throttle <= CLOSED_THROTTLE)
        if c.throttle >= 0.99 and getattr(src, "carb_ice", 0.0) <= 0.0:
            heat = False                                  # full power: take-off, climb, go-around
        return c.replace(mixture_lean=lean, carb_heat=1.0 if heat else 0.0)
