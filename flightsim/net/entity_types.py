"""Our aircraft as DIS entity types (SISO-REF-010, "Enumerations for Simulation Interoperability"),
and the reverse: the aircraft we draw for an entity type another simulator sends.

An entity type is seven numbers: kind (1 platform, 2 munition), domain (2 air), country, category,
subcategory, specific, extra. ``ENTITY_TYPES`` gives each of our aircraft its own, read in
SISO-REF-010 v34 (Oct 2024, checked against v36's XML): the F-15C 1.2.225.1.5.3, the Cessna 172
Skyhawk 1.2.225.85.11.1, the Astir the German "Sail Plane" 1.2.78.83.1 (SISO has no Astir). The
P-51D, Spitfire and Bf 109 have no SISO entry at all: their country and the fighter category, the
rest 0 (non-standard; a receiver draws its own generic fighter of that country).
``nearest_aircraft`` picks for a remote entity the aircraft of ours whose type agrees with it in
the most leading fields (kind, domain, country, category, subcategory, specific), the table's order
breaking ties: a US fighter we do not have is drawn as one of our US fighters.
The sources of each number are in docs/research/dis_entity_types.md.
"""
from __future__ import annotations

PLATFORM, MUNITION = 1, 2
AIR = 2
USA, UK, GERMANY = 225, 224, 78
FIGHTER, CIVIL_GLIDER, CIVIL_SMALL = 1, 83, 85     # air categories (Wireshark's DIS dissector names them the same)

# aircraft id -> (kind, domain, country, category, subcategory, specific, extra)
ENTITY_TYPES = {
    "f15c": (PLATFORM, AIR, USA, FIGHTER, 5, 3, 0),              # F-15 Eagle / F-15C
    "p51d": (PLATFORM, AIR, USA, FIGHTER, 0, 0, 0),
    "spitfire": (PLATFORM, AIR, UK, FIGHTER, 0, 0, 0),
    "bf109": (PLATFORM, AIR, GERMANY, FIGHTER, 0, 0, 0),
    "c172p": (PLATFORM, AIR, USA, CIVIL_SMALL, 11, 1, 0),        # Single Piston Engine / Cessna 172 Skyhawk
    "astir": (PLATFORM, AIR, GERMANY, CIVIL_GLIDER, 1, 0, 0),    # German "Sail Plane" (no Astir entry)
}
DEFAULT_AIRCRAFT = "c172p"          # what a remote of no air kind at all is drawn as

# munitions, in Fire and Detonation PDUs (SISO-REF-010 v34 s5.13.143.2, USA anti-air munitions):
# each missile is munition domain 1 (anti-air), category 1 (guided): AIM-9M 2.1.225.1.1.3.2,
# AIM-120C 2.1.225.1.2.3, AIM-7M 2.1.225.1.13.2 (Sparrow; subcategory 3 is "(deprecated)").
MISSILES = {"aim120c": (MUNITION, 1, USA, 1, 2, 3, 0), "aim9m": (MUNITION, 1, USA, 1, 1, 3, 2),
            "aim7m": (MUNITION, 1, USA, 1, 13, 2, 0)}
# a gun's rounds: anti-air (1), ballistic (2). v34 lists the US 12.7-mm/.50 calibre (2.1.225.2.2) and
# 20-mm (2.1.225.2.3) rounds and Germany's 20 mm (2.1.78.2.1); the Hispano's 20 mm (no UK block) and
# the MG 131's 13 mm have no entry: their country's anti-air ballistic rounds, subcategory 0.
US_50_CAL, US_20_MM = (MUNITION, 1, USA, 2, 2, 0, 0), (MUNITION, 1, USA, 2, 3, 0, 0)
GERMAN_20_MM = (MUNITION, 1, GERMANY, 2, 1, 0, 0)
GUN_ROUNDS = (MUNITION, 1, 0, 2, 0, 0, 0)          # a gun of no known calibre or country


def gun_munition(aircraft_id: str, calibre_mm: float) -> tuple:
    """The munition type of a gun's rounds: the .50 Browning's wherever it is mounted (P-51D,
    Spitfire), the M61A1's and the MG 151/20's 20 mm, otherwise the aircraft's country's anti-air rounds."""
    country = ENTITY_TYPES.get(aircraft_id, (0, 0, 0))[2]
    if abs(calibre_mm - 12.7) < 0.05:
        return US_50_CAL
    if abs(calibre_mm - 20.0) < 0.05 and country in (USA, GERMANY):
        return US_20_MM if country == USA else GERMAN_20_MM
    return GUN_ROUNDS if country == 0 else (MUNITION, 1, country, 2, 0, 0, 0)


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
