"""An aircraft's published figures, as data: ``aircraft/<id>/references.toml``.

What the real aircraft did, where it was measured or written down, and how far that source
is trusted; ``python -m flightsim.validate`` flies the card each one names and compares.

    [[source]]                       # every document the figures cite, once
    id = "WF"
    title = "Wright Field Memo Report TSCEP5E-1908, 15 June 1945: flight tests on P-51D 44-15342"
    trust = "flight test"            # see TRUST
    note = "..."

    [[figure]]                       # a number: the card that flies it, the condition, the value
    card = "level_speed"             # see CARDS (the unit each card reports)
    value = 603.5
    unit = "km/h"
    source = "WF"
    where = "table 1"                # optional: table, figure or page in the source
    altitude_m = 0.0                 # the condition (the keys the card reads; see CONDITION_KEYS)
    power = "wep"
    mass_kg = 4427.0
    condition = "bomb racks fitted"  # optional: what else the source says of the condition
    check = true                     # optional (true): counted against the tolerance
    tolerance_pct = 5.0              # optional
    note = "..."                     # optional: why it is not checked, how it was read
    disagreement = "..."             # optional: where the SOURCES disagree, and the model sits among
                                     # them: outside its tolerance the figure is then "explained"
    cause = "..."                    # optional: what is known or suspected of why the model is off
                                     # where the sources agree: the figure stays "unexplained"
                                     # (both kinds of record; shown when outside the tolerance)

    [[behaviour]]                    # a statement: flown, and passed or failed
    card = "winch_launch_speed"
    behaviour = "the airspeed on the cable stays under VW = 120 km/h"
    source = "FM"
    where = "p. 5"
    limit = 120.0                    # the card's own parameters (see BEHAVIOUR_KEYS)

Bad data is refused with a DataError naming the file, the key and the problem. The figures
also give the views the older code reads: ``reference_dict`` (a glider's polar and speeds)
and ``reference_points`` (a powered aircraft's performance targets).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .schema import DataError, Field, between, num, positive, read_toml, validate_table

TRUST = ("flight test", "flight manual", "certification", "manufacturer calculation", "glide-computer polar",
         "secondary", "estimate")
# card -> the unit its value is in
CARDS = {
    "level_speed": "km/h", "best_climb": "m/s", "service_ceiling": "m", "engine_power": "kW",
    "stall_speed": "km/h", "best_glide_ratio": "ratio", "best_glide_speed": "km/h", "min_sink": "m/s",
    "min_sink_speed": "km/h", "glide_sink": "m/s", "roll_rate": "deg/s", "takeoff_roll": "m",
    "landing_roll": "m", "takeoff_distance": "m", "stick_force_per_g": "N/g", "time_to_climb": "s", "roll_reversal_speed": "km/h",
    "coolant_loss_endurance": "min", "fuel_flow": "kg/h",
    # a jet fighter's energy-maneuverability figures (flightsim.tools.maneuver)
    "level_mach": "Mach", "max_climb_rate": "m/s", "ceiling": "m", "sustained_turn_rate": "deg/s",
    "instantaneous_turn_rate": "deg/s", "sustained_load_factor": "g", "acceleration_time": "s",
    "corner_speed": "km/h",
}
BEHAVIOUR_CARDS = ("winch_launch_speed", "winch_release_height", "weak_link", "stall_roll_off", "stall_speed_limit",
                   "winch_stall", "turning_stall", "buffet_margin", "trim_change_flaps", "trim_change_gear",
                   "speed_stability", "stabilizer_trim_no_stall", "slat_asymmetry", "slat_roll_near_stall",
                   "radiator_hit_seizure", "radiator_half_capacity", "self_sealing_tank", "tank_fire",
                   "stores_release_agility", "g_limit_held", "lift_limited_pull", "afterburner_fuel",
                   "spin_recovery", "carb_heat_check")
POWERS = ("wep", "military", "normal", "cruise", "idle", "max", "off")    # max: a jet's full afterburner; off:
                                                                          # the engine cut, its propeller windmilling
CONFIGS = ("clean", "gear_down", "landing", "takeoff", "airbrakes")
CONDITION_KEYS = {
    "mass_kg": num(False, None, positive),
    "altitude_m": num(False, 0.0, between(-500.0, 20000.0)),
    "altitude_to_m": num(False, None, between(0.0, 20000.0)),     # time to climb: to this altitude
    "power": Field("enum", required=False, default=None, choices=POWERS),
    "config": Field("enum", required=False, default="clean", choices=CONFIGS),
    "ias_kmh": num(False, None, positive),
    "tas_kmh": num(False, None, positive),
    "stick_force_n": num(False, None, positive),
    "bank_deg": num(False, None, between(-80.0, 80.0)),            # a turn's bank
    "sideslip_deg": num(False, None, between(-30.0, 30.0)),        # a slipping stall's sideslip (+ air from the right)
    "calibre_mm": num(False, None, between(2.0, 40.0)),            # systems damage: the round that strikes
    "stores": Field("strlist", required=False, default=[]),        # the loadout ([[store]] names)
    "mach": num(False, None, between(0.05, 3.0)),                  # a jet's figures: at this Mach number
    "mach_to": num(False, None, between(0.05, 3.0)),               # acceleration: to this Mach number
    "rate_ms": num(False, None, between(0.0, 50.0)),               # ceiling: where the best climb falls to this
    "braking": num(False, None, between(0.05, 1.0)),               # landing roll: the brakes' share of their force
    "obstacle_ias_kmh": num(False, None, positive),                # take-off distance: the speed over the 50 ft obstacle
    "condition": Field("str", required=False, default=""),
    # a flight test flown with the radiator flaps' override (the Spitfire's JL.165: "radiator flaps open")
    "radiator_flaps": Field("enum", required=False, default="automatic", choices=("automatic", "open", "closed")),
}
# the figure cards that fly a figure's ``stores`` (the jet's energy-maneuverability cards,
# flightsim/validate/maneuver.py FIGURES; tests/test_validate.py keeps the two in step): the others fly clean
STORES_CARDS = ("level_mach", "max_climb_rate", "ceiling", "sustained_turn_rate", "instantaneous_turn_rate",
                "sustained_load_factor", "acceleration_time", "corner_speed")
# the figure cards that fly a figure's ``radiator_flaps`` held (flightsim/validate/performance.py)
RADIATOR_CARDS = ("level_speed", "fuel_flow", "best_climb", "service_ceiling")
SOURCE_KEYS = {"id": Field("str"), "title": Field("str"), "trust": Field("enum", choices=TRUST),
               "note": Field("str", required=False, default="")}
FIGURE_KEYS = {
    "card": Field("enum", choices=tuple(CARDS)),
    "figure": Field("str", required=False, default=""),
    "value": num(),
    "unit": Field("str"),
    "source": Field("str"),
    "where": Field("str", required=False, default=""),
    "check": Field("bool", required=False, default=True),
    "tolerance_pct": num(False, 5.0, between(0.1, 100.0)),
    "note": Field("str", required=False, default=""),
    "disagreement": Field("str", required=False, default=""),
    "cause": Field("str", required=False, default=""),
    **CONDITION_KEYS,
}
BEHAVIOUR_KEYS = {
    "card": Field("enum", choices=BEHAVIOUR_CARDS),
    "behaviour": Field("str"),
    "source": Field("str"),
    "where": Field("str", required=False, default=""),
    "note": Field("str", required=False, default=""),
    "disagreement": Field("str", required=False, default=""),
    "cause": Field("str", required=False, default=""),
    "limit": num(False, None),               # the card's threshold (its unit is the card's)
    "low": num(False, None),                 # a range: low .. high
    "high": num(False, None),
    **CONDITION_KEYS,
}
DEFAULT_NAMES = {
    "level_speed": "maximum level speed (TAS)", "best_climb": "best rate of climb", "service_ceiling":
    "service ceiling", "engine_power": "engine shaft power", "stall_speed": "1 g stall speed (EAS)",
    "best_glide_ratio": "best glide ratio", "best_glide_speed": "best glide speed (TAS)", "min_sink": "minimum sink",
    "min_sink_speed": "minimum sink speed (TAS)", "glide_sink": "sink rate", "roll_rate": "steady roll rate",
    "takeoff_roll": "take-off ground run", "landing_roll": "landing ground roll",
    "takeoff_distance": "take-off distance over a 50 ft obstacle",
    "stick_force_per_g":
    "stick force per g", "time_to_climb": "time to climb", "roll_reversal_speed": "aileron reversal speed (IAS)",
    "coolant_loss_endurance": "engine running time with all its coolant lost",
    "fuel_flow": "fuel flow at the maximum level speed",
    "level_mach": "maximum level Mach number", "max_climb_rate": "maximum rate of climb (Ps at 1 g)",
    "ceiling": "ceiling", "sustained_turn_rate": "sustained turn rate", "instantaneous_turn_rate":
    "instantaneous turn rate", "sustained_load_factor": "sustained load factor", "acceleration_time":
    "level acceleration time", "corner_speed": "corner speed (IAS)",
}


@dataclass
class Source:
    id: str
    title: str
    trust: str
    note: str = ""


@dataclass
class Figure:
    card: str
    name: str
    value: float
    unit: str
    source: Source
    where: str
    check: bool
    tolerance_pct: float
    note: str
    cond: dict
    label: str                      # figure[i] in the file, for messages
    disagreement: str = ""
    cause: str = ""

    def citation(self) -> str:
        return self.source.title + (f", {self.where}" if self.where else "")

    def condition_text(self) -> str:
        """The condition in words: altitude, speed, weight, power, configuration, force, the rest."""
        c = self.cond
        parts = []
        if c.get("altitude_m") is not None and (c["altitude_m"] or self.card not in ("glide_sink", "stall_speed")):
            parts.append(f"{c['altitude_m']:.0f} m" + (f" to {c['altitude_to_m']:.0f} m" if c.get("altitude_to_m")
                                                       else ""))
        if c.get("ias_kmh"):
            parts.append(f"{c['ias_kmh']:.0f} km/h IAS")
        if c.get("tas_kmh"):
            parts.append(f"{c['tas_kmh']:.0f} km/h TAS")
        if c.get("mass_kg"):
            parts.append(f"{c['mass_kg']:.0f} kg")
        if c.get("power"):
            parts.append("engine off, windmilling" if c["power"] == "off" else f"{c['power']} power")
        if c.get("config") and c["config"] != "clean":
            parts.append(c["config"].replace("_", " "))
        if c.get("stick_force_n"):
            parts.append(f"{c['stick_force_n']:.0f} N stick force")
        if c.get("calibre_mm"):
            parts.append(f"a {c['calibre_mm']:.1f} mm round")
        if c.get("stores"):
            parts.append("with " + ", ".join(c["stores"]))
        if c.get("radiator_flaps", "automatic") != "automatic":
            parts.append(f"radiator flaps {c['radiator_flaps']}")
        if c.get("condition"):
            parts.append(c["condition"])
        return ", ".join(parts)


@dataclass
class Behaviour:
    card: str
    text: str
    source: Source
    where: str
    note: str
    limit: float | None
    low: float | None
    high: float | None
    cond: dict
    label: str
    disagreement: str = ""
    cause: str = ""

    def citation(self) -> str:
        return self.source.title + (f", {self.where}" if self.where else "")


@dataclass
class References:
    path: Path | None
    sources: dict = field(default_factory=dict)
    figures: list = field(default_factory=list)
    behaviours: list = field(default_factory=list)
    error: Exception | None = None      # why the file was refused (the aircraft flies without it)

    def of(self, card: str, **cond) -> list[Figure]:
        """The figures of a card whose condition has these values."""
        return [f for f in self.figures if f.card == card and all(f.cond.get(k) == v for k, v in cond.items())]

    def value(self, card: str, **cond) -> float | None:
        """The first checked figure of a card with this condition (else any), or None."""
        figs = self.of(card, **cond)
        figs.sort(key=lambda f: not f.check)
        return figs[0].value if figs else None

    # ------------------------------------------------------------------ views for older readers
    def reference_dict(self) -> dict | None:
        """A glider's published speeds and polar, in the shape the tunnel's polar plot, the
        instruments' airspeed markings and the air starts read (None: no best glide figure)."""
        best = self.of("best_glide_ratio")
        if not best:
            return None
        mass = best[0].cond["mass_kg"]
        polar = sorted((f.cond["tas_kmh"], f.value) for f in self.of("glide_sink", mass_kg=mass))
        stall = self.of("stall_speed", config="clean")
        return {"mass_kg": mass, "source": best[0].citation(), "best_glide_ratio": best[0].value,
                "best_glide_kmh": self.value("best_glide_speed", mass_kg=mass),
                "min_sink_ms": self.value("min_sink", mass_kg=mass),
                "min_sink_kmh": self.value("min_sink_speed", mass_kg=mass),
                "stall_kmh": stall[0].value * (mass / stall[0].cond["mass_kg"]) ** 0.5 if stall else None,
                "polar_kmh": [p[0] for p in polar] or None, "polar_sink_ms": [p[1] for p in polar] or None,
                "notes": best[0].note}

    def reference_points(self) -> list[dict]:
        """A powered aircraft's performance targets in the shape of the tunnel's performance plot
        and the P-51D tests: quantity, power, altitude_m, mass_kg, the value's own key, test."""
        out = []
        for f in self.figures:
            q = {"level_speed": ("max_level_speed", "tas_kmh"), "best_climb": ("best_climb", "climb_ms"),
                 "service_ceiling": ("service_ceiling", "ceiling_m"),
                 "engine_power": ("engine_power", "power_w")}.get(f.card)
            if f.card == "stall_speed":
                q = ("stall_clean" if f.cond["config"] == "clean" else "stall_landing", "ias_kmh")
            if q is None:
                continue
            value = f.value * 1000.0 if f.card == "engine_power" else f.value
            out.append({"quantity": q[0], "power": f.cond.get("power") or "idle",
                        "altitude_m": f.cond.get("altitude_m") or 0.0, "mass_kg": f.cond.get("mass_kg"),
                        q[1]: value, "source": f.citation(), "test": f.check, "notes": f.note})
        return out


def _records(data, key, path):
    items = data.get(key, [])
    if not isinstance(items, list):
        raise DataError(path, key, f"must be an array of tables [[{key}]]")
    return items


def load_references(path: Path) -> References:
    """Read and check ``references.toml``; an aircraft without one has no references."""
    if not path.exists():
        return References(None)
    data = read_toml(path)
    for key in data:
        if key not in ("source", "figure", "behaviour"):
            raise DataError(path, key, "unknown table (allowed: source, figure, behaviour)")
    refs = References(path)
    for i, item in enumerate(_records(data, "source", path)):
        rec = validate_table(item, SOURCE_KEYS, path, f"source[{i}]")
        if rec["id"] in refs.sources:
            raise DataError(path, f"source[{i}].id", f"duplicate source id {rec['id']!r}")
        refs.sources[rec["id"]] = Source(rec["id"], rec["title"], rec["trust"], rec["note"])

    def source_of(rec, label):
        if rec["source"] not in refs.sources:
            raise DataError(path, f"{label}.source", f"names no [[source]] {rec['source']!r} "
                                                     f"(known: {', '.join(refs.sources) or 'none'})")
        return refs.sources[rec["source"]]

    def conditions(rec):
        return {k: rec[k] for k in CONDITION_KEYS}

    for i, item in enumerate(_records(data, "figure", path)):
        label = f"figure[{i}]"
        rec = validate_table(item, FIGURE_KEYS, path, label)
        unit = CARDS[rec["card"]]
        if rec["unit"] != unit:
            raise DataError(path, f"{label}.unit", f"card {rec['card']!r} reports {unit!r}, got {rec['unit']!r}")
        if rec["card"] == "glide_sink" and rec["tas_kmh"] is None:
            raise DataError(path, f"{label}.tas_kmh", "missing: a sink rate is at a speed")
        if rec["card"] in ("best_glide_ratio", "stall_speed") and rec["mass_kg"] is None:
            raise DataError(path, f"{label}.mass_kg", f"missing: a {rec['card']} is at a weight")
        if rec["stores"] and rec["card"] not in STORES_CARDS:
            raise DataError(path, f"{label}.stores", f"card {rec['card']!r} flies clean: stores are flown by "
                                                     f"{', '.join(STORES_CARDS)}")
        if rec["radiator_flaps"] != "automatic" and rec["card"] not in RADIATOR_CARDS:
            raise DataError(path, f"{label}.radiator_flaps", f"card {rec['card']!r} flies the thermostat's flaps: "
                                                             f"held flaps are flown by {', '.join(RADIATOR_CARDS)}")
        refs.figures.append(Figure(rec["card"], rec["figure"] or DEFAULT_NAMES[rec["card"]], rec["value"], unit,
                                   source_of(rec, label), rec["where"], rec["check"], rec["tolerance_pct"],
                                   rec["note"], conditions(rec), label, rec["disagreement"], rec["cause"]))
    for i, item in enumerate(_records(data, "behaviour", path)):
        label = f"behaviour[{i}]"
        rec = validate_table(item, BEHAVIOUR_KEYS, path, label)
        refs.behaviours.append(Behaviour(rec["card"], rec["behaviour"], source_of(rec, label), rec["where"],
                                         rec["note"], rec["limit"], rec["low"], rec["high"], conditions(rec), label,
                                         rec["disagreement"], rec["cause"]))
    return refs
