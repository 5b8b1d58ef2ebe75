"""Scenarios as data: ``scenarios/*.toml``, validated on load.

A scenario names the aircraft, where and how it starts (in the air, parked on the
runway, or on a winch cable), the time of day, the wind, the thermals and the ridge,
and its objectives. ``--scenario glider`` and ``--scenario fighter`` pick the default
scenario of each kind. A fighter scenario may add air combat (flightsim/world/combat.py):
``[opponent]`` (an AI fighter: where it starts, how hard it pulls, its gun range, its floor
above the ground, whether it shoots, the hits that put it out), ``[[target]]`` balloons,
and ``[combat]`` bullet settings. Positions are given relative to the world's airfield: ``along_m``
along the runway from its centre (negative: before the threshold), ``right_m`` to its
right, heights above the airfield (``height_m``) -- the same world for every scenario.

Bad files are refused with a :class:`DataError` naming the file, the key and the problem.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..aircraft_data.schema import DataError, Field, between, non_negative, num, positive, read_toml, validate_table

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "scenarios"
KINDS = ("glider", "fighter", "trainer")
DEFAULT_SCENARIO = "airfield"       # flown when none is named, remembered or implied by --aircraft

SCENARIO_KEYS = {
    "name": Field("str"),
    "description": Field("str"),
    "aircraft": Field("str"),
    "kind": Field("enum", choices=KINDS),
    "default": Field("bool", required=False, default=False),
}
START_KEYS = {
    "type": Field("enum", choices=("air", "runway", "winch")),
    "along_m": num(False, 0.0),
    "right_m": num(False, 0.0),
    "height_m": num(False, 500.0, between(0.0, 12000.0)),      # above the airfield (air starts)
    "heading_offset_deg": num(False, 0.0, between(-360.0, 360.0)),  # from the runway heading
    "speed_kmh": num(False, None, positive),                   # air start: default best glide / cruise
    "min_clearance_m": num(False, 150.0, non_negative),        # air start: at least this above the ground
    "stores": Field("strlist", required=False, default=[]),    # the loadout: the scenario aircraft's [[store]]
                                                               # names (another aircraft flown here goes clean)
}
WORLD_KEYS = {
    "time_of_day_h": num(False, 13.0, between(0.0, 24.0)),
    "wind_speed_ms": num(False, 0.0, between(0.0, 40.0)),
    "wind_from_deg": num(False, 270.0, between(0.0, 360.0)),
    # the air's relative humidity, % (0: dry, the default): a carburettor ices in moist air
    # (physics/carburettor.py; the temperatures are the standard atmosphere's)
    "humidity_pct": num(False, 0.0, between(0.0, 100.0)),
}
THERMAL_KEYS = {
    "count": num(False, 0.0, between(0, 60)),
    "strength_ms": num(False, 2.5, between(0.0, 10.0)),
    "radius_m": num(False, 250.0, between(20.0, 2000.0)),
    "lifetime_s": num(False, 1200.0, between(30.0, 36000.0)),
    "spread_m": num(False, 8000.0, positive),
    "seed": num(False, 1.0),
}
RIDGE_KEYS = {"lift": Field("bool", required=False, default=True)}
# [failure]: what fails, scripted (a trainer's engine failure after take-off): the engine loses all its
# power once the aircraft has climbed this high above the airfield (world/assembly.py applies it)
FAILURE_KEYS = {"engine_at_height_m": num(False, None, positive)}
# [instructor]: a first solo's instructor (flightsim/instruments/instructor.py) says what to do on
# each leg of the circuit and scores the approach and the landing
INSTRUCTOR_KEYS = {"approach_ias_kmh": num(False, 120.0, positive), "circuit_height_m": num(False, 305.0, positive)}
WINCH_KEYS = {
    "cable_length_m": num(False, 1000.0, between(200.0, 3000.0)),
    "weak_link_n": num(False, 5000.0, positive),
    "max_pull_n": num(False, 7000.0, positive),
    "free_speed_ms": num(False, 55.0, positive),
}
# air combat (issue 7): an AI opponent, targets, bullet settings (flightsim/world/combat.py)
OPPONENT_KEYS = {
    "aircraft": Field("str", required=False, default=None),     # default: the scenario's aircraft
    "along_m": num(False, 0.0),
    "right_m": num(False, 0.0),
    "height_m": num(False, 1500.0, between(0.0, 12000.0)),     # above the airfield
    "heading_offset_deg": num(False, 0.0, between(-360.0, 360.0)),
    "speed_kmh": num(False, 450.0, positive),
    "min_clearance_m": num(False, 300.0, non_negative),
    "max_g": num(False, 6.0, between(1.5, 12.0)),
    "gun_range_m": num(False, 600.0, between(50.0, 3000.0)),
    "floor_m": num(False, 300.0, between(50.0, 3000.0)),       # the AI pulls out below this height above the ground
    "fires": Field("bool", required=False, default=True),
    "hits_to_kill": num(False, 40.0, between(1.0, 10000.0)),
    "respawn": Field("bool", required=False, default=True),
    "stores": Field("strlist", required=False, default=[]),    # its loadout ([[store]] names); the AI drops them to fight
    # its missiles (weapons/<id>/missile.toml, one name per missile) and countermeasure cartridges (issue 35)
    "missiles": Field("strlist", required=False, default=[]),
    "flares": num(False, 0.0, between(0.0, 500.0)),
    "chaff": num(False, 0.0, between(0.0, 500.0)),
}
TARGET_KEYS = {
    "type": Field("enum", choices=("balloon",)),
    "name": Field("str", required=False, default=""),
    "along_m": num(False, 0.0),
    "right_m": num(False, 0.0),
    "height_m": num(False, 300.0, between(0.0, 12000.0)),      # above the airfield
    "heading_offset_deg": num(False, 0.0, between(-360.0, 360.0)),
    "min_clearance_m": num(False, 60.0, non_negative),
    "radius_m": num(False, 5.0, between(0.5, 50.0)),
    "hits_to_kill": num(False, 8.0, between(1.0, 10000.0)),
}
COMBAT_KEYS = {
    "bullet_life_s": num(False, 3.0, between(0.5, 20.0)),
    "tracer_every": num(False, 5.0, between(0.0, 100.0)),     # one tracer in so many rounds (0: none)
    # the player's missiles and countermeasure cartridges (issue 35), as the opponent's
    "missiles": Field("strlist", required=False, default=[]),
    "flares": num(False, 0.0, between(0.0, 500.0)),
    "chaff": num(False, 0.0, between(0.0, 500.0)),
    "seed": num(False, 1.0, between(0.0, 2.0 ** 31)),          # the combat's chances (fires, decoys, fragments)
}
MAX_MISSILES = 12
OBJECTIVE_KEYS = {
    "type": Field("enum", choices=("land", "turnpoint", "climb", "destroy", "survive")),
    "name": Field("str", required=False, default=""),
    "along_m": num(False, 0.0),
    "right_m": num(False, 0.0),
    "radius_m": num(False, 500.0, positive),
    "height_m": num(False, 0.0, non_negative),
    "count": num(False, 1.0, positive),
}


@dataclass
class Scenario:
    name: str
    path: Path
    description: str
    aircraft: str
    kind: str
    default: bool
    start: dict
    world: dict
    thermals: dict
    ridge: dict
    winch: dict | None
    objectives: list = field(default_factory=list)
    opponent: dict | None = None        # [opponent]: an AI fighter (flightsim/world/combat.py)
    targets: list = field(default_factory=list)   # [[target]]: things to shoot
    combat: dict | None = None          # [combat]: bullet settings; None: no combat at all
    failure: dict = field(default_factory=dict)   # [failure]: scripted failures (FAILURE_KEYS)
    instructor: dict | None = None      # [instructor]: a first solo's instructor (INSTRUCTOR_KEYS)

    @property
    def has_combat(self) -> bool:
        return self.opponent is not None or bool(self.targets)


def scenario_paths() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.toml"))


def load_scenario(path: Path) -> Scenario:
    data = read_toml(path)
    allowed = {"scenario", "start", "world", "thermals", "ridge", "winch", "objective", "opponent", "target", "combat",
               "failure", "instructor"}
    for key in data:
        if key not in allowed:
            raise DataError(path, key, f"unknown table (allowed: {', '.join(sorted(allowed))})")
    for key in ("scenario", "start"):
        if key not in data:
            raise DataError(path, key, f"missing required table [{key}]")
    head = validate_table(data["scenario"], SCENARIO_KEYS, path, "scenario")
    if head["name"] != path.stem:
        raise DataError(path, "scenario.name", f"must match the file name {path.stem!r}, got {head['name']!r}")
    start = validate_table(data["start"], START_KEYS, path, "start")
    world = validate_table(data.get("world", {}), WORLD_KEYS, path, "world")
    thermals = validate_table(data.get("thermals", {}), THERMAL_KEYS, path, "thermals")
    ridge = validate_table(data.get("ridge", {}), RIDGE_KEYS, path, "ridge")
    winch = validate_table(data["winch"], WINCH_KEYS, path, "winch") if "winch" in data else None
    if start["type"] == "winch" and winch is None:
        winch = validate_table({}, WINCH_KEYS, path, "winch")
    if start["type"] == "winch" and head["kind"] != "glider":
        raise DataError(path, "start.type", "a winch launch is for gliders")
    objectives = []
    items = data.get("objective", [])
    if not isinstance(items, list):
        raise DataError(path, "objective", "must be an array of tables [[objective]]")
    for i, item in enumerate(items):
        objectives.append(validate_table(item, OBJECTIVE_KEYS, path, f"objective[{i}]"))
    from ..aircraft_data.loader import list_aircraft
    known = list_aircraft()
    if head["aircraft"] not in known:
        raise DataError(path, "scenario.aircraft", f"unknown aircraft {head['aircraft']!r} (known: {', '.join(known)})")
    opponent = validate_table(data["opponent"], OPPONENT_KEYS, path, "opponent") if "opponent" in data else None
    if opponent is not None:
        if opponent["aircraft"] is not None and opponent["aircraft"] not in known:
            raise DataError(path, "opponent.aircraft",
                            f"unknown aircraft {opponent['aircraft']!r} (known: {', '.join(known)})")
        if head["kind"] != "fighter":
            raise DataError(path, "opponent", "an opponent is for fighter scenarios")
        opponent["hits_to_kill"] = int(opponent["hits_to_kill"])
        _check_missiles(path, "opponent", opponent)
    items = data.get("target", [])
    if not isinstance(items, list):
        raise DataError(path, "target", "must be an array of tables [[target]]")
    targets = [validate_table(item, TARGET_KEYS, path, f"target[{i}]") for i, item in enumerate(items)]
    combat = validate_table(data.get("combat", {}), COMBAT_KEYS, path, "combat") \
        if (opponent is not None or targets or "combat" in data) else None
    if combat is not None:
        _check_missiles(path, "combat", combat)
    failure = validate_table(data.get("failure", {}), FAILURE_KEYS, path, "failure")
    instructor = validate_table(data["instructor"], INSTRUCTOR_KEYS, path, "instructor") if "instructor" in data \
        else None
    return Scenario(head["name"], path, head["description"], head["aircraft"], head["kind"], head["default"],
                    start, world, thermals, ridge, winch, objectives, opponent, targets, combat, failure, instructor)


def _check_missiles(path, table: str, t: dict) -> None:
    """A loadout's missiles are known weapons, at most MAX_MISSILES; cartridges whole numbers."""
    from ..weapons.data import list_weapons
    known = list_weapons()
    for i, w in enumerate(t["missiles"]):
        if w not in known:
            raise DataError(path, f"{table}.missiles[{i}]", f"unknown weapon {w!r} (known: {', '.join(known)})")
    if len(t["missiles"]) > MAX_MISSILES:
        raise DataError(path, f"{table}.missiles", f"{len(t['missiles'])} missiles: at most {MAX_MISSILES}")
    for k in ("flares", "chaff"):
        if t[k] != int(t[k]):
            raise DataError(path, f"{table}.{k}", f"a number of cartridges, got {t[k]}")
        t[k] = int(t[k])


def scenario_catalogue() -> tuple[list[Scenario], list[tuple[Path, str]]]:
    """Every scenario in scenarios/, and every file there that was refused with why: one bad
    file never hides the good ones (the menu lists the refused under their own heading)."""
    good, refused = [], []
    for p in scenario_paths():
        try:
            good.append(load_scenario(p))
        except DataError as e:
            refused.append((p, e.problem if e.file == str(p) else str(e)))
    return good, refused


def all_scenarios(strict: bool = False) -> list[Scenario]:
    """Every scenario in scenarios/ (a bad file raises when strict, else is left out)."""
    if strict:
        return [load_scenario(p) for p in scenario_paths()]
    return scenario_catalogue()[0]


def scenario_names() -> list[str]:
    return [p.stem for p in scenario_paths()]


def find_scenario(name: str) -> Scenario:
    """A scenario by name; "glider" / "fighter" / "trainer" mean that kind's default scenario."""
    if name in KINDS:
        for s in all_scenarios():
            if s.kind == name and s.default:
                return s
        raise DataError(SCENARIO_DIR, "scenario.default", f"no scenario of kind {name!r} has default = true")
    p = SCENARIO_DIR / f"{name}.toml"
    if not p.exists():
        raise DataError(p, "", f"no scenario named {name!r} (known: {', '.join(scenario_names())}, {', '.join(KINDS)})")
    return load_scenario(p)


# ---------------------------------------------------------------------------- starting
SCENARIO_KIND_OF = {"glider": "glider", "powered": "fighter"}   # aircraft kind -> its default scenarios' kind
AIRCRAFT_KIND_OF = {"glider": "glider", "fighter": "powered", "trainer": "powered"}   # scenario kind -> whose


class UnsuitableAircraft(ValueError):
    """An aircraft that cannot fly a scenario at all; the message says why, in one line."""


@dataclass(frozen=True)
class Start:
    """How an aircraft starts a scenario: the scenario's [start] type and place; in the air, its
    speed and whether in trimmed level flight (powered) or a trimmed glide. ``note`` says where
    the scenario's own start did not suit the aircraft and its own start was taken instead."""
    type: str
    speed_ms: float | None = None
    level: bool = False
    note: str | None = None


SLOWEST_OF_OWN = 0.6    # an asked air-start speed under this share of the aircraft's own is a slower type's


def own_air_start_ms(spec) -> float:
    """The aircraft's own air-start speed (TAS): [aircraft] air_start_kmh, else its best glide."""
    if spec.aircraft.get("air_start_kmh"):
        return spec.aircraft["air_start_kmh"] / 3.6
    ref = spec.reference or {}
    if ref.get("best_glide_kmh"):
        return ref["best_glide_kmh"] / 3.6
    raise DataError(spec.path, "aircraft.air_start_kmh",
                    "needed to start this aircraft in the air (or [reference] best_glide_kmh for a glider)")


def plan_start(sc: Scenario, spec) -> Start:
    """How ``spec`` (an AircraftSpec) starts ``sc``, or UnsuitableAircraft when it cannot fly it.

    A winch launch is for gliders; an air fight needs guns. In the air, a scenario written for
    another kind of aircraft (a glider's 100 km/h glide for a fighter, a fighter's 450 km/h for a
    glider), or one asking for a speed at or beyond the aircraft's Vne or under SLOWEST_OF_OWN of
    its own (a trainer's 167 km/h for a fighter), starts the aircraft at its own air-start speed:
    a powered aircraft in trimmed level flight, a glider in its best glide."""
    aid = spec.id
    kind = spec.aircraft["kind"]
    powered = kind == "powered"
    st = sc.start
    if st["type"] == "winch" and powered:
        raise UnsuitableAircraft(f"{aid} cannot start on the winch: a winch launch is for gliders "
                                 f"({sc.name} is written for {sc.aircraft})")
    if sc.has_combat and not spec.guns:
        raise UnsuitableAircraft(f"{aid} carries no guns: {sc.name} is an air fight (fly it in {sc.aircraft})")
    if st["type"] != "air":
        return Start(st["type"])
    how = "trimmed level flight" if powered else "a trimmed glide"
    own = own_air_start_ms(spec)
    asked = st["speed_kmh"]
    if AIRCRAFT_KIND_OF[sc.kind] != kind:
        return Start("air", own, powered, f"{aid} in {sc.name} (a {sc.kind} scenario): starting in {how} at "
                                          f"{own * 3.6:.0f} km/h, its own air start"
                                          + (f", not the scenario's {asked:.0f} km/h" if asked else ""))
    if asked is None:
        return Start("air", own, powered)
    if asked < SLOWEST_OF_OWN * own * 3.6:
        return Start("air", own, powered, f"{aid}: the scenario's {asked:.0f} km/h is written for a slower aircraft; "
                                          f"starting in {how} at {own * 3.6:.0f} km/h")
    if asked >= spec.aircraft["vne_kmh"]:
        return Start("air", own, powered, f"{aid}: the scenario's {asked:.0f} km/h is beyond its Vne "
                                          f"({spec.aircraft['vne_kmh']:.0f} km/h); starting in {how} at "
                                          f"{own * 3.6:.0f} km/h")
    return Start("air", asked / 3.6, powered)


def _spawn_level(sim, speed_ms, alt, hdg, n, e) -> None:
    """Trimmed level flight at the start's speed; where the aircraft has none there (slower than a
    fighter flies, a trainer scenario's 167 km/h; above what full power holds, a C172 at a jet's
    5,000 m) its own air-start speed, else a trimmed glide; the console says which."""
    from ..sim import CannotFly
    own = own_air_start_ms(sim.compiled.spec)
    tries = [("level", speed_ms)] + ([("level", own)] if abs(own - speed_ms) > 0.5 else []) + [("glide", speed_ms)]
    why = None
    for how, v in tries:
        try:
            (sim.spawn_trimmed_level if how == "level" else sim.spawn_trimmed_glide)(v, alt, hdg, n, e)
        except CannotFly as err:
            why = why or err
            continue
        if why is not None:
            logging.getLogger("flightsim.world").warning(
                "%s; starting in %s at %.0f km/h instead", why, "level flight" if how == "level" else "a trimmed glide",
                v * 3.6)
        return
    raise why


def wind_ned(world: dict) -> tuple:
    """The steady wind as the velocity of the air (NED): a wind *from* 270 blows toward the east."""
    v = world["wind_speed_ms"]
    to = math.radians(world["wind_from_deg"] + 180.0)
    return (v * math.cos(to), v * math.sin(to), 0.0)


def place(terrain, table: dict):
    """(north_m, east_m, altitude_m, heading_rad) of something placed like a start: along /
    right of the runway centre, height above the airfield (at least min_clearance_m above
    the ground under it), heading from the runway heading."""
    af = terrain.airfield
    n, e = af.to_world(table.get("along_m", 0.0), table.get("right_m", 0.0))
    alt = max(af.elevation_m + table.get("height_m", 0.0), terrain.height_at(n, e) + table.get("min_clearance_m", 0.0))
    return n, e, alt, af.heading_rad + math.radians(table.get("heading_offset_deg", 0.0))


def spawn(sim, terrain, scenario: Scenario | str = "airfield", start: Start | None = None):
    """Put ``sim`` into the scenario's start (``start``: plan_start's, made here if not given);
    returns (state, ctrl) copies for resets."""
    sc = find_scenario(scenario) if isinstance(scenario, str) else scenario
    start = start or plan_start(sc, sim.compiled.spec)
    af = terrain.airfield
    st = sc.start
    hdg = af.heading_rad + math.radians(st["heading_offset_deg"])
    n, e = af.to_world(st["along_m"], st["right_m"])
    if start.type in ("runway", "winch"):
        # on the winch a wing runner holds the wings level as the launch starts; parked, a
        # glider rests on a wingtip
        sim.spawn_on_ground(n, e, hdg, settle_s=2.0, roll_rad=0.0 if start.type == "winch" else None)
        if start.type == "winch":
            # the pre-launch checks: trim set for the launch speed (hands off, the glider then
            # flies at about that speed once the cable is gone)
            launch = sim.compiled.spec.aircraft.get("winch_launch_kmh")
            t = sim.trimmer(0.0).glide((launch / 3.6) if launch else own_air_start_ms(sim.compiled.spec))
            if t.ok and t.within_travel:
                sim.controls.pitch_trim = t.pitch_cmd
    else:
        alt = max(af.elevation_m + st["height_m"], terrain.height_at(n, e) + st["min_clearance_m"])
        if start.level:
            _spawn_level(sim, start.speed_ms, alt, hdg, n, e)
        else:
            sim.spawn_trimmed_glide(start.speed_ms, alt, hdg, n, e)
    return sim.state.copy(), sim.ctrl.copy()
