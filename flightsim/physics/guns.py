"""Guns on the airframe: recoil while the trigger is held, rounds leaving the belts.

Seed 000: "Firing your guns has an effect upon your aircraft too. The recoil imparts a
momentary force on the airplane in the area of the weapon which can slow you down and
torque the aircraft ... if a Hurricane Mk II's left wings are knocked out, firing the
right wing guns will cause significant yaw."

A machine gun firing ``rate`` rounds a second pushes back on its mount with the mean
force ``rate * J``, J the momentum each round carries away (the bullet's ``m v`` plus
the propellant gas's, compiled into GUN_IMPULSE by aircraft_data/guns.py). At 800 rounds a
minute a round leaves every 75 ms, a little longer than a 20 ms step: the kernel applies
the mean force (the impulse the rounds of one step carry), which is what moves the
aircraft; the individual kicks are far faster than anything the airframe responds to.
The force acts along -boresight through the muzzle, so it slows the aircraft, and a
gun off the centre line also yaws it (and pitches it, by its height off the CG).

* ``gun_forces`` (inside the derivative): recoil into fm, rounds left into diag.
* ``guns_advance`` (once per step): the rounds fired this step leave the belts; the
  mass re-sum (plant_mass.resum_mass) takes their weight off.
"""
from .jit import kernel
from .ground import add_force_at

from .layout import (
    C_FIRE, D_AMMO, D_RECOIL, E_DT, GUN_AMMO, GUN_DIR, GUN_IMPULSE, GUN_POS, GUN_RATE, H_N_GUNS, H_ROW_GUN,
    M_CG, ROW_MASS, S_GUN_FIRED,
)


@kernel
def gun_forces(model, state, ctrl, env, fm, diag):
    """Mean recoil of every gun that fires this step (trigger held, rounds left) into fm
    (force 0..2, moment about the CG 3..5, body axes); rounds left and the total recoil
    force into diag.

    Slots read: state S_GUN_FIRED; env E_DT.
    Slots written: diag D_AMMO, D_RECOIL.
    """
    n = int(model[0, H_N_GUNS])
    g0 = int(model[0, H_ROW_GUN])
    dt = env[E_DT]
    firing = ctrl[C_FIRE] > 0.5
    left = 0.0
    total = 0.0
    cgx = model[ROW_MASS, M_CG]
    cgy = model[ROW_MASS, M_CG + 1]
    cgz = model[ROW_MASS, M_CG + 2]
    for i in range(n):
        row = g0 + i
        remaining = model[row, GUN_AMMO] - state[S_GUN_FIRED + i]
        if remaining <= 0.0:
            continue
        left += remaining
        if not firing:
            continue
        per_step = model[row, GUN_RATE] * dt
        share = remaining / per_step if remaining < per_step else 1.0   # the last rounds of the belt
        f = -share * model[row, GUN_RATE] * model[row, GUN_IMPULSE]
        add_force_at(f * model[row, GUN_DIR], f * model[row, GUN_DIR + 1], f * model[row, GUN_DIR + 2],
                     model[row, GUN_POS] - cgx, model[row, GUN_POS + 1] - cgy, model[row, GUN_POS + 2] - cgz, fm)
        total -= f
    diag[D_AMMO] = left
    diag[D_RECOIL] = total


@kernel
def guns_advance(model, state, ctrl, dt):
    """The rounds fired this step leave the belts (fractional rounds accumulate: a gun at
    800 rounds/min fires 0.27 rounds per 20 ms step); firing stops when a belt is empty.

    Slots read: state S_GUN_FIRED.
    Slots written: state S_GUN_FIRED.
    """
    if ctrl[C_FIRE] <= 0.5:
        return
    n = int(model[0, H_N_GUNS])
    g0 = int(model[0, H_ROW_GUN])
    for i in range(n):
        row = g0 + i
        fired = state[S_GUN_FIRED + i] + model[row, GUN_RATE] * dt
        ammo = model[row, GUN_AMMO]
        state[S_GUN_FIRED + i] = fired if fired < ammo else ammo
