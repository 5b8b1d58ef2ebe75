"""Guided missiles as physical bodies (issue 35): a point mass with its motor, drag, lift limited by
angle of attack and by the airframe's g limit, a seeker and proportional navigation.

A missile flies trimmed: its autopilot turns the airframe to the angle of attack whose normal force
gives the acceleration guidance asks for, so the body is not integrated in rotation. Each sub-step
(SUB_DT):

* **motor**: thrust interpolated in its thrust-time curve along the velocity; the propellant burns
  in proportion to the impulse delivered (one specific impulse), so the mass falls from launch to
  burnout as the data file's propellant says;
* **guidance**: true proportional navigation, a = N' Vc (Omega x u) with u the line of sight and
  Omega its rate, plus the lift that holds the missile up against gravity; a radar missile launched
  beyond ``loft_launch_range`` first climbs at ``loft_angle`` until ``loft_off_range`` to go or
  until the target lies ``loft_depression`` below it;
* **seeker**: the target must stay within the gimbal limit of the missile's axis (taken along its
  velocity) and the line of sight must turn slower than the track rate, or the track is lost for
  good and the missile flies on unguided; a radar missile's own seeker counts only inside its
  ``active_range`` (before that the launcher's datalink guides it);
* **aerodynamics**: the acceleration normal to the velocity needs a normal-force coefficient CN =
  a m / (q S), got at alpha = CN / CN_alpha; it is limited by alpha_max and by the g limit. Drag:
  q S (CD0(M), boost or coast, + CN sin alpha);
* **fuze**: once armed, the closest approach within the sub-step (relative motion straight across
  it) within ``proximity`` detonates the warhead: a hit where that is within ``lethal_radius``.

The flight ends at detonation, on the ground, at self-destruct, when the missile has fallen below
``min_mach`` after burnout, or when, armed and past the target, the range opens.

Model layout (one float64 row, ``MD_*``), from flightsim/weapons/data.py; state (``MS_*``).
Imports numpy, numba and the standard library only.
"""
from __future__ import annotations

import math

from .atmosphere import isa
from .jit import kernel

G0 = 9.80665
SUB_DT = 0.005                 # s: 4 sub-steps per 50 Hz tick (a missile at Mach 3 moves 5 m in one)

# ---- model row
MD_S_REF = 0
MD_MASS0 = 1
MD_PROPELLANT = 2
MD_IMPULSE = 3
MD_ALPHA_MAX = 4
MD_G_LIMIT = 5
MD_GIMBAL = 6
MD_FOV = 7
MD_TRACK_RATE = 8
MD_ACTIVE_RANGE = 9
MD_NAV_GAIN = 10
MD_ARMING_S = 11
MD_SELF_DESTRUCT_S = 12
MD_MIN_MACH = 13
MD_LOFT_RANGE = 14
MD_LOFT_ANGLE = 15
MD_LOFT_OFF = 16
MD_FUZE = 17
MD_LETHAL = 18
MD_N_THRUST = 19
MD_N_MACH = 20
MD_BURN_END = 21               # the thrust curve's last time, s
MD_LOFT_DEPRESSION = 22        # the loft ends once the target lies this far below the missile, rad
MD_TABLES = 24                 # thrust table (time[n], thrust[n]) then the Mach table
#                                (mach[m], cd0_boost[m], cd0_coast[m], cn_alpha per rad[m])

# ---- state
MS_POS = 0                     # 0..2 NED, m
MS_VEL = 3                     # 3..5 NED, m/s
MS_MASS = 6
MS_TIME = 7                    # s since launch
MS_STATUS = 8                  # ST_*
MS_TRACKING = 9                # 1 guided, 0 track lost
MS_CLOSEST = 10                # closest approach so far, m
MS_BURNOUT_MACH = 11           # Mach at burnout (0 before)
MS_MAX_G = 12                  # the largest normal load factor pulled, g
MS_IMPULSE = 13                # impulse delivered so far, N s
MS_LAUNCH_RANGE = 14           # range to the target at launch, m
MS_LOFTING = 15                # 1 while climbing in the loft
MS_AXIS = 16                   # 16..18 the launch rail's axis (NED unit vector)
N_MS = 19
AXIS_SPEED = 30.0              # m/s: slower than this (off a launcher at rest) the thrust is along the
#                                rail's axis, not the velocity (no lift yet to turn the flight path)

ST_FLYING, ST_HIT, ST_MISS_FUZED, ST_GROUND, ST_SELF_DESTRUCT, ST_NO_ENERGY, ST_PASSED = 0, 1, 2, 3, 4, 5, 6
STATUS_NAMES = ("flying", "hit", "fuzed, outside the lethal radius", "hit the ground", "self-destructed",
                "too slow to steer", "passed the target")


@kernel
def _interp(model, x0, n, col, x):
    """Linear interpolation in the model row's table at offset ``x0`` (n abscissae), column ``col``
    (0: the abscissae themselves; 1..: the values after them), held at the ends."""
    if x <= model[x0]:
        return model[x0 + col * n]
    if x >= model[x0 + n - 1]:
        return model[x0 + col * n + n - 1]
    for i in range(n - 1):
        a = model[x0 + i]
        b = model[x0 + i + 1]
        if x <= b:
            f = (x - a) / (b - a)
            return model[x0 + col * n + i] + f * (model[x0 + col * n + i + 1] - model[x0 + col * n + i])
    return model[x0 + col * n + n - 1]


@kernel
def thrust_at(model, t):
    """Motor thrust (N) at ``t`` s after ignition (0 after the curve's end)."""
    n = int(model[MD_N_THRUST])
    if t >= model[MD_BURN_END] or t < 0.0:
        return 0.0
    return _interp(model, MD_TABLES, n, 1, t)


@kernel
def launch(ms, model, pos, vel, target_pos):
    """A missile leaving the rail at ``pos`` with the launcher's velocity ``vel`` (NED), guided from
    the start.

    Slots written: missile state MS_POS, MS_VEL, MS_MASS, MS_TIME, MS_STATUS, MS_TRACKING,
      MS_CLOSEST, MS_BURNOUT_MACH, MS_MAX_G, MS_IMPULSE, MS_LAUNCH_RANGE, MS_LOFTING, MS_AXIS."""
    for k in range(3):
        ms[MS_POS + k] = pos[k]
        ms[MS_VEL + k] = vel[k]
    ms[MS_MASS] = model[MD_MASS0]
    ms[MS_TIME] = 0.0
    ms[MS_STATUS] = ST_FLYING
    ms[MS_TRACKING] = 1.0
    r = math.sqrt((target_pos[0] - pos[0]) ** 2 + (target_pos[1] - pos[1]) ** 2 + (target_pos[2] - pos[2]) ** 2)
    # the rail's axis: along the launcher's velocity, or (a launcher at rest) at the target
    v = math.sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2])
    for k in range(3):
        if v >= 1.0:
            ms[MS_AXIS + k] = vel[k] / v
        elif r > 1e-6:
            ms[MS_AXIS + k] = (target_pos[k] - pos[k]) / r
        else:
            ms[MS_AXIS + k] = 1.0 if k == 0 else 0.0
    ms[MS_CLOSEST] = r
    ms[MS_BURNOUT_MACH] = 0.0
    ms[MS_MAX_G] = 0.0
    ms[MS_IMPULSE] = 0.0
    ms[MS_LAUNCH_RANGE] = r
    ms[MS_LOFTING] = 1.0 if model[MD_LOFT_RANGE] > 0.0 and r > model[MD_LOFT_RANGE] else 0.0


@kernel
def guidance(ms, model, rx, ry, rz, wx, wy, wz, ux, uy, uz, v, gravity):
    """The acceleration (NED, m/s^2) guidance asks for: proportional navigation on the line of sight
    r (missile to target) and the relative velocity w, plus the lift against gravity across the
    flight path, or the loft's climb; nothing once the track is lost. The seeker (when its own)
    loses the track for good past its gimbal limit or its track rate.

    Slots read: missile state MS_TRACKING, MS_LOFTING; model MD_ACTIVE_RANGE, MD_GIMBAL,
      MD_TRACK_RATE, MD_NAV_GAIN, MD_LOFT_OFF, MD_LOFT_DEPRESSION, MD_LOFT_ANGLE.
    Slots written: missile state MS_TRACKING, MS_LOFTING."""
    rng = math.sqrt(rx * rx + ry * ry + rz * rz)
    ax = 0.0
    ay = 0.0
    az = 0.0
    if ms[MS_TRACKING] > 0.0 and rng > 1e-3:
        lx, ly, lz = rx / rng, ry / rng, rz / rng
        own = model[MD_ACTIVE_RANGE] <= 0.0 or rng <= model[MD_ACTIVE_RANGE]
        # line-of-sight rate Omega = (r x w) / r^2
        ox = (ry * wz - rz * wy) / (rng * rng)
        oy = (rz * wx - rx * wz) / (rng * rng)
        oz = (rx * wy - ry * wx) / (rng * rng)
        if own:
            look = math.acos(min(1.0, max(-1.0, lx * ux + ly * uy + lz * uz)))
            if look > model[MD_GIMBAL] or math.sqrt(ox * ox + oy * oy + oz * oz) > model[MD_TRACK_RATE]:
                ms[MS_TRACKING] = 0.0
        if ms[MS_TRACKING] > 0.0:
            vc = -(rx * wx + ry * wy + rz * wz) / rng
            k = model[MD_NAV_GAIN] * vc
            ax = k * (oy * lz - oz * ly)
            ay = k * (oz * lx - ox * lz)
            az = k * (ox * ly - oy * lx)
            # the lift that holds it up: gravity's part across the flight path
            gd = gravity * uz
            ax -= 0.0 - gd * ux
            ay -= 0.0 - gd * uy
            az -= gravity - gd * uz
            if ms[MS_LOFTING] > 0.0:
                # the loft ends at its range to go, or once the target lies the loft angle
                # below the missile (the climb has bought the height to dive from)
                if rng <= model[MD_LOFT_OFF] or lz >= math.sin(model[MD_LOFT_DEPRESSION]):
                    ms[MS_LOFTING] = 0.0
                else:
                    # climb at the loft angle: the vertical part of the command replaced by a
                    # flight-path loop (the horizontal steering kept)
                    hv = math.sqrt(ux * ux + uy * uy)
                    if hv < 1e-6:
                        hv = 1e-6
                    nx, ny, nz = uz * ux / hv, uz * uy / hv, -hv        # "up" across the path (NED)
                    gamma = math.asin(min(1.0, max(-1.0, -uz)))
                    a_up = 2.0 * (model[MD_LOFT_ANGLE] - gamma) * v + gravity * math.cos(gamma)
                    dot = ax * nx + ay * ny + az * nz
                    ax += (a_up - dot) * nx
                    ay += (a_up - dot) * ny
                    az += (a_up - dot) * nz
    return ax, ay, az


@kernel
def closest_approach(r0x, r0y, r0z, r1x, r1y, r1z):
    """(distance, fraction of the step) of the closest approach while the relative position moves
    straight from r0 to r1."""
    dx, dy, dz = r1x - r0x, r1y - r0y, r1z - r0z
    dd = dx * dx + dy * dy + dz * dz
    f = 0.0
    if dd > 0.0:
        f = min(1.0, max(0.0, -(r0x * dx + r0y * dy + r0z * dz) / dd))
    cx, cy, cz = r0x + f * dx, r0y + f * dy, r0z + f * dz
    return math.sqrt(cx * cx + cy * cy + cz * cz), f


@kernel
def airframe(model, m0, n_mach, ax, ay, az, ux, uy, uz, mach, qs, mass, boosting):
    """What the airframe makes of a commanded acceleration: its part across the velocity (the lift
    turns, not the thrust), limited by the lift at the trim angle limit and by the g limit; the
    angle of attack that gives it (CN / CN_alpha) and the drag, q S (CD0 + CN sin alpha).
    Returns (ax, ay, az, |a|, alpha, drag).

    Slots read: model MD_G_LIMIT, MD_ALPHA_MAX and the Mach table.
    Slots written: none."""
    along = ax * ux + ay * uy + az * uz
    ax -= along * ux
    ay -= along * uy
    az -= along * uz
    a_n = math.sqrt(ax * ax + ay * ay + az * az)
    cna = _interp(model, m0, n_mach, 3, mach)
    a_lim = model[MD_G_LIMIT] * G0
    if qs > 0.0:
        a_lift = cna * model[MD_ALPHA_MAX] * qs / mass
        if a_lift < a_lim:
            a_lim = a_lift
    if a_n > a_lim:
        f = a_lim / a_n
        ax *= f
        ay *= f
        az *= f
        a_n = a_lim
    alpha = 0.0
    cn = 0.0
    if qs > 0.0 and cna > 0.0:
        cn = a_n * mass / qs
        alpha = cn / cna
    cd0 = _interp(model, m0, n_mach, 1 if boosting else 2, mach)
    return ax, ay, az, a_n, alpha, qs * (cd0 + cn * math.sin(alpha))


@kernel
def ended(model, t, closest, frac, rng, down_m, mach):
    """The flight's status after a sub-step (ST_*): detonated once armed within the fuze's reach (a
    hit within the lethal radius), on the ground, self-destructed, too slow to steer after burnout,
    or past the target (armed, the range opening within the sub-step, within 2 km); else flying.

    Slots read: model MD_ARMING_S, MD_FUZE, MD_LETHAL, MD_SELF_DESTRUCT_S, MD_BURN_END, MD_MIN_MACH.
    Slots written: none."""
    armed = t >= model[MD_ARMING_S]
    if armed and closest <= model[MD_FUZE]:
        return ST_HIT if closest <= model[MD_LETHAL] else ST_MISS_FUZED
    if down_m > 0.0:
        return ST_GROUND
    if t >= model[MD_SELF_DESTRUCT_S]:
        return ST_SELF_DESTRUCT
    if t > model[MD_BURN_END] and mach < model[MD_MIN_MACH]:
        return ST_NO_ENERGY
    if armed and frac < 1.0 and rng < 2000.0:
        return ST_PASSED                  # the range opened within the step: past the target
    return ST_FLYING


@kernel
def heading(ms, vx, vy, vz):
    """(ux, uy, uz, speed): the direction the missile flies and thrusts along, its velocity's, or
    below AXIS_SPEED (off a slow or still launcher) its rail's axis; the speed held at 1 m/s or more.

    Slots read: missile state MS_AXIS.
    Slots written: none."""
    v = math.sqrt(vx * vx + vy * vy + vz * vz)
    if v >= AXIS_SPEED:
        return vx / v, vy / v, vz / v, v
    return ms[MS_AXIS], ms[MS_AXIS + 1], ms[MS_AXIS + 2], max(v, 1.0)


@kernel
def missile_step(ms, model, target_pos, target_vel, dt, gravity):
    """Fly the missile ``dt`` seconds (sub-stepped at SUB_DT) against a target at ``target_pos``
    moving straight at ``target_vel`` (NED) over the step; returns its status (ST_*).

    Slots read: missile state MS_POS, MS_VEL, MS_MASS, MS_TIME, MS_STATUS, MS_TRACKING, MS_IMPULSE,
      MS_LAUNCH_RANGE, MS_LOFTING, MS_AXIS; model MD_*.
    Slots written: missile state MS_POS, MS_VEL, MS_MASS, MS_TIME, MS_STATUS, MS_TRACKING,
      MS_CLOSEST, MS_BURNOUT_MACH, MS_MAX_G, MS_IMPULSE, MS_LOFTING."""
    if ms[MS_STATUS] != ST_FLYING:
        return int(ms[MS_STATUS])
    n_sub = max(1, int(math.ceil(dt / SUB_DT - 1e-9)))
    h = dt / n_sub
    n_mach = int(model[MD_N_MACH])
    m0 = MD_TABLES + 2 * int(model[MD_N_THRUST])
    tx = target_pos[0]
    ty = target_pos[1]
    tz = target_pos[2]
    for _ in range(n_sub):
        px, py, pz = ms[MS_POS], ms[MS_POS + 1], ms[MS_POS + 2]
        vx, vy, vz = ms[MS_VEL], ms[MS_VEL + 1], ms[MS_VEL + 2]
        t = ms[MS_TIME]
        mass = ms[MS_MASS]
        ux, uy, uz, v = heading(ms, vx, vy, vz)
        temp, press, rho, sound = isa(-pz)
        mach = v / sound
        q = 0.5 * rho * v * v
        qs = q * model[MD_S_REF]
        thrust = thrust_at(model, t)
        # --- guidance: the acceleration asked for
        rx, ry, rz = tx - px, ty - py, tz - pz
        rng = math.sqrt(rx * rx + ry * ry + rz * rz)
        ax, ay, az = guidance(ms, model, rx, ry, rz, target_vel[0] - vx, target_vel[1] - vy, target_vel[2] - vz,
                              ux, uy, uz, v, gravity)
        ax, ay, az, a_n, alpha, drag = airframe(model, m0, n_mach, ax, ay, az, ux, uy, uz, mach, qs, mass,
                                                thrust > 0.0)
        along_acc = (thrust * math.cos(alpha) - drag) / mass
        # --- integrate (semi-implicit Euler)
        nvx = vx + (along_acc * ux + ax) * h
        nvy = vy + (along_acc * uy + ay) * h
        nvz = vz + (along_acc * uz + az + gravity) * h
        npx = px + nvx * h
        npy = py + nvy * h
        npz = pz + nvz * h
        # propellant burned with the impulse delivered
        if thrust > 0.0 and model[MD_IMPULSE] > 0.0:
            di = thrust * h
            ms[MS_IMPULSE] += di
            ms[MS_MASS] = model[MD_MASS0] - model[MD_PROPELLANT] * min(1.0, ms[MS_IMPULSE] / model[MD_IMPULSE])
        t_new = t + h
        if ms[MS_BURNOUT_MACH] == 0.0 and t_new >= model[MD_BURN_END]:
            ms[MS_BURNOUT_MACH] = math.sqrt(nvx * nvx + nvy * nvy + nvz * nvz) / sound
        g_pulled = a_n / G0
        if g_pulled > ms[MS_MAX_G]:
            ms[MS_MAX_G] = g_pulled
        # --- the closest approach across the sub-step (relative motion straight)
        ntx = tx + target_vel[0] * h
        nty = ty + target_vel[1] * h
        ntz = tz + target_vel[2] * h
        closest, s = closest_approach(px - tx, py - ty, pz - tz, npx - ntx, npy - nty, npz - ntz)
        if closest < ms[MS_CLOSEST]:
            ms[MS_CLOSEST] = closest
        ms[MS_POS] = npx
        ms[MS_POS + 1] = npy
        ms[MS_POS + 2] = npz
        ms[MS_VEL] = nvx
        ms[MS_VEL + 1] = nvy
        ms[MS_VEL + 2] = nvz
        ms[MS_TIME] = t_new
        tx, ty, tz = ntx, nty, ntz
        ms[MS_STATUS] = ended(model, t_new, closest, s, rng, npz,
                              math.sqrt(nvx * nvx + nvy * nvy + nvz * nvz) / sound)
        if ms[MS_STATUS] != ST_FLYING:
            break
    return int(ms[MS_STATUS])


@kernel
def fly_engagement(ms, model, target_pos, tvel, heading_rad, target_speed, turn_g, turn_to_rad, dt, t_max,
                   gravity, track):
    """Fly a launched missile (``launch`` done) against a target flying level at ``target_speed`` on
    ``heading_rad``, turning at ``turn_g`` (lateral, level) toward ``turn_to_rad`` (then straight),
    until the flight ends or ``t_max``; ``target_pos`` (NED) is moved along, ``tvel`` (3) holds its
    velocity (scratch: kernels allocate nothing). ``track`` (n, 6) gets
    the missile's and the target's positions each tick up to its length. Returns (status, ticks).

    Slots read: as missile_step.
    Slots written: as missile_step."""
    hd = heading_rad
    n = int(t_max / dt)
    ticks = 0
    for i in range(n):
        omega = 0.0
        if turn_g > 0.0 and target_speed > 1.0:
            err = (turn_to_rad - hd + math.pi) % (2.0 * math.pi) - math.pi
            rate = turn_g * G0 / target_speed
            if abs(err) > rate * dt:
                omega = rate if err > 0.0 else -rate
            else:
                hd = turn_to_rad
        tvel[0] = target_speed * math.cos(hd)
        tvel[1] = target_speed * math.sin(hd)
        tvel[2] = 0.0
        st = missile_step(ms, model, target_pos, tvel, dt, gravity)
        for k in range(3):
            target_pos[k] += tvel[k] * dt
        hd += omega * dt
        if i < track.shape[0]:
            for k in range(3):
                track[i, k] = ms[MS_POS + k]
                track[i, 3 + k] = target_pos[k]
        ticks = i + 1
        if st != ST_FLYING:
            return st, ticks
    return int(ms[MS_STATUS]), ticks
