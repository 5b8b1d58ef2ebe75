"""Generate the Grob G102 Astir CS airfoil tables (docs/aircraft_format.md) over -180..180 deg.

    pip install neuralfoil          # brings aerosandbox, whose airfoil database we read
    python tools/make_airfoils.py   # writes aircraft/astir/airfoils/*.toml

This is a build tool only: the game reads the TOML files and never imports NeuralFoil.

Method (the same for every lifting section):

1. Coordinates. The section coordinates are the UIUC Airfoil Coordinates Database
   files that ship inside AeroSandbox (``aerosandbox/geometry/airfoil/airfoil_database``),
   loaded with ``asb.Airfoil(name)``: ``e603`` (Eppler E 603, 19.8 % thick) for the wing,
   ``fx711530`` (Wortmann FX 71-L-150/30, 15 % symmetric) for the tail.
2. Attached flow. NeuralFoil 0.3 (Sharpe & Hansman 2025, MIT licence; a network trained
   on XFOIL, n_crit = 9, free transition), ``model_size="xlarge"``, at one representative
   Reynolds number per table (the section's chord at 85 km/h, mid soaring range, sea
   level: Re = 23.6 m/s * c / 1.46e-5), on a 0.25 deg grid over -20..20 deg.
3. Control surfaces. The +10 / -10 deg curves are NeuralFoil on the *deflected geometry*:
   ``Airfoil.add_control_surface(deflection, hinge_point_x = 1 - chord_fraction)``
   (AeroSandbox rotates the coordinates aft of the hinge; positive = trailing edge down).
4. Stall. NeuralFoil is used as it is up to +16 deg (its confidence stays above ~0.9 there)
   and down to the angle of minimum lift within -16..-4 deg (for the cambered E 603 its
   confidence collapses below about -12 deg). No smoothing: the E 603 shows the XFOIL-like
   first lift peak near 9 deg (onset of trailing-edge separation), a shallow dip and a slow
   rise to its maximum at 16 deg; the reported CLmax and stall angle are the maximum of the
   curve within 4..16 deg.
5. Post-stall. Past the stall the lift falls to the flat-plate value within STALL_BLEND_DEG
   (a smoothstep blend from the stall point) and follows the flat plate beyond:
       CL_plate = (CD_max/2) sin 2a,  CD_plate = CD_180 + (CD_max - CD_180) sin^2 a
   This is the shape of the measured post-stall data of the symmetrical sections Sheldahl &
   Klimas tested to 180 deg (1981, SAND80-2114): lift drops sharply just past the stall and
   then follows a flat plate with its broad hump near 45 deg. A cambered section of 12-15 %
   with a trailing-edge stall (the NACA 4412 and 2415 in Abbott & von Doenhoff's app. IV)
   falls far more gently: ``_trailing_edge_stall``, which the tools choose per section (the
   C172's NACA 2412, Nov 2026). Viterna & Corrigan (1982), fitted to
   rotating wind-turbine blades whose stalled lift is held up by rotation, keeps CL near 1.2
   at 20 deg for this section: too gentle for a non-rotating wing, where it suppressed the
   autorotation that makes a wing drop and a spin (seed 004). CD_max = 1.11 + 0.018 AR
   (Viterna & Corrigan's finite-aspect-ratio plate) for the wing, 1.2 for the tail.
   The negative side mirrors the positive one.
   Pitching moment about the quarter chord: the normal force CN = CL cos a + CD sin a acts
   at a centre of pressure moving from the quarter chord (a = 0) to mid-chord (90 deg) and
   to the three-quarter chord (180 deg), x_cp = 0.5 - 0.25 cos a (Montgomerie 2004,
   FOI-R-1305-SE; Spera 2008, NASA/CR-2008-215434), CM = -CN (x_cp - 0.25), plus the
   attached moment at the stall faded out as cos^2 a so CM is continuous.
   The table is periodic: the values at -180 and +180 deg are equal.

The fuselage has no airfoil: ``fuselage.toml`` is an analytic slender-body table
(seed 000: the fuselage is an inefficient wing), see ``fuselage_table``.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

OUT_DIR = Path(__file__).resolve().parents[1] / "aircraft" / "astir" / "airfoils"

# output grid: 1 deg inside -25..25, 5 deg beyond; exactly -180 first and 180 last
ALPHA_DEG = np.concatenate([np.arange(-180.0, -25.0, 5.0), np.arange(-25.0, 25.0, 1.0),
                            np.arange(25.0, 180.01, 5.0)])
FINE_DEG = np.arange(-20.0, 20.001, 0.25)       # where NeuralFoil is evaluated
POS_STALL_WINDOW = (4.0, 16.0)
NEG_STALL_WINDOW = (-16.0, -4.0)
CD_180 = 0.03                                   # trailing edge first, flow attached again
STALL_BLEND_DEG = 8.0                           # lift reaches the flat plate 8 deg past the stall
# A cambered section of 12-15 % with a trailing-edge stall loses its lift gradually (see
# _trailing_edge_stall): to TE_PLATEAU of its maximum TE_DROP_DEG past the stall, then into the
# flat plate by TE_TO_PLATE_DEG past it
TE_PLATEAU = 0.70
TE_DROP_DEG = 8.0
TE_TO_PLATE_DEG = 20.0

CITATIONS = (
    "Sharpe, P. & Hansman, R. J., NeuralFoil: an airfoil aerodynamics analysis tool using "
    "physics-informed machine learning, 2025 (neuralfoil 0.3, MIT); coordinates from the UIUC "
    "Airfoil Coordinates Database as shipped in AeroSandbox 4.2; Sheldahl, R. E. & Klimas, P. C., "
    "Aerodynamic characteristics of seven symmetrical airfoil sections through 180-degree angle of attack, "
    "SAND80-2114, 1981; Viterna, L. A. & Corrigan, R. D., "
    "Fixed pitch rotor performance of large horizontal axis wind turbines, NASA CP-2230, 1982; "
    "Montgomerie, B., Methods for root effects, tip effects and extending the angle of attack range "
    "to +/-180 deg, FOI-R-1305-SE, 2004; Spera, D. A., Models of lift and drag coefficients of "
    "stalled and unstalled airfoils in wind turbines and wind tunnels, NASA/CR-2008-215434, 2008."
)


@dataclass
class Section:
    file: str                 # aircraft/astir/airfoils/<file>.toml
    name: str
    coords: str               # AeroSandbox / UIUC database name
    reynolds: float
    chord_fraction: float     # control surface chord / section chord (0: no control)
    cd_max: float             # flat-plate drag at 90 deg
    why: str                  # which surface, and why this section and Reynolds number


SECTIONS = [
    Section("e603", "Eppler E 603", "e603", 1.5e6, 0.0, 1.44,
            "Astir CS wing, inner strips (no flaps). The Astir wing section is the Eppler E 603 "
            "(lsv-burgdorf.de Astir CS page; Speed Astir II B report, segelflug/vdocuments; "
            "French Wikipedia G102 infobox). Re 1.5e6: chord ~0.97 m at 85 km/h."),
    Section("e603_aileron", "Eppler E 603 with 20 % aileron", "e603", 1.0e6, 0.20, 1.44,
            "Astir CS outer wing strips with ailerons. Same section (E 603 out to the tip); "
            "aileron chord 20 % assumed (not found in the sources). Re 1.0e6: chord ~0.62 m at 85 km/h."),
    Section("fx71l150_elevator", "Wortmann FX 71-L-150/30 with 35 % elevator", "fx711530", 0.9e6, 0.35, 1.20,
            "Astir CS horizontal tail (fixed stabiliser + elevator, T-tail). The tail section is not "
            "published in the sources found; FX 71-L-150/30, Wortmann's 15 % symmetric section for "
            "30 % flapped tails, is assumed. Re 0.9e6: chord 0.55 m at 85 km/h."),
    Section("fx71l150_rudder", "Wortmann FX 71-L-150/30 with 40 % rudder", "fx711530", 1.4e6, 0.40, 1.20,
            "Astir CS fin and rudder; section assumed as for the tailplane. Re 1.4e6: chord 0.9 m at 85 km/h."),
]


# ----------------------------------------------------------------------------- NeuralFoil part

def neuralfoil_polar(coords: str, reynolds: float, deflection_deg: float, chord_fraction: float):
    """(cl, cd, cm) on FINE_DEG from NeuralFoil, for the section with its control deflected."""
    import aerosandbox as asb
    import neuralfoil as nf

    airfoil = asb.Airfoil(coords)
    if deflection_deg:
        airfoil = airfoil.add_control_surface(deflection=deflection_deg, hinge_point_x=1.0 - chord_fraction)
    r = nf.get_aero_from_airfoil(airfoil, alpha=FINE_DEG, Re=reynolds, model_size="xlarge")
    return np.asarray(r["CL"], float), np.asarray(r["CD"], float), np.asarray(r["CM"], float)


# ----------------------------------------------------------------------------- post-stall part

def _stall(alpha, values, window, pick):
    inside = (alpha >= window[0]) & (alpha <= window[1])
    i = np.flatnonzero(inside)[pick(values[inside])]
    return i


def _stall_blend(a, a_s, cl_s, cd_s, cd_max):
    """Stall (a_s) .. 90 deg: from the stall point to the flat plate within STALL_BLEND_DEG."""
    x = np.clip((a - a_s) / math.radians(STALL_BLEND_DEG), 0.0, 1.0)
    w = x * x * (3 - 2 * x)                                   # smoothstep
    cl_p, cd_p = _flat_plate(a, cd_max)
    return (1 - w) * cl_s + w * cl_p, np.maximum((1 - w) * cd_s + w * cd_p, cd_s)


def _trailing_edge_stall(a, a_s, cl_s, cd_s, cd_max):
    """Stall (a_s) .. 90 deg for a section whose separation creeps forward from the trailing
    edge: lift falls by a smoothstep to TE_PLATEAU of c_l,max over TE_DROP_DEG, then blends into
    the flat plate by TE_TO_PLATE_DEG past the stall; drag as _stall_blend's. The shape of the
    measured two-dimensional curves of the NACA 4412 and 2415 sections at R = 3-9 million
    (Abbott & von Doenhoff, Theory of Wing Sections, 1959, app. IV; Langley two-dimensional tunnel):
    c_l falls 0.1-0.3 in the first 2-4 deg past its maximum and holds 0.65-0.85 of it to 20-24 deg
    (the 2415 at R = 3 million: c_l,max 1.42 at 14 deg, 1.17 at 18, 1.07 at 20, 1.00 at 22, 1.03 at
    24; the 4412: 1.52 at 13.3 deg, 1.33 at 18.2, 1.27 at 20.2). The plateau, 0.70, is the 2415's,
    the steeper of the two."""
    d = np.degrees(a - a_s)
    x = np.clip(d / TE_DROP_DEG, 0.0, 1.0)
    cl_te = cl_s * (1.0 - (1.0 - TE_PLATEAU) * x * x * (3 - 2 * x))
    y = np.clip((d - TE_DROP_DEG) / (TE_TO_PLATE_DEG - TE_DROP_DEG), 0.0, 1.0)
    w = y * y * (3 - 2 * y)
    cl_p, _ = _flat_plate(a, cd_max)
    _, cd = _stall_blend(a, a_s, cl_s, cd_s, cd_max)
    return (1 - w) * cl_te + w * cl_p, cd


def _flat_plate(a, cd_max):
    return cd_max / 2 * np.sin(2 * a), CD_180 + (cd_max - CD_180) * np.sin(a) ** 2


def _post_stall_moment(a, cl, cd, a_s, cm_s, cl_s, cd_s):
    """CM from a centre of pressure moving aft, plus the stall moment faded as cos^2."""
    def cm_cp(x, l, d):
        cn = l * np.cos(x) + d * np.sin(x)
        return -cn * (0.25 - 0.25 * np.cos(x))          # x_cp - 0.25, x_cp = 0.5 - 0.25 cos a
    offset = cm_s - cm_cp(a_s, cl_s, cd_s)
    fade = np.where(np.abs(a) <= math.pi / 2, (np.cos(a) / math.cos(a_s)) ** 2, 0.0)
    return cm_cp(a, cl, cd) + offset * fade


def full_range(cl_f, cd_f, cm_f, cd_max):
    """Attached NeuralFoil curves on FINE_DEG -> (cl, cd, cm) on ALPHA_DEG, plus the stall points."""
    i_pos = int(np.argmin(np.abs(FINE_DEG - POS_STALL_WINDOW[1])))   # post-stall from +16 deg
    i_neg = _stall(FINE_DEG, cl_f, NEG_STALL_WINDOW, np.argmin)        # ... and from CLmin
    i_max = _stall(FINE_DEG, cl_f, POS_STALL_WINDOW, np.argmax)        # reported stall
    a_pos, a_neg = FINE_DEG[i_pos], FINE_DEG[i_neg]
    cl = np.empty_like(ALPHA_DEG)
    cd = np.empty_like(ALPHA_DEG)
    cm = np.empty_like(ALPHA_DEG)
    for k, deg in enumerate(ALPHA_DEG):
        a = math.radians(deg)
        if a_neg <= deg <= a_pos:                              # attached: NeuralFoil
            cl[k] = np.interp(deg, FINE_DEG, cl_f)
            cd[k] = np.interp(deg, FINE_DEG, cd_f)
            cm[k] = np.interp(deg, FINE_DEG, cm_f)
            continue
        side = 1.0 if deg > 0 else -1.0                        # mirror the negative side
        i = i_pos if side > 0 else i_neg
        a_s = math.radians(abs(FINE_DEG[i]))
        cl_s, cd_s, cm_s = side * cl_f[i], cd_f[i], side * cm_f[i]
        b = abs(a)
        if b <= math.pi / 2:
            l, d = _stall_blend(np.array(b), a_s, cl_s, cd_s, cd_max)
        else:
            l, d = _flat_plate(np.array(b), cd_max)
        m = _post_stall_moment(np.array(b), l, d, a_s, cm_s, cl_s, cd_s)
        cl[k], cd[k], cm[k] = side * float(l), float(d), side * float(m)
    for arr in (cl, cd, cm):                                   # periodic: -180 is +180
        arr[0] = arr[-1] = 0.5 * (arr[0] + arr[-1])
    cl[0] = cl[-1] = 0.0
    stall = dict(alpha_pos=FINE_DEG[i_max], cl_max=float(cl_f[i_max]), alpha_neg=a_neg, cl_min=float(cl_f[i_neg]))
    return cl, cd, cm, stall


def airfoil_table(sec: Section):
    curves, stalls = {}, {}
    deflections = (("deflection_0_deg", 0.0),)
    if sec.chord_fraction > 0:
        deflections += (("deflection_plus10_deg", 10.0), ("deflection_minus10_deg", -10.0))
    for key, d in deflections:
        cl, cd, cm, stall = full_range(*neuralfoil_polar(sec.coords, sec.reynolds, d, sec.chord_fraction),
                                       sec.cd_max)
        curves[key] = dict(cl=cl, cd=cd, cm=cm)
        stalls[key] = stall
    s0 = stalls["deflection_0_deg"]
    source = (f"{sec.why} Attached flow: NeuralFoil xlarge on the UIUC '{sec.coords}' coordinates at "
              f"Re {sec.reynolds:.1e}, n_crit 9"
              + (f"; +/-10 deg curves from NeuralFoil on the geometry deflected about a hinge at "
                 f"{1 - sec.chord_fraction:.2f} c (AeroSandbox add_control_surface)" if sec.chord_fraction else "")
              + f". Stall {s0['alpha_pos']:.2f} deg (CLmax {s0['cl_max']:.3f}) / {s0['alpha_neg']:.2f} deg "
              f"(CLmin {s0['cl_min']:.3f}); NeuralFoil used up to +16 deg and down to CLmin, beyond that lift "
              f"blends to a flat plate (CD_max {sec.cd_max}) within {STALL_BLEND_DEG:.0f} deg of the stall and follows it "
              f"to 180 deg, centre of pressure 0.25c -> 0.5c -> 0.75c. Made by tools/make_airfoils.py. "
              + CITATIONS)
    head = dict(name=sec.name, source=source, control_chord_fraction=sec.chord_fraction,
                reynolds_number=sec.reynolds,
                notes=("stall per deflection: " + "; ".join(
                    f"{k}: +{v['alpha_pos']:.2f} deg CL {v['cl_max']:.3f}, {v['alpha_neg']:.2f} deg CL {v['cl_min']:.3f}"
                    for k, v in stalls.items())))
    return head, curves, stalls


# ----------------------------------------------------------------------------- fuselage

# Drag area of the whole fuselage at zero incidence, including canopy and wing-root
# interference. 0.040 m2 is the low end of the 0.04-0.06 m2 range for glider fuselages
# (Thomas 1999, ch. 4), chosen in the wind tunnel against the published polar (seed 000's
# tuning phase adjusts the fuselage to get the drag right): 0.055 m2 left every polar
# point 6-7 % high. Build-up check: wetted area ~7.5 m2 x Cf 0.0027 x form factor 1.09
# = 0.022 m2, plus canopy and interference ~0.015 m2 -> 0.037 m2.
FUSELAGE_DRAG_AREA_M2 = 0.040
FUSELAGE_PLANFORM_M2 = 2.40 + 2.88   # the two body sections' span x chord in aircraft.toml
FUSELAGE_CD0 = FUSELAGE_DRAG_AREA_M2 / FUSELAGE_PLANFORM_M2   # per section planform area
FUSELAGE_CL_ALPHA = 0.5    # per rad, on the same area
FUSELAGE_CROSSFLOW = 1.0   # eta * CD_cylinder (Allen & Perkins 1951): CD at 90 deg
FUSELAGE_MUNK = 0.05       # CM = MUNK sin 2a, nose-up (destabilising) with alpha


def fuselage_table():
    """Slender body (Allen & Perkins 1951, NACA TR-1048): normal force = potential + crossflow,
    axial force = skin friction, in body axes, then turned into lift and drag. The potential
    term is written CLa sin a |cos a| (= CLa/2 sin 2a ahead of 90 deg) so a body flying tail
    first behaves like one flying nose first and never makes thrust."""
    a = np.radians(ALPHA_DEG)
    cn = FUSELAGE_CL_ALPHA * np.sin(a) * np.abs(np.cos(a)) + FUSELAGE_CROSSFLOW * np.sin(a) * np.abs(np.sin(a))
    ca = FUSELAGE_CD0 * np.cos(a)
    cl = cn * np.cos(a) - ca * np.sin(a)
    cd = cn * np.sin(a) + ca * np.cos(a)
    cm = FUSELAGE_MUNK * np.sin(2 * a)
    for arr in (cl, cd, cm):
        arr[0] = arr[-1] = 0.5 * (arr[0] + arr[-1])
    cl[0] = cl[-1] = cm[0] = cm[-1] = 0.0
    source = (
        "Fuselage as an inefficient wing (seed 000), analytic slender-body model of Allen, H. J. & Perkins, "
        "E. W., A study of effects of viscosity on flow over slender inclined bodies of revolution, NACA "
        "TR-1048, 1951: CN = CLa sin a |cos a| + eta*CDc sin a |sin a|, CA = CD0 cos a, CL = CN cos a - CA sin a, "
        f"CD = CN sin a + CA cos a, with CLa = {FUSELAGE_CL_ALPHA}/rad, eta*CDc = {FUSELAGE_CROSSFLOW} "
        f"(finite circular cylinder in crossflow, Hoerner, Fluid-Dynamic Drag, 1965, ch. 3), CD0 = {FUSELAGE_CD0}; "
        f"Munk moment CM = {FUSELAGE_MUNK} sin 2a (Munk, NACA TR-184, 1924). Reference area = the section's "
        "span x chord, i.e. the fuselage planform (top view for the horizontal body section, side view for the "
        "vertical one), so the crossflow drag at 90 deg comes out on the area that really sees it. CD0 is set so "
        f"that both body sections together (2.40 + 2.88 m2) give a drag area of {FUSELAGE_DRAG_AREA_M2} m2 at zero "
        "incidence including wing-fuselage interference, the low end of the glider-fuselage range 0.04-0.06 m2 "
        "(Thomas, F., Fundamentals of Sailplane Design, 1999, ch. 4), chosen against the published polar in the "
        "wind tunnel (seed 000's tuning of the fuselage). No stall: a body has none. "
        "Made by tools/make_airfoils.py."
    )
    head = dict(name="Astir CS fuselage (slender body)", source=source, control_chord_fraction=0.0,
                notes=f"CD at 0 deg = {FUSELAGE_CD0:.5f} and at 90 deg = 1.0 on the section planform area.")
    return head, {"deflection_0_deg": dict(cl=cl, cd=cd, cm=cm)}


# ----------------------------------------------------------------------------- TOML writer

def _fmt(values) -> str:
    items = [f"{float(v):.5f}".rstrip("0") for v in values]
    items = [s + "0" if s.endswith(".") else s for s in items]
    items = ["0.0" if s in ("0.0", "-0.0") else s for s in items]
    lines, line = [], []
    for s in items:
        if len(", ".join(line + [s])) > 96:
            lines.append(", ".join(line))
            line = []
        line.append(s)
    lines.append(", ".join(line))
    return "[\n    " + ",\n    ".join(lines) + ",\n]"


def _str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_table(path: Path, head: dict, curves: dict):
    out = ["[airfoil]"]
    for k, v in head.items():
        out.append(f"{k} = {_str(v) if isinstance(v, str) else repr(float(v))}")
    out.append(f"alpha_deg = {_fmt(ALPHA_DEG)}")
    for key in ("deflection_0_deg", "deflection_plus10_deg", "deflection_minus10_deg", "deflection_full"):
        if key not in curves:
            continue
        out += ["", f"[{key}]"]
        if "deflection_deg" in curves[key]:          # the full-deflection curve says at what deflection
            out.append(f"deflection_deg = {float(curves[key]['deflection_deg'])!r}")
        for coef in ("cl", "cd", "cm"):
            out.append(f"{coef} = {_fmt(curves[key][coef])}")
    path.write_text("\n".join(out) + "\n")


def check(curves: dict):
    for key, c in curves.items():
        for coef, v in c.items():
            if coef == "deflection_deg":
                continue
            assert np.all(np.isfinite(v)), (key, coef)
            assert abs(v[0] - v[-1]) < 1e-9, (key, coef)
        assert np.min(c["cd"]) > 0, key


def main():
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for sec in ([] if "--fuselage-only" in sys.argv else SECTIONS):
        head, curves, stalls = airfoil_table(sec)
        check(curves)
        write_table(OUT_DIR / f"{sec.file}.toml", head, curves)
        for k, s in stalls.items():
            print(f"{sec.file:20s} {k:24s} stall +{s['alpha_pos']:5.2f} deg CLmax {s['cl_max']:.3f}   "
                  f"{s['alpha_neg']:6.2f} deg CLmin {s['cl_min']:.3f}")
    head, curves = fuselage_table()
    check(curves)
    write_table(OUT_DIR / "fuselage.toml", head, curves)
    print("fuselage written")


if __name__ == "__main__":
    main()
