"""Air combat in the world: an AI opponent, the bullets, the targets, the hits.

``Combat`` lives in the physics thread: the World's per-tick hook calls ``tick`` once
per 20 ms tick before the player's step (flightsim.world.assembly.World._world_tick). It owns

* the opponent: its own ``Sim`` (the same compiled aircraft data, its own state and
  model array: its damage is its own) flown by ``flightsim.ai.FighterAI`` through
  ControlInputs, stepped once per tick with the same kernel as the player;
* the bullet pool (flightsim.physics.ballistics): rounds leave each gun as its belt count
  (the kernel's S_GUN_FIRED) passes a whole round, at the muzzle, with the aircraft's
  velocity (and its rotation at the muzzle) plus the muzzle velocity along the bore;
* the targets: tethered balloons (spheres) the player can shoot down;
* the score: hits each way, targets and opponents destroyed.

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

from ..handoff import ControlInputs, dcm, euler_from_quat, section_deflections
from ..physics.quat import quat_from_euler
from ..physics import ballistics as B
from ..physics import layout as L
from ..spec.guns import gun_rows

DT = 0.02
PLAYER, OPPONENT = 0, 1
POOL = 1536
MAX_HITS = 256
HIT_SHOW_S = 0.6           # how long a hit flash stays in the frame


def _ro(a):
    a = np.array(a, dtype=np.float64, copy=True)
    a.setflags(write=False)
    return a


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


@dataclass(frozen=True)
class CombatFrame:
    tick: int                                   # matches the player's Snapshot.tick
    opponent: AircraftView | None
    bullets: np.ndarray                         # (n, 7): position NED, velocity NED, tracer 0/1
    hits: tuple = ()                            # ((north, east, down), kind 'aircraft'/'target'/'player', age_s)
    targets: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 5))))   # north, east, down, radius, alive
    player_ammo: int = 0
    opponent_ammo: int = 0
    hits_scored: int = 0                        # the player's hits on the opponent
    hits_taken: int = 0                         # the opponent's hits on the player
    targets_destroyed: int = 0
    opponents_destroyed: int = 0
    range_m: float = 0.0
    status: str = ""


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


def aircraft_stall_alpha(model, tables, wing_rows) -> float:
    """The aircraft's angle of attack at the wing's stall (what its pilot knows as the buffet
    angle): the first wing section to stall, less its incidence, plus the wing's induced
    angle at that section's maximum lift coefficient (lifting line, the wing's K)."""
    k_ind = model[L.ROW_GROUPS, L.GROUP_WING * L.G_COLS + L.G_K_INDUCED]
    best = None
    for r in wing_rows:
        inc = math.atan2(-model[r, L.SEC_CHORD_AX + 2], model[r, L.SEC_CHORD_AX])
        t = int(model[r, L.SEC_TABLE])
        cl_max = float(np.max(tables[t, L.T_CL + 1]))
        a = model[r, L.SEC_STALL_ALPHA] - inc + k_ind * cl_max
        best = a if best is None else min(best, a)
    return float(best)


def stall_speed(model, tables, wing_rows, rho0=1.225, g=9.80665) -> float:
    """1 g stall speed (EAS, m/s) from the data: the weight over the wing area times its
    area-weighted section maximum lift coefficient (an estimate a little above the real
    one: it leaves the fuselage's lift out, the safe side for an AI's margin)."""
    area = sum(model[r, L.SEC_AREA] for r in wing_rows)
    cl = sum(model[r, L.SEC_AREA] * float(np.max(tables[int(model[r, L.SEC_TABLE]), L.T_CL + 1])) for r in wing_rows)
    return math.sqrt(2.0 * model[L.ROW_MASS, L.M_MASS] * g / (rho0 * cl))


def fighter_ai(comp, trimmed_ctrl, opponent: dict | None = None):
    """The game's AI pilot for a compiled fighter, starting from its trimmed controls (the
    elevator folded into the trim tab, gear up), knowing its stall, guns and bullets.
    ``opponent``: a scenario's opponent table (max_g, gun_range_m, floor_m, fires)."""
    from ..ai import FighterAI
    opponent = opponent or {}
    base = ControlInputs.from_array(trimmed_ctrl)
    base = base.replace(pitch=0.0, pitch_trim=max(-1.0, min(1.0, base.pitch + base.pitch_trim)), gear_up=1.0)
    m = comp.model
    r0 = int(m[0, L.H_ROW_SECTION])
    wing = [r0 + i for i in range(int(m[0, L.H_N_SECTIONS])) if int(m[r0 + i, L.SEC_GROUP]) == L.GROUP_WING]
    stall = aircraft_stall_alpha(m, comp.tables, wing) if wing else math.radians(16.0)
    guns = gun_rows(m)
    v_b = float(guns[0, L.GUN_MUZZLE_V]) * 0.9 if len(guns) else 800.0
    ai = FighterAI(base, max_g=opponent.get("max_g", 6.0), gun_range_m=opponent.get("gun_range_m", 600.0),
                   floor_m=opponent.get("floor_m", 300.0), bullet_speed_ms=v_b, stall_alpha_rad=stall,
                   stall_speed_ms=stall_speed(m, comp.tables, wing), fire=opponent.get("fires", True))
    if len(guns):
        bs = guns[:, L.GUN_DIR:L.GUN_DIR + 3].mean(axis=0)
        ai.boresight = bs / np.linalg.norm(bs)
        ai.muzzle_velocity_ms = float(guns[:, L.GUN_MUZZLE_V].mean())
    return ai


def _spawn_rounds(pool, free, fighter: _Fighter, state, tracer_every: int, dt: float) -> int:
    """Bullets for the rounds each gun fired since the last call (its belt counter passed a
    whole round), at the muzzle with the aircraft's velocity plus the muzzle velocity along
    the bore, flown on by the part of the tick since they left. Returns how many."""
    guns = gun_rows(fighter.model)
    if len(guns) == 0:
        return 0
    f_now = state[L.S_GUN_FIRED:L.S_GUN_FIRED + len(guns)]
    f_old = fighter.fired[:len(guns)]
    R = dcm(state[L.S_QUAT:L.S_QUAT + 4])
    cg = fighter.model[L.ROW_MASS, L.M_CG:L.M_CG + 3]
    pos = state[L.S_POS:L.S_POS + 3]
    v_body = state[L.S_VEL:L.S_VEL + 3]
    w = state[L.S_OMEGA:L.S_OMEGA + 3]
    n = 0
    for i, g in enumerate(guns):
        a, b = float(f_old[i]), float(f_now[i])
        if b <= a:
            continue
        r = g[L.GUN_POS:L.GUN_POS + 3] - cg
        muzzle = pos + R @ r
        vel = R @ (v_body + np.cross(w, r) + g[L.GUN_MUZZLE_V] * g[L.GUN_DIR:L.GUN_DIR + 3])
        for m in range(int(math.floor(a)) + 1, int(math.floor(b)) + 1):
            if not free:
                return n
            k = free.pop()
            since = (1.0 - (m - a) / (b - a)) * dt      # flown since it left, within this tick
            row = pool[k]
            row[:] = 0.0
            row[B.B_POS:B.B_POS + 3] = muzzle + vel * since
            row[B.B_PREV:B.B_PREV + 3] = row[B.B_POS:B.B_POS + 3]
            row[B.B_VEL:B.B_VEL + 3] = vel
            row[B.B_AGE] = since
            row[B.B_ALIVE] = 1.0
            row[B.B_OWNER] = fighter.ident
            row[B.B_DRAG_K] = g[L.GUN_DRAG_K]
            row[B.B_HIT_AREA] = g[L.GUN_HIT_AREA]
            row[B.B_TRACER] = 1.0 if tracer_every > 0 and m % tracer_every == 0 else 0.0
            row[B.B_GUN] = i
            n += 1
    fighter.fired[:len(guns)] = f_now
    return n


class Combat:
    """See the module docstring. ``opponent``: the scenario's [opponent] table (or None);
    ``targets``: its [[target]] tables; ``settings``: its [combat] table."""

    def __init__(self, player_sim, terrain, opponent: dict | None, targets: list, settings: dict | None = None):
        from ..sim import Sim
        from .scenario import place
        self.terrain = terrain
        self.heights = np.ascontiguousarray(player_sim.terrain, dtype=np.float64)
        self.settings = {"bullet_life_s": 3.0, "tracer_every": 5, **(settings or {})}
        self.player_model = player_sim.model
        self.player = _Fighter(PLAYER, player_sim.model, np.zeros(L.N_GUN_MAX))
        self.player.cg = np.array(player_sim.model[L.ROW_MASS, L.M_CG:L.M_CG + 3])
        self.player.radius = float(B.hit_radius(player_sim.model, self.player.cg))
        self.pool = np.zeros((POOL, B.NB_COLS))
        self.hit_buf = np.zeros((MAX_HITS, B.HIT_COLS))
        self.recent_hits: list = []          # (point NED, kind, time_s)
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
                from ..spec.compile import compile_aircraft
                comp = compile_aircraft(opponent["aircraft"])
            else:
                comp = replace(comp, model=comp.model.copy())
            self.opp_sim = Sim(comp, env=player_sim.env, terrain=player_sim.terrain)
            self.opponent_compiled = comp
            n, e, alt, hdg = place(terrain, opponent)
            speed = (opponent.get("speed_kmh") or 450.0) / 3.6
            self.opp_sim.spawn_trimmed_level(speed, alt, hdg, n, e)
            self.opp_spawn = (self.opp_sim.state.copy(), self.opp_sim.ctrl.copy())
            self.ai = fighter_ai(comp, self.opp_sim.ctrl, opponent)
            m = self.opp_sim.model
            self.opp = _Fighter(OPPONENT, m, np.zeros(L.N_GUN_MAX))
            self.opp.cg = np.array(m[L.ROW_MASS, L.M_CG:L.M_CG + 3])
            self.opp.radius = float(B.hit_radius(m, self.opp.cg))
            self.opp.pos = self.opp_sim.state[L.S_POS:L.S_POS + 3].copy()
            self.opp.R = dcm(self.opp_sim.state[L.S_QUAT:L.S_QUAT + 4])
            self.opp_alive = True             # not shot down
            self.opp_visible = True           # not crashed and cleared
            self.opp_down_t = None
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
        self._warm_up(player_sim.env)

    def _warm_up(self, env):
        """Compile (or load from the cache) the bullet kernels now, not in the physics thread
        the first time someone fires: the same argument types, on an empty pool."""
        pool = np.zeros((1, B.NB_COLS))
        hits = np.zeros((1, B.HIT_COLS))
        B.step_bullets(pool, DT, env, self.heights, 1.0, 9.80665)
        z = np.zeros(3)
        B.collide_aircraft(pool, self.player_model, PLAYER, z, np.eye(3), z, np.eye(3), self.player.cg, 1.0, hits, 0)
        B.collide_spheres(pool, np.zeros((1, 5)), hits, 0)

    # ------------------------------------------------------------------ control
    def request_reset(self):
        """From any thread: the next tick starts the combat again (the player's own state
        is reset by the physics thread's reset command)."""
        self._reset_requested = True

    def _reset(self, player_state):
        self.pool[:] = 0.0
        self.recent_hits.clear()
        self.hits_scored = 0
        self.targets_destroyed = 0
        self.opponents_destroyed = 0
        self._clear_damage(self.player_model)
        self.player.hits_taken = 0
        self.player.fired[:] = player_state[L.S_GUN_FIRED:L.S_GUN_FIRED + L.N_GUN_MAX]
        if self.spheres.shape[0]:
            self.spheres[:, 4] = 1.0
            self.sphere_hits[:] = 0
        if self.opp is not None:
            self._respawn_opponent(self.opp_spawn[0])
        self.frames = (None, None)

    @staticmethod
    def _clear_damage(model):
        B.clear_damage(model)

    def _respawn_opponent(self, state):
        self.opp_sim.state[:] = state
        self.opp_sim.ctrl[:] = self.opp_spawn[1]
        self.opp_sim.diag[:] = 0.0
        self._clear_damage(self.opp_sim.model)
        self.opp.fired[:] = state[L.S_GUN_FIRED:L.S_GUN_FIRED + L.N_GUN_MAX]
        self.opp.hits_taken = 0
        self.opp.pos = state[L.S_POS:L.S_POS + 3].copy()
        self.opp.R = dcm(state[L.S_QUAT:L.S_QUAT + 4])
        self.opp_alive = True
        self.opp_visible = True
        self.opp_down_t = None
        self.ai.reset()

    def _respawn_near(self, player_state):
        """A fresh opponent 2.5 km ahead-left of the player, at his height, heading across."""
        R = dcm(player_state[L.S_QUAT:L.S_QUAT + 4])
        fwd = R[:, 0].copy()
        fwd[2] = 0.0
        fwd /= max(np.linalg.norm(fwd), 1e-6)
        left = np.array([fwd[1], -fwd[0], 0.0])
        p = player_state[L.S_POS:L.S_POS + 3] + 2000.0 * fwd + 1500.0 * left
        ground = self.terrain.height_at(p[0], p[1])
        alt = max(-player_state[L.S_POS + 2], ground + 600.0)
        hdg = math.atan2(-left[1], -left[0])           # crossing toward the player's track
        # the trimmed start state turned onto the new heading and moved (no trim in the tick)
        st = self.opp_spawn[0].copy()
        roll, pitch, _ = euler_from_quat(st[L.S_QUAT:L.S_QUAT + 4])
        st[L.S_QUAT:L.S_QUAT + 4] = quat_from_euler(roll, pitch, hdg)
        st[L.S_POS:L.S_POS + 3] = (p[0], p[1], -alt)
        st[L.S_HAS_PREV] = 0.0
        st[L.S_TICK] = 0.0
        self._respawn_opponent(st)

    # ------------------------------------------------------------------ the tick
    def tick(self, player_state, env, t_s: float):
        if self._reset_requested:
            self._reset_requested = False
            self._reset(player_state)
        dt = float(env[L.E_DT])
        self.t_s = t_s
        pl = self.player
        p_pos = player_state[L.S_POS:L.S_POS + 3].copy()
        p_R = dcm(player_state[L.S_QUAT:L.S_QUAT + 4])
        if self.tick_count == 0 or player_state[L.S_TICK] < 1:
            pl.pos, pl.R = p_pos, p_R          # first tick / after a reset: no motion to sweep
            pl.fired[:] = player_state[L.S_GUN_FIRED:L.S_GUN_FIRED + L.N_GUN_MAX]
        elif np.any(player_state[L.S_GUN_FIRED:L.S_GUN_FIRED + L.N_GUN_MAX] < pl.fired - 1e-9):
            pl.fired[:] = player_state[L.S_GUN_FIRED:L.S_GUN_FIRED + L.N_GUN_MAX]   # reloaded (reset)
        # --- bullets k-1 -> k, hits on both aircraft and the targets
        n_hits = 0
        if np.any(self.pool[:, B.B_ALIVE] > 0.5):
            B.step_bullets(self.pool, dt, env, self.heights, self.settings["bullet_life_s"], float(env[L.E_GRAVITY]))
            n_hits = B.collide_aircraft(self.pool, self.player_model, PLAYER, pl.pos, pl.R, p_pos, p_R, pl.cg,
                                        pl.radius, self.hit_buf, 0)
            if self.opp is not None and self.opp_visible:
                o_pos = self.opp_sim.state[L.S_POS:L.S_POS + 3].copy()
                o_R = dcm(self.opp_sim.state[L.S_QUAT:L.S_QUAT + 4])
                n_hits = B.collide_aircraft(self.pool, self.opp_sim.model, OPPONENT, self.opp.pos, self.opp.R, o_pos,
                                            o_R, self.opp.cg, self.opp.radius, self.hit_buf, n_hits)
            if self.spheres.shape[0]:
                n_hits = B.collide_spheres(self.pool, self.spheres, self.hit_buf, n_hits)
        self._score(n_hits)
        # --- the rounds fired during the last step
        free = list(np.flatnonzero(self.pool[:, B.B_ALIVE] < 0.5)[::-1])
        _spawn_rounds(self.pool, free, pl, player_state, int(self.settings["tracer_every"]), dt)
        pl.pos, pl.R = p_pos, p_R
        # --- the opponent flies k -> k+1
        if self.opp is not None:
            self._opponent_step(player_state, free, dt, env)
        self.tick_count += 1
        self._publish(player_state)

    def _score(self, n_hits):
        for h in self.hit_buf[:n_hits]:
            kind, idx, owner = int(h[1]), int(h[2]), int(h[7])
            if kind == 0:
                if idx == OPPONENT:
                    self.opp.hits_taken += 1
                    self.hits_scored += 1
                    # the point is in the opponent's body axes: back to NED for the flash
                    st = self.opp_sim.state
                    p = st[L.S_POS:L.S_POS + 3] + dcm(st[L.S_QUAT:L.S_QUAT + 4]) @ (h[4:7] - self.opp.cg)
                    self.recent_hits.append((tuple(p), "aircraft", self.t_s))
                    if self.opp_alive and self.opp.hits_taken >= self.hits_to_kill:
                        self.opp_alive = False
                        self.opp_down_t = self.t_s
                        self.opponents_destroyed += 1
                else:
                    self.player.hits_taken += 1
                    self.recent_hits.append((None, "player", self.t_s))
            else:
                self.recent_hits.append((tuple(h[4:7]), "target", self.t_s))
                if owner == PLAYER and self.spheres[idx, 4] > 0.5:
                    self.sphere_hits[idx] += 1
                    if self.sphere_hits[idx] >= self.target_hits_to_kill[idx]:
                        self.spheres[idx, 4] = 0.0
                        self.targets_destroyed += 1
        self.recent_hits = [h for h in self.recent_hits if self.t_s - h[2] <= HIT_SHOW_S]

    def _opponent_step(self, player_state, free, dt, env):
        from ..ai import AirData
        sim = self.opp_sim
        sim.env = env
        o = self.opp
        if not self.opp_visible:
            if self.opp_cfg.get("respawn", True) and self.t_s - self.opp_down_t > 8.0:
                self._respawn_near(player_state)
            return
        ground = self.terrain.height_at(sim.state[L.S_POS], sim.state[L.S_POS + 1])
        if self.opp_alive:
            me = AirData.from_sim(sim.state, sim.diag, ground)
            p_R = dcm(player_state[L.S_QUAT:L.S_QUAT + 4])
            c = self.ai(me, player_state[L.S_POS:L.S_POS + 3], p_R @ player_state[L.S_VEL:L.S_VEL + 3])
        else:
            # shot down: the pilot is out of it, the engine dead; the aircraft falls as it flies
            c = ControlInputs.from_array(sim.ctrl).replace(pitch=-0.2, roll=0.4, fire=0.0, throttle=0.0, cutoff=1.0)
        o.pos = sim.state[L.S_POS:L.S_POS + 3].copy()
        o.R = dcm(sim.state[L.S_QUAT:L.S_QUAT + 4])
        c.to_array(sim.ctrl)
        sim.step()
        _spawn_rounds(self.pool, free, o, sim.state, int(self.settings["tracer_every"]), dt)
        crashed = sim.state[L.S_STRIKE_INDEX] >= 0 or sim.diag[L.D_ON_GROUND] > 0 or \
            -sim.state[L.S_POS + 2] < self.terrain.height_at(sim.state[L.S_POS], sim.state[L.S_POS + 1])
        if crashed:
            if self.opp_alive:
                self.opp_alive = False
                self.opponents_destroyed += 1
            self.opp_visible = False
            self.opp_down_t = self.t_s

    # ------------------------------------------------------------------ what the renderer reads
    def _publish(self, player_state):
        live = self.pool[:, B.B_ALIVE] > 0.5
        b = self.pool[live]
        dt = DT
        # the frame is timed like the player's snapshot after this tick: one tick on
        bullets = np.empty((len(b), 7))
        bullets[:, 0:3] = b[:, B.B_POS:B.B_POS + 3] + b[:, B.B_VEL:B.B_VEL + 3] * dt
        bullets[:, 3:6] = b[:, B.B_VEL:B.B_VEL + 3]
        bullets[:, 6] = b[:, B.B_TRACER]
        opp = None
        opp_ammo = 0
        rng = 0.0
        if self.opp is not None:
            st = self.opp_sim.state
            m = self.opp_sim.model
            r0 = int(m[0, L.H_ROW_SECTION])
            opp = AircraftView(
                _ro(st[L.S_POS:L.S_POS + 3]), _ro(st[L.S_QUAT:L.S_QUAT + 4]), _ro(section_deflections(m, st)),
                float(st[L.S_SURF + L.SURF_AIRBRAKE]), float(st[L.S_SURF + L.SURF_GEAR]), bool(self.opp_alive),
                bool(self.opp_visible), _ro(m[r0:r0 + int(m[0, L.H_N_SECTIONS]), L.SEC_DAMAGE]),
                bool(self.opp_alive and self.ai.firing))
            opp_ammo = int(self.opp_sim.diag[L.D_AMMO])
            rng = float(np.linalg.norm(st[L.S_POS:L.S_POS + 3] - player_state[L.S_POS:L.S_POS + 3]))
        guns = gun_rows(self.player_model)
        ammo = int(round(float(np.sum(np.maximum(
            guns[:, L.GUN_AMMO] - player_state[L.S_GUN_FIRED:L.S_GUN_FIRED + len(guns)], 0.0))))) if len(guns) else 0
        status = []
        if self.opp is not None:
            status.append("BANDIT DOWN" if not self.opp_alive else f"BANDIT {rng / 1000:.1f} km")
        if self.spheres.shape[0]:
            status.append(f"BALLOONS {int(np.sum(self.spheres[:, 4] < 0.5))}/{self.spheres.shape[0]}")
        frame = CombatFrame(
            tick=int(player_state[L.S_TICK]) + 1, opponent=opp, bullets=_ro(bullets),
            hits=tuple((p, k, self.t_s - t) for p, k, t in self.recent_hits),
            targets=_ro(self.spheres), player_ammo=ammo, opponent_ammo=opp_ammo, hits_scored=self.hits_scored,
            hits_taken=self.player.hits_taken, targets_destroyed=self.targets_destroyed,
            opponents_destroyed=self.opponents_destroyed, range_m=rng, status="  ".join(status))
        prev = self.frames[1]
        self.frames = (prev if prev is not None else frame, frame)     # one reference swap

    @property
    def frame(self) -> CombatFrame | None:
        return self.frames[1]


def interpolate_view(prev: AircraftView, curr: AircraftView, alpha: float) -> AircraftView:
    """The opponent between two frames (positions lerped, attitude slerped)."""
    from ..handoff import slerp
    if prev is None or prev is curr or not prev.visible:
        return curr
    a = float(alpha)
    return replace(curr, position_ned_m=(1 - a) * prev.position_ned_m + a * curr.position_ned_m,
                   quat_wxyz=slerp(prev.quat_wxyz, curr.quat_wxyz, a))
