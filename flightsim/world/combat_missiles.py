"""The missiles' part of the world's combat (issue 35): ``Combat`` (world/combat.py) owns one
``CombatMissiles`` where the scenario gives either side missiles or countermeasures. It builds each
side's armament from the scenario ([combat] for the player, [opponent] for the AI), hands the
missiles' world (world/missiles.py) both fighters as they are at each step with the buttons their
controls press, turns what the warheads did into the combat's score, debrief and kills, gives the
AI its weapon buttons and steering (pilots/missile_tactics.py) from its cockpit's view, and puts the
missiles, decoys, the player's weapons view and the events into the published frame."""
from __future__ import annotations

from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from ..runtime.handoff import read_only
from .armament import Side, armament, store_weapons
from .missiles import MissileWar

PLAYER, OPPONENT = 0, 1


class CombatMissiles:
    def __init__(self, combat, player_sim, loadouts: dict):
        self.combat = combat
        self.loadouts = loadouts
        self.player_spec = player_sim.compiled.spec
        self.player_stores = store_weapons(self.player_spec)
        self.tactics = None
        if OPPONENT in loadouts:
            from ..pilots.missile_tactics import MissileTactics
            self.tactics = MissileTactics()
        self.war = MissileWar({k: armament(*v) for k, v in loadouts.items()}, combat.rng, combat.sun_ned,
                              combat.terrain)

    @classmethod
    def for_scenario(cls, combat, player_sim, opponent: dict | None):
        """The missiles' part, or None where neither side carries missiles or countermeasures."""
        st = combat.settings
        mine = (st.get("missiles") or [], st.get("flares", 0), st.get("chaff", 0))
        theirs = ((opponent or {}).get("missiles") or [], (opponent or {}).get("flares", 0),
                  (opponent or {}).get("chaff", 0))
        if not any(mine) and not (opponent is not None and any(theirs)):
            return None
        loadouts = {PLAYER: mine}
        if opponent is not None:
            loadouts[OPPONENT] = theirs
        return cls(combat, player_sim, loadouts)

    def reset(self, rng) -> None:
        self.war.reset({k: armament(*v) for k, v in self.loadouts.items()}, rng)
        if self.tactics is not None:
            self.tactics.reset()

    def rearm(self, ident: int) -> None:
        """A fresh opponent (a respawn): its full load again; missiles still flying at the one before
        fly on against the new one."""
        if ident in self.loadouts:
            self.war.arms[ident] = armament(*self.loadouts[ident])
            if ident == OPPONENT and self.tactics is not None:
                self.tactics.reset()

    def sides(self, player) -> dict:
        """Both fighters as the missiles see them now (the opponent while it is not yet cleared)."""
        c = self.combat
        ab = float(AircraftView(c.player_state, c.player_diag).afterburner) if c.player_diag is not None else 0.0
        sides = {PLAYER: Side(PLAYER, "player", player.position_ned_m, player.velocity_ned_ms, player.body_to_ned(),
                              c.player.cg, c.player_model, c.player_state, ab, c.player_down is None,
                              self.player_spec.signature, self.player_spec.radar, self.player_stores)}
        remote = getattr(c, "remote_enemy", None)           # another player (world/net_combat.py)
        if c.opp is None and remote is not None:
            sides[OPPONENT] = remote
        if c.opp is not None and c.opp_visible:
            o = c.opp_sim
            spec = c.opponent_compiled.spec
            sides[OPPONENT] = Side(OPPONENT, "opponent", o.position_ned_m, o.velocity_ned_ms, o.body_to_ned(),
                                   c.opp.cg, o.model, o.state, float(AircraftView(o.state, o.diag).afterburner),
                                   bool(c.opp_alive), spec.signature, spec.radar, store_weapons(spec))
        return sides

    def step(self, player, dt: float) -> None:
        """The missiles' step, and what their warheads did: into the debrief, the flashes and the score."""
        c = self.combat
        sides = self.sides(player)
        controls = {PLAYER: c.player_ctrl}
        if OPPONENT in sides and c.opp is not None:
            controls[OPPONENT] = c.opp_sim.ctrl
        self.war.step(sides, controls, c.t_s, dt)
        for point, kind in self.war.detonations:                          # the flashes and smoke drawn
            c.recent_hits.append((point, kind, c.t_s))
        for ident, lines, weapon in self.war.bursts:
            self._killed(sides[ident], lines, weapon)
        for ident, p_body, weapon, lethal in self.war.remote_bursts:      # another player's World decides
            c.remote_missile_bursts.append((p_body - sides[ident].cg, weapon, lethal))

    def _killed(self, side: Side, lines: list, weapon: str) -> None:
        """Inside the lethal radius the warhead kills (the radius's meaning): the sections struck
        (warhead.burst), and the engines, fed by holed tanks, fail: the aircraft falls."""
        c = self.combat
        for line in lines:
            c.damage_log.append((c.t_s, side.who, line))
        c.damage_log.append((c.t_s, side.who, f"{weapon}: shot down"))
        view = AircraftView(side.state)
        for k in range(AircraftData(side.model).jets):
            view.set_jet_failed(k, True)
        if side.ident == OPPONENT:
            c.hits_scored += 1
            c.recent_hits.append((tuple(side.pos), "aircraft", c.t_s))
            if c.opp_alive:
                c._opponent_lost(f"BANDIT DOWN ({weapon})")
        else:
            c.player.hits_taken += 1
            c.recent_hits.append((None, "player", c.t_s))
            if c.player_down is None:
                c.player_down = (c.t_s, f"SHOT DOWN ({weapon})")

    def ai_buttons(self, me, player):
        """The AI's weapon buttons and, defending or supporting its missile, a point to steer for
        (pilots/missile_tactics.py), from what its cockpit shows."""
        view = self.war.view(OPPONENT, self.sides(player)) if self.tactics is not None else None
        if view is None:
            return {}, None
        return self.tactics(me.position_ned_m, me.velocity_ned_ms, player.position_ned_m, player.velocity_ned_ms,
                            self.combat.t_s, view)

    def frame_fields(self, player) -> dict:
        """The CombatFrame's missile fields."""
        w = self.war
        return dict(missiles=read_only(w.missiles_array()), missile_names=w.missile_names(),
                    decoys=read_only(w.decoys_array(self.combat.t_s)), weapons=w.view(PLAYER, self.sides(player)),
                    events=tuple(w.events), event_count=w.event_count)
