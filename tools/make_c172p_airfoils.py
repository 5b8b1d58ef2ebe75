"""Generate the Cessna 172P airfoil tables (docs/aircraft_format.md) over -180..180 deg.

    pip install neuralfoil                      # brings aerosandbox (NACA 4-digit generator)
    python tools/make_c172p_airfoils.py         # writes aircraft/c172p/airfoils/*.toml

A build tool only (the game reads the TOML files), beside tools/make_p51d_airfoils.py, whose
method and functions it reuses unchanged (NeuralFoil xlarge for the attached flow, control
surfaces on the deflected geometry, a smoothstep blend into a flat plate past the stall, the
moment from a centre of pressure moving aft). C172P specifics:

* Wing: NACA 2412 from root to tip (Jane's All the World's Aircraft, Cessna 172 entry; Lednicer,
  "The incomplete guide to airfoil usage": Cessna 172 root and tip NACA 2412). AeroSandbox's
  NACA four-digit generator. Re 3.0e6 for the 1.63 m inner chord at about 55 kt (stall to
  climb), 2.5e6 on the aileron panel.
* Surface: transition fixed at 5 % chord (xtr 0.05) on wing and tail, as for the P-51D: a
  production riveted aluminium wing with protruding-head rivets, lap joints and insects keeps
  no useful laminar run.
* Maximum lift: the post-stall blend starts where NeuralFoil reaches c_l 1.60, the measured
  smooth NACA 2412 maximum at R = 3-6 million (Abbott & von Doenhoff, Theory of Wing Sections,
  1959, app. IV: 1.5-1.7 over R 3.1-8.9 million); NeuralFoil (XFOIL-trained) keeps lifting past
  it.
* Past the stall: a trailing-edge stall (tools/make_airfoils.py ``_trailing_edge_stall``): the
  lift falls to 0.70 of its maximum over 8 deg and reaches the flat plate 20 deg past the stall,
  as the measured NACA 4412 and 2415 sections do at R = 3-9 million (Abbott & von Doenhoff app.
  IV: 1.0-1.3 at 20-24 deg). Until Nov 2026 the lift fell to the plate within 8 deg (0.50 at
  20 deg), twice as steeply as any measured curve of these sections: the stalled wing then lost
  its roll damping at once (a wing dropped at 80-90 deg/s) and no spin recovered.
* Flaps: single-slotted ("Fowler-type" in the POH, 0-30 deg), 28 % of the chord (Jane's flap
  area 1.85 m2 on about 2 x 1.85 m of span at 1.63 m chord). The +/-10 deg curves are NeuralFoil's
  on the geometry deflected about a hinge at 0.72 c (a plain flap); the 30 deg curve scales their
  increments by K' = 0.75 x 3 (a slotted flap keeps more of its effectiveness than a plain one:
  DATCOM / Roskam Airplane Design Part VI fig. 8.17 single-slotted flap effectiveness about 0.45-0.5
  per unit deflection at 30 deg and c_f/c 0.28, against the plain flap's theoretical 0.62-0.65:
  K' about 0.75), with Young's plain-flap profile-drag correlation (Gudmundsson 2014 p. 725) for
  the drag (a slotted flap drags somewhat less: conservative).
* Ailerons: 25 % chord (Jane's aileron area 1.70 m2 over about 2 x 2.65 m of span at 1.40 m mean
  chord: 0.23), Frise type, sealed contour assumed (effectiveness 1). Ailerons, elevator and rudder
  at full travel: DATCOM's plain-flap K' (CONTROL_FULL below; ``--full-only`` adds those curves to the
  tables as written, without a NeuralFoil run).
* Tail: NACA 0012 (the usual figure for the Cessna single-engine tails; Lednicer lists NACA 0012
  for the C172 tail); elevator 40 % of the tailplane chord (Jane's: tailplane 2.00 m2, elevators
  with tab 1.35 m2), rudder 46 % (fin 0.77 m2, rudder 0.66 m2). Re 2.5e6 and 3.0e6.
* Propeller blades: Clark Y at Re 1.2-1.8e6, standard roughness, c_l capped at 1.30 (see BLADES).
* Fuselage: the slender-body table of tools/make_airfoils.py with the C172's planform and drag
  area (see FUS_* below).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import make_airfoils as base  # noqa: E402
import make_p51d_airfoils as p51  # noqa: E402

OUT = ROOT / "aircraft" / "c172p" / "airfoils"
XTR = 0.05
CL_CAP_2412 = 1.60
FLAP_CF = 0.28
FLAP_FULL_DEG = 30.0
FLAP_K_PRIME = 0.75
SLOTTED_STALL_SHIFT = -0.05

WHY_WING = ("Cessna 172P wing, NACA 2412 root to tip (Jane's; Lednicer's airfoil-usage list); production "
            "riveted wing, transition fixed at 5 % chord; ")
SECTIONS = [
    p51.Sec("naca2412", "NACA 2412", ("naca", "2412", 0.12), 3.0e6, 0.0, 1.20, 0.12,
            WHY_WING + "inner panel without flap and tip; Re 3.0e6 (chord 1.63 m at 55 kt).", XTR, CL_CAP_2412,
            trailing_edge_stall=True),
    p51.Sec("naca2412_flap", "NACA 2412, 28 % single-slotted flap", ("naca", "2412", 0.12), 3.0e6, FLAP_CF, 1.20,
            0.12, WHY_WING + "flap panel (fuselage to WS 90 in); flap 28 % chord (Jane's flap area); Re 3.0e6.",
            XTR, CL_CAP_2412, trailing_edge_stall=True),
    p51.Sec("naca2412_aileron", "NACA 2412, 25 % aileron", ("naca", "2412", 0.12), 2.5e6, 0.25, 1.20, 0.12,
            WHY_WING + "aileron panel (tapered outer wing); aileron 25 % chord (Jane's aileron area); Re 2.5e6.",
            XTR, CL_CAP_2412, trailing_edge_stall=True),
    p51.Sec("naca0012_elevator", "NACA 0012, 40 % elevator", ("naca", "0012", 0.12), 2.5e6, 0.40, 1.20, 0.12,
            "Cessna 172P tailplane and elevator; NACA 0012 (Lednicer); elevator 40 % (Jane's tailplane 2.00 m2, "
            "elevators 1.35 m2); Re 2.5e6 (chord 0.97 m at 90 kt).", XTR, None),
    p51.Sec("naca0012_rudder", "NACA 0012, 46 % rudder", ("naca", "0012", 0.12), 3.0e6, 0.46, 1.20, 0.12,
            "Cessna 172P fin and rudder; NACA 0012 (Lednicer); rudder 46 % (Jane's fin 0.77 m2, rudder 0.66 m2); "
            "Re 3.0e6.", XTR, None),
]

# Propeller blades: Clark Y (McCauley's fixed-pitch blades use Clark Y-type flat-faced sections; NACA TR-640)
# at the blade's Reynolds number (chord 0.12-0.14 m at 100-200 m/s: 1-2 million), transition at 5 %, drag
# doubled for standard roughness (as the P-51D's); NeuralFoil used to +16 deg as for the P-51D's blades (a
# rotating blade's stall is delayed: Himmelskamp's rotational lift augmentation). Tried and rejected: a
# cap at the non-rotating rough Clark Y's c_l,max 1.30 stalls the inner blade at rest and lets the engine
# overspeed to 2,960 rpm static (the POH's static run-up is about 2,300-2,400 rpm); uncapped the static
# rpm is 2,470 and the static thrust 3,400 N (figure of merit 0.68, high: about 0.5 is usual).
BLADE_CAP = None
BLADES = [
    p51.Sec("clarky_20", "Clark Y 20 % (blade root)", ("clarky", 0.20), 1.2e6, 0.0, 1.24, 0.20,
            "McCauley 1C160 blade near the hub, Clark Y thickened to 20 %.", XTR, BLADE_CAP, 2.0),
    p51.Sec("clarky_12", "Clark Y 12 % (mid blade)", ("clarky", 0.12), 1.6e6, 0.0, 1.24, 0.12,
            "McCauley 1C160 blade mid span, Clark Y at 12 %.", XTR, BLADE_CAP, 2.0),
    p51.Sec("clarky_08", "Clark Y 8 % (outer blade)", ("clarky", 0.08), 1.8e6, 0.0, 1.24, 0.08,
            "McCauley 1C160 blade outer span and tip, Clark Y thinned to 8 %.", XTR, BLADE_CAP, 2.0),
]

FLAP_SOURCE = (f"{FLAP_FULL_DEG:.0f} deg curves from the 0 and +10 deg ones: lift and moment increments times "
               f"K' x 3 with K' = {FLAP_K_PRIME} for a single-slotted flap (DATCOM / Roskam Part VI fig. 8.17 against "
               "the plain flap's theoretical effectiveness), profile drag of Young's plain-flap correlation "
               "(Gudmundsson 2014 p. 725), faded out past the stall (tools/make_c172p_airfoils.py).")


def flap_full(alpha_deg, curves, chord_fraction):
    return p51.control_full(alpha_deg, curves, chord_fraction, FLAP_FULL_DEG, FLAP_K_PRIME)


# Fuselage: top view 8.2 m x 0.75 m mean width, side view 8.2 m x 1.00 m mean depth (length 26 ft
# 11 in overall with the spinner, POH; cabin 39.5 in wide inside; widths and depths from the
# three-view's proportions, assumed). Drag area 0.20 m2 at zero incidence: fuselage with cowl
# (less the cylinder cooling flow, the [radiator] component), windshield, cabin, tail cone,
# wing-fuselage junction 0.17 m2 (wetted ~20 m2 x Cf 0.0040 x form factor 1.35 = 0.11, windshield
# and cabin step ~0.03, junction, antennas, steps, tie-downs ~0.03: Hoerner ch. 13-14), plus the
# two wing struts 0.03 m2 (2 x 2.4 m x 0.045 m thick elliptical strut, CD 0.13 on frontal area
# with its two junctions), lumped here: see REFERENCES.md.
FUS_DRAG_AREA = 0.20


def fuselage():
    head, curves = p51.slender_fuselage(
        FUS_DRAG_AREA, (8.2, 0.75), (8.2, 1.00), "Cessna 172P fuselage with struts (slender body)",
        "a build-up for the C172 fuselage with cowl, windshield and the two wing struts, the cylinder "
        "cooling drag excluded (its own component)", "tools/make_c172p_airfoils.py")
    head["thickness_ratio"] = 0.12
    return head, curves


# The plain controls at full travel. Without a [deflection_full] the compiler carries the +10 deg
# increment on linearly to the control's travel, where a plain flap has lost effectiveness well before
# 25 deg; the Spitfire's and Bf 109's tails and ailerons carry DATCOM's K' (tools/make_fighter_airfoils.py),
# these now too. K' from Roskam, Airplane Design Part VI, fig. 8.14, as digitized in FAST-GA's
# k_plain_flap.csv (ISAE-SUPAERO/ONERA, GPL-3): the elevator (40 % chord) at its 25.5 deg (28 up /
# 23 down in the aircraft file's symmetric travel) 0.623 (0.632 at 24.8 deg, 0.598 at 27.6); the rudder
# (46 %) at 16 deg 0.893 (0.924 for 40 %, 0.873 for 50 %); the ailerons (25 %) at 17.5 deg 0.944 (0.961 at
# 16.2, 0.936 at 17.8). Drag by Young's plain-flap correlation, as the fighters' (p51.control_full).
CONTROL_FULL = {"naca0012_elevator": (25.5, 0.623), "naca0012_rudder": (16.0, 0.893),
                "naca2412_aileron": (17.5, 0.944)}


def control_full_source(deflection_deg: float, k_prime: float) -> str:
    return p51.control_full_source(deflection_deg, k_prime, "tools/make_c172p_airfoils.py")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    if "--full-only" in sys.argv[1:]:      # the controls' full curves on the tables as written, no NeuralFoil run
        p51.add_control_full(OUT, CONTROL_FULL, only, "tools/make_c172p_airfoils.py")
        return
    for sec in SECTIONS + BLADES:
        if only and sec.file not in only:
            continue
        # a slotted flap keeps the section's stall angle better than a plain one (the slot's jet re-energises
        # the upper surface: Abbott & von Doenhoff fig. 9.x, NACA TR-664 slotted-flap sections stall within
        # 1-2 deg of the plain section at 30 deg): -0.05 deg per deg here against the plain flap's -0.15
        p51.STALL_SHIFT_PER_DEG = SLOTTED_STALL_SHIFT if sec.file == "naca2412_flap" else -0.15
        head, curves, stalls = p51.airfoil_table(sec)
        head["source"] = head["source"].replace("tools/make_p51d_airfoils.py", "tools/make_c172p_airfoils.py "
                                                "(tools/make_p51d_airfoils.py's method)")
        if sec.file == "naca2412_flap":
            curves["deflection_full"] = flap_full(base.ALPHA_DEG, curves, sec.chord_fraction)
            head["source"] += " Full deflection: " + FLAP_SOURCE
        elif sec.file in CONTROL_FULL:
            deg, kp = CONTROL_FULL[sec.file]
            curves["deflection_full"] = p51.control_full(base.ALPHA_DEG, curves, sec.chord_fraction, deg, kp)
            head["source"] += " Full deflection: " + control_full_source(deg, kp)
        p51.write_section(OUT, sec.file, head, curves, stalls)
        i0 = int(np.argmin(np.abs(base.ALPHA_DEG)))
        c0 = curves["deflection_0_deg"]
        print(f"   cl(0) {c0['cl'][i0]:.3f} cd(0) {c0['cd'][i0]:.4f} cm(0) {c0['cm'][i0]:.4f}", flush=True)
    if not only or "fuselage" in only:
        p51.write_fuselage(OUT, *fuselage())


if __name__ == "__main__":
    main()
