"""Generate the F-15C Eagle airfoil tables (docs/aircraft_format.md) over -180..180 deg.

    pip install neuralfoil                   # brings aerosandbox and its UIUC coordinates
    python tools/make_f15c_airfoils.py       # writes aircraft/f15c/airfoils/*.toml
    python tools/make_f15c_airfoils.py --check   # no writing: the aircraft's mass, CG, inertia and a
                                             # strip-theory estimate of its low-speed CL, CD, Cm (below)

A build tool only (the game reads the TOML files). It reuses tools/make_airfoils.py (the TOML
writer, the flat plate, the slender body) and tools/make_p51d_airfoils.py (Young's plain-flap
drag), and NeuralFoil for what a 2-D section analysis can give here. The figures it matches
are in docs/research/f15c.md (section numbers below are that file's) and
aircraft/f15c/REFERENCES.md.

**Effective sections of a swept wing.** The simulator is strip theory with streamwise
sections and a lifting-line induced angle per surface (physics/aero.py: alpha_i = CL/(pi A e)
with the group's aspect ratio). The F-15's wing is 45 deg swept (38.7 deg at the quarter
chord, 31.1 deg at the half chord), of aspect ratio 3.0, 6.6 % thick at the root thinning to
3 % at the tip, with fixed conical camber at the leading edge and no leading-edge devices.
Its thin sections stall at 10-12 deg in 2-D, but the swept, low-aspect-ratio wing keeps its
lift to high alpha (leading-edge vortex, spanwise flow): the whole aircraft's CL goes on
rising to 1.25 at 40 deg (NASA TN D-8052 fig. 12, 3/8-scale drop model: 0.89 at 16 deg,
1.035 at 20, 1.13 at 24, 1.18 at 28, 1.215 at 32, 1.25 at 40; f15c.md 3.3). A 2-D table would
stall the simulated wing at 12 deg. So each wing table is the *effective* section of the
swept wing, built as follows:

1. Coordinates: NACA 64A-series (the F-15's family, f15c.md 1: 64A006.6 root to 64A203 tip),
   from AeroSandbox's UIUC files naca64a010 (thickness form) and naca64a210 (the a = 0.8
   modified mean line), the thickness scaled to the strip's (linear in span, 6.6 % -> 3.0 %)
   and the camber to its design lift (0 at the root -> 0.2 at the tip, the 64A203's). The
   conical camber near the leading edge is not drawn.
2. NeuralFoil (xlarge, transition fixed at 5 % chord: a service finish, as the P-51D's tool)
   at the strip's Reynolds number at M 0.6 and 6,000 m (7.85 million per metre of chord)
   gives the attached-flow parts only, over -6..6 deg: the zero-lift angle, the profile drag
   and its rise with lift, the moment about the quarter chord, and the +/-10 deg control
   increments (hinge at 1 - cf, AeroSandbox add_control_surface).
3. Lift: a designed curve through the section's zero-lift angle with the effective slope
   A_WING per rad, straight for 6.5 deg, then bending over (a power law with the slope
   falling to zero) to a broad rounded maximum cl_max at alpha_max (the vortex lift of the
   swept wing), no break; past it a slow blend (BLEND_DEG) into the flat plate of a low
   aspect-ratio wing (CD_MAX_WING). The slope: the simulator's lifting line gives the wing
   CL_alpha = a / (1 + a k), k = 1/(pi A e) = 0.107 for A 3.01, e 0.99 (compile._oswald);
   DATCOM's wing lift slope (Helmbold form, A 3.01, half-chord sweep 31.1 deg, M 0.2) is 3.16
   /rad, and a = 4.6 /rad gives 3.09 (with the -1 deg anhedral and the strips' quarter-chord
   points). That is the streamwise section's 2 pi cos(31 deg) = 5.4 reduced for the low aspect
   ratio beyond what the simple lifting line does (Helmbold). With the stabilators in the
   downwash (0.19 /rad on S_w) and the horizontal body (0.28) the aircraft has CL_alpha 3.57
   /rad (f15c.md 3.4 / 7: 3.5 at M 0.2, AFIT's 3.78 at M 0.6 scaled by DATCOM's Mach trend).
   cl_max (1.06 at 35 deg from zero lift at the root, falling to 0.94 at 30 deg at the tip: a
   swept wing's tip goes first, the F-15's wing rock near 30 units of AOA) was set so that the
   strip-theory aircraft, trimmed by its stabilator about 25.65 % MAC, flies TN D-8052's curve
   (which the drop model flew, i.e. trimmed): the aircraft's alpha is the section's plus an
   induced angle of 5-6 deg there, and the horizontal body and the stabilators lift too, so
   the sections' maximum is lower than the aircraft's CL; `--check` prints both.
4. Drag: NeuralFoil's profile drag (held past +/-6 deg, faded as cos^2 to 90 deg) plus the lost
   leading-edge suction, cl tan(alpha) times a share SUCTION_BASE (0.22: a thin 64A leading
   edge at 45 deg sweep does not get all of its suction even attached) growing to 1 between
   alpha_eff 4 and 15 deg (smoothstep) as the vortex forms: with the lift then normal to the
   chord the drag is the lift times tan(alpha), as TN D-8052 fig. 13 shows for the F-15 from
   16 to 40 deg (GS reading, f15c.md 3.3). The polar's K at low speed comes out 0.17 at CL 0.3
   and 0.5 and 0.22 at CL 0.8, against AFIT's drag polynomial 0.15 / 0.16 / 0.22 (f15c.md 3.2).
5. Moment: NeuralFoil's attached moment (held past +/-6 deg, faded out by 46 deg) plus the
   normal force acting at a centre of pressure moving aft (cp_aft): to the mid chord by 45 deg
   (a low-aspect-ratio wing's vortex lift sits further aft than a 2-D plate's, which
   Montgomerie 2004 takes to 0.5 c only at 90 deg), held to 90 deg, 0.75 c at 180 deg. With it
   the aircraft's Cm about 25.65 % MAC falls from -0.07 at 20 deg to -0.34 at 40 deg, AFIT's
   polynomial -0.12 / -0.22 / -0.31 at 20 / 30 / 40 deg.
6. Controls (plain flap, aileron, rudder): NeuralFoil's 2-D increments at low alpha times
   a_eff / a_2D (the swept section's lift per degree is the 3-D one's; the same for its
   moment), carried to high alpha with effect_fade (full to 12 deg, 0.4 at 32, none at 60 deg:
   a plain flap behind separated flow does little). The full-travel curve ([deflection_full])
   is the 10 deg increment times K' x travel/10 (DATCOM plain flap, Roskam Part VI fig. 8.14:
   K' 0.68 at 30 deg and 0.86 at 20 deg for a 20 % flap, 0.65 at 30 deg for a 25 % rudder),
   drag by Young's plain-flap correlation (Gudmundsson 2014 p. 725) faded out by 40 deg. The
   flaps at 30 deg add CL 0.18 at 8 deg (T.O. 1F-15A-1's approach 160 -> 147 KCAS at the same
   AOA implies 0.18, f15c.md 6) and CD 0.038 (ZAR's VSPAERO 0.04 for 35 deg).

**Stabilator**: all-moving, so its +/-10 deg curves are the undeflected curve shifted in alpha
(cl_+10(a) = cl_0(a + 10 deg), the same for cd and cm), and its [deflection_full] is the curve
at +20 deg (the format's full curve must be a positive deflection of 10.5-90 deg).
control_chord_fraction 0.6 is the schema's maximum (the mesh draws that part moving); the
curves are whole-surface shifts. The undeflected curve is built like the wing's, NACA 64A004.5,
effective slope A_STAB = 3.4: with the tail group's A 2.53 it gives 2.37 /rad on its own area,
CL_delta 0.43 and Cm_delta -0.49 /rad on S_w and the MAC (AFIT 0.41 and -0.46; TM-4604 -0.41).

**Fins**: NACA 64A005 with a 25 % rudder, effective slope A_FIN: the simulator lumps both fins
into one surface (aspect ratio = (sum of spans)^2 / area x 1.55), which gives the twin fins
an aspect ratio of 6 where each fin's own, end-plated, is about 3; a = 3.3 puts the fin lift
back at DATCOM's 2.8 /rad for A 3, half-chord sweep 30 deg (aircraft.toml writes the left fin
with dihedral -90 deg so that the two fins' lift adds in the group's induced angle).

**Bodies**: the slender-body table of tools/make_airfoils.py (Allen & Perkins, NACA TR-1048)
in two sections like the P-51D's, each with its own table: the horizontal one is the F-15's
wide flat forebody with the inlets and the aft body between the engine booms (the planform
outside the reference wing's trapezoid, whose inner part is the wing_root strip: the lift of
the body between the inlets is the wing's carried over, DATCOM's K_B(W)), with the potential
lift slope BODY_H_CLA = 0.55 on its planform (Jones' slender-wing pi A/2 for its aspect ratio
0.35; less than the 1-1.5 /rad a whole low-aspect-ratio body would have, because the part
between the inlets is in the wing strip) and a flat-section crossflow drag; its Munk moment
BODY_H_MUNK stands for the forebody's lift ahead of the section's point.

**[mach]** (read by the loader being extended for it): on every file the same 16 Mach numbers,
with lift_slope_ratio, clmax_ratio, cd_wave, suction_loss and ac_shift_chord (mach_table,
MACH_NOTES and the constants' comments). Basis: docs/research/f15c.md 3.4 (GS's DATCOM /
linear-theory CL_alpha rescaled to AFIT's 3.78 at M 0.6, the column "CL_alpha scaled to AFIT";
GS's CD0 rise +0.026 by M 1.2 then x (1.2/M)^1.13, and its K, fitted to the SAC Ps chart) and
3.3 / 3.5. The simulator applies the lift ratio inside the induced-angle solve too, so the
ratios are solved through the lifting line (calibrate) for the aircraft's 3-D slope to follow
the target; `--check` prints the result against it.

`--check` is a rough, independent estimate, not the simulator: the mass properties summed as
spec/compile.py does (boxes, thin plates, the tanks and the gun's rounds), and the aircraft's
steady coefficients from the written tables with the simulator's lifting-line induced angle,
downwash and strip forces (physics/aero.py, compile.py) and the [mach] columns as
compress.mach_table_correct applies them in attached flow; no stall logic, no Reynolds-number
scaling, no rotation.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_airfoils as base  # noqa: E402
import make_p51d_airfoils as p51  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "aircraft" / "f15c" / "airfoils"

# output grid: 1 deg inside -45..45 (the wing lifts to 35-40 deg), 5 deg beyond; -180 first, 180 last
GRID = np.concatenate([np.arange(-180.0, -45.0, 5.0), np.arange(-45.0, 45.0, 1.0), np.arange(45.0, 180.01, 5.0)])
FINE = np.arange(-180.0, 180.0001, 0.25)            # the design grid (the shifted stabilator curves read it)
NF_ALPHA = np.arange(-6.0, 6.0001, 0.25)            # where NeuralFoil is used (attached flow)
XTR = 0.05                                          # transition fixed near the leading edge (service finish)
RE_PER_M = 7.85e6                                   # M 0.6 at 6,000 m (a = 316.5 m/s, nu = 2.42e-5 m2/s)

# effective lift-curve slopes, per rad (module docstring, items 3, Stabilator, Fins)
A_WING = 4.6
A_STAB = 3.4      # with A 2.5 in the simulator: 2.37 /rad on its own area, CL_delta 0.43 on S_w (AFIT 0.41)
A_FIN = 3.3
CD_MAX_WING = 1.8     # flat plate of the low-aspect-ratio wing: normal force ~1.8 (the F-15's CN at 40-60 deg)
CD_MAX_STAB = 1.3
CD_MAX_FIN = 1.3
BLEND_DEG = 30.0      # from the maximum to the flat plate
SUCTION_BASE = 0.22   # share of the leading-edge suction a thin 64A edge at 45 deg sweep does not get even attached
SUCTION_FROM_DEG, SUCTION_TO_DEG = 4.0, 15.0    # the rest is lost between these (alpha_eff)

# DATCOM plain-flap K' (Roskam Part VI fig. 8.14) at the full travels used here
FLAP_FULL_DEG, FLAP_K = 30.0, 0.68          # 20 % flap at 30 deg (f15c.md 6: "30-35"; 30 taken)
AILERON_FULL_DEG, AILERON_K = 20.0, 0.86    # 20 % aileron at 20 deg (f15c.md 6: +/-20)
RUDDER_FULL_DEG, RUDDER_K = 30.0, 0.65      # 25 % rudder at 30 deg (f15c.md 6: +/-30)
STAB_FULL_DEG = 20.0                        # the shifted curve at +20 deg


def smoothstep(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3.0 - 2.0 * x)


def effect_fade(alpha_deg):
    """How much of a plain control's low-alpha increment is left at alpha (full to 12 deg, 0.4 at
    32 deg, none from 60 deg): the flow behind the vortex and the separated outer wing."""
    a = np.abs(alpha_deg)
    return np.interp(a, [0.0, 12.0, 32.0, 60.0, 180.0], [1.0, 1.0, 0.4, 0.0, 0.0])


def drag_fade(alpha_deg):
    return np.clip((40.0 - np.abs(alpha_deg)) / 20.0, 0.0, 1.0)


# ----------------------------------------------------------------------------- sections

@dataclass
class Sec:
    file: str
    name: str
    kind: str                 # wing | stab | fin
    thickness: float
    camber_cli: float         # design lift of the a = 0.8 (mod) mean line
    chord_m: float            # the strip's chord (Reynolds number)
    cf: float                 # control chord fraction (0: none)
    control: str              # "" | flap | aileron | rudder | stabilator
    a: float                  # effective slope, per rad
    alpha_lin: float          # straight to here (deg from zero lift)
    alpha_max: float          # broad maximum here
    cl_max: float
    neg_lin: float            # the same on the negative side (positive numbers)
    neg_max: float
    cl_min: float             # magnitude
    cd_max: float
    why: str


def _wing(file, name, y, chord, cf, control, alpha_max, cl_max, why):
    """A wing strip centred y m out (the thickness and camber linear from root to tip)."""
    t = 0.066 + (0.030 - 0.066) * y / 6.525
    cli = 0.2 * y / 6.525
    return Sec(file, name, "wing", round(t, 4), round(cli, 3), chord, cf, control, A_WING, 6.5, alpha_max,
               cl_max, 6.0, 25.0, round(0.92 * cl_max, 3), CD_MAX_WING, why)


WING_WHY = ("F-15C wing, NACA 64A series 6.6 % at the root to 64A203 at the tip (f15c.md 1: GS / Chinese "
            "design article / Lednicer), effective section of the 45 deg swept, A 3.0 wing "
            "(tools/make_f15c_airfoils.py docstring); ")
SECTIONS = [
    _wing("f15c_wing_root", "F-15C wing root strip (through the fuselage)", 0.8, 6.29, 0.0, "", 35.0, 1.06,
          WING_WHY + "strip y = 0-1.6 m inside the fuselage and inlets (the reference trapezoid's part the body "
          "covers: the wing-body carry-over lift), no control."),
    _wing("f15c_flap_inner", "F-15C inner wing, 20 % plain flap", 2.1, 5.25, 0.20, "flap", 34.0, 1.05,
          WING_WHY + "strip y = 1.6-2.6 m with the inboard plain flap (Jane's 35.8 ft2 for both flaps [M] on "
          "y = 1.6-3.6 m: about 0.85 m of chord, 17-20 %; 20 % taken), 30 deg down."),
    _wing("f15c_flap_outer", "F-15C mid wing, 20 % plain flap", 3.1, 4.46, 0.20, "flap", 33.0, 1.03,
          WING_WHY + "strip y = 2.6-3.6 m, outer half of the flap."),
    _wing("f15c_aileron_inner", "F-15C outer wing, 20 % aileron", 4.1, 3.66, 0.20, "aileron", 32.0, 1.00,
          WING_WHY + "strip y = 3.6-4.6 m with the aileron (Jane's 26.5 ft2 for both [M] on y = 3.6-5.6 m: 0.6 m "
          "of chord, 17-22 %; 20 % taken), +/-20 deg."),
    _wing("f15c_aileron_outer", "F-15C outer wing, 20 % aileron", 5.1, 2.87, 0.20, "aileron", 31.0, 0.97,
          WING_WHY + "strip y = 4.6-5.6 m, outer half of the aileron."),
    _wing("f15c_wing_tip", "F-15C wing tip (64A203)", 6.06, 2.10, 0.0, "", 30.0, 0.94,
          WING_WHY + "strip y = 5.6-6.525 m outboard of the aileron (the raked tip), no control."),
    Sec("f15c_stabilator", "F-15C stabilator, NACA 64A004.5 (all-moving)", "stab", 0.045, 0.0, 2.05, 0.6,
        "stabilator", A_STAB, 10.0, 30.0, 1.10, 10.0, 30.0, 1.10, CD_MAX_STAB,
        "F-15C all-moving horizontal tail (stabilator), 10.34 m2 for both (f15c.md 1: F15.param 111.26 ft2 [V], "
        "Jane's [M]), 50 deg leading-edge sweep [M], NACA 64A series about 4.5 % thick (assumed: the F-15's "
        "tail sections were not found; the family is the wing's); exposed A about 2.5. Collective for pitch, "
        "differential for roll (f15c.md 1, 6)."),
    Sec("f15c_fin_rudder", "F-15C fin, NACA 64A005, 25 % rudder", "fin", 0.05, 0.0, 1.6, 0.25, "rudder",
        A_FIN, 10.0, 28.0, 1.0, 10.0, 28.0, 1.0, CD_MAX_FIN,
        "F-15C twin fins, 4.89 m2 exposed each (f15c.md 1: Jane's 105.3 ft2 for both [M]; F15.param's 125.2 "
        "includes the root fairings), NACA 64A series about 5 % (assumed), rudder 25 % of the chord (Jane's "
        "19.9 ft2 of rudder on 105.3 ft2 of fin: 19 % of the area on the lower part, so about 25 % of the chord "
        "there), +/-30 deg (f15c.md 6)."),
]


# ----------------------------------------------------------------------------- NeuralFoil part

def naca64a(thickness: float, cli: float, n: int = 161):
    """NACA 64A-series coordinates: the 64A010 thickness form scaled to ``thickness`` on the
    64A210's a = 0.8 (modified) mean line scaled to design lift ``cli`` (UIUC files in AeroSandbox)."""
    import aerosandbox as asb
    sym, cam = asb.Airfoil("naca64a010"), asb.Airfoil("naca64a210")
    x = 0.5 * (1.0 - np.cos(np.linspace(0.0, np.pi, n)))
    half = np.asarray(sym.local_thickness(x)) * (thickness / 0.10) / 2.0
    mean = np.asarray(cam.local_camber(x)) * (cli / 0.2)
    xs = np.concatenate([x[::-1], x[1:]])
    ys = np.concatenate([(mean + half)[::-1], (mean - half)[1:]])
    return asb.Airfoil(name=f"NACA 64A{thickness * 100:.1f} cli {cli:.2f}", coordinates=np.column_stack([xs, ys]))


def nf_polar(sec: Sec, deflection: float):
    import neuralfoil as nf
    af = naca64a(sec.thickness, sec.camber_cli)
    if deflection:
        af = af.add_control_surface(deflection=deflection, hinge_point_x=1.0 - sec.cf)
    r = nf.get_aero_from_airfoil(af, alpha=NF_ALPHA, Re=sec.chord_m * RE_PER_M, model_size="xlarge",
                                 xtr_upper=XTR, xtr_lower=XTR)
    return np.asarray(r["CL"], float), np.asarray(r["CD"], float), np.asarray(r["CM"], float)


def attached(sec: Sec) -> dict:
    """NeuralFoil's attached-flow facts for the section: zero-lift angle, 2-D slope, profile drag and
    moment against alpha (NF_ALPHA), and the +/-10 deg control increments near zero lift."""
    cl, cd, cm = nf_polar(sec, 0.0)
    near = np.abs(NF_ALPHA) <= 3.0
    slope, icpt = np.polyfit(np.radians(NF_ALPHA[near]), cl[near], 1)
    out = dict(cl=cl, cd=cd, cm=cm, a2d=float(slope), alpha0=float(-math.degrees(icpt / slope)))
    if sec.cf > 0 and sec.control != "stabilator":
        for sign, key in ((1.0, "plus"), (-1.0, "minus")):
            cld, cdd, cmd = nf_polar(sec, 10.0 * sign)
            out[key] = dict(dcl=float(np.mean((cld - cl)[near])), dcd=float(np.mean((cdd - cd)[near])),
                            dcm=float(np.mean((cmd - cm)[near])))
    return out


# ----------------------------------------------------------------------------- designed curves

def _side_lift(x, a, x_lin, x_max, cl_max):
    """cl of one side against |alpha - alpha0| (rad) up to the maximum: straight, then a power law
    bending over to a zero slope at x_max."""
    p0 = a * x_lin
    h = x_max - x_lin
    n = a * h / (cl_max - p0)
    return np.where(x <= x_lin, a * x, cl_max - (cl_max - p0) * np.clip((x_max - x) / h, 0.0, 1.0) ** n)


def lift_curve(sec: Sec, alpha_deg, alpha0: float):
    """The effective section's cl over -180..180 deg (module docstring, item 3)."""
    al = np.radians(alpha_deg)
    x = np.radians(alpha_deg - alpha0)
    plate = sec.cd_max / 2.0 * np.sin(2.0 * al)
    out = np.empty_like(al)
    for sign, lin, amax, clm in ((1.0, sec.alpha_lin, sec.alpha_max, sec.cl_max),
                                 (-1.0, sec.neg_lin, sec.neg_max, sec.cl_min)):
        side = (x >= 0) if sign > 0 else (x < 0)
        xs = np.abs(x[side])
        lin_r, max_r = math.radians(lin), math.radians(amax)
        before = sign * _side_lift(np.minimum(xs, max_r), sec.a, lin_r, max_r, clm)
        w = smoothstep((np.degrees(xs) - amax) / BLEND_DEG)
        out[side] = (1.0 - w) * before + w * plate[side]
    return out


def suction_lost(alpha_deg, alpha0):
    x = smoothstep((np.abs(alpha_deg - alpha0) - SUCTION_FROM_DEG) / (SUCTION_TO_DEG - SUCTION_FROM_DEG))
    return SUCTION_BASE + (1.0 - SUCTION_BASE) * x


def _held(alpha_deg, values):
    """A NeuralFoil curve on NF_ALPHA read at alpha, held at its ends beyond."""
    return np.interp(np.clip(alpha_deg, NF_ALPHA[0], NF_ALPHA[-1]), NF_ALPHA, values)


def drag_curve(sec: Sec, alpha_deg, cl, alpha0, nf_cd, extra=0.0):
    """Profile drag (NeuralFoil, held, cos^2 to 90 deg) + lost suction x cl tan(alpha); the flat plate
    trailing edge first (|alpha| > 90)."""
    al = np.radians(alpha_deg)
    front = np.abs(alpha_deg) < 90.0
    cd = np.empty_like(al)
    prof = (_held(alpha_deg, nf_cd) + extra) * np.cos(al) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        cd_front = prof + suction_lost(alpha_deg, alpha0) * cl * np.tan(al)
    cd[front] = cd_front[front]
    cd[~front] = base.CD_180 + (sec.cd_max - base.CD_180) * np.sin(al[~front]) ** 2
    cd[np.abs(alpha_deg) == 90.0] = sec.cd_max
    return np.maximum(cd, 1e-4)


def cp_aft(alpha_deg):
    """Centre of pressure behind the quarter chord, chords: to the mid chord by 45 deg (a low-aspect-ratio
    swept wing's, against Montgomerie's flat plate, which gets there at 90 deg), held to 90 deg, then
    on to 0.75 c at 180 deg (trailing edge first), as tools/make_airfoils.py."""
    al = np.radians(np.abs(alpha_deg))
    front = 0.25 * np.minimum(1.0, (1.0 - np.cos(al)) / (1.0 - math.cos(math.radians(45.0))))
    return np.where(al <= math.pi / 2, front, 0.25 - 0.25 * np.cos(al))


def moment_curve(alpha_deg, cl, cd, nf_cm):
    """The attached moment (held, faded out by 46 deg) plus the normal force at a centre of pressure
    moving aft (module docstring, item 5)."""
    al = np.radians(alpha_deg)
    cn = cl * np.cos(al) + cd * np.sin(al)
    fade = np.clip(1.0 - (np.abs(alpha_deg) - 6.0) / 40.0, 0.0, 1.0)
    return _held(alpha_deg, nf_cm) * fade - cn * cp_aft(alpha_deg)


def periodic(c: dict):
    for k in ("cl", "cd", "cm"):
        v = np.asarray(c[k], float)
        v[0] = v[-1] = 0.5 * (v[0] + v[-1])
        c[k] = v
    c["cl"][0] = c["cl"][-1] = 0.0
    return c


def on_grid(fine: dict) -> dict:
    return {k: (np.interp(GRID, FINE, v) if k in ("cl", "cd", "cm") else v) for k, v in fine.items()}


def section_curves(sec: Sec):
    """(curves on GRID, facts) for a wing strip, the stabilator or the fin."""
    nf = attached(sec)
    a0 = nf["alpha0"]
    k3d = sec.a / nf["a2d"]                        # the swept / low-A section's lift per degree over the 2-D one
    cl0 = lift_curve(sec, FINE, a0)
    cd0 = drag_curve(sec, FINE, cl0, a0, nf["cd"])
    cm0 = moment_curve(FINE, cl0, cd0, nf["cm"])
    fine = {"deflection_0_deg": dict(cl=cl0, cd=cd0, cm=cm0)}
    if sec.control == "stabilator":
        for key, d in (("deflection_plus10_deg", 10.0), ("deflection_minus10_deg", -10.0),
                       ("deflection_full", STAB_FULL_DEG)):
            wrapped = ((FINE + d + 180.0) % 360.0) - 180.0
            shifted = {k: np.interp(wrapped, FINE, v) for k, v in fine["deflection_0_deg"].items()}
            if key == "deflection_full":
                shifted["deflection_deg"] = STAB_FULL_DEG
            fine[key] = shifted
    elif sec.cf > 0:
        g = effect_fade(FINE - a0)
        full_deg, kp = {"flap": (FLAP_FULL_DEG, FLAP_K), "aileron": (AILERON_FULL_DEG, AILERON_K),
                        "rudder": (RUDDER_FULL_DEG, RUDDER_K)}[sec.control]
        for key, inc, scale in (("deflection_plus10_deg", nf["plus"], 1.0),
                                ("deflection_minus10_deg", nf["minus"], 1.0),
                                ("deflection_full", nf["plus"], kp * full_deg / 10.0)):
            cl = cl0 + inc["dcl"] * k3d * scale * g
            if key == "deflection_full":
                dcd = max(p51.young_plain_flap_dcd(sec.cf, full_deg), inc["dcd"])
            else:
                dcd = max(inc["dcd"], 0.0)
            cd = drag_curve(sec, FINE, cl, a0, nf["cd"]) + dcd * drag_fade(FINE)
            cm = moment_curve(FINE, cl, cd, nf["cm"]) + inc["dcm"] * k3d * scale * g
            fine[key] = dict(cl=cl, cd=cd, cm=cm)
            if key == "deflection_full":
                fine[key]["deflection_deg"] = full_deg
    curves = {k: periodic(on_grid(v)) for k, v in fine.items()}
    return curves, nf, k3d


# ----------------------------------------------------------------------------- bodies

# Zero-lift drag budget at M 0.6, 6,000 m (the tables' Reynolds number): the whole aircraft's CD0
# 0.019 on 56.49 m2 = 1.07 m2 (AFIT's clean 0.018 at M 0.6, f15c.md 3.2, and the 0.020-0.022 the
# research note recommends with a realistic thrust deck: between them). The wing strips give
# 0.29 m2 (NeuralFoil, 5 % transition), the stabilators 0.05 and the fins 0.05 (printed by
# --check); the two body sections carry the rest, 0.68 m2, on their 29.0 + 28.9 m2 (as the
# P-51D's fuselage: one CD0 on both planforms): canopy, inlets with their spillage at the
# design capture, boundary-layer bleed and bypass, nozzles' boattail and base, antennas, pylons.
BODY_DRAG_AREA_M2 = 0.68
BODY_H_AREA_M2 = 19.2 * 1.51         # aircraft.toml: the horizontal body section's span x chord
BODY_V_AREA_M2 = 19.2 * 1.505        # ... and the vertical one's
BODY_CD0 = BODY_DRAG_AREA_M2 / (BODY_H_AREA_M2 + BODY_V_AREA_M2)
BODY_H_CLA = 0.55         # per rad on its planform
BODY_H_CROSSFLOW = 0.9    # eta * CDc of a flat, wide section (Hoerner ch. 3: CDc 1.2-2.0 x eta 0.6-0.7)
BODY_H_MUNK = 0.02
BODY_V_CLA = 0.4
BODY_V_CROSSFLOW = 1.0
BODY_V_MUNK = 0.02


def body_table(which: str):
    cla, cross, munk, name = {
        "h": (BODY_H_CLA, BODY_H_CROSSFLOW, BODY_H_MUNK, "F-15C body, horizontal (forebody, inlets, aft body)"),
        "v": (BODY_V_CLA, BODY_V_CROSSFLOW, BODY_V_MUNK, "F-15C body, vertical (side view)")}[which]
    saved = (base.FUSELAGE_CD0, base.FUSELAGE_CL_ALPHA, base.FUSELAGE_CROSSFLOW, base.FUSELAGE_MUNK, base.ALPHA_DEG)
    base.FUSELAGE_CD0, base.FUSELAGE_CL_ALPHA, base.FUSELAGE_CROSSFLOW, base.FUSELAGE_MUNK = BODY_CD0, cla, cross, munk
    base.ALPHA_DEG = GRID
    try:
        head, curves = base.fuselage_table()
    finally:
        (base.FUSELAGE_CD0, base.FUSELAGE_CL_ALPHA, base.FUSELAGE_CROSSFLOW, base.FUSELAGE_MUNK, base.ALPHA_DEG) = saved
    head["name"] = name
    head["source"] = head["source"].split(" Reference area")[0] + (
        " Reference area = the section's span x chord. F-15C: "
        + (f"the horizontal section is the planform outside the reference wing's trapezoid (forebody and "
           f"radome, the inlets ahead of the wing and beside its apex, the aft body between the engine booms: "
           f"about 15 + 14 m2, as a 19.2 m x 1.51 m strip at that planform's centroid); its CLa {cla} /rad is "
           f"Jones' slender-wing pi A/2 for that planform's aspect ratio 0.35 (the lift of the body between the "
           f"inlets, carried over from the wing, is in the wing_root strip, which spans the fuselage); crossflow "
           f"{cross} for a flat, wide section with rounded chines (Hoerner ch. 3: CDc 1.2-2.0 x eta 0.6-0.7); "
           f"the Munk term {munk} sin 2a also stands for the forebody's lift acting ahead of the section's point. "
           f"It carries the dorsal speed brake (aircraft.toml airbrake_dcd)."
           if which == "h" else
           f"the vertical section is the side view, 19.2 m long, 1.5 m mean height with the canopy and the "
           f"inlets; CLa {cla} /rad, crossflow {cross}, Munk {munk}.")
        + f" CD0 {BODY_CD0:.5f}: both body sections together carry {BODY_DRAG_AREA_M2} m2 of the aircraft's "
        "zero-lift drag area at M 0.6 (1.07 m2 = CD0 0.019 on 56.49 m2, between AFIT's clean 0.018 and the "
        "0.020-0.022 of docs/research/f15c.md 3.4 / 7, less the wing's, stabilators' and fins' own; "
        "tools/make_f15c_airfoils.py). No stall: a body has none. Made by tools/make_f15c_airfoils.py.")
    i90 = int(np.argmin(np.abs(GRID - 90.0)))
    head["notes"] = (f"CD at 0 deg = {BODY_CD0:.5f} and at 90 deg = {curves['deflection_0_deg']['cd'][i90]:.2f} on the "
                     "section planform area.")
    head["thickness_ratio"] = 0.10
    return head, curves


# ----------------------------------------------------------------------------- [mach]

MACH = np.array([0.0, 0.3, 0.6, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.5])
# f15c.md 3.4 "CL_alpha scaled to AFIT 3.78 @ M0.6" (whole aircraft), M 0.3 and 1.05 interpolated
CLA_AIRCRAFT = np.array([3.50, 3.56, 3.78, 4.06, 4.27, 4.30, 4.30, 4.25, 4.20, 4.20, 4.10, 3.40, 2.90, 2.50, 2.30,
                         2.00])
# GS's CD0 rise over its subsonic 0.025 (f15c.md 3.4 table; 0.026 (1.2/M)^1.13 past M 1.2), whole aircraft on S_w
DCD_WAVE_AIRCRAFT = np.array([0.0, 0.0, 0.0, 0.0, 0.0014, 0.0052, 0.0102, 0.0155, 0.0208, 0.0260,
                              *(0.026 * (1.2 / MACH[10:]) ** 1.13)])
S_W = 56.49


def datcom_slope(mach, aspect, sweep_half_deg, kappa=1.0):
    """DATCOM subsonic lift-curve slope (Helmbold / Polhamus form), per rad."""
    beta2 = max(1.0 - mach * mach, 0.0)
    t2 = math.tan(math.radians(sweep_half_deg)) ** 2
    return 2 * math.pi * aspect / (2 + math.sqrt(aspect ** 2 * (beta2 + t2) / kappa ** 2 + 4))


def supersonic_slope(mach, aspect):
    """Linear theory (f15c.md 3.4): 4/sqrt(M^2-1) (1 - 1/(2 A sqrt(M^2-1)))."""
    b = math.sqrt(mach * mach - 1.0)
    return 4.0 / b * (1.0 - 1.0 / (2.0 * aspect * b))


def tail_ratio(aspect, sweep_half_deg):
    """A tail's lift_slope_ratio against MACH: DATCOM to M 0.9 (beta^2 held at M 0.9's beyond it,
    as GS held the wing's flat from 0.9 to 1.4), linear theory from M 1.6, a straight line between."""
    sub = np.array([datcom_slope(min(m, 0.9), aspect, sweep_half_deg) for m in MACH])
    sup = np.array([supersonic_slope(m, aspect) if m >= 1.6 else np.nan for m in MACH])
    out = sub.copy()
    i14, i16 = list(MACH).index(1.4), list(MACH).index(1.6)
    out[i16:] = sup[i16:]
    out[i14] = 0.5 * (sub[i14] + sup[i16])          # half-way down to the supersonic value
    out = np.minimum(out, sub)
    return out / sub[0]


BODY_RATIO = np.ones_like(MACH)            # slender-body lift: independent of Mach (Allen & Perkins)


# CLmax against Mach (f15c.md 3.3: "CLmax(M) ~ 1.2 x (0.8 at M 0.9 -> 0.6 at M 1.2 -> falling with supersonic
# CL_alpha)", the note's suggestion, unverified); thin sharp sections lose little below M 0.6 (DATCOM
# fig. 4.1.3.4-22: none at dy <= 2, and the 64A204-64A006 have dy 1.3-1.3; physics/compress.py)
CLMAX_RATIO = np.array([1.0, 1.0, 0.92, 0.85, 0.80, 0.74, 0.68, 0.64, 0.62, 0.60, 0.58, 0.53, 0.47, 0.42, 0.39, 0.35])
# leading-edge suction lost, as the simulator adds it (suction_loss x cl x tan(alpha_eff) on top of the table's
# drag, compress.mach_table_correct). The tables already hold the low-speed suction loss (SUCTION_BASE, then
# the alpha-dependent loss 4-15 deg, which gives AFIT's K at M 0.6: 0.15-0.16 at CL 0.3-0.5). From M 0.9 the
# column is what makes the whole model's K (flown: the trimmed aircraft's drag polar, /tmp-free script in
# docs/research/f15c.md s3.4's method, at 45,000 ft) equal GS's K, fitted with its drag and thrust to the SAC
# Ps chart (f15c.md 3.4: 0.217 to M 1.2, 0.227 at 1.6, 0.265 at 1.8, 0.302 at 2.0), at CL 0.5 transonic and
# 0.25 supersonic; M 0.8 is half way from AFIT's subsonic K to GS's (the transonic rise of the drag due to
# lift: GS's fit has no point below M 0.9). From M 2.2 the tables alone give more than GS's K (0.35 against
# 0.34 at M 2.2, 0.52 against 0.39 at 2.5: the no-suction 1/CL_alpha is 0.49 there).
SUCTION_WING = np.array([0.0, 0.0, 0.0, 0.33, 0.656, 0.635, 0.634, 0.56, 0.486, 0.462, 0.416, 0.213, 0.18, 0.044,
                         0.0, 0.0])
SUCTION_TAIL = SUCTION_WING
# aerodynamic centre aft shift, chords (f15c.md 3.5: 10-15 % MAC between M 0.8 and 1.2, generic)
AC_SHIFT_WING = np.array([0.0, 0.0, 0.0, 0.0, 0.02, 0.04, 0.07, 0.09, 0.11, 0.12, 0.13, 0.13, 0.13, 0.13, 0.13, 0.13])
AC_SHIFT_TAIL = np.array([0.0, 0.0, 0.0, 0.0, 0.02, 0.04, 0.07, 0.09, 0.10, 0.11, 0.12, 0.12, 0.12, 0.12, 0.12, 0.12])
AC_SHIFT_BODY = np.zeros_like(MACH)
# shares of the aircraft's wave drag (1.47 m2 of drag area at M 1.2): the fuselage with its inlets and
# nozzles has most of the volume (area rule: the body's cross-section area dominates the F-15's
# distribution), the thin wing and tails the rest; within the wing by (t/c)^2 x area
WAVE_SHARE = dict(wing=0.32, stab=0.05, fin=0.05, body=0.58)


def table_kind(file: str) -> str:
    return ("stab" if file == "f15c_stabilator" else "fin" if file == "f15c_fin_rudder"
            else "body" if file.startswith("f15c_body") else "wing")


def wave_amplitudes(geo: dict) -> dict:
    """cd_wave at M 1.2 of each table, on its own area, from the aircraft's areas (both sides) and
    thicknesses: WAVE_SHARE of the aircraft's 0.026 x S_w, within the wing by (t/c)^2 x area."""
    area, tc = geo["table_area"], geo["table_tc"]
    wing = [f for f in area if table_kind(f) == "wing"]
    wsum = sum(area[f] * tc[f] ** 2 for f in wing)
    out = {f: WAVE_SHARE["wing"] * S_W * 0.026 * tc[f] ** 2 / wsum for f in wing}
    for f in area:
        kind = table_kind(f)
        if kind != "wing":
            same = sum(area[g] for g in area if table_kind(g) == kind)
            out[f] = WAVE_SHARE[kind] * S_W * 0.026 / same
    return out


def mach_table(file: str, amp: float, ratios: dict) -> tuple[dict, str]:
    kind = table_kind(file)
    shape = DCD_WAVE_AIRCRAFT / 0.026
    lift = ratios[kind]
    if kind == "wing":
        clmax, suction, ac = CLMAX_RATIO, SUCTION_WING, AC_SHIFT_WING
    elif kind in ("stab", "fin"):
        clmax, suction, ac = CLMAX_RATIO, SUCTION_TAIL, AC_SHIFT_TAIL
    else:
        clmax, suction, ac = np.ones_like(MACH), np.zeros_like(MACH), AC_SHIFT_BODY
    tab = dict(mach=MACH, lift_slope_ratio=lift, clmax_ratio=clmax, cd_wave=amp * shape, suction_loss=suction,
               ac_shift_chord=ac)
    return tab, MACH_NOTES[kind].format(amp=amp)


MACH_COMMON = (" [mach]: cd_wave has the same Mach shape on every table, GS's zero-lift drag rise (f15c.md 3.4: "
               "0 to M 0.85, +0.026 at M 1.2 on S_w, then 0.026 (1.2/M)^1.13), each table's amplitude set so that "
               "the sum over the aircraft's sections of cd_wave x area / 56.49 m2 is that rise (wing 32 %, by "
               "(t/c)^2 x area; stabilators 5 %; fins 5 %; bodies 58 %: the fuselage, inlets and nozzles hold most "
               "of the cross-section area).")
SUCTION_NOTE = ("suction_loss (added by the simulator as suction_loss x cl x tan(alpha_eff) on top of this table's "
                "drag, which already holds the low-speed loss): 0 subsonic, 0.15-0.42 transonic, falling again past "
                "M 1.4 because at the larger alpha a low supersonic lift slope needs the table's own alpha-dependent "
                "loss (computed on the low-speed cl, which lift_slope_ratio does not scale in the drag) supplies most "
                "of it: "
                "the column makes the aircraft's K at CL 0.3 follow GS's, fitted with its drag to the SAC Ps chart "
                "(f15c.md 3.4: 0.217 to M 1.4, 0.227 at 1.6, 0.265 at 1.8, 0.302 at 2.0); from M 2.2 the tables alone "
                "give more (0.52 against 0.39 at M 2.5). ")
MACH_NOTES = {
    "wing": ("[mach] lift_slope_ratio: the section's ratio as the simulator applies it (to the attached lift, inside "
             "the induced-angle solve too), solved through the lifting line (wing A 3.01, k 0.107; the stabilators in "
             "the wing's downwash; the body at its own ratio 1) so that the whole aircraft's CL_alpha follows "
             "f15c.md 3.4's "
             "column 'CL_alpha scaled to AFIT' over its M 0 value (3.50 /rad at M 0, 3.78 at 0.6, 4.3 at 0.95-1.0, "
             "4.2 at 1.2, 4.1 at 1.4, 3.4 at 1.6, 2.5 at 2.0, 2.0 at 2.5: GS's DATCOM to M 0.9 and linear theory "
             "4/sqrt(M^2-1)(1-1/(2A sqrt(M^2-1))) from M 1.4, A 3.017, quarter-chord sweep 38.7 deg, rescaled to "
             "AFIT-90's 3.78 at M 0.6); the 3-D rise, 1.23 at M 0.95, is far below 1/sqrt(1-M^2). clmax_ratio: "
             "f15c.md 3.3's suggestion (0.8 at M 0.9, 0.6 at 1.2, falling with the supersonic lift slope; no data). "
             + SUCTION_NOTE +
             "ac_shift_chord: 0.12-0.13 chord aft supersonic (f15c.md 3.5: 10-15 % MAC between M 0.8 and 1.2, "
             "generic; no F-15 figure): the aircraft's neutral point moves from 28 % MAC to 38 % at M 1.2 and 40 % "
             "supersonic. cd_wave {amp:.5f} at M 1.2." + MACH_COMMON),
    "stab": ("[mach] lift_slope_ratio: solved through the tail group's lifting line (A 2.53) so that the stabilators' "
             "3-D lift slope follows DATCOM for A 3 (with the carry-through), half-chord sweep 42 deg, to M 0.9, held "
             "to M 1.2, half-way down to linear theory at M 1.4 and linear theory from M 1.6 (f15c.md 3.5: the "
             "stabilator's effectiveness falls to 50-60 % of the subsonic by M 2, as its lift slope: 0.52 of M 0's "
             "at M 2.0 here). clmax and centre shift as the wing's; " + SUCTION_NOTE + "cd_wave {amp:.5f} at M 1.2."
             + MACH_COMMON),
    "fin": ("[mach] lift_slope_ratio: solved through the fin group's lifting line (A 6.0 as the simulator lumps the "
            "two fins) so that the fins' 3-D lift slope follows DATCOM for A 3 end-plated, half-chord sweep 30 deg, to "
            "M 0.9, held to M 1.2, linear theory from M 1.6 (the directional stability falls supersonic with the fins' "
            "lift slope). clmax and centre shift as the stabilators'; " + SUCTION_NOTE + "cd_wave {amp:.5f} at M 1.2."
            + MACH_COMMON),
    "body": ("[mach] lift_slope_ratio 1: slender-body lift does not depend on Mach (Allen & Perkins; the "
             "crossflow's supersonic rise is not modelled); no stall, no leading-edge suction, centre fixed. "
             "cd_wave {amp:.5f} at M 1.2." + MACH_COMMON),
}


def mach_toml(tab: dict) -> str:
    lines = ["", "[mach]"]
    for k in ("mach", "lift_slope_ratio", "clmax_ratio", "cd_wave", "suction_loss", "ac_shift_chord"):
        vals = [f"{float(v):.5f}".rstrip("0") for v in tab[k]]
        vals = [v + "0" if v.endswith(".") else v for v in vals]
        vals = ["0.0" if v in ("0.0", "-0.0") else v for v in vals]
        lines.append(f"{k} = [{', '.join(vals)}]")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- writing

def section_head(sec: Sec, nf: dict, k3d: float, curves: dict) -> dict:
    i0 = int(np.argmin(np.abs(GRID)))
    c0 = curves["deflection_0_deg"]
    pos = (GRID >= 0) & (GRID <= 60)
    neg = (GRID <= 0) & (GRID >= -60)
    a_max, cl_max = GRID[pos][np.argmax(c0["cl"][pos])], c0["cl"][pos].max()
    a_min, cl_min = GRID[neg][np.argmin(c0["cl"][neg])], c0["cl"][neg].min()
    ctl = ""
    if sec.control == "stabilator":
        ctl = ("; +/-10 deg and full (+20 deg) curves: the undeflected curve SHIFTED in alpha by the deflection "
               "(all-moving surface: cl_d(alpha) = cl_0(alpha + d), the same for cd and cm); "
               "control_chord_fraction 0.6 is the schema's maximum (the mesh draws that part moving), not a hinge "
               "line: the whole surface moves")
    elif sec.cf > 0:
        full_deg, kp = {"flap": (FLAP_FULL_DEG, FLAP_K), "aileron": (AILERON_FULL_DEG, AILERON_K),
                        "rudder": (RUDDER_FULL_DEG, RUDDER_K)}[sec.control]
        p, m = nf["plus"], nf["minus"]
        ctl = (f"; +/-10 deg curves: NeuralFoil's 2-D increments near zero lift (dcl {p['dcl']:+.3f} / "
               f"{m['dcl']:+.3f}, dcm {p['dcm']:+.3f} / {m['dcm']:+.3f}) times a_eff/a_2D = {k3d:.3f}, faded at high "
               f"alpha (full to 12 deg, 0.4 at 32, 0 at 60); [deflection_full] at {full_deg:.0f} deg: the +10 "
               f"increment x K' {kp} x {full_deg / 10:.1f} (DATCOM plain flap, Roskam Part VI fig. 8.14), profile "
               f"drag +"
               f"{max(p51.young_plain_flap_dcd(sec.cf, full_deg), p['dcd']):.4f} (Young, Gudmundsson 2014 "
               f"p. 725) "
               f"faded out by 40 deg")
    source = (f"{sec.why} Effective section (tools/make_f15c_airfoils.py docstring): NeuralFoil xlarge on NACA 64A "
              f"coordinates ({sec.thickness * 100:.2f} % thick, a = 0.8 (mod) mean line at cl_i {sec.camber_cli:.2f}) "
              f"at "
              f"Re {sec.chord_m * RE_PER_M:.2e} (chord {sec.chord_m} m, M 0.6 at 6,000 m), transition at 5 % chord, "
              f"for the attached flow over -6..6 deg: zero-lift angle {nf['alpha0']:+.2f} deg, 2-D slope "
              f"{nf['a2d']:.2f} /rad, cd {np.interp(0.0, NF_ALPHA, nf['cd']):.5f} and cm "
              f"{np.interp(0.0, NF_ALPHA, nf['cm']):+.4f} at 0 deg. Lift: effective slope {sec.a} /rad straight to "
              f"{sec.alpha_lin:.1f} deg from zero lift, a broad rounded maximum cl {cl_max:.3f} at {a_max:.0f} deg "
              f"(no break), {cl_min:.3f} at {a_min:.0f} deg, then a {BLEND_DEG:.0f} deg blend into a flat plate of "
              f"CD_max {sec.cd_max}; drag: profile drag plus the lost leading-edge suction (cl tan alpha times a share "
              f"{SUCTION_BASE} growing to 1 from {SUCTION_FROM_DEG:.0f} to {SUCTION_TO_DEG:.0f} deg); moment: attached "
              f"moment plus the normal force at a centre of pressure moving aft to 0.5 c by 45 deg and 0.75 c at 180 "
              f"deg{ctl}. Made by tools/make_f15c_airfoils.py. "
              + base.CITATIONS)
    notes = (f"cl at 0 deg {c0['cl'][i0]:.3f}; lift slope {sec.a} /rad (effective, swept-wing strip theory); "
             f"maximum cl {cl_max:.3f} at {a_max:.0f} deg, minimum {cl_min:.3f} at {a_min:.0f} deg.")
    head = dict(name=sec.name, source=source, control_chord_fraction=sec.cf,
                reynolds_number=round(sec.chord_m * RE_PER_M, -4), thickness_ratio=sec.thickness, notes=notes)
    return head


def write(path: Path, head: dict, curves: dict, mach: tuple[dict, str]):
    tab, note = mach
    head = dict(head)
    head["notes"] = (head.get("notes", "") + " " + note).strip()
    saved = base.ALPHA_DEG
    base.ALPHA_DEG = GRID
    try:
        base.write_table(path, head, curves)
    finally:
        base.ALPHA_DEG = saved
    with open(path, "a") as f:
        f.write(mach_toml(tab))


def check_tables(curves: dict):
    for key, c in curves.items():
        for coef in ("cl", "cd", "cm"):
            v = np.asarray(c[coef])
            assert len(v) == len(GRID), (key, coef)
            assert np.all(np.isfinite(v)), (key, coef)
            assert abs(v[0] - v[-1]) < 1e-9, (key, coef)
        assert np.min(c["cd"]) > 0, key



# ----------------------------------------------------------------------------- the aircraft (aircraft.toml)
# What follows reads aircraft/f15c/aircraft.toml and does what spec/compile.py and physics/aero.py
# do, in a few lines and for steady symmetric flight only: the [mach] lift calibration needs the
# groups' lifting-line constants and the downwash, --check the mass properties and a rough polar.

AIRCRAFT = ROOT / "aircraft" / "f15c" / "aircraft.toml"
MAC_M, LEMAC_M = 191.3 * 0.0254, 408.1 * 0.0254      # f15c.md 1: MAC 191.3 in, LEMAC FS 408.1 in
FIN_ASPECT_FACTOR = 1.55                             # spec/compile.py


def _axes(incidence_deg, dihedral_deg, side):
    i, phi = math.radians(incidence_deg), -side * math.radians(dihedral_deg)
    c0 = np.array([math.cos(i), 0.0, -math.sin(i)])
    n0 = np.array([-math.sin(i), 0.0, -math.cos(i)])
    rot = np.array([[1, 0, 0], [0, math.cos(phi), -math.sin(phi)], [0, math.sin(phi), math.cos(phi)]])
    c, n = rot @ c0, rot @ n0
    return c, n, np.cross(c, n)


def _oswald(aspect, taper):
    lam = taper - 0.093
    f = 0.0524 * lam ** 4 - 0.15 * lam ** 3 + 0.1659 * lam ** 2 - 0.0706 * lam + 0.0119
    return 1.0 / (1.0 + f * aspect)


def read_aircraft() -> tuple[dict, list[dict]]:
    import tomllib
    data = tomllib.loads(AIRCRAFT.read_text())
    secs = []
    for s in data["section"]:
        x, y, z = s["position_m"]
        sides = (1, -1) if s.get("mirror") else ((1 if y >= 0 else -1),)
        for side in sides:
            c, n, sp = _axes(s.get("incidence_deg", 0.0), s.get("dihedral_deg", 0.0), side)
            secs.append(dict(spec=s, pos=np.array([x, side * abs(y) if s.get("mirror") else y, z]),
                             c=c, n=n, sp=sp, area=s["span_m"] * s["chord_m"]))
    return data, secs


def geometry(secs) -> dict:
    """Group constants as spec/compile.py computes them."""
    out = {"table_area": {}, "table_tc": {}}
    for s in secs:
        f = s["spec"]["airfoil"]
        out["table_area"][f] = out["table_area"].get(f, 0.0) + s["area"]
    for sec in SECTIONS:
        out["table_tc"][sec.file] = sec.thickness
    out["table_tc"]["f15c_body_h"] = out["table_tc"]["f15c_body_v"] = 0.10
    for g in ("wing", "htail", "vtail"):
        m = [s for s in secs if s["spec"]["group"] == g]
        area = sum(s["area"] for s in m)
        span = sum(s["spec"]["span_m"] for s in m)
        aspect = span * span / area * (FIN_ASPECT_FACTOR if g == "vtail" else 1.0)
        by_out = sorted(m, key=lambda s: abs(s["pos"][1]) if g != "vtail" else -s["pos"][2])
        taper = by_out[-1]["spec"]["chord_m"] / by_out[0]["spec"]["chord_m"]
        e = _oswald(aspect, min(max(taper, 0.0), 1.0))
        out[g] = dict(area=area, span=span, aspect=aspect, e=e, k=1.0 / (math.pi * aspect * e),
                      centre=np.mean([s["pos"] for s in m], axis=0))
    w, t = out["wing"], out["htail"]
    x = w["centre"][0] - t["centre"][0]
    h = w["centre"][2] - t["centre"][2]
    s_v = math.pi * w["span"] / 8
    factor = (1 + x / math.hypot(x, s_v)) * s_v * s_v / (s_v * s_v + h * h)
    out["dw_per_cl"] = factor * w["k"]
    out["body_area"] = sum(s["area"] for s in secs if s["spec"]["group"] == "body" and abs(s["n"][2]) > 0.5)
    return out


def _lift_3d(a, k, r):
    m = r * a
    return m / (1.0 + k * m)


def calibrate(geo: dict) -> dict:
    """lift_slope_ratio of each kind of table against MACH. The simulator applies the ratio to the
    section's lift inside the induced-angle solve too (docs/aircraft_format.md [mach]), so the 3-D
    lift slope goes as r a / (1 + k r a): the ratios are solved for so that the 3-D slopes follow
    their targets. Tails: DATCOM / linear theory for their planforms (tail_ratio). Wing: the whole
    aircraft's CL_alpha (wing + stabilators in the downwash + horizontal body) follows
    CLA_AIRCRAFT / CLA_AIRCRAFT[0]."""
    w, t, v = geo["wing"], geo["htail"], geo["vtail"]
    out = {"body": BODY_RATIO.copy()}
    for kind, grp, a, target in (("stab", t, A_STAB, tail_ratio(3.0, 42.0)), ("fin", v, A_FIN, tail_ratio(3.0, 30.0))):
        c0 = _lift_3d(a, grp["k"], 1.0)
        out[kind] = target * c0 / (a * (1.0 - grp["k"] * target * c0))
        out[kind + "_target"] = target

    def total(rw, rt, rb):
        cw = _lift_3d(A_WING, w["k"], rw)
        deda = geo["dw_per_cl"] * cw
        ct = _lift_3d(A_STAB, t["k"], rt) * (1.0 - deda)
        return (cw * w["area"] + ct * t["area"] + rb * BODY_H_CLA * geo["body_area"]) / S_W, cw, ct

    base_total, cw0, ct0 = total(1.0, 1.0, 1.0)
    rw = np.empty_like(MACH)
    for i, m in enumerate(MACH):
        want = CLA_AIRCRAFT[i] / CLA_AIRCRAFT[0] * base_total
        lo, hi = 0.05, 5.0
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if total(mid, out["stab"][i], out["body"][i])[0] < want:
                lo = mid
            else:
                hi = mid
        rw[i] = 0.5 * (lo + hi)
    out["wing"] = rw
    out["split"] = dict(total=base_total, wing=cw0 * w["area"] / S_W, htail=ct0 * t["area"] / S_W,
                        body=BODY_H_CLA * geo["body_area"] / S_W, deda=geo["dw_per_cl"] * cw0)
    return out


def main():
    if "--check" in sys.argv:
        check()
        return
    _data, secs = read_aircraft()
    geo = geometry(secs)
    ratios = calibrate(geo)
    amps = wave_amplitudes(geo)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    for sec in SECTIONS:
        if only and sec.file not in only:
            continue
        curves, nf, k3d = section_curves(sec)
        check_tables(curves)
        head = section_head(sec, nf, k3d, curves)
        write(OUT_DIR / f"{sec.file}.toml", head, curves, mach_table(sec.file, amps[sec.file], ratios))
        print(f"{sec.file:20s} alpha0 {nf['alpha0']:+.2f} deg, 2-D slope {nf['a2d']:.2f}/rad, a_eff/a_2D {k3d:.3f}; "
              + head["notes"].split(";", 1)[1].strip())
    for which in ("h", "v"):
        file = f"f15c_body_{which}"
        if only and file not in only:
            continue
        head, curves = body_table(which)
        check_tables(curves)
        write(OUT_DIR / f"{file}.toml", head, curves, mach_table(file, amps[file], ratios))
        print(f"{file:20s} CD0 {BODY_CD0:.5f}")
    sp = ratios["split"]
    print(f"low-speed lift split (/rad on S_w): wing {sp['wing']:.3f} stabilators {sp['htail']:.3f} (d eps/d alpha "
          f"{sp['deda']:.2f}) body {sp['body']:.3f}: total {sp['total']:.3f}")
    for k in ("wing", "stab", "fin", "body"):
        print(f"lift_slope_ratio {k:5s}", np.round(ratios[k], 3))
    total = sum(amps[f] * geo["table_area"][f] for f in geo["table_area"]) / S_W
    print(f"sum of cd_wave x area / S_w at M 1.2: {total:.5f} (target 0.026)")


# ----------------------------------------------------------------------------- --check

def _box(m, size):
    lx, ly, lz = size
    return np.diag([m * (ly * ly + lz * lz) / 12, m * (lx * lx + lz * lz) / 12, m * (lx * lx + ly * ly) / 12])


def mass_properties(data: dict, secs: list, fuel_fraction: float = 1.0, rounds: bool = True, pilot: bool = True):
    """Mass, CG and inertia about the CG, as spec/compile.py and the powerplant / gun compilers sum them:
    mass items as boxes, section structure as thin plates, each tank's fuel as its box, the gun's
    rounds as the ammunition box."""
    items = []
    for m in data.get("mass", []):
        if m["name"] == "pilot" and not pilot:
            continue
        items.append((m["mass_kg"], np.array(m["position_m"]), _box(m["mass_kg"], m.get("size_m", (0, 0, 0)))))
    for s in secs:
        m = s["spec"].get("mass_kg", 0.0)
        if m > 0:
            b, c = s["spec"]["span_m"], s["spec"]["chord_m"]
            own = (m * c * c / 12) * np.outer(s["sp"], s["sp"]) + (m * b * b / 12) * np.outer(s["c"], s["c"]) \
                + (m * (b * b + c * c) / 12) * np.outer(s["n"], s["n"])
            items.append((m, s["pos"], own))
    for t in data.get("tank", []):
        m = t["capacity_kg"] * fuel_fraction
        if m > 0:
            items.append((m, np.array(t["position_m"]), _box(m, t["size_m"])))
    if rounds:
        for g in data.get("gun", []):
            m = g["rounds"] * g["round_mass_kg"]
            items.append((m, np.array(g["ammo_box_position_m"]), _box(m, g["ammo_box_size_m"])))
    total = sum(i[0] for i in items)
    cg = sum(i[0] * i[1] for i in items) / total
    inertia = np.zeros((3, 3))
    for m, p, own in items:
        r = p - cg
        inertia += own + m * (np.dot(r, r) * np.eye(3) - np.outer(r, r))
    return total, cg, inertia


def pct_mac(x):
    return (-x - LEMAC_M) / MAC_M * 100.0


class Tables:
    """The written airfoil files, read back (cl, cd, cm at alpha and a deflection, as physics/aero.py
    blends them: linear to +/-10 deg, then toward the full curve on the + side)."""

    def __init__(self):
        import tomllib
        self.t = {}
        for p in OUT_DIR.glob("*.toml"):
            d = tomllib.loads(p.read_text())
            a = np.array(d["airfoil"]["alpha_deg"])
            curves = {k: {c: np.array(d[k][c]) for c in ("cl", "cd", "cm")} for k in d if k.startswith("deflection")}
            full = d.get("deflection_full", {}).get("deflection_deg")
            self.t[p.stem] = (a, curves, full, d.get("mach"))

    def coef(self, name, alpha_deg, delta_deg=0.0):
        a, c, full, _ = self.t[name]
        alpha_deg = (alpha_deg + 180.0) % 360.0 - 180.0
        val = {k: np.interp(alpha_deg, a, c["deflection_0_deg"][k]) for k in ("cl", "cd", "cm")}
        if delta_deg == 0.0 or "deflection_plus10_deg" not in c:
            return val
        side = "deflection_plus10_deg" if delta_deg > 0 else "deflection_minus10_deg"
        w = abs(delta_deg) / 10.0
        out = {}
        for k in ("cl", "cd", "cm"):
            v10 = np.interp(alpha_deg, a, c[side][k])
            if w > 1.0 and delta_deg > 0 and full:
                vf = np.interp(alpha_deg, a, c["deflection_full"][k])
                out[k] = v10 + (min(w, full / 10.0) - 1.0) / (full / 10.0 - 1.0) * (vf - v10)
            else:
                out[k] = val[k] + min(w, 3.0) * (v10 - val[k])
        return out

    def ratio(self, name, mach, column="lift_slope_ratio"):
        m = self.t[name][3]
        if m is None:
            return 1.0 if column in ("lift_slope_ratio", "clmax_ratio") else 0.0
        return float(np.interp(mach, m["mach"], m[column]))


def aero(tabs: Tables, secs, geo, cg, alpha_deg, stab_deg=0.0, flap_deg=0.0, mach=0.0, airbrake=0.0, beta_deg=0.0,
         aileron_deg=0.0, rudder_deg=0.0):
    """Steady, symmetric, no rotation: (CL, CD, Cm about cg) on S_w and the MAC, as physics/aero.py
    computes the sections' forces (lifting-line induced angle per group, Newton-refined; the wing's
    downwash at the stabilators; lift tilted back by the induced angle), with the [mach] lift ratio
    only (no wave drag, suction or centre shift: those are the simulator's). With sideslip (+: the
    wind from the right) and the aileron (+: the right one trailing edge down) or rudder (+: both
    trailing edges toward -y) it also gives CY, Cl, Cn on S_w and the span."""
    al, be = math.radians(alpha_deg), math.radians(beta_deg)
    u = np.array([math.cos(al) * math.cos(be), math.sin(be), math.sin(al) * math.cos(be)])
    rows = []
    for s in secs:
        uc, un, us = u @ s["c"], u @ s["n"], u @ s["sp"]
        sp = s["spec"]
        d = 0.0
        if sp.get("control") == "stabilator":
            d = stab_deg
        elif sp.get("control") == "flap":
            d = flap_deg
        elif sp.get("control") == "aileron":
            d = aileron_deg * (1.0 if s["pos"][1] > 0 else -1.0)
        elif sp.get("control") == "rudder":
            d = rudder_deg * (-1.0 if s["n"][1] < 0 else 1.0)
        rows.append(dict(s=s, uc=uc, un=un, us=us, v2=uc * uc + un * un, a=math.degrees(math.atan2(-un, uc)), d=d,
                         r=tabs.ratio(sp["airfoil"], mach), g=sp["group"]))

    def group_sums(shift, dw):
        sums = {}
        for r in rows:
            if r["g"] == "body":
                continue
            a = r["a"] - shift.get(r["g"], 0.0) - (dw if r["g"] == "htail" else 0.0)
            c = tabs.coef(r["s"]["spec"]["airfoil"], a, r["d"])["cl"] * r["r"]
            c2 = tabs.coef(r["s"]["spec"]["airfoil"], a + 1.0, r["d"])["cl"] * r["r"]
            c1 = tabs.coef(r["s"]["spec"]["airfoil"], a - 1.0, r["d"])["cl"] * r["r"]
            w = r["v2"] * r["s"]["area"]
            q = sums.setdefault(r["g"], [0.0, 0.0, 0.0])
            q[0] += w
            q[1] += w * c
            q[2] += w * (c2 - c1) / math.radians(2.0)
        return sums

    shift, dw = {}, 0.0
    for _ in range(6):                  # Newton on x = k CL(alpha - x), the wing first (its downwash)
        sums = group_sums(shift, dw)
        for g in ("wing", "htail", "vtail"):
            if g not in sums:
                continue
            w, l, m = sums[g]
            cl, sl = l / w, m / w
            k = geo[g]["k"]
            x = shift.get(g, 0.0)
            den = max(1.0 + k * sl, 0.5)
            x = x + math.degrees((k * cl - math.radians(x)) / den)
            shift[g] = max(min(x, math.degrees(0.25)), -math.degrees(0.25))
            if g == "wing":
                dw = math.degrees(geo["dw_per_cl"] * (cl - sl * math.radians(shift[g] - shift.get(g, 0.0))))
        sums = group_sums(shift, dw)
        dw = math.degrees(geo["dw_per_cl"] * sums["wing"][1] / sums["wing"][0])
    F, M = np.zeros(3), np.zeros(3)
    for r in rows:
        s = r["s"]
        if r["v2"] < 1e-12:
            continue
        v = math.sqrt(r["v2"])
        sh = shift.get(r["g"], 0.0) + (dw if r["g"] == "htail" else 0.0)
        co = tabs.coef(s["spec"]["airfoil"], r["a"] - sh, r["d"])
        cl, cd, cm = co["cl"] * r["r"], co["cd"], co["cm"]
        if mach > 0.0:              # the [mach] drag and moment terms, as compress.mach_table_correct (attached flow)
            name = s["spec"]["airfoil"]
            a_eff = max(min(math.radians(r["a"] - sh), 0.6), -0.6)
            cd += tabs.ratio(name, mach, "cd_wave") + tabs.ratio(name, mach, "suction_loss") * cl * math.tan(a_eff)
            cm -= cl * tabs.ratio(name, mach, "ac_shift_chord")
        cd += airbrake * s["spec"].get("airbrake_dcd", 0.0)
        q_area = r["v2"] * s["area"]
        ucn, unn = r["uc"] / v, r["un"] / v
        lift_dir = ucn * s["n"] - unn * s["c"]
        drag_dir = -(ucn * s["c"] + unn * s["n"])
        shr = math.radians(sh)
        f = q_area * cl * (math.cos(shr) * lift_dir + math.sin(shr) * drag_dir) + q_area * cd * drag_dir \
            - r["us"] * abs(r["us"]) * s["area"] * 0.008 * s["sp"]
        F += f
        M += np.cross(s["pos"] - cg, f) + q_area * s["spec"]["chord_m"] * cm * s["sp"]
    lift = np.array([math.sin(al), 0.0, -math.cos(al)])
    b = geo["wing"]["span"]
    lat = dict(CY=F[1] / S_W, Cl=M[0] / (S_W * b), Cn=M[2] / (S_W * b))
    return F @ lift / S_W, -(F @ u) / S_W, M[1] / (S_W * MAC_M), shift, dw, lat


def check():
    data, secs = read_aircraft()
    geo = geometry(secs)
    print("groups: " + "; ".join(f"{g} area {geo[g]['area']:.2f} m2 span {geo[g]['span']:.2f} A {geo[g]['aspect']:.2f} "
                                 f"e {geo[g]['e']:.3f}" for g in ("wing", "htail", "vtail"))
          + f"; downwash per CL {geo['dw_per_cl']:.3f}; horizontal body {geo['body_area']:.2f} m2")
    sec_mass = sum(s["spec"].get("mass_kg", 0.0) for s in secs)
    items = sum(m["mass_kg"] for m in data["mass"])
    pilot = sum(m["mass_kg"] for m in data["mass"] if m["name"] == "pilot")
    print(f"empty: sections {sec_mass:.0f} + items {items - pilot:.0f} = {sec_mass + items - pilot:.0f} kg "
          f"(SAC 12,916); pilot {pilot:.0f}")
    loads = (("empty (no pilot, no rounds, no fuel)", 0.0, False, False), ("pilot + rounds, no fuel", 0.0, True, True),
             ("set A: 16,783 kg (fuel share to match)", None, True, True), ("full internal fuel", 1.0, True, True))
    fuel_cap = sum(t["capacity_kg"] for t in data["tank"])
    for label, frac, rounds, pil in loads:
        if frac is None:
            base_m = mass_properties(data, secs, 0.0, rounds, pil)[0]
            frac = (16783.0 - base_m) / fuel_cap
        m, cg, inertia = mass_properties(data, secs, frac, rounds, pil)
        print(f"{label:40s} {m:8.0f} kg  CG x {cg[0]:7.3f} ({pct_mac(cg[0]):5.1f} % MAC) z {cg[2]:+.3f}  "
              f"Ixx {inertia[0, 0]:7.0f} Iyy {inertia[1, 1]:7.0f} Izz {inertia[2, 2]:7.0f} Ixz {inertia[0, 2]:+6.0f}")
    print("  (AFIT-92 set A at 16,783 kg: Ixx 34,546, Iyy 225,907, Izz 253,443, Ixz -1,356 kg m2)")
    m, cg, _ = mass_properties(data, secs, 1.0, True, True)
    gear = {g["name"]: g for g in data["gear"]}
    xn, xm = gear["nose"]["position_m"][0], gear["main_right"]["position_m"][0]
    wn = m * 9.80665 * (cg[0] - xm) / (xn - xm)
    wm = (m * 9.80665 - wn) / 2
    for name, load in (("nose", wn), ("main_right", wm)):
        g = gear[name]
        print(f"gear {name}: static load {load / 1000:.1f} kN, compression {load / g['stiffness_n_per_m']:.3f} m, "
              f"contact at z {g['position_m'][2] - load / g['stiffness_n_per_m']:.3f}")
    tip_back = math.degrees(math.atan2(cg[0] - xm, 2.20 - cg[2]))
    print(f"tip-back angle {tip_back:.1f} deg; nose-wheel share {wn / (m * 9.80665) * 100:.1f} %")
    tabs = Tables()
    ref = np.array([-(LEMAC_M + 0.2565 * MAC_M), 0.0, cg[2]])
    print("\nlow speed (no compressibility), moments about 25.65 % MAC (AFIT's reference); stabilator 0:")
    print(" alpha    CL      CD     Cm    (TN D-8052 CL; AFIT Cm)")
    tn = {16: 0.89, 20: 1.035, 24: 1.13, 28: 1.18, 32: 1.215, 40: 1.25}
    afit_cm = {0: 0.005, 10: -0.040, 20: -0.124, 30: -0.216, 40: -0.307}
    for a in (-10, -5, 0, 2, 4, 6, 8, 10, 12, 16, 20, 24, 28, 32, 36, 40, 45, 50, 60, 70, 90):
        cl, cd, cmv, sh, dw, _lat = aero(tabs, secs, geo, ref, float(a))
        extra = (f"  TN {tn[a]:.3f}" if a in tn else "") + (f"  AFIT Cm {afit_cm[a]:+.3f}" if a in afit_cm else "")
        print(f"{a:5d} {cl:7.3f} {cd:7.4f} {cmv:+7.3f}   induced {sh.get('wing', 0):5.2f} deg  "
              f"downwash {dw:5.2f}{extra}")
    print("trimmed (stabilator for Cm = 0 about 25.65 % MAC, within -29..+15 deg):")
    for a in (8, 12, 16, 20, 24, 28, 32, 36, 40):
        lo, hi = -29.0, 15.0
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            if aero(tabs, secs, geo, ref, float(a), stab_deg=mid)[2] > 0.0:
                lo = mid
            else:
                hi = mid
        cl, cd, cmv, *_ = aero(tabs, secs, geo, ref, float(a), stab_deg=mid)
        print(f"{a:5d} {cl:7.3f} {cd:7.4f} {cmv:+7.3f}  stabilator {mid:+6.1f} deg"
              + (f"  TN {tn[a]:.3f}" if a in tn else ""))
    c1, _, m1, *_ = aero(tabs, secs, geo, ref, -2.0)
    c2, _, m2, *_ = aero(tabs, secs, geo, ref, 2.0)
    cla = (c2 - c1) / math.radians(4.0)
    cma = (m2 - m1) / math.radians(4.0)
    print(f"CL_alpha {cla:.3f} /rad (f15c.md: 3.5 at M 0.2); Cm_alpha {cma:+.3f} /rad about 25.65 % MAC "
          f"(AFIT -0.08, TM-4604 -0.12); neutral point {25.65 - cma / cla * 100:.1f} % MAC")
    cp, _, mp, *_ = aero(tabs, secs, geo, ref, 4.0, stab_deg=5.0)
    c0, _, m0, *_ = aero(tabs, secs, geo, ref, 4.0, stab_deg=-5.0)
    print(f"stabilator: CL_delta {(cp - c0) / math.radians(10):.3f} /rad (AFIT 0.41), Cm_delta "
          f"{(mp - m0) / math.radians(10):+.3f} /rad (AFIT -0.46, TM-4604 -0.41)")
    cf, cdf, _, *_ = aero(tabs, secs, geo, ref, 8.0, flap_deg=30.0)
    c8, cd8, _, *_ = aero(tabs, secs, geo, ref, 8.0)
    print(f"flaps 30 deg at alpha 8: dCL {cf - c8:+.3f}, dCD {cdf - cd8:+.4f} (T.O. approach 160 -> 147 kt: dCL ~0.18 "
          f"trimmed; ZAR/VSPAERO 35 deg dCD 0.04 at 8 deg)")
    for a in (0.0, 10.0, 20.0, 30.0):
        lp = aero(tabs, secs, geo, ref, a, beta_deg=2.0)[5]
        lm = aero(tabs, secs, geo, ref, a, beta_deg=-2.0)[5]
        ap = aero(tabs, secs, geo, ref, a, aileron_deg=5.0)[5]
        am = aero(tabs, secs, geo, ref, a, aileron_deg=-5.0)[5]
        rp = aero(tabs, secs, geo, ref, a, rudder_deg=5.0)[5]
        rm = aero(tabs, secs, geo, ref, a, rudder_deg=-5.0)[5]
        print(f"alpha {a:4.0f}: per deg CY_beta {(lp['CY'] - lm['CY']) / 4:+.4f} "
              f"Cl_beta {(lp['Cl'] - lm['Cl']) / 4:+.5f} "
              f"Cn_beta {(lp['Cn'] - lm['Cn']) / 4:+.5f}; aileron Cl {(ap['Cl'] - am['Cl']) / 10:+.5f} Cn "
              f"{(ap['Cn'] - am['Cn']) / 10:+.5f}; rudder Cn {(rp['Cn'] - rm['Cn']) / 10:+.5f} "
              f"Cl {(rp['Cl'] - rm['Cl']) / 10:+.5f}")
    _, cdb, _, *_ = aero(tabs, secs, geo, ref, 0.0, airbrake=1.0)
    _, cd0, _, *_ = aero(tabs, secs, geo, ref, 0.0)
    print(f"speed brake: dCD {cdb - cd0:.4f} (AFIT 0.0436)")
    parts = {}
    for s in secs:
        co = tabs.coef(s["spec"]["airfoil"], 0.0)
        parts[s["spec"]["group"]] = parts.get(s["spec"]["group"], 0.0) + co["cd"] * s["area"]
    print("zero-lift drag areas at the tables' Reynolds number (M 0.6, 6 km): "
          + ", ".join(f"{g} {v:.3f} m2" for g, v in parts.items()) + f"; CD0 {sum(parts.values()) / S_W:.4f}")
    print("\nlift-curve slope against Mach with the [mach] lift ratios (the simulator's induced solve; "
          "target f15c.md 3.4):")
    for i, mach in enumerate(MACH):
        c1, *_ = aero(tabs, secs, geo, ref, -1.0, mach=mach)
        c2, *_ = aero(tabs, secs, geo, ref, 1.0, mach=mach)
        print(f"  M {mach:4.2f}: CL_alpha {(c2 - c1) / math.radians(2.0):.3f}  "
              f"(target {CLA_AIRCRAFT[i] / CLA_AIRCRAFT[0] * cla:.3f})")
    print("with the [mach] terms (wave drag, suction loss, centre shift; attached flow), moments about 25.65 % MAC:")
    for mach in MACH:
        cd0m = aero(tabs, secs, geo, ref, 0.0, mach=mach)
        lo, hi = 0.0, 15.0
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            if aero(tabs, secs, geo, ref, mid, mach=mach)[0] < 0.3 + cd0m[0]:
                lo = mid
            else:
                hi = mid
        c3 = aero(tabs, secs, geo, ref, mid, mach=mach)
        c1, _, m1, *_ = aero(tabs, secs, geo, ref, -1.0, mach=mach)
        c2, _, m2, *_ = aero(tabs, secs, geo, ref, 1.0, mach=mach)
        print(f"  M {mach:4.2f}: CD0 {cd0m[1]:.4f}  K at CL 0.3 {(c3[1] - cd0m[1]) / 0.09:.3f}  neutral point "
              f"{25.65 - (m2 - m1) / (c2 - c1) * 100:5.1f} % MAC")
    print("  (f15c.md 3.4, GS: CD0 0.025 -> 0.051 at M 1.2 -> 0.036 at 2.5 with its 0.025 subsonic; K 0.217 to M 1.4, "
          "0.227 at 1.6, 0.265 at 1.8, 0.302 at 2.0, 0.337 at 2.2, 0.389 at 2.5)")
    wave = 0.0
    for s in secs:
        m = tabs.t[s["spec"]["airfoil"]][3]
        wave += np.interp(1.2, m["mach"], m["cd_wave"]) * s["area"]
    print(f"wave drag at M 1.2: sum cd_wave x area / S_w = {wave / S_W:.4f} (target 0.026)")


if __name__ == "__main__":
    main()
