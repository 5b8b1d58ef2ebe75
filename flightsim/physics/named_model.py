"""An aircraft's compiled data (the kernels' ``model`` matrix and ``tables``) by name.

The compiler (``flightsim.aircraft_data``) writes the model matrix; the kernels read it by the
layout's row and column constants. The AI, the combat world, the snapshot builder and the
validation cards read it through this view instead:

    data = AircraftData(sim.model, sim.tables)
    data.mass_kg, data.cg_m, data.powered, data.n_sections
    data.wing_sections                  # section numbers of the wing group
    data.section_deflections_rad(sim.state)
    data.section_slat_positions(sim.state)
    data.guns.muzzle_velocity_ms        # one value per gun

Reads give copies of scalars and views of the arrays (``section_damage`` is writable:
the hit test and the tests use it).
"""
from __future__ import annotations

import math

import numpy as np

from . import layout as L

GROUPS = {"wing": L.GROUP_WING, "htail": L.GROUP_HTAIL, "vtail": L.GROUP_VTAIL, "body": L.GROUP_BODY}


class Guns:
    """The gun rows of a model by name: each property is one value (or row) per gun."""
    __slots__ = ("rows",)

    def __init__(self, model: np.ndarray):
        g0 = int(model[0, L.H_ROW_GUN])
        self.rows = model[g0:g0 + int(model[0, L.H_N_GUNS])]

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def muzzle_m(self) -> np.ndarray:
        """(n, 3) muzzles, body axes from the datum, m."""
        return self.rows[:, L.GUN_POS:L.GUN_POS + 3]

    @property
    def boresight(self) -> np.ndarray:
        """(n, 3) unit boresights, body axes."""
        return self.rows[:, L.GUN_DIR:L.GUN_DIR + 3]

    @property
    def muzzle_velocity_ms(self) -> np.ndarray:
        return self.rows[:, L.GUN_MUZZLE_V]

    @property
    def rate_rps(self) -> np.ndarray:
        return self.rows[:, L.GUN_RATE]

    @property
    def ammo_rounds(self) -> np.ndarray:
        """Rounds loaded per gun."""
        return self.rows[:, L.GUN_AMMO]

    @property
    def bullet_drag_k(self) -> np.ndarray:
        """Bullet drag constant: deceleration = k rho v^2 Cd_G1(Mach), m2/kg."""
        return self.rows[:, L.GUN_DRAG_K]

    @property
    def hit_area_m2(self) -> np.ndarray:
        """Lifting surface one hit spoils, m2."""
        return self.rows[:, L.GUN_HIT_AREA]

    @property
    def recoil_impulse_ns(self) -> np.ndarray:
        """Recoil impulse per round (bullet plus propellant gas momentum), N s."""
        return self.rows[:, L.GUN_IMPULSE]


class AircraftData:
    """Named view over a compiled model matrix (and its airfoil tables, where given)."""

    def __init__(self, model: np.ndarray, tables: np.ndarray | None = None):
        self.model, self.tables = model, tables

    # ------------------------------------------------------------------ mass
    @property
    def mass_kg(self) -> float:
        """Mass as last summed (the kernels re-sum it as fuel and ammunition go)."""
        return float(self.model[L.ROW_MASS, L.M_MASS])

    @property
    def cg_m(self) -> np.ndarray:
        """Centre of gravity, body axes from the datum, m (a copy)."""
        return self.model[L.ROW_MASS, L.M_CG:L.M_CG + 3].copy()

    @property
    def inertia_kgm2(self) -> np.ndarray:
        return self.model[L.ROW_MASS, L.M_INERTIA:L.M_INERTIA + 9].reshape(3, 3).copy()

    # ------------------------------------------------------------------ parts
    @property
    def powered(self) -> bool:
        return self.model[0, L.H_ROW_PLANT] > 0

    @property
    def jets(self) -> int:
        """Jet engines installed (0: a piston engine and propeller, or none)."""
        return int(self.model[0, L.H_N_JETS])

    def _jet_engine(self) -> np.ndarray:
        return self.model[int(self.model[0, L.H_ROW_JET]) + L.JET_ROW_ENGINE]

    @property
    def military_throttle(self) -> float:
        """The throttle at a jet's military detent (afterburner above it); 1 for a piston engine."""
        return float(self._jet_engine()[L.JE_DETENT]) if self.jets else 1.0

    @property
    def jet_thrust_sls_n(self) -> tuple[float, float]:
        """(military, maximum afterburner) net thrust of one jet engine, sea level static, N."""
        e = self._jet_engine()
        return float(e[L.JE_MIL_N]), float(e[L.JE_AB_N])

    @property
    def jet_nozzles_m(self) -> np.ndarray:
        """(n, 3) the jets' nozzle exits, body axes from the datum."""
        j0 = int(self.model[0, L.H_ROW_JET]) + L.JET_ROW_INSTALL
        return self.model[j0:j0 + self.jets, L.JT_POS:L.JT_POS + 3]

    @property
    def fly_by_wire(self) -> bool:
        """A flight-control law sits between the stick and the surfaces (physics/fcs.py)."""
        return self.model[0, L.H_ROW_FCS] > 0

    def _fcs(self) -> np.ndarray:
        return self.model[int(self.model[0, L.H_ROW_FCS])]

    @property
    def g_limits(self) -> tuple[float, float]:
        """(positive, negative) load-factor limits of the flight-control law, g."""
        f = self._fcs()
        return float(f[L.FC_G_MAX]), float(f[L.FC_G_MIN])

    @property
    def g_limit_rolling(self) -> float:
        return float(self._fcs()[L.FC_G_ROLLING])

    @property
    def alpha_limit_rad(self) -> float:
        """The angle of attack the law does not pull past, rad."""
        return float(self._fcs()[L.FC_ALPHA_MAX])

    @property
    def roll_rate_limit_rads(self) -> float:
        return float(self._fcs()[L.FC_ROLL_RATE])

    def corner_speed_eas_ms(self, mass_kg: float) -> float:
        """An estimate of the corner speed (EAS, m/s): where the wing's and body's sections at their
        maximum lift give the law's g limit, sqrt(2 n W / (rho0 S CLmax)), S CLmax summed over them
        by the compiler (FC_LIFT_AREA; low speed: the tunnel's turn curves, flightsim.tools.maneuver, give
        the real one at each Mach). 0 without a law."""
        if not self.fly_by_wire:
            return 0.0
        lift = float(self._fcs()[L.FC_LIFT_AREA])
        return math.sqrt(2.0 * self.g_limits[0] * mass_kg * 9.80665 / (1.225 * lift)) if lift > 0.0 else 0.0

    @property
    def engine_row(self) -> int:
        """The engine's row (for physics.engine's kernels); -1 without one."""
        return int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_ENGINE if self.powered else -1

    @property
    def firing_rpm(self) -> float:
        """The slowest crankshaft speed at which the piston engine fires (rpm; 0 without one): a cut
        engine turned slower than this by its windmilling propeller is creeping, not windmilling."""
        if not self.powered or self.jets:
            return 0.0
        return float(self.model[self.engine_row, L.EN_OMEGA_FIRE]) * 30.0 / math.pi

    @property
    def carburettor(self) -> bool:
        """A float carburettor with a manual mixture lever and carburettor heat (physics/carburettor.py)."""
        return self.powered and not self.jets and self.model[self.engine_row, L.EN_CARBURETTOR] > 0.5

    @property
    def carburettor_ice_block_kg(self) -> float:
        """Ice that closes the carburettor's bore, kg (0 without a carburettor)."""
        return float(self.model[self.engine_row, L.EN_ICE_BLOCK_KG]) if self.carburettor else 0.0

    def tank_fuel_kg(self, state) -> np.ndarray:
        """Fuel in each tank, kg, in the aircraft file's order (empty without tanks)."""
        from .stores import tank_fuel, tank_row
        n = int(self.model[0, L.H_N_TANKS]) if self.powered else 0
        return np.array([tank_fuel(self.model, state, tank_row(self.model, i), i) for i in range(n)])

    def tank_sides(self) -> np.ndarray:
        """Each tank's side: -1 left wing, +1 right, 0 on the centreline (body y beyond 0.3 m)."""
        from .stores import tank_row
        n = int(self.model[0, L.H_N_TANKS]) if self.powered else 0
        y = np.array([self.model[tank_row(self.model, i), L.TK_POS + 1] for i in range(n)])
        return np.where(y > 0.3, 1.0, np.where(y < -0.3, -1.0, 0.0))

    @property
    def governor_range_rads(self) -> tuple[float, float]:
        """The governed crankshaft speed at the lever's minimum and maximum (prop_rpm 0 and 1), rad/s."""
        pr = int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_PROP
        return float(self.model[pr, L.PR_GOV_MIN]), float(self.model[pr, L.PR_GOV_MAX])

    @property
    def has_wep(self) -> bool:
        """Whether the piston engine has a war emergency rating above its military one: a higher
        manifold-pressure cap or a higher governed rpm (a normally aspirated trainer has neither:
        its full throttle is its one rating)."""
        pr = int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_PROP
        return bool(self.model[self.engine_row, L.EN_MAP_WEP] > self.model[self.engine_row, L.EN_MAP_MIL]
                    or self.model[pr, L.PR_GOV_MIL] > 0.0)

    def rating_rpm_rads(self, wep: bool) -> float:
        """The crankshaft speed of a full-power rating: the governor's top, without WEP its
        military rpm where the engine has one (DB 605 A: 2,600 against 2,800), rad/s."""
        pr = int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_PROP
        if not wep and self.model[pr, L.PR_GOV_MIL] > 0.0:
            return float(self.model[pr, L.PR_GOV_MIL])
        return float(self.model[self.engine_row, L.EN_OMEGA_MAX])

    def supercharger_gear_at(self, ambient_pressure_pa: float) -> float:
        """The gear the aneroid switch holds at this ambient pressure, climbing from below:
        1 (high) below its switch-up pressure on a two-speed supercharger, else 0."""
        sc = int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_SC
        two_speed = self.model[sc, L.SC_WORK_HIGH] > 0.0
        return 1.0 if two_speed and ambient_pressure_pa < self.model[sc, L.SC_UP_PA] else 0.0

    @property
    def propeller_gear_ratio(self) -> float:
        """Propeller rpm / crankshaft rpm (0 without a propeller)."""
        return float(self.model[self.engine_row, L.EN_GEAR]) if self.powered and not self.jets else 0.0

    @property
    def propeller_diameter_m(self) -> float:
        """The propeller's diameter (0 without one)."""
        if not self.powered or self.jets:
            return 0.0
        return 2.0 * float(self.model[int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_PROP, L.PR_RADIUS])

    @property
    def cooler_drag_areas_m2(self) -> np.ndarray:
        """(radiator closed, radiator open, oil cooler closed, oil cooler open) net drag areas, m2."""
        cool = self.model[int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_COOL]
        return np.array([cool[L.CL_RAD + L.CL_CDA_MIN], cool[L.CL_RAD + L.CL_CDA_MAX],
                         cool[L.CL_OIL + L.CL_CDA_MIN], cool[L.CL_OIL + L.CL_CDA_MAX]])

    @cooler_drag_areas_m2.setter
    def cooler_drag_areas_m2(self, areas) -> None:
        cool = int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_COOL
        a = [float(x) for x in areas]
        self.model[cool, L.CL_RAD + L.CL_CDA_MIN], self.model[cool, L.CL_RAD + L.CL_CDA_MAX] = a[0], a[1]
        self.model[cool, L.CL_OIL + L.CL_CDA_MIN], self.model[cool, L.CL_OIL + L.CL_CDA_MAX] = a[2], a[3]

    # changing the model in place (tests and studies: take a copy first, AircraftData(m.copy()))
    def remove_powerplant(self) -> None:
        """No engine, propeller or fuel tanks from now on (the glider of this airframe); the
        mass is still re-summed from the dry row (see freeze_mass)."""
        self.model[0, L.H_ROW_PLANT] = 0.0
        self.model[0, L.H_N_TANKS] = 0.0

    def freeze_mass(self) -> None:
        """Mass, CG and inertia stay as they are now: nothing is re-summed as fuel and rounds go."""
        self.model[0, L.H_ROW_DRY] = 0.0

    @property
    def mass_resummed(self) -> bool:
        """The kernels re-sum mass, CG and inertia from a dry row as fuel and rounds go (False:
        nothing to re-sum, e.g. a glider without guns, or after freeze_mass)."""
        return bool(self.model[0, L.H_ROW_DRY] > 0)

    def strip_to_rigid_body(self) -> None:
        """No lifting section, gear leg or ground contact from now on: the bare rigid body
        (mass, CG, inertia) under gravity, for tests of the equations of motion."""
        self.model[0, L.H_N_SECTIONS] = 0.0
        self.model[0, L.H_N_GEAR] = 0.0
        self.model[0, L.H_N_CONTACT] = 0.0

    def remove_slipstream(self) -> None:
        """No section sits in the propeller's slipstream any more (the propeller still pulls)."""
        self.section_slipstream_station[:] = -1.0

    @property
    def section_slipstream_station(self) -> np.ndarray:
        """Blade station whose slipstream each section sits in, -1: none (a writable view)."""
        return self._sections[:, L.SEC_WASH_K]

    def mirror_propeller(self) -> None:
        """Turn the propeller the other way round, with the swirl its slipstream throws on the
        sections (the mirror image of the aircraft's propeller)."""
        self.model[int(self.model[0, L.H_ROW_PLANT]) + L.PLANT_PROP, L.PR_SENSE] *= -1
        self._sections[:, L.SEC_WASH_SWY:L.SEC_WASH_SWZ + 1] *= -1

    @property
    def guns(self) -> Guns:
        return Guns(self.model)

    @property
    def damaged(self) -> bool:
        """Some section has battle damage."""
        return self.model[0, L.H_DAMAGED] > 0

    # ------------------------------------------------------------------ sections
    @property
    def n_sections(self) -> int:
        return int(self.model[0, L.H_N_SECTIONS])

    @property
    def _sections(self) -> np.ndarray:
        r0 = int(self.model[0, L.H_ROW_SECTION])
        return self.model[r0:r0 + self.n_sections]

    def sections_of(self, group: str) -> list[int]:
        """Section numbers (0..n_sections-1) of a group: wing, htail, vtail, body."""
        g = self._sections[:, L.SEC_GROUP].astype(np.int64)
        return [int(i) for i in np.flatnonzero(g == GROUPS[group])]

    @property
    def wing_sections(self) -> list[int]:
        return self.sections_of("wing")

    @property
    def section_area_m2(self) -> np.ndarray:
        return self._sections[:, L.SEC_AREA]

    @property
    def section_position_m(self) -> np.ndarray:
        """(n_sections, 3): each section's quarter-chord point, body axes from the datum."""
        return self._sections[:, L.SEC_POS:L.SEC_POS + 3]

    @property
    def section_span_m(self) -> np.ndarray:
        return self._sections[:, L.SEC_SPAN]

    @property
    def section_chord_axis(self) -> np.ndarray:
        """(n_sections, 3): each section's unit chord axis (toward the leading edge), body axes."""
        return self._sections[:, L.SEC_CHORD_AX:L.SEC_CHORD_AX + 3]

    @property
    def section_normal(self) -> np.ndarray:
        """(n_sections, 3): each section's unit normal (its lift's direction at zero alpha), body axes."""
        return self._sections[:, L.SEC_NORMAL:L.SEC_NORMAL + 3]

    @property
    def section_span_axis(self) -> np.ndarray:
        """(n_sections, 3): each section's unit span axis (chord x normal), body axes."""
        return self._sections[:, L.SEC_SPAN_AX:L.SEC_SPAN_AX + 3]

    @property
    def section_mass_kg(self) -> np.ndarray:
        return self._sections[:, L.SEC_MASS]

    @property
    def section_chord_m(self) -> np.ndarray:
        return self._sections[:, L.SEC_CHORD]

    @property
    def section_damage(self) -> np.ndarray:
        """Battle damage per section, 0 intact .. 1 shot away (a writable view; set
        ``physics.ballistics.set_damage`` to keep the model's damaged flag in step)."""
        return self._sections[:, L.SEC_DAMAGE]

    @property
    def section_incidence_rad(self) -> np.ndarray:
        """Each section's chord incidence to the body x axis, rad (+ leading edge up)."""
        s = self._sections
        return np.arctan2(-s[:, L.SEC_CHORD_AX + 2], s[:, L.SEC_CHORD_AX])

    @property
    def section_stall_alpha_rad(self) -> np.ndarray:
        """Each section's angle of attack of maximum lift, rad."""
        return self._sections[:, L.SEC_STALL_ALPHA]

    @property
    def section_cl_max(self) -> np.ndarray:
        """Each section's maximum lift coefficient, surface neutral (needs the tables)."""
        if self.tables is None:
            raise ValueError("section_cl_max needs the airfoil tables: AircraftData(model, tables)")
        t = self._sections[:, L.SEC_TABLE].astype(np.int64)
        return np.array([float(np.max(self.tables[k, L.T_CL + 1])) for k in t])

    @property
    def section_airfoil_table(self) -> np.ndarray:
        """Each section's airfoil: its index into the tables (int, a copy; for section_tables._cl_slope)."""
        return self._sections[:, L.SEC_TABLE].astype(np.int64)

    @property
    def section_gains(self) -> np.ndarray:
        """(n_sections, 4): each section's surface deflection, rad, per unit of the pitch, roll,
        yaw and flap surface positions."""
        return self._sections[:, L.SEC_GAIN:L.SEC_GAIN + 4]

    @classmethod
    def blank(cls, section_gains) -> AircraftData:
        """A bare model with only sections' control gains ((n, 4) as section_gains): for tests
        of what reads surfaces and deflections, not a flyable aircraft."""
        gains = np.asarray(section_gains, dtype=np.float64)
        m = np.zeros((3 + len(gains), L.MODEL_COLS))
        m[0, L.H_N_SECTIONS] = len(gains)
        m[0, L.H_ROW_SECTION] = 3
        m[3:, L.SEC_GAIN:L.SEC_GAIN + 4] = gains
        m[3:, L.SEC_SLAT_K] = -1.0
        return cls(m)

    def section_deflections_rad(self, state: np.ndarray) -> np.ndarray:
        """Deflection (rad) of each section's control surface where the actuators are now
        (the surface positions in ``state`` times each section's gains)."""
        return self._sections[:, L.SEC_GAIN:L.SEC_GAIN + 4] @ state[L.S_SURF:L.S_SURF + 4]

    @property
    def section_slat_slot(self) -> np.ndarray:
        """Each section's automatic slat: its slot k in the state (S_SLAT + k), -1 for none (int, a copy)."""
        return self._sections[:, L.SEC_SLAT_K].astype(np.int64)

    def section_slat_positions(self, state: np.ndarray) -> np.ndarray:
        """Where each section's automatic slat is, 0 closed .. 1 open (0 for a section
        without one): one value per section, for the renderer."""
        k = self.section_slat_slot
        out = np.zeros(len(k))
        has = k >= 0
        out[has] = state[L.S_SLAT + k[has]]
        return out

    @property
    def stores(self) -> np.ndarray:
        """The store rows (layout ST_*; a view, (0, MODEL_COLS) without stores)."""
        r0 = int(self.model[0, L.H_ROW_STORE])
        return self.model[r0:r0 + int(self.model[0, L.H_N_STORES])] if r0 > 0 else self.model[0:0]

    @property
    def store_drag_areas_m2(self) -> np.ndarray:
        """Each store's drag area, m2 (a missile row: all its rounds')."""
        return self.stores[:, L.ST_CDA].copy()

    def launch_round(self, state: np.ndarray, k: int) -> bool:
        """One round off missile store k, loaded and with a round still on: its share launched (the
        state's S_STORE_GONE) rises by one round, so its mass and drag fall with it from the next step
        (physics/stores.py). Written between ticks, as a hit is. False where it has none left."""
        row = self.stores[k]
        if row[L.ST_LOADED] < 0.5:
            return False
        n = row[L.ST_COUNT]
        launched = round(state[L.S_STORE_GONE + k] * n)
        if launched >= n:
            return False
        state[L.S_STORE_GONE + k] = (launched + 1) / n
        return True

    @property
    def store_loaded(self) -> np.ndarray:
        """Each store carried on this flight (the loadout), as bools."""
        return self.stores[:, L.ST_LOADED] > 0.5

    @property
    def store_rounds(self) -> np.ndarray:
        """Each store's rounds on this flight (a missile row's hung rounds; 1 a bomb or a tank)."""
        return self.stores[:, L.ST_COUNT].astype(np.int64)

    def stores_on(self, state: np.ndarray) -> np.ndarray:
        """Per store, the share of it still on: 1 carried and not released, 0 released or not in this
        flight's loadout; a missile row, its rounds still on over the rounds its stations hold (a row
        hung with two of four, one launched: 0.25)."""
        st = self.stores
        gone = np.clip(state[L.S_STORE_GONE:L.S_STORE_GONE + len(st)], 0.0, 1.0)
        held = st[:, L.ST_COUNT] / np.maximum(st[:, L.ST_CAPACITY], 1.0)
        return np.where(st[:, L.ST_LOADED] > 0.5, (1.0 - gone) * held, 0.0)

    @property
    def parts(self) -> np.ndarray:
        """The component hit-box rows (layout PT_*; a view, empty without systems damage)."""
        r0 = int(self.model[0, L.H_ROW_PART])
        return self.model[r0:r0 + int(self.model[0, L.H_N_PARTS])] if r0 > 0 else self.model[0:0]

    @property
    def part_boxes(self) -> tuple[np.ndarray, np.ndarray]:
        """(centres (n, 3), half sizes (n, 3)) of the component hit boxes, body axes (empty without
        systems damage)."""
        p = self.parts
        return p[:, L.PT_POS:L.PT_POS + 3], p[:, L.PT_HALF:L.PT_HALF + 3]

    def parts_of(self, name: str) -> list[int]:
        """The hit boxes of one kind of component (layout.PART_NAMES: engine, radiator, oil_cooler,
        tank, propeller, pilot, armour, elevator_linkage, ...), in order."""
        kind = L.PART_NAMES.index(name)
        return [i for i, r in enumerate(self.parts) if int(r[L.PT_KIND]) == kind]

    @property
    def has_systems_damage(self) -> bool:
        return self.model[0, L.H_ROW_DMG] > 0

    def _dm(self, col):
        d = int(self.model[0, L.H_ROW_DMG])
        if d <= 0:
            raise ValueError("this aircraft has no [damage] data")
        return self.model[d, col]

    @property
    def coolant_limit_k(self) -> float:
        return float(self._dm(L.DM_T_LIMIT))

    @property
    def radiator_circuits(self) -> int:
        return int(self._dm(L.DM_N_CORES))

    def set_tank_fire(self, explosion_s: float | None = None, spread_s: float | None = None,
                      spread_m: float | None = None) -> None:
        """Change how a tank fire explodes and spreads (tests, studies)."""
        d = int(self.model[0, L.H_ROW_DMG])
        for col, v in ((L.DM_FIRE_EXPLODE_S, explosion_s), (L.DM_FIRE_SPREAD_S, spread_s),
                       (L.DM_FIRE_SPREAD_M, spread_m)):
            if v is not None:
                self.model[d, col] = v

    @staticmethod
    def round_name(kind: int) -> str:
        """The name of a round kind (gun_round's second value): ball, ap, incendiary or he."""
        return L.ROUND_NAMES[kind]

    def gun_round(self, gun: int) -> tuple[float, int]:
        """(calibre mm, round kind: layout.ROUND_NAMES index) of a gun."""
        row = self.model[int(self.model[0, L.H_ROW_GUN]) + gun]
        return float(row[L.GUN_CALIBRE_MM]), int(row[L.GUN_ROUND_KIND])

    def wing_induced_k(self) -> float:
        """The wing's induced angle per unit lift coefficient, 1 / (pi AR e)."""
        return float(self.model[L.ROW_GROUPS, L.GROUP_WING * L.G_COLS + L.G_K_INDUCED])

    @property
    def wing_area_m2(self) -> float:
        return float(self.model[L.ROW_GROUPS, L.GROUP_WING * L.G_COLS + L.G_AREA])

    @property
    def wing_span_m(self) -> float:
        return float(self.model[L.ROW_GROUPS, L.GROUP_WING * L.G_COLS + L.G_SPAN])

    def wing_stall_alpha_rad(self) -> float:
        """The body angle of attack at which the first wing section reaches its CLmax (its
        stall angle less its incidence, plus the induced angle at CLmax)."""
        k = self.wing_induced_k()
        rows = self.wing_sections
        return min(float(self.section_stall_alpha_rad[i] - self.section_incidence_rad[i]
                         + k * self.section_cl_max[i]) for i in rows)

    def wing_cl_max(self) -> float:
        """Area-weighted CLmax of the wing's sections."""
        rows = self.wing_sections
        area = self.section_area_m2[rows]
        return float(np.sum(area * self.section_cl_max[rows]) / np.sum(area))

    def stall_speed_ms(self, gravity_ms2: float = 9.80665, rho_kgm3: float = 1.225) -> float:
        """1 g stall speed from the wing's sections (EAS at sea-level density)."""
        area = float(np.sum(self.section_area_m2[self.wing_sections]))
        return math.sqrt(2.0 * self.mass_kg * gravity_ms2 / (rho_kgm3 * self.wing_cl_max() * area))
