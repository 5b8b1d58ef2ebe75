"""The player's seat flown by the game's own fighter pilot (``--pilot auto`` in an air start with an
opponent where missiles are in play: pilots/autopilot.py): the AI's skills (pilots/ai.py FighterAI,
pilots/missile_tactics.py) applied to the player's aircraft through the mailbox, from what the
player's cockpit shows and nothing more: the player's snapshot (its instruments), the combat's
published frame (the bandit seen through the canopy, the weapons view: lock, seeker tone, launch
zone, missile warning). With it a headless fight has two pilots, each locking, shooting and
defending (issue 35); online with no AI (issue 36) its bandit is another player, the missiles' enemy
the world's net combat chose."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ..runtime.handoff import ControlInputs
from .ai import air_data_from_snapshot
from .missile_tactics import MissileTactics


class CombatPilot:
    """Call with the player's snapshot; returns its ControlInputs. ``combat``: the world's Combat,
    read only through its published ``frame``."""

    name = "CombatPilot"

    def __init__(self, combat):
        from ..world.combat import fighter_ai
        self.combat = combat
        self.ai = fighter_ai(combat.player_compiled, combat.player_spawn_ctrl, combat.opp_cfg)
        self.tactics = MissileTactics()

    def __call__(self, snap, dt_s=None) -> ControlInputs:
        frame = self.combat.frame
        me = air_data_from_snapshot(snap)
        opp = None if frame is None else frame.opponent
        remote = getattr(self.combat, "remote_enemy", None)     # online, no AI: another player (world/net_combat.py)
        if opp is None and remote is not None:
            opp = SimpleNamespace(position_ned_m=remote.pos, velocity_ned_ms=remote.vel, visible=True, alive=remote.alive)
        if opp is None or not opp.visible or not opp.alive:
            fwd = me.velocity_ned_ms * np.array([1.0, 1.0, 0.0])
            n = float(np.linalg.norm(fwd))
            ahead = me.position_ned_m + 10000.0 * (fwd / n if n > 1.0 else np.array([1.0, 0.0, 0.0]))
            return self.ai(me, ahead, np.zeros(3)).replace(fire=0.0)
        pos = np.asarray(opp.position_ned_m, dtype=float)
        vel = np.asarray(opp.velocity_ned_ms, dtype=float)
        buttons, steer = {}, None
        if frame.weapons is not None:
            buttons, steer = self.tactics(me.position_ned_m, me.velocity_ned_ms, pos, vel, snap.time_s, frame.weapons)
        if steer is None:
            c = self.ai(me, pos, vel)
        else:
            c = self.ai(me, steer, np.zeros(3)).replace(fire=0.0)
        return c.replace(**buttons)
