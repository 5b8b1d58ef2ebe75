"""What each armed fighter carries and shows, for the missiles' world (flightsim/world/missiles.py):
its ``Armament`` (missiles left, the selected weapon, its radar's lock, its seeker's tone, its
countermeasures), a ``Side`` (the fighter as the missiles see it in a step), a ``Flight`` (one
missile in the air) and the ``WeaponsView`` its cockpit shows (the HUD's, and what a pilot decides
from: pilots/missile_tactics.py)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..aircraft_data.damage import stores_of
from ..physics import missile as M
from ..physics.named_controls import CONTROL_INDEX, WEAPON_BUTTONS
from ..physics.named_model import AircraftData
from ..weapons.data import load_missile

GUN = "gun"
BUTTONS = WEAPON_BUTTONS
BUTTON_SLOTS = np.array([CONTROL_INDEX[b] for b in BUTTONS])


@dataclass(frozen=True)
class WeaponsView:
    """One fighter's weapons as its cockpit shows them: the HUD's (the lock box, the seeker circle,
    the launch zone, the warning, the radar's picture) and what a pilot, the player's autopilot or the
    AI, decides from (pilots/missile_tactics.py)."""
    selected: str                               # "GUN" or the missile's name
    selection: tuple                            # ((name, count), ...) the gun first
    lock: str                                   # "", "acquiring", "locked"
    lock_position_ned_m: np.ndarray | None      # the radar's target (the designator box)
    tone: bool                                  # the infrared seeker has the target
    seeker_limit_deg: float                     # the selected infrared missile's seeker circle (0: none)
    zone: tuple | None                          # (Rmax, Rne, Rmin, range) m for the selected missile
    warning: tuple                              # the missiles guiding on it: ((bearing rad, s to go), ...)
    flares: int
    chaff: int
    contacts: tuple                             # the radar's picture: ((range m, azimuth rad, seen, locked), ...)
    radar_range_m: float = 0.0
    selected_id: str = GUN                      # the weapon's id ("gun", "aim120c" ...)
    loadout: tuple = ()                         # ((weapon id, missiles left, seeker kind), ...)
    threats: tuple = ()                         # the warning's missiles: ((position, velocity NED, s to go, seeker), ...)
    own_in_flight: int = 0                      # its own missiles in the air
    own_on_datalink: bool = False               # one of them still guided by its radar's lock


@dataclass
class Side:
    """A fighter as the missiles see it this step (its pose at the start of the step)."""
    ident: int
    who: str                     # "player" / "opponent"
    pos: np.ndarray
    vel: np.ndarray
    R: np.ndarray                # body -> NED
    cg: np.ndarray
    model: np.ndarray
    state: np.ndarray | None
    afterburner: float
    alive: bool
    signature: dict | None
    radar: dict | None
    store_weapons: tuple = ()    # the weapon id of each of its stores ("" a bomb or tank): release_round


@dataclass
class Flight:
    """One missile in the air."""
    serial: int
    weapon: object               # weapons.data.Missile
    ms: np.ndarray
    shooter: int
    target: int
    t0: float
    decoy: object = None         # the Decoy (world/decoys.py) it follows, once drawn off
    memory: tuple | None = None  # (position, velocity, time) of the target at the last datalink update
    active: bool = False         # a radar missile's own seeker has the target
    status: int = M.ST_FLYING


@dataclass
class Armament:
    """One fighter's weapons, lock and countermeasures."""
    loadout: dict                # weapon id -> missiles left
    weapons: dict                # weapon id -> Missile
    flares: int = 0
    chaff: int = 0
    selected: str = GUN
    lock: int | None = None      # the radar's track: the target's ident
    lock_state: str = ""         # "", "acquiring", "locked"
    lock_t0: float = 0.0
    seen_t: float = 0.0
    tone: bool = False           # the infrared seeker has the target
    pressed: np.ndarray = field(default_factory=lambda: np.zeros(len(BUTTONS)))
    dispensed_t: dict = field(default_factory=lambda: {"flare": -1e9, "chaff": -1e9})
    zone: tuple | None = None    # (Rmax, Rne, Rmin, range) m for the selected missile on the locked target
    zone_work: tuple | None = None   # the zone being flown over three steps (world/missiles.py _zone)

    @property
    def selection(self) -> list[str]:
        return [GUN] + [w for w in self.loadout if self.loadout[w] > 0]

    def missile(self):
        return self.weapons.get(self.selected)

    @property
    def locked(self) -> bool:
        return self.lock_state == "locked"


def armament(missiles: list[str], flares: int, chaff: int) -> Armament:
    """A fighter's armament from its loadout (one id per missile) and cartridges."""
    loadout: dict = {}
    for w in missiles:
        loadout[w] = loadout.get(w, 0) + 1
    weapons = {w: load_missile(w) for w in loadout}
    # radar missiles first: the long shot is the first choice at the merge's start
    order = sorted(loadout, key=lambda w: weapons[w].missile["seeker"] == "infrared")
    arm = Armament({w: loadout[w] for w in order}, weapons, int(flares), int(chaff))
    arm.selected = order[0] if order else GUN
    return arm


def seeker_kind(missile) -> str:
    """"infrared", "radar" or "semi_active" (a missile's data file)."""
    return missile.missile["seeker"]


def store_weapons(spec) -> tuple:
    """The weapon id of each of an aircraft's stores, in the model's store order ("" for a bomb or a
    drop tank): how release_round finds a weapon's rows."""
    return tuple(s["weapon"] for s in stores_of(spec))


def release_round(model, state, weapons: tuple, weapon: str) -> bool:
    """A round of ``weapon`` launched: the first loaded missile store of it with a round still on
    gives one up (physics.named_model.AircraftData.launch_round), so the aircraft's mass, inertia and
    drag fall with it from the next step. False where no store carries it (an aircraft without
    missile stores, another player's aircraft)."""
    if state is None or weapon not in weapons:
        return False
    data = AircraftData(model)
    return any(w == weapon and data.launch_round(state, k) for k, w in enumerate(weapons))
