"""The bullet pool by name: what the combat world does with the ballistics kernels' arrays.

``physics.ballistics`` steps a flat pool (one row per bullet, its B_* columns) and writes
hits into a flat buffer (HIT_COLS per hit). ``BulletPool`` owns both and speaks in names:
spawn the rounds a fighter's guns fired this step, fly the bullets, test them against an
aircraft or the targets, read the hits and what the renderer draws. numpy and the
standard library only, around the kernels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import ballistics as B
from . import layout as L
from .quat import cross3, dcm_from_quat

AIRCRAFT, SPHERE = 0, 1          # what a hit struck


@dataclass(frozen=True)
class Hit:
    kind: int                    # AIRCRAFT or SPHERE
    target: int                  # the aircraft's id, or the sphere's index
    section: int                 # the section struck (aircraft; -1: none, a component only)
    point: tuple                 # body axes from the datum (aircraft) or NED (sphere), m
    owner: int                   # who fired
    part: int = -1               # the component hit box struck (aircraft; -1: none)
    through_propeller: int = -1  # the propeller's hit box, if the round crossed the disc first (-1: not)
    gun: int = 0                 # the shooter's gun that fired it


def _dcm(q) -> np.ndarray:
    R = np.empty((3, 3))
    dcm_from_quat(q, R)
    return R


class BulletPool:
    """``size`` bullet rows and room for ``max_hits`` hits per tick."""

    def __init__(self, size: int, max_hits: int):
        self.rows = np.zeros((size, B.NB_COLS))
        self.hit_buf = np.zeros((max_hits, B.HIT_COLS))
        self.n_hits = 0

    def clear(self) -> None:
        self.rows[:] = 0.0
        self.n_hits = 0

    @property
    def alive(self) -> np.ndarray:
        return self.rows[:, B.B_ALIVE] > 0.5

    def any_alive(self) -> bool:
        return bool(np.any(self.alive))

    def free_rows(self) -> list:
        """Free rows, the lowest last (pop() takes it)."""
        return list(np.flatnonzero(~self.alive)[::-1])

    def copy(self) -> BulletPool:
        """An independent pool with the same bullets and hits."""
        out = BulletPool(len(self.rows), len(self.hit_buf))
        out.rows[:] = self.rows
        out.hit_buf[:] = self.hit_buf
        out.n_hits = self.n_hits
        return out

    def add(self, position_ned_m, velocity_ned_ms=(0.0, 0.0, 0.0), *, drag_k: float = 0.0,
            hit_area_m2: float = 0.0, owner: int = 0, previous_ned_m=None, age_s: float = 0.0,
            tracer: bool = False, gun: int = 0, calibre_mm: float = 0.0, he: bool = False) -> int:
        """One bullet in the lowest free row, by hand (tests, studies; the game spawns with
        spawn_fired): NED position, m, and velocity over the ground, m/s; drag constant
        (pi/8) / BC, m2/kg (0: no air drag); the lifting surface one hit spoils, m2; who fired
        it; where its last segment started (NED, m; default: its position, no segment swept
        yet); its age, s. Returns the row."""
        free = np.flatnonzero(~self.alive)
        if len(free) == 0:
            raise ValueError(f"the pool's {len(self.rows)} rows are all in flight")
        k = int(free[0])
        row = self.rows[k]
        row[:] = 0.0
        row[B.B_POS:B.B_POS + 3] = position_ned_m
        row[B.B_PREV:B.B_PREV + 3] = position_ned_m if previous_ned_m is None else previous_ned_m
        row[B.B_VEL:B.B_VEL + 3] = velocity_ned_ms
        row[B.B_AGE] = age_s
        row[B.B_ALIVE] = 1.0
        row[B.B_OWNER] = owner
        row[B.B_DRAG_K] = drag_k
        row[B.B_HIT_AREA] = hit_area_m2
        row[B.B_TRACER] = 1.0 if tracer else 0.0
        row[B.B_GUN] = gun
        row[B.B_CALIBRE] = calibre_mm
        row[B.B_HE] = 1.0 if he else 0.0
        return k

    @property
    def position_ned_m(self) -> np.ndarray:
        """(size, 3) each row's position, NED, m (a view; free rows hold leftovers)."""
        return self.rows[:, B.B_POS:B.B_POS + 3]

    @property
    def velocity_ned_ms(self) -> np.ndarray:
        """(size, 3) each row's velocity over the ground, NED, m/s (a view)."""
        return self.rows[:, B.B_VEL:B.B_VEL + 3]

    @property
    def age_s(self) -> np.ndarray:
        """Each row's time since it left the muzzle, s (a view)."""
        return self.rows[:, B.B_AGE]

    # ------------------------------------------------------------------ the tick
    def fly(self, dt_s: float, env: np.ndarray, terrain: np.ndarray, life_s: float) -> None:
        """Every bullet flies one step (gravity from the env); the hit buffer starts empty."""
        self.n_hits = 0
        B.step_bullets(self.rows, dt_s, env, terrain, life_s, float(env[L.E_GRAVITY]))

    def collide_aircraft(self, model, target_id: int, pos_before, R_before, pos_now, R_now,
                         cg_m, radius_m: float, state=None) -> None:
        """Test the segments just flown against an aircraft that moved from one pose (NED
        position of its CG, body-to-NED matrix) to another; hits are kept and damage its model.
        ``state``: the aircraft's (which drop tanks it still carries; none: a fresh one's)."""
        if state is None:
            state = np.zeros(L.N_STATE)
        self.n_hits = B.collide_aircraft(self.rows, model, state, target_id, pos_before, R_before, pos_now, R_now,
                                         cg_m, radius_m, self.hit_buf, self.n_hits)

    def collide_spheres(self, spheres: np.ndarray) -> None:
        """Against targets: rows (north, east, down, radius, alive)."""
        self.n_hits = B.collide_spheres(self.rows, spheres, self.hit_buf, self.n_hits)

    def hits(self) -> list[Hit]:
        """The hits of this tick."""
        return [Hit(int(h[1]), int(h[2]), int(h[3]), tuple(float(x) for x in h[4:7]), int(h[7]),
                    int(h[8]), int(h[9]) - 1, int(h[10]))
                for h in self.hit_buf[:self.n_hits]]

    def spawn_fired(self, free: list, model, state: np.ndarray, fired_before: np.ndarray, owner: int,
                    tracer_every: int, dt_s: float) -> int:
        """Bullets for the rounds each gun fired since ``fired_before`` (its belt counter passed a
        whole round), at the muzzle with the aircraft's velocity (and its rotation at the
        muzzle) plus the muzzle velocity along the bore, flown on by the part of the step since
        they left. Rows come from ``free``; ``fired_before`` is brought up to date. Returns how many."""
        g0, n_guns = int(model[0, L.H_ROW_GUN]), int(model[0, L.H_N_GUNS])
        if n_guns == 0:
            return 0
        guns = model[g0:g0 + n_guns]
        f_now = state[L.S_GUN_FIRED:L.S_GUN_FIRED + n_guns]
        R = _dcm(state[L.S_QUAT:L.S_QUAT + 4])
        cg = model[L.ROW_MASS, L.M_CG:L.M_CG + 3]
        pos = state[L.S_POS:L.S_POS + 3]
        v_body = state[L.S_VEL:L.S_VEL + 3]
        w = state[L.S_OMEGA:L.S_OMEGA + 3]
        n = 0
        for i, g in enumerate(guns):
            a, b = float(fired_before[i]), float(f_now[i])
            if b <= a:
                continue
            r = g[L.GUN_POS:L.GUN_POS + 3] - cg
            muzzle = pos + R @ r
            vel = R @ (v_body + cross3(w, r) + g[L.GUN_MUZZLE_V] * g[L.GUN_DIR:L.GUN_DIR + 3])
            for m in range(int(math.floor(a)) + 1, int(math.floor(b)) + 1):
                if not free:
                    fired_before[:n_guns] = f_now
                    return n
                k = free.pop()
                since = (1.0 - (m - a) / (b - a)) * dt_s      # flown since it left, within this step
                row = self.rows[k]
                row[:] = 0.0
                row[B.B_POS:B.B_POS + 3] = muzzle + vel * since
                row[B.B_PREV:B.B_PREV + 3] = row[B.B_POS:B.B_POS + 3]
                row[B.B_VEL:B.B_VEL + 3] = vel
                row[B.B_AGE] = since
                row[B.B_ALIVE] = 1.0
                row[B.B_OWNER] = owner
                row[B.B_DRAG_K] = g[L.GUN_DRAG_K]
                row[B.B_HIT_AREA] = g[L.GUN_HIT_AREA]
                row[B.B_TRACER] = 1.0 if tracer_every > 0 and m % tracer_every == 0 else 0.0
                row[B.B_GUN] = i
                row[B.B_CALIBRE] = g[L.GUN_CALIBRE_MM]
                row[B.B_HE] = 1.0 if int(g[L.GUN_ROUND_KIND]) == L.ROUND_HE else 0.0
                n += 1
        fired_before[:n_guns] = f_now
        return n

    # ------------------------------------------------------------------ what is drawn
    def drawable(self, ahead_s: float) -> np.ndarray:
        """(n, 7) live bullets: position ``ahead_s`` on (NED, m), velocity (NED, m/s), tracer 0/1."""
        b = self.rows[self.alive]
        out = np.empty((len(b), 7))
        out[:, 0:3] = b[:, B.B_POS:B.B_POS + 3] + b[:, B.B_VEL:B.B_VEL + 3] * ahead_s
        out[:, 3:6] = b[:, B.B_VEL:B.B_VEL + 3]
        out[:, 6] = b[:, B.B_TRACER]
        return out

    # ------------------------------------------------------------------ compiling
    @staticmethod
    def warm_up(env: np.ndarray, terrain: np.ndarray, model: np.ndarray, cg_m) -> None:
        """Compile (or load from the cache) the bullet kernels now with the game's argument
        types, on an empty pool: not in the physics thread the first time someone fires."""
        pool = BulletPool(1, 1)
        pool.fly(0.02, env, terrain, 1.0)
        z = np.zeros(3)
        pool.collide_aircraft(model, 0, z, np.eye(3), z, np.eye(3), cg_m, 1.0)
        pool.collide_spheres(np.zeros((1, 5)))


def hit_radius(model, cg_m) -> float:
    """Radius around the CG that holds every section box (the early-out of the hit test)."""
    return float(B.hit_radius(model, cg_m))
