"""Air combat in the world: an AI opponent, the bullets, the targets, the hits.

``Combat`` lives in the physics thread: the World's per-tick hook calls ``tick`` once
per 20 ms tick before the player's step (flightsim.world.assembly.World._world_tick). It owns

* the opponent: its own ``Sim`` (the same compiled aircraft data, its own state and
  model array: its damage is its own) flown by ``flightsim.pilots.ai.FighterAI`` through
  ControlInputs, stepped once per tick with the same kernel as the player;
* the bullet pool (flightsim.physics.ballistics): rounds leave each gun as its belt count
  (the kernel's S_GUN_FIRED) passes a whole round, at the muzzle, with the aircraft's
  velocity (and its rotation at the muzzle) plus the muzzle velocity along the bore;
* the targets: tethered balloons (spheres) the player can shoot down;
* the score: hits each way, targets and opponents destroyed;
* systems damage (issue 18): a round that struck a component (the kernel reports the hit
  box) is turned into its effect by physics.damage.apply_hit, with the chance outcomes (a
  fire, a blade struck) from a seeded generator; a tank that exploded takes its wing or the
  aircraft; the AI reacts to what it feels (``damage_reaction``: it breaks off with a sick
  engine, bails out of a fire); ``damage_log`` keeps what was hit for the debrief;
* missiles, locks and countermeasures (issue 35) where the scenario gives either side missiles,
  flares or chaff: ``missiles``, a CombatMissiles (world/combat_missiles.py), stepped after the
  bullets and before the opponent.

Order within a tick k (both aircraft are at time k when the hook runs): the bullets fly
k-1 -> k and are tested against both aircraft's poses at k-1 and k and the targets; the
rounds fired during the last step are spawned; the AI reads its instruments and the
player's position and flies the opponent k -> k+1. The renderer never sees these
objects: after every tick ``frame`` holds an immutable ``CombatFrame`` (the opponent's
pose, the bullets, recent hits, the targets, ammunition and score) timed like the
player's snapshot published right after the tick, and ``frames`` the (previous, latest)
pair to interpolate between.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..physics.bullet_pool import AIRCRAFT, BulletPool, hit_radius
from ..physics.damage import smoke_points
from ..physics.named import AircraftView as _Readouts
from ..physics.named_env import Environment
from ..physics.named_model import AircraftData
from ..runtime.handoff import ControlInputs, read_only
from .armament import WeaponsView

DT = 0.02
PLAYER, OPPONENT = 0, 1
REMOTE_BASE = 2                # bullets' owners from here on: other players' (world/net_combat.py)
POOL = 1536
MAX_HITS = 256
AI_LOOK_S = 8.0            # how far ahead the AI looks for a hill, seconds of flight
HIT_SHOW_S = 0.6           # how long a hit flash stays in the frame
# a jet engine a round can strike: a cylinder from its nozzle forward, the F100's length and diameter
# (4.85 m, 46.5 in: the NASM's F100-PW-100, docs/research/f15c.md s4); the chance that one round fails
# it grows with the calibre, half again for an explosive shell (assumed: no data found)
JET_BAY_LENGTH_M = 4.85
JET_BAY_RADIUS_M = 0.59
JET_FAIL_PER_MM = 1.0 / 60.0


@dataclass(frozen=True)


class AircraftView:
    """Another aircraft as the renderer needs it."""
    position_ned_m: np.ndarray
    quat_wxyz: np.ndarray
    deflections_rad: np.ndarray
    airbrake: float
    gear_up: float
    alive: bool                 # not shot down
    visible: bool               # not yet gone (crashed and cleared)
    damage: np.ndarray          # per section, 0..1
    firing: bool = False
    slat_positions: np.ndarray = field(default_factory=lambda: read_only(np.zeros(0)))   # per section, 0 closed .. 1 open
    stores_on: np.ndarray = field(default_factory=lambda: read_only(np.zeros(0)))        # per store, 1 on
    engine_rpm: float = 0.0     # its propeller's engine (the renderer turns the blades)
    afterburner: float = 0.0    # a jet's, 0 off .. 1 full (the renderer's flame)
    velocity_ned_ms: np.ndarray = field(default_factory=lambda: read_only(np.zeros(3)))   # how it moves (a pilot sees it)


@dataclass(frozen=True)
class CombatFrame:
    tick: int                                   # matches the player's Snapshot.tick
    opponent: AircraftView | None
    bullets: np.ndarray                         # (n, 7): position NED, velocity NED, tracer 0/1
    hits: tuple = ()                            # ((north, east, down), kind, age_s): kind 'aircraft'/'target'/'player',
    #                                             or a missile's warhead 'burst' / 'ground' (into it)
    targets: np.ndarray = field(default_factory=lambda: read_only(np.zeros((0, 5))))   # north, east, down, radius, alive
    player_ammo: int = 0
    opponent_ammo: int = 0
    hits_scored: int = 0                        # the player's hits on the opponent
    hits_taken: int = 0                         # the opponent's hits on the player
    targets_destroyed: int = 0
    opponents_destroyed: int = 0
    range_m: float = 0.0
    status: str = ""
    damage_log: tuple = ()                      # (time s, 'player'/'opponent', what happened): the debrief's list
    opponent_smoke: tuple = ()                  # the opponent's trails: (kind, body point, strength) (render/damage_fx.py)
    # missiles (issue 35, world/missiles.py)
    # position, velocity NED, motor burning, shooter, serial; and each one's name
    missiles: np.ndarray = field(default_factory=lambda: read_only(np.zeros((0, 9))))
    missile_names: tuple = ()
    # position NED, 0 flare / 1 chaff, age, serial
    decoys: np.ndarray = field(default_factory=lambda: read_only(np.zeros((0, 6))))
    weapons: WeaponsView | None = None          # the player's weapons, lock and warning; None: no missiles in play
    events: tuple = ()                          # (t_s, 'player'/'opponent', event, detail), the newest MAX_EVENTS
    event_count: int = 0                        # events since the start (the telemetry reads the new ones)
    player_down: str = ""                       # why the player is out of the fight (a missile), "" while in it


@dataclass
class _Fighter:
    """One armed aircraft the combat tracks: its arrays and its bookkeeping."""
    ident: int
    model: np.ndarray
    fired: np.ndarray                           # belt counters at the last spawn
    pos: np.ndarray = field(default_factory=lambda: np.zeros(3))     # pose at the last tick (hit tests)
    R: np.ndarray = field(default_factory=lambda: np.eye(3))
    cg: np.ndarray = field(default_factory=lambda: np.zeros(3))
    radius: float = 10.0
    hits_taken: int = 0


def fighter_ai(comp, trimmed_ctrl, opponent: dict | None = None):
    """The game's AI pilot for a compiled fighter, starting from its trimmed controls (the
    elevator folded into the trim tab, gear up), knowing its stall, guns and bullets.
    ``opponent``: a scenario's opponent table (max_g, gun_range_m, floor_m, fires)."""
    from ..pilots.ai import FighterAI
    opponent = opponent or {}
    base = ControlInputs.from_array(trimmed_ctrl)
    base = base.replace(pitch=0.0, pitch_trim=max(-1.0, min(1.0, base.pitch + base.pitch_trim)), gear_up=1.0)
    data = AircraftData(comp.model, comp.tables)
    # what its pilot knows: the buffet angle (the first wing section's stall, lifting line)
    # and a 1 g stall speed a little above the real one (the fuselage's lift left out: the
    # safe side for an AI's margin)
    stall = data.wing_stall_alpha_rad() if data.wing_sections else math.radians(16.0)
    guns = data.guns
    v_b = float(guns.muzzle_velocity_ms[0]) * 0.9 if len(guns) else 800.0
    ai = FighterAI(base, max_g=opponent.get("max_g", 6.0), gun_range_m=opponent.get("gun_range_m", 600.0),
                   floor_m=opponent.get("floor_m", 300.0), bullet_speed_ms=v_b, stall_alpha_rad=stall,
                   stall_speed_ms=data.stall_speed_ms(), fire=opponent.get("fires", True),
                   g_command=data.g_limits if data.fly_by_wire else None)
    if len(guns):
        bs = guns.boresight.mean(axis=0)
        ai.boresight = bs / np.linalg.norm(bs)
        ai.muzzle_velocity_ms = float(guns.muzzle_velocity_ms.mean())
    return ai


class Combat:
    """See the module docstring. ``opponent``: the scenario's [opponent] table (or None);
    ``targets``: its [[target]] tables; ``settings``: its [combat] table; ``sun_ned``: the unit
    vector toward the sun at the scenario's time of day."""

    def __init__(self, player_sim, terrain, opponent: dict | None, targets: list, settings: dict | None = None,
                 sun_ned=None):
        from ..sim import Sim
        from .scenario import place
        self.terrain = terrain
        self.heights = np.ascontiguousarray(player_sim.terrain, dtype=np.float64)
        self.settings = {"bullet_life_s": 3.0, "tracer_every": 5, **(settings or {})}
        self.player_model = player_sim.model
        self.player_compiled = player_sim.compiled          # (the player's autopilot: pilots/combat_pilot.py)
        self.player_spawn_ctrl = player_sim.ctrl.copy()
        self.player_data = AircraftData(player_sim.model)
        self.player = _Fighter(PLAYER, player_sim.model, np.zeros_like(player_sim.rounds_fired))
        self.player.cg = self.player_data.cg_m
        self.player.radius = hit_radius(player_sim.model, self.player.cg)
        self.pool = BulletPool(POOL, MAX_HITS)
        self.recent_hits: list = []          # (point NED, kind, time_s)
        # other players (world/net_combat.py): bullet owner -> their aircraft's model; their rounds' hits on us
        # (owner, body point); with no AI, one as the missiles' enemy (a Side) and our bursts on it (point, weapon, m)
        self.shooter_models, self.remote_hits, self.remote_enemy, self.remote_missile_bursts = {}, [], None, []
        self.t_s = 0.0
        self.tick_count = 0
        self.hits_scored = 0
        self.targets_destroyed = 0
        self.opponents_destroyed = 0
        self._reset_requested = False
        # --- the opponent
        self.opp_cfg = opponent
        self.opp = None
        self.opponent_compiled = None            # static data, for the renderer's mesh
        if opponent is not None:
            comp = player_sim.compiled
            if opponent.get("aircraft") and opponent["aircraft"] != comp.spec.id:
                from ..aircraft_data.compile import compile_aircraft
                comp = compile_aircraft(opponent["aircraft"])
            else:
                comp = replace(comp, model=comp.model.copy())
            from ..aircraft_data.damage import set_stores_and_missiles
            set_stores_and_missiles(comp.model, comp.spec, opponent.get("stores") or [], opponent.get("missiles") or [],
                                    None, "opponent.stores", "opponent.missiles")
            self.opp_sim = Sim(comp, env=player_sim.env, terrain=player_sim.terrain)
            self.opponent_compiled = comp
            n, e, alt, hdg = place(terrain, opponent)
            speed = (opponent.get("speed_kmh") or 450.0) / 3.6
            self.opp_sim.spawn_trimmed_level(speed, alt, hdg, n, e)
            self.opp_spawn = (self.opp_sim.state.copy(), self.opp_sim.ctrl.copy())
            self.ai = fighter_ai(comp, self.opp_sim.ctrl, opponent)
            m = self.opp_sim.model
            self.opp = _Fighter(OPPONENT, m, np.zeros_like(self.opp_sim.rounds_fired))
            self.opp.cg = AircraftData(m).cg_m
            self.opp.radius = hit_radius(m, self.opp.cg)
            self.opp.pos = self.opp_sim.position_ned_m
            self.opp.R = self.opp_sim.body_to_ned()
            self.opp_alive = True             # not shot down
            self.opp_visible = True           # not crashed and cleared
            self.opp_down_t = None
            self.opp_fate = ""
            self.hits_to_kill = int(opponent.get("hits_to_kill", 40))
        # --- targets: spheres (north, east, down, radius, alive) and their hit counts
        rows = []
        self.target_hits_to_kill = []
        for t in targets or []:
            n, e, alt, _ = place(terrain, t)
            rows.append((n, e, -alt, t.get("radius_m", 5.0), 1.0))
            self.target_hits_to_kill.append(int(t.get("hits_to_kill", 8)))
        self.spheres = np.array(rows, dtype=np.float64).reshape(-1, 5)
        self.sphere_hits = np.zeros(len(rows), dtype=int)
        self.frames: tuple[CombatFrame | None, CombatFrame | None] = (None, None)
        # systems damage: the chance outcomes of hits (fires, blade strikes) from a seeded
        # generator, so a scenario plays the same way twice; what was hit, for the debrief
        self.rng = np.random.default_rng(int(self.settings.get("seed", 1)))
        self.damage_log: list = []
        self.player_state = None
        self.player_ctrl = None
        self.player_diag = None
        self.player_down = None           # (time, why): a missile killed the player (until a reset)
        self.sun_ned = sun_ned            # toward the sun (an infrared seeker is blinded by it), or None
        from .combat_missiles import CombatMissiles
        self.missiles = CombatMissiles.for_scenario(self, player_sim, opponent)    # None: no missiles in play
        # the bullet kernels compiled (or loaded) now, not in the physics thread at the first shot
        BulletPool.warm_up(player_sim.env, self.heights, self.player_model, self.player.cg)

    # ------------------------------------------------------------------ control
    def request_reset(self):
        """From any thread: the next tick starts the combat again (the player's own state
        is reset by the physics thread's reset command)."""
        self._reset_requested = True

    def _reset(self, player_state):
        self.pool.clear()
        self.damage_log.clear()
        self.rng = np.random.default_rng(int(self.settings.get("seed", 1)))
        if self.missiles is not None:
            self.missiles.reset(self.rng)
        self.recent_hits.clear()
        self.hits_scored = 0
        self.targets_destroyed = 0
        self.opponents_destroyed = 0
        self._clear_damage(self.player_model)
        self.player.hits_taken = 0
        self.player_down = None
        self.player.fired[:] = _Readouts(player_state).rounds_fired
        if self.spheres.shape[0]:
            self.spheres[:, 4] = 1.0
            self.sphere_hits[:] = 0
        if self.opp is not None:
            self._respawn_opponent(self.opp_spawn[0])
        self.frames = (None, None)

    @staticmethod
    def _clear_damage(model):
        from ..physics.ballistics import clear_damage
        clear_damage(model)

    def _respawn_opponent(self, state):
        if self.missiles is not None:
            self.missiles.rearm(OPPONENT)
        self.opp_sim.state[:] = state
        self.opp_sim.ctrl[:] = self.opp_spawn[1]
        self.opp_sim.diag[:] = 0.0
        self._clear_damage(self.opp_sim.model)
        self.opp.fired[:] = self.opp_sim.rounds_fired
        self.opp.hits_taken = 0
        self.opp.pos = self.opp_sim.position_ned_m
        self.opp.R = self.opp_sim.body_to_ned()
        self.opp_alive = True
        self.opp_visible = True
        self.opp_down_t = None
        self.opp_fate = ""
        self.ai.reset()

    def _respawn_near(self, player_state):
        """A fresh opponent 2.5 km ahead-left of the player, at his height, heading across."""
        player = _Readouts(player_state)
        fwd = player.body_to_ned()[:, 0].copy()
        fwd[2] = 0.0
        fwd /= max(np.linalg.norm(fwd), 1e-6)
        left = np.array([fwd[1], -fwd[0], 0.0])
        p = player.position_ned_m + 2000.0 * fwd + 1500.0 * left
        ground = self.terrain.height_at(p[0], p[1])
        alt = max(player.altitude_m, ground + 600.0)
        hdg = math.atan2(-left[1], -left[0])           # crossing toward the player's track
        # the trimmed start state turned onto the new heading and moved (no trim in the tick)
        st = _Readouts(self.opp_spawn[0].copy())
        roll, pitch, _ = st.euler_rad
        st.set_attitude(roll, pitch, hdg)
        st.set_position_ned(p[0], p[1], -alt)
        st.tick = 0
        self._respawn_opponent(st.state)

    # ------------------------------------------------------------------ the tick
    def tick(self, player_state, env, t_s: float, player_ctrl=None, player_diag=None):
        """One step (module docstring); ``player_ctrl`` and ``player_diag``: the player's control
        array and last diagnostics (its weapon buttons, its afterburner) where missiles are in play."""
        self.player_ctrl, self.player_diag = player_ctrl, player_diag
        if self._reset_requested:
            self._reset_requested = False
            self._reset(player_state)
        dt = Environment(env).dt_s
        self.t_s = t_s
        self.player_state = player_state
        pl = self.player
        player = _Readouts(player_state)
        p_pos, p_R = player.position_ned_m, player.body_to_ned()
        fired = player.rounds_fired
        if self.tick_count == 0 or player.tick < 1:
            pl.pos, pl.R = p_pos, p_R          # first tick / after a reset: no motion to sweep
            pl.fired[:] = fired
        elif np.any(fired < pl.fired - 1e-9):
            pl.fired[:] = fired                # reloaded (reset)
        # --- bullets k-1 -> k, hits on both aircraft and the targets
        if self.pool.any_alive():
            self.pool.fly(dt, env, self.heights, self.settings["bullet_life_s"])
            self.pool.collide_aircraft(self.player_model, PLAYER, pl.pos, pl.R, p_pos, p_R, pl.cg, pl.radius,
                                       player_state)
            if self.opp is not None and self.opp_visible:
                self.pool.collide_aircraft(self.opp_sim.model, OPPONENT, self.opp.pos, self.opp.R,
                                           self.opp_sim.position_ned_m, self.opp_sim.body_to_ned(),
                                           self.opp.cg, self.opp.radius, self.opp_sim.state)
            if self.spheres.shape[0]:
                self.pool.collide_spheres(self.spheres)
            self._score(self.pool.hits())
        else:
            self._score([])
        self._explosions(self.player_model, player_state, "player")
        # --- the rounds fired during the last step
        free = self.pool.free_rows()
        self.pool.spawn_fired(free, pl.model, player_state, pl.fired, pl.ident, int(self.settings["tracer_every"]), dt)
        pl.pos, pl.R = p_pos, p_R
        # --- missiles, locks and countermeasures k -> k+1 (world/missiles.py)
        if self.missiles is not None:
            self.missiles.step(player, dt)
        # --- the opponent flies k -> k+1
        if self.opp is not None:
            self._opponent_step(player, free, dt, env)
        self.tick_count += 1
        self._publish(player)

    def _struck(self, h):
        """The aircraft a round struck (model, state, 'player' or 'opponent') and the round (calibre mm,
        kind) from its shooter's gun."""
        shooter = self.player_model if h.owner == PLAYER else self.shooter_models.get(h.owner) \
            if h.owner >= REMOTE_BASE else self.opp_sim.model
        calibre, kind = AircraftData(shooter).gun_round(h.gun)
        if h.target == OPPONENT:
            return self.opp_sim.model, self.opp_sim.state, "opponent", calibre, kind
        return self.player_model, self.player_state, "player", calibre, kind

    def _jet_hit(self, h):
        """A round into a jet engine's bay may fail that engine (it windmills from then on)."""
        model, state, who, calibre, kind = self._struck(h)
        data = AircraftData(model)
        if not data.jets or state is None:
            return
        p = np.asarray(h.point)
        view = _Readouts(state)
        for k, noz in enumerate(data.jet_nozzles_m):
            ahead = p[0] - noz[0]
            if 0.0 <= ahead <= JET_BAY_LENGTH_M and math.hypot(p[1] - noz[1], p[2] - noz[2]) <= JET_BAY_RADIUS_M:
                he = 1.5 if data.round_name(kind) == "he" else 1.0
                if view.jets_failed[k] < 0.5 and self.rng.random() < calibre * JET_FAIL_PER_MM * he:
                    view.set_jet_failed(k)
                    side = "left" if noz[1] < 0 else "right" if noz[1] > 0 else "centre"
                    self.damage_log.append((self.t_s, who, f"{side} engine hit: failed, windmilling"))
                return

    def _component_hit(self, h):
        """What a round that struck a component did (physics/damage.py), into the log."""
        from ..physics.damage import apply_hit
        model, state, who, calibre, kind = self._struck(h)
        if not AircraftData(model).has_systems_damage or state is None:
            return
        for part in (h.through_propeller, h.part):
            if part >= 0:
                what = apply_hit(model, state, part, calibre, kind, self.rng)
                if what:
                    self.damage_log.append((self.t_s, who, what))

    def _explosions(self, model, state, who):
        """A tank that exploded (the kernel's S_EXPLODED) takes its wing, or in the fuselage the aircraft."""
        from ..physics.damage import explode
        what = explode(model, state)
        if what:
            self.damage_log.append((self.t_s, who, what))
        return what

    def _score(self, hits):
        for h in hits:
            if h.kind == AIRCRAFT and (h.part >= 0 or h.through_propeller >= 0):
                self._component_hit(h)
            if h.kind == AIRCRAFT:
                self._jet_hit(h)
                if h.target == OPPONENT:
                    self.opp.hits_taken += 1
                    self.hits_scored += 1
                    # the point is in the opponent's body axes: back to NED for the flash
                    o = self.opp_sim
                    p = o.position_ned_m + o.body_to_ned() @ (np.array(h.point) - self.opp.cg)
                    self.recent_hits.append((tuple(p), "aircraft", self.t_s))
                    if self.opp_alive and self.opp.hits_taken >= self.hits_to_kill:
                        self._opponent_lost("BANDIT DOWN")
                else:
                    self.player.hits_taken += 1
                    self.recent_hits.append((None, "player", self.t_s))
                    if h.owner >= REMOTE_BASE:
                        self.remote_hits.append((h.owner, h.point))
            else:
                idx = h.target
                self.recent_hits.append((h.point, "target", self.t_s))
                if h.owner == PLAYER and self.spheres[idx, 4] > 0.5:
                    self.sphere_hits[idx] += 1
                    if self.sphere_hits[idx] >= self.target_hits_to_kill[idx]:
                        self.spheres[idx, 4] = 0.0
                        self.targets_destroyed += 1
        self.recent_hits = [h for h in self.recent_hits if self.t_s - h[2] <= HIT_SHOW_S]

    def _opponent_lost(self, fate):
        self.opp_alive = False
        self.opp_down_t = self.t_s
        self.opponents_destroyed += 1
        self.opp_fate = fate

    def _opponent_step(self, player, free, dt, env):
        from ..pilots.ai import AirData
        from ..pilots.terrain_watch import clearance_ahead
        sim = self.opp_sim
        sim.env = env
        o = self.opp
        if not self.opp_visible:
            if self.opp_cfg.get("respawn", True) and self.t_s - self.opp_down_t > 8.0:
                self._respawn_near(player.state)
            return
        pos = sim.position_ned_m
        ground = self.terrain.height_at(pos[0], pos[1])
        if self._explosions(sim.model, sim.state, "opponent") and self.opp_alive:
            self._opponent_lost("BANDIT EXPLODED")
        if self.opp_alive:
            # the AI feels its damage as a pilot does (gauges, fire, wounds): it bails out of a
            # burning or uncontrollable aircraft and breaks off for home with a sick engine
            fate = damage_reaction(sim.model, sim.state, sim.diag)
            if fate == "bail out":
                self._opponent_lost("BANDIT BAILED OUT")
                self.damage_log.append((self.t_s, "opponent", "the pilot bailed out"))
            elif fate == "disengage" and not self.ai.disengage:
                self.ai.disengage = True
                self.damage_log.append((self.t_s, "opponent", "breaks off, heading for home"))
        if self.opp_alive:
            me = AirData.from_sim(sim.state, sim.diag, ground)
            # the hill ahead: where the path of the next AI_LOOK_S meets the ground
            me.ahead_clearance_m = clearance_ahead(self.terrain, me.position_ned_m, me.velocity_ned_ms, AI_LOOK_S)
            buttons, steer = self.missiles.ai_buttons(me, player) if self.missiles is not None else ({}, None)
            if steer is None:
                c = self.ai(me, player.position_ned_m, player.velocity_ned_ms)
            else:
                c = self.ai(me, steer, np.zeros(3)).replace(fire=0.0)     # defending or cranking
            c = c.replace(**buttons)
        else:
            # shot down: the pilot is out of it, the engine dead; the aircraft falls as it flies
            c = ControlInputs.from_array(sim.ctrl).replace(pitch=-0.2, roll=0.4, fire=0.0, throttle=0.0, cutoff=1.0)
        o.pos = pos
        o.R = sim.body_to_ned()
        c.to_array(sim.ctrl)
        sim.step()
        self.pool.spawn_fired(free, o.model, sim.state, o.fired, o.ident, int(self.settings["tracer_every"]), dt)
        pos = sim.position_ned_m
        crashed = sim.struck or sim.on_ground or sim.altitude_m < self.terrain.height_at(pos[0], pos[1])
        if crashed:
            if self.opp_alive:
                self.opp_alive = False
                self.opponents_destroyed += 1
            self.opp_visible = False
            self.opp_down_t = self.t_s

    # ------------------------------------------------------------------ what the renderer reads
    def _publish(self, player):
        # the frame is timed like the player's snapshot after this tick: one tick on
        bullets = self.pool.drawable(DT)
        opp = None
        opp_ammo = 0
        rng = 0.0
        if self.opp is not None:
            o = self.opp_sim
            data = AircraftData(o.model)
            opp = AircraftView(
                read_only(o.position_ned_m), read_only(o.quat_wxyz), read_only(data.section_deflections_rad(o.state)),
                o.surface("airbrake"), o.surface("gear"), bool(self.opp_alive),
                bool(self.opp_visible), read_only(data.section_damage),
                bool(self.opp_alive and self.ai.firing), read_only(data.section_slat_positions(o.state)),
                read_only(data.stores_on(o.state)), float(o.engine_rpm), float(getattr(o, "afterburner", 0.0)),
                read_only(o.velocity_ned_ms))
            opp_ammo = int(o.ammo_rounds)
            rng = float(np.linalg.norm(o.position_ned_m - player.position_ned_m))
        guns = self.player_data.guns
        ammo = int(round(float(np.sum(np.maximum(
            guns.ammo_rounds - player.rounds_fired[:len(guns)], 0.0))))) if len(guns) else 0
        status = []
        if self.player_down is not None:
            status.append(self.player_down[1])
        if self.opp is not None:
            status.append((self.opp_fate or "BANDIT DOWN") if not self.opp_alive else f"BANDIT {rng / 1000:.1f} km")
        if self.spheres.shape[0]:
            status.append(f"BALLOONS {int(np.sum(self.spheres[:, 4] < 0.5))}/{self.spheres.shape[0]}")
        war = self.missiles.frame_fields(player) if self.missiles is not None else {}
        frame = CombatFrame(
            tick=player.tick + 1, opponent=opp, bullets=read_only(bullets),
            hits=tuple((p, k, self.t_s - t) for p, k, t in self.recent_hits),
            targets=read_only(self.spheres), player_ammo=ammo, opponent_ammo=opp_ammo, hits_scored=self.hits_scored,
            hits_taken=self.player.hits_taken, targets_destroyed=self.targets_destroyed,
            opponents_destroyed=self.opponents_destroyed, range_m=rng, status="  ".join(status),
            damage_log=tuple(self.damage_log),
            opponent_smoke=smoke_points(self.opp_sim.model, self.opp_sim.state, self.opp_sim.diag)
            if self.opp is not None and self.opp_visible else (),
            player_down=self.player_down[1] if self.player_down is not None else "", **war)
        prev = self.frames[1]
        self.frames = (prev if prev is not None else frame, frame)     # one reference swap

    @property
    def frame(self) -> CombatFrame | None:
        return self.frames[1]


def damage_reaction(model, state, diag) -> str:
    """What a pilot does with the damage he can see and feel: 'bail out' of a fire, a seized
    engine, severed controls or a badly wounded pilot (the aircraft is lost); 'disengage' with
    a sick engine (every radiator losing its coolant, oil going, power lost), a leaking tank, a
    damaged propeller or control run; else 'fight' (one of two separate radiators holed: the
    other still cools it)."""
    from ..physics.damage import damage_summary
    d = damage_summary(model, state, diag)
    if d["fires"] > 0 or d["pilot_wound"] >= 0.7 or d["exploded"]:
        return "bail out"
    if d["seized"] or d["link_cut"] >= 0.9:
        return "bail out"
    if (d["engine_health"] < 0.85 or d["coolant_failing"] or d["oil_leaking"] or d["fuel_leak_kg_s"] > 0.05
            or d["propeller_damage"] > 0.15 or d["link_cut"] > 0.3):
        return "disengage"
    return "fight"


def debrief_lines(frame, max_each: int = 10) -> list[str]:
    """The combat's part of the debrief: the score, then what was hit on each aircraft, in
    order, the same thing repeated counted once (``x3``)."""
    if frame is None:
        return []
    out = [f"Combat: {frame.hits_scored} hits scored, {frame.hits_taken} taken, "
           f"{frame.opponents_destroyed} bandit(s) down, {frame.targets_destroyed} target(s)"]
    for who, title in (("player", "Your aircraft:"), ("opponent", "The bandit:")):
        rows: list = []
        for t, w, what in frame.damage_log:
            if w != who:
                continue
            if rows and rows[-1][1] == what:
                rows[-1][2] += 1
            else:
                rows.append([t, what, 1])
        if not rows:
            continue
        out.append(title)
        for t, what, n in rows[:max_each]:
            out.append(f"  {int(t // 60)}:{int(t % 60):02d} {what}" + (f" (x{n})" if n > 1 else ""))
        if len(rows) > max_each:
            out.append(f"  ... and {len(rows) - max_each} more")
    return out


def interpolate_view(prev: AircraftView, curr: AircraftView, alpha: float) -> AircraftView:
    """The opponent between two frames (positions lerped, attitude slerped)."""
    from ..runtime.handoff import slerp
    if prev is None or prev is curr or not prev.visible:
        return curr
    a = float(alpha)
    return replace(curr, position_ned_m=(1 - a) * prev.position_ned_m + a * curr.position_ned_m,
                   quat_wxyz=slerp(prev.quat_wxyz, curr.quat_wxyz, a))


def gun_muzzles(compiled) -> np.ndarray:
    """The guns' muzzles in body axes (the renderer's flashes), (n, 3)."""
    from ..aircraft_data.guns import gun_rows
    return gun_rows(compiled.model)[:, 0:3].copy()
