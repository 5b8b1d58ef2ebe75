"""Which pilot flies a scenario: ``autopilot(scenario, terrain, winch, weather)``.

Every pilot flies through the same ControlInputs (stick forces) as the player: it is called
with a Sim or a Snapshot (the game's handoff: what the mailbox writer sees) and returns a
ControlInputs. Each lives in its own module of this package, and this one names them all:

    flying.py    what they share: the readings (Attitude), the closed loops (Flyer: bank,
                 airspeed or attitude with the elevator, the ball), the common pilot
    thermal.py   ThermalPilot: circles and centres a thermal from the vario
    soaring.py   SoaringPilot / CrossCountryPilot: glide to a goal or the task's turnpoints,
                 circle in the lift met
    ridge.py     RidgePilot
    landing.py   LandingPilot (final, airbrakes on the glide path, round-out, hold-off)
    circuit.py   CircuitPilot (into wind; join, downwind, base planned from the height in
                 hand, then the LandingPilot; a field when the runway is out of reach)
    winch.py     WinchPilot (seed 004's winch launch) and WinchLaunchPilot (then soaring)
    powered.py   CruisePilot and TakeoffPilot (the fighters)
    terrain_watch.py  the look along the flight path and the turn away from a hill
                 (ScenarioPilot.fly and the powered pilots; the AI's pull-up reads it too)
    ai.py        the AI fighter pilot (combat, not a scenario's autopilot)

No knowledge of the model's internals: they fly the aircraft the way a pilot would, so what
they achieve is what the flight model allows.
"""
from __future__ import annotations

import math

from ..runtime.handoff import ControlInputs
from .circuit import CircuitPilot
from .engine_habits import CarburettorHabits, has_carburettor
from .flying import Attitude, Flyer, ScenarioPilot, runway_frame
from .landing import LandingPilot
from .powered import CruisePilot, TakeoffPilot
from .ridge import RidgePilot
from .soaring import CrossCountryPilot, SoaringPilot
from .terrain_watch import TerrainWatch
from .thermal import ThermalPilot, Vario, WindEstimate
from .winch import WinchLaunchPilot, WinchPilot

__all__ = ["Attitude", "CircuitPilot", "CrossCountryPilot", "CruisePilot", "Flyer", "HandsOff", "LandingPilot",
           "RidgePilot", "SoaringPilot", "TakeoffPilot", "ThermalPilot", "Vario", "WinchLaunchPilot", "WinchPilot",
           "WindEstimate", "autopilot", "runway_frame"]


# ---------------------------------------------------------------------------- per scenario
def takeoff_speeds(aircraft) -> dict:
    """TakeoffPilot's speeds for an aircraft (an id or an AircraftSpec): its [aircraft] rotate_kmh and
    climb_kmh where given, and on a nose wheel no tail to raise."""
    from ..aircraft_data.loader import load_aircraft
    spec = load_aircraft(aircraft) if isinstance(aircraft, str) else aircraft
    kw = {"tail_up_kmh": 0.0} if spec.nose_wheel else {}
    a = spec.aircraft
    if a.get("rotate_kmh"):
        kw["rotate_kmh"] = a["rotate_kmh"]
    if a.get("climb_kmh"):
        kw["climb_kmh"] = a["climb_kmh"]
    return kw


def _has_bandit(combat) -> bool:
    """Missiles in play and someone to fight: the AI opponent, or online another player (world/net_combat.py)."""
    return combat is not None and combat.missiles is not None and (combat.opp is not None or
                                                                   getattr(combat, "online", False))


def autopilot(scenario, terrain, winch=None, weather=None, powered=None, aircraft=None, combat=None):
    """The pilot that flies a scenario (for the demo, the tests and as an AI fallback):

    winch -> the launch, soaring round the field for three minutes, then the circuit and the
    landing back; thermal -> a SoaringPilot (to the next cumulus, circling in its lift:
    ThermalPilot; the field kept within reach); landing -> LandingPilot; ridge (or any
    scenario asking to stay up in a 6 m/s wind) -> RidgePilot; cross_country ->
    CrossCountryPilot (a field when low); other glider air starts (airfield, downwind, high)
    -> CircuitPilot (the runway, or a field from the world's FieldFinder when it is out of
    reach); a glider parked on the runway -> hands off (it waits for a launch). A powered
    aircraft (``powered``; default: the scenario is a fighter or trainer scenario), in any
    scenario: on the runway -> TakeoffPilot at the speeds of ``aircraft`` (the AircraftSpec
    flown, default the scenario's: takeoff_speeds), in the air -> CruisePilot, or where missiles are
    in play against an opponent (``combat``: the world's Combat) -> CombatPilot; with a carburetted
    engine, either with a light-aircraft pilot's carburettor heat and mixture (engine_habits.py). The soaring, ridge and powered
    pilots, and the circuit on its way to the field, keep a TerrainWatch on the ground ahead
    (the circuit itself is planned clear of the hills; the circling in a thermal and the
    final approach fly by their own rules)."""
    from ..world.fields import FieldFinder
    from ..world.scenario import find_scenario
    sc = find_scenario(scenario) if isinstance(scenario, str) else scenario
    af = terrain.airfield
    st = sc.start
    hdg = af.heading_rad + math.radians(st["heading_offset_deg"])
    wind = sc.world
    to = math.radians(wind["wind_from_deg"] + 180.0)
    wind_ne = (wind["wind_speed_ms"] * math.cos(to), wind["wind_speed_ms"] * math.sin(to))
    headwind = -(wind_ne[0] * math.cos(af.heading_rad) + wind_ne[1] * math.sin(af.heading_rad))
    ceiling = clouds = None
    if weather is not None and len(getattr(weather, "thermals", [])):
        ceiling = float(min(th.base_m for th in weather.thermals))
        clouds = weather.clouds          # the cumulus the world shows (over each thermal), at a time
    land = [o for o in sc.objectives if o["type"] == "land"]
    aim = land[0]["along_m"] if land and land[0]["along_m"] != 0.0 else -250.0

    def circuit():
        return CircuitPilot(af, wind_ne_ms=wind_ne, terrain=terrain, fields=FieldFinder(terrain))

    def watching(pilot, **kw):
        """The pilot with its look at the terrain ahead (terrain_watch.py)."""
        pilot.terrain_watch = TerrainWatch(terrain, **kw)
        return pilot

    if sc.kind in ("fighter", "trainer") if powered is None else powered:
        if _has_bandit(combat) and st["type"] == "air":
            from .combat_pilot import CombatPilot
            return CombatPilot(combat)
        if st["type"] == "runway":
            p = watching(TakeoffPilot(hdg, **takeoff_speeds(aircraft or sc.aircraft)), seconds=30.0, clearance_m=150.0)
        else:
            p = watching(CruisePilot(heading_rad=hdg), seconds=30.0, clearance_m=150.0)
        from ..aircraft_data.loader import load_aircraft
        flown = aircraft or sc.aircraft
        spec = load_aircraft(flown) if isinstance(flown, str) else flown
        return CarburettorHabits(p, spec) if spec is not None and has_carburettor(spec) else p
    if st["type"] == "winch":
        if winch is None:
            raise ValueError(f"scenario {sc.name!r} starts on a winch: pass the world's winch")
        launch = WinchLaunchPilot(winch, hdg, af, circuit(), ceiling_m=ceiling, clouds=clouds, wind_ne_ms=wind_ne)
        watching(launch.soar)
        return launch
    if st["type"] == "runway":
        return HandsOff()
    if sc.name == "landing" or (land and land[0]["along_m"] != 0.0 and st["height_m"] < 200.0):
        return LandingPilot(af, aim, headwind_ms=headwind)
    stay_up = any(o["type"] == "survive" for o in sc.objectives)
    if sc.name == "ridge" or (stay_up and sc.ridge.get("lift") and wind["wind_speed_ms"] >= 6.0):
        # it flies close to the face on purpose: a short look and a small clearance
        return watching(RidgePilot(terrain, wind["wind_from_deg"], hdg), seconds=12.0, clearance_m=30.0)
    tps = [o for o in sc.objectives if o["type"] == "turnpoint"]
    if tps:
        return watching(CrossCountryPilot([af.to_world(o["along_m"], o["right_m"]) for o in tps],
                                          [o["radius_m"] for o in tps], ceiling_m=ceiling, clouds=clouds, home=af,
                                          circuit=circuit(), wind_ne_ms=wind_ne, keep_home_in_reach=False,
                                          leave_below_base_m=220.0))
    if int(sc.thermals.get("count", 0)) > 0:
        return watching(SoaringPilot(goal_ne=None, ceiling_m=ceiling, clouds=clouds, home=af, circuit=circuit(),
                                     wind_ne_ms=wind_ne))
    return circuit()


class HandsOff(ScenarioPilot):
    """Nothing to fly (a glider parked on the runway waits for its launch): the controls as they are."""

    def __call__(self, src, dt_s=None) -> ControlInputs:
        a, _ = self.reading(src)
        return self.base
