"""Stores (seed 000): bombs, drop tanks and missiles as mass and drag until they are released.

A store is a row of the model (layout ST_*): its mass, box, drag area and, for a drop
tank, the fuel tank row it carries (that tank feeds the engine like any other until the
tank goes). The model's ST_LOADED is the loadout (which stores this flight carries); the
state's S_STORE_GONE marks one released. Each derivative the mass re-sum
(plant_mass.resum_mass) counts the stores still on and ``store_forces`` adds their drag at
their positions (so an asymmetric load also yaws); ``stores_advance``, once per tick,
releases them on the pilot's command (C_DROP_TANKS, C_DROP_BOMBS). A released store's
mass and inertia leave the sum that same cycle: the aircraft is lighter and, with its
wing loads gone, quicker in roll ("more spritely after dropping some heavy bombs").
A missile store is a row of ST_COUNT rounds of one weapon: the world launches them one at a
time (world/armament.release_round), S_STORE_GONE holding the share launched, and the row's
mass and drag are carried in proportion to the rounds still on.

numpy, numba and the standard library only.
"""
import math

from .jit import kernel
from .ground import add_force_at
from .layout import (
    C_DROP_BOMBS, C_DROP_TANKS, D_STORE_DRAG, D_STORE_MASS, H_N_PROP_ST, H_N_STORES, H_ROW_PLANT, H_ROW_STORE, M_CG,
    PLANT_STATIONS, ROW_MASS,
    S_FUEL_USED, S_STORE_GONE, ST_CDA, ST_KIND, ST_LOADED, ST_MASS, ST_POS, ST_TANK, ST_TANK_ROW, STORE_BOMB,
    STORE_DROP_TANK, TK_FUEL,
    TK_STORE,
)


@kernel
def store_on(model, state, k):
    """Store k is loaded for this flight and not yet released (a missile row: a round still on).

    Slots read: state S_STORE_GONE.
    Slots written: none.
    """
    row = int(model[0, H_ROW_STORE]) + k
    return model[row, ST_LOADED] > 0.5 and state[S_STORE_GONE + k] < 1.0


@kernel
def tank_row(model, i):
    """The model row of fuel tank i (the powerplant block's tank rows)."""
    return int(model[0, H_ROW_PLANT]) + PLANT_STATIONS + int(model[0, H_N_PROP_ST]) + i


@kernel
def tank_carried(model, state, row):
    """The tank in model row ``row`` is aboard: an internal tank, or a drop tank whose store is on."""
    s = int(model[row, TK_STORE])
    return s <= 0 or store_on(model, state, s - 1)


@kernel
def tank_fuel(model, state, row, i):
    """Fuel in tank i (its model row ``row``), kg: 0 when it hangs on a store that is not on.

    Slots read: state S_FUEL_USED.
    Slots written: none.
    """
    if not tank_carried(model, state, row):
        return 0.0
    f = model[row, TK_FUEL] - state[S_FUEL_USED + i]
    return f if f > 0.0 else 0.0


@kernel
def store_forces(model, state, rho, ax, ay, az, fm, diag):
    """The drag of every store still on, at its position (body axes; ax, ay, az the velocity
    of the CG through the air); the stores' mass and drag to diag.

    Slots read: state S_FUEL_USED, S_STORE_GONE.
    Slots written: diag D_STORE_DRAG, D_STORE_MASS.
    """
    r0 = int(model[0, H_ROW_STORE])
    n = int(model[0, H_N_STORES])
    tas = math.sqrt(ax * ax + ay * ay + az * az)
    mass = 0.0
    drag = 0.0
    for k in range(n):
        if not store_on(model, state, k):
            continue
        row = r0 + k
        share = 1.0 - state[S_STORE_GONE + k]        # a missile row's rounds still on (1 otherwise)
        mass += model[row, ST_MASS] * share
        t = int(model[row, ST_TANK])
        if t > 0:
            # the fuel it carries (the tank row found through the powerplant block)
            from_row = int(model[row, ST_TANK_ROW])
            f = model[from_row, TK_FUEL] - state[S_FUEL_USED + t - 1]
            if f > 0.0:
                mass += f
        k_drag = -0.5 * rho * tas * model[row, ST_CDA] * share
        drag += -k_drag * tas
        add_force_at(k_drag * ax, k_drag * ay, k_drag * az, model[row, ST_POS] - model[ROW_MASS, M_CG],
                     model[row, ST_POS + 1] - model[ROW_MASS, M_CG + 1],
                     model[row, ST_POS + 2] - model[ROW_MASS, M_CG + 2], fm)
    diag[D_STORE_MASS] = mass
    diag[D_STORE_DRAG] = drag


@kernel
def stores_advance(model, state, ctrl):
    """Release the stores the pilot asks for: all drop tanks, all bombs (missiles are launched,
    one at a time, by the world).

    Slots read: none.
    Slots written: state S_STORE_GONE.
    """
    r0 = int(model[0, H_ROW_STORE])
    tanks = ctrl[C_DROP_TANKS] > 0.5
    bombs = ctrl[C_DROP_BOMBS] > 0.5
    if not (tanks or bombs):
        return
    for k in range(int(model[0, H_N_STORES])):
        kind = int(model[r0 + k, ST_KIND])
        if (kind == STORE_DROP_TANK and tanks) or (kind == STORE_BOMB and bombs):
            state[S_STORE_GONE + k] = 1.0
