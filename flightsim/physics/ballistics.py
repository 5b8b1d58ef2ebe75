"""Bullets: a pool stepped once per 20 ms tick, and their hits on aircraft sections and targets.

numpy / numba / stdlib only, like the rest of flightsim.physics.

Flight: gravity and air drag by the G1 drag law (the standard projectile of the
Gavre / BRL tables, Cd as a function of Mach; McCoy, *Modern Exterior Ballistics*,
1999, ch. 2): the deceleration through the air is ``K rho v^2 Cd_G1(M)`` with
``K = (pi/8) / BC``, BC the ballistic coefficient in kg/m^2 (aircraft_data/guns.py compiles it
from the usual lb/in^2 figure). Air density and the speed of sound come from the ISA at
the bullet's height; the steady wind moves the air. One Heun (trapezoid predictor-
corrector) step per tick: at 20 ms the velocity changes by under 1 % a step, and the
tests hold the integration to 0.1 % against a fine reference.

Hits: each tick a bullet sweeps a segment. Against an aircraft it is tested in that
aircraft's body frame (start point in the pose at the start of the tick, end point in
the pose at its end: the relative motion over 20 ms is a straight line to well under a
section's thickness), against every section's box (chord x span x thickness from the
compiled section rows, the chord running from the leading edge to the trailing edge of
the quarter-chord point). The first box the segment enters is hit: the bullet stops and
the section's damage grows by the bullet's ``hit area / section area`` (capped at 1),
which aero.section_forces turns into lost lift and added drag.

Components (engine, radiators, oil cooler, tanks, propeller, pilot, armour, control runs:
the model's hit-box rows, body-axis boxes) are tested along the same segment: the skin is
no obstacle, so the round strikes the first component box it enters behind whatever
section it passed (the section is holed too if it came first). Armour that stops the
round's calibre ends it there; the propeller's disc does not stop it (whether a blade was
struck is a chance, physics/damage.py). What a component hit does is up to the world
(damage.apply_hit): the kernel only reports it.

Pool layout, one row per bullet (B_* columns below): a free row has B_ALIVE = 0.
"""
import math

import numpy as np

from .jit import entry
from .atmosphere import isa
from .ground import terrain_height
from .layout import (
    H_N_PARTS, H_ROW_PART, PART_ARMOUR, PART_PROPELLER, PART_TANK, PT_HALF, PT_INDEX, PT_KIND, PT_POS, PT_STOPS,
)
from .stores import tank_carried, tank_row
from .layout import (
    E_WIND_D, E_WIND_E, E_WIND_N, GROUP_BODY, H_DAMAGED, H_N_SECTIONS, H_ROW_SECTION, SEC_CHORD, SEC_CHORD_AX,
    SEC_DAMAGE, SEC_AREA, SEC_GROUP, SEC_NORMAL, SEC_POS, SEC_SPAN, SEC_SPAN_AX, SEC_THICKNESS,
)

# ---------------------------------------------------------------- pool columns
B_POS = 0          # 0..2 NED, m
B_VEL = 3          # 3..5 NED over the ground, m/s
B_AGE = 6          # s since it left the muzzle
B_ALIVE = 7        # 1 flying, 0 free row
B_OWNER = 8        # who fired it (an aircraft id; its own bullets never hit it)
B_DRAG_K = 9       # (pi/8) / BC, m2/kg
B_HIT_AREA = 10    # lifting surface one hit spoils, m2
B_TRACER = 11      # 1: drawn as a tracer
B_PREV = 12        # 12..14 position at the start of the last step (the segment swept)
B_GUN = 15         # index of the gun that fired it
B_CALIBRE = 16     # its calibre, mm (what armour stops; the hole it makes: physics/damage.py)
B_HE = 17          # 1: a high-explosive shell (bursts on armour)
NB_COLS = 18
HIT_COLS = 11      # hits out: bullet, target kind (0 aircraft, 1 sphere), target index, section (-1: none),
                   # point x y z, owner, component hit box (-1: none), 1 + the propeller's box if the
                   # round went through the disc first (0: not), the gun that fired it

# ---------------------------------------------------------------- the G1 drag function
# Standard G1 Cd against Mach (Ingalls / BRL table as published with every small-arms
# ballistics program, e.g. py-ballisticcalc's TableG1), resampled on a uniform grid.
_G1_MACH = np.array([
    0.00, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.70, 0.725, 0.75, 0.775,
    0.80, 0.825, 0.85, 0.875, 0.90, 0.925, 0.95, 0.975, 1.00, 1.025, 1.05, 1.075, 1.10, 1.125, 1.15, 1.20,
    1.25, 1.30, 1.35, 1.40, 1.45, 1.50, 1.55, 1.60, 1.65, 1.70, 1.75, 1.80, 1.85, 1.90, 1.95, 2.00, 2.05,
    2.10, 2.15, 2.20, 2.25, 2.30, 2.35, 2.40, 2.45, 2.50, 2.60, 2.70, 2.80, 2.90, 3.00, 3.10, 3.20, 3.30,
    3.40, 3.50, 3.60, 3.70, 3.80, 3.90, 4.00, 4.20, 4.40, 4.60, 4.80, 5.00])
_G1_CD = np.array([
    0.2629, 0.2558, 0.2487, 0.2413, 0.2344, 0.2278, 0.2214, 0.2155, 0.2104, 0.2061, 0.2032, 0.2020, 0.2034,
    0.2165, 0.2230, 0.2313, 0.2417, 0.2546, 0.2706, 0.2901, 0.3136, 0.3415, 0.3734, 0.4084, 0.4448, 0.4805,
    0.5136, 0.5427, 0.5677, 0.5883, 0.6053, 0.6191, 0.6393, 0.6518, 0.6589, 0.6621, 0.6625, 0.6607, 0.6573,
    0.6528, 0.6474, 0.6413, 0.6347, 0.6280, 0.6210, 0.6141, 0.6072, 0.6003, 0.5934, 0.5867, 0.5804, 0.5743,
    0.5685, 0.5630, 0.5577, 0.5527, 0.5481, 0.5438, 0.5397, 0.5325, 0.5264, 0.5211, 0.5168, 0.5133, 0.5105,
    0.5084, 0.5067, 0.5054, 0.5040, 0.5030, 0.5022, 0.5016, 0.5010, 0.5006, 0.4998, 0.4995, 0.4992, 0.4990,
    0.4988])
G1_STEP = 0.005
G1_GRID = np.interp(np.arange(0.0, 5.0 + 0.5 * G1_STEP, G1_STEP), _G1_MACH, _G1_CD)


@entry
def cd_g1(mach):
    x = mach / G1_STEP
    n = G1_GRID.shape[0]
    if x >= n - 1:
        return G1_GRID[n - 1]
    if x < 0.0:
        x = 0.0
    i = int(x)
    f = x - i
    return G1_GRID[i] + f * (G1_GRID[i + 1] - G1_GRID[i])


@entry
def _accel(vx, vy, vz, down, drag_k, wn, we, wd, g):
    """Acceleration (NED) of a bullet at height -down moving at v over the ground."""
    temp, press, rho, sound = isa(-down)
    ax = vx - wn
    ay = vy - we
    az = vz - wd
    v = math.sqrt(ax * ax + ay * ay + az * az)
    k = drag_k * rho * v * cd_g1(v / sound)
    return -k * ax, -k * ay, -k * az + g


@entry
def advance_bullet(b, i, dt, wn, we, wd, g):
    """One Heun step of bullet row i of pool b (no collision)."""
    px = b[i, B_POS]
    py = b[i, B_POS + 1]
    pz = b[i, B_POS + 2]
    vx = b[i, B_VEL]
    vy = b[i, B_VEL + 1]
    vz = b[i, B_VEL + 2]
    k = b[i, B_DRAG_K]
    a1x, a1y, a1z = _accel(vx, vy, vz, pz, k, wn, we, wd, g)
    # predictor (Euler), corrector (trapezoid)
    ux = vx + dt * a1x
    uy = vy + dt * a1y
    uz = vz + dt * a1z
    a2x, a2y, a2z = _accel(ux, uy, uz, pz + dt * vz, k, wn, we, wd, g)
    nvx = vx + 0.5 * dt * (a1x + a2x)
    nvy = vy + 0.5 * dt * (a1y + a2y)
    nvz = vz + 0.5 * dt * (a1z + a2z)
    b[i, B_PREV] = px
    b[i, B_PREV + 1] = py
    b[i, B_PREV + 2] = pz
    b[i, B_POS] = px + 0.5 * dt * (vx + nvx)
    b[i, B_POS + 1] = py + 0.5 * dt * (vy + nvy)
    b[i, B_POS + 2] = pz + 0.5 * dt * (vz + nvz)
    b[i, B_VEL] = nvx
    b[i, B_VEL + 1] = nvy
    b[i, B_VEL + 2] = nvz
    b[i, B_AGE] += dt


@entry
def step_bullets(b, dt, env, terrain, max_age_s, gravity):
    """Advance every live bullet one tick; bullets older than max_age_s or below the terrain
    are freed. Returns the number still flying.

    Slots read: env E_WIND_D, E_WIND_E, E_WIND_N.
    Slots written: none.
    """
    wn = env[E_WIND_N]
    we = env[E_WIND_E]
    wd = env[E_WIND_D]
    alive = 0
    for i in range(b.shape[0]):
        if b[i, B_ALIVE] < 0.5:
            continue
        advance_bullet(b, i, dt, wn, we, wd, gravity)
        if b[i, B_AGE] > max_age_s:
            b[i, B_ALIVE] = 0.0
            continue
        h = terrain_height(terrain, env, b[i, B_POS], b[i, B_POS + 1])[0]
        if -b[i, B_POS + 2] < h:
            b[i, B_ALIVE] = 0.0
            continue
        alive += 1
    return alive


# ---------------------------------------------------------------- hits
@entry
def _to_body(px, py, pz, pos, R, cg):
    """A world point in body axes from the datum (pos = the CG's NED position)."""
    dx = px - pos[0]
    dy = py - pos[1]
    dz = pz - pos[2]
    return (R[0, 0] * dx + R[1, 0] * dy + R[2, 0] * dz + cg[0],
            R[0, 1] * dx + R[1, 1] * dy + R[2, 1] * dz + cg[1],
            R[0, 2] * dx + R[1, 2] * dy + R[2, 2] * dz + cg[2])


@entry
def _slab(o, d, lo, hi, t0, t1):
    """Clip the parameter interval [t0, t1] of o + t d to lo <= x <= hi."""
    if abs(d) < 1e-12:
        if o < lo or o > hi:
            return 1.0, 0.0
        return t0, t1
    a = (lo - o) / d
    c = (hi - o) / d
    if a > c:
        a, c = c, a
    if a > t0:
        t0 = a
    if c < t1:
        t1 = c
    return t0, t1


def set_damage(model, section, value):
    """Set one section's battle damage (0 intact .. 1 shot away) outside the hit test (tests,
    repairs): keeps the model's "damaged" flag, which the aero kernel reads first, in step."""
    r0 = int(model[0, H_ROW_SECTION])
    model[r0 + section, SEC_DAMAGE] = min(max(float(value), 0.0), 1.0)
    n = int(model[0, H_N_SECTIONS])
    model[0, H_DAMAGED] = 1.0 if np.any(model[r0:r0 + n, SEC_DAMAGE] > 0.0) else 0.0


def clear_damage(model):
    r0 = int(model[0, H_ROW_SECTION])
    model[r0:r0 + int(model[0, H_N_SECTIONS]), SEC_DAMAGE] = 0.0
    model[0, H_DAMAGED] = 0.0


@entry
def section_box(model, row):
    """(centre x y z, half chord, half span, half thickness) of a section's box, body axes."""
    c = model[row, SEC_CHORD]
    tc = model[row, SEC_THICKNESS]
    if int(model[row, SEC_GROUP]) == GROUP_BODY:
        t = model[row, SEC_SPAN]            # a fuselage plate: as deep as it is wide
    elif tc > 0.0:
        t = tc * c
    else:
        t = 0.12 * c
    # the box runs from the leading edge (c/4 ahead of the quarter-chord point) to the trailing edge
    cx = model[row, SEC_POS] - 0.25 * c * model[row, SEC_CHORD_AX]
    cy = model[row, SEC_POS + 1] - 0.25 * c * model[row, SEC_CHORD_AX + 1]
    cz = model[row, SEC_POS + 2] - 0.25 * c * model[row, SEC_CHORD_AX + 2]
    return cx, cy, cz, 0.5 * c, 0.5 * model[row, SEC_SPAN], 0.5 * t


@entry
def hit_radius(model, cg):
    """Radius around the CG that holds every section box (the cheap early-out)."""
    r = 0.0
    row0 = int(model[0, H_ROW_SECTION])
    for i in range(int(model[0, H_N_SECTIONS])):
        cx, cy, cz, hc, hs, ht = section_box(model, row0 + i)
        d = math.sqrt((cx - cg[0]) ** 2 + (cy - cg[1]) ** 2 + (cz - cg[2]) ** 2) + math.sqrt(hc * hc + hs * hs + ht * ht)
        if d > r:
            r = d
    return r


@entry
def segment_hits_sections(model, ax, ay, az, bx, by, bz):
    """First section box the body-axes segment a -> b enters: (section index, t 0..1), or (-1, 2)."""
    row0 = int(model[0, H_ROW_SECTION])
    best = -1
    best_t = 2.0
    dx = bx - ax
    dy = by - ay
    dz = bz - az
    for i in range(int(model[0, H_N_SECTIONS])):
        row = row0 + i
        cx, cy, cz, hc, hs, ht = section_box(model, row)
        # segment in the section's own axes (chord, span, normal)
        ox = ax - cx
        oy = ay - cy
        oz = az - cz
        t0 = 0.0
        t1 = 1.0
        for k in range(3):
            if k == 0:
                c = SEC_CHORD_AX
                h = hc
            elif k == 1:
                c = SEC_SPAN_AX
                h = hs
            else:
                c = SEC_NORMAL
                h = ht
            o = ox * model[row, c] + oy * model[row, c + 1] + oz * model[row, c + 2]
            d = dx * model[row, c] + dy * model[row, c + 1] + dz * model[row, c + 2]
            t0, t1 = _slab(o, d, -h, h, t0, t1)
            if t0 > t1:
                break
        if t0 <= t1 and t0 < best_t:
            best = i
            best_t = t0
    return best, best_t


@entry
def segment_hits_parts(model, state, ax, ay, az, bx, by, bz, calibre_mm, he):
    """The component hit box the body-axes segment a -> b strikes: (part index, t 0..1,
    propeller part crossed before it or -1); part -1 when none (``state``: the target's, for
    the drop tanks it still carries). Armour that stops the
    calibre (or any armour, for a high-explosive shell: ``he``) is struck and ends the round;
    armour that does not, and the propeller's disc, let it through."""
    r0 = int(model[0, H_ROW_PART])
    best = -1
    best_t = 2.0
    prop = -1
    prop_t = 2.0
    for i in range(int(model[0, H_N_PARTS])):
        row = r0 + i
        kind = int(model[row, PT_KIND])
        t0 = 0.0
        t1 = 1.0
        t0, t1 = _slab(ax, bx - ax, model[row, PT_POS] - model[row, PT_HALF], model[row, PT_POS] + model[row, PT_HALF],
                       t0, t1)
        if t0 > t1:
            continue
        t0, t1 = _slab(ay, by - ay, model[row, PT_POS + 1] - model[row, PT_HALF + 1],
                       model[row, PT_POS + 1] + model[row, PT_HALF + 1], t0, t1)
        if t0 > t1:
            continue
        t0, t1 = _slab(az, bz - az, model[row, PT_POS + 2] - model[row, PT_HALF + 2],
                       model[row, PT_POS + 2] + model[row, PT_HALF + 2], t0, t1)
        if t0 > t1:
            continue
        if kind == PART_TANK and not tank_carried(model, state, tank_row(model, int(model[row, PT_INDEX]))):
            continue                            # a drop tank not carried (or dropped)
        if kind == PART_PROPELLER:
            if t0 < prop_t:
                prop = i
                prop_t = t0
            continue
        if kind == PART_ARMOUR and calibre_mm > model[row, PT_STOPS] and not he:
            continue                            # (a high-explosive shell bursts on the plate)
        if t0 < best_t:
            best = i
            best_t = t0
    if prop_t > best_t:
        prop = -1
    return best, best_t, prop


@entry
def collide_aircraft(b, model, state, target_id, pos0, R0, pos1, R1, cg, radius, hits, n_hits):
    """Test every live bullet's last segment against one aircraft (pose at the start of the
    tick pos0/R0, at its end pos1/R1). Hit bullets stop; the hit section's SEC_DAMAGE grows.
    Hits are appended to ``hits`` from row n_hits; returns the new count."""
    nsec_row0 = int(model[0, H_ROW_SECTION])
    r2 = (radius + 1.0) ** 2
    for i in range(b.shape[0]):
        if b[i, B_ALIVE] < 0.5 or int(b[i, B_OWNER]) == target_id:
            continue
        # early out: the segment's closest approach to the CG (relative motion) beyond the radius
        ax, ay, az = _to_body(b[i, B_PREV], b[i, B_PREV + 1], b[i, B_PREV + 2], pos0, R0, cg)
        bx, by, bz = _to_body(b[i, B_POS], b[i, B_POS + 1], b[i, B_POS + 2], pos1, R1, cg)
        dx = bx - ax
        dy = by - ay
        dz = bz - az
        ll = dx * dx + dy * dy + dz * dz
        t = 0.0
        if ll > 0.0:
            t = ((cg[0] - ax) * dx + (cg[1] - ay) * dy + (cg[2] - az) * dz) / ll
            t = min(max(t, 0.0), 1.0)
        qx = ax + t * dx - cg[0]
        qy = ay + t * dy - cg[1]
        qz = az + t * dz - cg[2]
        if qx * qx + qy * qy + qz * qz > r2:
            continue
        sec, th = segment_hits_sections(model, ax, ay, az, bx, by, bz)
        part, tp, prop = segment_hits_parts(model, state, ax, ay, az, bx, by, bz, b[i, B_CALIBRE], b[i, B_HE] > 0.5)
        if part >= 0 and sec >= 0 and tp < th:
            sec = -1                        # stopped by the component before it reached the section
        if sec < 0 and part < 0:
            continue
        t_hit = th if sec >= 0 else tp
        if sec >= 0:
            row = nsec_row0 + sec
            area = model[row, SEC_AREA]
            d = model[row, SEC_DAMAGE] + b[i, B_HIT_AREA] / area
            model[row, SEC_DAMAGE] = d if d < 1.0 else 1.0
            model[0, H_DAMAGED] = 1.0
        if part >= 0 and tp > t_hit:
            t_hit = tp
        b[i, B_ALIVE] = 0.0
        if n_hits < hits.shape[0]:
            hits[n_hits, 0] = i
            hits[n_hits, 1] = 0.0
            hits[n_hits, 2] = target_id
            hits[n_hits, 3] = sec
            hits[n_hits, 4] = ax + t_hit * dx
            hits[n_hits, 5] = ay + t_hit * dy
            hits[n_hits, 6] = az + t_hit * dz
            hits[n_hits, 7] = b[i, B_OWNER]
            hits[n_hits, 8] = part
            hits[n_hits, 9] = prop + 1 if (prop >= 0 and part >= 0) else 0
            hits[n_hits, 10] = b[i, B_GUN]
            n_hits += 1
    return n_hits


@entry
def collide_spheres(b, spheres, hits, n_hits):
    """Test every live bullet's last segment against fixed spheres (rows: north, east, down,
    radius, alive). Hit bullets stop. Returns the new hit count (hits: kind 1, index, -1,
    the point NED)."""
    for i in range(b.shape[0]):
        if b[i, B_ALIVE] < 0.5:
            continue
        ax = b[i, B_PREV]
        ay = b[i, B_PREV + 1]
        az = b[i, B_PREV + 2]
        dx = b[i, B_POS] - ax
        dy = b[i, B_POS + 1] - ay
        dz = b[i, B_POS + 2] - az
        ll = dx * dx + dy * dy + dz * dz
        if ll <= 0.0:
            continue
        for s in range(spheres.shape[0]):
            if spheres[s, 4] < 0.5:
                continue
            ox = ax - spheres[s, 0]
            oy = ay - spheres[s, 1]
            oz = az - spheres[s, 2]
            r = spheres[s, 3]
            # |o + t d|^2 = r^2
            bq = ox * dx + oy * dy + oz * dz
            cq = ox * ox + oy * oy + oz * oz - r * r
            disc = bq * bq - ll * cq
            if disc < 0.0:
                continue
            t = (-bq - math.sqrt(disc)) / ll
            if cq < 0.0:
                t = 0.0                      # started inside
            if t < 0.0 or t > 1.0:
                continue
            b[i, B_ALIVE] = 0.0
            if n_hits < hits.shape[0]:
                hits[n_hits, 0] = i
                hits[n_hits, 1] = 1.0
                hits[n_hits, 2] = s
                hits[n_hits, 3] = -1.0
                hits[n_hits, 4] = ax + t * dx
                hits[n_hits, 5] = ay + t * dy
                hits[n_hits, 6] = az + t * dz
                hits[n_hits, 7] = b[i, B_OWNER]
                hits[n_hits, 8] = -1.0
                hits[n_hits, 9] = 0.0
                hits[n_hits, 10] = b[i, B_GUN]
                n_hits += 1
            break
    return n_hits
