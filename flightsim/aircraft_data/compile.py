"""A validated AircraftSpec -> the arrays the kernels fly (layout in flightsim.physics.layout).

Mass, CG and the full inertia tensor are summed here from the components (mass items
as solid boxes, section structure as thin plates), never typed in. Section axes come
from incidence and dihedral; control signs from geometry, so a positive pitch, roll or
yaw command always gives a positive body moment. Group properties (aspect ratio,
planform efficiency, downwash at the tail) come from the sections' own geometry.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, replace

import numpy as np

from ..physics import layout as L
from ..physics.named_model import AircraftData
from .damage import compile_damage, set_loadout
from .flight_control import compile_flight_control
from .guns import compile_guns
from .loader import AircraftSpec, load_aircraft
from .powerplant import compile_powerplant, hold_radiator_flaps
from .schema import DataError

GROUP_INDEX = {"wing": L.GROUP_WING, "htail": L.GROUP_HTAIL, "vtail": L.GROUP_VTAIL, "body": L.GROUP_BODY}
CONTROL_AXIS = {"elevator": 1, "aileron": 0, "rudder": 2}
CONTROL_GAIN_COL = {"elevator": 0, "aileron": 1, "rudder": 2, "flap": 3}
FIN_ASPECT_FACTOR = 1.55   # end-plate effect of fuselage and tailplane on a fin (DATCOM-style)
DT = 0.02


@dataclass
class Section:
    name: str
    spec: dict
    pos: np.ndarray
    chord_ax: np.ndarray
    normal: np.ndarray
    span_ax: np.ndarray
    side: int          # +1 right / centre, -1 left twin


@dataclass
class Compiled:
    spec: AircraftSpec
    model: np.ndarray
    tables: np.ndarray
    sections: list[Section]
    mass_kg: float
    cg_m: np.ndarray
    inertia: np.ndarray
    table_names: list[str]

    @property
    def name(self) -> str:
        return self.spec.aircraft["name"]

    @property
    def wing_area_m2(self) -> float:
        return AircraftData(self.model).wing_area_m2

    @property
    def wing_span_m(self) -> float:
        return AircraftData(self.model).wing_span_m


def _axes(incidence_deg: float, dihedral_deg: float, side: int):
    i = math.radians(incidence_deg)
    phi = -side * math.radians(dihedral_deg)
    c0 = np.array([math.cos(i), 0.0, -math.sin(i)])
    n0 = np.array([-math.sin(i), 0.0, -math.cos(i)])
    rot = np.array([[1, 0, 0], [0, math.cos(phi), -math.sin(phi)], [0, math.sin(phi), math.cos(phi)]])
    c = rot @ c0
    n = rot @ n0
    return c, n, np.cross(c, n)


def expand_sections(spec: AircraftSpec) -> list[Section]:
    out = []
    for s in spec.sections:
        x, y, z = s["position_m"]
        if s["mirror"]:
            if y <= 0:
                raise DataError(spec.path, s["_where"] + ".position_m",
                                "a mirrored section is given on the right side (y > 0)")
            sides: tuple[tuple[int, str], ...] = ((1, "_right"), (-1, "_left"))
        else:
            sides = ((1 if y >= 0 else -1, ""),)
        for side, suffix in sides:
            c, n, sp = _axes(s["incidence_deg"], s["dihedral_deg"], side)
            out.append(Section(s["name"] + suffix, s, np.array([x, side * abs(y) if s["mirror"] else y, z]),
                               c, n, sp, side))
    return out


def _box_inertia(m, size):
    lx, ly, lz = size
    return np.diag([m * (ly * ly + lz * lz) / 12, m * (lx * lx + lz * lz) / 12, m * (lx * lx + ly * ly) / 12])


def mass_properties(spec: AircraftSpec, sections: list[Section]):
    """Total mass, CG and inertia tensor about the CG, summed from every component."""
    items = []   # (mass, position, own inertia about own centre)
    for m in spec.masses:
        items.append((m["mass_kg"], np.array(m["position_m"]), _box_inertia(m["mass_kg"], m["size_m"])))
    for s in sections:
        m = s.spec["mass_kg"]
        if m <= 0:
            continue
        b, c = s.spec["span_m"], s.spec["chord_m"]
        own = (m * c * c / 12) * np.outer(s.span_ax, s.span_ax) + (m * b * b / 12) * np.outer(s.chord_ax, s.chord_ax) \
            + (m * (b * b + c * c) / 12) * np.outer(s.normal, s.normal)
        items.append((m, s.pos, own))
    total = sum(i[0] for i in items)
    cg = sum(i[0] * i[1] for i in items) / total
    inertia = np.zeros((3, 3))
    for m, p, own in items:
        r = p - cg
        inertia += own + m * (np.dot(r, r) * np.eye(3) - np.outer(r, r))
    return total, cg, inertia


FULL_STEPS_DEFAULT = 3.0     # with no [deflection_full]: the +10 curve extrapolated to 30 degrees


def resample_table(af) -> np.ndarray:
    """Airfoil curves -> (T_ROWS, TABLE_N) on the kernel's uniform alpha grid."""
    grid = L.TABLE_ALPHA_MIN_DEG + L.TABLE_STEP_DEG * np.arange(L.TABLE_N)
    out = np.empty((L.T_ROWS, L.TABLE_N))
    for c in range(3):          # cl, cd, cm
        for d in range(3):      # -10, 0, +10
            out[3 * c + d] = np.interp(grid, af.alpha_deg, af.curves[d, c])
        if af.full_curve is not None:        # measured at the control's full deflection
            out[L.T_FULL + c] = np.interp(grid, af.alpha_deg, af.full_curve[c])
        else:                                # the +10 curve extrapolated to 30 degrees
            out[L.T_FULL + c] = out[3 * c + 1] + FULL_STEPS_DEFAULT * (out[3 * c + 2] - out[3 * c + 1])
    out[L.T_FULL_STEPS] = FULL_STEPS_DEFAULT if af.full_curve is None else af.full_deflection_deg / 10.0
    # column 1: the full increment over the 10 degree one at zero incidence (the other side's
    # saturation, physics.section_tables.saturated_deflection); 0 without a full curve (the straight line both ways)
    out[L.T_FULL_STEPS, 1] = 0.0
    if af.full_curve is not None:
        j = int(np.argmin(np.abs(grid)))
        d10 = out[L.T_CL + 2, j] - out[L.T_CL + 1, j]
        out[L.T_FULL_STEPS, 1] = (out[L.T_FULL, j] - out[L.T_CL + 1, j]) / d10 if abs(d10) > 1e-6 else 0.0
    # lift-curve slope per radian, central difference over +/-1 degree (periodic)
    k = int(round(1.0 / L.TABLE_STEP_DEG))
    cl = out[L.T_CL + 1, :-1]
    out[L.T_SLOPE, :-1] = (np.roll(cl, -k) - np.roll(cl, k)) / math.radians(2.0)
    out[L.T_SLOPE, -1] = out[L.T_SLOPE, 0]
    return out


def _stall_angles(table: np.ndarray):
    grid = L.TABLE_ALPHA_MIN_DEG + L.TABLE_STEP_DEG * np.arange(L.TABLE_N)
    cl = table[L.T_CL + 1]
    pos = (grid >= 0) & (grid <= 35)
    neg = (grid <= 0) & (grid >= -35)
    a_pos = grid[pos][np.argmax(cl[pos])]
    a_neg = grid[neg][np.argmin(cl[neg])]
    return math.radians(a_pos), math.radians(a_neg)


def _oswald(aspect, taper):
    """Planform span efficiency, Nita & Scholz (2012) fit of Hoerner's taper-ratio data:
    e = 1 / (1 + f(lambda - dlambda) * AR), dlambda = 0.093 for an unswept wing."""
    lam = taper - 0.093
    f = 0.0524 * lam ** 4 - 0.15 * lam ** 3 + 0.1659 * lam ** 2 - 0.0706 * lam + 0.0119
    return 1.0 / (1.0 + f * aspect)


def _group_geometry(group_sections: list[Section], vertical: bool):
    area = sum(s.spec["span_m"] * s.spec["chord_m"] for s in group_sections)
    span = sum(s.spec["span_m"] for s in group_sections)
    aspect = span * span / area
    if vertical:
        aspect *= FIN_ASPECT_FACTOR
    by_out = sorted(group_sections, key=lambda s: abs(s.pos[1]) if not vertical else -s.pos[2])
    taper = by_out[-1].spec["chord_m"] / by_out[0].spec["chord_m"]
    e = _oswald(aspect, min(max(taper, 0.0), 1.0))
    return area, span, aspect, e


RHO0 = 1.225


def _compile_controls(spec, model):
    """Row ROW_CONTROLS: the control system per axis and the actuator rates."""
    ctl = spec.controls
    for k, axis in enumerate(("elevator", "aileron", "rudder")):
        a = ctl[axis]
        c = k * L.CTL_COLS
        v = a["full_deflection_ias_kmh"] / 3.6
        model[L.ROW_CONTROLS, c + L.CTL_Q_FULL] = 0.5 * RHO0 * v * v
        model[L.ROW_CONTROLS, c + L.CTL_TAU] = a["time_constant_s"]
        model[L.ROW_CONTROLS, c + L.CTL_RATE] = 1.0 / a["travel_time_s"]
        model[L.ROW_CONTROLS, c + L.CTL_FORCE] = a["max_force_n"]
        model[L.ROW_CONTROLS, c + L.CTL_INV_HINGE_EXP] = 1.0 / a["hinge_moment_exponent"]
        model[L.ROW_CONTROLS, L.CTL_GEARED_EASE + k] = a["geared_tab_ease"]
        vs = a["spring_tab_half_ias_kmh"] / 3.6
        model[L.ROW_CONTROLS, L.CTL_SPRING_Q + k] = 0.5 * RHO0 * vs * vs
        model[L.ROW_CONTROLS, L.CTL_TAB_LOSS + k] = a["tab_effectiveness_loss"]
    st = ctl.get("stabilizer_trim")
    if st is not None:
        model[L.ROW_CONTROLS, L.CTL_STAB_RATE] = 2.0 / st["travel_time_s"]
        model[L.ROW_CONTROLS, L.CTL_STAB_UP_RAD] = math.radians(st["nose_up_deg"])
        model[L.ROW_CONTROLS, L.CTL_STAB_DOWN_RAD] = math.radians(st["nose_down_deg"])
    model[L.ROW_CONTROLS, L.CTL_FLAP_RATE] = 1.0 / ctl["flap_travel_s"]
    model[L.ROW_CONTROLS, L.CTL_AIRBRAKE_RATE] = 1.0 / ctl["airbrake_travel_s"]
    model[L.ROW_CONTROLS, L.CTL_GEAR_RATE] = 1.0 / ctl["gear_travel_s"]


def compile_aircraft(spec_or_name) -> Compiled:
    """The kernels' arrays of an aircraft (its data file, or a loaded spec), built part by part:
    the header and mass, the lifting groups, the sections, the gear and contact points, then the
    powerplant, guns, damage, Mach tables and flight-control law (each its own builder, as
    JSBSim's models each load their own element)."""
    spec = spec_or_name if isinstance(spec_or_name, AircraftSpec) else load_aircraft(spec_or_name)
    secs = expand_sections(spec)
    mass, cg, inertia = mass_properties(spec, secs)
    try:
        inv_inertia = np.linalg.inv(inertia)
    except np.linalg.LinAlgError:
        raise DataError(spec.path, "mass", "the inertia tensor is singular: give mass items a size_m") from None
    if np.any(np.linalg.eigvalsh(inertia) <= 0):
        raise DataError(spec.path, "mass", "the inertia tensor is not positive definite: give mass items a size_m")

    names = sorted(spec.airfoils)
    tables = np.stack([resample_table(spec.airfoils[n]) for n in names])
    stall = [_stall_angles(t) for t in tables]

    n_sec, n_gear, n_ct = len(secs), len(spec.gear), len(spec.contacts)
    row_sec = L.ROW_CONTROLS + 1
    row_gear = row_sec + n_sec
    row_ct = row_gear + n_gear
    model = np.zeros((row_ct + n_ct, L.MODEL_COLS))
    model[0, L.H_N_SECTIONS] = n_sec
    model[0, L.H_N_GEAR] = n_gear
    model[0, L.H_N_CONTACT] = n_ct
    model[0, L.H_ROW_SECTION] = row_sec
    model[0, L.H_ROW_GEAR] = row_gear
    model[0, L.H_ROW_CONTACT] = row_ct
    model[0, L.H_N_GROUPS] = L.N_GROUPS
    model[L.ROW_MASS, L.M_MASS] = mass
    model[L.ROW_MASS, L.M_CG:L.M_CG + 3] = cg
    model[L.ROW_MASS, L.M_INERTIA:L.M_INERTIA + 9] = inertia.ravel()
    model[L.ROW_MASS, L.M_INV_INERTIA:L.M_INV_INERTIA + 9] = inv_inertia.ravel()

    _compile_groups(spec, secs, model)
    _compile_controls(spec, model)
    _compile_sections(spec, secs, model, row_sec, names, stall, mass, cg, inertia)
    effective_mass = _effective_mass(mass, cg, inv_inertia)
    _compile_gear(spec, model, row_gear, cg, effective_mass)
    _compile_contacts(spec, model, row_ct, effective_mass)
    pts = [g["position_m"] for g in spec.gear] + [c["position_m"] for c in spec.contacts]
    model[0, L.H_GROUND_RADIUS] = max((float(np.linalg.norm(np.array(p) - cg)) for p in pts), default=0.0)
    # powered aircraft: engine, propeller, tanks and coolers; compressibility and slipstream
    # columns of the sections (spec.powerplant); the mass then includes the fuel
    model, mass, cg, inertia = compile_powerplant(spec, model, names, tables, secs, mass, cg, inertia, stall)
    # guns: recoil, bullets, and the ammunition's weight re-summed as it is fired (aircraft_data/guns.py)
    model, mass, cg, inertia = compile_guns(spec, model, mass, cg, inertia)
    # components that take hits, leaks, heat wear, fire; bombs and drop tanks (aircraft_data/damage.py)
    model, mass, cg, inertia = compile_damage(spec, model, mass, cg, inertia)
    # compressibility tabulated against Mach (airfoils with a [mach] table)
    model = compile_mach_tables(spec, model, secs, tables, names)
    # a flight-control law between the stick and the surfaces (aircraft_data/flight_control.py)
    model = compile_flight_control(spec, model, secs, tables, names)
    return Compiled(spec, model, tables, secs, mass, cg, inertia, names)


def _compile_groups(spec, secs, model) -> None:
    """The lifting groups (wing, horizontal and vertical tail): area, span, induced-drag factor
    from the aspect ratio and planform efficiency, and the downwash at the tail per wing CL."""
    wing = [s for s in secs if s.spec["group"] == "wing"]
    if not wing:
        raise DataError(spec.path, "section", "no section has group = 'wing'")
    wing_geo = None
    for gname in ("wing", "htail", "vtail"):
        members = [s for s in secs if s.spec["group"] == gname]
        if not members:
            continue
        area, span, aspect, e = _group_geometry(members, gname == "vtail")
        g = GROUP_INDEX[gname] * L.G_COLS
        model[L.ROW_GROUPS, g + L.G_K_INDUCED] = 1.0 / (math.pi * aspect * e)
        model[L.ROW_GROUPS, g + L.G_AREA] = area
        model[L.ROW_GROUPS, g + L.G_SPAN] = span
        if gname == "wing":
            wing_geo = (area, span, aspect, e, np.mean([s.pos for s in members], axis=0))
    htail = [s for s in secs if s.spec["group"] == "htail"]
    if htail and wing_geo is not None:       # (no wing: no downwash)
        # horseshoe-vortex estimate: 2 alpha_i far behind, less close to the wing and
        # above or below its trailing vortices (spacing pi b / 8 for an elliptic load)
        area, span, aspect, e, wing_c = wing_geo
        tail_c = np.mean([s.pos for s in htail], axis=0)
        x = wing_c[0] - tail_c[0]
        h = wing_c[2] - tail_c[2]
        s_v = math.pi * span / 8
        factor = (1 + x / math.hypot(x, s_v)) * s_v * s_v / (s_v * s_v + h * h)
        model[L.ROW_GROUPS, L.GROUP_HTAIL * L.G_COLS + L.G_DOWNWASH] = factor / (math.pi * aspect * e)


def _compile_sections(spec, secs, model, row_sec, names, stall, mass, cg, inertia) -> None:
    """One model row per airfoil section: where it is and its axes, its table, stall angles,
    mass, the integrator's stiffness terms, Reynolds scaling, slats, twist, and its control."""
    n_slats = 0
    for k, s in enumerate(secs):
        row = row_sec + k
        sp = s.spec
        model[row, L.SEC_POS:L.SEC_POS + 3] = s.pos
        model[row, L.SEC_CHORD_AX:L.SEC_CHORD_AX + 3] = s.chord_ax
        model[row, L.SEC_NORMAL:L.SEC_NORMAL + 3] = s.normal
        model[row, L.SEC_SPAN_AX:L.SEC_SPAN_AX + 3] = s.span_ax
        model[row, L.SEC_AREA] = sp["span_m"] * sp["chord_m"]
        model[row, L.SEC_CHORD] = sp["chord_m"]
        model[row, L.SEC_SPAN] = sp["span_m"]
        t = names.index(sp["airfoil"])
        model[row, L.SEC_TABLE] = t
        model[row, L.SEC_GROUP] = GROUP_INDEX[sp["group"]]
        model[row, L.SEC_AIRBRAKE_DCD] = sp["airbrake_dcd"]
        model[row, L.SEC_AIRBRAKE_DCL] = sp["airbrake_dcl"]
        model[row, L.SEC_STALL_ALPHA], model[row, L.SEC_NEG_STALL_ALPHA] = stall[t]
        model[row, L.SEC_MASS] = sp["mass_kg"]
        # for the integrator's stiffness estimate: how strongly this section damps each
        # rotation (r x n)^2 / I_axis, and heave 1 / m
        model[row, L.SEC_RXN:L.SEC_RXN + 3] = np.cross(s.pos - cg, s.normal) ** 2 / np.diag(inertia)
        model[row, L.SEC_INV_MASS] = 1.0 / mass
        re_table = spec.airfoils[sp["airfoil"]].reynolds_number
        model[row, L.SEC_RE_FACTOR] = (sp["chord_m"] / re_table) ** -0.2 if re_table else 0.0
        model[row, L.SEC_SLAT_K] = -1.0
        if sp["slat_airfoil"] is not None:
            if n_slats >= L.N_SLATS:
                raise DataError(spec.path, sp["_where"] + ".slat_airfoil",
                                f"at most {L.N_SLATS} sections may have slats (a mirrored section counts twice)")
            ts = names.index(sp["slat_airfoil"])
            model[row, L.SEC_SLAT_K] = n_slats
            model[row, L.SEC_SLAT_TABLE] = ts
            model[row, L.SEC_SLAT_OPEN] = math.radians(sp["slat_open_alpha_deg"])
            model[row, L.SEC_SLAT_CLOSE] = math.radians(sp["slat_close_alpha_deg"])
            model[row, L.SEC_SLAT_RATE] = 1.0 / sp["slat_travel_s"]
            model[row, L.SEC_SLAT_STALL] = stall[ts][0]
            n_slats += 1
        k_twist = sp["torsional_stiffness_nm_per_deg"]
        model[row, L.SEC_TWIST_INV] = math.radians(1.0) / k_twist if k_twist > 0.0 else 0.0
        model[row, L.SEC_EA_AFT] = sp["elastic_axis_chord_fraction"] - 0.25
        if sp["control"] is not None:
            _section_control(spec, s, model, row, cg)


def _section_control(spec, s, model, row, cg) -> None:
    """A section's control gains: its deflection per unit of the pilot's axis, signed by where it
    sits (an aileron right of the CG rolls the other way from one on the left)."""
    sp = s.spec
    ctl = sp["control"]
    travel = math.radians(sp["control_max_deg"])
    if ctl == "flap":
        sign = 1.0
    elif ctl == "stabilator":
        # all-moving: collective with pitch, differential with roll (signs from geometry)
        for axis, col, deg in ((1, 0, sp["control_max_deg"]), (0, 1, sp["roll_max_deg"])):
            arm = np.cross(s.pos - cg, s.normal)[axis]
            if abs(arm) < 1e-3:
                raise DataError(spec.path, sp["_where"] + ".control",
                                "this stabilator cannot make a pitching and a rolling moment from where it is")
            model[row, L.SEC_GAIN + col] = math.copysign(1.0, arm) * math.radians(deg)
        return
    else:
        arm = np.cross(s.pos - cg, s.normal)[CONTROL_AXIS[ctl]]
        if abs(arm) < 1e-3:
            raise DataError(spec.path, sp["_where"] + ".control",
                            f"this {ctl} cannot make a moment about its axis from where it is")
        sign = math.copysign(1.0, arm)
    model[row, L.SEC_GAIN + CONTROL_GAIN_COL[ctl]] = sign * travel


def _effective_mass(mass, cg, inv_inertia):
    """The mass a vertical push at point p moves (the aircraft's mass and its rotation about the
    CG together): what a gear leg or a contact point carries, for their stiffness limits."""
    up = np.array([0.0, 0.0, -1.0])

    def effective_mass(p):
        r = np.asarray(p) - cg
        a = np.cross(r, up)
        return 1.0 / (1.0 / mass + a @ inv_inertia @ a)
    return effective_mass


def _compile_gear(spec, model, row_gear, cg, effective_mass) -> None:
    """One model row per gear leg: spring, damper, friction, brakes and steering; a leg too stiff
    or too damped for the 50 Hz integrator is refused with the limit it must keep."""
    for k, leg in enumerate(spec.gear):
        row = row_gear + k
        m_eff = effective_mass(leg["position_m"])
        omega_dt = math.sqrt(leg["stiffness_n_per_m"] / m_eff) * DT
        if omega_dt > 0.8:
            raise DataError(spec.path, leg["_where"] + ".stiffness_n_per_m",
                            f"too stiff for the 50 Hz integrator: the leg carries about {m_eff:.0f} kg and "
                            f"would ring at {omega_dt / DT:.0f} rad/s; keep sqrt(k/m)*0.02 under 0.8 "
                            f"(k below {(0.8 / DT) ** 2 * m_eff:.0f} N/m)")
        zeta_dt = leg["damping_n_s_per_m"] / m_eff * DT
        if zeta_dt > 0.9:
            raise DataError(spec.path, leg["_where"] + ".damping_n_s_per_m",
                            f"too much damping for the 50 Hz integrator: c/m*dt = {zeta_dt:.2f}, keep it under 0.9 "
                            f"(c below {0.9 * m_eff / DT:.0f} N s/m)")
        model[row, L.GR_POS:L.GR_POS + 3] = leg["position_m"]
        model[row, L.GR_K] = leg["stiffness_n_per_m"]
        model[row, L.GR_C] = leg["damping_n_s_per_m"]
        model[row, L.GR_ROLL_MU] = leg["rolling_mu"]
        model[row, L.GR_BRAKE_MU] = leg["brake_mu"]
        model[row, L.GR_SIDE_MU] = leg["side_mu"]
        # right pedal turns the nose right: a nose wheel points right, a tail wheel left
        ahead = 1.0 if leg["position_m"][0] >= cg[0] else -1.0
        model[row, L.GR_STEER] = ahead * math.radians(leg["steering_max_deg"])
        model[row, L.GR_BRAKE_SIDE] = {"both": 0.0, "left": -1.0, "right": 1.0}[leg["brake_side"]]
        model[row, L.GR_DRAG_AREA] = leg["drag_area_m2"]
        model[row, L.GR_RETRACTABLE] = 1.0 if leg["retractable"] else 0.0


def _compile_contacts(spec, model, row_ct, effective_mass) -> None:
    """One model row per structure contact point: as stiff as the 50 Hz integrator allows for the
    mass it moves (at most 50 points)."""
    for k, c in enumerate(spec.contacts):
        row = row_ct + k
        m_eff = effective_mass(c["position_m"])
        k_ct = m_eff * (0.35 / DT) ** 2
        model[row, L.CT_POS:L.CT_POS + 3] = c["position_m"]
        model[row, L.CT_K] = k_ct
        model[row, L.CT_C] = 2 * 0.7 * math.sqrt(k_ct * m_eff)
        model[row, L.CT_MU] = c["friction_mu"]
    if len(spec.contacts) > 50:
        raise DataError(spec.path, "contact", "at most 50 contact points")


def compile_mach_tables(spec, model, secs, tables, names):
    """Append one block of Mach-table rows per airfoil that has a [mach] table and point its
    sections at it (SEC_MACH_ROW); such a section leaves compress.py's thickness model (its
    SEC_THICKNESS 0). Every section gets its table's low-speed CLmax and most negative CL."""
    grid = L.TABLE_ALPHA_MIN_DEG + L.TABLE_STEP_DEG * np.arange(L.TABLE_N)
    near = (grid >= -35.0) & (grid <= 35.0)
    blocks = {}
    row_sec = int(model[0, L.H_ROW_SECTION])
    for k, s in enumerate(secs):
        row = row_sec + k
        name = s.spec["airfoil"]
        cl = tables[names.index(name), L.T_CL + 1]
        model[row, L.SEC_CLMAX] = float(cl[near].max())
        model[row, L.SEC_CLMIN] = float(cl[near].min())
        mt = spec.airfoils[name].mach
        if mt is None:
            continue
        if name not in blocks:
            n = len(mt["mach"])
            rows = np.zeros((L.MT_ROWS, L.MODEL_COLS))
            for r, key in ((L.MT_MACH, "mach"), (L.MT_LIFT, "lift_slope_ratio"), (L.MT_CLMAX, "clmax_ratio"),
                           (L.MT_CD_WAVE, "cd_wave"), (L.MT_SUCTION, "suction_loss"), (L.MT_AC_SHIFT, "ac_shift_chord")):
                rows[r, 0] = n
                rows[r, 1:n + 1] = mt[key]
            blocks[name] = model.shape[0]
            model = np.vstack([model, rows])
        model[row, L.SEC_MACH_ROW] = blocks[name]
        model[row, L.SEC_THICKNESS] = 0.0
        model[row, L.SEC_WAVE_PEAK] = 0.0
    return model


def aircraft_with_mass(name: str, mass_kg: float | None, stores=(), radiator_flaps: str = "automatic"):
    """Compile an aircraft carrying the named stores (none: as its file loads them), optionally
    re-ballasted to mass_kg in all, stores included (ballast added at the CG), and with its radiator
    flaps held "open" or "closed" as a flight test flew them (else "automatic": the thermostat's)."""
    c = _aircraft_with_mass(name, mass_kg, stores)
    if radiator_flaps != "automatic":
        hold_radiator_flaps(c.model, radiator_flaps)
    return c


def _aircraft_with_mass(name: str, mass_kg: float | None, stores=()):
    spec = load_aircraft(name)
    base = _with_stores(compile_aircraft(spec), stores)
    if mass_kg is None:
        return base
    extra = mass_kg - base.mass_kg
    if abs(extra) > 1e-9:
        if mass_kg <= 0.5 * base.mass_kg:
            raise DataError(spec.path, "--mass-kg", f"{mass_kg} kg is less than half the aircraft's {base.mass_kg:.0f} kg")
        spec = copy.deepcopy(spec)
        spec.masses.append({"name": "ballast", "mass_kg": extra, "position_m": tuple(base.cg_m),
                            "size_m": (0.0, 0.0, 0.0), "_where": "ballast"})
    return _with_stores(compile_aircraft(spec), stores)


def _with_stores(c: Compiled, stores) -> Compiled:
    """``c`` carrying exactly the named stores (a card's loadout); none named: as compiled."""
    if not stores:
        return c
    set_loadout(c.model, c.spec, list(stores))
    data = AircraftData(c.model)                 # the mass set_loadout re-summed
    return replace(c, mass_kg=data.mass_kg, cg_m=data.cg_m, inertia=data.inertia_kgm2)
