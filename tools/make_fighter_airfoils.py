"""Generate the Spitfire LF IX and Bf 109 G-6 wing airfoil tables (docs/aircraft_format.md).

    pip install neuralfoil
    python tools/make_fighter_airfoils.py spitfire     # writes aircraft/spitfire/airfoils/*.toml
    python tools/make_fighter_airfoils.py bf109        # writes aircraft/bf109/airfoils/*.toml
    (the tail tables are the P-51D's NACA 0010 ones, copied, with their full travel added)

A build tool only (the game reads the TOML files). The method is tools/make_p51d_airfoils.py's
(NeuralFoil on the coordinates for the attached flow, control surfaces on the deflected
geometry, the post-stall blend from where the curve reaches the section's measured-class
c_l,max, the flaps' full travel from the +10 deg curve); its functions are reused. What is
particular to these two wings:

* **Spitfire**: NACA 2213 at the root thinning linearly to NACA 2209.4 at the tip (the
  sections of Supermarine drawing 33708, as commonly quoted: docs/research/spitfire_mk9.md
  1.2), from AeroSandbox's NACA four-digit generator, thickness scaled to the station's. A
  thin wing: c_l,max of the NACA 22xx sections with a production finish falls with thickness
  (Abbott & von Doenhoff, Theory of Wing Sections, app. IV: NACA 2412 c_l,max 1.7 smooth
  and about 1.45 with standard roughness at R = 6 million, the 9 % sections stalling from
  the leading edge about 0.15 lower): cl_cap 1.34 at the 12.5 % inner wing to 1.20 at the
  9.6 % tip, a little below those so that the whole aircraft's 1 g stall comes at the
  95-100 mph EAS of the sources' middle (docs/research/spitfire_mk9.md 5.4: CL_max 1.2-1.3;
  with the NeuralFoil root-to-tip curves and the washout, 1.42-1.28 gave 92 mph). Split flaps (two positions,
  85 deg): see SPLIT_FLAP below.
* **Bf 109**: NACA 2R1 14.2 at the root to 2R1 11.35 at the tip (docs/research/bf109_g6.md
  1.2). The 2R1 is a 2 %-camber section with a reflexed mean line; no coordinates were
  found, so the NACA 23015/23012 class is the proxy (AeroSandbox's five-digit generator,
  NACA 230xx, scaled to the station's thickness): c_l,max with a production finish 1.45 at
  the root to 1.36 at the tip.
* **Slat-open tables** (Bf 109 outer wing): NeuralFoil does not model a slat. A
  leading-edge slat leaves the attached lift curve as it is and carries it on past the
  plain section's stall: Weick & Platt, NACA TR-427 (1932), and Weick & Sanders, NACA
  TR-407 (1932), measured maximum-lift gains of 0.4-0.6 on a Clark Y with a 14 % chord
  slot at a 6-8 deg later stall. So the slat-open table is the same section with the
  post-stall blend starting where the NeuralFoil curve reaches cl_cap + SLAT_DCL_MAX (or
  its own peak), and a slot drag of SLAT_DCD at low incidence.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_airfoils as base  # noqa: E402
import make_p51d_airfoils as p51  # noqa: E402
from make_p51d_airfoils import Sec  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "aircraft"
XTR = 0.05                      # service finish: transition fixed near the leading edge (see p51d tool)
SLAT_DCL_MAX = 0.5              # NACA TR-407 / TR-427: +0.4 .. 0.6 with the slot open
SLAT_DCD = 0.002                # the open slot's own drag at low incidence (TR-407: 0.001-0.003)

# Split flap at its single down position (85 deg). NACA TR-668 (Wenzinger & Harris, 1939,
# a 0.20 c split flap on the NACA 23012) and Abbott & von Doenhoff fig. 88: the lift
# increment of a 20 % split flap saturates near 60 deg at about 0.9 at zero incidence (the
# maximum-lift gain about 0.8), its profile drag about 0.15-0.2 at 60-90 deg (values read
# from the plots in those sources as commonly reproduced, not re-measured here). The
# increment fades out past the stall as the plain flaps' does in the P-51D tool.
SPLIT_FLAP_DCL = 0.9
SPLIT_FLAP_DCD = 0.17
SPLIT_FLAP_DCM = -0.2           # the aft load's nose-down moment about the quarter chord (cf 0.2)
SPLIT_FLAP_DEG = 85.0


def split_flap_full(alpha_deg, curves: dict) -> dict:
    """The split flap's curves at SPLIT_FLAP_DEG from the flap-up ones (see SPLIT_FLAP_*)."""
    a = np.asarray(alpha_deg, dtype=float)
    z = curves["deflection_0_deg"]
    cl0 = np.asarray(z["cl"])
    near = np.abs(a) <= 25.0
    a_pos = a[near][np.argmax(np.where(a[near] >= 0, cl0[near], -9.0))] - 2.0   # a split flap stalls earlier
    a_neg = a[near][np.argmin(np.where(a[near] <= 0, cl0[near], 9.0))]
    attached = np.clip(1.0 - np.maximum(a - a_pos, a_neg - a) / p51.FULL_FADE_DEG, 0.0, 1.0)
    fade = np.clip((40.0 - np.abs(a)) / 20.0, 0.0, 1.0)
    return {"cl": cl0 + SPLIT_FLAP_DCL * attached, "cd": np.asarray(z["cd"]) + SPLIT_FLAP_DCD * fade,
            "cm": np.asarray(z["cm"]) + SPLIT_FLAP_DCM * attached, "deflection_deg": SPLIT_FLAP_DEG}


SPLIT_SOURCE = (f"{SPLIT_FLAP_DEG:.0f} deg split flap: the flap-up curves plus c_l {SPLIT_FLAP_DCL}, c_d "
                f"{SPLIT_FLAP_DCD}, c_m {SPLIT_FLAP_DCM} (a 20 % split flap, NACA TR-668 / Abbott & von Doenhoff "
                "fig. 88 class), faded out past a stall 2 deg earlier (tools/make_fighter_airfoils.py).")


def slat_open(sec: Sec) -> Sec:
    return replace(sec, file=sec.file + "_slat", name=sec.name + ", slat open",
                   cl_cap=sec.cl_cap + SLAT_DCL_MAX,
                   why=sec.why + f" Slat open: the same attached curve carried on toward c_l {sec.cl_cap + SLAT_DCL_MAX:.2f} "
                       f"(+{SLAT_DCL_MAX} for the slot, NACA TR-407 / TR-427) before the post-stall blend, or to 16 deg "
                       f"where NeuralFoil's curve does not reach it (the stall below says which); slot drag "
                       f"+{SLAT_DCD} below 10 deg.")


def _t(root, tip, f):
    return root + (tip - root) * f


SPIT_WHY = ("Spitfire LF IX wing: NACA 2213 at the root to NACA 2209.4 at the tip, linear in span (drawing 33708 as "
            "commonly quoted; docs/research/spitfire_mk9.md 1.2), AeroSandbox NACA 4-digit coordinates scaled to the "
            "station's thickness; ")
BF_WHY = ("Bf 109 G-6 wing: NACA 2R1 14.2 at the root to 2R1 11.35 at the tip (docs/research/bf109_g6.md 1.2); no "
          "2R1 coordinates found, the NACA 230xx class as proxy (AeroSandbox five-digit coordinates scaled to the "
          "station's thickness); ")
WINGS = {"spitfire": (SPIT_WHY, "2213", (0.13, 0.094), (1.34, 1.20)),
         "bf109": (BF_WHY, "23015", (0.142, 0.1135), (1.45, 1.36))}


def _strip(wing, file, name, frac, reynolds, cf, why, effect=1.0):
    """The wing's section ``frac`` of the way from root to tip (WINGS: its coordinates, and its
    thickness and c_l,max cap at the root and the tip, linear in span between)."""
    why0, naca, thick, cap = WINGS[wing]
    t = _t(*thick, frac)
    return Sec(file, name, ("naca", naca, t), reynolds, cf, 1.20, round(t, 4), why0 + why, XTR,
               round(_t(*cap, frac), 3), control_effectiveness=effect)


# The aileron sections' effectiveness against NeuralFoil's true-contour, ideally sealed flap
# (the P-51D's beveled, sealed ailerons: 0.47, fitted to NACA's roll rates). No section test
# of either aircraft's ailerons was found, nor a roll rate against speed (R 5.6 / 5.5): the
# Spitfire's shrouded, nose-balanced ailerons at 0.65, which gives it pb/2V 0.07 with full
# aileron at low speed (Gilruth & Turner's satisfactory value, NACA Report 715), the Bf 109's
# plain mass-balanced ailerons at the P-51D's 0.47, so that the Spitfire out-rolls it at all
# speeds as the AFDU found flying the LF IX against a G-6 (R 5.5 / 5.6) (assumed).
SPIT_AILERON_EFFECTIVENESS = 0.65
SPITFIRE = [
    _strip("spitfire", "spit_root_flap", "Spitfire inner wing, 20 % split flap", 0.13, 9.0e6, 0.20,
           "root strip through the fuselage to y = 1.45 m with the split flap; Re at 200 km/h, chord 2.5 m."),
    _strip("spitfire", "spit_mid_flap", "Spitfire mid wing, 20 % split flap", 0.39, 8.4e6, 0.20,
           "flap strip y = 1.45-2.9 m (flap span to the aileron's inner end, 20 % chord assumed); chord 2.34 m."),
    _strip("spitfire", "spit_aileron_inner", "Spitfire outer wing, 22 % aileron", 0.61, 7.2e6, 0.22,
           "inner aileron strip y = 2.9-4.0 m; aileron chord 22 % assumed (drawn planform proportions); chord 2.0 m.",
           SPIT_AILERON_EFFECTIVENESS),
    _strip("spitfire", "spit_aileron_outer", "Spitfire outer wing, 25 % aileron", 0.80, 5.5e6, 0.25,
           "outer aileron strip y = 4.0-5.0 m; aileron chord 25 % assumed; chord 1.54 m.", SPIT_AILERON_EFFECTIVENESS),
    _strip("spitfire", "spit_tip", "Spitfire elliptical tip", 0.95, 3.0e6, 0.0, "tip strip y = 5.0-5.61 m; chord 0.85 m."),
]
SPIT_FLAPS = ("spit_root_flap", "spit_mid_flap")

BF_AILERON_EFFECTIVENESS = 0.47
BF109 = [
    _strip("bf109", "bf_root_flap", "Bf 109 inner wing, 22 % flap", 0.11, 7.5e6, 0.22,
           "root strip to y = 1.1 m, the radiator flap (a plain flap drooping with the landing flap); chord 2.0 m."),
    _strip("bf109", "bf_mid_flap", "Bf 109 mid wing, 22 % flap", 0.34, 6.6e6, 0.22,
           "landing-flap strip y = 1.1-2.3 m, plain flap 22 % chord assumed; chord 1.8 m."),
    _strip("bf109", "bf_mid", "Bf 109 outer wing ahead of the aileron", 0.53, 6.0e6, 0.0,
           "strip y = 2.3-2.95 m between flap and aileron, slatted; chord 1.6 m."),
    _strip("bf109", "bf_aileron_inner", "Bf 109 outer wing, 25 % aileron", 0.68, 5.5e6, 0.25,
           "inner aileron strip y = 2.95-3.75 m, slatted; aileron chord 25 % assumed; chord 1.5 m.", BF_AILERON_EFFECTIVENESS),
    _strip("bf109", "bf_aileron_outer", "Bf 109 outer wing, 25 % aileron", 0.84, 4.9e6, 0.25,
           "outer aileron strip y = 3.75-4.5 m, slatted; chord 1.35 m.", BF_AILERON_EFFECTIVENESS),
    _strip("bf109", "bf_tip", "Bf 109 rounded tip", 0.96, 3.5e6, 0.0, "tip strip y = 4.5-4.96 m; chord 0.95 m."),
]
BF_FLAPS = ("bf_root_flap", "bf_mid_flap")
BF_SLATTED = ("bf_mid", "bf_aileron_inner", "bf_aileron_outer")


def table(sec: Sec, flaps, split: bool):
    head, curves, stalls = p51.airfoil_table(sec)      # the P-51D tool's table maker ("naca" coordinates)
    head["source"] = head["source"].replace("tools/make_p51d_airfoils.py", "tools/make_fighter_airfoils.py")
    if sec.control_effectiveness != 1.0 and sec.chord_fraction > 0:      # an aileron: its full travel
        curves["deflection_full"] = p51.control_full(base.ALPHA_DEG, curves, sec.chord_fraction, AILERON_FULL_DEG,
                                                     AILERON_K_PRIME)
        head["source"] += " Full deflection: " + full_source(AILERON_FULL_DEG, AILERON_K_PRIME)
    if sec.file in flaps:
        if split:
            curves["deflection_full"] = split_flap_full(base.ALPHA_DEG, curves)
            head["source"] += " Full deflection: " + SPLIT_SOURCE
        else:
            curves["deflection_full"] = p51.full_deflection(base.ALPHA_DEG, curves, sec.chord_fraction)
            head["source"] += " Full deflection: " + p51.FULL_SOURCE
    return head, curves, stalls


def write(sec: Sec, out: Path, flaps=(), split=False, slot=False):
    head, curves, stalls = table(sec, flaps, split)
    if slot:
        low = np.clip((12.0 - np.abs(base.ALPHA_DEG)) / 2.0, 0.0, 1.0)
        for c in curves.values():
            c["cd"] = np.asarray(c["cd"]) + SLAT_DCD * low
    p51.write_section(out, sec.file, head, curves, stalls)


# Tail surfaces at full travel. The tail tables (the P-51D's NACA 0010 with a 35 % elevator and
# a 45 % rudder, copied) have +/-10 deg curves only, and without a [deflection_full] the
# compiler carries the +10 deg increment on linearly to full travel; a plain flap loses
# effectiveness well before 25-30 deg. DATCOM's K' (Roskam, Airplane Design Part VI, fig.
# 8.14, as digitized in FAST-GA's k_plain_flap.csv, ISAE-SUPAERO/ONERA, GPL-3): 0.666 (flap
# chord 30 %) and 0.632 (40 %) at 25 deg, 0.572 (40 %) and 0.547 (50 %) at 30 deg. So the full
# elevator (25 deg) gives 2.5 x 0.649 and the full rudder (30 deg) 3 x 0.559 times the 10 deg
# increments; drag by Young's plain-flap correlation (as the P-51D tool's flaps).
TAIL_FULL = {"naca0010_elevator": (25.0, 0.649), "naca0010_rudder": (30.0, 0.559)}
AILERON_FULL_DEG = 20.0          # the ailerons' travel in both aircraft files (assumed, R 1.3 / 1.4)
AILERON_K_PRIME = 0.85           # K' at 20 deg for a 22-25 % chord (the same figure: 0.849 at 25 %)


def full_source(deflection_deg: float, k_prime: float) -> str:
    return (f"{deflection_deg:.0f} deg curves from the 0 and +10 deg ones, the increments times "
            f"K' {k_prime} x {deflection_deg / 10.0:.1f} (DATCOM plain flap, Roskam Part VI fig. 8.14), drag by Young's "
            "correlation, faded out past the stall; the other way the compiler scales the -10 deg increment alike "
            "(tools/make_fighter_airfoils.py).")


def tail_full_deflection(path: Path, deflection_deg: float, k_prime: float):
    """Write the tail table at ``path`` again with its [deflection_full] at ``deflection_deg``."""
    p51.add_full_deflection(path, lambda a, c, cf: p51.control_full(a, c, cf, deflection_deg, k_prime),
                            full_source(deflection_deg, k_prime))


# Fuselages: the slender-body table of tools/make_airfoils.py (through the P-51D tool) with each
# type's planform and zero-lift drag area, canopy, gun blisters, exhausts and junctions
# included, cooling and gear excluded (their own components). The whole aircraft's zero-lift
# drag is far above the P-51D's: C_D0 0.0242 on 22.48 m2 = 0.544 m2 for the Spitfire IX
# (DCS World's AI model, R 5.9) against the P-51D's 0.0163 on 21.65 m2 = 0.353 m2 (NASA SP-468);
# the RAE's 1942 comparison put the Spitfire's drag above the Mustang's below M 0.65 (R 5.7).
# The Spitfire's fuselage drag area 0.19 m2 (assumed, against the P-51D's 0.145: the cannon
# fairings and barrels, the blistered gun bays, the exposed exhaust stacks, the mast and the
# mirror; Hoerner, Fluid-Dynamic Drag, ch. 13 excrescence drag); the Bf 109's 0.17 m2 (the
# cowling-gun troughs and bulges, the framed canopy, the strut-braced tailplane, assumed).
FUSELAGES = {"spitfire": ("Spitfire fuselage (slender body)", (9.0, 0.80), (9.0, 1.15), 0.19),
             "bf109": ("Bf 109 fuselage (slender body)", (8.6, 0.80), (8.6, 1.20), 0.17)}


def fuselage(ac: str, out: Path):
    name, top, side, drag_area = FUSELAGES[ac]
    planform = top[0] * top[1] + side[0] * side[1]
    head, curves = p51.slender_fuselage(drag_area, top, side, name,
                                        f"a build-up for the {name.split(' fuselage')[0]} fuselage with canopy "
                                        "and excrescences", "tools/make_fighter_airfoils.py")
    head["thickness_ratio"] = 0.10
    base.check(curves)
    base.write_table(out / "fuselage.toml", head, curves)
    print(f"fuselage {ac}: drag area {drag_area} m2 on {planform:.2f} m2 of planform")


def main():
    which = [a for a in sys.argv[1:] if not a.startswith("-")] or ["spitfire", "bf109"]
    for ac in which:
        out = ROOT / ac / "airfoils"
        out.mkdir(parents=True, exist_ok=True)
        if ac == "spitfire":
            for sec in SPITFIRE:
                write(sec, out, SPIT_FLAPS, split=True)
        elif ac == "bf109":
            for sec in BF109:
                write(sec, out, BF_FLAPS)
                if sec.file in BF_SLATTED:
                    write(slat_open(sec), out, slot=True)
        else:
            raise SystemExit(f"unknown aircraft {ac!r} (spitfire, bf109)")
        fuselage(ac, out)
        for name, (deg, k) in TAIL_FULL.items():
            src = ROOT / "p51d" / "airfoils" / f"{name}.toml"
            (out / f"{name}.toml").write_text(src.read_text())
            tail_full_deflection(out / f"{name}.toml", deg, k)


if __name__ == "__main__":
    main()
