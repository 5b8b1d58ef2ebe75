"""Guns across the network (multiplayer over DIS, issue 36): the hit rule and its PDUs.

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

Why target-side: the target knows where it really is (the shooter sees a dead-reckoned picture up
to DIS's 1 m threshold and the network's delay behind), and the damage needs its own model; the
cost is that a hit is confirmed to the shooter a network delay late. Runs in the world's hook
(physics thread), after the Combat's tick and the session's.
"""
from __future__ import annotations

import math

import numpy as np

from ..net.dis_warfare import RESULT_ENTITY_IMPACT, Collision, Detonation, Fire
from ..physics.named import AircraftView
from ..physics.named_model import AircraftData
from .combat import REMOTE_BASE

TRACER_EVERY = 5


class NetCombat:
    def __init__(self, combat, session, player_model):
        self.combat = combat
        self.net = session
        self.data = AircraftData(player_model)
        self.guns = self.data.guns
        self.fired = None                      # each gun's belt counter at the last tick
        self.owners: dict = {}                 # remote entity id -> bullet owner number
        self.models: dict = {}                 # our aircraft id -> its compiled model (the remote shooters' guns)
        self.fires_sent = 0
        self.rounds_in = 0
        self.hits_reported = 0
        self.hits_confirmed = 0
        self.collisions = 0

    def tick(self, state, t_s: float) -> None:
        self._fire_out(state)
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
                    self.net.send_detonation(key, pos, np.asarray(point) - cg)
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
            _, kind = self.data.gun_round(g)
            self.net.send_fire(g, muzzle, vel, rounds, int(round(self.guns.rate_rps[g] * 60.0)),
                               self.data.round_name(kind) == "he")
            self.fires_sent += 1
        self.fired = now

    # ------------------------------------------------------------------ theirs in
    def _shooter_model(self, key):
        kind = self.net.remote_kind(key)
        if kind is None:
            return None
        if kind not in self.models:
            from ..aircraft_data.compile import compile_aircraft
            self.models[kind] = compile_aircraft(kind).model
        return self.models[kind]

    def _fire_in(self, f: Fire) -> None:
        model = self._shooter_model(f.shooter)
        if model is None:                      # a shooter not yet heard from: its rounds are not placed
            return
        guns = AircraftData(model).guns
        if len(guns) == 0:
            return
        owner = self.owners.setdefault(tuple(f.shooter), REMOTE_BASE + len(self.owners))
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
        if tuple(d.shooter) != tuple(self.net.key) or d.result != RESULT_ENTITY_IMPACT:
            return                             # another player's hit on a third: theirs to score
        c = self.combat
        c.hits_scored += d.rounds
        self.hits_confirmed += d.rounds
        c.recent_hits.append((tuple(d.position_ned_m), "aircraft", t_s))
