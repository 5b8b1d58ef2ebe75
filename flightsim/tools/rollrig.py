"""The wind tunnel's roll rig: steady roll rate against speed with the pilot's full lateral force.

Seed 000's roll charts: with a fixed maximum stick force (say 50 lb of side pressure)
the aileron deflection the pilot can hold falls as 1/V^2 above the aileron's
full-deflection speed, so the steady roll rate rises with speed, peaks there and then
falls. This rig measures that curve on the full model:

* the aircraft is trimmed wings level at the test speed (a level trim for a powered
  aircraft, a steady glide for a glider) at the given altitude;
* then the stick goes fully to the side (``ctrl roll = 1``: the pilot's maximum lateral
  force) and the aircraft is flown for ``seconds`` on a one-degree-of-freedom rig, as in
  a tunnel with a roll gimbal: after every step the airflow (body velocity), height and
  the pitch and yaw rates are put back to the trim, so only the roll rate and the
  surfaces evolve, through the same kernels the game flies (aileron surface dynamics,
  blade-element damping in roll, adverse aileron drag);
* the steady roll rate is the mean over the last second.

The speeds are indicated (equivalent) airspeeds, from a little above the stall to VNE.
"""
from __future__ import annotations

import math

import numpy as np

from ..physics.atmosphere import isa
from ..physics.named import Controls
from ..physics.state import flat_terrain, pin_to_roll_axis
from ..sim import Sim

KMH = 3.6
RHO0 = 1.225


def _trim(sim: Sim, tas_ms: float, altitude_m: float):
    tr = sim.trimmer(altitude_m, plant_in_jacobian=False)
    t = None
    if sim.compiled.spec.aircraft["kind"] == "powered":
        t = tr.level(tas_ms)
        if not (t.ok and 0.0 <= t.throttle <= 1.0):
            t = None
    if t is None:
        t = tr.glide(tas_ms)
    return t if t.ok and t.within_travel else None


def steady_roll_rate(sim: Sim, ias_kmh: float, altitude_m: float, seconds: float = 4.0,
                     direction: float = 1.0) -> dict | None:
    """Steady roll rate (deg/s) at ias_kmh with full lateral stick force, or None if the
    aircraft has no wings-level trim at that speed."""
    rho = float(isa(altitude_m)[2])
    tas_ms = ias_kmh / KMH * math.sqrt(RHO0 / rho)
    t = _trim(sim, tas_ms, altitude_m)
    if t is None:
        return None
    held = t.state.copy()
    state = t.state.copy()
    ctrl = t.ctrl.copy()
    Controls(ctrl).roll = direction
    n = int(round(seconds / 0.02))
    last = max(int(round(1.0 / 0.02)), 1)
    p = np.empty(n)
    aileron = np.empty(n)
    sim.state, sim.ctrl = state, ctrl
    for i in range(n):
        sim.step()
        # the rig: airflow, height and the other rotations held at the trim
        pin_to_roll_axis(sim.state, held)
        p[i] = sim.roll_rate_rads
        aileron[i] = sim.surface("roll")
        if not np.isfinite(p[i]):
            return None
    return {"ias_kmh": round(float(ias_kmh), 2),
            "roll_rate_dps": round(float(math.degrees(direction * p[-last:].mean())), 2),
            "tas_kmh": round(tas_ms * KMH, 2),
            "aileron_fraction": round(float(direction * aileron[-last:].mean()), 3),
            "time_to_90pct_s": round(float(np.argmax(direction * p >= 0.9 * direction * p[-last:].mean()) + 1) * 0.02, 2)}


def roll_curve(aircraft, altitude_m: float = 0.0, step_kmh: float | None = None) -> dict:
    """The roll-rate curve from a little above the stall (1.25 Vs) to VNE, and on to 1.3 VNE
    for a wing that twists (its aileron reversal lies out there: issue 17) (JSON-ready);
    ``aircraft`` is a name in aircraft/ or a compiled aircraft."""
    sim = Sim(aircraft, terrain=flat_terrain(-1.0e6))     # free air: the rig is not near the ground
    spec = sim.compiled.spec
    vne = spec.aircraft["vne_kmh"]
    ref = spec.reference or {}
    if ref.get("stall_kmh"):
        vs = ref["stall_kmh"]
    elif sim.powered:
        from .perf import stall_speed
        # (a Sim of its own: the sweep leaves states the rig's trims do not all reset)
        vs = stall_speed(sim.compiled, sim=Sim(sim.compiled, terrain=flat_terrain(-1.0e6)))[0]
    else:
        vs = 0.16 * vne
    v_min = 1.25 * vs
    twists = any(s.get("torsional_stiffness_nm_per_deg", 0.0) > 0.0 for s in spec.sections)
    v_max = (1.3 if twists else 1.0) * vne
    step = step_kmh or max(5.0, round((vne - v_min) / 12.0 / 5.0) * 5.0)
    speeds = np.arange(math.ceil(v_min / 5.0) * 5.0, v_max + 0.1, step)
    points = []
    for v in speeds:
        pt = steady_roll_rate(sim, float(v), altitude_m)
        if pt is not None:
            points.append(pt)
    ail = spec.controls["aileron"]
    return {"aircraft": spec.id, "altitude_m": float(altitude_m), "points": points,
            "aileron": {k: float(ail.get(k, 0.0)) for k in TAB_KEYS},
            "max_lateral_force_n": ail["max_force_n"],
            "aileron_full_deflection_ias_kmh": ail["full_deflection_ias_kmh"],
            "rig": "wings-level trim, full lateral stick force, one-degree-of-freedom roll (airflow held)"}


TAB_KEYS = ("geared_tab_ease", "spring_tab_half_ias_kmh", "tab_effectiveness_loss")


def with_aileron_tabs(aircraft, spring_tab_half_ias_kmh: float = 0.0, tab_effectiveness_loss: float = 0.0,
                      geared_tab_ease: float = 0.0):
    """The aircraft compiled with these aileron tabs in place of its own (all zero: without
    tabs), for the roll card's with-and-without comparison (issue 17)."""
    import copy

    from ..aircraft_data.compile import Compiled, compile_aircraft
    from ..aircraft_data.loader import load_aircraft
    spec = copy.deepcopy(aircraft.spec if isinstance(aircraft, Compiled) else load_aircraft(aircraft))
    spec.controls["aileron"].update(spring_tab_half_ias_kmh=float(spring_tab_half_ias_kmh),
                                    tab_effectiveness_loss=float(tab_effectiveness_loss),
                                    geared_tab_ease=float(geared_tab_ease))
    return compile_aircraft(spec)


def tab_label(ail: dict) -> str:
    parts = []
    if ail.get("spring_tab_half_ias_kmh"):
        parts.append(f"spring tab (half the hinge moment at {ail['spring_tab_half_ias_kmh']:.0f} km/h)")
    if ail.get("geared_tab_ease"):
        parts.append(f"geared tab ({100 * ail['geared_tab_ease']:.0f} % eased)")
    return ", ".join(parts) or "no aileron tabs"


def roll_comparison(aircraft, altitude_m: float = 0.0, spring_tab_half_ias_kmh: float | None = None,
                    tab_effectiveness_loss: float = 0.1) -> dict:
    """The roll card with and without aileron tabs: the aircraft as its data gives it, and the
    same aircraft with its aileron tabs taken off (or, with ``spring_tab_half_ias_kmh``, given
    that spring tab). Its "compare" holds the second curve."""
    main = roll_curve(aircraft, altitude_m)
    if spring_tab_half_ias_kmh:
        other = with_aileron_tabs(aircraft, spring_tab_half_ias_kmh, tab_effectiveness_loss)
    else:
        other = with_aileron_tabs(aircraft)
    second = roll_curve(other, altitude_m)
    main["tabs"] = tab_label(main["aileron"])
    main["compare"] = {"tabs": tab_label(second["aileron"]), "points": second["points"]}
    return main


def plot_roll(result: dict, path: str):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    ax.plot([p["ias_kmh"] for p in result["points"]], [p["roll_rate_dps"] for p in result["points"]], "o-",
            label=result.get("tabs", "the aircraft's data"))
    if result.get("compare"):
        c = result["compare"]
        ax.plot([p["ias_kmh"] for p in c["points"]], [p["roll_rate_dps"] for p in c["points"]], "s--",
                label=c["tabs"])
    ax.axhline(0.0, color="k", lw=0.6)
    ax.axvline(result["aileron_full_deflection_ias_kmh"], ls=":", color="gray",
               label=f"full aileron with {result['max_lateral_force_n']:.0f} N up to here")
    ax.set_xlabel("indicated airspeed, km/h")
    ax.set_ylabel("steady roll rate, deg/s")
    ax.set_title(f"{result['aircraft']}: roll rate, full lateral stick force, {result['altitude_m']:.0f} m")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
