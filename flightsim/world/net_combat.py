"""Guns and missiles across the network (multiplayer over DIS, issue 36): the hit rules and their PDUs.

**The rule: the target decides.** Each player's World flies the other players' rounds against its
own aircraft's true position and its own damage model, and it alone says what struck it:
* a gun of ours that fired this tick sends one Fire PDU (the muzzle, the rounds' velocity, how many,
  the gun's number in our aircraft as the fire mission index);
* a Fire PDU from another player puts its rounds into our Combat's bullet pool, owned by that
  player, with its aircraft's gun (the aircraft of ours nearest its entity type: the calibre, the
  round, the drag): they fly, are drawn as tracers, and strike us (or not) as the AI's rounds do;
* a round of theirs that struck us is damage by our model (world/combat.py) and one Detonation PDU
  to everyone (result "entity impact", the point in our body axes), so the shooter scores the
  hit and flashes it where it struck, and every player sees the same outcome;
* our rounds are drawn against the others' aircraft but decide nothing: their Worlds decide.
A destroyed aircraft says so in its Entity State's appearance (flightsim/net/session.py), and
leaves the fight for everyone.

**Missiles: the shooter decides the burst, the target its damage.** Where there is no AI opponent,
the nearest other player (of the other side first) is the missiles' enemy (world/combat_missiles.py):
our radar and seekers lock it, our missiles fly at it in our World, and each launch goes out as a
Fire PDU naming it (the munition the missile's type: entity_types.MISSILES). A burst within the
warhead's lethal radius is one Detonation PDU ("entity proximate detonation", the point in its body
axes); the target's World applies that burst with its own damage model (weapons/warhead.py) and is
shot down, as our missiles shoot down the AI, and its appearance says destroyed. A Fire PDU of a
missile at us is a "missile launch" event (the target's warning; its flares and chaff do not act
on missiles flown in another World).

Why target-side: the target knows where it really is (the shooter sees a dead-reckoned picture up
to DIS's 1 m threshold and the network's delay behind), and the damage needs its own model; the
cost is that a hit is confirmed to the shooter a network delay late. Runs in the world's hook
(physics thread), after the Combat's tick and the session's.
"""
from __future__ import annotations

import math

import numpy as np

from ..net.dis_warfare import RESULT_ENTITY_IMPACT, RESULT_PROXIMATE, Collision, Detonation, Fire
from ..net.entity_types import GUN_ROUNDS, MISSILES, gun_munition, missile_of
from ..net.munitions import MunitionCast
from ..physics import missile as M
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from .armament import Side
from .combat import REMOTE_BASE

ENEMY_IDENT = 1                # the missiles' enemy (world/combat_missiles.OPPONENT)

TRACER_EVERY = 5


class NetCombat:
    def __init__(self, combat, session, player_model):
        self.combat = combat
        combat.online = True                   # (the player's autopilot fights the other players: pilots/autopilot.py)
        self.net = session
        self.data = AircraftData(player_model)
        self.guns = self.data.guns
        self.fired = None                      # each gun's belt counter at the last tick
        self.owners: dict = {}                 # remote entity id -> bullet owner number
        self.rounds_type: dict = {}            # remote entity id -> the munition type of its last rounds in
        self.fires_sent = 0
        self.rounds_in = 0
        self.types: dict = {}                  # our aircraft id -> its Compiled (the remotes' shapes and sensors)
        self.enemy_key = None                  # the remote the missiles see as their enemy
        self._launched = 0                     # our missiles launched (their serials) already sent
        self.missiles_in = 0                   # Fire PDUs of missiles at us
        self.missile_bursts_out = 0
        self.cast = MunitionCast(session)      # our missiles in flight, for the others to see
        self.hits_reported = 0
        self.hits_confirmed = 0
        self.collisions = 0

    def tick(self, state, t_s: float) -> None:
        self._fire_out(state)
        self._missiles_out(AircraftView(state).time_s)
        # the missiles' enemy for the next tick's combat (no AI opponent: another player)
        self.combat.remote_enemy = self.enemy(AircraftView(state).position_ned_m) if self.combat.opp is None else None
        for pdu in self.net.take_warfare():
            if isinstance(pdu, Fire):
                self._fire_in(pdu)
            elif isinstance(pdu, Detonation):
                self._detonation_in(pdu, t_s)
            elif isinstance(pdu, Collision):
                self.collisions += 1
        c = self.combat
        if c.remote_hits:
            pos = AircraftView(state).position_ned_m
            cg = self.data.cg_m
            for owner, point in c.remote_hits:
                key = next((k for k, o in self.owners.items() if o == owner), None)
                if key is not None:
                    self.net.send_detonation(key, pos, np.asarray(point) - cg,
                                             munition=self.rounds_type.get(key, GUN_ROUNDS))
                    self.hits_reported += 1
            c.remote_hits.clear()

    # ------------------------------------------------------------------ ours out
    def _fire_out(self, state) -> None:
        n = len(self.guns)
        if n == 0:
            return
        a = AircraftView(state)
        now = np.array(a.rounds_fired[:n], dtype=float)
        if self.fired is None or np.any(now < self.fired - 1e-9):
            self.fired = now                   # the first tick, or rearmed
            return
        R = a.body_to_ned()
        cg = self.data.cg_m
        v_body, w = a.velocity_body_ms, a.body_rates_rads
        for g in range(n):
            rounds = int(math.floor(now[g])) - int(math.floor(self.fired[g]))
            if rounds <= 0:
                continue
            r = self.guns.muzzle_m[g] - cg
            muzzle = a.position_ned_m + R @ r
            vel = R @ (v_body + np.cross(w, r) + self.guns.muzzle_velocity_ms[g] * self.guns.boresight[g])
            calibre, kind = self.data.gun_round(g)
            self.net.send_fire(g, muzzle, vel, rounds, int(round(self.guns.rate_rps[g] * 60.0)),
                               self.data.round_name(kind) == "he",
                               munition=gun_munition(self.net.aircraft_id, calibre))
            self.fires_sent += 1
        self.fired = now

    # ------------------------------------------------------------------ theirs in
    def _shooter_model(self, key):
        kind = self.net.remote_kind(key)
        return None if kind is None else self._compiled(kind).model

    def _fire_in(self, f: Fire) -> None:
        if missile_of(f.munition) is not None:         # a missile: no rounds to fly; at us, a warning
            if tuple(f.target) == tuple(self.net.key):
                self.missiles_in += 1
                self.net.event("missile launch", f.shooter)
            return
        model = self._shooter_model(f.shooter)
        if model is None:                      # a shooter not yet heard from: its rounds are not placed
            return
        guns = AircraftData(model).guns
        if len(guns) == 0:
            return
        owner = self.owners.setdefault(tuple(f.shooter), REMOTE_BASE + len(self.owners))
        self.rounds_type[tuple(f.shooter)] = tuple(int(x) for x in f.munition)
        self.combat.shooter_models[owner] = model
        g = min(max(int(f.gun), 0), len(guns) - 1)
        calibre, kind = AircraftData(model).gun_round(g)
        pool = self.combat.pool
        spacing_s = 0.02 / max(f.rounds, 1)    # the tick's rounds strung along their path
        for k in range(f.rounds):
            if not np.any(~pool.alive):
                break
            age = k * spacing_s
            pool.add(f.position_ned_m + f.velocity_ned_ms * age, f.velocity_ned_ms, drag_k=float(guns.bullet_drag_k[g]),
                     hit_area_m2=float(guns.hit_area_m2[g]), owner=owner, age_s=age,
                     tracer=(self.rounds_in + k) % TRACER_EVERY == 0, gun=g, calibre_mm=calibre,
                     he=AircraftData.round_name(kind) == "he")
        self.rounds_in += f.rounds

    def _detonation_in(self, d: Detonation, t_s: float) -> None:
        weapon = missile_of(d.munition)
        if weapon is not None and tuple(d.target) == tuple(self.net.key):
            self._missile_burst_on_us(d, weapon, t_s)
            return
        if tuple(d.shooter) != tuple(self.net.key) or d.result != RESULT_ENTITY_IMPACT:
            return                             # another player's hit on a third: theirs to score
        c = self.combat
        c.hits_scored += d.rounds
        self.hits_confirmed += d.rounds
        c.recent_hits.append((tuple(d.position_ned_m), "aircraft", t_s))

    # ------------------------------------------------------------------ missiles
    def _compiled(self, kind: str):
        if kind not in self.types:
            from ..aircraft_data.compile import compile_aircraft
            self.types[kind] = compile_aircraft(kind)
        return self.types[kind]

    def enemy(self, own_pos) -> Side | None:
        """The other player our missiles see (the nearest of the other side, else the nearest), as
        the missiles' Side: its pose from the session's frame, its shape and sensors from our
        aircraft of its type; no state here (its own World holds it)."""
        f = self.net.frame
        live = [r for r in f.remotes if not r.destroyed]
        if not live:
            self.enemy_key = None
            return None
        others = [r for r in live if r.force != self.net.config.force] or live
        r = min(others, key=lambda x: float(np.linalg.norm(x.position_ned_m - own_pos)))
        comp = self._compiled(r.aircraft)
        self.enemy_key = r.key
        return Side(ENEMY_IDENT, "opponent", np.asarray(r.position_ned_m, float), np.asarray(r.velocity_ned_ms, float),
                    np.asarray(r.R, float), np.asarray(comp.cg_m, float), comp.model, None,
                    1.0 if r.afterburner else 0.0, True, comp.spec.signature, comp.spec.radar)

    def _missiles_out(self, sim_t: float) -> None:
        """Our missiles in flight (munition Entity States), our launches at the other player (Fire
        PDUs) and our bursts on it (Detonation PDUs)."""
        c = self.combat
        war = c.missiles.war if c.missiles is not None else None
        if war is not None:
            ours = [(f.serial, f.weapon.id, f.ms[M.MS_POS:M.MS_POS + 3], f.ms[M.MS_VEL:M.MS_VEL + 3],
                     f.ms[M.MS_TIME] < f.weapon.burn_time_s) for f in war.flights if f.shooter == 0]
            self.cast.update(ours, sim_t)
        if war is None or self.enemy_key is None:
            c.remote_missile_bursts.clear()
            return
        for f in war.flights:
            if f.shooter == 0 and f.serial > self._launched:
                self._launched = f.serial
                if f.weapon.id in MISSILES:
                    self.net.send_fire(f.serial & 0xFFFF, f.ms[M.MS_POS:M.MS_POS + 3], f.ms[M.MS_VEL:M.MS_VEL + 3], 1,
                                       0, True, MISSILES[f.weapon.id], target=self.enemy_key)
        r = next((x for x in self.net.frame.remotes if x.key == self.enemy_key), None)
        for point, weapon, _lethal in c.remote_missile_bursts:
            if r is not None and weapon in MISSILES:
                self.net.send_detonation(self.net.key, r.position_ned_m, point, target=self.enemy_key,
                                         munition=MISSILES[weapon], result=RESULT_PROXIMATE)
                self.missile_bursts_out += 1
        c.remote_missile_bursts.clear()

    def _missile_burst_on_us(self, d: Detonation, weapon: str, t_s: float) -> None:
        """Another player's missile burst near us: its warhead applied by our own damage model, and
        we are shot down (as the AI's missiles shoot the player down, world/combat_missiles.py)."""
        from ..weapons.data import load_missile
        from ..weapons.warhead import burst
        c = self.combat
        if c.player_down is not None or c.player_state is None:
            return
        m = load_missile(weapon)
        lines = burst(c.player_model, c.player_state, np.asarray(d.point_body_m) + self.data.cg_m,
                      float(m.fuze["lethal_radius_m"]), c.rng)
        who = self.net.remote_callsign(d.shooter) or "another player"
        for line in lines:
            c.damage_log.append((t_s, "player", line))
        view = AircraftView(c.player_state)
        for k in range(self.data.jets):
            view.set_jet_failed(k, True)
        c.player.hits_taken += 1
        c.recent_hits.append((None, "player", t_s))
        c.player_down = (t_s, f"SHOT DOWN ({m.missile['name']}, {who})")
