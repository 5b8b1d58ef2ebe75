"""Systems damage (seed 000): hits on components, then leaks, heat, wear and fire as rates.

Seed 000: "Damage to an engine can occur due to overheating, oil loss, coolant loss, or
physical trauma ... Overheating is the end result from an oil or coolant leak, and will
degrade and eventually seize the engine"; radiators are separate components ("a hit to
one will only knock out half the system"); "Fuel tanks can leak, catch fire, and explode.
The effect depends on type (self-sealing tanks can seal minor damage), the kind of damage
... and on contents (an empty tank obviously is in no danger of exploding)".

Two halves, like the winch (a force set between ticks, used inside them):

* ``apply_hit`` (Python, called by the world between ticks for each bullet that struck a
  component box, ballistics.collide_aircraft): turns the round (calibre, kind) into a hole
  and the hole into the component's new state: a leak rate (Torricelli through the hole at
  the circuit's pressure), a share of engine power lost, a tank set burning, a pilot
  wounded, a control run cut. Random outcomes (does an incendiary light the vapour, does a
  round through the propeller disc strike a blade) draw from the generator the caller
  passes, so a seeded world is repeatable; a test passes a generator that always or never.
* the kernels, once per tick inside the step (``damage_advance``) and inside the
  powerplant's derivative (``cooling_factors``, ``engine_factor``, ``oil_pressure``):

  - coolant and oil drain at their leak rates; a radiator's heat rejection and the
    circuit's heat capacity fall with the coolant left in it (two radiators: each carries
    half; losing one halves the capacity, the other still cools), so the engine heat
    balance the powerplant already has overheats the engine;
  - the engine wears while its coolant is past the book limit (rate growing as the
    square of how far toward the failure temperature it is; at the failure temperature
    it seizes at once), while the oil is past its limit, and while the oil pressure is
    below 40 % of normal at speed (bearings); wear takes up to half the power; at 1 the
    engine seizes and the rotor stops (plant.py);
  - fuel tanks leak as the square root of their fill (the head over the hole); a
    self-sealing tank's leak dies away at its sealing rate; a burning tank burns fuel at
    a rate, reaches the tanks near it after a while, and explodes after burning long
    enough with fuel left in it (an empty tank does not; it burns out);
    ``S_EXPLODED`` tells the world which tank went (it takes the wing or the aircraft).

numpy, numba and the standard library only.
"""
import math

from .jit import kernel
from .layout import (
    DM_BEARING_S, DM_COOLANT_DP, DM_COOLANT_KG, DM_FIRE_BURN, DM_FIRE_EXPLODE_S, DM_BLOCK_OIL, DM_FIRE_SPREAD_M,
    DM_FIRE_SPREAD_S, DM_FUSELAGE_HALF_Y, DM_SHARED, DM_METAL_CAP, DM_N_CORES, DM_OIL_DP, DM_OIL_KG,
    DM_OIL_METAL_CAP, DM_OIL_RPM, DM_OIL_T_FAIL, DM_OIL_T_LIMIT, DM_T_FAIL, DM_T_LIMIT, DM_WEAR_S,
    D_COOLANT_LEFT, D_ENGINE_HEALTH, D_FIRES, D_FUEL_LEAK, D_OIL_LEFT, D_SEIZED, EN_OMEGA_MAX, H_N_PARTS,
    H_N_TANKS, H_ROW_DMG, H_ROW_PART, H_ROW_PLANT, PART_ARMOUR, PART_ENGINE, PART_LINK_PITCH,
    PART_LINK_ROLL, PART_LINK_YAW, PART_OIL_COOLER, PART_PILOT, PART_PROPELLER, PART_RADIATOR, PART_TANK,
    PLANT_ENGINE, PT_INDEX, PT_KIND, ROUND_HE, S_COOLANT_LEAK, S_COOLANT_LOST, S_COOLANT_T,
    S_ENG_OMEGA, S_ENGINE_HIT, S_ENGINE_WEAR, S_EXPLODED, S_FUEL_USED, S_LINK_CUT, S_OIL_LEAK, S_OIL_LOST,
    S_OIL_T, S_PILOT_WOUND, S_PROP_DAMAGE, S_TANK_FIRE, S_TANK_LEAK, S_TANK_SEAL, TK_CAPACITY, TK_FUEL, TK_POS,
    TK_SEAL_MM, TK_SIZE,
)
from .layout import (
    D_OIL_PRESSURE, GROUP_WING, H_N_SECTIONS, H_ROW_SECTION, N_TANK_MAX, PT_POS, ROUND_NAMES, SEC_GROUP, SEC_POS,
)
from .stores import tank_carried, tank_fuel, tank_row

# --------------------------------------------------------------------- the hit's effects
LEAK_CD = 0.62              # discharge coefficient of a sharp-edged hole
COOLANT_DENSITY = 1070.0    # kg/m3, 30-50 % ethylene glycol in water
OIL_DENSITY = 880.0
FUEL_DENSITY = 720.0        # aviation petrol
# a round through a radiator core opens only the tubes it cuts, not a hole its own size:
# the holes' flow area as a share of the round's cross-section (the matrix is mostly air
# passages and fins). An assumption, stated in docs/research/damage_systems.md.
CORE_HOLE_SHARE = 0.25
HE_HOLE_SCALE = 4.0         # a high-explosive shell's hole, in calibres (a 20 mm mine shell tears ~ 8 cm)
ENGINE_HIT_SHARE = 0.010    # power lost per mm of calibre of a round that strikes the engine (20 mm HE: x2)
ENGINE_COOLANT_CHANCE = 0.4  # ... and the chance that it also opens the block's coolant jacket
ENGINE_OIL_CHANCE = 0.3      # ... or an oil line
ENGINE_HOLE_SHARE = 0.3      # those holes' flow area, a share of the round's cross-section
PILOT_WOUND_PER_MM = 0.035  # 7.7 mm: 0.27, 12.7 mm: 0.44, 20 mm: 0.7 (HE: x1.2); killed at 1
LINK_CUT_PER_MM = 0.06      # a control run struck by a 12.7 mm round: 0.76 of its force lost
LINK_STRIKE = 0.25          # chance that a round through a control run's box strikes the cable or rod in it
PROP_DAMAGE_PER_MM = 0.012  # thrust lost per mm of calibre of a round that strikes a blade
BLADE_STRIKE = 0.12         # chance that a round through the disc strikes a blade (blade area / disc)
SELF_SEAL_TAU_S = 8.0       # a self-sealing liner swells shut in about this many seconds
SEALED_KG_S = 1e-3          # a leak this small (a drip, 1 g/s) is sealed
FIRE_CHANCE = (0.0, 0.02, 0.25, 0.35)   # a tank struck by ball / AP / incendiary / HE, with vapour over the fuel
FIRE_CHANCE_FULL = 0.25     # with no vapour (a brim-full tank) the chance is this share of it
SEALED_FIRE_SHARE = 0.3     # a self-sealing tank that closes the hole catches fire this much less often


def hole_area_m2(calibre_mm: float, kind: int) -> float:
    d = calibre_mm * 1e-3 * (HE_HOLE_SCALE if kind == ROUND_HE else 1.0)
    return math.pi / 4.0 * d * d


def leak_rate_kg_s(area_m2: float, dp_pa: float, density: float) -> float:
    """Torricelli through a sharp-edged hole: Cd A sqrt(2 rho dp)."""
    return LEAK_CD * area_m2 * math.sqrt(2.0 * density * max(dp_pa, 0.0))


def part_rows(model):
    r0 = int(model[0, H_ROW_PART])
    return model[r0:r0 + int(model[0, H_N_PARTS])] if r0 > 0 else model[0:0]


def apply_hit(model, state, part: int, calibre_mm: float, kind, rng) -> str:
    """One round (calibre in mm, kind: ROUND_* or its name, "ball", "ap", "incendiary", "he")
    strikes hit box ``part``: change the aircraft's damage state and say what happened (for the
    debrief), '' if nothing did. ``rng``: a numpy Generator (its ``random()`` decides the chance
    outcomes).

    Slots read: state S_ENGINE_HIT, S_LINK_CUT, S_PILOT_WOUND, S_PROP_DAMAGE.
    Slots written: state S_COOLANT_LEAK, S_ENGINE_HIT, S_LINK_CUT, S_OIL_LEAK, S_PILOT_WOUND,
      S_PROP_DAMAGE.
    """
    if isinstance(kind, str):
        kind = ROUND_NAMES.index(kind)
    d = int(model[0, H_ROW_DMG])
    row = part_rows(model)[part]
    k = int(row[PT_KIND])
    idx = int(row[PT_INDEX])
    he = kind == ROUND_HE
    area = hole_area_m2(calibre_mm, kind)
    if k == PART_ENGINE:
        share = ENGINE_HIT_SHARE * calibre_mm * (2.0 if he else 1.0)
        state[S_ENGINE_HIT] = min(1.0, state[S_ENGINE_HIT] + share)
        out = f"engine hit: {100 * share:.0f} % power lost"
        # the block's coolant jacket and the oil lines run through the engine bay
        if d > 0 and rng.random() < ENGINE_COOLANT_CHANCE:
            rate = leak_rate_kg_s(ENGINE_HOLE_SHARE * area, model[d, DM_COOLANT_DP], COOLANT_DENSITY) / model[d, DM_COOLANT_KG]
            n = max(int(model[d, DM_N_CORES]), 1)
            for i in range(n):
                state[S_COOLANT_LEAK + i] += rate
            out += ", coolant leaking"
        if d > 0 and rng.random() < ENGINE_OIL_CHANCE:
            state[S_OIL_LEAK] += leak_rate_kg_s(ENGINE_HOLE_SHARE * area, model[d, DM_OIL_DP], OIL_DENSITY) / model[d, DM_OIL_KG]
            out += ", oil leaking"
        return out
    if k == PART_RADIATOR:
        if d <= 0:
            return ""
        n = max(int(model[d, DM_N_CORES]), 1)
        rate = leak_rate_kg_s(CORE_HOLE_SHARE * area, model[d, DM_COOLANT_DP], COOLANT_DENSITY)
        if model[d, DM_SHARED] > 0.5:
            for i in range(n):              # one circuit through every radiator: it all drains
                state[S_COOLANT_LEAK + i] += rate / model[d, DM_COOLANT_KG]
        else:
            state[S_COOLANT_LEAK + idx] += rate / (model[d, DM_COOLANT_KG] / n)
        return f"radiator {idx + 1} holed: coolant leaking {rate:.2f} kg/s"
    if k == PART_OIL_COOLER:
        if d <= 0:
            return ""
        rate = leak_rate_kg_s(CORE_HOLE_SHARE * area, model[d, DM_OIL_DP], OIL_DENSITY)
        state[S_OIL_LEAK] += rate / model[d, DM_OIL_KG]
        return f"oil cooler holed: oil leaking {rate:.2f} kg/s"
    if k == PART_TANK:
        return _tank_hit(model, state, idx, calibre_mm, kind, area, rng)
    if k == PART_PROPELLER:
        if rng.random() >= BLADE_STRIKE:
            return ""
        share = PROP_DAMAGE_PER_MM * calibre_mm * (2.0 if he else 1.0)
        state[S_PROP_DAMAGE] = min(1.0, state[S_PROP_DAMAGE] + share)
        return f"propeller blade hit: {100 * share:.0f} % thrust lost"
    if k == PART_PILOT:
        w = PILOT_WOUND_PER_MM * calibre_mm * (1.2 if he else 1.0)
        state[S_PILOT_WOUND] = min(1.0, state[S_PILOT_WOUND] + w)
        return "pilot killed" if state[S_PILOT_WOUND] >= 1.0 else "pilot wounded"
    if k in (PART_LINK_PITCH, PART_LINK_ROLL, PART_LINK_YAW):
        if rng.random() >= LINK_STRIKE:
            return ""                   # through the box, past the cable or rod
        a = k - PART_LINK_PITCH
        state[S_LINK_CUT + a] = min(1.0, state[S_LINK_CUT + a] + LINK_CUT_PER_MM * calibre_mm * (2.0 if he else 1.0))
        what = ("elevator", "aileron", "rudder")[a]
        return f"{what} controls severed" if state[S_LINK_CUT + a] >= 1.0 else f"{what} controls damaged"
    if k == PART_ARMOUR:
        return "armour struck"
    return ""


def _tank_hit(model, state, i, calibre_mm, kind, area, rng) -> str:
    """Slots read: state S_TANK_FIRE, S_TANK_SEAL.
    Slots written: state S_TANK_FIRE, S_TANK_LEAK, S_TANK_SEAL.
    """
    row = tank_row(model, i)
    if not tank_carried(model, state, row):
        return ""                               # a drop tank not carried (or gone)
    fuel = tank_fuel(model, state, row, i)
    if fuel <= 0.0:
        return f"tank {i + 1} hit (empty)"
    cap = model[row, TK_CAPACITY]
    fill = min(fuel / cap, 1.0)
    # the head over a hole low in the tank: the fuel's depth
    head = model[row, TK_SIZE + 2] * fill
    rate = leak_rate_kg_s(area, FUEL_DENSITY * 9.81 * max(head, 0.05), FUEL_DENSITY) / math.sqrt(fill)
    state[S_TANK_LEAK + i] += rate
    seal_mm = model[row, TK_SEAL_MM]
    sealed = seal_mm > 0.0 and calibre_mm <= seal_mm and kind != ROUND_HE
    if sealed and state[S_TANK_SEAL + i] >= 0.0:
        state[S_TANK_SEAL + i] = 1.0 / SELF_SEAL_TAU_S
    else:
        state[S_TANK_SEAL + i] = -1.0           # a hole too big for the liner: it stays open for good
    out = f"tank {i + 1} holed: fuel leaking {rate * math.sqrt(fill):.2f} kg/s" + (", sealing" if sealed else "")
    if state[S_TANK_FIRE + i] == 0.0:
        chance = FIRE_CHANCE[kind] * (FIRE_CHANCE_FULL + (1.0 - FIRE_CHANCE_FULL) * (1.0 - fill))
        if sealed:
            chance *= SEALED_FIRE_SHARE     # the liner closes before much fuel sprays into the incendiary's flash
        if rng.random() < chance:
            state[S_TANK_FIRE + i] = 1e-6
            out += ", on fire"
    return out


def start_fire(model, state, tank: int) -> None:
    """Set a tank burning (tests, scripted events).

    Slots read: none.
    Slots written: state S_TANK_FIRE.
    """
    state[S_TANK_FIRE + tank] = 1e-6


def drain(model, state, tank: int) -> None:
    """Empty a tank (its fuel counted as used).

    Slots read: none.
    Slots written: state S_FUEL_USED.
    """
    state[S_FUEL_USED + tank] = model[tank_row(model, tank), TK_FUEL]


# --------------------------------------------------------------------- kernels
@kernel
def engine_factor(model, state):
    """(share of its power the engine can still make, 1 if seized). No damage data: (1, 0), but
    for an engine failed outright (a scenario's scripted failure sets the hit to 1 on any aircraft).

    Slots read: state S_ENGINE_HIT, S_ENGINE_WEAR.
    Slots written: none.
    """
    hit = state[S_ENGINE_HIT]
    wear = state[S_ENGINE_WEAR]
    if hit >= 1.0 or wear >= 1.0:
        return 0.0, 1.0
    if model[0, H_ROW_DMG] <= 0.0:
        return 1.0, 0.0
    return (1.0 - hit) * (1.0 - 0.5 * wear), 0.0


@kernel
def cooling_factors(model, state, cap_c, cap_o):
    """(coolant radiators' share still cooling, coolant circuit heat capacity J/K, oil
    cooler's share, oil circuit heat capacity J/K), from the full-system capacities.

    Slots read: state S_COOLANT_LOST, S_OIL_LOST.
    Slots written: none.
    """
    d = int(model[0, H_ROW_DMG])
    if d <= 0:
        return 1.0, cap_c, 1.0, cap_o
    n = int(model[d, DM_N_CORES])
    fc = 0.0
    for i in range(n):
        fc += 1.0 - state[S_COOLANT_LOST + i]
    fc /= n
    fo = 1.0 - state[S_OIL_LOST]
    metal = model[d, DM_METAL_CAP]
    oil_metal = model[d, DM_OIL_METAL_CAP]
    # (a sound circuit keeps its capacity to the bit: metal + (cap - metal) need not round to cap)
    if fc < 1.0:
        cap_c = metal + (cap_c - metal) * fc
    if fo < 1.0:
        cap_o = oil_metal + (cap_o - oil_metal) * fo
    return fc, cap_c, fo, cap_o


@kernel
def block_to_oil(model, t_block):
    """Heat (W) an engine past its coolant limit gives its oil: DM_BLOCK_OIL W/K times how far
    past the limit it is (none below it: the normal heat balance stays as the data set it)."""
    d = int(model[0, H_ROW_DMG])
    if d <= 0:
        return 0.0
    x = t_block - model[d, DM_T_LIMIT]
    return model[d, DM_BLOCK_OIL] * x if x > 0.0 else 0.0


@kernel
def oil_pressure(model, state, omega, t_oil):
    """Oil pressure (gauge, Pa): the pump's full pressure from DM_OIL_RPM up (as the root of
    the speed below it), falling as the oil runs out (none below 5 % left, full above 35 %)
    and as hot oil thins past its limit.

    Slots read: state S_OIL_LOST.
    Slots written: none.
    """
    d = int(model[0, H_ROW_DMG])
    if d <= 0 or omega <= 0.0:
        return 0.0
    x = omega / model[d, DM_OIL_RPM]
    p = model[d, DM_OIL_DP] * (math.sqrt(x) if x < 1.0 else 1.0)
    left = 1.0 - state[S_OIL_LOST]
    f = (left - 0.05) / 0.30
    if f < 1.0:
        p *= f if f > 0.0 else 0.0
    hot = (t_oil - model[d, DM_OIL_T_LIMIT]) / (model[d, DM_OIL_T_FAIL] - model[d, DM_OIL_T_LIMIT])
    if hot > 0.0:
        p *= max(0.3, 1.0 - 0.5 * hot)
    return p


@kernel
def _over(t, limit, fail):
    """How far a temperature is from its limit toward failure, 0 .. 1 (> 1 failed)."""
    x = (t - limit) / (fail - limit)
    return x if x > 0.0 else 0.0


@kernel
def damage_advance(model, state, diag, p_oil, dt):
    """One tick of leaks, wear and fire (see the module docstring). p_oil: this step's oil
    pressure, Pa.

    Slots read: state S_COOLANT_LEAK, S_COOLANT_LOST, S_COOLANT_T, S_ENGINE_WEAR, S_ENG_OMEGA,
      S_EXPLODED, S_OIL_LEAK, S_OIL_LOST, S_OIL_T, S_TANK_FIRE, S_TANK_LEAK, S_TANK_SEAL.
    Slots written: state S_COOLANT_LOST, S_ENGINE_WEAR, S_EXPLODED, S_FUEL_USED, S_OIL_LOST,
      S_TANK_FIRE, S_TANK_LEAK; diag D_COOLANT_LEFT, D_ENGINE_HEALTH, D_FIRES, D_FUEL_LEAK,
      D_OIL_LEFT, D_SEIZED.

    Long: one tick of every leak, wear and fire. One numba kernel, kept whole: a split changes which
    code numba inlines and so the last bits of the kept regression flights (physics/jit.py).
    """
    d = int(model[0, H_ROW_DMG])
    if d <= 0:
        return
    base = int(model[0, H_ROW_PLANT])
    # --- coolant and oil drain
    n = int(model[d, DM_N_CORES])
    left = 0.0
    for i in range(n):
        x = state[S_COOLANT_LOST + i] + state[S_COOLANT_LEAK + i] * dt
        state[S_COOLANT_LOST + i] = x if x < 1.0 else 1.0
        left += 1.0 - state[S_COOLANT_LOST + i]
    x = state[S_OIL_LOST] + state[S_OIL_LEAK] * dt
    state[S_OIL_LOST] = x if x < 1.0 else 1.0
    # --- wear: heat and oil starvation
    omega = state[S_ENG_OMEGA]
    wear = state[S_ENGINE_WEAR]
    if wear < 1.0 and state[S_COOLANT_T] > 100.0:
        xc = _over(state[S_COOLANT_T], model[d, DM_T_LIMIT], model[d, DM_T_FAIL])
        xo = _over(state[S_OIL_T], model[d, DM_OIL_T_LIMIT], model[d, DM_OIL_T_FAIL])
        if xc >= 1.0 or xo >= 1.0:
            wear = 1.0
        else:
            rate = 4.0 * (xc * xc + xo * xo) / model[d, DM_WEAR_S]
            w_max = model[base + PLANT_ENGINE, EN_OMEGA_MAX]
            starve = 1.0 - p_oil / (0.4 * model[d, DM_OIL_DP])
            if starve > 0.0 and omega > 0.1 * w_max:
                rate += starve * (omega / w_max) / model[d, DM_BEARING_S]
            wear += rate * dt
            if wear > 1.0:
                wear = 1.0
        state[S_ENGINE_WEAR] = wear
    # --- fuel: leaks, sealing, fire, spread, explosion
    n_t = int(model[0, H_N_TANKS])
    row0 = tank_row(model, 0)
    fires = 0
    leaking = 0.0
    for i in range(n_t):
        if state[S_TANK_LEAK + i] == 0.0 and state[S_TANK_FIRE + i] <= 0.0:
            continue                                    # sound and not burning: nothing to do
        row = row0 + i
        fuel = tank_fuel(model, state, row, i)
        if fuel <= 0.0:
            if state[S_TANK_FIRE + i] > 0.0:
                state[S_TANK_FIRE + i] = -1.0           # burned out (or dropped): no fuel, no explosion
            state[S_TANK_LEAK + i] = 0.0
            continue
        fill = fuel / model[row, TK_CAPACITY]
        leak = state[S_TANK_LEAK + i] * math.sqrt(fill if fill < 1.0 else 1.0)
        if state[S_TANK_SEAL + i] > 0.0:
            state[S_TANK_LEAK + i] *= math.exp(-state[S_TANK_SEAL + i] * dt)
            if state[S_TANK_LEAK + i] < SEALED_KG_S:
                state[S_TANK_LEAK + i] = 0.0            # down to a drip: sealed
        burning = state[S_TANK_FIRE + i] > 0.0
        lost = (leak + (model[d, DM_FIRE_BURN] if burning else 0.0)) * dt
        if lost > fuel:
            lost = fuel
        state[S_FUEL_USED + i] += lost
        leaking += leak
        if not burning:
            continue
        fires += 1
        t = state[S_TANK_FIRE + i] + dt
        state[S_TANK_FIRE + i] = t
        if fuel - lost <= 1e-9:
            state[S_TANK_FIRE + i] = -1.0
            continue
        if t >= model[d, DM_FIRE_EXPLODE_S] and state[S_EXPLODED] == 0.0:
            state[S_EXPLODED] = i + 1.0
        if t >= model[d, DM_FIRE_SPREAD_S]:
            for j in range(n_t):
                if j == i or state[S_TANK_FIRE + j] != 0.0:
                    continue
                dx = model[row0 + j, TK_POS] - model[row, TK_POS]
                dy = model[row0 + j, TK_POS + 1] - model[row, TK_POS + 1]
                dz = model[row0 + j, TK_POS + 2] - model[row, TK_POS + 2]
                if dx * dx + dy * dy + dz * dz <= model[d, DM_FIRE_SPREAD_M] ** 2 and \
                        tank_fuel(model, state, row0 + j, j) > 0.0:
                    state[S_TANK_FIRE + j] = 1e-6
    hf, seized = engine_factor(model, state)
    diag[D_COOLANT_LEFT] = left / n
    diag[D_OIL_LEFT] = 1.0 - state[S_OIL_LOST]
    diag[D_ENGINE_HEALTH] = hf
    diag[D_SEIZED] = seized
    diag[D_FIRES] = fires
    diag[D_FUEL_LEAK] = leaking


def tank_is_in_fuselage(model, tank: int) -> bool:
    row = tank_row(model, tank)
    d = int(model[0, H_ROW_DMG])
    half = model[d, DM_FUSELAGE_HALF_Y] if d > 0 else 0.5
    return abs(model[row, TK_POS + 1]) <= half



# --------------------------------------------------------------------- the world's side
def explode(model, state) -> str:
    """If a tank has exploded (the kernel set S_EXPLODED), take what it takes and say so, once:
    a fuselage tank takes the aircraft (every section shot away, the engine and the pilot
    with it), a wing tank its wing (that side's wing sections shot away; their mass leaves
    the sum). '' when nothing exploded since the last call.

    Slots read: state S_EXPLODED.
    Slots written: state S_ENGINE_HIT, S_EXPLODED, S_PILOT_WOUND, S_TANK_FIRE.
    """
    from .ballistics import set_damage
    k = int(state[S_EXPLODED])
    if k <= 0:
        return ""
    state[S_EXPLODED] = -k                      # handled
    tank = k - 1
    drain(model, state, tank)
    state[S_TANK_FIRE + tank] = -1.0
    n = int(model[0, H_N_SECTIONS])
    r0 = int(model[0, H_ROW_SECTION])
    if tank_is_in_fuselage(model, tank):
        for i in range(n):
            set_damage(model, i, 1.0)
        state[S_ENGINE_HIT] = 1.0
        state[S_PILOT_WOUND] = 1.0
        return f"tank {tank + 1} exploded: the aircraft broke up"
    side = 1.0 if model[tank_row(model, tank), TK_POS + 1] > 0 else -1.0
    for i in range(n):
        row = r0 + i
        if int(model[row, SEC_GROUP]) == GROUP_WING and model[row, SEC_POS + 1] * side > 0.3:
            set_damage(model, i, 1.0)
    return f"tank {tank + 1} exploded: the {'right' if side > 0 else 'left'} wing is gone"


SMOKE_KINDS = ("coolant", "oil", "fuel", "fire", "engine")


def smoke_points(model, state, diag) -> tuple:
    """What an aircraft trails now, ((kind, (x, y, z) body axes from the datum, strength 0..1), ...):
    coolant vapour from each leaking radiator, oil smoke from the oil cooler, a mist from each
    leaking tank, fire from each burning one, dark smoke from a failing engine's exhaust.

    Slots read: state S_COOLANT_LEAK, S_COOLANT_LOST, S_ENGINE_HIT, S_ENGINE_WEAR, S_ENG_OMEGA,
      S_OIL_LEAK, S_OIL_LOST, S_TANK_FIRE, S_TANK_LEAK.
    Slots written: none.
    """
    d = int(model[0, H_ROW_DMG])
    if d <= 0:
        return ()
    out = []
    parts = part_rows(model)
    for row in parts:
        k = int(row[PT_KIND])
        i = int(row[PT_INDEX])
        pos = (float(row[PT_POS]), float(row[PT_POS + 1]), float(row[PT_POS + 2]))
        if k == PART_RADIATOR and state[S_COOLANT_LEAK + i] > 0.0 and state[S_COOLANT_LOST + i] < 1.0:
            out.append(("coolant", pos, min(1.0, state[S_COOLANT_LEAK + i] * 100.0)))
        elif k == PART_OIL_COOLER and state[S_OIL_LEAK] > 0.0 and state[S_OIL_LOST] < 1.0:
            out.append(("oil", pos, min(1.0, state[S_OIL_LEAK] * 100.0)))
        elif k == PART_TANK:
            if state[S_TANK_FIRE + i] > 0.0:
                out.append(("fire", pos, 1.0))
            elif diag is not None and state[S_TANK_LEAK + i] > 1e-3:
                out.append(("fuel", pos, min(1.0, state[S_TANK_LEAK + i] * 2.0)))
        elif k == PART_ENGINE:
            hot = state[S_ENGINE_WEAR] > 0.05 or state[S_ENGINE_HIT] > 0.2
            if hot and state[S_ENG_OMEGA] > 1.0 or state[S_ENGINE_HIT] >= 1.0:
                out.append(("engine", pos, min(1.0, state[S_ENGINE_WEAR] + state[S_ENGINE_HIT])))
    return tuple(out)


def damage_summary(model, state, diag=None) -> dict:
    """The damage a pilot (or the AI, or a test) can read, SI units with the unit in the key.
    An aircraft without damage data reads as sound.

    Slots read: state S_COOLANT_LEAK, S_COOLANT_LOST, S_ENGINE_WEAR, S_EXPLODED, S_LINK_CUT,
      S_OIL_LEAK, S_OIL_LOST, S_PILOT_WOUND, S_PROP_DAMAGE, S_TANK_FIRE; diag D_FUEL_LEAK,
      D_OIL_PRESSURE.
    Slots written: none.
    """
    d = int(model[0, H_ROW_DMG])
    n = max(int(model[d, DM_N_CORES]), 1) if d > 0 else 1
    hf, seized = engine_factor(model, state)
    return {
        "coolant_left": 1.0 - sum(float(state[S_COOLANT_LOST + i]) for i in range(n)) / n,
        "coolant_leaking": any(state[S_COOLANT_LEAK + i] > 0.0 and state[S_COOLANT_LOST + i] < 1.0 for i in range(n)),
        # every radiator's circuit losing coolant (one shared circuit, or both separate ones): the
        # engine will run dry; one of two separate circuits still holds, at half the capacity
        "coolant_failing": all(state[S_COOLANT_LEAK + i] > 0.0 for i in range(n)),
        "oil_leaking": bool(state[S_OIL_LEAK] > 0.0 and state[S_OIL_LOST] < 1.0),
        "oil_left": 1.0 - float(state[S_OIL_LOST]),
        "engine_health": float(hf),
        "seized": bool(seized > 0.5),
        "engine_wear": float(state[S_ENGINE_WEAR]),
        "fires": int(sum(1 for i in range(N_TANK_MAX) if state[S_TANK_FIRE + i] > 0.0)),
        "fuel_leak_kg_s": float(diag[D_FUEL_LEAK]) if diag is not None else 0.0,
        "oil_pressure_pa": float(diag[D_OIL_PRESSURE]) if diag is not None else 0.0,
        "propeller_damage": float(state[S_PROP_DAMAGE]),
        "pilot_wound": float(state[S_PILOT_WOUND]),
        "link_cut": float(max(state[S_LINK_CUT], state[S_LINK_CUT + 1], state[S_LINK_CUT + 2])),
        "exploded": bool(state[S_EXPLODED] != 0.0),
        # the limits the warning lights compare with (the aircraft's [damage] data)
        "coolant_limit_k": float(model[d, DM_T_LIMIT]) if d > 0 else 1e9,
        "oil_limit_k": float(model[d, DM_OIL_T_LIMIT]) if d > 0 else 1e9,
        "oil_pressure_normal_pa": float(model[d, DM_OIL_DP]) if d > 0 else 0.0,
    }
