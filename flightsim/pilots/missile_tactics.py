"""The AI's missiles: which weapon, when to lock, when to shoot, how to defend (issue 35), through
the same weapon buttons as the player's (physics/named_controls.py: launch, weapon_select, lock,
flare, chaff) and the same limits: it knows what the player's cockpit shows (its lock, its seeker's
tone, the launch zone, the missile warning: flightsim/world/missiles.py), nothing more.

* **weapon**: the gun inside ``GUN_RANGE_M``, an infrared missile inside ``IR_RANGE_M`` with a
  tone, else the radar missile; it presses weapon select until that one is selected;
* **lock**: it presses lock while it has no radar track and the enemy is within the radar's range;
* **shot**: a radar missile inside ``SHOOT_SHARE`` of Rmax, or inside Rne; an infrared missile
  with a tone inside Rne or 0.6 Rmax; one radar missile at a time on a target, a second after
  ``RESHOOT_S``;
* **support**: with its own radar missile still on the datalink it cranks, holding the target
  ``CRANK_DEG`` off the nose (the radar keeps the lock, the closure falls);
* **defence**: with a missile warning it drags while the missile is beyond ``DRAG_M`` (turns its
  tail to it and runs: the missile's energy against the range), then beams (flies across the
  missile's line of sight, down into the clutter notch of its radar), drops a chaff bundle (a
  radar missile) or a flare (an infrared one) every ``DISPENSE_S``, and in the last ``BREAK_S``
  seconds turns hard across it, dispensing as fast as the dispenser allows.

Steering is left to the fighter pilot (pilots/ai.py FighterAI): a defence or a crank gives it a
point to pursue in place of the enemy.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.named_controls import WEAPON_BUTTONS

GUN_RANGE_M = 1200.0
IR_RANGE_M = 9000.0
SHOOT_SHARE = 0.8
RESHOOT_S = 12.0
IR_RESHOOT_S = 4.0
LOCK_RETRY_S = 1.5
CRANK_DEG = 45.0
BREAK_S = 3.0
DISPENSE_S = 2.0
DRAG_M = 12000.0
BEAM_DROP_M = 1500.0
BUTTONS = WEAPON_BUTTONS


class MissileTactics:
    """Call each tick with its own position and velocity, the enemy's, the time and its cockpit's
    weapons view (world/missiles.py WeaponsView); returns (the weapon buttons as a dict of 0/1, a
    point to steer for or None)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.held: set = set()
        self.shot_t = -1e9
        self.lock_t = -1e9
        self.dispensed_t = -1e9
        self.mode = ""

    def _press(self, buttons: dict, name: str) -> None:
        """A press is a 0 -> 1 edge: a button held last tick is let go this one."""
        if name not in self.held:
            buttons[name] = 1.0

    def __call__(self, pos, vel, enemy_pos, enemy_vel, t: float, view):
        buttons = dict.fromkeys(BUTTONS, 0.0)
        rel = np.asarray(enemy_pos) - np.asarray(pos)
        rng = float(np.linalg.norm(rel))
        steer = None
        self.mode = ""
        if view.threats:
            p, v, tgo, kind = min(view.threats, key=lambda x: x[2])
            far = float(np.linalg.norm(np.asarray(pos) - p)) > DRAG_M
            self.mode = "break" if tgo < BREAK_S else "drag" if far else "beam"
            steer = self._drag(pos, p) if self.mode == "drag" else self._beam(pos, vel, p, near=self.mode == "break")
            # the dispensing program: a cartridge of the kind that fools this seeker every
            # DISPENSE_S, every press the dispenser allows in the break
            if t - self.dispensed_t >= (0.0 if self.mode == "break" else DISPENSE_S):
                self._press(buttons, "flare" if kind == "infrared" else "chaff")
                self.dispensed_t = t
        desired = self._weapon(view, rng)
        if view.selected_id != desired:
            self._press(buttons, "weapon_select")
        if view.radar_range_m > 0.0 and not view.lock and rng < view.radar_range_m and t - self.lock_t > LOCK_RETRY_S:
            self._press(buttons, "lock")
            self.lock_t = t
        if self._shoot(view, rng, t):
            self._press(buttons, "launch")
            self.shot_t = t
        if steer is None and view.own_on_datalink and rng > GUN_RANGE_M * 4:
            self.mode = "crank"
            steer = self._crank(pos, vel, rel)
        self.held = {k for k, v in buttons.items() if v > 0.5}
        return buttons, steer

    @staticmethod
    def _weapon(view, rng: float) -> str:
        carried = [(w, kind) for w, n, kind in view.loadout if n > 0]
        ir = [w for w, kind in carried if kind == "infrared"]
        radar = [w for w, kind in carried if kind != "infrared"]
        if rng < GUN_RANGE_M or not carried:
            return "gun"
        if ir and (rng < IR_RANGE_M or not radar):
            return ir[0]
        return radar[0] if radar else ir[0]

    def _shoot(self, view, rng: float, t: float) -> bool:
        kinds = {w: (n, kind) for w, n, kind in view.loadout}
        if view.selected_id not in kinds or view.zone is None or kinds[view.selected_id][0] <= 0:
            return False
        rmax, rne, rmin, _ = view.zone
        if rng < rmin or rmax <= 0.0:
            return False
        if kinds[view.selected_id][1] == "infrared":
            return view.tone and rng <= max(rne, 0.6 * rmax) and t - self.shot_t > IR_RESHOOT_S
        if view.lock != "locked":
            return False
        if view.own_in_flight and t - self.shot_t < RESHOOT_S:
            return False
        return rng <= max(SHOOT_SHARE * rmax, rne)
    @staticmethod
    def _beam(pos, vel, missile_pos, near: bool):
        """A point across the missile's line of sight (on the side the aircraft already turns to),
        lower: pursued, it puts the missile on the beam and the aircraft in the clutter."""
        u = np.asarray(pos, float) - np.asarray(missile_pos, float)
        u[2] = 0.0
        n = float(np.linalg.norm(u))
        u = u / n if n > 1.0 else np.array([1.0, 0.0, 0.0])
        perp = np.array([-u[1], u[0], 0.0])
        if float(perp @ np.asarray(vel)) < 0.0:
            perp = -perp
        far = 2000.0 if near else 8000.0
        return np.asarray(pos, float) + far * perp + np.array([0.0, 0.0, BEAM_DROP_M])

    @staticmethod
    def _drag(pos, missile_pos):
        """A point straight away from the missile, level: pursued, it runs from it."""
        away = np.asarray(pos, float) - np.asarray(missile_pos, float)
        away[2] = 0.0
        n = float(np.linalg.norm(away))
        return np.asarray(pos, float) + 10000.0 * (away / n if n > 1.0 else np.array([1.0, 0.0, 0.0]))

    @staticmethod
    def _crank(pos, vel, rel):
        """A point ``CRANK_DEG`` off the line of sight to the enemy, on the side the nose already is."""
        h = np.array([rel[0], rel[1], 0.0])
        n = float(np.linalg.norm(h))
        h = h / n if n > 1.0 else np.array([1.0, 0.0, 0.0])
        side = np.array([-h[1], h[0], 0.0])
        if float(side @ np.asarray(vel)) < 0.0:
            side = -side
        a = math.radians(CRANK_DEG)
        return np.asarray(pos, float) + 10000.0 * (math.cos(a) * h + math.sin(a) * side) + np.array([0.0, 0.0, rel[2]])
