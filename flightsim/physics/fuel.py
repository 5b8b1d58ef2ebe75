"""Fuel on board and fuel burned from the tanks in feed order (the powerplant block's tank rows),
shared by the piston engine (plant.py) and the jets (jet.py)."""
from .jit import kernel
from .layout import H_N_PROP_ST, H_N_TANKS, H_ROW_PLANT, PLANT_STATIONS, S_FUEL_USED, TK_PRIORITY
from .stores import tank_fuel


@kernel
def fuel_on_board(model, state):
    base = int(model[0, H_ROW_PLANT])
    n_t = int(model[0, H_N_TANKS])
    row0 = base + PLANT_STATIONS + int(model[0, H_N_PROP_ST])
    total = 0.0
    for i in range(n_t):
        total += tank_fuel(model, state, row0 + i, i)
    return total


@kernel
def burn_fuel(model, state, burn):
    """Take ``burn`` kg from the tanks that feed first (lowest priority number); equal ones in
    proportion to what they hold. A dry aircraft burns nothing (its engines stop).

    Slots read: none.
    Slots written: state S_FUEL_USED.
    """
    n_t = int(model[0, H_N_TANKS])
    row0 = int(model[0, H_ROW_PLANT]) + PLANT_STATIONS + int(model[0, H_N_PROP_ST])
    while burn > 1e-12:
        best = 1e30
        for i in range(n_t):
            if tank_fuel(model, state, row0 + i, i) > 1e-9 and model[row0 + i, TK_PRIORITY] < best:
                best = model[row0 + i, TK_PRIORITY]
        if best > 1e29:
            break                                     # dry: the engine stops
        avail = 0.0
        for i in range(n_t):
            if model[row0 + i, TK_PRIORITY] == best:
                avail += tank_fuel(model, state, row0 + i, i)
        take = burn if burn < avail else avail
        for i in range(n_t):
            if model[row0 + i, TK_PRIORITY] == best:
                f = tank_fuel(model, state, row0 + i, i)
                if f > 0.0:
                    state[S_FUEL_USED + i] += take * f / avail
        burn -= take
