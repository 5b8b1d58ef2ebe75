"""Generate the P-51D Mustang airfoil tables (docs/aircraft_format.md) over -180..180 deg.

    pip install neuralfoil                 # brings aerosandbox and its UIUC coordinates
    python tools/make_p51d_airfoils.py     # writes aircraft/p51d/airfoils/*.toml
    python tools/make_p51d_airfoils.py --full-only   # only the flaps' full-deflection curves (no NeuralFoil)

A build tool only (the game reads the TOML files). It uses the method of
tools/make_airfoils.py (NeuralFoil for the attached flow, control surfaces on the deflected
geometry, a smoothstep blend into a flat plate past the stall, the moment from a centre of
pressure moving aft) with these P-51D specifics:

* Wing coordinates: the UIUC Airfoil Coordinates Database files ``p51droot`` ("P-51D ROOT
  (BL17.5) AIRFOIL", 16.5 % thick) and ``p51dtip`` ("P-51D TIP (BL215) AIRFOIL", 11.4 %),
  the NAA/NACA 45-100 laminar sections as built, shipped with AeroSandbox. Stations in
  between are AeroSandbox blends of the two (``blend_with_another_airfoil``), linear in
  span as the wing is lofted.
* Surface finish: transition fixed at 5 % chord on both surfaces (``xtr``), wing and tail:
  service aircraft. The design laminar run reaches about half the chord on a polished
  model (NeuralFoil free transition, n_crit 9: c_d ~0.004 at Re 1e7), but production wings
  with paint, skin joints, rivets, gun ports and insects kept little of it; the airframe's
  published zero-lift drag (NASA SP-468: C_D0 0.0163, 3.8 ft2) leaves no room for laminar
  wings once fuselage, canopy and cooling drag are counted (fully turbulent c_d ~0.0078 at
  Re 1.2e7).
* Maximum lift: NeuralFoil (trained on XFOIL) keeps lifting to c_l 1.8-1.9 at 16-18 deg at
  these Reynolds numbers; measured NACA 66-series sections of 12-16 % thickness reach
  c_l,max of about 1.4-1.5 smooth and 1.1-1.3 with standard roughness at R = 6-9 million
  (Abbott & von Doenhoff, Theory of Wing Sections, 1959, app. IV; NACA TR-824, 1945). The
  post-stall blend therefore starts where the NeuralFoil curve reaches the section's
  cl_cap: 1.44 at the 16.5 % root falling to 1.31 at the 11.4 % tip, a production finish
  a little below the smooth values (with a control surface deflected by d degrees the stall angle moves by -0.15 d: a
  trailing edge down stalls earlier).
* Tail: NACA 0010 (AeroSandbox's NACA 4-digit generator); the P-51D tail section is not
  published in the sources found, the sims use 9-10 % symmetric sections.
* Propeller blades: Clark Y scaled to the station thickness (Hamilton Standard blades of
  the period used Clark Y sections: Hartman & Biermann, NACA TR-640, 1938), at a blade
  Reynolds number of 3e6 (chord 0.2-0.27 m at 200-300 m/s, sea level), turbulent, with the
  attached-flow drag doubled for service roughness (NACA TR-824 "standard roughness").
* Fuselage: the slender-body table of tools/make_airfoils.py with the P-51D's planform
  and drag area.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_airfoils as base  # noqa: E402

OUT_DIR = Path(__file__).resolve().parents[1] / "aircraft" / "p51d" / "airfoils"
WING_XTR = 0.05
TAIL_XTR = 0.05
BLADE_XTR = 0.05     # service blades: leading-edge erosion, no laminar run
# ... and their section drag at the level of NACA "standard roughness" (grit on the leading
# edge), which about doubles the minimum drag of smooth sections at R = 3-9 million
# (Abbott, von Doenhoff & Stivers, NACA TR-824, 1945; Theory of Wing Sections app. IV)
BLADE_CD_FACTOR = 2.0
STALL_SHIFT_PER_DEG = -0.15


@dataclass
class Sec:
    file: str
    name: str
    coords: tuple            # ("p51droot",) or ("p51droot", "p51dtip", fraction) or ("clarky", thickness)
    reynolds: float
    chord_fraction: float
    cd_max: float
    thickness: float
    why: str
    xtr: float = 1.0
    cl_cap: float | None = None
    cd_factor: float = 1.0    # attached-flow drag multiplier (surface roughness)
    control_effectiveness: float = 1.0   # the control as built vs the true-contour flap NeuralFoil sees
    trailing_edge_stall: bool = False    # lift past the stall as make_airfoils._trailing_edge_stall (else _stall_blend)


# The ailerons as built are sealed, with beveled trailing edges (the NACA XP-51 aileron work: White &
# Hoover, NACA MR c. 1942; Ames 1944 "Wind-tunnel investigation of ailerons on a low-drag airfoil, 2:
# the effect of thickened and beveled trailing edges": they "reduce the aileron effectiveness, reduce
# the slope of the wing section lift curve, and reduce the hinge-moment coefficients"). NeuralFoil sees a
# true-contour flap with an ideal seal. No published section figure was found: 0.47 of the true-contour
# increment is fitted, with the hinge-moment law in aircraft.toml, to the P-51's measured roll rates
# (NACA Report 868 fig. 47): see aircraft/p51d/REFERENCES.md.
AILERON_EFFECTIVENESS = 0.47
WHY_WING = ("P-51D wing: NAA/NACA 45-100 laminar section as built, UIUC 'p51droot' (BL 17.5 in, 16.5 %) and "
            "'p51dtip' (BL 215 in, 11.4 %) coordinates; ")
SECTIONS = [
    Sec("p51d_root", "P-51D root (BL17.5)", ("p51droot",), 9.5e6, 0.0, 1.21, 0.165,
        WHY_WING + "root strip inside and next to the fuselage, no flap; Re at 200 km/h, chord 2.5 m.",
        WING_XTR, 1.44),
    Sec("p51d_root_flap", "P-51D inner wing, 20 % plain flap", ("p51droot", "p51dtip", 0.2), 8.7e6, 0.20, 1.21,
        0.155, WHY_WING + "inner flap strip, 20 % of the way from root to tip section; flap chord about 0.47 m (20 %, "
        "the flap being nearly constant in chord on the tapered wing, drawn planform proportions); "
        "Re at 200 km/h, chord 2.3 m.", WING_XTR, 1.42),
    Sec("p51d_mid_flap", "P-51D mid wing, 23 % plain flap", ("p51droot", "p51dtip", 0.45), 7.6e6, 0.23, 1.21,
        0.142, WHY_WING + "outer flap strip, 45 % root to tip; flap chord about 0.46 m (23 %); chord 2.0 m.", WING_XTR,
        1.39),
    Sec("p51d_outer_aileron", "P-51D outer wing, 25 % aileron", ("p51droot", "p51dtip", 0.75), 6.3e6, 0.25, 1.21,
        0.127, WHY_WING + "inner aileron strip, 75 % root to tip; aileron chord 25 % assumed; chord 1.65 m.",
        WING_XTR, 1.35, control_effectiveness=AILERON_EFFECTIVENESS),
    Sec("p51d_tip_aileron", "P-51D tip (BL215), 25 % aileron", ("p51dtip",), 5.2e6, 0.25, 1.21, 0.114,
        WHY_WING + "outer aileron strip at the tip section; aileron chord 25 % assumed; chord 1.35 m.",
        WING_XTR, 1.31, control_effectiveness=AILERON_EFFECTIVENESS),
    Sec("p51d_tip", "P-51D tip (BL215)", ("p51dtip",), 4.8e6, 0.0, 1.21, 0.114,
        WHY_WING + "wingtip strip outboard of the aileron; chord 1.25 m.", WING_XTR, 1.31),
    Sec("naca0010_elevator", "NACA 0010, 35 % elevator", ("naca0010",), 4.0e6, 0.35, 1.20, 0.10,
        "P-51D horizontal tail (stabiliser + elevator); section not published, NACA 0010 assumed; elevator the "
        "aft 35 % (drawn planform); Re at 200 km/h, chord 1.05 m.", TAIL_XTR, None),
    Sec("naca0010_rudder", "NACA 0010, 45 % rudder", ("naca0010",), 4.5e6, 0.45, 1.20, 0.10,
        "P-51D fin and rudder; NACA 0010 assumed; rudder 45 % of the fin area (drawn planform); chord 1.2 m.",
        TAIL_XTR, None),
    Sec("clarky_20", "Clark Y 20 % (blade root)", ("clarky", 0.20), 2.0e6, 0.0, 1.24, 0.20,
        "Propeller blade near the hub (Clark Y family, NACA TR-640 blade sections), thickened to 20 %.", BLADE_XTR, None,
        BLADE_CD_FACTOR),
    Sec("clarky_12", "Clark Y 12 % (mid blade)", ("clarky", 0.12), 3.0e6, 0.0, 1.24, 0.12,
        "Propeller blade mid span, Clark Y at 12 %.", BLADE_XTR, None, BLADE_CD_FACTOR),
    Sec("clarky_08", "Clark Y 8 % (outer blade)", ("clarky", 0.08), 3.0e6, 0.0, 1.24, 0.08,
        "Propeller blade outer span and tip, Clark Y thinned to 8 %.", BLADE_XTR, None, BLADE_CD_FACTOR),
]


def make_airfoil(coords):
    """("p51droot",), ("p51droot", "p51dtip", fraction), ("clarky", thickness) or ("naca", "2213",
    thickness) (AeroSandbox's NACA four- and five-digit generator, scaled to the thickness)."""
    import aerosandbox as asb
    if coords[0] == "naca":
        af = asb.Airfoil("naca" + coords[1])
        return af.scale(1.0, coords[2] / af.max_thickness())
    if coords[0] == "clarky":
        af = asb.Airfoil("clarky")
        return af.scale(1.0, coords[1] / af.max_thickness())
    af = asb.Airfoil(coords[0])
    if len(coords) == 3:
        af = af.blend_with_another_airfoil(asb.Airfoil(coords[1]), blend_fraction=coords[2])
    return af


def polar(sec: Sec, deflection: float):
    import neuralfoil as nf
    af = make_airfoil(sec.coords)
    if deflection:
        af = af.add_control_surface(deflection=deflection, hinge_point_x=1.0 - sec.chord_fraction)
    r = nf.get_aero_from_airfoil(af, alpha=base.FINE_DEG, Re=sec.reynolds, model_size="xlarge",
                                 xtr_upper=sec.xtr, xtr_lower=sec.xtr)
    return np.asarray(r["CL"], float), np.asarray(r["CD"], float) * sec.cd_factor, np.asarray(r["CM"], float)


def stall_onset(cl_f, cl_cap, shift_deg):
    """Index in FINE_DEG where the post-stall blend starts."""
    a = base.FINE_DEG
    if cl_cap is None:
        return int(np.argmin(np.abs(a - (base.POS_STALL_WINDOW[1] + shift_deg))))
    idx = np.flatnonzero((a >= 4.0) & (a <= 20.0) & (cl_f >= cl_cap))
    a_s = a[idx[0]] if len(idx) else base.POS_STALL_WINDOW[1]
    return int(np.argmin(np.abs(a - (a_s + shift_deg))))


def full_range(cl_f, cd_f, cm_f, cd_max, i_pos, trailing_edge=False):
    """tools/make_airfoils.full_range with the positive stall at index i_pos (past it, lift as
    make_airfoils._trailing_edge_stall where ``trailing_edge``, else its _stall_blend)."""
    i_neg = base._stall(base.FINE_DEG, cl_f, base.NEG_STALL_WINDOW, np.argmin)
    a_pos, a_neg = base.FINE_DEG[i_pos], base.FINE_DEG[i_neg]
    A = base.ALPHA_DEG
    cl, cd, cm = np.empty_like(A), np.empty_like(A), np.empty_like(A)
    for k, deg in enumerate(A):
        a = math.radians(deg)
        if a_neg <= deg <= a_pos:
            cl[k] = np.interp(deg, base.FINE_DEG, cl_f)
            cd[k] = np.interp(deg, base.FINE_DEG, cd_f)
            cm[k] = np.interp(deg, base.FINE_DEG, cm_f)
            continue
        side = 1.0 if deg > 0 else -1.0
        i = i_pos if side > 0 else i_neg
        a_s = math.radians(abs(base.FINE_DEG[i]))
        cl_s, cd_s, cm_s = side * cl_f[i], cd_f[i], side * cm_f[i]
        b = abs(a)
        if b <= math.pi / 2:
            blend = base._trailing_edge_stall if trailing_edge and side > 0 else base._stall_blend
            l, d = blend(np.array(b), a_s, cl_s, cd_s, cd_max)
        else:
            l, d = base._flat_plate(np.array(b), cd_max)
        m = base._post_stall_moment(np.array(b), l, d, a_s, cm_s, cl_s, cd_s)
        cl[k], cd[k], cm[k] = side * float(l), float(d), side * float(m)
    for arr in (cl, cd, cm):
        arr[0] = arr[-1] = 0.5 * (arr[0] + arr[-1])
    cl[0] = cl[-1] = 0.0
    return cl, cd, cm, dict(alpha_pos=a_pos, cl_max=float(cl_f[i_pos]), alpha_neg=a_neg, cl_min=float(cl_f[i_neg]))


def airfoil_table(sec: Sec):
    curves, stalls = {}, {}
    defl = (("deflection_0_deg", 0.0),)
    if sec.chord_fraction > 0:
        defl += (("deflection_plus10_deg", 10.0), ("deflection_minus10_deg", -10.0))
    cl0 = polar(sec, 0.0)[0]
    i0 = stall_onset(cl0, sec.cl_cap, 0.0)
    a0 = base.FINE_DEG[i0]
    for key, d in defl:
        cl_f, cd_f, cm_f = polar(sec, d)
        i = int(np.argmin(np.abs(base.FINE_DEG - (a0 + STALL_SHIFT_PER_DEG * d))))
        cl, cd, cm, st = full_range(cl_f, cd_f, cm_f, sec.cd_max, i, sec.trailing_edge_stall)
        curves[key] = dict(cl=cl, cd=cd, cm=cm)
        stalls[key] = st
    s0 = stalls["deflection_0_deg"]
    cap = (f"post-stall from where NeuralFoil reaches c_l {sec.cl_cap} (measured 6-series c_l,max, see the tool's "
           f"notes)" if sec.cl_cap else "NeuralFoil used up to +16 deg")
    source = (f"{sec.why} Attached flow: NeuralFoil xlarge on the coordinates {sec.coords!r} at Re {sec.reynolds:.1e}"
              + (f", transition fixed at {sec.xtr:.2f} c" if sec.xtr < 1.0 else ", free transition n_crit 9")
              + (f", drag x{sec.cd_factor} for standard roughness (NACA TR-824)" if sec.cd_factor != 1.0 else "")
              + (f"; +/-10 deg curves on the geometry deflected about a hinge at {1 - sec.chord_fraction:.2f} c "
                 f"(AeroSandbox add_control_surface)" if sec.chord_fraction else "")
              + f". Stall {s0['alpha_pos']:.2f} deg (CL {s0['cl_max']:.3f}) / {s0['alpha_neg']:.2f} deg "
              f"(CL {s0['cl_min']:.3f}); {cap}; " + (
                  f"beyond the positive stall a trailing-edge stall (lift to {base.TE_PLATEAU:.2f} of c_l,max "
                  f"{base.TE_DROP_DEG:.0f} deg past it, as the NACA 4412 and 2415's measured curves, Abbott & von "
                  f"Doenhoff app. IV), then a flat plate (CD_max {sec.cd_max}) from {base.TE_TO_PLATE_DEG:.0f} deg "
                  f"past it to 180 deg; beyond the negative stall lift blends to the plate within "
                  f"{base.STALL_BLEND_DEG:.0f} deg" if sec.trailing_edge_stall else
                  f"beyond, lift blends to a flat plate (CD_max {sec.cd_max}) within "
                  f"{base.STALL_BLEND_DEG:.0f} deg and follows it to 180 deg")
              + ". Made by tools/make_p51d_airfoils.py. "
              + base.CITATIONS)
    head = dict(name=sec.name, source=source, control_chord_fraction=sec.chord_fraction,
                **({"control_effectiveness": sec.control_effectiveness} if sec.control_effectiveness != 1.0 else {}),
                reynolds_number=sec.reynolds, thickness_ratio=sec.thickness,
                notes="stall per deflection: " + "; ".join(
                    f"{k}: +{v['alpha_pos']:.2f} deg CL {v['cl_max']:.3f}, {v['alpha_neg']:.2f} deg CL {v['cl_min']:.3f}"
                    for k, v in stalls.items()))
    return head, curves, stalls


# Flaps at full deflection. The +/-10 deg curves are NeuralFoil's on the deflected geometry; at
# 10 deg their lift increment at zero alpha (0.575 for the 20 % flap, 0.631 for the 23 %) is
# within 2 % of the DATCOM plain-flap method (Roskam, Airplane Design Part VI, 1987, sec. 8.1.2.1:
# theoretical c_l,delta of fig. 8.13, 3.71 and 3.98 per rad, times the fig. 8.15 correction for the
# section's lift-curve slope, about 0.89). Past that the flap loses effectiveness: the fig. 8.14
# factor K' falls to 0.590 (flap chord 15 %) and 0.543 (25 %) at 45 deg, so the lift and moment
# increments at full travel are K' x 4.5 times the 10 deg ones. The profile drag added by a plain
# flap is Young's correlation (Gudmundsson, General Aviation Aircraft Design, 2014, p. 725):
# delta_cd = k1(cf/c) k2(delta): 0.107 for the 20 % flap at 45 deg, 0.126 for the 23 %, where the
# +10 deg NeuralFoil curve adds 0.001. Figures as digitized in FAST-GA (ISAE-SUPAERO/ONERA, GPL-3,
# src/fastga/models/aerodynamics/components/resources/k_plain_flap.csv, cl_delta_th_plain_flap.csv,
# and high_lift_aero.py). These hold with the flow attached: the increments fade out over the
# 8 deg past the +10 deg curve's stall (lift, moment) and between 20 and 40 deg (drag), where the
# wing is a flat plate whatever its flap does.
FLAP_FULL_DEG = 45.0                         # the flaps' control_max_deg in aircraft.toml (as built 47)
K_PRIME_45 = ((0.15, 0.590), (0.25, 0.543))  # Roskam fig. 8.14 at 45 deg, by flap chord ratio
FULL_FADE_DEG = 8.0


def young_plain_flap_dcd(chord_fraction: float, deflection_deg: float) -> float:
    """Section profile-drag increment of a plain flap (Young, in Gudmundsson 2014, p. 725)."""
    cf, d = chord_fraction, deflection_deg
    k1 = -21.09 * cf ** 3 + 14.091 * cf ** 2 + 3.165 * cf - 0.00103
    k2 = -3.795e-7 * d ** 3 + 5.387e-5 * d ** 2 + 6.843e-4 * d - 1.4729e-3
    return k1 * k2


def control_full(alpha_deg, curves: dict, chord_fraction: float, deflection_deg: float, k_prime: float) -> dict:
    """A plain control's cl, cd, cm curves at ``deflection_deg`` from its 0 and +10 deg ones:
    the increments times K' x deflection / 10, Young's drag (see above)."""
    scale = k_prime * deflection_deg / 10.0
    a = np.asarray(alpha_deg, dtype=float)
    z, p = curves["deflection_0_deg"], curves["deflection_plus10_deg"]
    cl10 = np.asarray(p["cl"])
    near = np.abs(a) <= 25.0
    a_pos = a[near][np.argmax(np.where(a[near] >= 0, cl10[near], -9.0))]   # the +10 curve's stalls
    a_neg = a[near][np.argmin(np.where(a[near] <= 0, cl10[near], 9.0))]
    attached = np.clip(1.0 - np.maximum(a - a_pos, a_neg - a) / FULL_FADE_DEG, 0.0, 1.0)
    out = {}
    for coef in ("cl", "cm"):
        v0, v10 = np.asarray(z[coef]), np.asarray(p[coef])
        out[coef] = v10 + (scale - 1.0) * attached * (v10 - v0)
    i0 = int(np.argmin(np.abs(a)))
    extra = young_plain_flap_dcd(chord_fraction, deflection_deg) - (p["cd"][i0] - z["cd"][i0])
    fade = np.clip((40.0 - np.abs(a)) / 20.0, 0.0, 1.0)
    out["cd"] = np.asarray(p["cd"]) + max(extra, 0.0) * fade
    out["deflection_deg"] = deflection_deg
    return out


# The flap's moment at full travel. Scaling the +10 deg curve's moment increment with its lift keeps
# thin-airfoil theory's centre for the added lift (0.42 c for a 25 % flap: c_m/c_l -0.17). DATCOM puts
# the incremental flap load of plain and split flaps at x_cp = (0.5 - 0.25 cf/c) c (USAF DATCOM fig.
# 6.1.2.1-35a, Roskam Part VI fig. 8.91, as fitted in FAST-GA figure_digitization.x_cp_c_prime):
# -0.19 for the P-51D's 23 % flap, in line with the split flap's measured -0.22 (TR-668 class, the
# Spitfire's tables) and DATCOM's plain-flap moment chart, fig. 6.1.2.1-35B (-0.18 to -0.21 at 40-50
# deg for 20-25 % flaps, with its own lift increment). The moment increment is scaled to that
# centre at zero incidence, its fade past the stall kept (docs/research/flap_moment.md).


def datcom_flap_centre(chord_fraction: float) -> float:
    """c_m,c/4 / c_l of a plain or split flap's added lift (DATCOM fig. 6.1.2.1-35a)."""
    return -(0.5 - 0.25 * chord_fraction - 0.25)


def full_deflection(alpha_deg, curves: dict, chord_fraction: float) -> dict:
    """The flaps' curves at FLAP_FULL_DEG, K' read off K_PRIME_45 at their chord, the moment
    with DATCOM's centre for the flap's added lift (see above)."""
    (c0, k0), (c1, k1) = K_PRIME_45
    k_prime = k0 + (chord_fraction - c0) / (c1 - c0) * (k1 - k0)
    out = control_full(alpha_deg, curves, chord_fraction, FLAP_FULL_DEG, k_prime)
    i0 = int(np.argmin(np.abs(np.asarray(alpha_deg, dtype=float))))
    z = curves["deflection_0_deg"]
    cm0 = np.asarray(z["cm"])
    ratio = (out["cm"][i0] - cm0[i0]) / (out["cl"][i0] - z["cl"][i0])
    out["cm"] = cm0 + datcom_flap_centre(chord_fraction) / ratio * (out["cm"] - cm0)
    return out


def add_full_deflection(path: Path, full=full_deflection, source: str | None = None):
    """Read an airfoil TOML a tool wrote and write it again with its [deflection_full] table,
    ``full(alpha, curves, chord_fraction)`` (default: the flaps' 45 deg), its ``source`` text
    (default FULL_SOURCE) in place of any earlier one."""
    import tomllib
    data = tomllib.loads(path.read_text())
    head = dict(data["airfoil"])
    alpha = head.pop("alpha_deg")
    curves = {k: data[k] for k in ("deflection_0_deg", "deflection_plus10_deg", "deflection_minus10_deg")}
    curves["deflection_full"] = full(alpha, curves, head["control_chord_fraction"])
    head["source"] = head["source"].split(" Full deflection:")[0] + " Full deflection: " + (source or FULL_SOURCE)
    base.check(curves)
    assert np.allclose(alpha, base.ALPHA_DEG)
    base.write_table(path, head, curves)
    i0 = int(np.argmin(np.abs(np.asarray(alpha))))
    f = curves["deflection_full"]
    print(f"{path.parent.parent.name}/{path.stem:20s} full {f['deflection_deg']:.0f} deg: cl(0) {f['cl'][i0]:.3f} "
          f"(0 deg {curves['deflection_0_deg']['cl'][i0]:.3f}), cd(0) {f['cd'][i0]:.4f}, cm(0) {f['cm'][i0]:.3f}, "
          f"cl max {max(f['cl']):.3f}")


FULL_SOURCE = (f"{FLAP_FULL_DEG:.0f} deg curves from the 0 and +10 deg ones: lift and moment increments times "
               "K' x 4.5 (DATCOM plain flap, Roskam Part VI fig. 8.14), the moment's with the added lift at "
               "(0.5 - 0.25 cf/c) c (DATCOM fig. 6.1.2.1-35a), profile drag of Young's plain-flap "
               "correlation (Gudmundsson 2014 p. 725), faded out past the stall (tools/make_p51d_airfoils.py).")
FLAP_SECTIONS = ("p51d_root_flap", "p51d_mid_flap")


# fuselage: slender body (tools/make_airfoils.fuselage_table) with the P-51D's numbers.
# Planforms: top view 9.0 m x 0.86 m mean width, side view 9.0 m x 1.30 m mean height
# (fuselage 32 ft 3 in overall; width and height not published: from the general-arrangement
# drawing proportions). Drag area 0.115 m2 at zero incidence including the canopy and the
# wing-fuselage junction, without the radiator duct (its own component): assumed, the
# build-up being wetted area ~26 m2 x Cf 0.0028 x form factor 1.15 = 0.084 m2, canopy
# ~0.02 m2, junction and excrescences ~0.01 m2 (Hoerner, Fluid-Dynamic Drag, ch. 6 and 13).
FUS_DRAG_AREA = 0.145


def slender_fuselage(drag_area_m2, top_m, side_m, name, build_up, tool):
    """tools/make_airfoils.fuselage_table for another aircraft: its drag area at zero incidence
    over its planform (``top_m`` and ``side_m``: (length, mean width) and (length, mean depth)),
    its name, the build-up the drag area comes from, and the tool that made it (for the source)."""
    planform = top_m[0] * top_m[1] + side_m[0] * side_m[1]
    saved = (base.FUSELAGE_CD0, base.FUSELAGE_DRAG_AREA_M2)
    base.FUSELAGE_CD0 = drag_area_m2 / planform
    base.FUSELAGE_DRAG_AREA_M2 = drag_area_m2
    try:
        head, curves = base.fuselage_table()
    finally:
        base.FUSELAGE_CD0, base.FUSELAGE_DRAG_AREA_M2 = saved
    head["name"] = name
    areas = f"({top_m[0] * top_m[1]:.2f} + {side_m[0] * side_m[1]:.2f} m2)"
    head["source"] = head["source"].replace("(2.40 + 2.88 m2)", areas).replace(
        "the low end of the glider-fuselage range 0.04-0.06 m2 "
        "(Thomas, F., Fundamentals of Sailplane Design, 1999, ch. 4), chosen against the published polar in the "
        "wind tunnel (seed 000's tuning of the fuselage)", f"{build_up} ({tool})")
    head["source"] = head["source"].replace("tools/make_airfoils.py.", f"{tool}.")
    return head, curves


def fuselage():
    head, curves = slender_fuselage(FUS_DRAG_AREA, (9.0, 0.86), (9.0, 1.30), "P-51D fuselage (slender body)",
                                    "a build-up for the P-51D fuselage with canopy, radiator duct excluded",
                                    "tools/make_p51d_airfoils.py")
    head["thickness_ratio"] = 0.10
    return head, curves


def write_section(out_dir: Path, name: str, head: dict, curves: dict, stalls: dict) -> None:
    """Check a section's curves, write its table and print each deflection's stall (the build log)."""
    base.check(curves)
    base.write_table(out_dir / f"{name}.toml", head, curves)
    for k, s in stalls.items():
        print(f"{name:20s} {k:24s} stall +{s['alpha_pos']:5.2f} deg CL {s['cl_max']:.3f}   "
              f"{s['alpha_neg']:6.2f} deg CLmin {s['cl_min']:.3f}", flush=True)


def write_fuselage(out_dir: Path, head: dict, curves: dict) -> None:
    base.check(curves)
    base.write_table(out_dir / "fuselage.toml", head, curves)
    print("fuselage written")


# The tails at full travel: DATCOM's K' (Roskam Part VI fig. 8.14, as digitized in FAST-GA's
# k_plain_flap.csv), as the Spitfire's and Bf 109's copies of these tail tables carry them
# (tools/make_fighter_airfoils.py TAIL_FULL: the elevator, 35 %, at 25 deg 0.649; the rudder, 45 %, at
# 30 deg 0.559). Without them the compiler ran the +10 deg increment on linearly to full travel, 1.5 and
# 1.8 times DATCOM's lift. The ailerons (25 %) at their 15 deg keep the straight line: K' is 0.978 there.
CONTROL_FULL = {"naca0010_elevator": (25.0, 0.649), "naca0010_rudder": (30.0, 0.559)}


def control_full_source(deflection_deg: float, k_prime: float, tool: str = "tools/make_p51d_airfoils.py") -> str:
    """The [deflection_full] curve's source text for a plain control (this tool's and the C172's)."""
    return (f"{deflection_deg:g} deg curves from the 0 and +10 deg ones, the increments times K' {k_prime} x "
            f"{deflection_deg / 10.0:g} (DATCOM plain flap, Roskam Part VI fig. 8.14), drag by Young's correlation, "
            f"faded out past the stall ({tool} CONTROL_FULL).")


def add_control_full(out_dir: Path, controls: dict, only=(), tool: str = "tools/make_p51d_airfoils.py") -> None:
    """Each plain control's [deflection_full] ({table: (deflection deg, K')}) added to its table as
    written, no NeuralFoil run (this tool's and the C172's ``--full-only``)."""
    for name, (deg, kp) in controls.items():
        if not only or name in only:
            add_full_deflection(out_dir / f"{name}.toml", lambda a, c, cf, deg=deg, kp=kp: control_full(a, c, cf, deg, kp),
                                control_full_source(deg, kp, tool))


def main():
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    if "--full-only" in sys.argv:      # no NeuralFoil needed: the full-deflection curves only
        for name in FLAP_SECTIONS:
            if not only or name in only:
                add_full_deflection(OUT_DIR / f"{name}.toml")
        add_control_full(OUT_DIR, CONTROL_FULL, only)
        return
    for sec in SECTIONS:
        if only and sec.file not in only:
            continue
        head, curves, stalls = airfoil_table(sec)
        if sec.file in FLAP_SECTIONS:
            curves["deflection_full"] = full_deflection(base.ALPHA_DEG, curves, sec.chord_fraction)
            head["source"] += " Full deflection: " + FULL_SOURCE
        elif sec.file in CONTROL_FULL:
            deg, kp = CONTROL_FULL[sec.file]
            curves["deflection_full"] = control_full(base.ALPHA_DEG, curves, sec.chord_fraction, deg, kp)
            head["source"] += " Full deflection: " + control_full_source(deg, kp)
        write_section(OUT_DIR, sec.file, head, curves, stalls)
    if not only or "fuselage" in only:
        write_fuselage(OUT_DIR, *fuselage())


if __name__ == "__main__":
    main()
