"""The aircraft's mass, CG and inertia re-summed every step from the dry airframe, the fuel
left in each tank, the ammunition left in each box and the stores still on (resum_mass).
Split from plant.py, which calls it."""
from __future__ import annotations



from .jit import kernel
from .layout import (
    H_N_PROP_ST, H_N_TANKS, H_ROW_PLANT, M_CG, M_INERTIA, M_INV_INERTIA, M_MASS, PLANT_STATIONS, ROW_MASS,
    S_FUEL_USED, TK_FUEL, TK_POS, TK_SIZE,
)
from .layout import GUN_AMMO, GUN_BOX_POS, GUN_BOX_SIZE, GUN_ROUND_MASS, H_N_GUNS, H_ROW_DRY, H_ROW_GUN, S_GUN_FIRED
from .layout import (
    H_DAMAGED, H_N_SECTIONS, H_N_STORES, H_ROW_SECTION, H_ROW_STORE, H_STORES_LOADED, SEC_DAMAGE, SEC_MASS,
    SEC_POS, S_STORE_GONE, ST_MASS, ST_POS, ST_SIZE,
)
from .layout import (
    DM_COOLANT_KG, DM_N_CORES, DM_OIL_KG, H_N_PARTS, H_ROW_DMG, H_ROW_PART, PART_OIL_COOLER, PART_RADIATOR,
    PT_INDEX, PT_KIND, PT_POS, S_COOLANT_LOST, S_OIL_LOST,
)
from .stores import store_on, tank_carried


@kernel
def _box_inertia(m, lx, ly, lz, dx, dy, dz):
    """Inertia of a solid box of mass m and sides lx, ly, lz whose centre sits (dx, dy, dz)
    from the CG: (ixx, iyy, izz, ixy, ixz, iyz) to add to the aircraft's tensor (own
    inertia plus the parallel-axis shift; products of inertia with the tensor's sign)."""
    return (m * ((ly * ly + lz * lz) / 12.0 + dy * dy + dz * dz),
            m * ((lx * lx + lz * lz) / 12.0 + dx * dx + dz * dz),
            m * ((lx * lx + ly * ly) / 12.0 + dx * dx + dy * dy),
            -m * dx * dy, -m * dx * dz, -m * dy * dz)


@kernel
def _load_box(model, state, k, n_t, row0, g0, n_g):
    """Load k of what burns off, is fired or is released: tanks first (k < n_t), then gun
    belts, then stores: (mass kg, box sides lx, ly, lz, centre x, y, z). A tank's fuel is a
    box whose height shrinks with its fill, a belt a box whose length shrinks as it feeds,
    a store its own box while it is on. Mass <= 0: empty or gone.

    Slots read: state S_FUEL_USED, S_GUN_FIRED, S_STORE_GONE.
    Slots written: none.
    """
    if k < n_t:
        row = row0 + k
        cap = model[row, TK_FUEL]
        f = cap - state[S_FUEL_USED + k]
        if f <= 0.0 or not tank_carried(model, state, row):
            return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0     # empty, or a drop tank gone with its store
        fill = f / cap
        return (f, model[row, TK_SIZE], model[row, TK_SIZE + 1], model[row, TK_SIZE + 2] * fill,
                model[row, TK_POS], model[row, TK_POS + 1], model[row, TK_POS + 2])
    if k >= n_t + n_g:
        s = k - n_t - n_g
        if not store_on(model, state, s):
            return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        row = int(model[0, H_ROW_STORE]) + s
        # (a missile row: its rounds still on)
        return (model[row, ST_MASS] * (1.0 - state[S_STORE_GONE + s]), model[row, ST_SIZE], model[row, ST_SIZE + 1],
                model[row, ST_SIZE + 2],
                model[row, ST_POS], model[row, ST_POS + 1], model[row, ST_POS + 2])
    i = k - n_t
    row = g0 + i
    n_left = model[row, GUN_AMMO] - state[S_GUN_FIRED + i]
    f = n_left * model[row, GUN_ROUND_MASS]
    if n_left <= 0.0 or f <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    fill = n_left / model[row, GUN_AMMO]
    return (f, model[row, GUN_BOX_SIZE], model[row, GUN_BOX_SIZE + 1] * fill, model[row, GUN_BOX_SIZE + 2],
            model[row, GUN_BOX_POS], model[row, GUN_BOX_POS + 1], model[row, GUN_BOX_POS + 2])


@kernel
def resum_mass(model, state):
    """ROW_MASS = the dry aircraft plus the fuel left in each tank and the rounds left in
    each gun's ammunition box and the stores still on, less the sections shot away and the
    coolant and oil leaked away: mass,
    CG and the full inertia tensor (each tank's fuel a solid box whose height shrinks with
    its fill, each belt a box whose length shrinks as it feeds, a store its box, a section
    lost as a point mass at its quarter chord; parallel-axis shifted), and the inverse
    inertia. The dry row is
    model[0, H_ROW_DRY] (0: nothing burns off, nothing to do). Scalars only: no
    allocation per step.

    Slots read: state S_COOLANT_LOST, S_OIL_LOST.
    Slots written: none.

    Long: every mass item (tanks, ammunition, stores, sections shot away, coolant and oil lost)
    summed in one pass into mass, CG and inertia. One numba kernel, kept whole: a split changes
    which code numba inlines and so the last bits of the kept regression flights (physics/jit.py).
    """
    dry = int(model[0, H_ROW_DRY])
    if dry <= 0:
        return
    base = int(model[0, H_ROW_PLANT])
    n_t = int(model[0, H_N_TANKS]) if base > 0 else 0
    row0 = base + PLANT_STATIONS + int(model[0, H_N_PROP_ST])
    n_g = int(model[0, H_N_GUNS])
    g0 = int(model[0, H_ROW_GUN])
    n_s = int(model[0, H_N_STORES]) if model[0, H_STORES_LOADED] > 0.0 else 0
    # one pass: mass, first moments and the inertia tensor about the body origin, then the
    # tensor moved to the new CG (parallel axes: I_cg = I_origin - m (|c|^2 E - c c^T))
    I0 = M_INERTIA
    md = model[dry, M_MASS]
    dx = model[dry, M_CG]
    dy = model[dry, M_CG + 1]
    dz = model[dry, M_CG + 2]
    m = md
    sx = md * dx
    sy = md * dy
    sz = md * dz
    ixx = model[dry, I0] + md * (dy * dy + dz * dz)
    iyy = model[dry, I0 + 4] + md * (dx * dx + dz * dz)
    izz = model[dry, I0 + 8] + md * (dx * dx + dy * dy)
    ixy = model[dry, I0 + 1] - md * dx * dy
    ixz = model[dry, I0 + 2] - md * dx * dz
    iyz = model[dry, I0 + 5] - md * dy * dz
    for k in range(n_t + n_g + n_s):
        f, lx, ly, lz, px, py, pz = _load_box(model, state, k, n_t, row0, g0, n_g)
        if f <= 0.0:
            continue
        m += f
        sx += f * px
        sy += f * py
        sz += f * pz
        a, b, c, d, e, g = _box_inertia(f, lx, ly, lz, px, py, pz)
        ixx += a
        iyy += b
        izz += c
        ixy += d
        ixz += e
        iyz += g
    # what battle damage takes away, as point masses: sections shot away (a wingtip, a tail
    # surface: at their quarter chords; their own small inertia stays, under 1 % of the shift)
    # and the coolant and oil leaked away (from their radiators and oil cooler; the dry
    # aircraft holds them full)
    d = int(model[0, H_ROW_DMG])
    n_sec = int(model[0, H_N_SECTIONS]) if model[0, H_DAMAGED] > 0.0 else 0
    n_parts = int(model[0, H_N_PARTS]) if d > 0 and (state[S_COOLANT_LOST] > 0.0 or state[S_COOLANT_LOST + 1] > 0.0
                                                     or state[S_OIL_LOST] > 0.0) else 0
    for k in range(n_sec + n_parts):
        if k < n_sec:
            row = int(model[0, H_ROW_SECTION]) + k
            if model[row, SEC_DAMAGE] < 1.0 or model[row, SEC_MASS] <= 0.0:
                continue
            f = -model[row, SEC_MASS]
            c0 = SEC_POS
        else:
            row = int(model[0, H_ROW_PART]) + k - n_sec
            kind = int(model[row, PT_KIND])
            if kind == PART_RADIATOR:
                f = -state[S_COOLANT_LOST + int(model[row, PT_INDEX])] * model[d, DM_COOLANT_KG] / model[d, DM_N_CORES]
            elif kind == PART_OIL_COOLER:
                f = -state[S_OIL_LOST] * model[d, DM_OIL_KG]
            else:
                continue
            if f == 0.0:
                continue
            c0 = PT_POS
        px = model[row, c0]
        py = model[row, c0 + 1]
        pz = model[row, c0 + 2]
        m += f
        sx += f * px
        sy += f * py
        sz += f * pz
        ixx += f * (py * py + pz * pz)
        iyy += f * (px * px + pz * pz)
        izz += f * (px * px + py * py)
        ixy -= f * px * py
        ixz -= f * px * pz
        iyz -= f * py * pz
    cx = sx / m
    cy = sy / m
    cz = sz / m
    ixx -= m * (cy * cy + cz * cz)
    iyy -= m * (cx * cx + cz * cz)
    izz -= m * (cx * cx + cy * cy)
    ixy += m * cx * cy
    ixz += m * cx * cz
    iyz += m * cy * cz
    model[ROW_MASS, M_MASS] = m
    model[ROW_MASS, M_CG] = cx
    model[ROW_MASS, M_CG + 1] = cy
    model[ROW_MASS, M_CG + 2] = cz
    model[ROW_MASS, I0] = ixx
    model[ROW_MASS, I0 + 1] = ixy
    model[ROW_MASS, I0 + 2] = ixz
    model[ROW_MASS, I0 + 3] = ixy
    model[ROW_MASS, I0 + 4] = iyy
    model[ROW_MASS, I0 + 5] = iyz
    model[ROW_MASS, I0 + 6] = ixz
    model[ROW_MASS, I0 + 7] = iyz
    model[ROW_MASS, I0 + 8] = izz
    # inverse of the symmetric tensor (cofactors)
    c00 = iyy * izz - iyz * iyz
    c01 = ixz * iyz - ixy * izz
    c02 = ixy * iyz - ixz * iyy
    inv_det = 1.0 / (ixx * c00 + ixy * c01 + ixz * c02)
    c11 = (ixx * izz - ixz * ixz) * inv_det
    c12 = (ixy * ixz - ixx * iyz) * inv_det
    c22 = (ixx * iyy - ixy * ixy) * inv_det
    J = M_INV_INERTIA
    model[ROW_MASS, J] = c00 * inv_det
    model[ROW_MASS, J + 1] = c01 * inv_det
    model[ROW_MASS, J + 2] = c02 * inv_det
    model[ROW_MASS, J + 3] = c01 * inv_det
    model[ROW_MASS, J + 4] = c11
    model[ROW_MASS, J + 5] = c12
    model[ROW_MASS, J + 6] = c02 * inv_det
    model[ROW_MASS, J + 7] = c12
    model[ROW_MASS, J + 8] = c22
