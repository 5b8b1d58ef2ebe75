"""Our aircraft as DIS entity types (SISO-REF-010, "Enumerations for Simulation Interoperability"),
and the reverse: the aircraft we draw for an entity type another simulator sends.

An entity type is seven numbers: kind (1 platform, 2 munition), domain (2 air), country, category,
subcategory, specific, extra. ``ENTITY_TYPES`` gives each of our aircraft its own; where SISO-REF-010
has no entry for the exact variant, the nearest entry it has, and where it has none at all, the
aircraft's kind, domain, country and category with the rest 0 (a receiver then draws its own
generic type). ``nearest_aircraft`` picks for a remote entity the aircraft of ours whose type agrees
with it in the most leading fields (kind, domain, country, category, subcategory, specific), the
table's order breaking ties: a US fighter we do not have is drawn as one of our US fighters.
The sources of each number are in docs/research/dis_entity_types.md.
"""
from __future__ import annotations

PLATFORM, MUNITION = 1, 2
AIR = 2
USA, UK, GERMANY = 225, 224, 78
FIGHTER, CIVIL_GLIDER, CIVIL_SMALL = 1, 83, 85     # air categories (Wireshark's DIS dissector names them the same)

# aircraft id -> (kind, domain, country, category, subcategory, specific, extra)
ENTITY_TYPES = {
    "f15c": (PLATFORM, AIR, USA, FIGHTER, 5, 3, 0),
    "p51d": (PLATFORM, AIR, USA, FIGHTER, 0, 0, 0),
    "spitfire": (PLATFORM, AIR, UK, FIGHTER, 0, 0, 0),
    "bf109": (PLATFORM, AIR, GERMANY, FIGHTER, 0, 0, 0),
    "c172p": (PLATFORM, AIR, USA, CIVIL_SMALL, 0, 0, 0),
    "astir": (PLATFORM, AIR, GERMANY, CIVIL_GLIDER, 0, 0, 0),
}
DEFAULT_AIRCRAFT = "c172p"          # what a remote of no air kind at all is drawn as

# munitions, in Fire and Detonation PDUs: a gun's rounds (category 2, ballistic) and each missile
# (category 1, guided). PROVISIONAL: kind, country and category follow SISO-REF-010's pattern
# (recalled), the subcategories are this game's own numbering, not SISO's: a DIS tool reads them
# as munitions of those categories, and our players read them back to the missile
GUN_ROUNDS = (MUNITION, 9, 0, 2, 0, 0, 0)
MISSILES = {"aim120c": (MUNITION, 1, USA, 1, 1, 0, 0), "aim9m": (MUNITION, 1, USA, 1, 2, 0, 0),
            "aim7m": (MUNITION, 1, USA, 1, 3, 0, 0)}


def missile_of(munition) -> str | None:
    """Our missile id of a munition type (None: not one of ours, or a gun's rounds)."""
    t = tuple(int(x) for x in munition)
    return next((k for k, v in MISSILES.items() if v == t), None)


def entity_type_of(aircraft_id: str) -> tuple:
    """Our aircraft's entity type (an aircraft not in the table: a generic air platform)."""
    return ENTITY_TYPES.get(aircraft_id, (PLATFORM, AIR, 0, 0, 0, 0, 0))


def _agreement(a: tuple, b: tuple) -> int:
    n = 0
    for x, y in zip(a[:6], b[:6]):
        if x != y:
            break
        n += 1
    return n


def nearest_aircraft(entity_type) -> str:
    """The aircraft of ours that draws a remote entity of this type."""
    t = tuple(int(x) for x in entity_type)
    best, score = DEFAULT_AIRCRAFT, -1
    for name, ours in ENTITY_TYPES.items():
        s = _agreement(t, ours)
        if s > score:
            best, score = name, s
    return best
